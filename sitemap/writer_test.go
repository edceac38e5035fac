package sitemap_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// The -update flag rewrites the golden files. It is registered only if no
// other test file of the package has registered it already.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files under testdata/")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// doc is a document being written into memory by a test.
type doc struct {
	out bytes.Buffer
	*sitemap.Writer
}

func newDoc(f sitemap.Format) *doc {
	d := &doc{}
	d.Writer = sitemap.NewWriter(&d.out, f)
	return d
}

// finish closes d and checks that Len announced the exact size, then, for
// an XML document, writes it to a file and checks it against the schemas.
// It returns the document.
func (d *doc) finish(t *testing.T, name string) []byte {
	t.Helper()
	want := d.Len()
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if got := int64(d.out.Len()); got != want || d.Len() != want {
		t.Fatalf("Len() before Close = %d, after = %d; the document has %d bytes", want, d.Len(), got)
	}
	if max := d.MaxBytes; max > 0 && want > max {
		t.Fatalf("document of %d bytes over MaxBytes %d", want, max)
	}
	if !strings.HasSuffix(name, ".txt") {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, d.out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		xsdtest.Check(t, path)
	}
	return d.out.Bytes()
}

func plain(loc string) *sitemap.URL { return &sitemap.URL{Loc: loc} }

// urlOfLen returns an absolute URL exactly n bytes long (n >= 24).
func urlOfLen(n int) string {
	const base = "https://www.example.com/"
	return base + strings.Repeat("a", n-len(base))
}

// plainOverhead is what <url><loc></loc></url>\n adds to a loc.
const plainOverhead = len("<url><loc></loc></url>\n")

func TestWriterURLSet(t *testing.T) {
	d := newDoc(sitemap.FormatURLSet)
	for _, u := range []sitemap.URL{
		{Loc: "http://www.example.com/%C3%BCmlat.html&q=name"},
		{Loc: "https://www.example.com/a", LastMod: "2004-09-22T14:12:14+00:00", ChangeFreq: "weekly", Priority: "0.5"},
		{Loc: "https://www.example.com/b", LastMod: "2024-01-02"},
	} {
		if err := d.WriteURL(&u); err != nil {
			t.Fatalf("WriteURL(%q): %v", u.Loc, err)
		}
	}
	if d.Count() != 3 {
		t.Errorf("Count() = %d; want 3", d.Count())
	}
	got := string(d.finish(t, "urlset.xml"))
	want := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>http://www.example.com/%C3%BCmlat.html&amp;q=name</loc></url>
<url><loc>https://www.example.com/a</loc><lastmod>2004-09-22T14:12:14+00:00</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>
<url><loc>https://www.example.com/b</loc><lastmod>2024-01-02</lastmod></url>
</urlset>
`
	if got != want {
		t.Errorf("document:\n%s\nwant:\n%s", got, want)
	}
}

// TestWriterEscapesEverything puts the five special characters (and the
// whitespace a parser would normalise) in every field and attribute that
// can hold them, and reads the document back with encoding/xml: every
// value must come back unchanged.
func TestWriterEscapesEverything(t *testing.T) {
	const s = `a&b<c>d"e'f` + "\tg\nh\ri"
	const q = `&x='y'` // what a URI may hold of them
	loc := "https://www.example.com/p?a=1" + q
	u := sitemap.URL{
		Loc: loc,
		Images: []sitemap.Image{{
			Loc: "https://www.example.com/i.jpg?a=1" + q, Caption: s, GeoLocation: s, Title: s,
			License: "https://www.example.com/l?a=1" + q,
		}},
		Videos: []sitemap.Video{{
			ThumbnailLoc: "https://www.example.com/t.jpg?a=1" + q, Title: s, Description: s,
			ContentLoc: "https://www.example.com/v.mp4?a=1" + q, PlayerLoc: "https://www.example.com/p?v=1" + q,
			Tags: []string{s, s}, Category: s,
			GalleryLoc: "https://www.example.com/g?a=1" + q,
			Prices:     []sitemap.Price{{Value: "1.5", Currency: "EUR", Type: "rent", Resolution: "hd"}},
			Uploader:   &sitemap.Uploader{Name: s, Info: "https://www.example.com/u?a=1" + q},
		}},
		News: &sitemap.News{
			Publication:     sitemap.Publication{Name: s, Language: "en"},
			PublicationDate: "2024-01-02", Title: s, Keywords: s,
		},
		Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de?a=1" + q}},
	}
	d := newDoc(sitemap.FormatURLSet)
	if err := d.WriteURL(&u); err != nil {
		t.Fatal(err)
	}
	out := d.finish(t, "escapes.xml")
	if lines := bytes.Count(out, []byte("\n")); lines != 4 {
		t.Errorf("document has %d lines; want 4 (declaration, root, one entry, closing tag)", lines)
	}
	for _, want := range []string{
		"a&amp;b&lt;c&gt;d&quot;e&apos;f&#x9;g&#xA;h&#xD;i",
		`href="https://www.example.com/de?a=1&amp;x=&apos;y&apos;"`,
		`info="https://www.example.com/u?a=1&amp;x=&apos;y&apos;"`,
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("document lacks %s", want)
		}
	}
	got := decodeURLSet(t, out)
	if len(got) != 1 || !reflect.DeepEqual(got[0], u) {
		t.Errorf("read back:\n%+v\nwant:\n%+v", got, u)
	}
}

func TestWriterRefuses(t *testing.T) {
	long := strings.Repeat("x", 101)
	tests := []struct {
		name string
		u    sitemap.URL
		rule string
	}{
		{"non-ASCII", sitemap.URL{Loc: "http://www.example.com/ümlat.html&q=name"}, sitemap.RuleInvalidURL},
		{"relative", sitemap.URL{Loc: "/page.html"}, sitemap.RuleRelativeURL},
		{"scheme", sitemap.URL{Loc: "ftp://www.example.com/"}, sitemap.RuleInvalidURL},
		{"too long", sitemap.URL{Loc: urlOfLen(sitemap.MaxLocLen + 1)}, sitemap.RuleURLTooLong},
		{"no loc", sitemap.URL{}, sitemap.RuleMissingTag},
		{"lastmod", sitemap.URL{Loc: page, LastMod: "2024-02-30"}, sitemap.RuleInvalidDate},
		{"lastmod no zone", sitemap.URL{Loc: page, LastMod: "2024-01-02T10:00:00"}, sitemap.RuleTimeWithoutZone},
		{"lastmod year", sitemap.URL{Loc: page, LastMod: "2024"}, sitemap.RuleInvalidDate},         // W3C, but not the schemas
		{"lastmod month", sitemap.URL{Loc: page, LastMod: "2024-01"}, sitemap.RuleInvalidDate},     // W3C, but not the schemas
		{"changefreq", sitemap.URL{Loc: page, ChangeFreq: "Daily"}, sitemap.RuleInvalidChangefreq}, // lowercase only
		{"priority", sitemap.URL{Loc: page, Priority: "1.5"}, sitemap.RuleInvalidPriority},
		{"images", sitemap.URL{Loc: page, Images: make([]sitemap.Image, sitemap.MaxImages+1)}, sitemap.RuleTooManyImages},
		{"image loc", sitemap.URL{Loc: page, Images: []sitemap.Image{{Caption: "c"}}}, sitemap.RuleImage},
		{"video title", sitemap.URL{Loc: page, Videos: []sitemap.Video{func() sitemap.Video { v := goodVideo(); v.Title = long; return v }()}}, sitemap.RuleVideo},
		{"news", sitemap.URL{Loc: page, News: &sitemap.News{Title: "t"}}, sitemap.RuleNews},
		{"hreflang", sitemap.URL{Loc: page, Alternates: []sitemap.Alternate{{Hreflang: "es-419", Href: page}}}, sitemap.RuleHreflang},
		{"character", sitemap.URL{Loc: page, Images: []sitemap.Image{{Loc: page, Title: "\x00"}}}, sitemap.RuleInvalidCharacter},
	}
	d := newDoc(sitemap.FormatURLSet)
	if err := d.WriteURL(plain(page)); err != nil {
		t.Fatal(err)
	}
	before := d.Len()
	for _, tt := range tests {
		err := d.WriteURL(&tt.u)
		var v *sitemap.Violation
		if !errors.As(err, &v) || v.Rule != tt.rule {
			t.Errorf("%s: WriteURL error = %v; want a *Violation with rule %s", tt.name, err, tt.rule)
		}
		if d.Len() != before || d.Count() != 1 {
			t.Errorf("%s: a refused entry changed Len to %d (was %d), Count to %d", tt.name, d.Len(), before, d.Count())
		}
	}
	// The writer still works, and nothing of the refused entries is in the
	// document.
	if err := d.WriteURL(plain(page + "2")); err != nil {
		t.Fatal(err)
	}
	out := d.finish(t, "refused.xml")
	if n := bytes.Count(out, []byte("<url>")); n != 2 {
		t.Errorf("document has %d <url>; want 2", n)
	}
}

// TestWriterLongNumbers: a number of 24 digits, the most libxml2 reads, is
// written and passes the schemas; one more digit in a priority, rating, view
// count or price is refused, where it used to be written into a file that
// xmllint rejects whole.
func TestWriterLongNumbers(t *testing.T) {
	digits := func(n int) string { return strings.Repeat("1", n) }
	at := func(n int) *sitemap.URL {
		v := goodVideo()
		v.Rating = "1." + digits(n-1)
		v.ViewCount = "00" + digits(n)
		v.Prices = []sitemap.Price{{Value: "0." + digits(n-1) + "0", Currency: "EUR"}}
		return &sitemap.URL{Loc: page, Priority: "0." + digits(n), Videos: []sitemap.Video{v}}
	}
	d := newDoc(sitemap.FormatURLSet)
	if err := d.WriteURL(at(24)); err != nil {
		t.Fatalf("24 digits: %v", err)
	}
	over := []struct {
		name string
		edit func(u *sitemap.URL)
		rule string
	}{
		{"priority", func(u *sitemap.URL) { u.Priority = "0." + digits(25) }, sitemap.RuleInvalidPriority},
		{"rating", func(u *sitemap.URL) { u.Videos[0].Rating = "1." + digits(24) }, sitemap.RuleVideo},
		{"view-count", func(u *sitemap.URL) { u.Videos[0].ViewCount = digits(25) }, sitemap.RuleVideo},
		{"price", func(u *sitemap.URL) { u.Videos[0].Prices[0].Value = "0." + digits(24) + "0" }, sitemap.RuleVideo},
	}
	for _, tt := range over {
		u := at(24)
		u.Loc += "/" + tt.name
		tt.edit(u)
		if v, ok := errors.AsType[*sitemap.Violation](d.WriteURL(u)); !ok || v.Rule != tt.rule {
			t.Errorf("%s of 25 digits: WriteURL = %v; want a *Violation with rule %s", tt.name, v, tt.rule)
		}
	}
	d.finish(t, "long-numbers.xml")
}

func TestWriterViolationMessage(t *testing.T) {
	d := newDoc(sitemap.FormatURLSet)
	err := d.WriteURL(plain("http://www.example.com/ümlat.html"))
	want := `loc: contains a non-ASCII character; percent-encode it (loc.Normalize does) ("http://www.example.com/ümlat.html") [invalid-url]`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v; want %s", err, want)
	}
}

// TestWriterRewritesMinutes: a time without seconds is W3C and Google, but
// not the schemas; the writer adds ":00" (the same instant).
func TestWriterRewritesMinutes(t *testing.T) {
	d := newDoc(sitemap.FormatURLSet)
	v := goodVideo()
	v.PublicationDate = "2024-01-02T10:00Z"
	n := goodNews()
	n.PublicationDate = "2024-01-02T10:00+01:00"
	u := sitemap.URL{Loc: page, LastMod: "2024-01-02T10:30-05:00", Videos: []sitemap.Video{v}, News: n}
	if err := d.WriteURL(&u); err != nil {
		t.Fatal(err)
	}
	out := string(d.finish(t, "minutes.xml"))
	for _, want := range []string{
		"<lastmod>2024-01-02T10:30:00-05:00</lastmod>",
		"<video:publication_date>2024-01-02T10:00:00Z</video:publication_date>",
		"<news:publication_date>2024-01-02T10:00:00+01:00</news:publication_date>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("document lacks %s", want)
		}
	}
}

// fill writes URLs into w until it is exactly at its MaxBytes, checking on
// the way that an entry one byte too long is refused with ErrFull and
// leaves the document as it was.
func fill(t *testing.T, w *sitemap.Writer) {
	t.Helper()
	max := w.MaxBytes
	if max <= 0 {
		max = sitemap.MaxBytes
	}
	full := plainOverhead + sitemap.MaxLocLen
	if err := w.WriteURL(plain(urlOfLen(30))); err != nil { // ErrFull needs an entry before
		t.Fatal(err)
	}
	for max-w.Len() >= int64(full+plainOverhead+100) {
		if err := w.WriteURL(plain(urlOfLen(sitemap.MaxLocLen))); err != nil {
			t.Fatalf("WriteURL at %d bytes: %v", w.Len(), err)
		}
	}
	if max-w.Len() > int64(full) {
		if err := w.WriteURL(plain(urlOfLen(100))); err != nil {
			t.Fatalf("WriteURL at %d bytes: %v", w.Len(), err)
		}
	}
	last := int(max-w.Len()) - plainOverhead
	before, count := w.Len(), w.Count()
	if err := w.WriteURL(plain(urlOfLen(last + 1))); err != sitemap.ErrFull {
		t.Fatalf("WriteURL of an entry one byte too long: %v; want ErrFull", err)
	}
	if w.Len() != before || w.Count() != count {
		t.Fatalf("ErrFull changed Len %d→%d, Count %d→%d", before, w.Len(), count, w.Count())
	}
	if err := w.WriteURL(plain(urlOfLen(last))); err != nil {
		t.Fatalf("WriteURL of an entry that fits exactly: %v", err)
	}
	if w.Len() != max {
		t.Fatalf("Len() = %d; want exactly MaxBytes %d", w.Len(), max)
	}
	if err := w.WriteURL(plain(urlOfLen(24))); err != sitemap.ErrFull {
		t.Fatalf("WriteURL into a full document: %v; want ErrFull", err)
	}
}

func TestWriterMaxBytesExact(t *testing.T) {
	for _, max := range []int64{1000, 5000, 20011} {
		d := newDoc(sitemap.FormatURLSet)
		d.MaxBytes = max
		fill(t, d.Writer)
		if out := d.finish(t, "exact.xml"); int64(len(out)) != max {
			t.Errorf("MaxBytes %d: document is %d bytes", max, len(out))
		}
	}
}

// TestWriterMaxBytesBoundary writes the same entries with MaxBytes set to
// the size they make, then to one byte less.
func TestWriterMaxBytesBoundary(t *testing.T) {
	entries := []sitemap.URL{
		{Loc: "https://www.example.com/a?x=1&y=2", LastMod: "2024-01-02T10:00:00+00:00"},
		{Loc: page, Images: []sitemap.Image{{Loc: page + ".jpg", Caption: "<&>"}}},
		{Loc: page, Videos: []sitemap.Video{goodVideo()}, News: goodNews(),
			Alternates: []sitemap.Alternate{{"de", page}, {"x-default", page}}},
	}
	size := func(max int64) (int64, error) {
		d := newDoc(sitemap.FormatURLSet)
		d.MaxBytes = max
		for i := range entries {
			if err := d.WriteURL(&entries[i]); err != nil {
				return d.Len(), err
			}
		}
		return int64(len(d.finish(t, "boundary.xml"))), nil
	}
	n, err := size(0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := size(n); err != nil || got != n {
		t.Errorf("MaxBytes = %d (the exact size): %d bytes, %v; want all written", n, got, err)
	}
	if _, err := size(n - 1); err != sitemap.ErrFull {
		t.Errorf("MaxBytes = %d (one byte short): %v; want ErrFull", n-1, err)
	}
}

// TestWriterMaxBytesReal fills a document to the protocol's real limit,
// 52,428,800 bytes, into a counting writer.
func TestWriterMaxBytesReal(t *testing.T) {
	var c counter
	w := sitemap.NewWriter(&c, sitemap.FormatURLSet)
	fill(t, w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if c.n != sitemap.MaxBytes || w.Len() != sitemap.MaxBytes {
		t.Errorf("wrote %d bytes, Len() = %d; want exactly %d", c.n, w.Len(), sitemap.MaxBytes)
	}
}

type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

func TestWriterTooLargeForAnyDocument(t *testing.T) {
	d := newDoc(sitemap.FormatURLSet)
	d.MaxBytes = 400
	err := d.WriteURL(plain(urlOfLen(200)))
	var v *sitemap.Violation
	if !errors.As(err, &v) || v.Rule != sitemap.RuleFileTooLarge {
		t.Fatalf("WriteURL of an entry no document can hold: %v; want a *Violation %s", err, sitemap.RuleFileTooLarge)
	}
	if err := d.WriteURL(plain(urlOfLen(30))); err != nil {
		t.Fatalf("WriteURL of a short entry after: %v", err)
	}
	d.finish(t, "small.xml")
}

func TestWriterMaxURLs(t *testing.T) {
	for _, max := range []int{1, 3, 0} {
		var c counter
		w := sitemap.NewWriter(&c, sitemap.FormatURLSet)
		w.MaxURLs = max
		want := max
		if max == 0 {
			want = sitemap.MaxURLs
		}
		u := plain(page)
		for i := 0; i < want; i++ {
			if err := w.WriteURL(u); err != nil {
				t.Fatalf("MaxURLs %d: URL %d: %v", max, i+1, err)
			}
		}
		before := w.Len()
		if err := w.WriteURL(u); err != sitemap.ErrFull {
			t.Errorf("MaxURLs %d: URL %d: %v; want ErrFull", max, want+1, err)
		}
		if w.Count() != want || w.Len() != before {
			t.Errorf("MaxURLs %d: Count %d, Len %d→%d", max, w.Count(), before, w.Len())
		}
		if err := w.Close(); err != nil || c.n != w.Len() {
			t.Errorf("MaxURLs %d: Close: %v; %d bytes written, Len() %d", max, err, c.n, w.Len())
		}
	}
}

func TestWriterMaxNews(t *testing.T) {
	for _, max := range []int{2, 0} {
		d := newDoc(sitemap.FormatURLSet)
		d.MaxNews = max
		want := max
		if max == 0 {
			want = sitemap.MaxNews
		}
		news := sitemap.URL{Loc: page, News: goodNews()}
		for i := 0; i < want; i++ {
			if err := d.WriteURL(&news); err != nil {
				t.Fatalf("MaxNews %d: news URL %d: %v", max, i+1, err)
			}
		}
		if err := d.WriteURL(&news); err != sitemap.ErrFull {
			t.Errorf("MaxNews %d: news URL %d: %v; want ErrFull", max, want+1, err)
		}
		if err := d.WriteURL(plain(page)); err != nil {
			t.Errorf("MaxNews %d: a URL without news after the last news: %v", max, err)
		}
		if d.Count() != want+1 {
			t.Errorf("MaxNews %d: Count %d; want %d", max, d.Count(), want+1)
		}
		d.finish(t, "news.xml")
	}
	// A text document drops News, so news does not count there.
	d := newDoc(sitemap.FormatText)
	d.MaxNews = 1
	for i := 0; i < 3; i++ {
		if err := d.WriteURL(&sitemap.URL{Loc: page, News: goodNews()}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestWriterIndex(t *testing.T) {
	d := newDoc(sitemap.FormatIndex)
	for _, e := range []sitemap.IndexEntry{
		{Loc: "https://www.example.com/sitemap-1.xml.gz", LastMod: "2024-01-02T10:00:00+02:00"},
		{Loc: "https://www.example.com/sitemap-2.xml.gz?a=1&b=2"},
		{Loc: "https://www.example.com/sitemap-3.xml.gz", LastMod: "2024-01-02T10:00Z"},
	} {
		if err := d.WriteIndex(&e); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range []sitemap.IndexEntry{
		{Loc: "sitemap-4.xml"},
		{Loc: "https://www.example.com/sitemap-4.xml", LastMod: "2024-01-02T10:00:00"},
	} {
		if err := d.WriteIndex(&e); !errors.As(err, new(*sitemap.Violation)) {
			t.Errorf("WriteIndex(%+v) = %v; want a *Violation", e, err)
		}
	}
	if err := d.WriteURL(plain(page)); err == nil {
		t.Error("WriteURL on an index succeeded")
	}
	got := string(d.finish(t, "index.xml"))
	want := `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://www.example.com/sitemap-1.xml.gz</loc><lastmod>2024-01-02T10:00:00+02:00</lastmod></sitemap>
<sitemap><loc>https://www.example.com/sitemap-2.xml.gz?a=1&amp;b=2</loc></sitemap>
<sitemap><loc>https://www.example.com/sitemap-3.xml.gz</loc><lastmod>2024-01-02T10:00:00Z</lastmod></sitemap>
</sitemapindex>
`
	if got != want {
		t.Errorf("document:\n%s\nwant:\n%s", got, want)
	}

	// The index obeys the same limits.
	d = newDoc(sitemap.FormatIndex)
	d.MaxURLs = 2
	e := sitemap.IndexEntry{Loc: "https://www.example.com/sitemap-1.xml"}
	for i, want := range []error{nil, nil, sitemap.ErrFull} {
		if err := d.WriteIndex(&e); err != want {
			t.Errorf("WriteIndex %d: %v; want %v", i+1, err, want)
		}
	}
	d.finish(t, "index-limit.xml")
}

func TestWriterText(t *testing.T) {
	d := newDoc(sitemap.FormatText)
	for _, u := range []sitemap.URL{
		{Loc: "http://www.example.com/%C3%BCmlat.html&q=name", LastMod: "2024-01-02", Priority: "0.5",
			Images: []sitemap.Image{{Loc: page}}, News: goodNews()},
		{Loc: "https://www.example.com/b"},
	} {
		if err := d.WriteURL(&u); err != nil {
			t.Fatal(err)
		}
	}
	// Loc is checked; the dropped fields are not.
	if err := d.WriteURL(plain("https://www.example.com/a b")); !errors.As(err, new(*sitemap.Violation)) {
		t.Errorf("WriteURL with a space: %v; want a *Violation", err)
	}
	if err := d.WriteURL(&sitemap.URL{Loc: page, LastMod: "never"}); err != nil {
		t.Errorf("WriteURL with a lastmod text cannot hold: %v; want it dropped", err)
	}
	if err := d.WriteIndex(&sitemap.IndexEntry{Loc: page}); err == nil {
		t.Error("WriteIndex on a text document succeeded")
	}
	got := string(d.finish(t, "text.txt"))
	want := "http://www.example.com/%C3%BCmlat.html&q=name\nhttps://www.example.com/b\n" + page + "\n"
	if got != want {
		t.Errorf("document = %q; want %q", got, want)
	}

	// Exactly at MaxBytes.
	d = newDoc(sitemap.FormatText)
	d.MaxBytes = int64(2*len(page) + 2)
	for i, want := range []error{nil, nil, sitemap.ErrFull} {
		if err := d.WriteURL(plain(page)); err != want {
			t.Errorf("WriteURL %d: %v; want %v", i+1, err, want)
		}
	}
	if out := d.finish(t, "exact.txt"); int64(len(out)) != d.MaxBytes {
		t.Errorf("text document is %d bytes; want %d", len(out), d.MaxBytes)
	}
}

// TestWriterEmpty: a document with no entry is the opening and closing
// tags (well-formed; the schemas want one entry, so it is not checked
// against them), and an empty text document is empty.
func TestWriterEmpty(t *testing.T) {
	for _, tt := range []struct {
		f    sitemap.Format
		want string
	}{
		{sitemap.FormatURLSet, "</urlset>\n"},
		{sitemap.FormatIndex, "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n</sitemapindex>\n"},
		{sitemap.FormatText, ""},
	} {
		d := newDoc(tt.f)
		n := d.Len()
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		got := d.out.String()
		if int64(len(got)) != n || !strings.HasSuffix(got, tt.want) || (tt.want != "" && !strings.HasPrefix(got, "<?xml")) {
			t.Errorf("%v: empty document %q (Len() said %d)", tt.f, got, n)
		}
		if tt.f != sitemap.FormatText {
			var root struct{ XMLName xml.Name }
			if err := xml.Unmarshal(d.out.Bytes(), &root); err != nil {
				t.Errorf("%v: empty document is not well-formed: %v", tt.f, err)
			}
		}
	}
}

func TestWriterMisuse(t *testing.T) {
	w := sitemap.NewWriter(io.Discard, sitemap.FormatRSS)
	if err := w.WriteURL(plain(page)); err == nil {
		t.Error("WriteURL on an RSS writer succeeded")
	}
	if err := w.Close(); err == nil {
		t.Error("Close on an RSS writer succeeded")
	}
	w = sitemap.NewWriter(io.Discard, sitemap.FormatURLSet)
	if err := w.WriteIndex(&sitemap.IndexEntry{Loc: page}); err == nil {
		t.Error("WriteIndex on a urlset succeeded")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v; want the first's result (nil)", err)
	}
	if err := w.WriteURL(plain(page)); err == nil {
		t.Error("WriteURL after Close succeeded")
	}
}

// failing fails every write after the first ok bytes.
type failing struct{ ok int }

var errDisk = errors.New("disk full")

func (f *failing) Write(p []byte) (int, error) {
	if len(p) <= f.ok {
		f.ok -= len(p)
		return len(p), nil
	}
	n := f.ok
	f.ok = 0
	return n, errDisk
}

func TestWriterPassesWriteErrors(t *testing.T) {
	w := sitemap.NewWriter(&failing{ok: 100}, sitemap.FormatURLSet)
	var err error
	for i := 0; i < 10000 && err == nil; i++ {
		err = w.WriteURL(plain(page))
	}
	if !errors.Is(err, errDisk) {
		t.Fatalf("WriteURL error = %v; want the io.Writer's", err)
	}
	if err := w.WriteURL(plain(page)); !errors.Is(err, errDisk) {
		t.Errorf("WriteURL after a failure = %v; want the same error", err)
	}
	if err := w.Close(); !errors.Is(err, errDisk) {
		t.Errorf("Close after a failure = %v; want the same error", err)
	}
	// A failure at Close is Close's.
	w = sitemap.NewWriter(&failing{ok: 10}, sitemap.FormatURLSet)
	if err := w.WriteURL(plain(page)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); !errors.Is(err, errDisk) {
		t.Errorf("Close = %v; want the io.Writer's error", err)
	}
}

func TestWriterAllocs(t *testing.T) {
	w := sitemap.NewWriter(io.Discard, sitemap.FormatURLSet)
	w.MaxURLs = 1 << 30
	w.MaxBytes = 1 << 60
	urls := benchURLs(64)
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		if err := w.WriteURL(&urls[i%len(urls)]); err != nil {
			t.Fatal(err)
		}
		i++
	})
	if allocs != 0 {
		t.Errorf("WriteURL allocates %v times per plain URL; want 0", allocs)
	}
}

// benchURLs returns the benchmark workload of ../shared/bench.
func benchURLs(n int) []sitemap.URL {
	urls := make([]sitemap.URL, n)
	for i := range urls {
		urls[i] = sitemap.URL{
			Loc:        "https://www.example.com/catalog/item-" + strconv.Itoa(i) + "?color=red&size=M&ref=" + strconv.Itoa(i%97),
			LastMod:    "2024-01-" + strconv.Itoa(i%28 + 101)[1:] + "T10:00:00+00:00",
			ChangeFreq: "weekly",
			Priority:   "0.5",
		}
	}
	return urls
}

func benchWriter(b *testing.B, urls []sitemap.URL) {
	var c counter
	w := sitemap.NewWriter(&c, sitemap.FormatURLSet)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := w.WriteURL(&urls[i%len(urls)])
		if err == sitemap.ErrFull {
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			w = sitemap.NewWriter(&c, sitemap.FormatURLSet)
			err = w.WriteURL(&urls[i%len(urls)])
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
	b.ReportMetric(float64(c.n)/b.Elapsed().Seconds(), "bytes/s")
}

// BenchmarkWriter writes the shared benchmark's workload.
func BenchmarkWriter(b *testing.B) {
	benchWriter(b, benchURLs(4096))
}

// BenchmarkWriterExtensions writes URLs with two images and three hreflang
// alternates each.
func BenchmarkWriterExtensions(b *testing.B) {
	urls := benchURLs(4096)
	for i := range urls {
		u := &urls[i]
		u.Images = []sitemap.Image{
			{Loc: "https://img.example.com/item-" + strconv.Itoa(i) + "-1.jpg"},
			{Loc: "https://img.example.com/item-" + strconv.Itoa(i) + "-2.jpg", Title: "Item " + strconv.Itoa(i) + " & friends"},
		}
		u.Alternates = []sitemap.Alternate{
			{Hreflang: "en", Href: u.Loc},
			{Hreflang: "de-DE", Href: "https://www.example.de/katalog/item-" + strconv.Itoa(i)},
			{Hreflang: "x-default", Href: u.Loc},
		}
	}
	benchWriter(b, urls)
}

// TestWriterLocsChecked: a writer told the locs were checked does not
// parse them again, but still checks the other fields and a loc too short
// for the schema.
func TestWriterLocsChecked(t *testing.T) {
	var buf bytes.Buffer
	w := sitemap.NewWriter(&buf, sitemap.FormatURLSet)
	w.LocsChecked = true
	if err := w.WriteURL(&sitemap.URL{Loc: "https://www.example.com/a", LastMod: "yesterday"}); err == nil {
		t.Error("a bad lastmod passed with LocsChecked")
	}
	if err := w.WriteURL(&sitemap.URL{Loc: "http://a.b/"}); err == nil {
		t.Error("an 11-character loc passed with LocsChecked")
	}
	if err := w.WriteURL(&sitemap.URL{Loc: "https://www.example.com/b", LastMod: "2024-05-01"}); err != nil {
		t.Errorf("a good entry: %v", err)
	}
	w2 := sitemap.NewWriter(&buf, sitemap.FormatURLSet)
	if err := w2.WriteURL(&sitemap.URL{Loc: "https://www.example.com/a b"}); err == nil {
		t.Error("an unescaped loc passed without LocsChecked")
	}
}
