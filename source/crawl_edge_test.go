package source_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

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
