package source_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/internal/browsertest"
	"github.com/sitemapkit/sitemapkit/render"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// crawlSite is a site generated from a seed, with the pages a sitemap must
// list known: sections of pages linking to each other, noindex pages (meta
// and header), canonical chains, redirect chains and a loop, a section
// robots.txt disallows, 404s and 500s, hreflang clusters, images, traps (a
// calendar without end, session IDs in links, a query that grows), a huge
// page, a slow page, a Windows-1252 page, gzip and brotli answers, links
// out of scope, a nofollow link and a PDF.
type crawlSite struct {
	*httptest.Server
	want  []string // the pages a sitemap must list, by path
	pages map[string]string
	mu    sync.Mutex
	hits  map[string]int
	// A 503's Retry-After date, and whether the page was asked for
	// again before it.
	retryAt      time.Time
	retriedEarly bool
}

const crawlSections, crawlPerSection = 10, 300

// crawlFetchTimeout is the crawl tests' time for a page: short of
// /slow.html's 5 s, which must fail, and far past what any other page
// takes on a machine busy with other tests. A page that times out is an
// error, left out of the listing (300 ms dropped a few pages of a resumed
// crawl when the machine was loaded).
const crawlFetchTimeout = 2 * time.Second

func newCrawlSite(t testing.TB, seed uint64) *crawlSite {
	s := &crawlSite{pages: map[string]string{}, hits: map[string]int{}}
	r := rand.New(rand.NewPCG(seed, 1))
	page := func(path, head, body string) {
		s.pages[path] = "<!DOCTYPE html><html><head><title>" + path + "</title>" + head + "</head><body>" + body + "</body></html>"
	}
	list := func(path string) { s.want = append(s.want, path) }

	var home strings.Builder
	for k := range crawlSections {
		fmt.Fprintf(&home, `<a href="/s/%d/">section %d</a>`, k, k)
		var sec strings.Builder
		for i := range crawlPerSection {
			p := fmt.Sprintf("/s/%d/p%d.html", k, i)
			fmt.Fprintf(&sec, `<a href="p%d.html">%d</a> `, i, i)
			body := fmt.Sprintf(`<a href="/s/%d/p%d.html">next</a> <a href="/s/%d/p%d.html#frag">random</a> <img src="/img/%d-%d.png">`,
				k, (i+1)%crawlPerSection, r.IntN(crawlSections), r.IntN(crawlPerSection), k, i)
			switch {
			case i%37 == 5:
				page(p, `<meta name="robots" content="noindex, follow">`, body)
			case i%41 == 7:
				page(p, `<meta name="x-header-noindex">`, body) // served with X-Robots-Tag
			default:
				page(p, "", body)
				list(p)
			}
		}
		page(fmt.Sprintf("/s/%d/", k), "", sec.String())
		list(fmt.Sprintf("/s/%d/", k))
	}
	home.WriteString(`
<a href="/c/a">canonical chain</a>
<a href="/r/1">redirect chain</a> <a href="/loop/a">loop</a>
<a href="/private/secret.html">private</a>
<a href="/missing">404</a> <a href="/broken">500</a>
<a href="/en/">en</a>
<a href="/cal/2024/1">calendar</a>
<a href="/s/0/p1.html?sid=abc123">session</a> <a href="/s/0/p2.html;jsessionid=XYZ">jsession</a>
<a href="/q?a=1">query</a>
<a href="/huge.html">huge</a> <a href="/slow.html">slow</a>
<a href="/w/latin.html">windows-1252</a>
<a href="/gz.html">gzip</a> <a href="/br.html">brotli</a>
<a href="https://other.example/x">elsewhere</a> <a href="mailto:a@b.c">mail</a> <a href="javascript:void(0)">js</a>
<a href="/nf/page.html" rel="nofollow">nofollow</a>
<a href="/doc.pdf">pdf</a> <a href="/style.css">css</a> <a href="/js/">js</a>
<a href="/busy.html">429 once</a> <a href="/loopy/a/">relative link gone wrong</a>
<a href="/s/0/p3.html?b=2&a=1">order 1</a> <a href="/s/0/p3.html?a=1&b=2">order 2</a>
<a href="/../s/0/./p4.html">dots</a> <a href=" /s/0/p6.html ">spaces</a>
<a href="/xrt/mixed">X-Robots-Tag with a rule that takes a value</a> <a href="/xrt/other">another crawler's noindex</a>
<a href="/canon/slash">canonical redirecting back</a> <a href="/canon/404">canonical to a 404</a>
<a href="/canon/sess">canonical with a session ID</a> <a href="/noct">no Content-Type</a>
<a href="/hop/a/0">redirects without end</a> <a href="/busy-date.html">429 until a date</a>
<a href="/refresh">meta refresh</a> <a href="/refresh-later">a refresh after a delay</a> <a href="/flip/1">a calendar whose parameter comes and goes</a>
<a href="/cl-lie">a body shorter than its Content-Length</a>`)
	page("/", "", home.String())
	list("/")

	// Canonical chain: a and b name the next; c is the page.
	page("/c/a", `<link rel="canonical" href="/c/b">`, "")
	page("/c/b", `<link rel="canonical" href="/c/c">`, "")
	page("/c/c", `<link rel="canonical" href="/c/c">`, "")
	list("/c/c")
	page("/r/3", "", "end of the chain")
	list("/r/3")
	page("/private/secret.html", "", "")
	page("/en/", `<link rel="alternate" hreflang="en" href="/en/"><link rel="alternate" hreflang="de" href="/de/">`, "")
	page("/de/", `<link rel="alternate" hreflang="en" href="/en/"><link rel="alternate" hreflang="de" href="/de/">`, "")
	list("/en/")
	list("/de/")
	// A section whose links a script writes: found with a renderer only.
	page("/js/", `<script>document.addEventListener("DOMContentLoaded", () => { document.body.innerHTML = '<a href="/js/a.html">a</a> <a href="/js/move.html">m</a> <a href="/js/noidx.html">n</a>' })</script>`, "")
	list("/js/")
	page("/js/a.html", "", "")
	// Rendered, it asks for a script robots.txt disallows, and navigates
	// into the disallowed section: a redirect, followed by the rules.
	page("/js/move.html", `<script src="/private/app.js"></script><script>location.replace("/private/x.html")</script>`, "")
	// noindex as served, whatever its script does: not rendered.
	page("/js/noidx.html", `<meta name="robots" content="noindex"><script>document.querySelector("meta[name=robots]").remove(); document.addEventListener("DOMContentLoaded", () => { document.body.innerHTML = '<a href="/js/b.html">b</a>' })</script>`, "")
	page("/busy.html", "", "")
	list("/busy.html")
	// A relative link gone wrong: /loopy/a/a/a/… until a segment repeats
	// more than the cap.
	for p := "/loopy/a/"; strings.Count(p, "/a") <= source.MaxCrawlSegmentRepeats; p += "a/" {
		list(p)
	}
	page("/nf/page.html", "", "")
	list("/nf/page.html")
	page("/gz.html", "", "gzipped")
	list("/gz.html")
	page("/br.html", "", "brotli")
	list("/br.html")
	page("/w/caf\u00e9.html", "", "")
	list("/w/caf%C3%A9.html")
	list("/w/latin.html")
	list("/doc.pdf")
	// Links that differ in their parameters' order are one page, listed
	// as first met; session IDs are stripped.
	list("/s/0/p3.html?b=2&a=1")
	// The calendar: pages without end, one shape.
	for m := 1; m <= source.MaxCrawlPerPattern; m++ {
		list(fmt.Sprintf("/cal/%d/%d", 2024+(m-1)/12, (m-1)%12+1))
	}
	// The growing query: up to the cap of parameters.
	for n := 1; n <= source.MaxCrawlQueryParams; n++ {
		var q []string
		for i := range n {
			q = append(q, fmt.Sprintf("%c=1", 'a'+i))
		}
		list("/q?" + strings.Join(q, "&"))
	}
	// X-Robots-Tag: "max-image-preview: large, noindex" is a noindex for
	// all; "googlebot: nofollow, otherbot: noindex" none for Googlebot.
	page("/xrt/mixed", "", "")
	page("/xrt/other", "", "")
	list("/xrt/other")
	// A canonical that cannot be listed is ignored, as search engines
	// do: the page is listed.
	page("/canon/slash", `<link rel="canonical" href="/canon/slash/">`, "")
	list("/canon/slash")
	page("/canon/404", `<link rel="canonical" href="/canon/gone">`, "")
	list("/canon/404")
	// A canonical is stripped of session IDs as links are: the page.
	page("/canon/sess", `<link rel="canonical" href="/canon/sess?PHPSESSID=0123456789abcdef0123456789abcdef">`, "")
	list("/canon/sess")
	list("/noct")
	list("/busy-date.html")
	// A refresh meta is a redirect.
	page("/refresh", `<meta http-equiv="refresh" content="0; URL='/refreshed'">`, "")
	page("/refreshed", "", "")
	list("/refreshed")
	// A refresh after a delay (a session's end) leaves the page a page.
	page("/refresh-later", `<meta http-equiv="refresh" content="1800; url=/refreshed-later">`, "")
	list("/refresh-later")
	page("/refreshed-later", "", "")
	list("/refreshed-later")
	// A calendar whose ?v=list comes and goes on each click: one shape.
	for n := 1; n <= source.MaxCrawlPerPattern; n++ {
		list(flipPage(n))
	}
	slices.Sort(s.want)

	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		p := req.URL.EscapedPath()
		if req.URL.RawQuery != "" {
			p += "?" + req.URL.RawQuery
		}
		s.mu.Lock()
		s.hits[p]++
		hits := s.hits[p]
		s.mu.Unlock()
		switch {
		case p == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
			return
		case p == "/r/1":
			http.Redirect(w, req, "/r/2", http.StatusMovedPermanently)
			return
		case p == "/r/2":
			http.Redirect(w, req, "/r/3", http.StatusFound)
			return
		case p == "/loop/a":
			http.Redirect(w, req, "/loop/b", http.StatusFound)
			return
		case p == "/loop/b":
			http.Redirect(w, req, "/loop/a", http.StatusFound)
			return
		case p == "/xrt/mixed":
			w.Header().Set("X-Robots-Tag", "max-image-preview:large, noindex")
		case p == "/xrt/other":
			w.Header().Set("X-Robots-Tag", "googlebot: nofollow, otherbot: noindex")
		case p == "/canon/slash/":
			http.Redirect(w, req, "/canon/slash", http.StatusMovedPermanently)
			return
		case strings.HasPrefix(p, "/flip/"):
			var n int
			fmt.Sscanf(p, "/flip/%d", &n)
			fmt.Fprintf(w, `<html><body><a href="%s">next</a></body></html>`, flipPage(n+1))
			return
		case p == "/cl-lie":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Length", "5000")
			w.Write([]byte("<html><body>cut short"))
			return
		case p == "/noct":
			w.Header()["Content-Type"] = nil // not sniffed by the server
			w.Write([]byte("<!DOCTYPE html><html><body>no type</body></html>"))
			return
		case strings.HasPrefix(p, "/hop/"):
			// /hop/a/0 -> /hop/b/1 -> /hop/a/2 …: two shapes, no end.
			var n int
			fmt.Sscanf(p[len("/hop/a/"):], "%d", &n)
			http.Redirect(w, req, fmt.Sprintf("/hop/%c/%d", 'a'+byte((n+1)%2), n+1), http.StatusFound)
			return
		case p == "/busy-date.html":
			s.mu.Lock()
			defer s.mu.Unlock()
			if hits == 1 {
				s.retryAt = time.Now().Add(1500 * time.Millisecond).Truncate(time.Second).Add(time.Second)
				w.Header().Set("Retry-After", s.retryAt.UTC().Format(http.TimeFormat))
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
			s.retriedEarly = time.Now().Before(s.retryAt)
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body>ok</body></html>"))
			return
		case p == "/busy.html" && hits == 1:
			// Busy the first time: come back at once.
			w.Header().Set("Retry-After", "0")
			http.Error(w, "busy", http.StatusTooManyRequests)
			return
		case strings.HasPrefix(p, "/loopy/"):
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><a href="a/">deeper</a></body></html>`)
			return
		case p == "/broken":
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		case strings.HasPrefix(p, "/cal/"):
			var y, m int
			fmt.Sscanf(p, "/cal/%d/%d", &y, &m)
			ny, nm := y, m+1
			if nm > 12 {
				ny, nm = y+1, 1
			}
			fmt.Fprintf(w, `<html><body><a href="/cal/%d/%d">next month</a></body></html>`, ny, nm)
			return
		case strings.HasPrefix(p, "/q?"):
			n := strings.Count(p, "&") + 1
			fmt.Fprintf(w, `<html><body><a href="%s&%c=1">more</a></body></html>`, p, 'a'+n)
			return
		case p == "/huge.html":
			w.Write([]byte("<html><body>" + strings.Repeat("x", 2<<20) + "</body></html>"))
			return
		case p == "/slow.html":
			select {
			case <-time.After(5 * time.Second):
			case <-req.Context().Done():
			}
			return
		case p == "/w/latin.html":
			w.Header().Set("Content-Type", "text/html; charset=windows-1252")
			w.Write([]byte("<html><body><a href=\"/w/caf\xe9.html\">caf\xe9</a> \x80</body></html>"))
			return
		case p == "/doc.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte("%PDF-1.4"))
			return
		case p == "/style.css":
			w.Header().Set("Content-Type", "text/css")
			w.Write([]byte("body{}"))
			return
		}
		body, ok := s.pages[req.URL.Path]
		if !ok || req.URL.RawQuery != "" && !strings.HasPrefix(req.URL.Path, "/s/") {
			http.NotFound(w, req)
			return
		}
		if strings.Contains(body, "x-header-noindex") {
			w.Header().Set("X-Robots-Tag", "noindex")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch req.URL.Path {
		case "/gz.html":
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zw.Write([]byte(body))
			zw.Close()
		case "/br.html":
			w.Header().Set("Content-Encoding", "br")
			bw := brotli.NewWriter(w)
			bw.Write([]byte(body))
			bw.Close()
		default:
			w.Write([]byte(body))
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// TestCrawl: the crawl lists exactly the pages the site's sitemap must
// hold, URL by URL, and logs why it left out every other URL it met.
func TestCrawl(t *testing.T) {
	site := newCrawlSite(t, 7)
	var mu sync.Mutex
	reasons := map[string]string{}
	o := source.CrawlOptions{
		Starts:      []string{site.URL + "/"},
		Fetch:       discover.Options{Timeout: crawlFetchTimeout, MaxBytes: 1 << 20},
		Concurrency: 16, Rate: -1, MaxDepth: 2000,
		Files: []string{"**/*.pdf"},
		Log: func(e source.CrawlEntry) {
			mu.Lock()
			defer mu.Unlock()
			if prev, ok := reasons[e.URL]; ok && prev != e.Reason {
				t.Errorf("%s logged twice: %q then %q", e.URL, prev, e.Reason)
			}
			reasons[e.URL] = e.Reason
		},
	}
	c, urls := crawlAll(t, o)
	site.check(t, "crawl", urls)
	for _, u := range urls {
		if u.Loc == site.URL+"/en/" && len(u.Alternates) != 2 {
			t.Errorf("/en/ alternates: %+v", u.Alternates)
		}
		if strings.HasSuffix(u.Loc, "/s/1/p1.html") && (len(u.Images) != 1 || !strings.HasSuffix(u.Images[0].Loc, "/img/1-1.png")) {
			t.Errorf("images of %s: %+v", u.Loc, u.Images)
		}
	}
	for path, want := range map[string]string{
		"/c/a": "canonical-elsewhere", "/c/b": "canonical-elsewhere", "/r/1": "redirect", "/r/2": "redirect",
		"/loop/a": "redirect", "/loop/b": "redirect", "/private/secret.html": "robots",
		"/missing": "error", "/broken": "error", "/huge.html": "error", "/slow.html": "error",
		"/style.css": "not-html", "/s/0/p5.html": "noindex", "/s/0/p7.html": "noindex",
		"/cal/2107/5": "trap", "/q?a=1&b=1&c=1&d=1&e=1&f=1&g=1&h=1&i=1": "trap", "/loopy/a/a/a/a/": "trap",
		"/xrt/mixed": "noindex", "/canon/slash/": "redirect", "/canon/gone": "error",
		"/hop/a/10": "redirect", "/hop/b/11": "trap", "/refresh": "redirect", "/cl-lie": "error",
		flipPage(source.MaxCrawlPerPattern + 1): "trap",
	} {
		if got, ok := reasons[site.URL+path]; !ok || got != want {
			t.Errorf("%s: logged %q (%v), want %q", path, got, ok, want)
		}
	}
	if reasons["https://other.example/x"] != "out-of-scope" {
		t.Errorf("a link to another host: %q", reasons["https://other.example/x"])
	}
	// Each page is fetched once: session IDs stripped, parameters in one
	// order, dot segments and spaces normalised, a loop not followed twice.
	site.mu.Lock()
	defer site.mu.Unlock()
	if site.retriedEarly {
		t.Errorf("a page answering 503 with Retry-After %v was asked for again before", site.retryAt)
	}
	for p, n := range site.hits {
		if n > 1 && p != "/robots.txt" && p != "/busy.html" && p != "/busy-date.html" {
			t.Errorf("%s fetched %d times", p, n)
		}
	}
	if site.hits["/busy.html"] != 2 {
		t.Errorf("a page answering 429 with Retry-After was fetched %d times, want 2", site.hits["/busy.html"])
	}
	if site.hits["/private/secret.html"] != 0 {
		t.Error("a page robots.txt disallows was fetched")
	}
	st := c.Stats()
	if st.Listed != len(site.want) || st.Reasons["trap"] == 0 || st.ClientRendered != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestCrawlRender: with a renderer, a page whose links its scripts write
// is rendered in Chromium, and the pages it links to are found.
func TestCrawlRender(t *testing.T) {
	browsertest.Need(t)
	site := newCrawlSite(t, 10)
	browser := &render.Chromium{}
	defer browser.Close()
	var mu sync.Mutex
	reasons := map[string]string{}
	c, urls := crawlAll(t, source.CrawlOptions{Starts: []string{site.URL + "/"}, Rate: -1, Render: browser, MaxDepth: 2,
		Fetch: discover.Options{Timeout: crawlFetchTimeout, MaxBytes: 1 << 20},
		Log: func(e source.CrawlEntry) {
			mu.Lock()
			reasons[strings.TrimPrefix(e.URL, site.URL)] = e.Reason
			mu.Unlock()
		}})
	var got []string
	for _, u := range urls {
		if p := strings.TrimPrefix(u.Loc, site.URL); strings.HasPrefix(p, "/js/") {
			got = append(got, p)
		}
	}
	slices.Sort(got)
	if want := []string{"/js/", "/js/a.html"}; !slices.Equal(got, want) {
		t.Errorf("crawl with a renderer listed %v, want %v", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if _, met := reasons["/js/b.html"]; reasons["/js/noidx.html"] != "noindex" || met {
		t.Errorf("a page noindex as served, whose script removes it, was rendered: %q", reasons["/js/noidx.html"])
	}
	if reasons["/js/move.html"] != "redirect" || reasons["/private/x.html"] != "robots" {
		t.Errorf("a page whose script navigates into a disallowed section: %q, its target %q", reasons["/js/move.html"], reasons["/private/x.html"])
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	for _, p := range []string{"/private/app.js", "/private/x.html"} {
		if site.hits[p] != 0 {
			t.Errorf("the browser fetched %s, which robots.txt disallows", p)
		}
	}
	if st := c.Stats(); st.Rendered != 2 || st.RenderErrors != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestCrawlPolite: the rate per host holds, and the crawl stops at
// MaxPages and MaxDepth.
func TestCrawlPolite(t *testing.T) {
	site := newCrawlSite(t, 8)
	ctx := context.Background()
	start := time.Now()
	c, err := source.OpenCrawl(ctx, source.CrawlOptions{Starts: []string{site.URL + "/"}, Rate: 50, MaxPages: 20, Concurrency: 8})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range c.All() {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	c.Close()
	// n requests at 50 a second take (n-1)/50 s at least.
	st := c.Stats()
	if el := time.Since(start); el < time.Duration(st.Fetched-1)*20*time.Millisecond {
		t.Errorf("%d pages in %v at a rate of 50/s", st.Fetched, el)
	}
	if st.Fetched > 20 || n > 20 || st.Fetched < 10 {
		t.Errorf("fetched %d, listed %d; want at most 20 (MaxPages)", st.Fetched, n)
	}

	var mu sync.Mutex
	limited := map[string]string{}
	c, err = source.OpenCrawl(ctx, source.CrawlOptions{Starts: []string{site.URL + "/"}, Rate: -1, MaxDepth: 1,
		Fetch: discover.Options{Timeout: crawlFetchTimeout},
		Log: func(e source.CrawlEntry) {
			if e.Reason == "limit" {
				mu.Lock()
				limited[strings.TrimPrefix(e.URL, site.URL)] = e.Detail
				mu.Unlock()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for u, err := range c.All() {
		if err != nil {
			t.Fatal(err)
		}
		// The home page links to sections, and to pages of section 0.
		if p := strings.TrimPrefix(u.Loc, site.URL); strings.HasPrefix(p, "/s/") && strings.HasSuffix(p, ".html") && !strings.HasPrefix(p, "/s/0/") {
			t.Errorf("%s is two links from the start, past MaxDepth 1", u.Loc)
		}
	}
	// What is past the depth is met, and logged.
	if d := limited["/s/1/p0.html"]; d != "max depth (1) reached" {
		t.Errorf("/s/1/p0.html, two links from the start: logged %q, want the max depth", d)
	}
}

// flipPage is the calendar page n whose parameter comes and goes.
func flipPage(n int) string {
	if n%2 == 0 {
		return fmt.Sprintf("/flip/%d?v=list", n)
	}
	return fmt.Sprintf("/flip/%d", n)
}

// crawlAll crawls with o, within a minute, and returns the crawl (closed
// when t ends) and the URLs it listed.
func crawlAll(t *testing.T, o source.CrawlOptions) (*source.Crawl, []sitemap.URL) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	c, err := source.OpenCrawl(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var urls []sitemap.URL
	for u, err := range c.All() {
		if err != nil {
			t.Fatal(err)
		}
		urls = append(urls, u)
	}
	return c, urls
}

// crawlUntil crawls with o until n pages are listed, calls at (when not
// nil), then stops the crawl as Ctrl-C does, and returns the error that
// ended it and whether n pages were listed.
func crawlUntil(t *testing.T, o source.CrawlOptions, n int, at func()) (error, bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := source.OpenCrawl(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	listed := 0
	for _, err := range c.All() {
		if err != nil {
			return err, listed >= n
		}
		if listed++; listed == n {
			if at != nil {
				at()
			}
			cancel()
		}
	}
	return nil, listed >= n
}

// check checks that urls are the site's pages to list, each once.
func (s *crawlSite) check(t *testing.T, what string, urls []sitemap.URL) {
	t.Helper()
	var got []string
	for _, u := range urls {
		got = append(got, strings.TrimPrefix(u.Loc, s.URL))
	}
	slices.Sort(got)
	if !slices.Equal(got, s.want) {
		missing, extra := diff(s.want, got), diff(got, s.want)
		t.Errorf("%s listed %d URLs, want %d\nmissing (%d): %q\nextra (%d): %q", what, len(got), len(s.want), len(missing), first(missing), len(extra), first(extra))
	}
	if d := slices.Compact(slices.Clone(got)); len(d) != len(got) {
		t.Errorf("%s: %d pages listed twice", what, len(got)-len(d))
	}
}

// first returns the first few of s, for a message.
func first(s []string) []string { return s[:min(len(s), 10)] }

func diff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			out = append(out, x)
		}
	}
	return out
}

// BenchmarkCrawl crawls the test site (some 4,900 fetches) with politeness
// off (no rate limit, 32 at once), as the figure asks, and reports
// pages a second.
func BenchmarkCrawl(b *testing.B) {
	site := newCrawlSite(b, 9)
	// The pages that answer 429 and 503 once (the second asking for a
	// wait) are asked once first: what is timed is the crawl, not them.
	for _, p := range []string{"/busy.html", "/busy-date.html"} {
		if resp, err := http.Get(site.URL + p); err == nil {
			resp.Body.Close()
		}
	}
	fetched := 0
	for b.Loop() {
		c, err := source.OpenCrawl(context.Background(), source.CrawlOptions{Starts: []string{site.URL + "/"}, Rate: -1, Concurrency: 32,
			MaxDepth: 2000, Fetch: discover.Options{Timeout: 200 * time.Millisecond}})
		if err != nil {
			b.Fatal(err)
		}
		for _, err := range c.All() {
			if err != nil {
				b.Fatal(err)
			}
		}
		c.Close()
		fetched += c.Stats().Fetched
	}
	b.ReportMetric(float64(fetched)/b.Elapsed().Seconds(), "pages/s")
}

// TestCrawlDelay: a robots.txt Crawl-delay spaces the requests to its
// host, even with no rate limit of our own.
func TestCrawlDelay(t *testing.T) {
	var mu sync.Mutex
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.1\nDisallow: /private/\n")
			return
		}
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		var b strings.Builder
		for i := range 6 {
			fmt.Fprintf(&b, `<a href="/p%d">p</a>`, i)
		}
		w.Write([]byte(b.String()))
	}))
	defer srv.Close()
	c, err := source.OpenCrawl(context.Background(), source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1, Concurrency: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, err := range c.All() {
		if err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < 90*time.Millisecond {
			t.Errorf("requests %d and %d %v apart, want 100ms (Crawl-delay)", i-1, i, gap)
		}
	}
	if len(times) != 7 {
		t.Errorf("%d pages fetched, want 7", len(times))
	}
}

// TestCrawlResume: a crawl stopped half-way (its context cancelled) says
// how to resume; resumed in its folder, it lists the pages of the first
// part again and goes on to the site's exact set, visiting no page twice
// but the few in flight or waiting for their canonical at the stop.
func TestCrawlResume(t *testing.T) {
	site := newCrawlSite(t, 11)
	dir := t.TempDir()
	o := source.CrawlOptions{Starts: []string{site.URL + "/"}, Rate: -1, Concurrency: 8, MaxDepth: 2000, Dir: dir,
		Fetch: discover.Options{Timeout: crawlFetchTimeout, MaxBytes: 1 << 20}, Files: []string{"**/*.pdf"}}
	if stop, _ := crawlUntil(t, o, 1500, nil); stop == nil || !strings.Contains(stop.Error(), "resume it with --resume") {
		t.Fatalf("a crawl stopped half-way ends with %v", stop)
	}

	o.Resume = true
	c, urls := crawlAll(t, o)
	site.check(t, "resumed crawl", urls)
	if st := c.Stats(); st.Resumed < 1000 {
		t.Errorf("stats %+v: want the first part's pages listed again", st)
	}
	site.mu.Lock()
	twice := 0
	for p, n := range site.hits {
		if n > 1 && p != "/robots.txt" && p != "/busy.html" && p != "/busy-date.html" { // answer 429 and 503 once
			twice++
		}
	}
	site.mu.Unlock()
	// In flight at the stop, or waiting for their canonical's fate (the
	// site has 5 pages whose canonical names another).
	if twice > o.Concurrency+5 {
		t.Errorf("%d pages fetched twice; at most the %d in flight at the stop and 5 waiting may be", twice, o.Concurrency)
	}

	// Nothing is left to resume once the crawl ended.
	o.Resume = true
	if _, err := source.OpenCrawl(context.Background(), o); !errors.Is(err, source.ErrNoCheckpoint) {
		t.Errorf("resuming an ended crawl: %v", err)
	}
	o.Starts = []string{site.URL + "/s/"}
	if _, err := source.OpenCrawl(context.Background(), source.CrawlOptions{Starts: o.Starts, Resume: true}); !errors.Is(err, source.ErrNoCheckpoint) {
		t.Errorf("resuming without a folder: %v", err)
	}
}

// TestCrawlResumeAfterKill: a resumed crawl killed before it could leave
// a checkpoint leaves the previous one, and a record of pages longer than
// it knows: resumed again, the crawl lists each page once.
func TestCrawlResumeAfterKill(t *testing.T) {
	site := newCrawlSite(t, 12)
	dir := t.TempDir()
	o := source.CrawlOptions{Starts: []string{site.URL + "/"}, Rate: -1, Concurrency: 8, MaxDepth: 2000, Dir: dir,
		Fetch: discover.Options{Timeout: crawlFetchTimeout, MaxBytes: 1 << 20}, Files: []string{"**/*.pdf"}}
	crawlUntil(t, o, 1000, nil)
	saved := checkpointFiles(t, dir)
	o.Resume = true
	crawlUntil(t, o, 1600, nil)
	// Killed: the checkpoint is the first stop's.
	for name, b := range saved {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, urls := crawlAll(t, o)
	site.check(t, "crawl resumed after a kill", urls)
}

// checkpointFiles reads the checkpoint in dir and the file of URLs met it
// names, by name: what a kill at this moment would leave of it.
func checkpointFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	for try := 0; ; try++ {
		cp, err := os.ReadFile(filepath.Join(dir, "checkpoint.json"))
		if err != nil {
			t.Fatal(err)
		}
		var named struct{ Seen string }
		if err := json.Unmarshal(cp, &named); err != nil {
			t.Fatal(err)
		}
		seen, err := os.ReadFile(filepath.Join(dir, named.Seen))
		if errors.Is(err, os.ErrNotExist) && try < 100 {
			continue // a newer checkpoint replaced it meanwhile
		}
		if err != nil {
			t.Fatal(err)
		}
		return map[string][]byte{"checkpoint.json": cp, named.Seen: seen}
	}
}

// TestCrawlKilledResume: a crawl records where it is while it runs; killed
// (its folder as it was at some moment), it resumes from its last record
// and lists the site's exact set, each page once.
func TestCrawlKilledResume(t *testing.T) {
	site := newCrawlSite(t, 13)
	dir, killed := t.TempDir(), t.TempDir()
	o := source.CrawlOptions{Starts: []string{site.URL + "/"}, Rate: -1, Concurrency: 8, MaxDepth: 2000, Dir: dir,
		Fetch: discover.Options{Timeout: crawlFetchTimeout, MaxBytes: 1 << 20}, Files: []string{"**/*.pdf"},
		Checkpoint: 20 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := source.OpenCrawl(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	listed := 0
	for _, err := range c.All() {
		if err != nil {
			t.Fatal(err)
		}
		if listed++; listed == 1500 {
			break
		}
	}
	time.Sleep(50 * time.Millisecond) // a checkpoint or two more
	// What a kill now leaves: the checkpoint, then the files it names,
	// which only grow.
	for name, b := range checkpointFiles(t, dir) {
		if err := os.WriteFile(filepath.Join(killed, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"queue.jsonl", "found.jsonl"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			if err := os.WriteFile(filepath.Join(killed, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cancel()
	c.Close()

	o.Dir, o.Resume = killed, true
	_, urls := crawlAll(t, o)
	site.check(t, "crawl resumed after a kill", urls)
}

// TestCrawlPages: MaxPages counts requests made, not the URLs robots.txt
// keeps the crawl from; a host's Retry-After holds every request to it,
// not only the one answered so.
func TestCrawlPages(t *testing.T) {
	var mu sync.Mutex
	var busyAt time.Time
	var during []string
	var fetched []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/q/") {
			// A page takes a while, as a real one does: between the 503
			// and the crawl reading it, a worker starts one request at
			// most, not dozens.
			time.Sleep(20 * time.Millisecond)
		}
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /p/\n")
			return
		}
		if !busyAt.IsZero() && time.Since(busyAt) < 900*time.Millisecond {
			during = append(during, r.URL.Path)
		}
		fetched = append(fetched, r.URL.Path)
		if r.URL.Path == "/busy" && busyAt.IsZero() {
			busyAt = time.Now()
			w.Header().Set("Retry-After", "1")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		var b strings.Builder
		if r.URL.Path == "/" {
			b.WriteString(`<a href="/busy">busy</a>`)
			for i := range 5 {
				fmt.Fprintf(&b, `<a href="/p/%d">disallowed</a>`, i)
			}
			for i := range 30 {
				fmt.Fprintf(&b, `<a href="/q/%d">allowed</a>`, i)
			}
		}
		w.Write([]byte(b.String()))
	}))
	defer srv.Close()
	c, urls := crawlAll(t, source.CrawlOptions{Starts: []string{srv.URL + "/"}, Rate: -1, Concurrency: 4, MaxPages: 20})
	mu.Lock()
	defer mu.Unlock()
	// 20 pages: the home page, /busy (asked for twice) and 18 of /q/.
	if len(fetched) != 21 || len(urls) != 20 {
		t.Errorf("MaxPages 20 with 5 URLs disallowed: %d requests, %d pages listed; want 21 and 20 (%+v)", len(fetched), len(urls), c.Stats())
	}
	// Requests in flight when the 503 came, and those the workers took
	// before its answer was read, may still arrive; the rest waited.
	if len(during) > 8 {
		t.Errorf("%d requests within the second Retry-After asked for: %v", len(during), during)
	}
}
