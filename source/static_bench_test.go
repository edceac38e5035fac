package source_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/fingerprint"
	"github.com/sitemapkit/sitemapkit/source"
)

// benchPages is the size of the benchmarks' folder: 5,000 pages, or
// SITEMAPKIT_BENCH_PAGES (the figure for fingerprinting is taken on
// 100,000).
var benchPages = func() int {
	if n, err := strconv.Atoi(os.Getenv("SITEMAPKIT_BENCH_PAGES")); err == nil && n > 0 {
		return n
	}
	return 5000
}()

// benchSite writes benchPages pages of about 6 KB, shaped like a Hugo
// blog's (a head with a canonical, hreflang pair and robots meta; a body
// with text and images), 100 to a folder, once per process.
func benchSite(b *testing.B) (dir string, bytes int64) {
	dir = b.TempDir()
	body := strings.Repeat("<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>\n", 50)
	for i := range benchPages {
		rel := fmt.Sprintf("posts/%02d/post-%d/index.html", i/100, i)
		head := fmt.Sprintf(`<meta name="viewport" content="width=device-width"><meta name="robots" content="index, follow">`+
			`<link rel="stylesheet" href="/css/main.css"><script src="/js/app.js" defer></script>`+
			`<link rel="canonical" href="/posts/%02d/post-%d/">`+
			`<link rel="alternate" hreflang="en" href="/posts/%02d/post-%d/"><link rel="alternate" hreflang="de" href="/de/posts/%02d/post-%d/">`,
			i/100, i, i/100, i, i/100, i)
		imgs := fmt.Sprintf(`<img src="cover.jpg"><img src="/img/%d-1.png"><img src="https://cdn.example.net/%d.webp">`, i, i)
		p := page(head, "<header><nav>…</nav></header>"+imgs+body)
		full := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(p), 0o644); err != nil {
			b.Fatal(err)
		}
		bytes += int64(len(p))
	}
	return dir, bytes
}

func benchStatic(b *testing.B, images bool, fp *fingerprint.Hasher) {
	dir, size := benchSite(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s, err := source.OpenStatic(context.Background(), source.StaticOptions{
			Dir: dir, Base: "https://www.example.com/", Lastmod: source.LastmodNone, Images: images, Fingerprint: fp})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for u, err := range s.All() {
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := s.Fingerprint(); ok != (fp != nil) {
				b.Fatalf("%s: fingerprint %v", u.Loc, ok)
			}
			if images && len(u.Images) != 3 || len(u.Alternates) != 2 {
				b.Fatalf("%s: %d images, %d alternates", u.Loc, len(u.Images), len(u.Alternates))
			}
			n++
		}
		if n != benchPages {
			b.Fatalf("%d pages, want %d", n, benchPages)
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(benchPages)*float64(b.N)/sec, "files/s")
	b.ReportMetric(float64(size)*float64(b.N)/sec, "bytes/s")
}

// BenchmarkStatic walks a 5,000-page folder reading each page's head
// (warm page cache: this measures parsing and system calls, not the disk).
// bytes/s counts whole files, though only heads are read.
func BenchmarkStatic(b *testing.B) { benchStatic(b, false, nil) }

// BenchmarkStaticImages reads the same pages whole, for their images.
func BenchmarkStaticImages(b *testing.B) { benchStatic(b, true, nil) }

// BenchmarkStaticFingerprint reads the same pages whole and fingerprints
// their content, as generate --lastmod content does.
func BenchmarkStaticFingerprint(b *testing.B) {
	h, err := fingerprint.New(fingerprint.Options{})
	if err != nil {
		b.Fatal(err)
	}
	benchStatic(b, false, h)
}
