package sitemap_test

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// emptyDoc has, one per <url>, the empty fields the schemas reject and a
// Writer refuses: each line of it starts an element told apart by its line.
const emptyDoc = `<urlset ` + fpNS + `>
<url><loc>http://www.example.com/a</loc>
<lastmod/></url>
<url><loc>http://www.example.com/b</loc>
<lastmod>  </lastmod></url>
<url><loc>http://www.example.com/c</loc>
<image:image><image:loc></image:loc></image:image>
<image:image><image:loc>http://www.example.com/c.jpg</image:loc></image:image>
</url>
<url><loc>http://www.example.com/d</loc>
<image:image><image:caption>no loc</image:caption></image:image>
</url>
<url><loc>http://www.example.com/e</loc>
<video:video>
<video:thumbnail_loc> </video:thumbnail_loc>
<video:title>T</video:title><video:description>D</video:description>
<video:content_loc>http://www.example.com/e.mp4</video:content_loc>
</video:video>
<video:video>
<video:thumbnail_loc>http://www.example.com/t.jpg</video:thumbnail_loc>
<video:title>T2</video:title><video:description>D2</video:description>
<video:content_loc>http://www.example.com/e2.mp4</video:content_loc>
</video:video>
</url>
<url><loc>http://www.example.com/f</loc>
<xhtml:link rel="alternate" hreflang="" href="http://www.example.com/x"/>
<xhtml:link rel="alternate" hreflang="en" href="http://www.example.com/f"/>
</url>
</urlset>`

// TestReaderDropsEmptyFields: read → write must keep every page. An empty
// <lastmod> is read as absent; an image without image:loc, a video with an
// empty thumbnail and an alternate with an empty hreflang are dropped, each
// with a notice at its own line; those kept keep their own positions.
func TestReaderDropsEmptyFields(t *testing.T) {
	var notices []string
	r := sitemap.NewReader(strings.NewReader(emptyDoc))
	r.OnNotice = func(n sitemap.Notice) {
		if n.Rule != sitemap.RuleDeprecatedTag {
			notices = append(notices, fmt.Sprintf("%d:%d %s", n.Pos.Line, n.Pos.Col, n.Rule))
		}
	}
	var buf bytes.Buffer
	w := sitemap.NewWriter(&buf, sitemap.FormatURLSet)
	var pages []string
	var places []string
	for {
		u, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteURL(u); err != nil {
			t.Errorf("the Writer refuses %s as read: %v", u.Loc, err)
			continue
		}
		pages = append(pages, u.Loc)
		for i := range u.Images {
			places = append(places, fmt.Sprintf("image %d@%s", i, posString(r.FieldPos("image:image", i))))
		}
		for i := range u.Videos {
			places = append(places, fmt.Sprintf("video %d@%s", i, posString(r.FieldPos("video:thumbnail_loc", i))))
		}
		for i := range u.Alternates {
			places = append(places, fmt.Sprintf("alternate %d@%s", i, posString(r.FieldPos("xhtml:link", i))))
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(pages) != 6 {
		t.Errorf("pages written: %q, want all 6", pages)
	}
	wantNotices := []string{"3:1 invalid-date", "5:1 invalid-date", "7:1 missing-tag", "11:1 missing-tag", "15:1 invalid-video", "26:1 invalid-hreflang"}
	if !slices.Equal(notices, wantNotices) {
		t.Errorf("notices:\n got %q\nwant %q", notices, wantNotices)
	}
	wantPlaces := []string{"image 0@8:1", "video 0@20:1", "alternate 0@27:1"}
	if !slices.Equal(places, wantPlaces) {
		t.Errorf("positions of what is kept: got %q, want %q", places, wantPlaces)
	}
}

// TestReaderEmptyLastmodInIndex: the same for an index's <sitemap>.
func TestReaderEmptyLastmodInIndex(t *testing.T) {
	doc := `<sitemapindex ` + ns + `>
<sitemap><loc>http://www.example.com/s1.xml</loc><lastmod></lastmod></sitemap>
</sitemapindex>`
	got := rdRead(t, strings.NewReader(doc), nil)
	if got.err != nil || len(got.urls) != 1 || got.urls[0].LastMod != "" {
		t.Fatalf("read %+v, %v; want the child without lastmod", got.urls, got.err)
	}
	if want := []string{"2:50 invalid-date"}; !slices.Equal(got.notices, want) {
		t.Errorf("notices %q, want %q", got.notices, want)
	}
}
