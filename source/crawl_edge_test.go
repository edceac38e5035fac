package source_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// TestCrawlStartAsLinked: a start is known as a link to it is, without
// its fragment and session ID: the home page given as "/#top" and linked
// as "/" is fetched once and listed once, as "/".
func TestCrawlStartAsLinked(t *testing.T) {
	var mu sync.Mutex
	var hits []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		hits = append(hits, r.URL.RequestURI())
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body><a href="/">home</a> <a href="/a">a</a></body></html>`)
	}))
	defer srv.Close()
	for _, start := range []string{"/#top", "/?PHPSESSID=0123456789abcdef0123456789abcdef"} {
		mu.Lock()
		hits = nil
		mu.Unlock()
		_, urls := crawlAll(t, source.CrawlOptions{Starts: []string{srv.URL + start}, Rate: -1, Concurrency: 1})
		var got []string
		for _, u := range urls {
			got = append(got, strings.TrimPrefix(u.Loc, srv.URL))
		}
		slices.Sort(got)
		mu.Lock()
		asked := slices.Clone(hits)
		mu.Unlock()
		if want := []string{"/", "/a"}; !slices.Equal(got, want) || len(asked) != 2 {
			t.Errorf("start %s: listed %q, want %q; requests %q", start, got, want, asked)
		}
	}
}

// TestCrawlAlternatesCapped: a page keeps at most 1,000 hreflang
// alternates, as many as generate reads back from the crawl's output and
// the sitemap reader from a <url>; with more, its JSON line was refused.
// The alternates past them are still followed, as links.
func TestCrawlAlternatesCapped(t *testing.T) {
	const n = 1100
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		var b strings.Builder
		if r.URL.Path == "/" {
			for i := range n {
				fmt.Fprintf(&b, `<link rel="alternate" hreflang="en" href="/alt/%d">`, i)
			}
		}
		fmt.Fprint(w, `<html><head>`+b.String()+`</head><body></body></html>`)
	}))
	defer srv.Close()
	var mu sync.Mutex
	met := map[string]bool{}
	_, urls := crawlAll(t, source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1, MaxPages: 300, Log: func(e source.CrawlEntry) {
		mu.Lock()
		met[strings.TrimPrefix(e.URL, srv.URL)] = true
		mu.Unlock()
	}})
	i := slices.IndexFunc(urls, func(u sitemap.URL) bool { return u.Loc == srv.URL+"/" })
	if i < 0 {
		t.Fatalf("the page is not listed: %v", urls)
	}
	if got := len(urls[i].Alternates); got != 1000 {
		t.Errorf("%d alternates kept, want 1000", got)
	}
	line := source.AppendJSONL(nil, &urls[i], "")
	if _, err := source.New(strings.NewReader(string(line)), "crawl", source.FormatJSONL).Read(); err != nil {
		t.Errorf("the crawl's line is not generate's input: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !met[fmt.Sprintf("/alt/%d", n-1)] {
		t.Errorf("the alternates past the cap are not followed")
	}
}

// TestCrawlRetriesTakeTurns: the retries of 429 and 503 answers take
// their turns at the host's rate as other requests do: answers that came
// together (a server that stalled, then shed its load) were retried
// together, a burst at the server that asked the crawl to slow down.
func TestCrawlRetriesTakeTurns(t *testing.T) {
	const busy = 3
	var mu sync.Mutex
	hits := map[string]int{}
	inFlight, most := 0, 0
	arrived := make(chan struct{}, busy)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == "/robots.txt":
			http.NotFound(w, r)
		case p == "/":
			w.Header().Set("Content-Type", "text/html")
			for i := range busy {
				fmt.Fprintf(w, `<a href="/p/%d">%d</a>`, i, i)
			}
		default:
			mu.Lock()
			hits[p]++
			first := hits[p] == 1
			mu.Unlock()
			if first {
				// The first answers all come at once, when the last
				// request has come.
				arrived <- struct{}{}
				for len(arrived) < busy {
					select {
					case <-r.Context().Done():
						return
					case <-time.After(5 * time.Millisecond):
					}
				}
				w.Header().Set("Retry-After", "0")
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
			mu.Lock()
			inFlight++
			most = max(most, inFlight)
			mu.Unlock()
			time.Sleep(10 * time.Millisecond)
			mu.Lock()
			inFlight--
			mu.Unlock()
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>ok</body></html>")
		}
	}))
	defer srv.Close()
	// 8 a second: a turn every 125 ms, each retry answered in 10.
	_, urls := crawlAll(t, source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: 8})
	mu.Lock()
	defer mu.Unlock()
	if len(urls) != busy+1 {
		t.Errorf("%d pages listed, want %d", len(urls), busy+1)
	}
	if most > 1 {
		t.Errorf("%d retries at the server at once, at a rate of 8 a second", most)
	}
}

// TestCrawlRetryAfterPastDurationRange: a Retry-After of more seconds than
// a Duration holds is the longest wait (a minute), not none: it wrapped
// round, and the page was asked for again at once, three times in all.
func TestCrawlRetryAfterPastDurationRange(t *testing.T) {
	var mu sync.Mutex
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		default:
			mu.Lock()
			hits++
			mu.Unlock()
			// 2^63 ns is 9223372036.85 s: one second more wraps round.
			w.Header().Set("Retry-After", "9223372037")
			http.Error(w, "busy", http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	// The budget ends the crawl in the minute's wait; the first answer is
	// all the server sees.
	c, err := source.OpenCrawl(context.Background(), source.CrawlOptions{
		Starts: []string{srv.URL + "/"}, Rate: -1, Budget: time.Second, Dir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range c.All() {
	}
	mu.Lock()
	defer mu.Unlock()
	if hits != 1 {
		t.Errorf("the page was asked for %d times within a second of its answer asking for the longest wait", hits)
	}
}

// TestCrawlHostileTag: a page of one tag with a million attributes (10 MB,
// under the page cap) made the HTML tokenizer allocate 190 MB; eight of
// them, crawled at once, a crawl of 1.4 GB. The page is now an error at
// its tag's 1 MiB, whatever its length, and the site's other pages are
// crawled as ever.
func TestCrawlHostileTag(t *testing.T) {
	var tag strings.Builder
	tag.WriteString("<html><body><div")
	for i := 0; tag.Len() < 10<<20; i++ {
		tag.WriteString(" a" + strconv.Itoa(i) + "=x")
	}
	tag.WriteString(`><a href="/hidden">x</a></div></body></html>`)
	hostile := tag.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch {
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case r.URL.Path == "/":
			for i := range 8 {
				fmt.Fprintf(w, `<a href="/big/%d">big</a> `, i)
			}
			fmt.Fprint(w, `<a href="/ok">ok</a>`)
		case strings.HasPrefix(r.URL.Path, "/big/"):
			fmt.Fprint(w, hostile)
		default:
			fmt.Fprint(w, `<html><body>fine</body></html>`)
		}
	}))
	defer srv.Close()
	var mu sync.Mutex
	var refused []string
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, urls := crawlAll(t, source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1, Concurrency: 8,
		Log: func(e source.CrawlEntry) {
			if e.Reason == "error" && strings.Contains(e.Detail, "HTML tag of over 1 MiB outside its quoted values") {
				mu.Lock()
				refused = append(refused, e.URL)
				mu.Unlock()
			}
		}})
	runtime.ReadMemStats(&m1)
	var got []string
	for _, u := range urls {
		got = append(got, strings.TrimPrefix(u.Loc, srv.URL))
	}
	slices.Sort(got)
	if want := []string{"/", "/ok"}; !slices.Equal(got, want) {
		t.Errorf("listed %q, want %q", got, want)
	}
	if len(refused) != 8 {
		t.Errorf("%d pages refused for their tag, want the 8: %q", len(refused), refused)
	}
	// Allocated in all, the pages' bodies included: 1.5 GB before.
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 600<<20 {
		t.Errorf("the crawl allocated %d MB, want the bound's worth", a>>20)
	}
}
