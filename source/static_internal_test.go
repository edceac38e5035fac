package source

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// headPage is the URL the head tests and the fuzz target read pages at.
var headPage, _ = url.Parse("https://www.example.com/dir/page.html")

func readSeed(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "static", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseHead(t *testing.T) {
	for _, tc := range []struct {
		file string
		want pageHead // with images
	}{
		{"head.html", pageHead{
			canonical: "https://www.example.com/en/page.html",
			alternates: []sitemap.Alternate{
				{Hreflang: "en", Href: "https://www.example.com/en/page.html"},
				{Hreflang: "de", Href: "https://www.example.com/de/seite.html"},
				{Hreflang: "x-default", Href: "https://www.example.com/"},
			},
			// Not noscript.gif: <noscript> is text to the tokenizer, as to
			// a browser with scripts on.
			images: []sitemap.Image{
				{Loc: "https://www.example.com/en/a.jpg"},
				{Loc: "https://www.example.com/img/b%20c.png"},
				{Loc: "https://cdn.example.net/%C3%BC.webp"},
			},
		}},
		// Two canonicals that disagree: neither counts, and a third, in
		// the Link header, would not either.
		{"noindex.html", pageHead{noindex: true, canonicalsDisagree: true, images: []sitemap.Image{{Loc: "https://www.example.com/dir/x.png"}}}},
		{"nohead.html", pageHead{noindex: true,
			alternates: []sitemap.Alternate{{Hreflang: "fr", Href: "https://www.example.com/dir/fr/"}},
			images:     []sitemap.Image{{Loc: "https://www.example.com/dir/p.jpg"}}}},
		{"broken.html", pageHead{}},
	} {
		in := readSeed(t, tc.file)
		got, err := parseHead(bytes.NewReader(in), headPage, headWant{images: true})
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.file, got, tc.want)
		}
		head, _ := parseHead(bytes.NewReader(in), headPage, headWant{})
		tc.want.images = nil
		if !reflect.DeepEqual(head, tc.want) {
			t.Errorf("%s, head only:\n got %+v\nwant %+v", tc.file, head, tc.want)
		}
	}
}

func TestParseHeadImageCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("<body>")
	for i := range sitemap.MaxImages + 10 {
		b.WriteString(`<img src="/i/` + strings.Repeat("x", i%7) + `/` + string(rune('a'+i%26)) + `.jpg?n=` + url.QueryEscape(string(rune(0x4e00+i))) + `">`)
	}
	h, err := parseHead(strings.NewReader(b.String()), headPage, headWant{images: true})
	if err != nil || len(h.images) != sitemap.MaxImages {
		t.Fatalf("%d images (%v), want the protocol's %d", len(h.images), err, sitemap.MaxImages)
	}
}

// FuzzStaticHead checks that the head parser never fails on bytes in
// memory, that reading the body for images never changes what the head
// says, and that every URL it returns is an absolute http(s) URL that
// parses, without duplicates, at most sitemap.MaxImages images.
func FuzzStaticHead(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "static", "*.html"))
	for _, n := range names {
		f.Add(readSeed(f, filepath.Base(n)))
	}
	f.Add([]byte(`<link rel="canonical alternate" hreflang=de href="?q=1#x"><base href="//other.test/x/"><img src=y>`))
	f.Add([]byte(`<link rel=next href=/p2><body><a href="a#x">a</a><a href=a rel=nofollow>a</a><area href="mailto:x"><a href=" /b ">`))
	f.Fuzz(func(t *testing.T, in []byte) {
		head, err := parseHead(bytes.NewReader(in), headPage, headWant{})
		if err != nil {
			t.Fatal(err)
		}
		full, err := parseHead(bytes.NewReader(in), headPage, headWant{images: true})
		if err != nil {
			t.Fatal(err)
		}
		images := full.images
		full.images = nil
		if !reflect.DeepEqual(head, full) {
			t.Fatalf("head only %+v, with body %+v", head, full)
		}
		// The crawl's reading (links too) says the same of the page, and
		// its links are absolute, without fragments, once each.
		crawl, err := parseHead(bytes.NewReader(in), headPage, headWant{images: true, links: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(crawl.images, images) || crawl.canonical != head.canonical || crawl.noindex != head.noindex || !reflect.DeepEqual(crawl.alternates, head.alternates) {
			t.Fatalf("with links, the page says %+v; without, %+v", crawl, head)
		}
		links := map[string]bool{}
		for _, l := range crawl.links {
			if p, err := url.Parse(l.url); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.Fragment != "" || links[l.url] {
				t.Fatalf("link %q: not absolute, with a fragment, or repeated (%v)", l.url, err)
			}
			links[l.url] = true
		}
		if len(images) > sitemap.MaxImages {
			t.Fatalf("%d images", len(images))
		}
		check := func(what, u string) {
			p, err := url.Parse(u)
			if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
				t.Fatalf("%s %q is not an absolute http(s) URL (%v)", what, u, err)
			}
		}
		if head.canonical != "" {
			check("canonical", head.canonical)
			if strings.Contains(head.canonical, "#") {
				t.Fatalf("canonical %q has a fragment", head.canonical)
			}
		}
		seen := map[string]bool{}
		for _, a := range head.alternates {
			check("alternate", a.Href)
			if a.Hreflang == "" || seen[a.Hreflang+" "+a.Href] {
				t.Fatalf("alternate %+v empty or repeated", a)
			}
			seen[a.Hreflang+" "+a.Href] = true
		}
		// The writer takes every alternate: none can get the page refused.
		if len(head.alternates) > 0 {
			u := sitemap.URL{Loc: headPage.String(), Alternates: head.alternates}
			u.Check(func(v *sitemap.Violation) { t.Fatalf("the writer refuses the page: %v", v) })
		}
		for _, i := range images {
			check("image", i.Loc)
			if seen[i.Loc] {
				t.Fatalf("image %q repeated", i.Loc)
			}
			seen[i.Loc] = true
		}
	})
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		glob string
		yes  []string
		no   []string
	}{
		{"**/*.pdf", []string{"a.pdf", "d/a.pdf", "d/e/f/a.pdf"}, []string{"a.pdfx", "d/a.txt", "pdf"}},
		{"*.pdf", []string{"a.pdf"}, []string{"d/a.pdf"}},
		{"drafts/**", []string{"drafts", "drafts/a.html", "drafts/x/y.pdf"}, []string{"drafts2/a.html", "x/drafts/a"}},
		{"**/print.html", []string{"print.html", "a/b/print.html"}, []string{"a/print.htm"}},
		{"a/**/b/*.html", []string{"a/b/x.html", "a/1/2/b/x.html"}, []string{"a/b/c/x.html", "b/x.html"}},
		{"./404.html", []string{"404.html"}, []string{"en/404.html"}},
		{"[0-9]??.html", []string{"404.html", "500.html"}, []string{"abc.html"}},
		{"**", []string{"a", "a/b/c"}, nil},
	} {
		gs, err := compileGlobs("include", []string{tc.glob})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tc.yes {
			if !matchAny(gs, p) {
				t.Errorf("%q does not match %q", tc.glob, p)
			}
		}
		for _, p := range tc.no {
			if matchAny(gs, p) {
				t.Errorf("%q matches %q", tc.glob, p)
			}
		}
	}
}

func TestIsErrorPage(t *testing.T) {
	for rel, want := range map[string]bool{
		"404.html": true, "en/404.html": true, "404/index.html": true, "500.htm": true, "50x.html": true,
		"403.HTML": true, "200.html": false, "4040.html": false, "a404.html": false, "index.html": false,
		"404/other.html": false, "40.html": false, "4x4/index.html": false, "5xx.html": true, "4xx/index.htm": true,
	} {
		if got := isErrorPage(rel); got != want {
			t.Errorf("isErrorPage(%q) = %v", rel, got)
		}
	}
}

func TestRobotsNoindex(t *testing.T) {
	for content, want := range map[string]bool{
		"noindex": true, "NOINDEX": true, "index, noindex": true, " None ": true, "noindex,nofollow": true,
		// Space-separated lists are a common spelling: Google reads the
		// rules in them too.
		"noindex nofollow": true, "nofollow noindex": true, "nofollow\tnone": true,
		"index, follow": false, "": false, "nonoindex": false, "max-snippet:-1, noarchive": false,
		"noimageindex": false, "index follow": false,
	} {
		if got := robotsNoindex(content); got != want {
			t.Errorf("robotsNoindex(%q) = %v", content, got)
		}
	}
}
