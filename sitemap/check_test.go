package sitemap_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// found is one violation, as the tests compare them.
type found struct{ rule, field string }

func check(u *sitemap.URL) []found {
	var got []found
	u.Check(func(v *sitemap.Violation) {
		got = append(got, found{v.Rule, v.Field})
	})
	return got
}

// goodVideo is a video with the required fields, for tests to break.
func goodVideo() sitemap.Video {
	return sitemap.Video{
		ThumbnailLoc: "https://www.example.com/thumbs/1.jpg",
		Title:        "Grilling steaks",
		Description:  "How to grill steaks",
		ContentLoc:   "https://cdn.example.com/1.mp4",
	}
}

func goodNews() *sitemap.News {
	return &sitemap.News{
		Publication:     sitemap.Publication{Name: "The Example Times", Language: "en"},
		PublicationDate: "2024-01-02",
		Title:           "A title",
	}
}

const page = "https://www.example.com/page"

func TestCheckLoc(t *testing.T) {
	tests := []struct {
		loc  string
		want string // rule, or "" for none
	}{
		{"https://www.example.com/", ""},
		{"http://www.example.com/%C3%BCmlat.html&q=name", ""},
		{"HTTPS://WWW.EXAMPLE.COM/", ""},
		{"https://www.example.com:8443/a;b?c=d&e='f'#g", ""},
		{"https://user:pw@www.example.com/", sitemap.RuleInvalidURL}, // a public file can only leak it
		{"https://[::1/", sitemap.RuleInvalidURL},
		{"https://[::1]x/", sitemap.RuleInvalidURL},
		{"https://[zz::1]/", sitemap.RuleInvalidURL},
		{"https://www.example.com:99999/", sitemap.RuleInvalidURL},
		{"https://www.example.com:65536/", sitemap.RuleInvalidURL},
		{"https://www.example.com:/", ""},
		{"https://www.example.com/a[1]", sitemap.RuleInvalidURL},
		{"https://www.example.com/a#b#c", sitemap.RuleInvalidURL},
		{"https://www.exa!mple.com/", sitemap.RuleInvalidURL},
		{"http://[2001:db8::1]/page", ""},
		{"http://[2001:db8::1]:8080/page", ""},
		{"https://www.example.com/" + strings.Repeat("a", sitemap.MaxLocLen-24), ""},
		{"https://www.example.com/" + strings.Repeat("a", sitemap.MaxLocLen-23), sitemap.RuleURLTooLong},
		{"http://a.io/", ""}, // 12 characters: the schema's minimum
		{"http://a.io", sitemap.RuleInvalidURL},
		{"", sitemap.RuleMissingTag},
		{"/page", sitemap.RuleRelativeURL},
		{"page.html", sitemap.RuleRelativeURL},
		{"//www.example.com/page", sitemap.RuleRelativeURL},
		{"www.example.com/page", sitemap.RuleRelativeURL},
		{"ftp://www.example.com/file", sitemap.RuleInvalidURL},
		{"mailto:someone@example.com", sitemap.RuleInvalidURL},
		{"javascript:alert(1)", sitemap.RuleInvalidURL},
		{"https:/www.example.com/", sitemap.RuleRelativeURL}, // no host, as loc says
		{"https:///page", sitemap.RuleRelativeURL},
		{"https://www.example.com:80a/", sitemap.RuleInvalidURL},
		{"http://www.example.com/ümlat.html", sitemap.RuleInvalidURL},
		{"http://bücher.example/page", sitemap.RuleInvalidURL},
		{"https://www.example.com/a b", sitemap.RuleInvalidURL},
		{"https://www.example.com/a\tb", sitemap.RuleInvalidURL},
		{"https://www.example.com/a\x7fb", sitemap.RuleInvalidURL},
		{"https://www.example.com/a\x00b", sitemap.RuleInvalidCharacter},
		{"https://www.example.com/a\x1bb", sitemap.RuleInvalidCharacter},
		{"https://www.example.com/a<b", sitemap.RuleInvalidURL},
		{"https://www.example.com/a\"b", sitemap.RuleInvalidURL},
		{"https://www.example.com/a{b}", sitemap.RuleInvalidURL},
		{"https://www.example.com/a|b", sitemap.RuleInvalidURL},
		{"https://www.example.com/100%", sitemap.RuleInvalidURL},
		{"https://www.example.com/%zz", sitemap.RuleInvalidURL},
		{"https://www.example.com/%4", sitemap.RuleInvalidURL},
		{"https://www.example.com/%4a%4B", ""},
	}
	for _, tt := range tests {
		got := check(&sitemap.URL{Loc: tt.loc})
		var want []found
		if tt.want != "" {
			want = []found{{tt.want, "loc"}}
		}
		if !slices.Equal(got, want) {
			t.Errorf("Check(loc %q) = %v; want %v", tt.loc, got, want)
		}
	}
}

func TestCheckMessagesSayHowToFix(t *testing.T) {
	tests := []struct{ loc, hint string }{
		{"http://www.example.com/ümlat.html", "percent-encode it (loc.Normalize does)"},
		{"http://bücher.example/", "punycode"},
		{"https://www.example.com/a b", "%20"},
		{"https://www.example.com/a|b", "%7C"},
		{"/page", "absolute URL"},
	}
	for _, tt := range tests {
		var msgs []string
		u := sitemap.URL{Loc: tt.loc}
		u.Check(func(v *sitemap.Violation) { msgs = append(msgs, v.Error()) })
		if len(msgs) != 1 || !strings.Contains(msgs[0], tt.hint) {
			t.Errorf("Check(loc %q) = %q; want one message saying %q", tt.loc, msgs, tt.hint)
		}
	}
}

func TestCheckFields(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) } // characters, not bytes, are counted
	images := func(n int) []sitemap.Image {
		im := make([]sitemap.Image, n)
		for i := range im {
			im[i].Loc = "https://www.example.com/i.jpg"
		}
		return im
	}
	video := func(edit func(v *sitemap.Video)) []sitemap.Video {
		v := goodVideo()
		edit(&v)
		return []sitemap.Video{v}
	}
	news := func(edit func(n *sitemap.News)) *sitemap.News {
		n := goodNews()
		edit(n)
		return n
	}
	alt := func(hreflang, href string) []sitemap.Alternate {
		return []sitemap.Alternate{{Hreflang: hreflang, Href: href}}
	}
	tests := []struct {
		name string
		u    sitemap.URL
		want []found
	}{
		{"lastmod date", sitemap.URL{LastMod: "2024-01-02"}, nil},
		{"lastmod year", sitemap.URL{LastMod: "2024"}, nil},
		{"lastmod month", sitemap.URL{LastMod: "2024-01"}, nil},
		{"lastmod minutes", sitemap.URL{LastMod: "2024-01-02T10:00Z"}, nil},
		{"lastmod bad", sitemap.URL{LastMod: "2024-02-30"}, []found{{sitemap.RuleInvalidDate, "lastmod"}}},
		{"lastmod no zone", sitemap.URL{LastMod: "2024-01-02T10:00:00"}, []found{{sitemap.RuleTimeWithoutZone, "lastmod"}}},
		{"changefreq", sitemap.URL{ChangeFreq: "never"}, nil},
		{"changefreq upper", sitemap.URL{ChangeFreq: "Weekly"}, []found{{sitemap.RuleInvalidChangefreq, "changefreq"}}},
		{"changefreq other", sitemap.URL{ChangeFreq: "fortnightly"}, []found{{sitemap.RuleInvalidChangefreq, "changefreq"}}},
		{"priority 0", sitemap.URL{Priority: "0"}, nil},
		{"priority 1.0", sitemap.URL{Priority: "1.0"}, nil},
		{"priority .5", sitemap.URL{Priority: ".5"}, nil},
		{"priority 1.", sitemap.URL{Priority: "1."}, nil},
		{"priority +0.50", sitemap.URL{Priority: "+0.50"}, nil},
		{"priority -0.0", sitemap.URL{Priority: "-0.0"}, nil},
		{"priority 001.000", sitemap.URL{Priority: "001.000"}, nil},
		{"priority 1.01", sitemap.URL{Priority: "1.01"}, []found{{sitemap.RuleInvalidPriority, "priority"}}},
		{"priority 10", sitemap.URL{Priority: "10"}, []found{{sitemap.RuleInvalidPriority, "priority"}}},
		{"priority -0.1", sitemap.URL{Priority: "-0.1"}, []found{{sitemap.RuleInvalidPriority, "priority"}}},
		{"priority comma", sitemap.URL{Priority: "0,5"}, []found{{sitemap.RuleInvalidPriority, "priority"}}},
		{"priority dot", sitemap.URL{Priority: "."}, []found{{sitemap.RuleInvalidPriority, "priority"}}},
		{"priority exp", sitemap.URL{Priority: "5e-1"}, []found{{sitemap.RuleInvalidPriority, "priority"}}},
		{"priority high", sitemap.URL{Priority: "high"}, []found{{sitemap.RuleInvalidPriority, "priority"}}},
		// libxml2 (xmllint) refuses a decimal of more than 24 digits, the
		// fraction's trailing zeros counted, the integer's leading zeros not.
		{"priority 24 digits", sitemap.URL{Priority: "0000." + strings.Repeat("1", 24)}, nil},
		{"priority 25 digits", sitemap.URL{Priority: "0." + strings.Repeat("1", 25)}, []found{{sitemap.RuleInvalidPriority, "priority"}}},
		{"priority 25 zeros", sitemap.URL{Priority: "0.5" + strings.Repeat("0", 24)}, []found{{sitemap.RuleInvalidPriority, "priority"}}},

		{"1000 images", sitemap.URL{Images: images(sitemap.MaxImages)}, nil},
		{"1001 images", sitemap.URL{Images: images(sitemap.MaxImages + 1)}, []found{{sitemap.RuleTooManyImages, "image:image"}}},
		{"image no loc", sitemap.URL{Images: []sitemap.Image{{Title: "t"}}}, []found{{sitemap.RuleImage, "image:loc"}}},
		{"image relative", sitemap.URL{Images: []sitemap.Image{{Loc: "/i.jpg"}}}, []found{{sitemap.RuleImage, "image:loc"}}},
		{"image non-ASCII", sitemap.URL{Images: []sitemap.Image{{Loc: "https://www.example.com/ü.jpg"}}}, []found{{sitemap.RuleImage, "image:loc"}}},
		{"image caption control", sitemap.URL{Images: []sitemap.Image{{Loc: "https://www.example.com/i.jpg", Caption: "a\x01"}}}, []found{{sitemap.RuleInvalidCharacter, "image:caption"}}},
		{"image license relative", sitemap.URL{Images: []sitemap.Image{{Loc: "https://www.example.com/i.jpg", License: "license.html"}}}, []found{{sitemap.RuleImage, "image:license"}}},

		{"video", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) {})}, nil},
		{"video no thumbnail", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ThumbnailLoc = "" })}, []found{{sitemap.RuleVideo, "video:thumbnail_loc"}}},
		{"video thumbnail relative", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ThumbnailLoc = "t.jpg" })}, []found{{sitemap.RuleVideo, "video:thumbnail_loc"}}},
		{"video no title", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Title = "" })}, []found{{sitemap.RuleVideo, "video:title"}}},
		{"video title 100", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Title = long(100) })}, nil},
		{"video title 101", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Title = long(101) })}, []found{{sitemap.RuleVideo, "video:title"}}},
		{"video no description", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Description = "" })}, []found{{sitemap.RuleVideo, "video:description"}}},
		{"video description 2048", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Description = long(2048) })}, nil},
		{"video description 2049", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Description = long(2049) })}, []found{{sitemap.RuleVideo, "video:description"}}},
		{"video player only", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ContentLoc, v.PlayerLoc = "", "https://www.example.com/player?v=1" })}, nil},
		{"video no content", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ContentLoc = "" })}, []found{{sitemap.RuleVideo, "video:content_loc"}}},
		{"video content is page", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ContentLoc = page })}, []found{{sitemap.RuleVideo, "video:content_loc"}}},
		{"video player is page", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.PlayerLoc = page })}, []found{{sitemap.RuleVideo, "video:player_loc"}}},
		{"video duration 1", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "1" })}, nil},
		{"video duration 28800", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "28800" })}, nil},
		{"video duration 0", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "0" })}, []found{{sitemap.RuleVideo, "video:duration"}}},
		{"video duration 28801", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "28801" })}, []found{{sitemap.RuleVideo, "video:duration"}}},
		{"video duration 1.5", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "1.5" })}, []found{{sitemap.RuleVideo, "video:duration"}}},
		// xsd:nonNegativeInteger, the schema's type: a sign and leading zeros are allowed.
		{"video duration +600", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "+600" })}, nil},
		{"video duration 10 digits", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "0000000600" })}, nil},
		{"video duration -0", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "-0" })}, []found{{sitemap.RuleVideo, "video:duration"}}},
		{"video duration -600", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "-600" })}, []found{{sitemap.RuleVideo, "video:duration"}}},
		{"video duration +", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "+" })}, []found{{sitemap.RuleVideo, "video:duration"}}},
		{"video view count +5", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ViewCount = "+5" })}, nil},
		{"video view count -0", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ViewCount = "-0" })}, nil},
		{"video view count huge", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ViewCount = "99999999999999999999" })}, nil},
		{"video view count 24 digits", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ViewCount = "000" + strings.Repeat("9", 24) })}, nil},
		{"video view count 25 digits", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ViewCount = strings.Repeat("9", 25) })}, []found{{sitemap.RuleVideo, "video:view_count"}}},
		{"video rating 25 digits", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Rating = "4." + strings.Repeat("9", 24) })}, []found{{sitemap.RuleVideo, "video:rating"}}},
		{"video price 25 digits", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) {
			v.Prices = []sitemap.Price{{Value: "1." + strings.Repeat("9", 24), Currency: "EUR"}}
		})}, []found{{sitemap.RuleVideo, "video:price"}}},
		{"video duration huge", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Duration = "99999999999999999999" })}, []found{{sitemap.RuleVideo, "video:duration"}}},
		{"video expiration", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ExpirationDate = "2024-01" })}, []found{{sitemap.RuleInvalidDate, "video:expiration_date"}}},
		{"video publication no zone", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.PublicationDate = "2024-01-02T10:00:00" })}, []found{{sitemap.RuleTimeWithoutZone, "video:publication_date"}}},
		{"video rating 5", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Rating = "5.0" })}, nil},
		{"video rating 5.1", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Rating = "5.1" })}, []found{{sitemap.RuleVideo, "video:rating"}}},
		{"video view count", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.ViewCount = "-1" })}, []found{{sitemap.RuleVideo, "video:view_count"}}},
		{"video 32 tags", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Tags = make([]string, 32) })}, nil},
		{"video 33 tags", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Tags = make([]string, 33) })}, []found{{sitemap.RuleVideo, "video:tag"}}},
		{"video category 257", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Category = long(257) })}, []found{{sitemap.RuleVideo, "video:category"}}},
		{"video yes/no", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.FamilyFriendly, v.RequiresSubscription, v.Live = "YES", "No", "no" })}, nil},
		{"video yes/no bad", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.FamilyFriendly, v.RequiresSubscription, v.Live = "true", "nO", "y" })},
			[]found{{sitemap.RuleVideo, "video:family_friendly"}, {sitemap.RuleVideo, "video:requires_subscription"}, {sitemap.RuleVideo, "video:live"}}},
		{"video restriction", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Restriction = &sitemap.Restriction{"deny", "IE  GB US"} })}, nil},
		{"video restriction bad", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Restriction = &sitemap.Restriction{"Allow", "ie,GB"} })},
			[]found{{sitemap.RuleVideo, "video:restriction@relationship"}, {sitemap.RuleVideo, "video:restriction"}}},
		{"video platform", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Platform = &sitemap.Platform{"allow", "web tv"} })}, nil},
		{"video platform bad", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Platform = &sitemap.Platform{"", "web desktop"} })},
			[]found{{sitemap.RuleVideo, "video:platform@relationship"}, {sitemap.RuleVideo, "video:platform"}}},
		{"video price", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) {
			v.Prices = []sitemap.Price{{Value: "1.99", Currency: "EUR"}, {Type: "rent", Resolution: "HD"}}
		})}, nil},
		{"video price bad", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) {
			v.Prices = []sitemap.Price{{Value: "-1", Currency: "eur", Type: "buy", Resolution: "4k"}, {Value: "2"}, {}}
		})}, []found{
			{sitemap.RuleVideo, "video:price"}, {sitemap.RuleVideo, "video:price@currency"}, {sitemap.RuleVideo, "video:price@type"}, {sitemap.RuleVideo, "video:price@resolution"},
			{sitemap.RuleVideo, "video:price@currency"},
			{sitemap.RuleVideo, "video:price@type"},
		}},
		{"video uploader", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) {
			v.Uploader = &sitemap.Uploader{Name: long(255), Info: "https://www.example.com/u"}
		})}, nil},
		{"video uploader bad", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Uploader = &sitemap.Uploader{Name: long(256), Info: "u"} })},
			[]found{{sitemap.RuleVideo, "video:uploader"}, {sitemap.RuleVideo, "video:uploader@info"}}},
		// Google wants the uploader's page on the <loc>'s domain: any
		// host of it, by the public suffix list.
		{"video uploader other host of the domain", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) {
			v.Uploader = &sitemap.Uploader{Name: "Ann", Info: "https://Videos.EXAMPLE.com/users/ann"}
		})}, nil},
		{"video uploader, page's host fully qualified", sitemap.URL{Loc: "https://www.example.com./v", Videos: video(func(v *sitemap.Video) {
			v.Uploader = &sitemap.Uploader{Name: "Ann", Info: "https://videos.example.com/users/ann"}
		})}, nil},
		{"video uploader fully qualified", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) {
			v.Uploader = &sitemap.Uploader{Name: "Ann", Info: "https://videos.example.com./users/ann"}
		})}, nil},
		{"video uploader fully qualified, other domain", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) {
			v.Uploader = &sitemap.Uploader{Name: "Ann", Info: "https://www.example.net./users/ann"}
		})}, []found{{sitemap.RuleVideo, "video:uploader@info"}}},
		{"video uploader other domain", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) {
			v.Uploader = &sitemap.Uploader{Name: "Ann", Info: "https://www.example.net/users/ann"}
		})}, []found{{sitemap.RuleVideo, "video:uploader@info"}}},
		{"video uploader beside a public suffix", sitemap.URL{Loc: "https://shop.example.co.uk/v", Videos: video(func(v *sitemap.Video) {
			v.Uploader = &sitemap.Uploader{Name: "Ann", Info: "https://other.co.uk/ann"}
		})}, []found{{sitemap.RuleVideo, "video:uploader@info"}}},
		{"video uploader empty", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.Uploader = &sitemap.Uploader{} })}, []found{{sitemap.RuleVideo, "video:uploader"}}},
		{"video gallery", sitemap.URL{Loc: page, Videos: video(func(v *sitemap.Video) { v.GalleryLoc = "gallery" })}, []found{{sitemap.RuleVideo, "video:gallery_loc"}}},

		{"news", sitemap.URL{News: goodNews()}, nil},
		{"news minutes", sitemap.URL{News: news(func(n *sitemap.News) { n.PublicationDate = "2024-01-02T10:00+01:00" })}, nil},
		{"news fraction", sitemap.URL{News: news(func(n *sitemap.News) { n.PublicationDate = "2024-01-02T10:00:00.5Z" })}, nil},
		{"news zh-tw", sitemap.URL{News: news(func(n *sitemap.News) { n.Publication.Language = "zh-tw" })}, nil},
		{"news fil", sitemap.URL{News: news(func(n *sitemap.News) { n.Publication.Language = "fil" })}, nil},
		{"news optional", sitemap.URL{News: news(func(n *sitemap.News) {
			n.Access, n.Genres, n.Keywords, n.StockTickers = "Subscription", "PressRelease, Blog,OpEd", "a, b", "NASDAQ:A, NYSE:B,C:D, E:F, G:H"
		})}, nil},
		{"news empty", sitemap.URL{News: &sitemap.News{}}, []found{
			{sitemap.RuleNews, "news:name"}, {sitemap.RuleNews, "news:language"}, {sitemap.RuleNews, "news:publication_date"}, {sitemap.RuleNews, "news:title"},
		}},
		{"news bad", sitemap.URL{News: news(func(n *sitemap.News) {
			n.Publication.Language, n.PublicationDate, n.Access, n.Genres, n.StockTickers = "EN", "2024", "Free", "Blog;Satire", "A:B,C:D,E:F,G:H,I:J,K:L"
		})}, []found{
			{sitemap.RuleNews, "news:language"}, {sitemap.RuleInvalidDate, "news:publication_date"}, {sitemap.RuleNews, "news:access"}, {sitemap.RuleNews, "news:genres"}, {sitemap.RuleNews, "news:stock_tickers"},
		}},
		{"news language zh-hk", sitemap.URL{News: news(func(n *sitemap.News) { n.Publication.Language = "zh-hk" })}, []found{{sitemap.RuleNews, "news:language"}}},
		{"news ticker underscore", sitemap.URL{News: news(func(n *sitemap.News) { n.StockTickers = "NYSE:A_B" })}, []found{{sitemap.RuleNews, "news:stock_tickers"}}},

		{"hreflang", sitemap.URL{Alternates: alt("de", page)}, nil},
		{"hreflang region", sitemap.URL{Alternates: alt("en-GB", page)}, nil},
		{"hreflang case", sitemap.URL{Alternates: alt("EN-gb", page)}, nil},
		{"hreflang script", sitemap.URL{Alternates: alt("zh-Hant", page)}, nil},
		{"hreflang script region", sitemap.URL{Alternates: alt("zh-Hans-US", page)}, nil},
		{"hreflang x-default", sitemap.URL{Alternates: alt("x-default", page)}, nil},
		{"hreflang X-Default", sitemap.URL{Alternates: alt("X-Default", page)}, nil},
		{"hreflang country", sitemap.URL{Alternates: alt("us", page)}, []found{{sitemap.RuleHreflang, "xhtml:link@hreflang"}}},
		{"hreflang es-419", sitemap.URL{Alternates: alt("es-419", page)}, []found{{sitemap.RuleHreflang, "xhtml:link@hreflang"}}},
		{"hreflang en-UK", sitemap.URL{Alternates: alt("en-UK", page)}, []found{{sitemap.RuleHreflang, "xhtml:link@hreflang"}}},
		{"hreflang en_GB", sitemap.URL{Alternates: alt("en_GB", page)}, []found{{sitemap.RuleHreflang, "xhtml:link@hreflang"}}},
		{"hreflang eng", sitemap.URL{Alternates: alt("eng", page)}, []found{{sitemap.RuleHreflang, "xhtml:link@hreflang"}}},
		{"hreflang unknown", sitemap.URL{Alternates: alt("xx", page)}, []found{{sitemap.RuleHreflang, "xhtml:link@hreflang"}}},
		{"hreflang variant", sitemap.URL{Alternates: alt("de-DE-1996", page)}, []found{{sitemap.RuleHreflang, "xhtml:link@hreflang"}}},
		{"hreflang trailing hyphen", sitemap.URL{Alternates: alt("de-", page)}, []found{{sitemap.RuleHreflang, "xhtml:link@hreflang"}}},
		{"hreflang empty", sitemap.URL{Alternates: alt("", page)}, []found{{sitemap.RuleHreflang, "xhtml:link@hreflang"}}},
		{"hreflang href relative", sitemap.URL{Alternates: alt("de", "/de/")}, []found{{sitemap.RuleHreflang, "xhtml:link@href"}}},
		{"hreflang href missing", sitemap.URL{Alternates: alt("de", "")}, []found{{sitemap.RuleHreflang, "xhtml:link@href"}}},

		{"invalid UTF-8", sitemap.URL{Images: []sitemap.Image{{Loc: "https://www.example.com/i.jpg", Title: "a\xffb"}}}, []found{{sitemap.RuleInvalidCharacter, "image:title"}}},
		{"U+FFFE", sitemap.URL{News: news(func(n *sitemap.News) { n.Title = "a\uFFFEb" })}, []found{{sitemap.RuleInvalidCharacter, "news:title"}}},
		{"tab, newline, CR allowed", sitemap.URL{News: news(func(n *sitemap.News) { n.Title = "a\tb\nc\rd" })}, nil},
		{"astral allowed", sitemap.URL{News: news(func(n *sitemap.News) { n.Title = "a😀b" })}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.u.Loc == "" {
				tt.u.Loc = page
			}
			got := check(&tt.u)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Check = %v; want %v", got, tt.want)
			}
		})
	}
}

// TestCheckReportsEverything: a checker reading someone else's file must see
// every problem of an entry, not the first.
func TestCheckReportsEverything(t *testing.T) {
	u := sitemap.URL{
		Loc:        "/relative",
		LastMod:    "yesterday",
		ChangeFreq: "often",
		Priority:   "2",
		Images:     []sitemap.Image{{}},
		Videos:     []sitemap.Video{{}},
		News:       &sitemap.News{},
		Alternates: []sitemap.Alternate{{Hreflang: "gb", Href: "x"}},
	}
	want := []found{
		{sitemap.RuleRelativeURL, "loc"},
		{sitemap.RuleInvalidDate, "lastmod"},
		{sitemap.RuleInvalidChangefreq, "changefreq"},
		{sitemap.RuleInvalidPriority, "priority"},
		{sitemap.RuleImage, "image:loc"},
		{sitemap.RuleVideo, "video:thumbnail_loc"},
		{sitemap.RuleVideo, "video:title"},
		{sitemap.RuleVideo, "video:description"},
		{sitemap.RuleVideo, "video:content_loc"},
		{sitemap.RuleNews, "news:name"},
		{sitemap.RuleNews, "news:language"},
		{sitemap.RuleNews, "news:publication_date"},
		{sitemap.RuleNews, "news:title"},
		{sitemap.RuleHreflang, "xhtml:link@hreflang"},
		{sitemap.RuleHreflang, "xhtml:link@href"},
	}
	if got := check(&u); !slices.Equal(got, want) {
		t.Errorf("Check =\n%v\nwant\n%v", got, want)
	}
}

func TestCheckIndexEntry(t *testing.T) {
	tests := []struct {
		e    sitemap.IndexEntry
		want []found
	}{
		{sitemap.IndexEntry{Loc: "https://www.example.com/sitemap-1.xml.gz", LastMod: "2024-01-02T10:00:00Z"}, nil},
		{sitemap.IndexEntry{Loc: "https://www.example.com/sitemap-1.xml", LastMod: "2024"}, nil},
		{sitemap.IndexEntry{Loc: "sitemap-1.xml", LastMod: "2024-01-02T10:00"}, []found{{sitemap.RuleRelativeURL, "loc"}, {sitemap.RuleTimeWithoutZone, "lastmod"}}},
		{sitemap.IndexEntry{}, []found{{sitemap.RuleMissingTag, "loc"}}},
	}
	for _, tt := range tests {
		var got []found
		tt.e.Check(func(v *sitemap.Violation) { got = append(got, found{v.Rule, v.Field}) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("Check(%+v) = %v; want %v", tt.e, got, tt.want)
		}
	}
}
