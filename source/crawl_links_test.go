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

// TestCrawlLinkHeader: Google reads a canonical and hreflang alternates in
// an answer's HTTP Link header as in its head, and a file (a PDF) can say
// them nowhere else. The crawl ignored the header: a page whose header
// named another canonical was listed beside it, a PDF too.
func TestCrawlLinkHeader(t *testing.T) {
	page := func(head string) string {
		return "<!DOCTYPE html><html><head>" + head + "</head><body></body></html>"
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		body := page("")
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
			return
		case "/":
			body = `<a href="/a">a</a> <a href="/c">c</a> <a href="/d">d</a> <a href="/doc.pdf">pdf</a> <a href="/e.pdf">pdf</a>`
		case "/a": // canonical in the header only, relative
			w.Header().Set("Link", `</b>; rel="canonical"`)
		case "/c": // self-canonical and alternates, in one value and two
			w.Header().Add("Link", `<https://fr.example/c?x=1,2>; rel="alternate"; hreflang="fr", </c>; title="a, b; c"; rel=canonical`)
			w.Header().Add("Link", `</de/c>; rel=alternate; hreflang=de`)
		case "/d": // the header and the head disagree: neither counts
			w.Header().Set("Link", `</b>; rel="canonical"`)
			body = page(`<link rel="canonical" href="/d">`)
		case "/doc.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Header().Set("Link", `</b>; rel="canonical"`)
			body = "%PDF-1.4"
		case "/e.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			body = "%PDF-1.4"
		}
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	_, urls := crawlAll(t, source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1, Files: []string{"**/*.pdf"}})
	var got []string
	alternates := map[string][]string{}
	for _, u := range urls {
		p := strings.TrimPrefix(u.Loc, srv.URL)
		got = append(got, p)
		for _, a := range u.Alternates {
			alternates[p] = append(alternates[p], a.Hreflang+" "+strings.TrimPrefix(a.Href, srv.URL))
		}
	}
	slices.Sort(got)
	if want := []string{"/", "/b", "/c", "/d", "/de/c", "/e.pdf"}; !slices.Equal(got, want) {
		t.Errorf("listed %q, want %q", got, want)
	}
	if want := []string{"fr https://fr.example/c?x=1,2", "de /de/c"}; !slices.Equal(alternates["/c"], want) {
		t.Errorf("alternates of /c: %q, want %q", alternates["/c"], want)
	}
}

// TestCrawlRedirectToItself: a redirect to the page as the crawl knows it,
// spelled otherwise (its parameters in another order; a session ID added,
// as a Java server does for a client without cookies), led to a URL the
// crawl had met, never fetched: the page was lost. It is followed, and the
// page listed, as the redirect spells it (without the session ID). A
// redirect that adds a new session ID each time ends, unlisted.
func TestCrawlRedirectToItself(t *testing.T) {
	const sid = "jsessionid=0123456789ABCDEF0123456789ABCDEF"
	var mu sync.Mutex
	loops := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.RequestURI() {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/":
			fmt.Fprint(w, `<a href="/p?b=1&a=2">p</a> <a href="/s">s</a> <a href="/loop">loop</a>`)
		case "/p?b=1&a=2":
			http.Redirect(w, r, "/p?a=2&b=1", http.StatusMovedPermanently)
		case "/p?a=2&b=1", "/s;" + sid:
			fmt.Fprint(w, `<p>the page</p>`)
		case "/s":
			http.Redirect(w, r, "/s;"+sid, http.StatusFound)
		default:
			if r.URL.Path == "/loop" || strings.HasPrefix(r.URL.Path, "/loop;") {
				mu.Lock()
				loops++
				n := loops
				mu.Unlock()
				http.Redirect(w, r, fmt.Sprintf("/loop;jsessionid=%032d", n), http.StatusFound)
				return
			}
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	_, urls := crawlAll(t, source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1})
	var got []string
	for _, u := range urls {
		got = append(got, strings.TrimPrefix(u.Loc, srv.URL))
	}
	slices.Sort(got)
	if want := []string{"/", "/p?a=2&b=1", "/s"}; !slices.Equal(got, want) {
		t.Errorf("listed %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if loops > source.MaxCrawlHops+1 {
		t.Errorf("a redirect to itself with a new session ID each time was followed %d times", loops)
	}
}
