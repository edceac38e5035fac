package sitemap_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"os"
	"strconv"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

func ExampleWriter() {
	w := sitemap.NewWriter(os.Stdout, sitemap.FormatURLSet)
	urls := []sitemap.URL{
		{Loc: "https://www.example.com/", LastMod: "2024-05-01"},
		{Loc: "https://www.example.com/search?q=chairs&page=2"},
		{Loc: "https://www.example.com/über-uns"}, // not a URI yet: refused
	}
	for _, u := range urls {
		if err := w.WriteURL(&u); err != nil {
			fmt.Fprintln(os.Stdout, "refused:", err)
		}
	}
	// The Writer buffers: the document reaches os.Stdout at Close, after
	// the refusal was printed.
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// refused: loc: contains a non-ASCII character; percent-encode it (loc.Normalize does) ("https://www.example.com/über-uns") [invalid-url]
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
	// <url><loc>https://www.example.com/</loc><lastmod>2024-05-01</lastmod></url>
	// <url><loc>https://www.example.com/search?q=chairs&amp;page=2</loc></url>
	// </urlset>
}

func ExampleWriter_index() {
	w := sitemap.NewWriter(os.Stdout, sitemap.FormatIndex)
	for _, e := range []sitemap.IndexEntry{
		{Loc: "https://www.example.com/sitemap-1.xml.gz", LastMod: "2024-05-01T10:00:00+02:00"},
		{Loc: "https://www.example.com/sitemap-2.xml.gz"},
	} {
		if err := w.WriteIndex(&e); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <sitemap><loc>https://www.example.com/sitemap-1.xml.gz</loc><lastmod>2024-05-01T10:00:00+02:00</lastmod></sitemap>
	// <sitemap><loc>https://www.example.com/sitemap-2.xml.gz</loc></sitemap>
	// </sitemapindex>
}

// A stream of URLs is split into files at ErrFull: the entry that did not
// fit starts the next file. The limit is lowered here to show it; package
// Package publish does this, with gzip and an index, for real sets.
func ExampleWriter_split() {
	var files []*bytes.Buffer
	var w *sitemap.Writer
	next := func() {
		files = append(files, new(bytes.Buffer))
		w = sitemap.NewWriter(files[len(files)-1], sitemap.FormatURLSet)
		w.MaxBytes = 1000 // default: sitemap.MaxBytes (52,428,800)
	}
	closeFile := func() {
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("file %d: %d URLs, %d bytes\n", len(files), w.Count(), w.Len())
	}
	next()
	for i := 1; i <= 10; i++ {
		u := sitemap.URL{Loc: "https://www.example.com/products/" + strconv.Itoa(i), LastMod: "2024-05-01"}
		err := w.WriteURL(&u)
		if errors.Is(err, sitemap.ErrFull) {
			closeFile()
			next()
			err = w.WriteURL(&u)
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	closeFile()
	// Output:
	// file 1: 7 URLs, 939 bytes
	// file 2: 3 URLs, 596 bytes
}

func ExampleURL_Check() {
	u := sitemap.URL{
		Loc:        "/products/chair",
		LastMod:    "2024-05-01T10:00:00",
		ChangeFreq: "Weekly",
		Alternates: []sitemap.Alternate{{Hreflang: "es-419", Href: "https://www.example.com/es/"}},
	}
	u.Check(func(v *sitemap.Violation) {
		fmt.Printf("%s: %s\n", v.Rule, v.Field)
	})
	// Output:
	// relative-url: loc
	// time-without-timezone: lastmod
	// invalid-changefreq: changefreq
	// invalid-hreflang: xhtml:link@hreflang
}

func ExampleParseDate() {
	for _, s := range []string{"2024-05-01", "2024-05-01T10:00:00+02:00", "2024-05-01T10:00:00"} {
		t, err := sitemap.ParseDate(s)
		fmt.Println(t, err)
	}
	// Output:
	// 2024-05-01 00:00:00 +0000 UTC <nil>
	// 2024-05-01 08:00:00 +0000 UTC <nil>
	// 0001-01-01 00:00:00 +0000 UTC has a time but no time zone; add Z or ±hh:mm (Google reads it as an invalid date) ("2024-05-01T10:00:00") [time-without-timezone]
}
