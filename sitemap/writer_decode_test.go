package sitemap_test

import (
	"encoding/xml"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// The writer's tests read documents back with encoding/xml, a reader
// independent of ours, into these mirrors of the schemas.

type xURLSet struct {
	URLs []xURL `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 url"`
}

type xURL struct {
	Loc        string   `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 loc"`
	LastMod    string   `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 lastmod"`
	ChangeFreq string   `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 changefreq"`
	Priority   string   `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 priority"`
	Images     []xImage `xml:"http://www.google.com/schemas/sitemap-image/1.1 image"`
	Videos     []xVideo `xml:"http://www.google.com/schemas/sitemap-video/1.1 video"`
	News       *xNews   `xml:"http://www.google.com/schemas/sitemap-news/0.9 news"`
	Links      []xLink  `xml:"http://www.w3.org/1999/xhtml link"`
}

type xImage struct {
	Loc         string `xml:"http://www.google.com/schemas/sitemap-image/1.1 loc"`
	Caption     string `xml:"http://www.google.com/schemas/sitemap-image/1.1 caption"`
	GeoLocation string `xml:"http://www.google.com/schemas/sitemap-image/1.1 geo_location"`
	Title       string `xml:"http://www.google.com/schemas/sitemap-image/1.1 title"`
	License     string `xml:"http://www.google.com/schemas/sitemap-image/1.1 license"`
}

type xVideo struct {
	ThumbnailLoc    string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 thumbnail_loc"`
	Title           string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 title"`
	Description     string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 description"`
	ContentLoc      string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 content_loc"`
	PlayerLoc       string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 player_loc"`
	Duration        string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 duration"`
	ExpirationDate  string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 expiration_date"`
	Rating          string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 rating"`
	ViewCount       string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 view_count"`
	PublicationDate string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 publication_date"`
	Tags            []string `xml:"http://www.google.com/schemas/sitemap-video/1.1 tag"`
	Category        string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 category"`
	FamilyFriendly  string   `xml:"http://www.google.com/schemas/sitemap-video/1.1 family_friendly"`
	Restriction     *struct {
		Relationship string `xml:"relationship,attr"`
		Countries    string `xml:",chardata"`
	} `xml:"http://www.google.com/schemas/sitemap-video/1.1 restriction"`
	GalleryLoc string `xml:"http://www.google.com/schemas/sitemap-video/1.1 gallery_loc"`
	Prices     []struct {
		Currency   string `xml:"currency,attr"`
		Type       string `xml:"type,attr"`
		Resolution string `xml:"resolution,attr"`
		Value      string `xml:",chardata"`
	} `xml:"http://www.google.com/schemas/sitemap-video/1.1 price"`
	RequiresSubscription string `xml:"http://www.google.com/schemas/sitemap-video/1.1 requires_subscription"`
	Uploader             *struct {
		Info string `xml:"info,attr"`
		Name string `xml:",chardata"`
	} `xml:"http://www.google.com/schemas/sitemap-video/1.1 uploader"`
	Platform *struct {
		Relationship string `xml:"relationship,attr"`
		Platforms    string `xml:",chardata"`
	} `xml:"http://www.google.com/schemas/sitemap-video/1.1 platform"`
	Live string `xml:"http://www.google.com/schemas/sitemap-video/1.1 live"`
}

type xNews struct {
	Name         string `xml:"http://www.google.com/schemas/sitemap-news/0.9 publication>name"`
	Language     string `xml:"http://www.google.com/schemas/sitemap-news/0.9 publication>language"`
	Access       string `xml:"http://www.google.com/schemas/sitemap-news/0.9 access"`
	Genres       string `xml:"http://www.google.com/schemas/sitemap-news/0.9 genres"`
	Date         string `xml:"http://www.google.com/schemas/sitemap-news/0.9 publication_date"`
	Title        string `xml:"http://www.google.com/schemas/sitemap-news/0.9 title"`
	Keywords     string `xml:"http://www.google.com/schemas/sitemap-news/0.9 keywords"`
	StockTickers string `xml:"http://www.google.com/schemas/sitemap-news/0.9 stock_tickers"`
}

type xLink struct {
	Rel      string `xml:"rel,attr"`
	Hreflang string `xml:"hreflang,attr"`
	Href     string `xml:"href,attr"`
}

// decodeURLSet reads a urlset with encoding/xml into URLs, leaving absent
// elements empty and absent lists nil, as the writer's input has them.
func decodeURLSet(t *testing.T, data []byte) []sitemap.URL {
	t.Helper()
	var set xURLSet
	if err := xml.Unmarshal(data, &set); err != nil {
		t.Fatalf("encoding/xml cannot read the document: %v", err)
	}
	var urls []sitemap.URL
	for _, x := range set.URLs {
		u := sitemap.URL{Loc: x.Loc, LastMod: x.LastMod, ChangeFreq: x.ChangeFreq, Priority: x.Priority}
		for _, im := range x.Images {
			u.Images = append(u.Images, sitemap.Image(im))
		}
		for _, xv := range x.Videos {
			v := sitemap.Video{
				ThumbnailLoc: xv.ThumbnailLoc, Title: xv.Title, Description: xv.Description,
				ContentLoc: xv.ContentLoc, PlayerLoc: xv.PlayerLoc, Duration: xv.Duration,
				ExpirationDate: xv.ExpirationDate, Rating: xv.Rating, ViewCount: xv.ViewCount,
				PublicationDate: xv.PublicationDate, Tags: xv.Tags, Category: xv.Category,
				FamilyFriendly: xv.FamilyFriendly, GalleryLoc: xv.GalleryLoc,
				RequiresSubscription: xv.RequiresSubscription, Live: xv.Live,
			}
			if r := xv.Restriction; r != nil {
				v.Restriction = &sitemap.Restriction{Relationship: r.Relationship, Countries: r.Countries}
			}
			for _, p := range xv.Prices {
				v.Prices = append(v.Prices, sitemap.Price{Value: p.Value, Currency: p.Currency, Type: p.Type, Resolution: p.Resolution})
			}
			if up := xv.Uploader; up != nil {
				v.Uploader = &sitemap.Uploader{Name: up.Name, Info: up.Info}
			}
			if p := xv.Platform; p != nil {
				v.Platform = &sitemap.Platform{Relationship: p.Relationship, Platforms: p.Platforms}
			}
			u.Videos = append(u.Videos, v)
		}
		if n := x.News; n != nil {
			u.News = &sitemap.News{
				Publication:     sitemap.Publication{Name: n.Name, Language: n.Language},
				PublicationDate: n.Date, Title: n.Title, Access: n.Access, Genres: n.Genres,
				Keywords: n.Keywords, StockTickers: n.StockTickers,
			}
		}
		for _, l := range x.Links {
			if l.Rel != "alternate" {
				t.Errorf("xhtml:link rel=%q; want alternate", l.Rel)
			}
			u.Alternates = append(u.Alternates, sitemap.Alternate{Hreflang: l.Hreflang, Href: l.Href})
		}
		urls = append(urls, u)
	}
	return urls
}
