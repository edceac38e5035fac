package sitemap_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

var rtURLs = []sitemap.URL{
	{Loc: "https://www.example.com/"},
	{Loc: "https://www.example.com/a?x=1&y=%3C2%3E&z='", LastMod: "2024-05-01T10:00:00+02:00", ChangeFreq: "weekly", Priority: "0.8"},
	{
		Loc: "https://www.example.com/p", LastMod: "2024-05-01",
		Images: []sitemap.Image{
			{Loc: "https://www.example.com/i.jpg", Caption: "C & D", GeoLocation: "Limerick, Ireland", Title: "T <1>", License: "https://www.example.com/l"},
			{Loc: "https://www.example.com/j.jpg"},
		},
		Videos: []sitemap.Video{{
			ThumbnailLoc: "https://www.example.com/t.jpg", Title: "Grilling steaks", Description: "Alkis shows you how & why.",
			ContentLoc: "https://www.example.com/v.mp4", PlayerLoc: "https://www.example.com/player?v=1",
			Duration: "600", ExpirationDate: "2030-11-05T19:20:30+08:00", Rating: "4.2", ViewCount: "12345",
			PublicationDate: "2007-11-05T19:20:30+08:00", Tags: []string{"steak", "meat"}, Category: "Grilling",
			FamilyFriendly: "yes", Restriction: &sitemap.Restriction{Relationship: "allow", Countries: "IE GB US CA"},
			GalleryLoc: "https://www.example.com/g", Prices: []sitemap.Price{{Value: "1.99", Currency: "EUR", Type: "rent", Resolution: "hd"}},
			RequiresSubscription: "yes", Uploader: &sitemap.Uploader{Name: "Grilly", Info: "https://www.example.com/users/grilly"},
			Platform: &sitemap.Platform{Relationship: "allow", Platforms: "web tv"}, Live: "no",
		}},
		News: &sitemap.News{
			Publication: sitemap.Publication{Name: "The Example Times", Language: "en"}, Access: "Subscription", Genres: "Blog",
			PublicationDate: "2008-12-23", Title: "Companies A, B in Merger Talks", Keywords: "business, merger", StockTickers: "NASDAQ:A, NASDAQ:B",
		},
		Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/p"}, {Hreflang: "x-default", Href: "https://www.example.com/p"}},
	},
}

// rtWrite writes urls as a document of format f; it returns the document
// and the URLs the Writer took.
func rtWrite(t testing.TB, f sitemap.Format, urls []sitemap.URL) ([]byte, []sitemap.URL) {
	t.Helper()
	var buf bytes.Buffer
	w := sitemap.NewWriter(&buf, f)
	var took []sitemap.URL
	for _, u := range urls {
		var err error
		if f == sitemap.FormatIndex {
			err = w.WriteIndex(&sitemap.IndexEntry{Loc: u.Loc, LastMod: u.LastMod})
			u = sitemap.URL{Loc: u.Loc, LastMod: u.LastMod}
		} else {
			if f == sitemap.FormatText {
				u = sitemap.URL{Loc: u.Loc}
			}
			err = w.WriteURL(&u)
		}
		var v *sitemap.Violation
		if errors.As(err, &v) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		took = append(took, u)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), took
}

func rtReadBack(t testing.TB, doc []byte, f sitemap.Format) []sitemap.URL {
	t.Helper()
	r := sitemap.NewReader(bytes.NewReader(doc))
	r.OnNotice = func(n sitemap.Notice) {
		// The Writer keeps deprecated fields the input carries, for
		// fidelity; anything else it writes must read back silently.
		if n.Rule != sitemap.RuleDeprecatedTag {
			t.Errorf("notice on the Writer's output: %+v\n%s", n, doc)
		}
	}
	var got []sitemap.URL
	for {
		u, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, doc)
		}
		got = append(got, *u)
	}
	if len(got) > 0 && r.Format() != f {
		t.Errorf("format %v, want %v", r.Format(), f)
	}
	return got
}

// TestRoundTrip: what the Writer writes, the Reader reads back identical,
// every extension field included, with no notice.
func TestRoundTrip(t *testing.T) {
	for _, f := range []sitemap.Format{sitemap.FormatURLSet, sitemap.FormatIndex, sitemap.FormatText} {
		t.Run(f.String(), func(t *testing.T) {
			doc, took := rtWrite(t, f, rtURLs)
			if len(took) != len(rtURLs) {
				t.Fatalf("the Writer took %d of %d URLs", len(took), len(rtURLs))
			}
			if got := rtReadBack(t, doc, f); !reflect.DeepEqual(got, took) {
				t.Errorf("read back:\n got %+v\nwant %+v", got, took)
			}
		})
	}
}

// FuzzRoundTrip writes fuzzed values in every text field the Writer takes
// and reads them back.
func FuzzRoundTrip(f *testing.F) {
	f.Add("a?b=1&c=<d>", "2024-01-01", "T & <x>", "caption ' \"", "de")
	f.Add("ümlaut/%20", "2024-01-01T10:00:00Z", "\u00a0x", "", "x-default")
	f.Fuzz(func(t *testing.T, path, lastmod, title, text, lang string) {
		u := rtURLs[2]
		u.Loc = "https://www.example.com/" + path
		u.LastMod = lastmod
		u.Images = []sitemap.Image{{Loc: "https://www.example.com/" + path + ".jpg", Caption: text, Title: title}}
		v := u.Videos[0]
		v.Title, v.Description, v.Tags = title, text, []string{text}
		u.Videos = []sitemap.Video{v}
		n := *u.News
		n.Title, n.Keywords = title, text
		u.News = &n
		u.Alternates = []sitemap.Alternate{{Hreflang: lang, Href: u.Loc}}
		for _, s := range []string{path, lastmod, title, text, lang} {
			// The Reader trims white space around values, as crawlers do.
			if strings.TrimFunc(s, unicode.IsSpace) != s || strings.ContainsAny(s, "\u200b\ufeff") {
				return
			}
		}
		doc, took := rtWrite(t, sitemap.FormatURLSet, []sitemap.URL{u})
		if got := rtReadBack(t, doc, sitemap.FormatURLSet); !reflect.DeepEqual(got, took) {
			t.Errorf("read back:\n got %+v\nwant %+v\n%s", got, took, doc)
		}
	})
}
