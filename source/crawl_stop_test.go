package source_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/source"
)

// stopSite serves pages by path, /slow only after a while as long as slow
// is set, and counts what it answered.
func stopSite(t *testing.T, pages map[string]string, slow *atomic.Bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" && slow.Load() {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
				return
			}
		}
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!DOCTYPE html><html><head>"+p)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// crawlPaths crawls with o under ctx and returns the paths listed, sorted,
// and the error that ended the crawl.
func crawlPaths(t *testing.T, ctx context.Context, o source.CrawlOptions, base string) ([]string, error) {
	t.Helper()
	c, err := source.OpenCrawl(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got []string
	for u, err := range c.All() {
		if err != nil {
			return got, err
		}
		got = append(got, strings.TrimPrefix(u.Loc, base))
	}
	slices.Sort(got)
	return got, nil
}

// TestCrawlResumeKeepsFates: what a stopped crawl learnt of a URL (a 404)
// is kept for the resume: a page found after it, whose canonical names
// it, is listed as in a crawl never stopped.
func TestCrawlResumeKeepsFates(t *testing.T) {
	var slow atomic.Bool
	slow.Store(true)
	srv := stopSite(t, map[string]string{
		"/":     `</head><body><a href="/x">x</a><a href="/slow">s</a>`,
		"/slow": `</head><body><a href="/a">a</a>`,
		"/a":    `<link rel="canonical" href="/x"></head>`,
	}, &slow)
	o := source.CrawlOptions{Starts: []string{srv.URL + "/"}, Dir: t.TempDir(), Concurrency: 2, Rate: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := crawlPaths(t, ctx, o, srv.URL); err == nil {
		t.Fatal("the crawl was not stopped")
	}
	slow.Store(false)
	o.Resume = true
	got, err := crawlPaths(t, context.Background(), o, srv.URL)
	if want := []string{"/", "/a", "/slow"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("resumed: listed %v (%v), want %v", got, err, want)
	}
}

// stopRenderer renders slowly while slow is set (until its context ends),
// and otherwise writes a link, as a single-page app does.
type stopRenderer struct{ slow *atomic.Bool }

func (r stopRenderer) Render(ctx context.Context, u string, _ func(context.Context, string, bool) bool) ([]byte, string, error) {
	if r.slow.Load() {
		<-ctx.Done()
		return nil, "", ctx.Err()
	}
	return []byte(`<html><body><a href="/app/page">p</a></body></html>`), "", nil
}

// TestCrawlStopWhileRendering: a crawl stopped while a page renders leaves
// the page for the resume, which renders it; the stop is no render error.
func TestCrawlStopWhileRendering(t *testing.T) {
	var slow atomic.Bool
	slow.Store(true)
	srv := stopSite(t, map[string]string{"/": `<script>app()</script></head>`, "/app/page": `</head>`}, &slow)
	o := source.CrawlOptions{Starts: []string{srv.URL + "/"}, Dir: t.TempDir(), Rate: -1, Render: stopRenderer{&slow}}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	c, err := source.OpenCrawl(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	for range c.All() {
	}
	c.Close()
	if st := c.Stats(); st.RenderErrors != 0 {
		t.Errorf("a stop counted as a render error: %+v", st)
	}
	slow.Store(false)
	o.Resume = true
	got, err := crawlPaths(t, context.Background(), o, srv.URL)
	if want := []string{"/", "/app/page"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("resumed: listed %v (%v), want %v", got, err, want)
	}
}

// burstRenderer asks for n scripts of the page at once, and gives up on
// them (a rendering's timeout).
type burstRenderer struct{ n int }

func (r burstRenderer) Render(ctx context.Context, u string, allow func(context.Context, string, bool) bool) ([]byte, string, error) {
	tctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	for i := range r.n {
		wg.Go(func() { allow(tctx, fmt.Sprintf("%s/chunk%d.js", strings.TrimSuffix(u, "/"), i), false) })
	}
	wg.Wait()
	return nil, "", tctx.Err()
}

// TestCrawlRenderGivesBackTurns: the host's turns a rendering's requests
// took and gave up on go back: the next page is not held behind them.
func TestCrawlRenderGivesBackTurns(t *testing.T) {
	var mu sync.Mutex
	at := map[string]time.Time{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		at[r.URL.Path] = time.Now()
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/" {
			fmt.Fprint(w, `<html><head><script>app()</script></head></html>`)
		}
	}))
	defer srv.Close()
	// At 5 a second, 50 turns kept would hold /next 10 s.
	_, err := crawlPaths(t, context.Background(), source.CrawlOptions{Starts: []string{srv.URL + "/", srv.URL + "/next"}, Concurrency: 1,
		Rate: 5, Render: burstRenderer{n: 50}}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if d := at["/next"].Sub(at["/"]); d > 5*time.Second {
		t.Errorf("/next fetched %v after /, behind the turns a rendering gave up", d)
	}
}

// TestCrawlCanonicalCycle: of pages whose canonicals name each other, one
// is listed (the first URL), as search engines pick one; a page whose
// canonical names one of them is not.
func TestCrawlCanonicalCycle(t *testing.T) {
	var slow atomic.Bool
	srv := stopSite(t, map[string]string{
		"/":  `</head><body><a href="/b">b</a><a href="/a">a</a><a href="/c">c</a>`,
		"/a": `<link rel="canonical" href="/b"></head>`,
		"/b": `<link rel="canonical" href="/a"></head>`,
		"/c": `<link rel="canonical" href="/b"></head>`,
	}, &slow)
	got, err := crawlPaths(t, context.Background(), source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1}, srv.URL)
	if want := []string{"/", "/a"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("listed %v (%v), want %v", got, err, want)
	}
}

// TestCrawlHostConcurrency: Concurrency is per host: no host has more
// pages fetched at once, and a crawl of two hosts fetches from both at
// once.
func TestCrawlHostConcurrency(t *testing.T) {
	var mu sync.Mutex
	now, peak := map[string]int{}, map[string]int{}
	total, totalPeak := 0, 0
	var other *httptest.Server
	handler := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				return
			}
			mu.Lock()
			now[name]++
			total++
			peak[name], totalPeak = max(peak[name], now[name]), max(totalPeak, total)
			mu.Unlock()
			time.Sleep(30 * time.Millisecond)
			mu.Lock()
			now[name]--
			total--
			mu.Unlock()
			w.Header().Set("Content-Type", "text/html")
			if r.URL.Path == "/" && name == "a" {
				for i := range 12 {
					fmt.Fprintf(w, `<a href="/p%d">a</a><a href="%s/p%d">b</a>`, i, other.URL, i)
				}
			}
		}
	}
	other = httptest.NewServer(handler("b"))
	defer other.Close()
	srv := httptest.NewServer(handler("a"))
	defer srv.Close()
	_, err := crawlPaths(t, context.Background(), source.CrawlOptions{Starts: []string{srv.URL + "/"},
		Hosts: []string{strings.TrimPrefix(other.URL, "http://")}, Concurrency: 2, Rate: -1}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if peak["a"] > 2 || peak["b"] > 2 {
		t.Errorf("pages fetched at once by host: %v, want 2 at most", peak)
	}
	if totalPeak < 3 {
		t.Errorf("at most %d pages fetched at once from two hosts of 2 each", totalPeak)
	}
}

// TestCrawlEndedRemovesItsFolders: a crawl that ends removes the folders
// it made for its own (the default .sitemapkit/crawl-… makes two), also
// when a resumed run ends it, and never one that was there before.
func TestCrawlEndedRemovesItsFolders(t *testing.T) {
	var slow atomic.Bool
	srv := stopSite(t, map[string]string{
		"/":       `</head><body><a href="/a.html">a</a><a href="/slow">slow</a>`,
		"/a.html": `</head>`,
		"/slow":   `</head>`,
	}, &slow)
	o := source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1, Fetch: discover.Options{Timeout: crawlFetchTimeout}}

	root := t.TempDir()
	o.Dir = filepath.Join(root, "made", "crawl-1")
	crawlAll(t, o)
	if _, err := os.Stat(filepath.Join(root, "made")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an ended crawl left the folder it made: %v", err)
	}

	// Stopped while /slow is asked, then resumed to its end.
	slow.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := crawlPaths(t, ctx, o, srv.URL); err == nil {
		t.Fatal("the crawl ended, not stopped")
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "checkpoint.json")); err != nil {
		t.Fatalf("a stopped crawl keeps its checkpoint: %v", err)
	}
	slow.Store(false)
	resumed := o
	resumed.Resume = true
	crawlAll(t, resumed)
	if _, err := os.Stat(filepath.Join(root, "made")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a resumed crawl that ended left the folder the first run made: %v", err)
	}

	// A folder that was there stays, empty as it was.
	if err := os.Mkdir(filepath.Join(root, "there"), 0o755); err != nil {
		t.Fatal(err)
	}
	o.Dir = filepath.Join(root, "there", "crawl-2")
	crawlAll(t, o)
	if ents, err := os.ReadDir(filepath.Join(root, "there")); err != nil || len(ents) != 0 {
		t.Errorf("the folder that was there: %v, %v; want it, empty", ents, err)
	}
}
