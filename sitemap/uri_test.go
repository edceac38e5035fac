package sitemap_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// TestWriterRefusesBadAuthority: the Writer used to write an unclosed IPv6
// literal and a port over 65535, which package loc refused; both now come
// from one parser.
func TestWriterRefusesBadAuthority(t *testing.T) {
	for _, loc := range []string{
		"https://[::1/",
		"https://[::1/page",
		"https://www.example.com:99999/",
		"https://[::1]:99999/",
	} {
		var out bytes.Buffer
		w := sitemap.NewWriter(&out, sitemap.FormatURLSet)
		err := w.WriteURL(&sitemap.URL{Loc: loc})
		var v *sitemap.Violation
		if !errors.As(err, &v) || v.Rule != sitemap.RuleInvalidURL || v.Field != "loc" {
			t.Errorf("WriteURL(%q) = %v; want an invalid-url Violation on loc", loc, err)
		}
		if w.Count() != 0 || strings.Contains(out.String(), "<loc>") {
			t.Errorf("WriteURL(%q) wrote it: %q", loc, out.String())
		}
		// The extensions' URLs are held to the same parser.
		err = w.WriteURL(&sitemap.URL{Loc: "https://www.example.com/", Images: []sitemap.Image{{Loc: loc}}})
		if !errors.As(err, &v) || v.Rule != sitemap.RuleImage || v.Field != "image:loc" {
			t.Errorf("WriteURL(image %q) = %v; want an invalid-image Violation on image:loc", loc, err)
		}
	}
}

func TestParseURI(t *testing.T) {
	u, err := sitemap.ParseURI("HTTPS://www.Example.com:8443/a/b;c?x=1&y#frag")
	want := sitemap.URI{Scheme: "HTTPS", Host: "www.Example.com", Port: "8443", Path: "/a/b;c",
		Query: "x=1&y", Fragment: "frag", HasQuery: true, HasFragment: true}
	if err != nil || u != want {
		t.Errorf("ParseURI = %+v, %v; want %+v", u, err, want)
	}
	u, err = sitemap.ParseURI("http://[2001:db8::1]:/")
	want = sitemap.URI{Scheme: "http", Host: "[2001:db8::1]", Path: "/"}
	if err != nil || u != want {
		t.Errorf("ParseURI = %+v, %v; want %+v", u, err, want)
	}
	u, err = sitemap.ParseURI("http://example.com")
	want = sitemap.URI{Scheme: "http", Host: "example.com"}
	if err != nil || u != want {
		t.Errorf("ParseURI = %+v, %v; want %+v", u, err, want)
	}
}

func BenchmarkParseURI(b *testing.B) {
	const s = "https://www.example.com/catalog/item-123?color=red&size=M&ref=12"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sitemap.ParseURI(s); err != nil {
			b.Fatal(err)
		}
	}
}
