package sitemap_test

import (
	"bytes"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"testing"
)

// Detect agrees with the Reader, compressed or not: a folder scan finds
// what the Reader reads (zstd included).
func TestDetect(t *testing.T) {
	cases := map[string]sitemap.Format{
		"\xef\xbb\xbf <?xml version=\"1.0\"?><!-- c --><urlset>": sitemap.FormatURLSet,
		"<sm:sitemapindex xmlns:sm='x'>":                         sitemap.FormatIndex,
		"<?xml version='1.0'?>\n<rss version='2.0'>":             sitemap.FormatRSS,
		"<feed xmlns='http://www.w3.org/2005/Atom'>":             sitemap.FormatAtom,
		"https://example.com/a\nhttps://example.com/b\n":         sitemap.FormatText,
		smallSitemap:                 sitemap.FormatURLSet,
		"User-agent: *\nDisallow:\n": sitemap.FormatUnknown,
		"<!DOCTYPE html><html>":      sitemap.FormatUnknown,
		"<html><body>":               sitemap.FormatUnknown,
		"":                           sitemap.FormatUnknown,
	}
	for in, want := range cases {
		for _, c := range []struct {
			comp string
			data []byte
		}{{"", []byte(in)}, {"gzip", gzipBytes(t, []byte(in))}, {"zstd", zstdBytes(t, []byte(in))}} {
			f, comp := sitemap.Detect(bytes.NewReader(c.data))
			if f != want || (comp != c.comp && f != sitemap.FormatUnknown) {
				t.Errorf("Detect(%s %q) = %s, %q; want %s, %q", c.comp, in, f, comp, want, c.comp)
			}
		}
	}
}

func FuzzDetect(f *testing.F) {
	for _, s := range []string{"<?xml version='1.0'?><urlset>", "<!-- x --><sitemapindex>", "https://a.example/\n", "<rss", "<a:feed xmlns:a='x'>", "\xef\xbb\xbf  <", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, _ := sitemap.Detect(bytes.NewReader(b))
		if got == sitemap.FormatIndex && !bytes.Contains(b, []byte("sitemapindex")) {
			t.Fatalf("Detect(%q) = index without the word", b)
		}
	})
}
