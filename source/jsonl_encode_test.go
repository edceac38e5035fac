package source

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	cases := []string{"", "plain", `q"uo\te`, "tab\tnl\ncr\r", "\x00\x1f\x7f", "ü€😀", "bad\xffutf8\xc3", "\u2028\u2029", "<&>"}
	// Every special byte at every place of a long string, so that the
	// eight-bytes-at-a-time path meets each in each lane.
	for _, special := range []string{`"`, `\`, "\x00", "\x1f", " ", "\x7f", "é", "\xff", "\u2028", "\u009b", "\u0080", "\u009f", "\u00a0"} {
		for i := range 20 {
			cases = append(cases, strings.Repeat("a", i)+special+strings.Repeat("b", 19-i))
		}
	}
	for _, s := range cases {
		got := appendString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("%q → %s: %v", s, got, err)
			continue
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if utf8.ValidString(s) {
			want = s
		}
		if back != want {
			t.Errorf("%q → %s → %q", s, got, back)
		}
		// No control character, C0 or C1, is written raw: read prints
		// what a hostile sitemap holds to a terminal.
		for _, r := range string(got) {
			if r < 0x20 || r >= 0x80 && r <= 0x9f {
				t.Errorf("%q → %s: control U+%04X written raw", s, got, r)
			}
		}
	}
}

// What AppendJSONL writes, the JSONL source reads back as it was, every
// field and awkward character included; the "sitemap" field is ignored.
func TestAppendJSONLRoundTrip(t *testing.T) {
	urls := []sitemap.URL{
		{Loc: "https://www.example.com/plain"},
		{
			Loc: "https://www.example.com/ü?q=\"a\\b\"&x=<1>", LastMod: "2024-05-01T10:00:00+02:00", ChangeFreq: "daily", Priority: "0.8",
			Images:     []sitemap.Image{{Loc: "https://www.example.com/i.png", Caption: "tab\there\u2028", Title: "t"}, {Loc: "https://www.example.com/j.png"}},
			Videos:     []sitemap.Video{{ThumbnailLoc: "https://www.example.com/t.jpg", Title: "v", Description: "d", ContentLoc: "https://www.example.com/v.mp4", Duration: "60"}},
			News:       &sitemap.News{Publication: sitemap.Publication{Name: "P", Language: "en"}, PublicationDate: "2024-05-01", Title: "n"},
			Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/"}, {Hreflang: "x-default", Href: "https://www.example.com/"}},
		},
	}
	var b []byte
	for i := range urls {
		b = AppendJSONL(b, &urls[i], "https://www.example.com/sitemap.xml")
	}
	j := New(bytes.NewReader(b), "round-trip", FormatJSONL)
	for i, want := range urls {
		got, err := j.Read()
		if err != nil {
			t.Fatalf("entry %d: %v\n%s", i, err, b)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, got, want)
		}
	}
	if _, err := j.Read(); err != io.EOF {
		t.Errorf("after the entries: %v, want io.EOF", err)
	}
}

// BenchmarkAppendJSONL writes the entries of the ../shared/bench workload
// as read writes them.
func BenchmarkAppendJSONL(b *testing.B) {
	u := sitemap.URL{Loc: "https://www.example.com/catalog/item-123456?color=red&size=M&ref=12",
		LastMod: "2024-01-02T10:00:00+00:00", ChangeFreq: "weekly", Priority: "0.5"}
	var buf []byte
	for b.Loop() {
		buf = AppendJSONL(buf[:0], &u, "https://www.example.com/sitemaps/sitemap-1.xml.gz")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
	b.ReportMetric(float64(len(buf))*float64(b.N)/b.Elapsed().Seconds(), "bytes/s")
}
