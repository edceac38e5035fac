package lint_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/sitemapkit/sitemapkit/lint"
)

func ExampleChecker() {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/blog/a</loc><lastmod>2024-05-01T10:00:00</lastmod></url>
  <url><loc>http://www.example.com/blog/b</loc></url>
  <url><loc>https://www.example.com/shop/c</loc></url>
  <url><loc>https://www.example.com/blog/a</loc></url>
</urlset>
`
	// Print where and which rule; d.String() gives the whole line
	// "sitemap.xml:3:49: error[time-without-timezone]: lastmod: …".
	c := &lint.Checker{Report: func(d lint.Diagnostic) {
		fmt.Printf("%s:%d: %s[%s]\n", d.File, d.Line, d.Severity, d.Rule)
	}}
	res, err := c.CheckDocument(context.Background(), "sitemap.xml", "https://www.example.com/blog/sitemap.xml", strings.NewReader(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Finish()
	fmt.Printf("%s: %d URLs, %d errors, %d warnings\n", res.Format, res.Entries, res.Errors, res.Warnings)
	// Output:
	// sitemap.xml:3: error[time-without-timezone]
	// sitemap.xml:4: error[url-not-allowed]
	// sitemap.xml:5: error[url-outside-directory]
	// sitemap.xml:6: warning[duplicate-url]
	// urlset: 4 URLs, 3 errors, 1 warnings
}

// A rule's documentation, as docs/rules.md shows it.
func ExampleLookup() {
	r := lint.Lookup("invalid-date")
	fmt.Println(r.Name, r.Severity, r.SearchConsole)
	fmt.Println(r.Title())
	// Output:
	// invalid-date error Invalid date
	// Not a W3C datetime
}
