package sitemap_test

import (
	"fmt"
	"strings"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

func ExampleReader() {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/?a=1&amp;b=2</loc><lastmod>2024-05-01</lastmod></url>
  <url><lastmod>2024-05-02</lastmod><loc> https://www.example.com/about </loc></url>
</urlset>`
	r := sitemap.NewReader(strings.NewReader(doc))
	r.Name = "sitemap.xml"
	r.OnNotice = func(n sitemap.Notice) {
		fmt.Printf("%s:%d:%d: %s: %s\n", r.Name, n.Pos.Line, n.Pos.Col, n.Rule, n.Msg)
	}
	for u, err := range r.All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(u.Loc, u.LastMod)
	}
	fmt.Println(r.Format())
	// Output:
	// https://www.example.com/?a=1&b=2 2024-05-01
	// sitemap.xml:4:37: element-order: <loc> out of order: the order is loc, lastmod, changefreq, priority, then extensions
	// https://www.example.com/about 2024-05-02
	// urlset
}

func ExampleReader_errors() {
	r := sitemap.NewReader(strings.NewReader("<!DOCTYPE html>\n<html><body>Not found</body></html>"))
	r.Name = "https://www.example.com/sitemap.xml"
	_, err := r.Read()
	fmt.Println(err)
	fmt.Println(sitemap.ErrorRule(err))
	// Output:
	// https://www.example.com/sitemap.xml:1:1: sitemap is HTML
	// sitemap-is-html
}
