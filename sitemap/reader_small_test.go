package sitemap_test

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// TestSmallDocumentSmallReader: a Reader of a sitemap of a few hundred
// bytes allocates a few KiB, not the 290 KiB of its largest buffers: a
// walk reads each of an index's 30,000 tiny children twice. A document
// larger than the first buffer, and a token of 200 KiB, still read.
func TestSmallDocumentSmallReader(t *testing.T) {
	tiny := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc><lastmod>2024-05-01</lastmod></url>
</urlset>
`
	read := func(doc string) (n int, err error) {
		rd := sitemap.NewReader(strings.NewReader(doc))
		for {
			if _, err := rd.Read(); err != nil {
				if err == io.EOF {
					err = nil
				}
				return n, err
			}
			n++
		}
	}
	const runs = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		if n, err := read(tiny); n != 1 || err != nil {
			t.Fatalf("%d URLs, %v", n, err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 16<<10 {
		t.Errorf("a Reader of a %d-byte sitemap allocates %d bytes", len(tiny), per)
	}

	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for range 20_000 {
		b.WriteString("<url><loc>https://www.example.com/page</loc></url>\n")
	}
	b.WriteString(`<url><loc>https://www.example.com/` + strings.Repeat("x", 200<<10) + "</loc></url>\n</urlset>\n")
	if n, err := read(b.String()); n != 20_001 || err != nil {
		t.Errorf("%d URLs, %v; want 20001 and the long one", n, err)
	}
}
