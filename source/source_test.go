package source_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/gzip"

	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// got is what a Source yielded: URLs with their lines, and errors.
type got struct {
	urls  []sitemap.URL
	lines []int
	errs  []error
}

func readAll(t *testing.T, s source.Source) got {
	t.Helper()
	var g got
	for u, err := range s.All() {
		if err != nil {
			g.errs = append(g.errs, err)
			continue
		}
		g.urls = append(g.urls, u)
		g.lines = append(g.lines, s.Line())
	}
	return g
}

func locs(us []sitemap.URL) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Loc)
	}
	return out
}

func open(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestText(t *testing.T) {
	g := readAll(t, source.New(bytes.NewReader(open(t, "urls.txt")), "urls.txt", source.FormatText))
	want := []string{"https://www.example.com/", "https://www.example.com/a", "https://www.example.com/b", "https://www.example.com/c"}
	if !reflect.DeepEqual(locs(g.urls), want) || len(g.errs) > 0 {
		t.Fatalf("got %q, errors %v; want %q", locs(g.urls), g.errs, want)
	}
	if wantLines := []int{2, 4, 6, 7}; !reflect.DeepEqual(g.lines, wantLines) {
		t.Errorf("lines %v, want %v", g.lines, wantLines)
	}
}

var wantProducts = []sitemap.URL{
	{Loc: "https://www.example.com/p/1", LastMod: "2024-05-01", ChangeFreq: "weekly", Priority: "0.8",
		Images: []sitemap.Image{{Loc: "https://www.example.com/img/1.jpg"}},
		Alternates: []sitemap.Alternate{
			{Hreflang: "de-DE", Href: "https://www.example.com/de/p/1"},
			{Hreflang: "x-default", Href: "https://www.example.com/p/1"},
		}},
	{Loc: "https://www.example.com/p/2?a=1&b=2",
		Images: []sitemap.Image{{Loc: "https://www.example.com/img/2,a.jpg"}, {Loc: "https://www.example.com/img/2b.jpg"}}},
	{Loc: "https://www.example.com/p/3", LastMod: "2024-05-03T10:00:00+02:00", Priority: "0.5"},
	{Loc: `https://www.example.com/p/"4"`,
		Alternates: []sitemap.Alternate{{Hreflang: "de-DE", Href: "https://www.example.com/de/p/4\ncontinued"}}},
}

func TestCSV(t *testing.T) {
	in := open(t, "products.csv")
	for name, r := range map[string]io.Reader{
		"plain":            bytes.NewReader(in),
		"one byte":         iotest.OneByteReader(bytes.NewReader(in)),
		"gzip":             bytes.NewReader(gz(t, in)),
		"gzip, half reads": iotest.HalfReader(bytes.NewReader(gz(t, in))),
		"bom, crlf":        strings.NewReader("\uFEFF" + strings.ReplaceAll(string(in), "\n", "\r\n")),
	} {
		t.Run(name, func(t *testing.T) {
			g := readAll(t, source.New(r, "products.csv", source.FormatCSV))
			if len(g.errs) > 0 {
				t.Fatal(g.errs)
			}
			// As in encoding/csv, \r\n inside a quoted field is read as \n.
			if !reflect.DeepEqual(g.urls, wantProducts) {
				t.Errorf("got\n%+v\nwant\n%+v", g.urls, wantProducts)
			}
			if wantLines := []int{2, 3, 5, 6}; !reflect.DeepEqual(g.lines, wantLines) {
				t.Errorf("lines %v, want %v", g.lines, wantLines)
			}
		})
	}
}

func TestCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // error texts, in order
		urls     []string
		fatal    bool
	}{
		{name: "unknown column", in: "loc,lastmode\nhttps://www.example.com/\n",
			want: []string{`f.csv:1:5: bad CSV header: unknown column "lastmode": did you mean "lastmod"? (want loc, lastmod, changefreq, priority, image, images, alternate:<hreflang>, alternates, videos, news, content_hash, etag or sitemap)`}, fatal: true},
		{name: "no loc", in: "lastmod\n2024-01-01\n", want: []string{"f.csv:1:1: bad CSV header: no loc column"}, fatal: true},
		{name: "twice", in: "loc,LOC\n", want: []string{`f.csv:1:5: bad CSV header: column "LOC" appears twice`}, fatal: true},
		{name: "no hreflang", in: "loc,alternate:\n", want: []string{`f.csv:1:5: bad CSV header: column "alternate:" has no hreflang (e.g. alternate:de-DE)`}, fatal: true},
		{name: "field count then goes on", in: "loc,priority\nhttps://www.example.com/a\nhttps://www.example.com/b,0.5,x\nhttps://www.example.com/c,0.1\n",
			want: []string{"f.csv:2:1: wrong number of fields: 1, the header has 2", "f.csv:3:1: wrong number of fields: 3, the header has 2"},
			urls: []string{"https://www.example.com/c"}},
		{name: "bare quote", in: "loc\nhttps://www.example.com/a\"b\nhttps://www.example.com/c\n",
			want: []string{`f.csv:2:26: bare " in non-quoted field`}, urls: []string{"https://www.example.com/c"}},
		{name: "bad quote", in: "loc\n\"https://www.example.com/a\"b\n", want: []string{`f.csv:2:27: extraneous or missing " in quoted field`}},
		{name: "unterminated", in: string(open(t, "bad-quote.csv")), want: []string{`f.csv:2:1: extraneous or missing " in quoted field: field 1 opens a quote here that is never closed`}, fatal: true},
		// An error after a field that spans lines is placed on its own
		// line, not the record's first.
		{name: "bad JSON after a multi-line field", in: "loc,lastmod,images\nhttps://www.example.com/a,\"2024-01-01\nx\",nope\nhttps://www.example.com/c,,\n",
			want: []string{`f.csv:3:4: column "images": invalid JSON: invalid character 'o' in literal null (expecting 'u')`}, urls: []string{"https://www.example.com/c"}},
		{name: "bad quote after a multi-line field", in: "loc,lastmod\n\"https://www.example.com/a\n\"x,\"2024\"y\nhttps://www.example.com/c,\n",
			want: []string{`f.csv:3:1: extraneous or missing " in quoted field`}, urls: []string{"https://www.example.com/c"}},
		{name: "unterminated after a multi-line field", in: "loc,lastmod\n\"https://www.example.com/a\nb\",\"2024\n",
			want: []string{`f.csv:3:4: extraneous or missing " in quoted field: field 2 opens a quote here that is never closed`}, fatal: true},
		{name: "too many columns", in: "loc" + strings.Repeat(",image", 4096) + "\nhttps://www.example.com/\n",
			want: []string{"f.csv:1:1: bad CSV header: 4097 columns or more, past the 4096 of any URL list (1,000 images and hundreds of languages)"}, fatal: true},
		// An empty loc is missing, as JSONL and SQL say, in its column:
		// not a relative URL of nothing, at no column.
		{name: "empty loc", in: "lastmod,loc\n2024-01-01,\n2024-01-02,\" \"\n2024-01-03,https://www.example.com/c\n",
			want: []string{`f.csv:2:12: column "loc": missing loc: the cell is empty`, `f.csv:3:12: column "loc": missing loc: the cell is empty`},
			urls: []string{"https://www.example.com/c"}},
		{name: "empty", in: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := source.New(strings.NewReader(tc.in), "f.csv", source.FormatCSV)
			g := readAll(t, s)
			var texts []string
			for _, err := range g.errs {
				var pe *source.ParseError
				if !errors.As(err, &pe) {
					t.Errorf("%v is not a *ParseError", err)
				}
				texts = append(texts, err.Error())
			}
			if !reflect.DeepEqual(texts, tc.want) {
				t.Errorf("errors %q, want %q", texts, tc.want)
			}
			if !reflect.DeepEqual(locs(g.urls), tc.urls) {
				t.Errorf("urls %q, want %q", locs(g.urls), tc.urls)
			}
			if (s.Err() != nil) != tc.fatal {
				t.Errorf("Err() = %v, want fatal %v", s.Err(), tc.fatal)
			}
		})
	}
}

func TestJSONL(t *testing.T) {
	in := open(t, "posts.jsonl")
	for name, r := range map[string]io.Reader{
		"plain": bytes.NewReader(in),
		"gzip":  bytes.NewReader(gz(t, in)),
	} {
		t.Run(name, func(t *testing.T) {
			g := readAll(t, source.New(r, "posts.jsonl", source.FormatJSONL))
			if len(g.errs) > 0 {
				t.Fatal(g.errs)
			}
			want := []sitemap.URL{
				{Loc: "https://www.example.com/blog/1", LastMod: "2024-05-01", ChangeFreq: "monthly", Priority: "0.8"},
				{Loc: "https://www.example.com/blog/2",
					Images:     []sitemap.Image{{Loc: "https://www.example.com/i/2.jpg", Caption: `A "quoted" caption`, Title: "Two"}},
					Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/blog/2"}}},
				{Loc: "https://www.example.com/blog/3", Videos: []sitemap.Video{{
					ThumbnailLoc: "https://www.example.com/t/3.jpg", Title: "Three", Description: "A video",
					ContentLoc: "https://www.example.com/v/3.mp4", Duration: "600", Rating: "4.5", ViewCount: "1200",
					Tags: []string{"a", "b"}, FamilyFriendly: "yes",
					Restriction: &sitemap.Restriction{Relationship: "allow", Countries: "IE GB"},
					Platform:    &sitemap.Platform{Relationship: "deny", Platforms: "tv"},
					Uploader:    &sitemap.Uploader{Name: "Ann", Info: "https://www.example.com/ann"},
					Prices:      []sitemap.Price{{Value: "1.5", Currency: "EUR", Type: "rent"}},
					Live:        "no",
				}}},
				{Loc: "https://www.example.com/blog/4", News: &sitemap.News{
					Publication:     sitemap.Publication{Name: "The Example Times", Language: "en"},
					PublicationDate: "2024-05-01T10:00:00Z", Title: "Four"}},
			}
			if !reflect.DeepEqual(g.urls, want) {
				t.Errorf("got\n%+v\nwant\n%+v", g.urls, want)
			}
			if wantLines := []int{1, 3, 4, 5}; !reflect.DeepEqual(g.lines, wantLines) {
				t.Errorf("lines %v, want %v", g.lines, wantLines)
			}
		})
	}
}

func TestJSONLErrors(t *testing.T) {
	in := string(open(t, "bad.jsonl")) +
		`{"loc":"https://www.example.com/x","images":"x.jpg"}` + "\n" +
		`{"lastmod":"2024-01-01"}` + "\n" +
		`{"loc":"https://www.example.com/y"} {}` + "\n" +
		`{"loc":"https://www.example.com/ok","priority":1}` + "\n"
	s := source.New(strings.NewReader(in), "p.jsonl", source.FormatJSONL)
	g := readAll(t, s)
	var texts []string
	for _, err := range g.errs {
		texts = append(texts, err.Error())
	}
	want := []string{
		`p.jsonl:1:35: unknown field "lastmodified"`,
		`p.jsonl:2:8: invalid JSON: invalid character '}' looking for beginning of value`,
		`p.jsonl:3:1: invalid JSON: the line is a JSON array, want an object`,
		`p.jsonl:4:45: field "images": invalid JSON: a JSON string, want an array of image URLs or objects`,
		`p.jsonl:5: missing loc: an object needs "loc"`,
		`p.jsonl:6:37: invalid JSON: more than one value on the line`,
	}
	if !reflect.DeepEqual(texts, want) {
		t.Errorf("errors\n%q\nwant\n%q", texts, want)
	}
	if !errors.Is(g.errs[0], source.ErrUnknownField) {
		t.Errorf("%v is not ErrUnknownField", g.errs[0])
	}
	if got := locs(g.urls); !reflect.DeepEqual(got, []string{"https://www.example.com/ok"}) || g.urls[0].Priority != "1" || g.lines[0] != 7 {
		t.Errorf("urls %+v lines %v", g.urls, g.lines)
	}
	if s.Err() != nil {
		t.Errorf("Err() = %v, want nil: bad lines do not end the stream", s.Err())
	}
}

// TestJSONLWholeNumbers: an exporter whose numbers are floats writes a
// video's duration 600 as 600.0, which the Writer refused as "not a whole
// number of seconds" (and so the line). A fraction of zeros is dropped
// from a duration and a view count, in JSONL and in a CSV videos cell; a
// real fraction stays, for the Writer to refuse, and a priority or rating
// keeps what it was written with.
func TestJSONLWholeNumbers(t *testing.T) {
	const video = `"thumbnail_loc":"https://www.example.com/t.jpg","title":"T","description":"D","content_loc":"https://www.example.com/v.mp4"`
	in := `{"loc":"https://www.example.com/a","priority":1.0,"videos":[{` + video + `,"duration":600.0,"view_count":"12.000","rating":4.0},{` + video + `,"duration":600.5,"view_count":7}]}` + "\n"
	g := readAll(t, source.New(strings.NewReader(in), "p.jsonl", source.FormatJSONL))
	csv := readAll(t, source.New(strings.NewReader("loc,videos\nhttps://www.example.com/a,\"[{"+strings.ReplaceAll(video, `"`, `""`)+`,""duration"":600.00}]"`+"\n"), "p.csv", source.FormatCSV))
	if len(g.errs)+len(csv.errs) > 0 || len(g.urls) != 1 || len(csv.urls) != 1 {
		t.Fatalf("errors %v %v, urls %d %d", g.errs, csv.errs, len(g.urls), len(csv.urls))
	}
	v := g.urls[0].Videos
	if g.urls[0].Priority != "1.0" || v[0].Duration != "600" || v[0].ViewCount != "12" || v[0].Rating != "4.0" || v[1].Duration != "600.5" || v[1].ViewCount != "7" {
		t.Errorf("JSONL: priority %q, videos %+v", g.urls[0].Priority, v)
	}
	if d := csv.urls[0].Videos[0].Duration; d != "600" {
		t.Errorf("CSV videos cell: duration %q, want 600", d)
	}
}

// TestJSONLErrorColumnsAfterNumbers: a line with a number is decoded with
// the number quoted, two bytes longer; its errors are still placed at their
// column of the line, as those of a line without one are.
func TestJSONLErrorColumnsAfterNumbers(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"loc":"https://www.example.com/a","priority":0.5,"changefreq":["daily"]}`,
			`p.jsonl:1:64: invalid JSON: field "changefreq" is a JSON array, want a string or number`},
		{`{"loc":"https://www.example.com/a","priority":1,"videos":[{"duration":600,"title":"a\"1","rating":{}}]}`,
			`p.jsonl:1:58: field "videos": video 1: invalid JSON: field "rating" is a JSON object, want a string or number`},
		{`{"priority":-0.5e1, "loc":"https://www.example.com/a" , 7}`,
			`p.jsonl:1:58: invalid JSON: invalid character '}' after object key`},
		{`{"priority":0.5,"loc":"https://www.example.com/\"1\"","changefreq":{}}`,
			`p.jsonl:1:68: invalid JSON: field "changefreq" is a JSON object, want a string or number`},
		{`{"loc":"https://www.example.com/a","priority":0.5} 12`,
			`p.jsonl:1:52: invalid JSON: more than one value on the line`},
		{`{"loc":"https://www.example.com/a","priority":0.5,"lastmod":true}`,
			`p.jsonl:1:64: invalid JSON: field "lastmod" is a JSON bool, want a string or number`},
	} {
		g := readAll(t, source.New(strings.NewReader(tc.line+"\n"), "p.jsonl", source.FormatJSONL))
		got := ""
		if len(g.errs) > 0 {
			got = g.errs[0].Error()
		}
		if got != tc.want {
			t.Errorf("%s:\n error %q\n want  %q", tc.line, got, tc.want)
		}
	}
}

// TestJSONLRepeatedKeys: a key given twice in one object, in any case or
// escaped, is refused where the second is, rather than read as
// encoding/json reads it (the last, whatever its case); one name in two
// objects is no repeat, nor a colon within a string.
func TestJSONLRepeatedKeys(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"loc":"https://www.example.com/a","LOC":"https://www.example.com/b"}`,
			`p.jsonl:1:36: invalid JSON: field "LOC" given twice, as "loc" and "LOC" (fields are matched without regard to case)`},
		{`{"loc":"https://www.example.com/a", "priority":"0.5", "loc":"https://www.example.com/b"}`,
			`p.jsonl:1:55: invalid JSON: field "loc" given twice`},
		{`{"loc":"https://www.example.com/a","\u006coc":"https://www.example.com/b"}`,
			`p.jsonl:1:36: invalid JSON: field "loc" given twice`},
		{`{"loc":"https://www.example.com/a","images":[{"loc":"https://www.example.com/1.jpg","Loc":"https://www.example.com/2.jpg"}]}`,
			`p.jsonl:1:85: invalid JSON: field "Loc" given twice, as "loc" and "Loc" (fields are matched without regard to case)`},
		{`{"loc":"https://www.example.com/a:b","images":[{"loc":"https://www.example.com/1.jpg"},{"loc":"https://www.example.com/2.jpg"}],"lastmod":"2024-01-01"}`, ""},
		{`{"loc":"https://www.example.com/a","news":{"publication":{"name":"N","language":"en"},"title":"T","publication_date":"2024-01-01"},"priority":1}`, ""},
		{`{"loc":"https://www.example.com/a",` + manyKeys(64) + `}`,
			`p.jsonl:1: too many values: more than 64 fields in one object`},
		{`{"loc":"https://www.example.com/a","images":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`,
			`p.jsonl:1:45: field "images": image 1: invalid JSON: a JSON array, want a URL or an image object`},
	} {
		g := readAll(t, source.New(strings.NewReader(tc.line+"\n"), "p.jsonl", source.FormatJSONL))
		got := ""
		if len(g.errs) > 0 {
			got = g.errs[0].Error()
		}
		if got != tc.want || len(g.errs)+len(g.urls) != 1 {
			t.Errorf("%.60s…: error %q (%d URLs), want %q", tc.line, got, len(g.urls), tc.want)
		}
		if tc.want != "" && strings.Contains(tc.want, "given twice") && !errors.Is(g.errs[0], source.ErrJSON) {
			t.Errorf("%v is not ErrJSON", g.errs[0])
		}
	}
}

// manyKeys returns n object members of distinct names, comma-separated.
func manyKeys(n int) string {
	var keys []string
	for i := range n {
		keys = append(keys, fmt.Sprintf(`"x%d":1`, i))
	}
	return strings.Join(keys, ",")
}

func TestDamagedGzipEndsTheStream(t *testing.T) {
	var in []byte
	for i := 0; i < 5000; i++ {
		in = append(in, "https://www.example.com/page\n"...)
	}
	z := gz(t, in)
	z = z[:len(z)/2]
	s := source.New(bytes.NewReader(z), "u.txt.gz", source.FormatText)
	g := readAll(t, s)
	if s.Err() == nil || len(g.errs) != 1 || g.errs[0] != s.Err() {
		t.Fatalf("Err() = %v, errors %v", s.Err(), g.errs)
	}
	if msg := s.Err().Error(); !strings.HasPrefix(msg, "u.txt.gz:") || !errors.Is(s.Err(), source.ErrGzip) || strings.Contains(msg, "\n") {
		t.Errorf("error %q should name the file and gzip", s.Err())
	}
	if _, err := s.Read(); err != s.Err() {
		t.Errorf("Read after the end = %v, want the same error", err)
	}
}

func TestLongLines(t *testing.T) {
	// Lines longer than a window and than the first read buffer.
	long := "https://www.example.com/" + strings.Repeat("a", 3<<20)
	in := "https://www.example.com/1\n" + long + "\n" + strings.Repeat("https://www.example.com/2\n", 50000) + long
	g := readAll(t, source.New(iotest.HalfReader(strings.NewReader(in)), "l.txt", source.FormatText))
	if len(g.errs) > 0 || len(g.urls) != 50003 || g.urls[1].Loc != long || g.urls[50002].Loc != long || g.lines[50002] != 50003 {
		t.Fatalf("got %d urls, errors %v", len(g.urls), g.errs)
	}

	s := source.New(io.MultiReader(strings.NewReader("https://www.example.com/\n"), zeros{}), "z.txt", source.FormatText)
	g = readAll(t, s)
	if len(g.urls) != 1 || !errors.Is(s.Err(), source.ErrLineTooLong) {
		t.Fatalf("urls %d, Err() = %v; want ErrLineTooLong", len(g.urls), s.Err())
	}
}

// TestLineCap: a line of MaxLineBytes is read, one a byte longer is
// ErrLineTooLong, ended by "\n" or by the input, and wherever the reads cut
// it: the cap is the documented one, not twice it (the read buffer grew
// by doubling past it).
func TestLineCap(t *testing.T) {
	prefix := "https://www.example.com/"
	for _, tc := range []struct {
		n    int
		tail string
		ok   bool
	}{
		{source.MaxLineBytes, "\n", true},
		{source.MaxLineBytes, "", true},
		{source.MaxLineBytes + 1, "\n", false},
		{source.MaxLineBytes + 1, "", false},
		{source.MaxLineBytes + 3<<20, "\n", false},
	} {
		line := prefix + strings.Repeat("a", tc.n-len(prefix))
		in := "https://www.example.com/1\n" + line // the input's last line, or the next one's
		if tc.tail != "" {
			in += tc.tail + "https://www.example.com/2\n"
		}
		s := source.New(iotest.HalfReader(strings.NewReader(in)), "l.txt", source.FormatText)
		g := readAll(t, s)
		if got := errors.Is(s.Err(), source.ErrLineTooLong); got == tc.ok || tc.ok && (len(g.urls) < 2 || len(g.urls[1].Loc) != tc.n) {
			t.Errorf("a line of %d bytes%q: %d URLs, Err() = %v; want it read: %v", tc.n, tc.tail, len(g.urls), s.Err(), tc.ok)
		}
	}
}

// zeros is an endless line.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestOpenAndFormats(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		data []byte
		n    int
	}{
		{"a.txt", open(t, "urls.txt"), 4},
		{"a.TXT.gz", gz(t, open(t, "urls.txt")), 4},
		{"b.csv.gz", gz(t, open(t, "products.csv")), 4},
		{"c.jsonl", open(t, "posts.jsonl"), 4},
		{"c.ndjson.gz", gz(t, open(t, "posts.jsonl")), 4},
		{"misnamed.txt.gz", open(t, "urls.txt"), 4}, // not gzip after all: read as it is
	} {
		f, err := source.Open(write(tc.name, tc.data), source.FormatAuto)
		if err != nil {
			t.Fatal(err)
		}
		g := readAll(t, f)
		if len(g.urls) != tc.n || len(g.errs) > 0 {
			t.Errorf("%s: %d urls, errors %v", tc.name, len(g.urls), g.errs)
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	}
	if _, err := source.Open(write("x.xml", nil), source.FormatAuto); !errors.Is(err, source.ErrUnknownFormat) {
		t.Errorf("x.xml: %v, want ErrUnknownFormat", err)
	}
	if f, err := source.Open(write("x.list", open(t, "urls.txt")), source.FormatText); err != nil {
		t.Errorf("explicit format: %v", err)
	} else {
		f.Close()
	}
	if _, err := source.Open(filepath.Join(dir, "missing.txt"), source.FormatAuto); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	for in, want := range map[string]source.Format{"txt": source.FormatText, "CSV": source.FormatCSV, "ndjson": source.FormatJSONL, "auto": source.FormatAuto} {
		if f, err := source.ParseFormat(in); f != want || err != nil {
			t.Errorf("ParseFormat(%q) = %q, %v", in, f, err)
		}
	}
	if _, err := source.ParseFormat("xml"); !errors.Is(err, source.ErrUnknownFormat) {
		t.Errorf("ParseFormat(xml) = %v", err)
	}
}

func TestAutoFormat(t *testing.T) {
	for _, tc := range []struct {
		file string
		n    int
	}{{"urls.txt", 4}, {"products.csv", 4}, {"posts.jsonl", 4}} {
		for _, data := range [][]byte{open(t, tc.file), gz(t, open(t, tc.file))} {
			g := readAll(t, source.New(bytes.NewReader(data), "stdin", source.FormatAuto))
			if len(g.urls) != tc.n || len(g.errs) > 0 {
				t.Errorf("%s: %d urls, errors %v", tc.file, len(g.urls), g.errs)
			}
		}
	}
}

// TestAutoFormatPast: the format is told by the first line that is not
// blank, however far (a CSV after 4 KiB of blank lines was read as a URL
// list, its header published as a URL), and a header of loc alone is
// CSV's; the lines keep their numbers.
func TestAutoFormatPast(t *testing.T) {
	blank := strings.Repeat("\n", 5000)
	for _, tc := range []struct {
		in   string
		want []string
		line int // of the last URL
	}{
		{blank + "loc,lastmod\nhttps://www.example.com/a,2024-01-01\n", []string{"https://www.example.com/a"}, 5002},
		{"loc\nhttps://www.example.com/a\n", []string{"https://www.example.com/a"}, 2},
		{blank + `{"loc":"https://www.example.com/a"}` + "\n", []string{"https://www.example.com/a"}, 5001},
		{blank + "https://www.example.com/a\n", []string{"https://www.example.com/a"}, 5001},
	} {
		s := source.New(strings.NewReader(tc.in), "stdin", source.FormatAuto)
		g := readAll(t, s)
		if !slices.Equal(locs(g.urls), tc.want) || len(g.errs) > 0 || s.Line() != tc.line {
			t.Errorf("%.20q…: urls %q, errors %v, line %d; want %q, line %d", tc.in[len(tc.in)-40:], locs(g.urls), g.errs, s.Line(), tc.want, tc.line)
		}
	}
}

// TestTextLoneCR: a CR alone ends a line of a URL list anywhere, not only
// in a file whose first 4 KiB end lines so: two URLs ran into one,
// published with %0D in it. Line numbers count those lines.
func TestTextLoneCR(t *testing.T) {
	in := strings.Repeat("https://www.example.com/x\n", 200) + "https://www.example.com/a\rhttps://www.example.com/b\r\n\xff\n"
	s := source.New(strings.NewReader(in), "f.txt", source.FormatText)
	g := readAll(t, s)
	if n := len(g.urls); n != 202 || g.urls[200].Loc != "https://www.example.com/a" || g.urls[201].Loc != "https://www.example.com/b" {
		t.Fatalf("%d urls, the last two %q", n, locs(g.urls[max(0, n-2):]))
	}
	if len(g.errs) != 1 || !strings.HasPrefix(g.errs[0].Error(), "f.txt:203:1: ") {
		t.Errorf("errors %v, want one at f.txt:203:1 (the line after the CR alone)", g.errs)
	}
}

// TestReadOutputAccepted checks that the "sitemap" field and column that
// `sitemapkit read` adds (where it found each URL) are accepted and
// ignored, so read's output feeds generate as it is.
func TestReadOutputAccepted(t *testing.T) {
	want := []sitemap.URL{{Loc: "https://www.example.com/a", LastMod: "2024-05-01"}}
	j := readAll(t, source.New(strings.NewReader(
		`{"loc":"https://www.example.com/a","lastmod":"2024-05-01","sitemap":"https://www.example.com/sitemap.xml"}`+"\n"), "r.jsonl", source.FormatJSONL))
	c := readAll(t, source.New(strings.NewReader(
		"loc,lastmod,sitemap\nhttps://www.example.com/a,2024-05-01,https://www.example.com/sitemap.xml\n"), "r.csv", source.FormatCSV))
	for name, g := range map[string]got{"jsonl": j, "csv": c} {
		if len(g.errs) > 0 || !reflect.DeepEqual(g.urls, want) {
			t.Errorf("%s: got %+v, errors %v; want %+v", name, g.urls, g.errs, want)
		}
	}
}

// TestEncodings: a legacy file is read in its encoding, each line converted
// to UTF-8, in every format; in UTF-8 the same bytes are refused.
func TestEncodings(t *testing.T) {
	for _, tc := range []struct {
		f    source.Format
		in   string
		enc  source.Encoding
		want string
	}{
		{source.FormatText, "https://x.example/caf\xe9\n", source.Latin1, "https://x.example/café"},
		{source.FormatText, "https://x.example/\x80\n", source.Windows1252, "https://x.example/€"},
		{source.FormatText, "https://x.example/\x80\n", source.Latin1, "https://x.example/\u0080"},
		// Bytes Windows-1252 leaves undefined are C1 controls, as browsers read them.
		{source.FormatText, "https://x.example/\x81\x9d\n", source.Windows1252, "https://x.example/\u0081\u009d"},
		{source.FormatJSONL, `{"loc":"https://x.example/caf` + "\xe9" + `"}` + "\n", source.Latin1, "https://x.example/café"},
		{source.FormatCSV, "loc\n\"https://x.example/caf\xe9\"\n", source.Windows1252, "https://x.example/café"},
	} {
		u, err := source.NewEncoded(strings.NewReader(tc.in), "in", tc.f, tc.enc).Read()
		if err != nil || u.Loc != tc.want {
			t.Errorf("%v %v %q: %q, %v; want %q", tc.f, tc.enc, tc.in, u.Loc, err, tc.want)
		}
		if _, err := source.New(strings.NewReader(tc.in), "in", tc.f).Read(); !errors.Is(err, source.ErrEncoding) {
			t.Errorf("%v %q read as UTF-8: %v, want ErrEncoding", tc.f, tc.in, err)
		}
	}
	// A UTF-8 byte order mark wins over the encoding the input was said
	// to have.
	if u, err := source.NewEncoded(strings.NewReader("\uFEFFhttps://x.example/café\n"), "in", source.FormatText, source.Latin1).Read(); err != nil || u.Loc != "https://x.example/café" {
		t.Errorf("a UTF-8 file with its BOM read as Latin-1: %q, %v", u.Loc, err)
	}
	for s, want := range map[string]source.Encoding{"": source.UTF8, "UTF-8": source.UTF8, "ISO-8859-1": source.Latin1, "cp1252": source.Windows1252} {
		if e, err := source.ParseEncoding(s); err != nil || e != want {
			t.Errorf("ParseEncoding(%q) = %v, %v", s, e, err)
		}
	}
	if _, err := source.ParseEncoding("ebcdic"); err == nil {
		t.Error("ParseEncoding(ebcdic): no error")
	}
}

// TestCROnlyLines: an input whose lines end in CR alone is read line by
// line, in every format, read slowly or not: its URLs no longer ran into
// one ("https://e.com/a%0Dhttps://e.com/b"). CR LF and LF inputs are as
// they were.
func TestCROnlyLines(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		format   source.Format
	}{
		{"u.txt", "https://www.example.com/a\rhttps://www.example.com/b\r\rhttps://www.example.com/c", source.FormatText},
		{"u.csv", "loc,lastmod\rhttps://www.example.com/a,2024-01-01\rhttps://www.example.com/b,\rhttps://www.example.com/c,2024-01-03\r", source.FormatCSV},
		{"u.jsonl", `{"loc":"https://www.example.com/a"}` + "\r" + `{"loc":"https://www.example.com/b"}` + "\r" + `{"loc":"https://www.example.com/c"}`, source.FormatJSONL},
		{"crlf.txt", "https://www.example.com/a\r\nhttps://www.example.com/b\r\n\r\nhttps://www.example.com/c\r\n", source.FormatText},
	} {
		for _, slow := range []bool{false, true} {
			var r io.Reader = strings.NewReader(tc.in)
			if slow {
				r = iotest.OneByteReader(r)
			}
			g := readAll(t, source.New(r, tc.name, tc.format))
			var locs []string
			for _, u := range g.urls {
				locs = append(locs, u.Loc)
			}
			want := []string{"https://www.example.com/a", "https://www.example.com/b", "https://www.example.com/c"}
			if !slices.Equal(locs, want) || len(g.errs) > 0 {
				t.Errorf("%s (one byte a read: %v): %q, errors %v; want %q", tc.name, slow, locs, g.errs, want)
			}
		}
	}
}

// TestErrorColumns: an error's column is on the line as written: a URL
// list's line with spaces before the URL (they were not counted), a JSONL
// key that is also an earlier value (the value was named).
func TestErrorColumns(t *testing.T) {
	for _, tc := range []struct {
		format source.Format
		in     string
		want   string
	}{
		{source.FormatText, "   https://www.example.com/caf\xe9\n", "f:1:31: "},
		{source.FormatJSONL, `{"changefreq":"daily","loc":"https://www.example.com/a","daily":1}` + "\n", "f:1:57: "},
	} {
		g := readAll(t, source.New(strings.NewReader(tc.in), "f", tc.format))
		if len(g.errs) != 1 || !strings.HasPrefix(g.errs[0].Error(), tc.want) {
			t.Errorf("%q: errors %v, want one at %s", tc.in, g.errs, tc.want)
		}
	}
}

// TestTextLineTooLongAfterCR: the line of a line too long counts the
// lines a CR alone ended before it.
func TestTextLineTooLongAfterCR(t *testing.T) {
	in := "https://www.example.com/a\rhttps://www.example.com/b\n" + strings.Repeat("x", source.MaxLineBytes+1) + "\n"
	s := source.New(strings.NewReader(in), "f.txt", source.FormatText)
	readAll(t, s)
	if err := s.Err(); err == nil || !strings.HasPrefix(err.Error(), "f.txt:3: ") {
		t.Errorf("Err() = %v, want it on line 3", err)
	}
}
