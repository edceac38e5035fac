package lint

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/longtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// run checks one document and returns its result and diagnostics.
func run(t testing.TB, name, public string, data []byte) (*DocResult, []Diagnostic) {
	t.Helper()
	var diags []Diagnostic
	c := &Checker{Now: testNow, Report: func(d Diagnostic) { diags = append(diags, d) }}
	res, err := c.CheckDocument(context.Background(), name, public, bytes.NewReader(data))
	if err != nil {
		t.Fatalf("CheckDocument(%s): %v", name, err)
	}
	c.Finish()
	return res, diags
}

func rules(diags []Diagnostic) []string {
	var r []string
	for _, d := range diags {
		r = append(r, d.Rule)
	}
	return r
}

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// urlset returns a urlset of n URLs; extra, when set, returns the
// extension elements of URL i.
func urlset(n int, extra func(i int) string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">` + "\n")
	for i := range n {
		b.WriteString("<url><loc>https://www.example.com/catalog/item-")
		b.WriteString(strconv.Itoa(i))
		b.WriteString("?color=red&amp;size=M</loc><lastmod>2024-01-05T10:00:00+00:00</lastmod>")
		if extra != nil {
			b.WriteString(extra(i))
		}
		b.WriteString("</url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func TestDocResult(t *testing.T) {
	data := urlset(3, nil)
	res, diags := run(t, "s.xml.gz", "https://www.example.com/sitemap.xml", gz(t, data))
	if len(diags) != 0 {
		t.Errorf("diagnostics on a clean file: %v", diags)
	}
	if res.Format != sitemap.FormatURLSet || res.Entries != 3 || res.Bytes != int64(len(data)) || res.Compressed != "gzip" || res.IsIndex() || res.Children != nil {
		t.Errorf("got %+v; want urlset, 3 entries, %d bytes, gzip, no children", res, len(data))
	}

	index := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://www.example.com/s1.xml</loc></sitemap>
  <sitemap><loc>https://www.example.com/s2.xml.gz</loc></sitemap>
</sitemapindex>
`)
	res, diags = run(t, "index.xml", "https://www.example.com/sitemap.xml", index)
	if len(diags) != 0 {
		t.Errorf("diagnostics on a clean index: %v", diags)
	}
	want := []string{"https://www.example.com/s1.xml", "https://www.example.com/s2.xml.gz"}
	if !res.IsIndex() || res.Entries != 2 || fmt.Sprint(res.Children) != fmt.Sprint(want) || res.Compressed != "" {
		t.Errorf("got %+v; want an index of %v", res, want)
	}
}

func TestDocumentErrors(t *testing.T) {
	good := urlset(2, nil)
	damaged := gz(t, good)
	damaged = damaged[:len(damaged)-12] // cut the trailer and some data
	corrupt := gz(t, good)
	corrupt[len(corrupt)/2] ^= 0xff
	tests := []struct {
		name string
		data []byte
		rule string
	}{
		{"truncated.xml.gz", damaged, CompressionError.Name},
		{"corrupt.xml.gz", corrupt, CompressionError.Name},
		{"page.html", []byte("<!DOCTYPE html>\n<html><head><title>Home</title></head><body><p>hello</p></body></html>\n"), SitemapIsHTML.Name},
		{"feed.xml", []byte(`<?xml version="1.0"?><foo xmlns="urn:x"><bar/></foo>`), UnsupportedFormat.Name},
		{"lead.xml", append([]byte("\n  "), good...), LeadingWhitespace.Name},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := run(t, tt.name, "", tt.data)
			found := false
			for _, d := range diags {
				if d.Rule == tt.rule {
					found = true
					if d.File != tt.name {
						t.Errorf("diagnostic names %q, want %q", d.File, tt.name)
					}
				}
			}
			if !found {
				t.Errorf("got %v, want a %s", diags, tt.rule)
			}
		})
	}
}

func TestTextSitemap(t *testing.T) {
	data := []byte("https://www.example.com/a\nhttps://www.example.com/b\n/relative\nhttps://www.example.com/a\nhttps://other.example.com/x\n")
	res, diags := run(t, "urls.txt", "https://www.example.com/urls.txt", data)
	// The Reader does not return a line that is not a URL: it notices it.
	if res.Format != sitemap.FormatText || res.Entries != 4 {
		t.Errorf("got %+v, want a text sitemap of 4 entries", res)
	}
	want := []string{"3:invalid-url", "4:duplicate-url", "5:url-not-allowed"}
	var got []string
	for _, d := range diags {
		got = append(got, strconv.Itoa(d.Line)+":"+d.Rule)
	}
	slices.Sort(got) // Report's order is not its lines'

	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestShortFeedLink checks that the sitemap schemas' minimum <loc> length
// (12) is not held against an RSS or Atom link, which no sitemap schema
// governs, as it is not against a text sitemap's line.
func TestShortFeedLink(t *testing.T) {
	for name, data := range map[string]string{
		"feed.rss": `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>x</title><link>http://a.b/</link><description>d</description>
<item><title>a</title><link>http://a.b/</link></item>
</channel></rss>
`,
		"feed.atom": `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title><id>urn:x</id><updated>2024-05-01T10:00:00Z</updated>
<entry><title>a</title><id>urn:a</id><link href="http://a.b/"/><updated>2024-05-01T10:00:00Z</updated></entry>
</feed>
`,
		"urls.txt": "http://a.b/\n",
	} {
		res, diags := run(t, name, "http://a.b/"+name, []byte(data))
		if res.Entries != 1 || len(diags) != 0 {
			t.Errorf("%s: %d entries, %v; want 1 entry and no finding", name, res.Entries, diags)
		}
	}
}

// TestLimits checks the protocol's counts at the limit and one over it.
func TestLimits(t *testing.T) {
	count := func(diags []Diagnostic, rule string) int {
		n := 0
		for _, d := range diags {
			if d.Rule == rule {
				n++
			}
		}
		return n
	}
	news := func(i int) string {
		return "<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication>" +
			"<news:publication_date>2026-01-10</news:publication_date><news:title>t</news:title></news:news>"
	}
	for _, tt := range []struct {
		n     int
		extra func(int) string
		rule  string
		limit int
	}{
		{sitemap.MaxURLs, nil, TooManyURLs.Name, sitemap.MaxURLs},
		{sitemap.MaxNews, news, TooManyNews.Name, sitemap.MaxNews},
	} {
		for _, n := range []int{tt.limit, tt.limit + 1} {
			res, diags := run(t, "big.xml", "https://www.example.com/sitemap.xml", urlset(n, tt.extra))
			want := 0
			if n > tt.limit {
				want = 1
			}
			if got := count(diags, tt.rule); got != want || res.Entries != n {
				t.Errorf("%d entries: %d %s (entries %d), want %d", n, got, tt.rule, res.Entries, want)
			}
			if len(diags) != want {
				t.Errorf("%d entries: unexpected diagnostics %v", n, diags[:min(len(diags), 5)])
			}
		}
	}
}

// TestFileTooLarge checks a document just over 52,428,800 bytes
// uncompressed: the file's size is what counts, not its entries.
func TestFileTooLarge(t *testing.T) {
	longtest.Skip(t, "reads 50 MB")
	head := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	entry := "<url><loc>https://www.example.com/</loc></url>\n"
	tail := "</urlset>\n"
	pad := sitemap.MaxBytes + 1 - len(head) - len(entry) - len(tail)
	doc := head + entry + "<!--" + strings.Repeat("x", pad-8) + "-->\n" + tail
	if len(doc) != sitemap.MaxBytes+1 {
		t.Fatalf("built %d bytes", len(doc))
	}
	res, diags := run(t, "large.xml", "", []byte(doc))
	if fmt.Sprint(rules(diags)) != "[file-too-large]" || res.Bytes != int64(len(doc)) {
		t.Errorf("got %v, %d bytes; want one file-too-large", diags, res.Bytes)
	}
	_, diags = run(t, "limit.xml", "", []byte(doc[:len(head)+len(entry)]+"<!--"+strings.Repeat("x", pad-9)+"-->\n"+tail))
	if len(diags) != 0 {
		t.Errorf("a file of exactly %d bytes: %v", sitemap.MaxBytes, diags)
	}
}

func TestCheckDocumentErrors(t *testing.T) {
	c := &Checker{}
	if _, err := c.CheckDocument(context.Background(), "s.xml", "ftp://x/", strings.NewReader("")); err == nil {
		t.Error("an ftp public URL was accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.CheckDocument(ctx, "s.xml", "", bytes.NewReader(urlset(10, nil))); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: got %v", err)
	}
	boom := errors.New("connection reset")
	r := io.MultiReader(bytes.NewReader(urlset(10, nil)[:200]), errReader{boom})
	if _, err := c.CheckDocument(context.Background(), "s.xml", "", r); !errors.Is(err, boom) {
		t.Errorf("I/O error: got %v, want it wrapped", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestConcurrent checks documents of one set from several goroutines (run
// with -race): duplicates across them are still found, once each.
func TestConcurrent(t *testing.T) {
	var mu sync.Mutex
	dups := 0
	c := &Checker{Now: testNow, Report: func(d Diagnostic) {
		mu.Lock()
		defer mu.Unlock()
		if d.Rule == DuplicateURL.Name {
			dups++
		}
	}}
	data := urlset(500, nil)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			if _, err := c.CheckDocument(context.Background(), fmt.Sprint("s", i, ".xml"), "", bytes.NewReader(data)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	c.Finish()
	if dups != 3*500 {
		t.Errorf("%d duplicates, want %d", dups, 3*500)
	}
}

func TestReportf(t *testing.T) {
	var got []Diagnostic
	c := &Checker{Report: func(d Diagnostic) { got = append(got, d) }}
	c.reportf(HTTPError, "https://www.example.com/sitemap.xml", 0, 0, "HTTP %d", 404)
	want := Diagnostic{File: "https://www.example.com/sitemap.xml", Rule: "http-error", Severity: Error, Message: "HTTP 404"}
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestSitemapRulesRegistered checks that every Rule… ID of package sitemap
// (the writer's and the reader's) is a lint rule, so no diagnostic names a
// rule the docs do not explain.
func TestSitemapRulesRegistered(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "sitemap", "errors.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		vs, ok := node.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Rule") || len(vs.Values) != 1 {
			return true
		}
		lit, ok := vs.Values[0].(*ast.BasicLit)
		if !ok {
			return true
		}
		id, _ := strconv.Unquote(lit.Value)
		n++
		if Lookup(id) == nil {
			t.Errorf("sitemap.%s = %q has no lint rule", vs.Names[0].Name, id)
		}
		return true
	})
	if n < 20 {
		t.Errorf("found only %d Rule constants in sitemap/errors.go", n)
	}
}

// FuzzCheck checks arbitrary documents: never a panic, and every
// diagnostic names a known rule with its severity.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.xml"))
	sets, _ := filepath.Glob(filepath.Join("testdata", "*", "*.xml"))
	for _, p := range append(files, sets...) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("https://www.example.com/\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &Checker{Now: testNow, Report: func(d Diagnostic) {
			r := Lookup(d.Rule)
			if r == nil || r.Severity != d.Severity {
				t.Errorf("diagnostic of unknown rule or wrong severity: %v", d)
			}
		}}
		for _, public := range []string{"", "https://www.example.com/sitemap.xml"} {
			if _, err := c.CheckDocument(context.Background(), "fuzz.xml", public, bytes.NewReader(data)); err != nil {
				t.Fatalf("CheckDocument: %v", err)
			}
		}
		c.Finish()
	})
}

// BenchmarkCheck checks the shared benchmark's workload (../shared/bench):
// 1,000,000 URLs in 20 files of 50,000, with lastmod, changefreq and
// priority.
func BenchmarkCheck(b *testing.B) {
	const files, perFile = 20, 50000
	docs := make([][]byte, files)
	for k := range docs {
		var buf bytes.Buffer
		buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for j := range perFile {
			i := k*perFile + j
			fmt.Fprintf(&buf, "<url><loc>https://www.example.com/catalog/item-%d?color=red&amp;size=M&amp;ref=%d</loc><lastmod>2024-01-%02dT10:00:00+00:00</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>\n", i, i%97, i%28+1)
		}
		buf.WriteString("</urlset>\n")
		docs[k] = buf.Bytes()
	}
	var size int64
	for _, d := range docs {
		size += int64(len(d))
	}
	for _, bc := range []struct {
		name, public string
		errors       int
	}{
		{"clean", "https://www.example.com/sitemap.xml", 0},
		// The harness's corpus: the sitemaps in /sitemaps/, an error on
		// every URL, listed to validate's default cap.
		{"outside", "https://www.example.com/sitemaps/sitemap.xml", perFile},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				c := &Checker{MaxPerRule: 100}
				for k, d := range docs {
					res, err := c.CheckDocument(context.Background(), "s.xml", bc.public, bytes.NewReader(d))
					if err != nil || res.Entries != perFile || res.Errors != bc.errors {
						b.Fatalf("file %d: %+v, %v", k, res, err)
					}
				}
				c.Finish()
			}
			b.ReportMetric(float64(files*perFile)*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
		})
	}
}

func index(n int, loc func(i int) string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range n {
		b.WriteString("<sitemap><loc>" + loc(i) + "</loc></sitemap>\n")
	}
	b.WriteString("</sitemapindex>\n")
	return b.Bytes()
}

// TestIndexLimits checks an index at 50,000 sitemaps and one over, and a
// set of 500 index files and one over.
func TestIndexLimits(t *testing.T) {
	child := func(i int) string { return "https://www.example.com/s-" + strconv.Itoa(i) + ".xml" }
	for _, n := range []int{sitemap.MaxURLs, sitemap.MaxURLs + 1} {
		res, diags := run(t, "index.xml", "https://www.example.com/sitemap.xml", index(n, child))
		want := "[]"
		if n > sitemap.MaxURLs {
			want = "[too-many-sitemaps]"
		}
		if got := fmt.Sprint(rules(diags)); got != want || len(res.Children) != n {
			t.Errorf("%d sitemaps: got %s and %d children, want %s", n, got, len(res.Children), want)
		}
	}
	for _, files := range []int{500, 501} {
		var diags []Diagnostic
		c := &Checker{Report: func(d Diagnostic) { diags = append(diags, d) }}
		for k := range files {
			doc := index(1, func(int) string { return child(k) })
			if _, err := c.CheckDocument(context.Background(), fmt.Sprint("i", k, ".xml"), "", bytes.NewReader(doc)); err != nil {
				t.Fatal(err)
			}
		}
		c.Finish()
		want := "[]"
		if files > 500 {
			want = "[too-many-index-files]"
		}
		if got := fmt.Sprint(rules(diags)); got != want {
			t.Errorf("%d index files: got %s, want %s", files, got, want)
		}
	}
}

func TestCrossSubmission(t *testing.T) {
	doc := index(3, func(i int) string {
		return []string{"https://cdn.example.net/s.xml", "https://www.example.com/up.xml", "https://cdn.example.net/" + strings.Repeat("x", 2048)}[i]
	})
	for _, cross := range []bool{false, true} {
		var got []string
		c := &Checker{CrossSubmission: cross, Report: func(d Diagnostic) { got = append(got, strconv.Itoa(d.Line)+":"+d.Rule) }}
		if _, err := c.CheckDocument(context.Background(), "index.xml", "https://www.example.com/sitemaps/index.xml", bytes.NewReader(doc)); err != nil {
			t.Fatal(err)
		}
		want := "[3:url-not-allowed 4:url-outside-directory 5:url-too-long 5:url-not-allowed]"
		if cross {
			want = "[4:url-outside-directory 5:url-too-long]"
		}
		if fmt.Sprint(got) != want {
			t.Errorf("CrossSubmission=%v: got %v, want %v", cross, got, want)
		}
	}
}

// TestDeprecatedTagsOncePerFile: the Reader's deprecated-tag notices become
// one warning per tag per file, at the first occurrence, counting the rest.
func TestDeprecatedTagsOncePerFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "video.xml"))
	if err != nil {
		t.Fatal(err)
	}
	_, diags := run(t, "video.xml", "https://www.example.com/video.xml", data)
	var got []string
	for _, d := range diags {
		if d.Rule == DeprecatedTag.Name {
			if d.Severity != Warning {
				t.Errorf("%v: severity %v, want warning", d, d.Severity)
			}
			got = append(got, fmt.Sprintf("%d %s", d.Line, d.Message))
		}
	}
	const tail = " is deprecated by Google and has no effect since 2022-08-06; remove it"
	want := []string{
		"59 the autoplay attribute of <video:player_loc>" + tail + " (2 times in this file)",
		"59 the allow_embed attribute of <video:player_loc>" + tail,
		"60 <video:category>" + tail + " (2 times in this file)",
		"61 <video:gallery_loc>" + tail,
		"62 <video:price>" + tail,
		"63 <video:tvshow>" + tail + " (2 times in this file)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("deprecated-tag diagnostics:\n got %q\nwant %q", got, want)
	}
}

// TestEveryBadImageAtItsLine: each of a URL's images is judged on its own,
// at its own line, however many there are (past the point where the
// entry's findings move to a map).
func TestEveryBadImageAtItsLine(t *testing.T) {
	const n = 3 * maxEntryScan
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	b.WriteString("<url><loc>https://www.example.com/p</loc>\n")
	for i := range n {
		// Image i starts on line 3+2i, its <image:loc> on the next; every
		// third is relative.
		loc := fmt.Sprintf("https://www.example.com/%d.jpg", i)
		if i%3 == 0 {
			loc = fmt.Sprintf("/%d.jpg", i)
		}
		fmt.Fprintf(&b, "<image:image>\n  <image:loc>%s</image:loc></image:image>\n", loc)
	}
	b.WriteString("</url></urlset>\n")
	_, diags := run(t, "s.xml", "https://www.example.com/sitemap.xml", []byte(b.String()))
	var got, want []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Line, d.Col, d.Rule))
	}
	for i := 0; i < n; i += 3 {
		want = append(want, fmt.Sprintf("%d:3 %s", 3+2*i+1, InvalidImage.Name))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n got %q\nwant %q", got, want)
	}
}

// TestDuplicatesInAndAcross: a loc listed before is said to be listed in
// this sitemap or in another of the set, whichever it was, however many
// there are (past the few looked for one by one, an index answers).
func TestDuplicatesInAndAcross(t *testing.T) {
	var diags []Diagnostic
	c := &Checker{Now: testNow, Report: func(d Diagnostic) { diags = append(diags, d) }}
	check := func(name string, locs []string) {
		t.Helper()
		data := strings.Join(locs, "\n") + "\n"
		if _, err := c.CheckDocument(context.Background(), name, "https://www.example.com/"+name, strings.NewReader(data)); err != nil {
			t.Fatal(err)
		}
	}
	u := func(p string) string { return "https://www.example.com/" + p }
	check("a.txt", []string{u("a1"), u("a2")})
	var b []string
	for i := range 20 {
		b = append(b, u(fmt.Sprintf("b%d", i)))
	}
	b = append(b, b...)                      // lines 21-40: listed twice here
	b = append(b, u("a1"), u("a1"), u("b0")) // 41: in a.txt; 42, 43: twice here
	check("b.txt", b)
	c.Finish()
	want := map[int]string{41: "another"}
	for l := 21; l <= 40; l++ {
		want[l] = "this"
	}
	want[42], want[43] = "this", "this"
	got := map[int]string{}
	for _, d := range diags {
		if d.Rule != DuplicateURL.Name {
			continue
		}
		switch {
		case d.File != "b.txt":
			t.Errorf("duplicate in %s: %s", d.File, d.Message)
		case strings.Contains(d.Message, "twice in this sitemap"):
			got[d.Line] = "this"
		case strings.Contains(d.Message, "another sitemap"):
			got[d.Line] = "another"
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("duplicates by line: got %v\nwant %v", got, want)
	}
}

// failingReader gives data, then fails as a connection reset does.
type failingReader struct{ data *strings.Reader }

func (f failingReader) Read(p []byte) (int, error) {
	if f.data.Len() == 0 {
		return 0, errors.New("connection reset by peer")
	}
	return f.data.Read(p)
}

// TestDuplicatesBeforeFailure: a document whose reading fails part-way
// is checked as far as it was read: its duplicates are reported, and its
// URLs join the set, for the next document's.
func TestDuplicatesBeforeFailure(t *testing.T) {
	var diags []Diagnostic
	c := &Checker{Now: testNow, Report: func(d Diagnostic) { diags = append(diags, d) }}
	data := strings.Repeat("https://www.example.com/a\n", 3)
	if _, err := c.CheckDocument(context.Background(), "a.txt", "https://www.example.com/a.txt", failingReader{strings.NewReader(data)}); err == nil {
		t.Fatal("a failing read did not fail")
	}
	if _, err := c.CheckDocument(context.Background(), "b.txt", "https://www.example.com/b.txt", strings.NewReader("https://www.example.com/a\n")); err != nil {
		t.Fatal(err)
	}
	c.Finish()
	var got []string
	for _, d := range diags {
		if d.Rule == DuplicateURL.Name {
			got = append(got, fmt.Sprintf("%s:%d", d.File, d.Line))
		}
	}
	slices.Sort(got)
	if want := []string{"a.txt:2", "a.txt:3", "b.txt:1"}; !slices.Equal(got, want) {
		t.Errorf("duplicates %v, want %v", got, want)
	}
}

// TestDuplicatesSpilled: past the URLs the table holds, duplicates across
// sitemaps are found through runs on disk, merged at Finish: the same
// findings, at the same places, as with the table alone, through several
// runs and their merging.
func TestDuplicatesSpilled(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var docs [][]string
	for range 30 {
		var locs []string
		for range 200 {
			locs = append(locs, fmt.Sprintf("https://www.example.com/p%d", r.IntN(2500)))
		}
		docs = append(docs, locs)
	}
	dir := t.TempDir()
	late, lateHere := 0, 0 // found at Finish; in the same sitemap
	check := func() map[string]string {
		got := map[string]string{}
		c := &Checker{Now: testNow, TempDir: dir, Report: func(d Diagnostic) {
			if d.Rule != DuplicateURL.Name {
				return
			}
			if strings.Contains(d.Message, ", first at ") {
				late++
			}
			if strings.Contains(d.Message, "twice in this sitemap, first at ") {
				lateHere++
			}
			kind := "another"
			if strings.Contains(d.Message, "twice in this sitemap") {
				kind = "this"
			}
			got[fmt.Sprintf("%s:%d", d.File, d.Line)] = kind
		}}
		for i, locs := range docs {
			name := fmt.Sprintf("s%d.txt", i)
			if _, err := c.CheckDocument(context.Background(), name, "https://www.example.com/"+name, strings.NewReader(strings.Join(locs, "\n")+"\n")); err != nil {
				t.Fatal(err)
			}
		}
		// The runs are open files without a name: a killed check leaves
		// nothing.
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("runs with a name while the check runs: %v", left)
		}
		c.Finish()
		return got
	}
	want := check()
	defer func(m, r, g int) { setMemURLs, spillRun, spillMerge = m, r, g }(setMemURLs, spillRun, spillMerge)
	setMemURLs, spillRun, spillMerge = 600, 97, 5
	got := check()
	if len(want) < 1000 || !maps.Equal(got, want) {
		var diff []string
		for k, v := range want {
			if got[k] != v {
				diff = append(diff, k+" "+v+"/"+got[k])
			}
		}
		t.Errorf("spilled: %d findings, table alone %d; differing (table/spilled): %v", len(got), len(want), diff[:min(len(diff), 10)])
	}
	if late < 100 || lateHere == 0 {
		t.Errorf("%d duplicates found at Finish (%d in one sitemap): the runs were not used", late, lateHere)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("runs left behind: %v", left)
	}
}

// TestDuplicatesConcurrent: sitemaps checked at once find every duplicate:
// as many findings as second listings, whether the table holds the whole
// set or fills up while they run (the lookups past it must see every
// batch added before them, by any check).
func TestDuplicatesConcurrent(t *testing.T) {
	defer func(m int) { setMemURLs = m }(setMemURLs)
	for _, mem := range []int{1 << 20, 700, 1500, 2300} {
		setMemURLs = mem
		for round := range uint64(40) {
			r := rand.New(rand.NewPCG(round, 77))
			docs := make([]string, 8)
			total, distinct := 0, map[int]bool{}
			for i := range docs {
				var b strings.Builder
				for range 300 + r.IntN(400) {
					p := r.IntN(3000)
					fmt.Fprintf(&b, "https://www.example.com/p%d\n", p)
					total++
					distinct[p] = true
				}
				docs[i] = b.String()
			}
			var mu sync.Mutex
			found := 0
			c := &Checker{Now: testNow, TempDir: t.TempDir(), Report: func(d Diagnostic) {
				if d.Rule == DuplicateURL.Name {
					mu.Lock()
					found++
					mu.Unlock()
				}
			}}
			var wg sync.WaitGroup
			for i, doc := range docs {
				wg.Go(func() {
					name := fmt.Sprintf("s%d.txt", i)
					if _, err := c.CheckDocument(context.Background(), name, "https://www.example.com/"+name, strings.NewReader(doc)); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			c.Finish()
			if want := total - len(distinct); found != want {
				t.Fatalf("table of %d, round %d: %d duplicate-url findings, want %d", mem, round, found, want)
			}
		}
	}
}

// TestSortRecords: the radix sort orders as the comparison does, equal
// hashes by place.
func TestSortRecords(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	rs := make([]dupRecord, 5000)
	for i := range rs {
		rs[i] = dupRecord{h: r.Uint64() >> (r.IntN(4) * 16), file: r.Uint32(), line: r.Uint32(), col: r.Uint32()}
		if i > 0 && r.IntN(5) == 0 {
			rs[i].h = rs[r.IntN(i)].h
		}
	}
	want := slices.Clone(rs)
	slices.SortFunc(want, dupCodec.cmp)
	sortRecords(rs, make([]dupRecord, len(rs)), &dupCodec)
	if !slices.Equal(rs, want) {
		t.Error("radix order differs from the comparison's")
	}
}

// TestReciprocityRuns holds the reciprocity check, which sorts the links
// in runs on disk, to the rule worked out here with maps: random sets of
// pages with alternates (pages linked and not back, links to pages
// without alternates or outside the set, self-links, a page listed twice,
// a link repeated), each with runs of the default size (all in memory)
// and of a few records (several runs, merged).
func TestReciprocityRuns(t *testing.T) {
	const base = "https://www.example.com/"
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 9))
		type entry struct {
			page int
			alts []int
		}
		docs := make([][]entry, 4)
		for i := range docs {
			for range 60 {
				e := entry{page: r.IntN(120)}
				for range r.IntN(6) {
					e.alts = append(e.alts, r.IntN(150)) // 120..149: pages not in the set
				}
				if r.IntN(3) > 0 {
					e.alts = append(e.alts, e.page)
				}
				docs[i] = append(docs[i], e)
			}
		}
		// The rule, with maps: a link p→q (p ≠ q), at its first place, when q
		// has alternates and no link back.
		has, linked, first := map[int]bool{}, map[[2]int]bool{}, map[[2]int][2]int{}
		for i, es := range docs {
			for j, e := range es {
				for _, q := range e.alts {
					has[e.page] = true
					k := [2]int{e.page, q}
					if !linked[k] {
						linked[k], first[k] = true, [2]int{i, j + 3} // line: after the XML declaration and <urlset>
					}
				}
			}
		}
		want := map[string]int{}
		for k, at := range first {
			if k[0] != k[1] && has[k[1]] && !linked[[2]int{k[1], k[0]}] {
				want[fmt.Sprintf("s%d.xml:%d", at[0], at[1])]++
			}
		}
		check := func() map[string]int {
			dir := t.TempDir()
			got := map[string]int{}
			c := &Checker{Now: testNow, TempDir: dir, Report: func(d Diagnostic) {
				if d.Rule != HreflangNotReciprocal.Name {
					return
				}
				n := 1
				if f := strings.Fields(d.Message); f[0] != "an" {
					n, _ = strconv.Atoi(f[0])
				}
				got[fmt.Sprintf("%s:%d", d.File, d.Line)] += n
			}}
			for i, es := range docs {
				var b strings.Builder
				b.WriteString("<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n")
				for _, e := range es {
					fmt.Fprintf(&b, "<url><loc>%sp%d</loc>", base, e.page)
					for k, q := range e.alts {
						fmt.Fprintf(&b, `<xhtml:link rel="alternate" hreflang="x%d" href="%sp%d"/>`, k, base, q)
					}
					b.WriteString("</url>\n")
				}
				b.WriteString("</urlset>\n")
				name := fmt.Sprintf("s%d.xml", i)
				if _, err := c.CheckDocument(context.Background(), name, base+name, strings.NewReader(b.String())); err != nil {
					t.Fatal(err)
				}
			}
			c.Finish()
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("runs left behind: %v", left)
			}
			return got
		}
		if got := check(); !maps.Equal(got, want) || len(want) < 20 {
			t.Errorf("seed %d: %d places reported, want %d:\ngot  %v\nwant %v", seed, len(got), len(want), got, want)
		}
		func() {
			defer func(r, g int) { spillRun, spillMerge = r, g }(spillRun, spillMerge)
			spillRun, spillMerge = 7, 3
			if got := check(); !maps.Equal(got, want) {
				t.Errorf("seed %d, in runs of 7: %d places reported, want %d:\ngot  %v\nwant %v", seed, len(got), len(want), got, want)
			}
		}()
	}
}
