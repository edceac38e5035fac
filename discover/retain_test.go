package discover_test

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// TestWalkKeepsNoFinishedDocument: a document read and closed is garbage
// while the rest of its listing (an index's children, a robots.txt's
// Sitemap: lines, a folder's files) is walked. The walk held a listing's
// items, their Documents and closed bodies (each body its connection's
// buffers) until its last document: 433 MB of peak RSS to read an index
// of 30,000 tiny children, 136 MB for a robots.txt of 10,000 lines.
func TestWalkKeepsNoFinishedDocument(t *testing.T) {
	const n = 600
	site := sitetest.New(t)
	dir := t.TempDir()
	var locs []string
	var robots strings.Builder
	for i := range n {
		p := fmt.Sprintf("/c/%d.xml", i)
		site.Page(p, sitetest.URLSet("{{.}}"+p))
		locs = append(locs, "{{.}}"+p)
		fmt.Fprintf(&robots, "Sitemap: {{.}}%s\n", p)
		writeFile(t, filepath.Join(dir, fmt.Sprintf("s%d.xml", i)), sitetest.URLSet(fmt.Sprintf("https://www.example.com/%d", i)))
	}
	site.Page("/index.xml", sitetest.Index(locs...))
	site.Page("/robots.txt", robots.String())
	for _, tc := range []struct{ name, start string }{
		{"index", site.URL + "/index.xml"},
		{"robots.txt", site.URL + "/robots.txt"},
		{"folder", dir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var finished []weak.Pointer[discover.Document]
			held := -1
			for d := range discover.Walk(t.Context(), []string{tc.start}, discover.Options{}) {
				if len(d.Problems) > 0 {
					t.Fatalf("%s: %v", d.Name, d.Problems)
				}
				if d.Body != nil {
					io.Copy(io.Discard, d.Body)
					d.Body.Close()
				}
				if d.Listing || d.Format == sitemap.FormatIndex {
					continue
				}
				finished = append(finished, weak.Make(d))
				if len(finished) < n {
					continue
				}
				// The last: every other one is done with.
				runtime.GC()
				runtime.GC()
				held = 0
				for _, p := range finished[:n-1] {
					if p.Value() != nil {
						held++
					}
				}
			}
			if len(finished) != n {
				t.Fatalf("%d sitemaps walked, want %d", len(finished), n)
			}
			if held > 0 {
				t.Errorf("%d of the %d documents read and closed before the last are still held by the walk", held, n-1)
			}
		})
	}
}
