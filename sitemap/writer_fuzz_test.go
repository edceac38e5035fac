package sitemap_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// FuzzParseDate checks the hand-written parser against the standard
// library's: every value ParseDate accepts in a form time.Parse knows
// must mean the same instant there, and FormatDate must give it back.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{
		"1997", "1997-07", "1997-07-16", "1997-07-16T19:20+01:00", "1997-07-16T19:20:30+01:00",
		"1997-07-16T19:20:30.45+01:00", "2004-09-22T14:12:14Z", "2024-02-29", "2023-02-29",
		"2005-01-01T10:00:00", "2017-06-20-04:00", "2024-01-01T10:00:00+14:00", "2024-01-01T24:00:00Z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := sitemap.ParseDate(s)
		if err != nil {
			return
		}
		var layout string
		switch {
		case len(s) == 10:
			layout = "2006-01-02"
		case len(s) >= 20 && s[16] == ':':
			layout = time.RFC3339Nano
		}
		if layout != "" {
			want, err := time.Parse(layout, s)
			if err != nil || !want.Equal(got) {
				t.Fatalf("ParseDate(%q) = %v; time.Parse = %v, %v", s, got, want, err)
			}
		}
		if y := got.Year(); y < 1 || y > 9999 { // 0001-01-01T00:00+01:00 is in year 0 in UTC
			return
		}
		back, err := sitemap.ParseDate(sitemap.FormatDate(got))
		if err != nil || !back.Equal(got.Truncate(time.Second)) {
			t.Fatalf("ParseDate(FormatDate(ParseDate(%q))) = %v, %v; want %v", s, back, err, got)
		}
	})
}

// FuzzWriter writes URLs made of arbitrary values: the Writer either
// refuses one with a *Violation, or writes it so that encoding/xml reads
// back exactly what was given, on one line, with Len exact.
func FuzzWriter(f *testing.F) {
	f.Add("https://www.example.com/a?b=1&c='2'", "2024-01-02T10:00+02:00", "Caption <&> \"'", "de-DE")
	f.Add("http://www.example.com/%C3%BCmlat.html&q=name", "2024", "\t\n\r", "x-default")
	f.Add("https://www.example.com/ü", "", "\x00", "es-419")
	f.Fuzz(func(t *testing.T, loc, lastmod, text, hreflang string) {
		u := sitemap.URL{
			Loc:        loc,
			LastMod:    lastmod,
			Images:     []sitemap.Image{{Loc: "https://www.example.com/i.jpg", Caption: text}},
			Alternates: []sitemap.Alternate{{Hreflang: hreflang, Href: "https://www.example.com/" + hreflang}},
		}
		var out bytes.Buffer
		w := sitemap.NewWriter(&out, sitemap.FormatURLSet)
		err := w.WriteURL(&u)
		if _, refused := err.(*sitemap.Violation); refused {
			return
		}
		if err != nil {
			t.Fatalf("WriteURL: %v", err)
		}
		n := w.Len()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if int64(out.Len()) != n {
			t.Fatalf("Len() = %d; document has %d bytes", n, out.Len())
		}
		if lines := strings.Count(out.String(), "\n"); lines != 4 {
			t.Fatalf("document has %d lines; want 4:\n%s", lines, out.String())
		}
		got := decodeURLSet(t, out.Bytes())
		want := u
		if len(want.LastMod) > 16 && want.LastMod[16] != ':' { // hh:mm gets its seconds
			want.LastMod = want.LastMod[:16] + ":00" + want.LastMod[16:]
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Fatalf("read back %+v; want %+v", got, want)
		}
	})
}
