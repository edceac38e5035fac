package lint

import (
	"slices"
	"testing"
)

// TestFutureLastmod: a lastmod more than a day after the check's time is
// a warning, in a urlset and an index; one within a day (a zone ahead of
// the checker's) is not.
func TestFutureLastmod(t *testing.T) {
	urlset := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc><lastmod>2026-01-10</lastmod></url>
<url><loc>https://www.example.com/b</loc><lastmod>2026-01-11T09:00:00+14:00</lastmod></url>
<url><loc>https://www.example.com/c</loc><lastmod>2026-01-12T13:00:00Z</lastmod></url>
<url><loc>https://www.example.com/d</loc><lastmod>2031-01-01</lastmod></url>
</urlset>`)
	_, diags := run(t, "sitemap.xml", "https://www.example.com/sitemap.xml", urlset)
	var lines []int
	for _, d := range diags {
		if d.Rule == FutureLastmod.Name {
			lines = append(lines, d.Line)
		}
	}
	if !slices.Equal(lines, []int{5, 6}) {
		t.Errorf("lastmod-in-future on lines %v, want 5 and 6: %v", lines, rules(diags))
	}
	index := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://www.example.com/s1.xml</loc><lastmod>2099-01-01</lastmod></sitemap>
</sitemapindex>`)
	if _, diags := run(t, "sitemap.xml", "https://www.example.com/sitemap.xml", index); !slices.Contains(rules(diags), FutureLastmod.Name) {
		t.Errorf("an index's future lastmod: %v", rules(diags))
	}
}
