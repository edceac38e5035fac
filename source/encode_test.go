package source

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// TestCSVRow: AppendCSV writes rows as encoding/csv's Writer does,
// quoting and all, and encoding/csv reads them back as they were.
func TestCSVRow(t *testing.T) {
	for _, row := range [][]string{
		{"https://www.example.com/a", "", "weekly", "0.5"},
		{"https://www.example.com/a,b", `say "hi"`, " lead", "\t", "line\nbreak", "cr\rhere", `\.`, "\u00a0nbsp", "é"},
		{""},
	} {
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		w.Write(row)
		w.Flush()
		if got := string(appendCSVRow(nil, row)); got != want.String() {
			t.Errorf("appendCSVRow(%q) = %q, encoding/csv writes %q", row, got, want.String())
		}
		if len(row) == 1 && row[0] == "" {
			continue // an empty line, which CSV readers skip
		}
		back, err := csv.NewReader(strings.NewReader(string(appendCSVRow(nil, row)))).Read()
		if err != nil || !slices.Equal(back, row) {
			t.Errorf("read back %q, %v; want %q", back, err, row)
		}
	}
}

// TestCSVQuotesEveryPlace: a byte that makes a field quoted is found at
// any place of a long field (the test eight bytes at a time, and the rest),
// as encoding/csv's Writer finds it; high bytes are not mistaken for one.
func TestCSVQuotesEveryPlace(t *testing.T) {
	for _, c := range []string{",", `"`, "\r", "\n", "é", "\xff", "~", " "} {
		for n := 1; n <= 20; n++ {
			for at := 0; at < n; at++ {
				f := strings.Repeat("a", at) + c + strings.Repeat("b", n-at-1)
				var want bytes.Buffer
				w := csv.NewWriter(&want)
				w.Write([]string{f, "x"})
				w.Flush()
				if got := string(appendCSVRow(nil, []string{f, "x"})); got != want.String() {
					t.Fatalf("appendCSVRow(%q) = %q, encoding/csv writes %q", f, got, want.String())
				}
			}
		}
	}
}

// FuzzCSVRow: a row of four fields (an entry's loc, lastmod,
// changefreq and priority) is written as encoding/csv's Writer writes it,
// whatever the fields hold and wherever: the row is tested whole, its
// last bytes by a word that overlaps those before them.
func FuzzCSVRow(f *testing.F) {
	f.Add("https://www.example.com/a?b=1&c=2", "2024-01-15", "weekly", "0.5")
	f.Add("https://www.example.com/a,b", "", "", "")
	f.Add("a", "b", "c", "d")
	f.Add("", "", "", "")
	f.Add("https://www.example.com/\"q\"", "2024-01-15T10:00:00+00:00", "daily", "1.0")
	f.Add("https://www.example.com/x", "2024\n01", " weekly", `\.`)
	f.Add("\u00a0https://www.example.com/", "é", "\r", "0.5,")
	f.Fuzz(func(t *testing.T, a, b, c, d string) {
		row := []string{a, b, c, d}
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		w.Write(row)
		w.Flush()
		if got := string(appendCSVRow([]byte("prefix,"), row)); got != "prefix,"+want.String() {
			t.Fatalf("appendCSVRow(%q) = %q, encoding/csv writes %q", row, got, "prefix,"+want.String())
		}
	})
}

// BenchmarkCSVRow: a row of the ../shared/bench workload as
// `read --format csv` writes it, its document included.
func BenchmarkCSVRow(b *testing.B) {
	u := sitemap.URL{Loc: "https://www.example.com/catalog/item-1?color=red&size=M&ref=1", LastMod: "2024-01-02T10:00:00+00:00", ChangeFreq: "weekly", Priority: "0.5"}
	doc := "https://www.example.com/sitemaps/sitemap-1.xml.gz"
	buf := make([]byte, 0, 4096)
	for range b.N {
		buf = AppendCSV(buf[:0], &u, doc, true)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestAppendTextLoc: every control byte, at every place of a loc (the
// test eight bytes at a time, and the rest), is percent-encoded, and
// nothing else is.
func TestAppendTextLoc(t *testing.T) {
	for _, c := range []byte{0, '\t', '\n', '\r', 0x1b, 0x1f, 0x7f, ' ', '~', 0x80, 0xff} {
		for n := 1; n <= 20; n++ {
			for at := 0; at < n; at++ {
				loc := strings.Repeat("a", at) + string([]byte{c}) + strings.Repeat("b", n-at-1)
				want := loc
				if c < 0x20 || c == 0x7f {
					want = strings.Repeat("a", at) + fmt.Sprintf("%%%02X", c) + strings.Repeat("b", n-at-1)
				}
				if got := string(appendTextLoc(nil, loc)); got != want {
					t.Fatalf("appendTextLoc(%q) = %q, want %q", loc, got, want)
				}
			}
		}
	}
}

// richURL carries every field a URL has.
func richURL() sitemap.URL {
	return sitemap.URL{
		Loc: `https://www.example.com/p?a=1&b="x",y`, LastMod: "2024-05-01T10:00:00+02:00", ChangeFreq: "weekly", Priority: "0.8",
		Images:     []sitemap.Image{{Loc: "https://www.example.com/1.jpg", Caption: "One, \"two\"\nthree", Title: "T"}, {Loc: "https://www.example.com/2.jpg"}},
		Videos:     []sitemap.Video{{ThumbnailLoc: "https://www.example.com/t.jpg", Title: "V", Description: "D é", ContentLoc: "https://www.example.com/v.mp4", Duration: "60", Tags: []string{"a", "b"}}},
		News:       &sitemap.News{Publication: sitemap.Publication{Name: "Example Times", Language: "en"}, PublicationDate: "2024-05-01", Title: "Héadline"},
		Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/p"}, {Hreflang: "x-default", Href: "https://www.example.com/p"}},
	}
}

// readCSV reads what New reads from in, as CSV, failing on any error.
func readCSV(t testing.TB, in []byte) []sitemap.URL {
	t.Helper()
	var got []sitemap.URL
	for u, err := range New(bytes.NewReader(in), "in.csv", FormatCSV).All() {
		if err != nil {
			t.Fatalf("reading back %q: %v", in, err)
		}
		got = append(got, u)
	}
	return got
}

// TestAppendCSVRoundTrip: every field of an entry, extensions included,
// comes back from the CSV reader as it was written, with or without the
// document's column; encoding/csv reads the rows, each as long as the
// header.
func TestAppendCSVRoundTrip(t *testing.T) {
	urls := []sitemap.URL{richURL(), {Loc: "https://www.example.com/plain"}, {Loc: "https://www.example.com/img", Images: []sitemap.Image{{Loc: "https://www.example.com/i.png"}}}}
	for _, withDoc := range []bool{true, false} {
		b := []byte(CSVHeader(withDoc))
		for i := range urls {
			b = AppendCSV(b, &urls[i], "https://www.example.com/sitemap, \"1\".xml", withDoc)
		}
		if got := readCSV(t, b); !reflect.DeepEqual(got, urls) {
			t.Errorf("withDoc %v: read back\n%+v\nwant\n%+v\nfrom\n%s", withDoc, got, urls, b)
		}
		r := csv.NewReader(bytes.NewReader(b))
		recs, err := r.ReadAll()
		if err != nil || len(recs) != len(urls)+1 {
			t.Fatalf("encoding/csv: %d records, %v", len(recs), err)
		}
		if withDoc && recs[1][4] != "https://www.example.com/sitemap, \"1\".xml" {
			t.Errorf("sitemap column %q", recs[1][4])
		}
	}
}

// TestCSVJSONColumnErrors: a JSON cell that is not what its column holds
// is an error naming the file, line, column and what was wanted; the rows
// around it are read.
func TestCSVJSONColumnErrors(t *testing.T) {
	for _, tc := range []struct{ cell, want string }{
		{`"[{""loc"":1}]"`, ""}, // a number is a string, as in JSONL
		{`"[{""lok"":""x""}]"`, `unknown field "lok"`},
		{`"[{""loc"":""x"",""LOC"":""y""}]"`, `field "LOC" given twice, as "loc" and "LOC"`},
		{`nope`, "invalid character"},
		{`"{""loc"":""x""}"`, "want an array of image URLs or objects"},
		{`"[""a""] [""b""]"`, "more than one JSON value"},
		{`"[` + strings.Repeat(`1,`, 999) + `1]"`, ""},
		// Refused as it is decoded: a cell of 16 MiB took 2.3 GB whole.
		{`"[` + strings.Repeat(`1,`, 1000) + `1]"`, "more than 1000 images, the most sitemapkit takes for one URL"},
	} {
		in := "loc,images\nhttps://www.example.com/a,\nhttps://www.example.com/b," + tc.cell + "\nhttps://www.example.com/c,\n"
		s := New(strings.NewReader(in), "in.csv", FormatCSV)
		var locs []string
		var errs []error
		for u, err := range s.All() {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			locs = append(locs, u.Loc)
		}
		if tc.want == "" {
			if len(errs) > 0 || len(locs) != 3 {
				t.Errorf("%.40s: %v, %q", tc.cell, errs, locs)
			}
			continue
		}
		if len(errs) != 1 || !slices.Equal(locs, []string{"https://www.example.com/a", "https://www.example.com/c"}) {
			t.Fatalf("%.40s: errors %v, locs %q", tc.cell, errs, locs)
		}
		msg := errs[0].Error()
		if !strings.HasPrefix(msg, "in.csv:3:27: ") || !strings.Contains(msg, `column "images"`) || !strings.Contains(msg, tc.want) {
			t.Errorf("%.40s: error %q, want in.csv:3:27 and %q", tc.cell, msg, tc.want)
		}
	}
}

// FuzzAppendCSV: whatever an entry's fields hold (a loc not blank), its
// row reads back as the same entry, save what AppendCSV says CSV
// changes: a control character of a plain column is percent-encoded, a
// byte that is not UTF-8 reads as U+FFFD (in the JSON cells too, as
// JSONL writes them).
func FuzzAppendCSV(f *testing.F) {
	f.Add("https://www.example.com/a", "2024-01-01", "https://www.example.com/i.jpg", "cap", "de", "https://www.example.com/de", "T", "doc.xml")
	f.Add("a,b", `"q"`, "x\ny", "\r", " lead", `\.`, "é", "\u2028")
	f.Add(`\.`, "", "", "", "", "", "", "")
	f.Add("https://www.example.com/caf\xe9\r\n", "\x00", "\xff\xfe", "\xc3", "d\xe9", "h", "\xe2\x80", "d\xe9.xml")
	f.Fuzz(func(t *testing.T, loc, lastmod, img, caption, hreflang, href, title, doc string) {
		if strings.TrimSpace(loc) == "" {
			return
		}
		u := sitemap.URL{Loc: loc, LastMod: lastmod}
		if img != "" {
			u.Images = []sitemap.Image{{Loc: img, Caption: caption}}
		}
		if href != "" {
			u.Alternates = []sitemap.Alternate{{Hreflang: hreflang, Href: href}}
		}
		if title != "" {
			u.News = &sitemap.News{Title: title}
		}
		b := AppendCSV([]byte(CSVHeader(true)), &u, doc, true)
		got := readCSV(t, b)
		field := func(s string) string { return validUTF8(string(appendTextLoc(nil, s))) }
		want := sitemap.URL{Loc: field(loc), LastMod: field(lastmod)}
		if img != "" {
			want.Images = []sitemap.Image{{Loc: validUTF8(img), Caption: validUTF8(caption)}}
		}
		if href != "" {
			want.Alternates = []sitemap.Alternate{{Hreflang: validUTF8(hreflang), Href: validUTF8(href)}}
		}
		if title != "" {
			want.News = &sitemap.News{Title: validUTF8(title)}
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Fatalf("read back %+v, want %+v, from %q", got, want, b)
		}
	})
}

// TestCSVRowsDoNotAllocate: a CSV row of plain fields costs no allocation
// of its own (its strings are slices of a window of lines, made once for
// many rows): a URL moved to the heap, as one handed to a closure of the
// JSON columns did, cost a tenth of generate's time.
func TestCSVRowsDoNotAllocate(t *testing.T) {
	const rows = 20000
	var in bytes.Buffer
	in.WriteString("loc,lastmod,changefreq,priority,images\n")
	for i := range rows {
		fmt.Fprintf(&in, "https://www.example.com/p/%d,2024-01-02,weekly,0.5,\n", i)
	}
	allocs := testing.AllocsPerRun(2, func() {
		n := 0
		for _, err := range New(bytes.NewReader(in.Bytes()), "in.csv", FormatCSV).All() {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != rows {
			t.Fatalf("%d rows", n)
		}
	})
	if allocs > rows/10 {
		t.Errorf("%.0f allocations for %d rows, want under one for ten", allocs, rows)
	}
}

// TestRecordBounds: a record past the bounds of one URL is refused before
// it is decoded whole, with ErrTooMany, and the next record is read: lists
// inside a video (prices, tags) are not lists maxCellItems counts, and
// repeated image and alternate columns are not a JSON cell. Decoded whole,
// 5 million empty prices in 15 MB took 1.2 GB, 2.8 million image columns
// 1.2 GB.
func TestRecordBounds(t *testing.T) {
	video := `{"thumbnail_loc":"https://www.example.com/t.jpg","title":"T","description":"D","content_loc":"https://www.example.com/v.mp4","prices":[` +
		strings.Repeat(`{},`, maxJSONValues) + `{}]}`
	jsonl := `{"loc":"https://www.example.com/a","videos":[` + video + "]}\n" + `{"loc":"https://www.example.com/b"}` + "\n"
	cells := strings.Repeat(",https://www.example.com/i.jpg", maxCellItems+1)
	csvIn := "loc" + strings.Repeat(",image", maxCellItems+1) + "\nhttps://www.example.com/a" + cells + "\nhttps://www.example.com/b" + strings.Repeat(",", maxCellItems+1) + "\n"
	for _, tc := range []struct {
		format Format
		in     string
	}{{FormatJSONL, jsonl}, {FormatCSV, csvIn}} {
		var locs []string
		var errs []error
		for u, err := range New(strings.NewReader(tc.in), "in", tc.format).All() {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			locs = append(locs, u.Loc)
		}
		if len(errs) != 1 || !errors.Is(errs[0], ErrTooMany) || !slices.Equal(locs, []string{"https://www.example.com/b"}) {
			t.Errorf("%s: errors %v, locs %q; want one ErrTooMany, and b read", tc.format, errs, locs)
		}
	}
}

// TestCSVFieldsBounded: a record of more fields than any header may name
// ends the stream with ErrTooMany before its fields are made, even when a
// quoted field carries them past the header's first line (whose commas
// the header's cap counts): such a header took 916 MB.
func TestCSVFieldsBounded(t *testing.T) {
	in := "loc,\"image\n\"" + strings.Repeat(",image", 2*maxColumns) + "\nhttps://www.example.com/a\n"
	var errs []error
	for _, err := range New(strings.NewReader(in), "in.csv", FormatCSV).All() {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrTooMany) {
		t.Errorf("errors %v, want one ErrTooMany", errs)
	}
}

// TestCSVWideRowAlone: a row of more fields than any header may name, on
// one line, is refused alone, and the rows after it are read: it ended
// the stream, and nothing was published.
func TestCSVWideRowAlone(t *testing.T) {
	in := "loc,lastmod\n\"https://www.example.com/a\"" + strings.Repeat(",x", 2*maxColumns) + "\nhttps://www.example.com/b,2024-01-01\n"
	var locs []string
	var errs []error
	for u, err := range New(strings.NewReader(in), "in.csv", FormatCSV).All() {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		locs = append(locs, u.Loc)
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrTooMany) || !slices.Equal(locs, []string{"https://www.example.com/b"}) {
		t.Errorf("errors %v, locs %q; want one ErrTooMany, and b read", errs, locs)
	}
	// One whose rest opens a quote that runs past its line ends the
	// stream: the lines in the quote were read as rows.
	in = "loc,lastmod\nhttps://www.example.com/a" + strings.Repeat(",x", 2*maxColumns) + ",\"open\nhttps://www.example.com/inside,2024-01-01\nclose\"\n"
	locs, errs = nil, nil
	for u, err := range New(strings.NewReader(in), "in.csv", FormatCSV).All() {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		locs = append(locs, u.Loc)
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrTooMany) || len(locs) != 0 {
		t.Errorf("a quote running on: errors %v, locs %q; want one ErrTooMany, nothing read", errs, locs)
	}
}

// appendCSVRow appends fields as a CSV record, its line end included.
func appendCSVRow(b []byte, fields []string) []byte {
	return append(appendCSVFields(b, fields), '\n')
}

// TestHasControl: every byte, at every place of rows of 1 to 40 bytes
// (the test eight bytes at a time, the overlapping last word, the short
// rows), is found a control character exactly when it is one.
func TestHasControl(t *testing.T) {
	for c := 0; c < 256; c++ {
		for n := 1; n <= 40; n++ {
			for at := 0; at < n; at++ {
				b := bytes.Repeat([]byte{0xff}, n)
				if n%2 == 0 {
					b = bytes.Repeat([]byte{' '}, n) // the lowest byte that is none
				}
				b[at] = byte(c)
				if got, want := hasControl(b), c < 0x20 || c == 0x7f; got != want {
					t.Fatalf("byte %#x at %d of %d: %v, want %v", c, at, n, got, want)
				}
			}
		}
	}
}
