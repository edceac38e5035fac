package source_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/internal/sharedtest"
	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// record is one thing a Sitemaps returned, with its place.
type record struct {
	u     sitemap.URL
	err   error
	place string
}

// drain reads src to its end.
func drain(t *testing.T, src source.Source) []record {
	t.Helper()
	var out []record
	for u, err := range src.All() {
		out = append(out, record{u: u, err: err, place: source.Place(src)})
		if len(out) > 1_000_000 {
			t.Fatal("runaway stream")
		}
	}
	return out
}

func openSitemaps(t *testing.T, o source.SitemapsOptions, starts ...string) *source.Sitemaps {
	t.Helper()
	s := source.OpenSitemaps(t.Context(), starts, o)
	t.Cleanup(func() { s.Close() })
	return s
}

// direct reads a file with sitemap.Reader: what Sitemaps must return.
func direct(t *testing.T, path string) (urls []sitemap.URL, skipped int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := sitemap.NewReader(f)
	r.OnNotice = func(n sitemap.Notice) {
		if strings.Contains(n.Msg, "(not read)") && !strings.Contains(n.Msg, "xhtml:link") {
			skipped++
		}
	}
	for u, err := range r.All() {
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		urls = append(urls, u)
	}
	return urls, skipped
}

func split(recs []record) (urls []sitemap.URL, errs []error) {
	for _, r := range recs {
		if r.err != nil {
			errs = append(errs, r.err)
		} else {
			urls = append(urls, r.u)
		}
	}
	return urls, errs
}

// TestSitemapsFormats reads each format the reader knows and compares with
// what sitemap.Reader itself reads; skipped entries are ParseErrors.
func TestSitemapsFormats(t *testing.T) {
	for _, name := range []string{"full.xml", "list.txt", "feed.rss", "feed.atom"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "sitemaps", name)
			want, skipped := direct(t, path)
			s := openSitemaps(t, source.SitemapsOptions{Options: discover.Options{Offline: true}}, path)
			recs := drain(t, s)
			got, errs := split(recs)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("entries differ from sitemap.Reader's:\n got %+v\nwant %+v", got, want)
			}
			if len(errs) != skipped {
				t.Errorf("%d errors %v, want %d (entries the reader skips)", len(errs), errs, skipped)
			}
			for _, err := range errs {
				var pe *source.ParseError
				if !errors.As(err, &pe) || pe.File != path || pe.Line == 0 {
					t.Errorf("error %v: want a *ParseError naming %s and a line", err, path)
				}
			}
			if s.Err() != nil {
				t.Errorf("Err() = %v", s.Err())
			}
			if _, err := s.Read(); err != io.EOF {
				t.Errorf("Read after the end = %v, want io.EOF", err)
			}
		})
	}
}

// TestSitemapsPlaces checks that each entry and skipped entry names its
// document, line and column.
func TestSitemapsPlaces(t *testing.T) {
	path := filepath.Join("testdata", "sitemaps", "full.xml")
	recs := drain(t, openSitemaps(t, source.SitemapsOptions{}, path))
	want := []string{path + ":7:3", path + ":23:3", path + ":49:3", path + ":53:3"}
	var got []string
	for _, r := range recs {
		got = append(got, r.place)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("places %q, want %q", got, want)
	}
	var pe *source.ParseError
	if len(recs) < 3 || !errors.As(recs[2].err, &pe) || !errors.Is(recs[2].err, source.ErrMissingLoc) || pe.Line != 49 {
		t.Errorf("third record %v: want a ParseError at line 49 wrapping ErrMissingLoc", recs[2].err)
	}
	txt := filepath.Join("testdata", "sitemaps", "list.txt")
	recs = drain(t, openSitemaps(t, source.SitemapsOptions{}, txt))
	if len(recs) != 4 || recs[2].err == nil || recs[2].place != txt+":3:1" || recs[3].place != txt+":4:1" {
		t.Errorf("text sitemap records %+v: want the bad line 3 as an error between the URLs", recs)
	}
}

// everything returns URLs that use every field sitemap.URL has.
func everything(n int) []sitemap.URL {
	var out []sitemap.URL
	for i := range n {
		u := sitemap.URL{
			Loc:        fmt.Sprintf("https://www.example.com/p/%d?a=1&b=%d", i, i),
			LastMod:    fmt.Sprintf("2024-05-%02dT10:00:00+02:00", i%28+1),
			ChangeFreq: "daily",
			Priority:   "0.7",
			Images: []sitemap.Image{
				{Loc: fmt.Sprintf("https://www.example.com/img/%d.jpg", i), Caption: "A <caption> & more", GeoLocation: "Dublin", Title: "T " + fmt.Sprint(i), License: "https://www.example.com/license"},
				{Loc: "https://www.example.com/img/shared.png"},
			},
			Alternates: []sitemap.Alternate{
				{Hreflang: "de-DE", Href: fmt.Sprintf("https://www.example.com/de/p/%d", i)},
				{Hreflang: "x-default", Href: fmt.Sprintf("https://www.example.com/p/%d?a=1&b=%d", i, i)},
			},
		}
		if i%2 == 0 {
			u.Videos = []sitemap.Video{{
				ThumbnailLoc: "https://www.example.com/thumb.jpg", Title: "Video \"" + fmt.Sprint(i) + "\"",
				Description: "About 'it'", ContentLoc: "https://cdn.example.com/v.mp4", PlayerLoc: "https://www.example.com/player?v=1",
				Duration: "600", ExpirationDate: "2031-11-05T19:20:30+08:00", Rating: "4.2", ViewCount: "12345",
				PublicationDate: "2007-11-05T19:20:30+08:00", Tags: []string{"a", "b & c"}, Category: "Cooking",
				FamilyFriendly: "no", Restriction: &sitemap.Restriction{Relationship: "deny", Countries: "IE GB"},
				GalleryLoc: "https://www.example.com/gallery", Prices: []sitemap.Price{{Value: "1.99", Currency: "EUR", Type: "rent", Resolution: "hd"}, {Value: "5", Currency: "USD"}},
				RequiresSubscription: "yes", Uploader: &sitemap.Uploader{Name: "Grilly", Info: "https://www.example.com/u/grilly"},
				Platform: &sitemap.Platform{Relationship: "allow", Platforms: "web mobile"}, Live: "no",
			}}
		}
		if i%3 == 0 {
			u.News = &sitemap.News{
				Publication: sitemap.Publication{Name: "The Example Times", Language: "en"}, PublicationDate: "2024-05-01",
				Title: "Merger <talks>", Access: "Subscription", Genres: "Blog", Keywords: "a, b", StockTickers: "NASDAQ:A",
			}
		}
		out = append(out, u)
	}
	return out
}

// writeSet writes urls as gzipped urlsets of per entries each and an
// index listing them at base, in dir; it returns the index's path and the
// children's.
func writeSet(t testing.TB, dir, base string, urls []sitemap.URL, per int) (string, []string) {
	t.Helper()
	var children []string
	var entries []sitemap.IndexEntry
	for i := 0; len(urls) > 0; i++ {
		n := min(per, len(urls))
		name := fmt.Sprintf("sitemap-%d.xml.gz", i+1)
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		zw := gzip.NewWriter(f)
		w := sitemap.NewWriter(zw, sitemap.FormatURLSet)
		for j := range urls[:n] {
			if err := w.WriteURL(&urls[j]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		urls = urls[n:]
		children = append(children, p)
		entries = append(entries, sitemap.IndexEntry{Loc: base + name, LastMod: "2024-05-01"})
	}
	ix := filepath.Join(dir, "sitemap.xml")
	f, err := os.Create(ix)
	if err != nil {
		t.Fatal(err)
	}
	w := sitemap.NewWriter(f, sitemap.FormatIndex)
	for i := range entries {
		if err := w.WriteIndex(&entries[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return ix, children
}

// TestSitemapsRoundTrip writes URLs using every field with sitemap.Writer
// (an index over gzipped urlsets, valid by the schemas) and reads them
// back through the index: every field must come back as written, in order.
func TestSitemapsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	want := everything(25)
	ix, children := writeSet(t, dir, "https://www.example.com/", want, 10)
	// The schemas check uncompressed files: check a copy of each child.
	var plain []string
	for _, c := range children {
		p := strings.TrimSuffix(c, ".gz")
		f, err := os.Open(c)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+".check", b, 0o644); err != nil {
			t.Fatal(err)
		}
		plain = append(plain, p+".check")
	}
	xsdtest.Check(t, append([]string{ix}, plain...)...)

	s := openSitemaps(t, source.SitemapsOptions{Options: discover.Options{Offline: true}}, ix)
	recs := drain(t, s)
	got, errs := split(recs)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		t.Fatalf("round trip differs:\n got %s\nwant %s", gj, wj)
	}
	// The Writer puts entry n on line n+2.
	for i, r := range recs {
		if w := fmt.Sprintf("%s:%d:1", children[i/10], i%10+3); r.place != w {
			t.Errorf("entry %d at %s, want %s", i, r.place, w)
		}
	}
}

// TestSitemapsFolder reads every sitemap of a folder, as the walk finds them.
func TestSitemapsFolder(t *testing.T) {
	dir := filepath.Join("testdata", "sitemaps")
	got, errs := split(drain(t, openSitemaps(t, source.SitemapsOptions{}, dir)))
	var want []sitemap.URL
	skipped := 0
	for _, name := range []string{"feed.atom", "feed.rss", "full.xml", "list.txt"} { // the walk's order: by name
		u, n := direct(t, filepath.Join(dir, name))
		want = append(want, u...)
		skipped += n
	}
	if !reflect.DeepEqual(got, want) || len(errs) != skipped {
		t.Errorf("folder: %d entries %d errors, want %d and %d", len(got), len(errs), len(want), skipped)
	}
}

// TestSitemapsCorpus reads real-world sitemaps (images, videos, news,
// gzipped), each as sitemap.Reader does and as many as the corpus says.
func TestSitemapsCorpus(t *testing.T) {
	manifest := sharedtest.Corpus(t, "MANIFEST.json")
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	var entries []struct {
		File   string `json:"file"`
		Expect struct {
			URLCount *int `json:"url_count"`
		} `json:"expect"`
	}
	if err := json.Unmarshal(b, &entries); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range entries {
		if e.Expect.URLCount != nil {
			count[e.File] = *e.Expect.URLCount
		}
	}
	for _, rel := range []string{
		"advertools/sitemap_testing/image_sitemap.xml",
		"advertools/sitemap_testing/video_sitemap.xml",
		"advertools/sitemap_testing/news_sitemap.xml",
		"advertools/sitemap_testing/regular_sitemap.xml.gz",
		"advertools/sitemap_testing/zipped_sitemap.xml.gz",
		"advertools/legacy-2020/sitemap.xml.gz",
	} {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			p := sharedtest.Corpus(t, rel)
			want, _ := direct(t, p)
			got, errs := split(drain(t, openSitemaps(t, source.SitemapsOptions{Options: discover.Options{Offline: true}}, p)))
			if len(errs) > 0 {
				t.Errorf("errors: %v", errs)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d entries differ from sitemap.Reader's %d", len(got), len(want))
			}
			if n, ok := count[rel]; ok && len(got) != n {
				t.Errorf("%d entries, the corpus expects %d", len(got), n)
			}
		})
	}
}

// TestSitemapsHTTP walks a real site: robots.txt names an index whose
// children are gzipped; every entry comes in walk order, named by URL.
func TestSitemapsHTTP(t *testing.T) {
	site := sitetest.New(t)
	site.Page("/robots.txt", "User-agent: *\nDisallow: /private/\nSitemap: {{.}}/sitemap_index.xml\n")
	site.Page("/sitemap_index.xml", sitetest.Index("{{.}}/s1.xml.gz", "{{.}}/s2.xml.gz"))
	site.GzPage("/s1.xml.gz", sitetest.URLSet("{{.}}/a", "{{.}}/b"))
	site.GzPage("/s2.xml.gz", sitetest.URLSet("{{.}}/c"))
	for _, start := range []string{site.URL, site.URL + "/robots.txt", site.URL + "/sitemap_index.xml"} {
		t.Run(start, func(t *testing.T) {
			recs := drain(t, openSitemaps(t, source.SitemapsOptions{}, start))
			var got []string
			for _, r := range recs {
				if r.err != nil {
					t.Fatalf("error %v at %s", r.err, r.place)
				}
				got = append(got, r.u.Loc+" "+r.u.LastMod+" @"+r.place)
			}
			want := []string{
				site.URL + "/a 2024-05-01 @" + site.URL + "/s1.xml.gz:3:1",
				site.URL + "/b 2024-05-01 @" + site.URL + "/s1.xml.gz:4:1",
				site.URL + "/c 2024-05-01 @" + site.URL + "/s2.xml.gz:3:1",
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %q\nwant %q", got, want)
			}
		})
	}
}

// sitemapError asserts that err is a *SitemapError naming doc and rule.
func sitemapError(t *testing.T, err error, doc, rule, msg string) {
	t.Helper()
	var se *source.SitemapError
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T): want a *source.SitemapError", err, err)
	}
	if se.Sitemap != doc || se.Rule != rule || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), doc) {
		t.Errorf("error %q (sitemap %q, rule %q): want sitemap %q, rule %q, a message with %q", err, se.Sitemap, se.Rule, doc, rule, msg)
	}
}

// TestSitemapsFailures: a document that cannot be read ends the stream
// with an error naming it, after the entries before it; none after it.
func TestSitemapsFailures(t *testing.T) {
	site := sitetest.New(t)
	site.Page("/robots.txt", "User-agent: *\nDisallow: /private/\n")
	site.Page("/ok.xml", sitetest.URLSet("{{.}}/ok"))
	site.Page("/after.xml", sitetest.URLSet("{{.}}/after"))
	site.Page("/index-404.xml", sitetest.Index("{{.}}/ok.xml", "{{.}}/missing.xml", "{{.}}/after.xml"))
	site.Page("/index-blocked.xml", sitetest.Index("{{.}}/ok.xml", "{{.}}/private/s.xml", "{{.}}/after.xml"))
	site.Page("/private/s.xml", sitetest.URLSet("{{.}}/secret"))
	site.Handle("/loop1.xml", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2.xml", http.StatusFound) })
	site.Handle("/loop2.xml", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop1.xml", http.StatusFound) })
	site.Page("/index-loop.xml", sitetest.Index("{{.}}/ok.xml", "{{.}}/loop1.xml", "{{.}}/after.xml"))
	site.Page("/html.xml", "<!DOCTYPE html><html><body>Not found</body></html>")
	site.Page("/index-html.xml", sitetest.Index("{{.}}/ok.xml", "{{.}}/html.xml", "{{.}}/after.xml"))
	site.Page("/broken.xml", strings.Replace(sitetest.URLSet("{{.}}/b1", "{{.}}/b2", "{{.}}/b3"), "</url>\n<url><loc>{{.}}/b3", "</url>\n<url><lo", 1))
	site.Page("/index-broken.xml", sitetest.Index("{{.}}/ok.xml", "{{.}}/broken.xml", "{{.}}/after.xml"))
	site.Handle("/redirect.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/ok.xml", http.StatusMovedPermanently)
	})

	u := site.URL
	for _, c := range []struct {
		start, doc, rule, msg string
		want                  []string // locs before the error
	}{
		{"/index-404.xml", "/missing.xml", "http-error", "404", []string{"/ok"}},
		{"/index-blocked.xml", "/private/s.xml", "blocked-by-robots", "disallowed", []string{"/ok"}},
		{"/index-loop.xml", "/loop1.xml", "fetch-error", "redirect loop", []string{"/ok"}},
		{"/index-html.xml", "/html.xml", sitemap.RuleSitemapIsHTML, "HTML", []string{"/ok"}},
		{"/index-broken.xml", "/broken.xml", sitemap.RuleParseError, "/broken.xml:5:", []string{"/ok", "/b1", "/b2"}},
		{"/nothing-here.xml", "/nothing-here.xml", "http-error", "404", nil},
	} {
		t.Run(c.start, func(t *testing.T) {
			s := openSitemaps(t, source.SitemapsOptions{}, u+c.start)
			recs := drain(t, s)
			if len(recs) == 0 {
				t.Fatal("no records")
			}
			var locs []string
			for _, r := range recs[:len(recs)-1] {
				if r.err != nil {
					t.Fatalf("error before the last record: %v", r.err)
				}
				locs = append(locs, strings.TrimPrefix(r.u.Loc, u))
			}
			if !reflect.DeepEqual(locs, c.want) {
				t.Errorf("entries %q before the error, want %q", locs, c.want)
			}
			last := recs[len(recs)-1].err
			sitemapError(t, last, u+c.doc, c.rule, c.msg)
			if s.Err() != last {
				t.Errorf("Err() = %v, want the error that ended the stream", s.Err())
			}
			if _, err := s.Read(); err != last {
				t.Errorf("Read after the end = %v, want the same error", err)
			}
		})
	}

	// A redirect that ends in a sitemap is no failure.
	got, errs := split(drain(t, openSitemaps(t, source.SitemapsOptions{}, u+"/redirect.xml")))
	if len(errs) > 0 || len(got) != 1 || got[0].Loc != u+"/ok" {
		t.Errorf("redirect: %v %v, want the target's entry", got, errs)
	}
}

// TestSitemapsLocalFailures covers what fails before any fetch.
func TestSitemapsLocalFailures(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.xml")
	recs := drain(t, openSitemaps(t, source.SitemapsOptions{}, missing))
	if len(recs) != 1 {
		t.Fatalf("records %v, want one error", recs)
	}
	sitemapError(t, recs[0].err, missing, "fetch-error", "no such file")

	empty := t.TempDir()
	recs = drain(t, openSitemaps(t, source.SitemapsOptions{}, empty))
	if len(recs) != 1 {
		t.Fatalf("records %v, want one error", recs)
	}
	sitemapError(t, recs[0].err, empty, "fetch-error", "no sitemap files")

	recs = drain(t, openSitemaps(t, source.SitemapsOptions{Options: discover.Options{Offline: true}}, "https://www.example.com/sitemap.xml"))
	if len(recs) != 1 {
		t.Fatalf("records %v, want one error", recs)
	}
	sitemapError(t, recs[0].err, "https://www.example.com/sitemap.xml", "fetch-error", "offline")

	// A local index whose children are neither beside it nor fetchable.
	ix, _ := writeSet(t, t.TempDir(), "https://www.example.com/", everything(2), 1)
	os.Remove(filepath.Join(filepath.Dir(ix), "sitemap-2.xml.gz"))
	recs = drain(t, openSitemaps(t, source.SitemapsOptions{Options: discover.Options{Offline: true}}, ix))
	if len(recs) != 2 || recs[0].err != nil {
		t.Fatalf("records %v, want an entry and an error", recs)
	}
	sitemapError(t, recs[1].err, ix, "fetch-error", "not fetched")
}

// TestSitemapsDepth: an index deeper than MaxDepth ends the stream rather
// than leave its children out.
func TestSitemapsDepth(t *testing.T) {
	site := sitetest.New(t)
	site.Page("/a.xml", sitetest.Index("{{.}}/b.xml"))
	site.Page("/b.xml", sitetest.Index("{{.}}/c.xml"))
	site.Page("/c.xml", sitetest.URLSet("{{.}}/deep"))
	got, errs := split(drain(t, openSitemaps(t, source.SitemapsOptions{}, site.URL+"/a.xml")))
	if len(errs) > 0 || len(got) != 1 {
		t.Errorf("depth 2 (default): %v %v, want the entry", got, errs)
	}
	recs := drain(t, openSitemaps(t, source.SitemapsOptions{Options: discover.Options{MaxDepth: 1}}, site.URL+"/a.xml"))
	if len(recs) != 1 {
		t.Fatalf("MaxDepth 1: %v, want one error", recs)
	}
	sitemapError(t, recs[0].err, site.URL+"/b.xml", "nested-index", "children are not read")
}

// TestSitemapsOrder: entries come in walk order however documents are
// fetched: an index's children before the start after it, every time.
func TestSitemapsOrder(t *testing.T) {
	dir := t.TempDir()
	ix, _ := writeSet(t, dir, "https://www.example.com/", everything(6), 2)
	extra := filepath.Join(t.TempDir(), "extra.txt")
	if err := os.WriteFile(extra, []byte("https://www.example.com/extra\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, u := range everything(6) {
		want = append(want, u.Loc)
	}
	want = append(want, "https://www.example.com/extra")
	for _, conc := range []int{1, 2, 4} {
		for range 10 {
			got, errs := split(drain(t, openSitemaps(t, source.SitemapsOptions{Options: discover.Options{Concurrency: conc}}, ix, extra)))
			var locs []string
			for _, u := range got {
				locs = append(locs, u.Loc)
			}
			if len(errs) > 0 || !reflect.DeepEqual(locs, want) {
				t.Fatalf("Concurrency %d: %q %v, want %q", conc, locs, errs, want)
			}
		}
	}
}

// waitGoroutines waits for the number of goroutines to fall to n. The
// bound is generous: it tells a leak from a slow machine, it measures
// nothing.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSitemapsClose stops a walk in the middle of a body that never ends,
// and of an index whose many children are waiting: Close returns promptly
// and leaves no goroutine behind.
func TestSitemapsClose(t *testing.T) {
	site := sitetest.New(t)
	stall := func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n")
		// Enough that the reader needs no more for its first entries.
		for i := range 20000 {
			fmt.Fprintf(w, "<url><loc>http://%s/p/%d</loc></url>\n", r.Host, i)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the rest never comes
	}
	site.Handle("/stall.xml", stall)
	var locs []string
	for i := range 200 {
		locs = append(locs, fmt.Sprintf("{{.}}/c%d.xml", i))
		site.Page(fmt.Sprintf("/c%d.xml", i), sitetest.URLSet(fmt.Sprintf("{{.}}/c/%d", i)))
	}
	site.Page("/index.xml", sitetest.Index(append([]string{"{{.}}/stall.xml"}, locs...)...))
	http.DefaultClient.CloseIdleConnections()
	before := runtime.NumGoroutine()

	for _, start := range []string{"/stall.xml", "/index.xml"} {
		// The transport given, so that its idle connections can be closed
		// before goroutines are counted.
		s := source.OpenSitemaps(t.Context(), []string{site.URL + start}, source.SitemapsOptions{Options: discover.Options{Concurrency: 4, Transport: http.DefaultTransport}})
		u, err := s.Read()
		if err != nil || u.Loc != site.URL+"/p/0" {
			t.Fatalf("%s: first Read = %v, %v", start, u.Loc, err)
		}
		s.Close() // a Close that waited for the stalled body would never return
		if _, err := s.Read(); err != io.ErrClosedPipe {
			t.Errorf("%s: Read after Close = %v, want io.ErrClosedPipe", start, err)
		}
		if site.Hits("/c199.xml") > 0 {
			t.Errorf("%s: the index was read to its end after Close", start)
		}
	}
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	waitGoroutines(t, before)
}

// stallSite serves /stall.xml: 3,000 entries at once, then nothing more
// until the request is given up.
func stallSite(t *testing.T) *sitetest.Site {
	site := sitetest.New(t)
	site.Handle("/stall.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n")
		for i := range 3000 {
			fmt.Fprintf(w, "<url><loc>http://%s/p/%d</loc></url>\n", r.Host, i)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	return site
}

// TestSitemapsContext: a cancelled context ends the stream with its error,
// after the entries read before it, in order: an interrupted read printed
// none of those still in the batches (up to 512 in the one being filled,
// more in those sent and not yet taken).
func TestSitemapsContext(t *testing.T) {
	site := stallSite(t)
	ctx, cancel := context.WithCancel(t.Context())
	s := source.OpenSitemaps(ctx, []string{site.URL + "/stall.xml"}, source.SitemapsOptions{})
	defer s.Close()
	if _, err := s.Read(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the 3,000 entries are read meanwhile
	cancel()
	n := 1
	for {
		u, err := s.Read()
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Read after cancel = %v, want context.Canceled", err)
			}
			break
		}
		if want := fmt.Sprintf("%s/p/%d", site.URL, n); u.Loc != want {
			t.Fatalf("entry %d after cancel: %s, want %s", n, u.Loc, want)
		}
		n++
	}
	if n != 3000 {
		t.Errorf("%d entries, then the cancel; want the 3,000 read before it", n)
	}
	if !errors.Is(s.Err(), context.Canceled) {
		t.Errorf("Err = %v, want context.Canceled", s.Err())
	}
}

// TestSitemapsContextReadAhead: cancelled, a Sitemaps gives what it had
// read of the current document, and nothing of a document read ahead of
// its turn: what comes out stays the beginning of the stream, with no gap.
func TestSitemapsContextReadAhead(t *testing.T) {
	site := stallSite(t)
	var locs []string
	for i := range 5000 {
		locs = append(locs, fmt.Sprintf("{{.}}/q/%d", i))
	}
	site.Page("/ahead.xml", sitetest.URLSet(locs...))
	ctx, cancel := context.WithCancel(t.Context())
	s := source.OpenSitemaps(ctx, []string{site.URL + "/stall.xml", site.URL + "/ahead.xml"}, source.SitemapsOptions{})
	defer s.Close()
	if _, err := s.Read(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // both read meanwhile, as far as they go
	cancel()
	n := 1
	for {
		u, err := s.Read()
		if err != nil {
			break
		}
		if want := fmt.Sprintf("%s/p/%d", site.URL, n); u.Loc != want {
			t.Fatalf("entry %d after cancel: %s, want %s", n, u.Loc, want)
		}
		n++
	}
	if n != 3000 || !errors.Is(s.Err(), context.Canceled) {
		t.Errorf("%d entries, then %v; want stall.xml's 3,000, then context.Canceled", n, s.Err())
	}
}

// TestSitemapsAhead: behind ReadAhead, places still name the document.
func TestSitemapsAhead(t *testing.T) {
	path := filepath.Join("testdata", "sitemaps", "feed.atom")
	a := source.ReadAhead(openSitemaps(t, source.SitemapsOptions{}, path))
	defer a.Close()
	recs := drain(t, a)
	if len(recs) != 2 || recs[1].place != path+":7:3" {
		t.Errorf("records %+v, want 2, the second at %s:7:3", recs, path)
	}
	if a.Name() != path {
		t.Errorf("Name() = %q, want %q", a.Name(), path)
	}
}

// FuzzSitemaps: any document read as a file gives the entries
// sitemap.Reader gives, in order, then a clean end or one error that ends
// the stream; never a panic.
func FuzzSitemaps(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "sitemaps", "*"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(sitetest.Gzip(sitetest.URLSet("https://www.example.com/a", "https://www.example.com/b"))))
	f.Add([]byte(sitetest.Index("https://www.example.com/s.xml")))
	f.Fuzz(func(t *testing.T, doc []byte) {
		p := filepath.Join(t.TempDir(), "s.xml")
		if err := os.WriteFile(p, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		r := sitemap.NewReader(strings.NewReader(string(doc)))
		var want []sitemap.URL
		var wantErr error
		for u, err := range r.All() {
			if err != nil {
				wantErr = err
				break
			}
			want = append(want, u)
		}
		if r.Format() == sitemap.FormatIndex {
			return // its children are other documents
		}
		s := source.OpenSitemaps(t.Context(), []string{p}, source.SitemapsOptions{Options: discover.Options{Offline: true}})
		defer s.Close()
		var got []sitemap.URL
		var final error
		for u, err := range s.All() {
			var pe *source.ParseError
			switch {
			case err == nil:
				got = append(got, u)
			case errors.As(err, &pe):
				if pe.File != p || pe.Line < 1 {
					t.Fatalf("ParseError %v without its place", err)
				}
			default:
				final = err
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("entries %v, sitemap.Reader's %v", got, want)
		}
		if (final != nil) != (wantErr != nil) || final != s.Err() {
			t.Fatalf("end %v (Err %v), sitemap.Reader's %v", final, s.Err(), wantErr)
		}
		if final != nil && !strings.Contains(final.Error(), p) {
			t.Fatalf("error %q does not name %s", final, p)
		}
	})
}

// BenchmarkSitemaps reads 100,000 URLs from an index over two gzipped
// urlsets on disk.
func BenchmarkSitemaps(b *testing.B) {
	dir := b.TempDir()
	urls := make([]sitemap.URL, 100000)
	for i := range urls {
		urls[i] = sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/catalog/item-%d?color=red&size=M", i), LastMod: "2024-05-01"}
	}
	ix, children := writeSet(b, dir, "https://www.example.com/", urls, 50000)
	var size int64
	for _, c := range children {
		f, _ := os.Open(c)
		zr, _ := gzip.NewReader(f)
		n, _ := io.Copy(io.Discard, zr)
		f.Close()
		size += n
	}
	b.SetBytes(size)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		s := source.OpenSitemaps(b.Context(), []string{ix}, source.SitemapsOptions{Options: discover.Options{Offline: true}})
		for _, err := range s.All() {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		s.Close()
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "URLs/s")
}

// TestSitemapsRefuseAltered: with RefuseAltered, an entry the reader read
// with a change (a byte that is not UTF-8, a NUL reference) is a
// ParseError at the character, not the entry; without it, the entry comes
// as read. generate published such a URL (caf%EF%BF%BD) with exit 0.
func TestSitemapsRefuseAltered(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.xml")
	doc := "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n" +
		"<url><loc>https://www.example.com/caf\xe9</loc></url>\n<url><loc>https://www.example.com/n&#0;ul</loc></url>\n" +
		"<url><loc>https://www.example.com/ok</loc></url>\n</urlset>\n"
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, refuse := range []bool{false, true} {
		s := source.OpenSitemaps(context.Background(), []string{p}, source.SitemapsOptions{RefuseAltered: refuse})
		var got, errs []string
		for u, err := range s.All() {
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			got = append(got, u.Loc)
		}
		s.Close()
		if !refuse {
			if len(got) != 3 || len(errs) != 0 {
				t.Errorf("not refused: %q, %q; want the three entries as read", got, errs)
			}
			continue
		}
		if !reflect.DeepEqual(got, []string{"https://www.example.com/ok"}) || len(errs) != 2 ||
			!strings.HasPrefix(errs[0], p+":3:") || !strings.Contains(errs[0], "not UTF-8") || !strings.HasPrefix(errs[1], p+":4:") {
			t.Errorf("refused: %q, %q; want ok, and errors at lines 3 and 4", got, errs)
		}
	}
}
