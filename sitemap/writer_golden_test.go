package sitemap_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// goldenURLs use every element the Writer writes: images with the
// deprecated fields, a video with every field, news with every field, and
// an hreflang cluster with x-default.
var goldenURLs = []sitemap.URL{
	{
		Loc:        "https://www.example.com/products/chair?color=red&size=M",
		LastMod:    "2024-05-01T10:00:00+02:00",
		ChangeFreq: "weekly",
		Priority:   "0.8",
		Images: []sitemap.Image{
			{Loc: "https://cdn.example.com/chair-front.jpg"},
			{
				Loc:         "https://cdn.example.com/chair-side.jpg?w=800&h=600",
				Caption:     `The "Oslo" chair, side view <new>`,
				GeoLocation: "Oslo, Norway",
				Title:       "Oslo chair & footstool",
				License:     "https://www.example.com/image-license",
			},
		},
	},
	{
		Loc:     "https://www.example.com/videos/grilling-steaks",
		LastMod: "2024-05-02",
		Videos: []sitemap.Video{{
			ThumbnailLoc:    "https://www.example.com/thumbs/123.jpg",
			Title:           "Grilling steaks for summer",
			Description:     "Alkis shows you how to get perfectly done steaks every time: salt, heat & patience.",
			ContentLoc:      "https://streamserver.example.com/video123.mp4",
			PlayerLoc:       "https://www.example.com/videoplayer.php?video=123",
			Duration:        "600",
			ExpirationDate:  "2030-11-05T19:20:30+08:00",
			Rating:          "4.2",
			ViewCount:       "12345",
			PublicationDate: "2024-05-01T19:20:30+08:00",
			Tags:            []string{"steak", "meat", "summer", "outdoor"},
			Category:        "Grilling",
			FamilyFriendly:  "yes",
			Restriction:     &sitemap.Restriction{Relationship: "allow", Countries: "IE GB US CA"},
			GalleryLoc:      "https://www.example.com/videos/grilling",
			Prices: []sitemap.Price{
				{Value: "1.99", Currency: "EUR", Type: "rent", Resolution: "hd"},
				{Value: "9.99", Currency: "USD", Type: "purchase"},
			},
			RequiresSubscription: "no",
			Uploader:             &sitemap.Uploader{Name: "GrillyMcGrillerson", Info: "https://www.example.com/users/grillymcgrillerson"},
			Platform:             &sitemap.Platform{Relationship: "allow", Platforms: "web tv"},
			Live:                 "no",
		}},
	},
	{
		Loc: "https://www.example.com/business/article55.html",
		News: &sitemap.News{
			Publication:     sitemap.Publication{Name: "The Example Times", Language: "en"},
			PublicationDate: "2024-05-02T08:30:00Z",
			Title:           "Companies A, B in Merger Talks",
			Access:          "Subscription",
			Genres:          "PressRelease, Blog",
			Keywords:        "business, merger, acquisition, A, B",
			StockTickers:    "NASDAQ:A, NASDAQ:B",
		},
	},
	{
		Loc: "https://www.example.com/english/page.html",
		Alternates: []sitemap.Alternate{
			{Hreflang: "en", Href: "https://www.example.com/english/page.html"},
			{Hreflang: "de-DE", Href: "https://www.example.de/deutsch/page.html"},
			{Hreflang: "zh-Hant-TW", Href: "https://www.example.com/tw/page.html"},
			{Hreflang: "x-default", Href: "https://www.example.com/"},
		},
	},
	{Loc: "http://www.example.com/%C3%BCmlat.html&q=name"},
}

var goldenIndex = []sitemap.IndexEntry{
	{Loc: "https://www.example.com/sitemap-1.xml.gz", LastMod: "2024-05-02T08:30:00Z"},
	{Loc: "https://www.example.com/sitemap-2.xml.gz", LastMod: "2024-05-01"},
	{Loc: "https://www.example.com/sitemap-3.xml.gz"},
}

// TestWriterGolden compares documents with testdata/writer/; run
// `go test ./sitemap/ -run Golden -update` to rewrite them after a change
// that is meant.
func TestWriterGolden(t *testing.T) {
	tests := []struct {
		file   string
		format sitemap.Format
	}{
		{"urlset.xml", sitemap.FormatURLSet},
		{"index.xml", sitemap.FormatIndex},
		{"sitemap.txt", sitemap.FormatText},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			d := newDoc(tt.format)
			var err error
			switch tt.format {
			case sitemap.FormatIndex:
				for i := range goldenIndex {
					if err = d.WriteIndex(&goldenIndex[i]); err != nil {
						break
					}
				}
			default:
				for i := range goldenURLs {
					if err = d.WriteURL(&goldenURLs[i]); err != nil {
						break
					}
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			got := d.finish(t, tt.file)
			path := filepath.Join("testdata", "writer", tt.file)
			if updating() {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("document differs from %s (run with -update if the change is meant):\n%s", path, got)
			}
			if tt.format == sitemap.FormatURLSet {
				if back := decodeURLSet(t, got); !reflect.DeepEqual(back, goldenURLs) {
					t.Errorf("read back with encoding/xml:\n%+v\nwant:\n%+v", back, goldenURLs)
				}
			}
		})
	}
}
