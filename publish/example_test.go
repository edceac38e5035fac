package publish_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"regexp"

	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

var hash = regexp.MustCompile(`-[0-9a-f]{8}\.`)

// A set is built in a folder and published in one step. Run it again with
// other URLs and only the files that changed are replaced.
func Example() {
	dir, err := os.MkdirTemp("", "public")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	b, err := publish.New(publish.Options{
		Dir:     dir,
		Base:    "https://www.example.com/",
		Gzip:    true,
		MaxURLs: 2, // tiny files, to show the index
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for _, u := range []sitemap.URL{
		{Loc: "https://www.example.com/", LastMod: "2024-05-01"},
		{Loc: "https://www.example.com/about", LastMod: "2024-05-03T10:00:00+02:00"},
		{Loc: "https://www.example.com/ümlat.html"},
		{Loc: "https://www.example.com/about"},     // a duplicate: dropped
		{Loc: "https://www.example.org/elsewhere"}, // another host: refused
	} {
		if err := b.Add(ctx, &u); err != nil {
			var v *sitemap.Violation
			if !errors.As(err, &v) {
				log.Fatal(err) // fatal: the Builder can only be aborted
			}
			fmt.Println("refused:", u.Loc, v.Rule)
		}
	}
	res, err := b.Publish(ctx)
	if err != nil {
		b.Abort()
		log.Fatal(err)
	}
	fmt.Println("submit:", res.Indexes)
	fmt.Println(res.URLs, "URLs,", res.Duplicates, "duplicate,", res.Refused)
	for _, f := range res.Files {
		// Children are named after their content's checksum.
		name := hash.ReplaceAllString(f.Name, "-XXXXXXXX.")
		fmt.Println(name, f.Entries, "entries")
	}
	// Output:
	// refused: https://www.example.org/elsewhere url-not-allowed
	// submit: [https://www.example.com/sitemap.xml]
	// 3 URLs, 1 duplicate, map[url-not-allowed:1]
	// sitemap.xml 2 entries
	// sitemap-1-XXXXXXXX.xml.gz 2 entries
	// sitemap-2-XXXXXXXX.xml.gz 1 entries
}
