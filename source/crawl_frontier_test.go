package source

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// TestFrontierSpills: past its bound in memory, the frontier spills to its
// file and gives every item back in the order it was pushed, however
// pushes and pops interleave; drain gives the rest.
func TestFrontierSpills(t *testing.T) {
	defer func(n int) { frontierMem = n }(frontierMem)
	frontierMem = 7
	q := &frontier{path: filepath.Join(t.TempDir(), queueFile)}
	defer q.close()
	next, want := 0, 0
	push := func(n int) {
		for range n {
			if err := q.push(crawlItem{url: fmt.Sprint("u", next), depth: next % 5, chain: next % 3}); err != nil {
				t.Fatal(err)
			}
			next++
		}
	}
	pop := func(n int) {
		for range n {
			it, ok, err := q.pop()
			if err != nil || !ok || it.url != fmt.Sprint("u", want) || it.depth != want%5 || it.chain != want%3 {
				t.Fatalf("pop %d: %+v, %v, %v", want, it, ok, err)
			}
			want++
		}
	}
	push(20)
	if q.onDisk == 0 || len(q.head) > frontierMem {
		t.Fatalf("20 items, bound 7: %d in memory, %d on disk", len(q.head), q.onDisk)
	}
	pop(3)
	push(11)
	pop(17)
	push(4)
	if q.len() != 15 {
		t.Fatalf("len %d, want 15", q.len())
	}
	rest, err := q.drain()
	if err != nil || len(rest) != 15 || rest[0].url != fmt.Sprint("u", want) || rest[14].url != "u34" {
		t.Fatalf("drain: %d items, %v", len(rest), err)
	}
}

// TestFoundRoundTrip: a page recorded for a resume comes back as it was,
// its fingerprint included.
func TestFoundRoundTrip(t *testing.T) {
	for _, r := range []crawlResult{
		{u: sitemap.URL{Loc: "https://x.example/a", Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://x.example/de/a"}},
			Images: []sitemap.Image{{Loc: "https://x.example/i.png"}}}, fp: 0xdeadbeefcafe, hasFP: true},
		{u: sitemap.URL{Loc: "https://x.example/b"}},
	} {
		line := appendFound(nil, r)
		got, err := readFound(line[:len(line)-1])
		if err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("%s came back as %+v, %v; want %+v", line, got, err, r)
		}
	}
}

// TestNoindexHeader: an X-Robots-Tag's rules are read by the crawler they
// address: all, before any name; Googlebot's; not another crawler's. A
// rule that takes a value is not a crawler's name.
func TestNoindexHeader(t *testing.T) {
	for v, want := range map[string]bool{
		"noindex":                          true,
		"NONE":                             true,
		"nofollow":                         false,
		"max-image-preview:large, noindex": true,
		"max-snippet: 20, nofollow":        false,
		"unavailable_after: 25 Jun 2010 15:00:00": false,
		"googlebot: noindex":                      true,
		"GoogleBot: nofollow, noindex":            true,
		"otherbot: noindex":                       false,
		"googlebot: nofollow, otherbot: noindex":  false,
		"otherbot: noindex, googlebot: noindex":   true,
		"noarchive, otherbot: noindex":            false,
	} {
		h := http.Header{"X-Robots-Tag": {v}}
		if got := noindexHeader(h); got != want {
			t.Errorf("X-Robots-Tag: %s: noindex %v, want %v", v, got, want)
		}
	}
	if !noindexHeader(http.Header{"X-Robots-Tag": {"otherbot: noindex", "noindex"}}) {
		t.Error("a second header's noindex missed")
	}
}

// TestLinksCut: a page's links past MaxCrawlLinks are counted, not kept.
func TestLinksCut(t *testing.T) {
	var b strings.Builder
	for i := range MaxCrawlLinks + 50 {
		fmt.Fprintf(&b, `<a href="/p%d">p</a>`, i)
	}
	u, _ := url.Parse("https://www.example.com/")
	h, err := parseHead(strings.NewReader(b.String()), u, headWant{links: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.links) != MaxCrawlLinks || h.linksCut != 50 {
		t.Errorf("%d links kept, %d cut; want %d and 50", len(h.links), h.linksCut, MaxCrawlLinks)
	}
}

// TestBaseLineBreaks: a <base href> broken over lines is the base a
// browser takes, without them, as any href is (see TestResolve): the
// page's links are resolved against it, not against the page's URL.
func TestBaseLineBreaks(t *testing.T) {
	u, _ := url.Parse("https://www.example.com/page")
	h, err := parseHead(strings.NewReader("<head><base href=\"https://www.example.com/blog/\n\tposts/\"></head><a href=\"x\">x</a>"), u, headWant{links: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "https://www.example.com/blog/posts/x"; len(h.links) != 1 || h.links[0].url != want {
		t.Errorf("links %+v, want %s", h.links, want)
	}
}

// TestResolve: a link or canonical to a host written in Unicode is the
// host's ASCII form, not refused; an href broken over lines (or holding a
// tab) is the URL a browser follows, without them (it was refused, and a
// page linked only so was never found).
func TestResolve(t *testing.T) {
	for base, refs := range map[string]map[string]string{
		"http://bücher.example/a/": {
			"http://bücher.example/page":    "http://xn--bcher-kva.example/page",
			"https://BÜCHER.example:8443/x": "https://xn--bcher-kva.example:8443/x",
			"b":                             "http://xn--bcher-kva.example/a/b",
		},
		"https://www.example.com/a/": {
			"/products/very-long-\nname?page=2":   "https://www.example.com/products/very-long-name?page=2",
			"\thttps://www.example.com/x\r\n/y\t": "https://www.example.com/x/y",
			"b\tc":                                "https://www.example.com/a/bc",
		},
	} {
		u, _ := url.Parse(base)
		for ref, want := range refs {
			if got, ok := resolve(u, ref); !ok || got != want {
				t.Errorf("resolve(%q) = %q, %v; want %q", ref, got, ok, want)
			}
		}
	}
}

// TestRefreshURL: the delay and URL of a refresh meta, however it is
// spelled.
func TestRefreshURL(t *testing.T) {
	for content, want := range map[string]struct {
		delay float64
		ref   string
	}{
		"0; url=/next":       {0, "/next"},
		"5;URL='/next'":      {5, "/next"},
		`0; url = "/next"`:   {0, "/next"},
		"0,url=/next":        {0, "/next"},
		"30":                 {30, ""},
		"0; /next":           {0, "/next"},
		"0; urlencoded.html": {0, "urlencoded.html"},
		"soon; url=/next":    {-1, "/next"},
	} {
		if d, ref := refreshURL(content); d != want.delay || ref != want.ref {
			t.Errorf("refreshURL(%q) = %v, %q; want %v, %q", content, d, ref, want.delay, want.ref)
		}
	}
}
