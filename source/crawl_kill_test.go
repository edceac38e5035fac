package source_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// A kill is simulated by copying the crawl's folder as it is at some moment
// while the crawl runs, its checkpoint and the file of URLs met it names
// first, then the files that only grow; the copy is resumed.

// killImage copies into a new folder what a kill now would leave of dir.
func killImage(t *testing.T, dir string) string {
	t.Helper()
	to := t.TempDir()
	for name, b := range checkpointFiles(t, dir) {
		if err := os.WriteFile(filepath.Join(to, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"queue.jsonl", "found.jsonl", "queue.jsonl.old"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			if err := os.WriteFile(filepath.Join(to, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return to
}

// killOpts crawls the test site in dir, recording where it is every period.
func killOpts(site *crawlSite, dir string, period time.Duration) source.CrawlOptions {
	return source.CrawlOptions{Starts: []string{site.URL + "/"}, Rate: -1, Concurrency: 8, MaxDepth: 2000, Dir: dir,
		Fetch: discover.Options{Timeout: crawlFetchTimeout, MaxBytes: 1 << 20}, Files: []string{"**/*.pdf"},
		Checkpoint: period}
}

// runAndKill crawls with o until n pages are listed, waits wait, and
// returns the image of a kill then; false when the crawl ended before.
func runAndKill(t *testing.T, o source.CrawlOptions, n int, wait time.Duration) (string, bool) {
	t.Helper()
	var killed string
	_, ok := crawlUntil(t, o, n, func() {
		time.Sleep(wait)
		killed = killImage(t, o.Dir)
	})
	return killed, ok
}

// TestCrawlKilledAnywhere: killed at moments drawn at random (the queue
// spilling to its file early), and resumed, and again, a crawl lists the
// site's exact set, each page once.
func TestCrawlKilledAnywhere(t *testing.T) {
	defer source.SetFrontierMem(20)()
	r := rand.New(rand.NewPCG(1, 2))
	site := newCrawlSite(t, 21)
	for round := range 3 {
		o := killOpts(site, t.TempDir(), 10*time.Millisecond)
		n := 0
		for range 1 + round {
			n += 200 + r.IntN(1500)
			killed, ok := runAndKill(t, o, n, time.Duration(r.IntN(30))*time.Millisecond)
			if !ok {
				break
			}
			o.Dir, o.Resume = killed, true
		}
		_, urls := crawlAll(t, o)
		site.check(t, fmt.Sprintf("round %d, killed and resumed", round), urls)
	}
}

// TestCrawlKilledTwice: a crawl resumed, then killed before it would have
// recorded where it is (a minute), resumes again: the resume recorded
// itself at once.
func TestCrawlKilledTwice(t *testing.T) {
	defer source.SetFrontierMem(20)()
	site := newCrawlSite(t, 22)
	o := killOpts(site, t.TempDir(), 10*time.Millisecond)
	killed, _ := runAndKill(t, o, 1500, 30*time.Millisecond)
	o.Dir, o.Resume, o.Checkpoint = killed, true, time.Minute
	killed, ok := runAndKill(t, o, 1700, 0)
	if !ok {
		t.Fatal("the resumed crawl ended early")
	}
	o.Dir = killed
	_, urls := crawlAll(t, o)
	site.check(t, "second resume", urls)
}

// TestCrawlEndedLeavesNothing: a crawl that ends, recording where it is
// all the time, leaves nothing in its folder.
func TestCrawlEndedLeavesNothing(t *testing.T) {
	site := newCrawlSite(t, 23)
	for i := range 30 {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "keep"), nil, 0o644) // the folder stays
		o := killOpts(site, dir, 20*time.Microsecond)
		o.Starts = []string{site.URL + "/en/"}
		crawlAll(t, o)
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			t.Errorf("run %d: an ended crawl left %s", i, strings.Join(names, " "))
		}
	}
}

// slowRobotsHost serves pages from a host whose robots.txt takes delay.
func slowRobotsHost(t *testing.T, delay time.Duration) *httptest.Server {
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			time.Sleep(delay)
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!DOCTYPE html><html><head><title>x</title></head><body>x</body></html>")
	}))
	t.Cleanup(b.Close)
	return b
}

// TestCrawlKilledWhileQueuing: a URL met, whose queuing waits on its
// host's robots.txt, when the crawl records where it is: killed then, the
// crawl meets it again after the resume (it was not recorded as met).
func TestCrawlKilledWhileQueuing(t *testing.T) {
	other := slowRobotsHost(t, 400*time.Millisecond)
	srv := stopSite(t, map[string]string{
		"/":       `</head><body><a href="/a.html">a</a><a href="` + other.URL + `/x.html">x</a>`,
		"/a.html": `</head>`,
	}, new(atomic.Bool))
	host, _ := url.Parse(other.URL)
	o := source.CrawlOptions{Starts: []string{srv.URL + "/"}, Hosts: []string{host.Host}, Rate: -1, Dir: t.TempDir(),
		Checkpoint: 10 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := source.OpenCrawl(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(250 * time.Millisecond) // the other host's robots.txt loading
	killed := killImage(t, o.Dir)
	for range c.All() {
	}
	c.Close()
	o.Dir, o.Resume = killed, true
	_, urls := crawlAll(t, o)
	if got := locsOf(urls); !strings.Contains(got, "/x.html") || !strings.Contains(got, "/a.html") {
		t.Errorf("resumed after a kill: listed %s", got)
	}
}

// TestCrawlKilledWhileSettling: a page waiting on its canonical, which
// turns out broken, is listed; killed while that is being logged, the
// crawl still lists it after the resume.
func TestCrawlKilledWhileSettling(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<html><body><a href="/a">a</a><a href="/b">b</a></body></html>`)
		case "/a":
			fmt.Fprint(w, `<html><head><link rel="canonical" href="/b"></head></html>`)
		case "/b":
			time.Sleep(100 * time.Millisecond)
			http.NotFound(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	logging := make(chan struct{})
	killedAt := make(chan string)
	o := source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1, Dir: t.TempDir(), Checkpoint: 10 * time.Millisecond,
		Log: func(e source.CrawlEntry) {
			if strings.HasSuffix(e.URL, "/a") && e.Reason == "" {
				close(logging)
				time.Sleep(200 * time.Millisecond) // a slow log
			}
		}}
	go func() {
		<-logging
		time.Sleep(60 * time.Millisecond)
		killedAt <- killImage(t, o.Dir)
	}()
	crawlAll(t, o)
	killed := <-killedAt
	o.Dir, o.Resume, o.Log = killed, true, nil
	_, urls := crawlAll(t, o)
	if got := locsOf(urls); got != srv.URL+"/ "+srv.URL+"/a" {
		t.Errorf("resumed after a kill: listed %s, want / and /a", got)
	}
}

// TestCrawlKilledMaxPages: the pages in flight at a kill, visited again
// after the resume, are not counted twice in MaxPages.
func TestCrawlKilledMaxPages(t *testing.T) {
	pages := map[string]string{}
	var home strings.Builder
	home.WriteString("</head><body>")
	for i := range 200 {
		fmt.Fprintf(&home, `<a href="/slow?%d">%d</a>`, i, i)
	}
	pages["/"] = home.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(40 * time.Millisecond)
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!DOCTYPE html><html><head>"+pages[r.URL.Path])
	}))
	defer srv.Close()
	o := source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1, Concurrency: 8, Dir: t.TempDir(), MaxPages: 60,
		Checkpoint: 10 * time.Millisecond}
	killed, ok := runAndKill(t, o, 20, 20*time.Millisecond)
	if !ok {
		t.Fatal("the crawl ended early")
	}
	o.Dir, o.Resume = killed, true
	if _, urls := crawlAll(t, o); len(urls) != 60 {
		t.Errorf("MaxPages 60, killed and resumed: %d pages listed", len(urls))
	}
}

// locsOf is urls' locs, sorted, joined by spaces.
func locsOf(urls []sitemap.URL) string {
	var locs []string
	for _, u := range urls {
		locs = append(locs, u.Loc)
	}
	slices.Sort(locs)
	return strings.Join(locs, " ")
}
