package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/zstd"
	"github.com/sitemapkit/sitemapkit/internal/longtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// rdResult is everything a Reader says about a document.
type rdResult struct {
	urls    []sitemap.URL
	pos     []string // "line:col" of each entry
	fields  []string // "loc@line:col lastmod@line:col" of each entry
	notices []string // "line:col rule"
	msgs    []string
	format  sitemap.Format
	err     error
}

func rdRead(t testing.TB, src io.Reader, setup func(*sitemap.Reader)) rdResult {
	t.Helper()
	var res rdResult
	r := sitemap.NewReader(src)
	r.Name = "doc.xml"
	r.OnNotice = func(n sitemap.Notice) {
		res.notices = append(res.notices, fmt.Sprintf("%d:%d %s", n.Pos.Line, n.Pos.Col, n.Rule))
		res.msgs = append(res.msgs, n.Msg)
	}
	if setup != nil {
		setup(r)
	}
	for i := 0; ; i++ {
		if i > 1e6 {
			t.Fatal("Read does not end")
		}
		u, err := r.Read()
		if err != nil {
			if err != io.EOF {
				res.err = err
			}
			break
		}
		res.urls = append(res.urls, *u)
		p := r.Pos()
		res.pos = append(res.pos, fmt.Sprintf("%d:%d", p.Line, p.Col))
		var f []string
		for _, name := range []string{"loc", "lastmod", "changefreq", "priority"} {
			if fp := r.FieldPos(name, 0); fp != p {
				f = append(f, fmt.Sprintf("%s@%d:%d", name, fp.Line, fp.Col))
			}
		}
		res.fields = append(res.fields, strings.Join(f, " "))
	}
	res.format = r.Format()
	return res
}

func locs(us []sitemap.URL) []string {
	var s []string
	for _, u := range us {
		s = append(s, u.Loc)
	}
	return s
}

const ns = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`

type rdCase struct {
	name    string
	in      string
	want    []sitemap.URL // compared in full when set
	locs    []string      // compared when want is nil
	pos     []string
	fields  []string
	notices []string
	format  sitemap.Format
	err     error  // errors.Is
	errPos  string // "line:col" of the *SyntaxError
	errMsg  string // substring of the error's text
}

var rdCases = []rdCase{
	// Formats.
	{
		name: "urlset",
		in: `<?xml version="1.0" encoding="UTF-8"?>
<urlset ` + ns + `>
  <url>
    <loc>http://www.example.com/</loc>
    <lastmod>2005-01-01</lastmod>
    <changefreq>monthly</changefreq>
    <priority>0.8</priority>
  </url>
  <url><loc>http://www.example.com/catalog?item=12&amp;desc=vacation_hawaii</loc><changefreq>weird</changefreq><priority>2</priority></url>
</urlset>
`,
		want: []sitemap.URL{
			{Loc: "http://www.example.com/", LastMod: "2005-01-01", ChangeFreq: "monthly", Priority: "0.8"},
			{Loc: "http://www.example.com/catalog?item=12&desc=vacation_hawaii", ChangeFreq: "weird", Priority: "2"},
		},
		pos:    []string{"3:3", "9:3"},
		fields: []string{"loc@4:5 lastmod@5:5 changefreq@6:5 priority@7:5", "loc@9:8 changefreq@9:82 priority@9:112"},
		format: sitemap.FormatURLSet,
	},
	{
		name: "sitemapindex",
		in: `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex ` + ns + `>
<sitemap><loc>http://www.example.com/sitemap1.xml.gz</loc><lastmod>2004-10-01T18:23:17+00:00</lastmod></sitemap>
<sitemap><loc>http://www.example.com/sitemap2.xml.gz</loc></sitemap>
</sitemapindex>`,
		want: []sitemap.URL{
			{Loc: "http://www.example.com/sitemap1.xml.gz", LastMod: "2004-10-01T18:23:17+00:00"},
			{Loc: "http://www.example.com/sitemap2.xml.gz"},
		},
		pos:    []string{"3:1", "4:1"},
		format: sitemap.FormatIndex,
	},
	{
		name:    "text",
		in:      "http://www.example.com/a\r\n\n  https://www.example.com/b  \n# a comment\nhttp://www.example.com/c",
		locs:    []string{"http://www.example.com/a", "https://www.example.com/b", "http://www.example.com/c"},
		pos:     []string{"1:1", "3:3", "5:1"},
		notices: []string{"4:1 invalid-url"},
		format:  sitemap.FormatText,
	},
	{
		name:   "text, lines ending in CR alone",
		in:     "http://www.example.com/a\rhttp://www.example.com/b\r\rhttp://www.example.com/c\r\nhttp://www.example.com/d\r",
		locs:   []string{"http://www.example.com/a", "http://www.example.com/b", "http://www.example.com/c", "http://www.example.com/d"},
		format: sitemap.FormatText,
	},
	{
		name:   "text, first line not a URL",
		in:     "\n\nhello world\nhttp://www.example.com/\n",
		err:    sitemap.ErrUnsupportedFormat,
		errPos: "3:1",
	},
	{
		name: "RSS 2.0",
		in: `<?xml version="1.0"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
<title>T</title><link>http://www.example.com/</link><atom:link href="http://www.example.com/feed" rel="self"/>
<item><title>A</title><link>http://www.example.com/a</link><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>
<item><link> http://www.example.com/b </link><pubDate>Wed, 2 Oct 2002 08:00:00 EST</pubDate></item>
<item><link>http://www.example.com/c</link><pubDate>2 Oct 2002 13:00 +0200</pubDate></item>
<item><link>http://www.example.com/d</link><pubDate>yesterday</pubDate></item>
<item><title>no link</title></item>
</channel></rss>`,
		want: []sitemap.URL{
			{Loc: "http://www.example.com/a", LastMod: "2003-06-10T04:00:00+00:00"},
			{Loc: "http://www.example.com/b", LastMod: "2002-10-02T08:00:00-05:00"},
			{Loc: "http://www.example.com/c", LastMod: "2002-10-02T13:00:00+02:00"},
			{Loc: "http://www.example.com/d", LastMod: "yesterday"},
		},
		pos:     []string{"4:1", "5:1", "6:1", "7:1"},
		fields:  []string{"loc@4:23 lastmod@4:60", "loc@5:7 lastmod@5:46", "loc@6:7 lastmod@6:44", "loc@7:7 lastmod@7:44"},
		notices: []string{"8:1 missing-tag"},
		format:  sitemap.FormatRSS,
	},
	{
		name: "RSS 1.0",
		in: `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="http://www.example.com/"><title>T</title><link>http://www.example.com/</link></channel>
<item rdf:about="http://www.example.com/a"><title>A</title><link>http://www.example.com/a</link><dc:date>2003-06-10T04:00:00Z</dc:date></item>
</rdf:RDF>`,
		want:   []sitemap.URL{{Loc: "http://www.example.com/a", LastMod: "2003-06-10T04:00:00Z"}},
		format: sitemap.FormatRSS,
	},
	{
		name: "Atom 1.0",
		in: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><link href="http://www.example.com/" rel="self"/>
<entry><title>A</title><link rel="edit" href="http://www.example.com/edit/a"/><link href="http://www.example.com/a"/><published>2003-12-13T08:29:29-04:00</published><updated>2003-12-13T18:30:02Z</updated></entry>
<entry><link rel="alternate" type="text/html" href="http://www.example.com/b"/><published>2004-01-01T00:00:00Z</published></entry>
<entry><title>none</title></entry>
</feed>`,
		want: []sitemap.URL{
			{Loc: "http://www.example.com/a", LastMod: "2003-12-13T18:30:02Z"},
			{Loc: "http://www.example.com/b", LastMod: "2004-01-01T00:00:00Z"},
		},
		notices: []string{"5:1 missing-tag"},
		format:  sitemap.FormatAtom,
	},
	{
		name: "Atom 0.3",
		in: `<feed version="0.3" xmlns="http://purl.org/atom/ns#">
<entry><link rel="alternate" type="text/html" href="http://www.example.com/a"/><modified>2003-12-13T18:30:02Z</modified><issued>2003-12-13T08:29:29-04:00</issued></entry>
</feed>`,
		want:   []sitemap.URL{{Loc: "http://www.example.com/a", LastMod: "2003-12-13T18:30:02Z"}},
		format: sitemap.FormatAtom,
	},
	{
		// Feeds whose elements are in a namespace of their own: the
		// RSS 2.0 drafts' default namespace, RSS 0.9's, and an Atom feed
		// without Atom's. The <item> or <entry> was read whatever its
		// namespace; its <link> is in the same one. An atom:link of an
		// RSS item is still not its link.
		name: "feeds in other namespaces",
		in: `<rss version="2.0" xmlns="http://backend.userland.com/rss2" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
<item><atom:link href="http://www.example.com/self" rel="self"/><link>http://www.example.com/a</link><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>
</channel></rss>`,
		want:   []sitemap.URL{{Loc: "http://www.example.com/a", LastMod: "2003-06-10T04:00:00+00:00"}},
		format: sitemap.FormatRSS,
	},
	{
		name: "RSS 0.9",
		in: `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
<channel><title>T</title><link>http://www.example.com/</link></channel>
<item><title>A</title><link>http://www.example.com/a</link></item>
</rdf:RDF>`,
		want:   []sitemap.URL{{Loc: "http://www.example.com/a"}},
		format: sitemap.FormatRSS,
	},
	{
		// An Atom link is an IRI reference resolved against xml:base
		// (RFC 4287 §4.2.7.1): the feed's, the entry's (itself relative
		// to the feed's) and the link's own; an empty xml:base keeps the
		// one in force (RFC 3986 §5.2.2). Without an absolute base the
		// href is kept as written, for lint to report.
		name: "Atom xml:base",
		in: `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://www.example.com/blog/">
<entry><link rel="alternate" href="a"/></entry>
<entry xml:base="http://other.example/x/"><link href="../b"/></entry>
<entry xml:base="sub/"><link href="c?x=1&amp;y=2"/></entry>
<entry><link xml:base="/root/" href="d"/></entry>
<entry><link href="http://absolute.example/e"/></entry>
<entry xml:base=""><link xml:base="" href="f"/></entry>
</feed>
<!-- -->`,
		want: []sitemap.URL{
			{Loc: "http://www.example.com/blog/a"}, {Loc: "http://other.example/b"}, {Loc: "http://www.example.com/blog/sub/c?x=1&y=2"},
			{Loc: "http://www.example.com/root/d"}, {Loc: "http://absolute.example/e"}, {Loc: "http://www.example.com/blog/f"},
		},
		format: sitemap.FormatAtom,
	},
	{
		name:   "Atom relative link without a base",
		in:     `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="/a"/></entry></feed>`,
		want:   []sitemap.URL{{Loc: "/a"}},
		format: sitemap.FormatAtom,
	},
	{
		name:   "Atom without a namespace",
		in:     `<feed><entry><link rel="alternate" href="http://www.example.com/a"/><updated>2003-12-13T18:30:02Z</updated></entry></feed>`,
		want:   []sitemap.URL{{Loc: "http://www.example.com/a", LastMod: "2003-12-13T18:30:02Z"}},
		format: sitemap.FormatAtom,
	},
	{
		name: "extensions",
		in: `<urlset ` + ns + ` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>http://www.example.com/p</loc>
<image:image><image:loc>http://www.example.com/i.jpg</image:loc><image:caption>C &amp; D</image:caption><image:geo_location>Limerick, Ireland</image:geo_location><image:title>T</image:title><image:license>http://www.example.com/l</image:license></image:image>
<image:image><image:loc>http://www.example.com/j.jpg</image:loc></image:image>
<video:video>
  <video:thumbnail_loc>http://www.example.com/t.jpg</video:thumbnail_loc>
  <video:title><![CDATA[ Grilling <steaks> ]]></video:title>
  <video:description>Alkis shows you how.</video:description>
  <video:content_loc>http://streamserver.example.com/video123.mp4</video:content_loc>
  <video:player_loc allow_embed="yes" autoplay="ap=1">http://www.example.com/player?v=1</video:player_loc>
  <video:duration>600</video:duration>
  <video:expiration_date>2021-11-05T19:20:30+08:00</video:expiration_date>
  <video:rating>4.2</video:rating>
  <video:content_segment_loc duration="1">http://www.example.com/seg</video:content_segment_loc>
  <video:view_count>12345</video:view_count>
  <video:publication_date>2007-11-05T19:20:30+08:00</video:publication_date>
  <video:tag>steak</video:tag><video:tag>meat</video:tag>
  <video:category>Grilling</video:category>
  <video:family_friendly>yes</video:family_friendly>
  <video:restriction relationship="allow">IE GB US CA</video:restriction>
  <video:gallery_loc title="Cooking Videos">http://www.example.com/g</video:gallery_loc>
  <video:price currency="EUR" type="rent" resolution="hd">1.99</video:price>
  <video:requires_subscription>yes</video:requires_subscription>
  <video:uploader info="http://www.example.com/users/grillymcgrillerson">GrillyMcGrillerson</video:uploader>
  <video:tvshow><video:show_title>S</video:show_title></video:tvshow>
  <video:platform relationship="allow">web tv</video:platform>
  <video:live>no</video:live>
  <video:id type="url">http://www.example.com/id</video:id>
</video:video>
<news:news><news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication><news:access>Subscription</news:access><news:genres>Blog</news:genres><news:publication_date>2008-12-23</news:publication_date><news:title>Companies A, B in Merger Talks</news:title><news:keywords>business, merger</news:keywords><news:stock_tickers>NASDAQ:A, NASDAQ:B</news:stock_tickers></news:news>
<xhtml:link rel="alternate" hreflang="de" href="http://www.example.com/de/p"/>
<xhtml:link rel="alternate" hreflang="x-default" href="http://www.example.com/p"/>
<xhtml:link rel="amphtml" href="http://www.example.com/amp/p"/>
<xhtml:link rel="alternate" href="android-app://com.example/p"/>
</url>
</urlset>`,
		want: []sitemap.URL{{
			Loc: "http://www.example.com/p",
			Images: []sitemap.Image{
				{Loc: "http://www.example.com/i.jpg", Caption: "C & D", GeoLocation: "Limerick, Ireland", Title: "T", License: "http://www.example.com/l"},
				{Loc: "http://www.example.com/j.jpg"},
			},
			Videos: []sitemap.Video{{
				ThumbnailLoc: "http://www.example.com/t.jpg", Title: "Grilling <steaks>", Description: "Alkis shows you how.",
				ContentLoc: "http://streamserver.example.com/video123.mp4", PlayerLoc: "http://www.example.com/player?v=1",
				Duration: "600", ExpirationDate: "2021-11-05T19:20:30+08:00", Rating: "4.2", ViewCount: "12345",
				PublicationDate: "2007-11-05T19:20:30+08:00", Tags: []string{"steak", "meat"}, Category: "Grilling",
				FamilyFriendly: "yes", Restriction: &sitemap.Restriction{Relationship: "allow", Countries: "IE GB US CA"},
				GalleryLoc: "http://www.example.com/g", Prices: []sitemap.Price{{Value: "1.99", Currency: "EUR", Type: "rent", Resolution: "hd"}},
				RequiresSubscription: "yes", Uploader: &sitemap.Uploader{Name: "GrillyMcGrillerson", Info: "http://www.example.com/users/grillymcgrillerson"},
				Platform: &sitemap.Platform{Relationship: "allow", Platforms: "web tv"}, Live: "no",
			}},
			News: &sitemap.News{
				Publication: sitemap.Publication{Name: "The Example Times", Language: "en"}, Access: "Subscription", Genres: "Blog",
				PublicationDate: "2008-12-23", Title: "Companies A, B in Merger Talks", Keywords: "business, merger", StockTickers: "NASDAQ:A, NASDAQ:B",
			},
			Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "http://www.example.com/de/p"}, {Hreflang: "x-default", Href: "http://www.example.com/p"}},
		}},
		// Google's deprecated tags and attributes, each where it starts;
		// content_segment_loc and id are not deprecated, only unused.
		notices: []string{
			"3:65 deprecated-tag", "3:105 deprecated-tag", "3:163 deprecated-tag", "3:191 deprecated-tag", // image caption, geo_location, title, license
			"10:3 deprecated-tag", "10:3 deprecated-tag", // player_loc autoplay, allow_embed
			"18:3 deprecated-tag", "21:3 deprecated-tag", "22:3 deprecated-tag", "25:3 deprecated-tag", // category, gallery_loc, price, tvshow
		},
		format: sitemap.FormatURLSet,
	},

	// Tolerated, silently.
	{
		name:   "byte order mark",
		in:     "\ufeff<?xml version=\"1.0\"?><urlset " + ns + "><url><loc>http://a.example/</loc></url></urlset>",
		locs:   []string{"http://a.example/"},
		pos:    []string{"1:85"}, // columns count bytes, the BOM's three included
		format: sitemap.FormatURLSet,
	},
	{
		name: "CDATA, comments, processing instructions, entities",
		in: `<?xml version="1.0"?><!-- generator -->
<?xml-stylesheet type="text/xsl" href="s.xsl"?>
<urlset ` + ns + `><!-- c -->
<url><!-- a comment --><loc><![CDATA[http://a.example/?a=1&b=<2>]]></loc><?pi x?></url>
<url><loc>http://a.example/&lt;&gt;&quot;&apos;&#233;&#x20AC;<!-- x --></loc></url>
<url><loc>  <![CDATA[ http://a.example/c ]]>  </loc></url>
</urlset>`,
		locs: []string{"http://a.example/?a=1&b=<2>", "http://a.example/<>\"'é€", "http://a.example/c"},
	},
	{
		name: "Unicode spaces around values",
		in:   "<urlset " + ns + "><url><loc>\u00a0\u2003\thttp://a.example/\u00a0\u3000\n</loc><lastmod> 2024-01-01\u00a0</lastmod></url></urlset>",
		want: []sitemap.URL{{Loc: "http://a.example/", LastMod: "2024-01-01"}},
	},
	{
		name: "prefixed sitemap namespace",
		in:   `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>http://a.example/</sm:loc><sm:priority>0.5</sm:priority></sm:url></sm:urlset>`,
		want: []sitemap.URL{{Loc: "http://a.example/", Priority: "0.5"}},
	},
	{
		name: "extension namespace under another prefix",
		in:   `<urlset ` + ns + ` xmlns:i="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>http://a.example/</loc><i:image><i:loc>http://a.example/i.png</i:loc></i:image></url></urlset>`,
		want: []sitemap.URL{{Loc: "http://a.example/", Images: []sitemap.Image{{Loc: "http://a.example/i.png"}}}},
	},
	{
		name: "default namespace redeclared on an extension",
		in:   `<urlset ` + ns + `><url><loc>http://a.example/</loc><image xmlns="http://www.google.com/schemas/sitemap-image/1.1"><loc>http://a.example/i.png</loc></image></url></urlset>`,
		want: []sitemap.URL{{Loc: "http://a.example/", Images: []sitemap.Image{{Loc: "http://a.example/i.png"}}}},
	},

	{
		// XML reads CR LF, and a CR alone, as LF (§2.11), in text and
		// in CDATA; a CR written as &#13; stays one.
		name:    "line ends in values",
		in:      "<urlset " + ns + " xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"><url><loc>http://a.example/</loc><image:image><image:loc>http://a.example/i.png</image:loc><image:caption>a\r\nb\rc&#13;\nd\u00e9\r\n\re</image:caption><image:title><![CDATA[x\r\ny\rz]]></image:title></image:image></url></urlset>",
		want:    []sitemap.URL{{Loc: "http://a.example/", Images: []sitemap.Image{{Loc: "http://a.example/i.png", Caption: "a\nb\nc\r\nd\u00e9\n\ne", Title: "x\ny\nz"}}}},
		notices: []string{"1:214 deprecated-tag", "6:18 deprecated-tag"},
	},

	// Tolerated, noticed.
	{
		name:    "leading whitespace",
		in:      "\n  <?xml version=\"1.0\"?>\n<urlset " + ns + "><url><loc>http://a.example/</loc></url></urlset>",
		locs:    []string{"http://a.example/"},
		notices: []string{"1:1 leading-whitespace"},
	},
	{
		// A script's warning printed before the sitemap: text, then the
		// XML declaration.
		name:    "text before the XML declaration",
		in:      "Warning: Cannot modify header information in /var/www/x.php on line 3\n<?xml version=\"1.0\"?>\n<urlset " + ns + "><url><loc>http://a.example/</loc></url></urlset>",
		locs:    []string{"http://a.example/"},
		notices: []string{"1:1 leading-whitespace"},
	},
	{
		name:    "HTML before the XML declaration",
		in:      "\n<br />\n<b>Warning</b>:  Cannot modify header information in <b>/var/www/x.php</b> on line <b>3</b><br />\n<?xml version=\"1.0\"?>\n<urlset " + ns + "><url><loc>http://a.example/</loc></url></urlset>",
		locs:    []string{"http://a.example/"},
		notices: []string{"1:1 leading-whitespace"},
	},
	{
		// A stylesheet and a comment between the declaration and the root.
		name:    "text before the XML declaration and a stylesheet",
		in:      "Warning: x\n<?xml version=\"1.0\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"/s.xsl\"?>\n<!-- by a plugin -->\n<urlset " + ns + "><url><loc>http://a.example/</loc></url></urlset>",
		locs:    []string{"http://a.example/"},
		notices: []string{"1:1 leading-whitespace"},
	},
	{
		name:    "text before the XML declaration of an index",
		in:      "Notice: Undefined index: page\n<?xml version='1.0' encoding='UTF-8'?><sitemapindex " + ns + "><sitemap><loc>http://a.example/s.xml</loc></sitemap></sitemapindex>",
		locs:    []string{"http://a.example/s.xml"},
		notices: []string{"1:1 leading-whitespace"},
	},
	{
		name:    "url in an index",
		in:      "<sitemapindex " + ns + "><sitemap><loc>http://a.example/s.xml</loc></sitemap><url><loc>http://a.example/</loc></url></sitemapindex>",
		locs:    []string{"http://a.example/s.xml"},
		notices: []string{"1:119 unknown-tag"},
	},
	{
		name:    "sitemap in a urlset",
		in:      "<urlset " + ns + "><sitemap><loc>http://a.example/s.xml</loc></sitemap><url><loc>http://a.example/</loc></url></urlset>",
		locs:    []string{"http://a.example/"},
		notices: []string{"1:61 unknown-tag"},
	},
	{
		name:    "BOM then whitespace",
		in:      "\ufeff \n<urlset " + ns + "><url><loc>http://a.example/</loc></url></urlset>",
		locs:    []string{"http://a.example/"},
		notices: []string{"1:4 leading-whitespace"},
	},
	{
		name:    "no namespace",
		in:      "<urlset>\n<url><loc>http://a.example/</loc></url></urlset>",
		locs:    []string{"http://a.example/"},
		notices: []string{"1:1 incorrect-namespace"},
	},
	{
		name:    "https namespace",
		in:      `<urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://a.example/</loc></url></urlset>`,
		locs:    []string{"http://a.example/"},
		notices: []string{"1:1 incorrect-namespace"},
	},
	{
		name:    "child un-declares the namespace",
		in:      "<urlset " + ns + ">\n<url xmlns=\"\"><loc>http://a.example/</loc></url></urlset>",
		locs:    []string{"http://a.example/"},
		notices: []string{"2:1 incorrect-namespace"},
	},
	{
		name:    "undeclared extension prefix",
		in:      "<urlset " + ns + ">\n<url><loc>http://a.example/</loc><image:image><image:loc>http://a.example/i</image:loc></image:image></url>\n<url><loc>http://a.example/2</loc><image:image><image:loc>http://a.example/j</image:loc></image:image></url></urlset>",
		want:    []sitemap.URL{{Loc: "http://a.example/", Images: []sitemap.Image{{Loc: "http://a.example/i"}}}, {Loc: "http://a.example/2", Images: []sitemap.Image{{Loc: "http://a.example/j"}}}},
		notices: []string{"2:34 parse-error"},
	},
	{
		name: "unknown tags",
		in: "<urlset " + ns + " xmlns:mobile=\"http://www.google.com/schemas/sitemap-mobile/1.0\">\n<foo>This is not a good tag</foo>\n" +
			"<url><loc>http://a.example/</loc><mobile:mobile/><bar><baz/></bar></url>\n<sitemap><loc>http://a.example/s.xml</loc></sitemap></urlset>",
		locs:    []string{"http://a.example/"},
		notices: []string{"2:1 unknown-tag", "3:34 unknown-tag", "3:50 unknown-tag", "4:1 unknown-tag"},
	},
	{
		name: "element order",
		in: "<urlset " + ns + " xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" xmlns:video=\"http://www.google.com/schemas/sitemap-video/1.1\">\n" +
			"<url><lastmod>2024-01-01</lastmod><loc>http://a.example/</loc></url>\n" +
			"<url><loc>http://a.example/2</loc><image:image><image:loc>http://a.example/i</image:loc></image:image><priority>0.5</priority></url>\n" +
			"<url><loc>http://a.example/3</loc><loc>http://a.example/4</loc></url>\n" +
			"<url><loc>http://a.example/5</loc><video:video><video:title>T</video:title><video:thumbnail_loc>http://a.example/t</video:thumbnail_loc></video:video></url>\n" +
			"</urlset>",
		want: []sitemap.URL{
			{Loc: "http://a.example/", LastMod: "2024-01-01"},
			{Loc: "http://a.example/2", Priority: "0.5", Images: []sitemap.Image{{Loc: "http://a.example/i"}}},
			{Loc: "http://a.example/3"},
			{Loc: "http://a.example/5", Videos: []sitemap.Video{{Title: "T", ThumbnailLoc: "http://a.example/t"}}},
		},
		fields:  []string{"loc@2:35 lastmod@2:6", "loc@3:6 priority@3:103", "loc@4:6", "loc@5:6"},
		notices: []string{"2:35 element-order", "3:103 element-order", "4:35 element-order", "5:76 element-order"},
	},
	{
		name: "missing tags",
		in: "<urlset " + ns + " xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n" +
			"<url><lastmod>2024-01-01</lastmod></url>\n<url><loc> </loc></url>\n<url/>\n" +
			"<url><loc>http://a.example/</loc><image:image><image:caption>c</image:caption></image:image><xhtml:link rel=\"alternate\" hreflang=\"de\"/></url>\n" +
			"</urlset>",
		want:    []sitemap.URL{{Loc: "http://a.example/"}}, // the image without image:loc is dropped, the page kept
		notices: []string{"2:1 missing-tag", "3:1 missing-tag", "4:1 missing-tag", "5:47 deprecated-tag", "5:34 missing-tag", "5:93 missing-tag"},
	},
	{
		// rel is an HTML link type, matched without regard to case; a
		// link without rel, or with an hreflang under another rel, is
		// not an alternate, and is noticed rather than dropped silently
		// (sitemap.js warns "missing required rel or href"). Links with
		// another rel and no hreflang (amphtml) are not sitemap data.
		name: "xhtml:link rel",
		in: "<urlset " + ns + " xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n<url><loc>http://a.example/</loc>\n" +
			"<xhtml:link rel=\"Alternate\" hreflang=\"de\" href=\"http://a.example/de\"/>\n" +
			"<xhtml:link hreflang=\"fr\" href=\"http://a.example/fr\"/>\n" +
			"<xhtml:link/>\n" +
			"<xhtml:link rel=\"canonical\" hreflang=\"it\" href=\"http://a.example/it\"/>\n" +
			"<xhtml:link rel=\"amphtml\" href=\"http://a.example/amp\"/>\n" +
			"</url></urlset>",
		want:    []sitemap.URL{{Loc: "http://a.example/", Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "http://a.example/de"}}}},
		notices: []string{"4:1 missing-tag", "5:1 missing-tag", "6:1 invalid-hreflang"},
	},
	{
		// XML allows any number of leading zeros in a character
		// reference: a long one is a character, not a bare '&'.
		name: "character references with leading zeros",
		in:   "<urlset " + ns + "><url><loc>http://a.example/&#x0000000041;&#0000000000066;&#x00000000000000000000000000000000000000043;</loc></url></urlset>",
		locs: []string{"http://a.example/ABC"},
	},
	{
		name:    "undefined entity and bare ampersand",
		in:      "<urlset " + ns + ">\n<url><loc>http://a.example/?a=1&b=2&nbsp;</loc></url></urlset>",
		locs:    []string{"http://a.example/?a=1&b=2&nbsp;"},
		notices: []string{"2:32 parse-error", "2:36 parse-error"},
	},
	{
		name:    "invalid characters",
		in:      "<urlset " + ns + ">\n<url><loc>http://a.example/\x01</loc></url>\n<url><loc>http://a.example/\xff</loc></url>\n<url><loc>http://a.example/&#0;</loc></url></urlset>",
		locs:    []string{"http://a.example/\x01", "http://a.example/\xff", "http://a.example/\x00"},
		notices: []string{"2:28 invalid-character", "3:28 invalid-character", "4:28 invalid-character"},
	},
	{
		name:    "text outside elements, and HTML after the root",
		in:      "<urlset " + ns + ">\nstray\n<url><loc>http://a.example/</loc>x</url></urlset>\n<br />\n<b>Warning</b>: PHP",
		locs:    []string{"http://a.example/"},
		notices: []string{"2:1 parse-error", "3:34 parse-error", "4:1 parse-error"}, // the junk's text is the junk's
	},
	{
		name:    "XML declaration with another encoding",
		in:      `<?xml version="1.0" encoding="ISO-8859-1"?><urlset ` + ns + `><url><loc>http://a.example/</loc></url></urlset>`,
		locs:    []string{"http://a.example/"},
		notices: []string{"1:21 invalid-character"},
	},

	// Refused.
	{
		// A second document run into the first: its entries are not
		// read, which a reader of the first must be told.
		name:   "an element after the root",
		in:     "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url></urlset>\n<urlset " + ns + "><url><loc>http://a.example/2</loc></url></urlset>",
		locs:   []string{"http://a.example/1"},
		errMsg: "element <urlset> after the root element </urlset> (not read)",
		errPos: "3:1",
	},
	{
		// Appended HTML is often no XML: its syntax is the junk's, and
		// the entries were read whole.
		name:    "HTML that is no XML after the root",
		in:      "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url></urlset>\n<br>\n<script>if (a < b) {}</script>",
		locs:    []string{"http://a.example/1"},
		notices: []string{"3:1 parse-error"},
	},
	{
		// An unclosed <br> does not take the rest with it: what lies
		// inside junk is looked at too.
		name:    "a second urlset after unclosed junk",
		in:      "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url></urlset>\n<br>\n<urlset " + ns + "><url><loc>http://a.example/2</loc></url></urlset>",
		locs:    []string{"http://a.example/1"},
		notices: []string{"3:1 parse-error"},
		errMsg:  "element <urlset> after the root element </urlset> (not read)",
		errPos:  "4:1",
	},
	{
		name:    "an entry after the root, past other content",
		in:      "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url></urlset>\n<br/><b>x</b>\n<url><loc>http://a.example/2</loc></url>",
		locs:    []string{"http://a.example/1"},
		notices: []string{"3:1 parse-error"},
		errMsg:  "element <url> after the root element </urlset> (not read)",
		errPos:  "4:1",
	},
	{
		name:   "an entry after the root",
		in:     "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url></urlset>\n<url><loc>http://a.example/2</loc></url>",
		locs:   []string{"http://a.example/1"},
		errMsg: "element <url> after the root element </urlset> (not read)",
		errPos: "3:1",
	},
	{
		name:   "truncated",
		in:     "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url>\n<url><loc>http://a.exa",
		locs:   []string{"http://a.example/1"},
		err:    io.ErrUnexpectedEOF,
		errPos: "3:23", // just after the last byte
	},
	{
		// XML reads a CR alone as a line end, as classic Mac OS wrote
		// them: positions count those lines (all were on line 1).
		name:   "truncated, lines ending in CR alone",
		in:     "<urlset " + ns + ">\r<url><loc>http://a.example/1</loc></url>\r<url><loc>http://a.exa",
		locs:   []string{"http://a.example/1"},
		err:    io.ErrUnexpectedEOF,
		errPos: "3:23",
	},
	{
		// The first read of a document ends after 4 KiB: a CR there
		// still ends one line with the LF after it.
		name:   "truncated, CR LF across the first read",
		in:     `<?xml version="1.0" encoding="UTF-8"?>` + strings.Repeat(" ", 4095-38) + "\r\n<urlset " + ns + ">\r\n<url><loc>http://a.example/1</loc></url>\r\n<url><loc>http://a.exa",
		locs:   []string{"http://a.example/1"},
		err:    io.ErrUnexpectedEOF,
		errPos: "4:23",
	},
	{
		name:   "truncated, CR alone after a first line of 5 KB",
		in:     `<?xml version="1.0" encoding="UTF-8"?><!--` + strings.Repeat("x", 5000) + "-->\r<urlset " + ns + ">\r<url><loc>http://a.example/1</loc></url>\r<url><loc>http://a.exa",
		locs:   []string{"http://a.example/1"},
		err:    io.ErrUnexpectedEOF,
		errPos: "4:23",
	},
	{
		name:   "truncated, line ends mixed",
		in:     "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url>\r<url><loc>http://a.example/2</loc></url>\r\n\n<url><loc>http://a.exa",
		locs:   []string{"http://a.example/1", "http://a.example/2"},
		err:    io.ErrUnexpectedEOF,
		errPos: "5:23",
	},
	{
		name:   "truncated after the last entry",
		in:     "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url>\n",
		locs:   []string{"http://a.example/1"},
		err:    io.ErrUnexpectedEOF,
		errPos: "3:1",
	},
	{
		name:   "mismatched end tag",
		in:     "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url>\n<url><loc>http://a.example/2</lastmod></url></urlset>",
		locs:   []string{"http://a.example/1"},
		errPos: "3:29",
		errMsg: "element <loc> closed by </lastmod>",
	},
	{
		name:   "unescaped < in text",
		in:     "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc><changefreq>always<</changefreq></url></urlset>",
		errPos: "2:54",
		errMsg: "invalid character '<' at the start of a tag name",
	},
	{
		name:    "attribute without value",
		in:      "<urlset><url does not close</urlset>",
		errMsg:  "attribute does without a quoted value",
		errPos:  "1:19",
		notices: []string{"1:1 incorrect-namespace"},
	},
	{
		name:   "DOCTYPE",
		in:     "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<urlset " + ns + "><url><loc>http://a.example/&xxe;</loc></url></urlset>",
		err:    sitemap.ErrDoctype,
		errPos: "2:1",
	},
	{
		name:   "billion laughs",
		in:     "<!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]><lolz>&lol2;</lolz>",
		err:    sitemap.ErrDoctype,
		errPos: "1:1",
	},
	{
		name:   "ENTITY without DOCTYPE",
		in:     "<urlset " + ns + "><!ENTITY x \"y\"><url><loc>http://a.example/</loc></url></urlset>",
		err:    sitemap.ErrDoctype,
		errPos: "1:61",
	},
	{name: "HTML doctype", in: "<!DOCTYPE html>\n<html><body>404</body></html>", err: sitemap.ErrHTML, errPos: "1:1"},
	{name: "HTML lower-case doctype", in: "\n\n<!doctype html><html lang=en>", err: sitemap.ErrHTML, errPos: "3:1", notices: []string{"1:1 leading-whitespace"}},
	// An XML declaration in a page, but no sitemap after it: the page.
	{name: "HTML with an XML declaration inside", in: "<html><body><pre><?xml version=\"1.0\"?></pre></body></html>", err: sitemap.ErrHTML, errPos: "1:1"},
	// An SVG pasted into a page with its declaration, and the rdf:RDF of
	// its metadata: the element after the declaration is no sitemap's.
	{name: "HTML with an inline SVG and its declaration", in: "<html><body>\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><metadata><rdf:RDF/></metadata></svg></body></html>", err: sitemap.ErrHTML, errPos: "1:1"},
	{name: "HTML without doctype", in: "<html lang=en><head><title>x</title></head></html>", err: sitemap.ErrHTML, errPos: "1:1"},
	{name: "XHTML", in: `<?xml version="1.0"?>` + "\n" + `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html xmlns="http://www.w3.org/1999/xhtml"/>`, err: sitemap.ErrHTML, errPos: "2:1"},
	{name: "HTML root with namespace", in: `<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`, err: sitemap.ErrHTML, errPos: "1:1"},
	{name: "other XML", in: "<?xml version=\"1.0\"?>\n<products><product/></products>", err: sitemap.ErrUnsupportedFormat, errPos: "2:1"},
	{name: "JSON", in: `{"urls": ["http://a.example/"]}`, err: sitemap.ErrUnsupportedFormat, errPos: "1:1"},
	{name: "empty", in: "", err: sitemap.ErrUnsupportedFormat, errPos: "1:1"},
	{name: "white space only", in: " \n\t\n", err: sitemap.ErrUnsupportedFormat, errPos: "3:1"},
	{name: "prolog only", in: "<?xml version=\"1.0\"?><!-- nothing -->", err: sitemap.ErrUnsupportedFormat},
	{name: "UTF-16", in: "\xff\xfe<\x00u\x00", err: sitemap.ErrUnsupportedFormat, errPos: "1:1"},
	{name: "binary", in: "\x00\x01\x02\x03 garbage", err: sitemap.ErrUnsupportedFormat, errPos: "1:1"},
	{name: "deep nesting", in: "<urlset " + ns + "><url><x>" + strings.Repeat("<a>", 300), errMsg: "nested too deeply", notices: []string{"1:66 unknown-tag"}},
	{name: "token too long", in: "<urlset " + ns + "><url " + strings.Repeat("a=\"b\" ", 50000) + ">", errMsg: "token too long",
		notices: []string{"1:72 parse-error"}}, // the attribute given twice, once
	// What open elements keep is bounded: their names and the namespace
	// declarations in scope (four documents of 80 KB gzipped held 200 MB).
	{name: "long element name", in: "<urlset " + ns + "><url><" + strings.Repeat("a", 1025) + ">", errMsg: "element name too long", errPos: "1:66"},
	{name: "element name of 1 KiB", in: "<urlset " + ns + "><url><loc>http://a.example/</loc><" + strings.Repeat("a", 1024) + "/></url></urlset>",
		locs: []string{"http://a.example/"}, notices: []string{"1:94 unknown-tag"}},
	{name: "long namespace declarations in scope", in: "<urlset " + ns + "><x xmlns:a=\"" + strings.Repeat("u", 40<<10) + "\"><y xmlns:b=\"" + strings.Repeat("u", 40<<10) + "\">",
		errMsg: "too many namespace declarations", notices: []string{"1:61 unknown-tag"}},
	{name: "unclosed comment", in: "<urlset " + ns + "><!-- ", err: io.ErrUnexpectedEOF},
}

func TestReader(t *testing.T) {
	for _, c := range rdCases {
		t.Run(c.name, func(t *testing.T) {
			got := rdRead(t, strings.NewReader(c.in), nil)
			rdCheck(t, c, got)
			// The same document read one byte at a time gives the same.
			slow := rdRead(t, iotest.OneByteReader(strings.NewReader(c.in)), nil)
			if !reflect.DeepEqual(slow.urls, got.urls) || !reflect.DeepEqual(slow.pos, got.pos) ||
				!reflect.DeepEqual(slow.notices, got.notices) || fmt.Sprint(slow.err) != fmt.Sprint(got.err) {
				t.Errorf("one byte at a time:\n%+v\n%v %v\nwant\n%+v\n%v %v", slow.urls, slow.notices, slow.err, got.urls, got.notices, got.err)
			}
		})
	}
}

func rdCheck(t *testing.T, c rdCase, got rdResult) {
	t.Helper()
	if c.want != nil {
		if !reflect.DeepEqual(got.urls, c.want) {
			t.Errorf("entries:\n got %+v\nwant %+v", got.urls, c.want)
		}
	} else if !reflect.DeepEqual(locs(got.urls), c.locs) {
		t.Errorf("locs:\n got %q\nwant %q", locs(got.urls), c.locs)
	}
	if c.pos != nil && !reflect.DeepEqual(got.pos, c.pos) {
		t.Errorf("positions: got %q, want %q", got.pos, c.pos)
	}
	if c.fields != nil && !reflect.DeepEqual(got.fields, c.fields) {
		t.Errorf("field positions:\n got %q\nwant %q", got.fields, c.fields)
	}
	if !reflect.DeepEqual(got.notices, c.notices) {
		t.Errorf("notices:\n got %q\nwant %q\n(messages %q)", got.notices, c.notices, got.msgs)
	}
	if c.format != sitemap.FormatUnknown && got.format != c.format {
		t.Errorf("format %v, want %v", got.format, c.format)
	}
	wantErr := c.err != nil || c.errMsg != "" || c.errPos != ""
	if !wantErr {
		if got.err != nil {
			t.Errorf("error %v, want none", got.err)
		}
		return
	}
	if got.err == nil {
		t.Fatalf("no error, want %v %q", c.err, c.errMsg)
	}
	if c.err != nil && !errors.Is(got.err, c.err) {
		t.Errorf("error %v, want %v", got.err, c.err)
	}
	if !strings.Contains(got.err.Error(), c.errMsg) {
		t.Errorf("error %q, want it to contain %q", got.err, c.errMsg)
	}
	var se *sitemap.SyntaxError
	if !errors.As(got.err, &se) {
		t.Fatalf("error %v (%T) is not a *SyntaxError", got.err, got.err)
	}
	if se.File != "doc.xml" {
		t.Errorf("error names %q, want doc.xml", se.File)
	}
	if c.errPos != "" {
		if p := fmt.Sprintf("%d:%d", se.Line, se.Col); p != c.errPos {
			t.Errorf("error at %s, want %s (%v)", p, c.errPos, got.err)
		}
	} else if se.Line < 1 || se.Col < 1 {
		t.Errorf("error without a position: %+v", se)
	}
}

func gzipBytes(t testing.TB, b []byte) []byte {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

func zstdBytes(t testing.TB, b []byte) []byte {
	w, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	return w.EncodeAll(b, nil)
}

const smallSitemap = "<urlset " + ns + ">\n<url><loc>http://a.example/1</loc></url>\n<url><loc>http://a.example/2</loc></url>\n</urlset>\n"

func TestReaderCompressed(t *testing.T) {
	for _, c := range []struct {
		name, comp string
		data       []byte
	}{
		{"gzip", "gzip", gzipBytes(t, []byte(smallSitemap))},
		{"zstd", "zstd", zstdBytes(t, []byte(smallSitemap))},
		{"gzip of two members", "gzip", append(gzipBytes(t, []byte(smallSitemap[:50])), gzipBytes(t, []byte(smallSitemap[50:]))...)},
		{"plain", "", []byte(smallSitemap)},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := sitemap.NewReader(bytes.NewReader(c.data))
			var got []string
			for u, err := range r.All() {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, u.Loc)
			}
			if want := []string{"http://a.example/1", "http://a.example/2"}; !reflect.DeepEqual(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
			if r.Compressed() != c.comp {
				t.Errorf("Compressed() = %q, want %q", r.Compressed(), c.comp)
			}
			if r.InputOffset() != int64(len(smallSitemap)) {
				t.Errorf("InputOffset() = %d, want %d", r.InputOffset(), len(smallSitemap))
			}
		})
	}
}

func TestReaderDamagedCompression(t *testing.T) {
	big := []byte("<urlset " + ns + ">\n" + strings.Repeat("<url><loc>http://a.example/x</loc></url>\n", 20000) + "</urlset>\n")
	gz := gzipBytes(t, big)
	bad := bytes.Clone(gz)
	bad[len(bad)-6] ^= 0xff // the CRC
	for _, c := range []struct {
		name string
		data []byte
		min  int // entries at least read before the error
	}{
		{"truncated gzip", gz[:len(gz)/2], 1},
		{"bad checksum", bad, 20000},
		{"bad header", append([]byte{0x1f, 0x8b, 9}, gz[3:]...), 0},
		{"truncated zstd", zstdBytes(t, big)[:200], 0},
		{"gzip magic only", []byte{0x1f, 0x8b}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := rdRead(t, bytes.NewReader(c.data), nil)
			if !errors.Is(res.err, sitemap.ErrCompression) {
				t.Fatalf("error %v, want ErrCompression", res.err)
			}
			if sitemap.ErrorRule(res.err) != sitemap.RuleCompressionError {
				t.Errorf("ErrorRule = %q", sitemap.ErrorRule(res.err))
			}
			if len(res.urls) < c.min || len(res.urls) > 20000 {
				t.Errorf("%d entries before the error, want %d to 20000", len(res.urls), c.min)
			}
			var se *sitemap.SyntaxError
			if !errors.As(res.err, &se) || se.Line < 1 {
				t.Errorf("error %v without a position", res.err)
			}
		})
	}
}

func TestReaderTooLarge(t *testing.T) {
	entry := "<url><loc>http://a.example/x</loc></url>\n"
	doc := "<urlset " + ns + ">\n" + strings.Repeat(entry, 100) + "</urlset>\n"
	for _, c := range []struct {
		name  string
		max   int64
		n     int
		fails bool
	}{
		{"at the limit", int64(len(doc)), 100, false},
		{"one byte over", int64(len(doc)) - 1, 100, true},
		{"half", int64(len(doc)) / 2, 49, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, data := range [][]byte{[]byte(doc), gzipBytes(t, []byte(doc)), zstdBytes(t, []byte(doc))} {
				res := rdRead(t, bytes.NewReader(data), func(r *sitemap.Reader) { r.MaxBytes = c.max })
				if c.fails != (res.err != nil) || c.fails && !errors.Is(res.err, sitemap.ErrTooLarge) {
					t.Fatalf("error %v, want too large: %v", res.err, c.fails)
				}
				if len(res.urls) < c.n-1 || len(res.urls) > c.n {
					t.Errorf("%d entries, want about %d", len(res.urls), c.n)
				}
			}
		})
	}
}

// A compression bomb stops at the cap, quickly and in bounded memory,
// whether it is a valid sitemap that goes on and on or padding.
func TestReaderBomb(t *testing.T) {
	longtest.Skip(t, "decompresses 200 MB bombs")
	var raw bytes.Buffer
	raw.WriteString("<urlset " + ns + ">\n<url><loc>http://a.example/</loc></url>\n")
	pad := bytes.Repeat([]byte("<!-- padding padding padding -->"), 1<<10)
	for raw.Len() < 200<<20 {
		raw.Write(pad)
	}
	for _, c := range []struct{ name, comp string }{{"gzip", "gzip"}, {"zstd", "zstd"}} {
		t.Run(c.name, func(t *testing.T) {
			var data []byte
			if c.comp == "gzip" {
				data = gzipBytes(t, raw.Bytes())
			} else {
				data = zstdBytes(t, raw.Bytes())
			}
			if len(data) > 2<<20 {
				t.Fatalf("bomb of %d bytes", len(data))
			}
			allocs := testing.AllocsPerRun(1, func() {
				r := sitemap.NewReader(bytes.NewReader(data))
				var err error
				for err == nil {
					_, err = r.Read()
				}
				if !errors.Is(err, sitemap.ErrTooLarge) || sitemap.ErrorRule(err) != sitemap.RuleFileTooLarge {
					t.Fatalf("error %v, want ErrTooLarge", err)
				}
				if r.InputOffset() > sitemap.DefaultMaxBytes {
					t.Errorf("read %d bytes, more than the cap", r.InputOffset())
				}
			})
			if allocs > 1000 {
				t.Errorf("%v allocations", allocs)
			}
		})
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestReaderIOError(t *testing.T) {
	ioErr := errors.New("connection reset")
	for _, src := range []io.Reader{
		io.MultiReader(strings.NewReader(smallSitemap[:60]), errReader{ioErr}),
		io.MultiReader(bytes.NewReader(gzipBytes(t, []byte(smallSitemap))[:30]), errReader{ioErr}),
	} {
		r := sitemap.NewReader(src)
		var err error
		for err == nil {
			_, err = r.Read()
		}
		if err != ioErr {
			t.Errorf("error %v (%T), want the source's own error", err, err)
		}
		if _, again := r.Read(); again != err {
			t.Errorf("second error %v, want the same", again)
		}
		if sitemap.ErrorRule(err) != "" {
			t.Errorf("ErrorRule(%v) = %q, want none", err, sitemap.ErrorRule(err))
		}
	}
}

func TestReaderReuseURL(t *testing.T) {
	doc := "<urlset " + ns + " xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"><url><loc>http://a.example/1</loc><image:image><image:loc>http://a.example/i</image:loc></image:image></url><url><loc>http://a.example/2</loc><priority>0.3</priority></url></urlset>"
	r := sitemap.NewReader(strings.NewReader(doc))
	r.ReuseURL = true
	u1, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	loc1 := u1.Loc
	u2, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	if u1 != u2 {
		t.Error("ReuseURL: a new URL was returned")
	}
	if loc1 != "http://a.example/1" || u2.Loc != "http://a.example/2" || len(u2.Images) != 0 || u2.Priority != "0.3" {
		t.Errorf("got %q then %+v", loc1, *u2)
	}
}

// TestReaderReuseURLStringsKept: with ReuseURL the URL is overwritten, but
// its strings are never: the strings of thousands of entries (sharing
// blocks, short and long ones) are kept, then compared once all are read.
func TestReaderReuseURLStringsKept(t *testing.T) {
	var b strings.Builder
	b.WriteString("<urlset " + ns + ">")
	var want []string
	for i := range 5000 {
		loc := fmt.Sprintf("http://a.example/%d", i) + strings.Repeat("x", i%7*i%1500)
		want = append(want, loc, fmt.Sprintf("2024-01-%02d", i%28+1))
		fmt.Fprintf(&b, "<url><loc>%s</loc><lastmod>%s</lastmod></url>", loc, want[len(want)-1])
	}
	b.WriteString("</urlset>")
	r := sitemap.NewReader(strings.NewReader(b.String()))
	r.ReuseURL = true
	var got []string
	for {
		u, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.Loc, u.LastMod)
	}
	if !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("string %d of %d: %.40q, want %.40q", i, len(want), got[i], want[i])
			}
		}
		t.Fatalf("%d strings, want %d", len(got), len(want))
	}
}

func TestReaderLongValues(t *testing.T) {
	long := "http://a.example/" + strings.Repeat("a", 200<<10)
	comment := "<!--" + strings.Repeat("-x", 1<<20) + "-->"
	cdata := "<![CDATA[" + strings.Repeat("y", 600<<10) + "]]>"
	doc := "<urlset " + ns + ">" + comment + "<url><loc>" + long + "</loc></url><url><loc>http://a.example/</loc><foo>" + cdata + "</foo></url></urlset>"
	res := rdRead(t, strings.NewReader(doc), nil)
	if res.err != nil || len(res.urls) != 2 || res.urls[0].Loc != long {
		t.Fatalf("got %d entries, %v", len(res.urls), res.err)
	}
	tooLong := "<urlset " + ns + "><url><loc>" + strings.Repeat("<![CDATA["+strings.Repeat("z", 100<<10)+"]]>", 12) + "</loc></url></urlset>"
	if res := rdRead(t, strings.NewReader(tooLong), nil); res.err == nil || !strings.Contains(res.err.Error(), "value too long") {
		t.Errorf("error %v, want value too long", res.err)
	}
}

func TestErrorRule(t *testing.T) {
	for _, c := range []struct {
		in, rule string
	}{
		{"<!DOCTYPE x><x/>", sitemap.RuleDoctype},
		{"<html/>", sitemap.RuleSitemapIsHTML},
		{"<x/>", sitemap.RuleUnsupportedFormat},
		{"<urlset><url></urlset>", sitemap.RuleParseError},
	} {
		r := sitemap.NewReader(strings.NewReader(c.in))
		var err error
		for err == nil {
			_, err = r.Read()
		}
		if got := sitemap.ErrorRule(err); got != c.rule {
			t.Errorf("%q: ErrorRule(%v) = %q, want %q", c.in, err, got, c.rule)
		}
	}
}

// TestCDATATooLongPlaced: a CDATA section past the 1 MiB a value may hold
// is an error placed on its line: its start had left the buffer, and the
// error had no line or column.
func TestCDATATooLongPlaced(t *testing.T) {
	doc := "<urlset " + ns + ">\n\n<url><loc><![CDATA[" + strings.Repeat("a", 1200000) + "]]></loc></url></urlset>\n"
	r := sitemap.NewReader(strings.NewReader(doc))
	var err error
	for err == nil {
		_, err = r.Read()
	}
	var se *sitemap.SyntaxError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "value too long") || se.Line != 3 || se.Col < 1<<20 {
		t.Fatalf("error %v, want value too long on line 3, past column 1 Mi", err)
	}
}

// TestDuplicateAttribute: an attribute given twice in one tag (not
// well-formed XML, which parsers read differently) is a parse-error
// notice, and the first is read: an hreflang alternate read as de by one
// parser and en by another. A tag of many attributes is checked too.
func TestDuplicateAttribute(t *testing.T) {
	many := ""
	for i := range 40 {
		many += fmt.Sprintf(` data-%d="x"`, i)
	}
	for _, tc := range []struct{ attrs, want string }{
		{`rel="alternate" hreflang="en" hreflang="de" href="https://a.example/2"`, "en"},
		{`rel="alternate"` + many + ` hreflang="en" href="https://a.example/2"` + many, "en"},
	} {
		doc := "<urlset " + ns + ` xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>https://a.example/1</loc><xhtml:link ` + tc.attrs + "/></url></urlset>"
		r := sitemap.NewReader(strings.NewReader(doc))
		var notices []string
		r.OnNotice = func(n sitemap.Notice) {
			if n.Rule == sitemap.RuleParseError {
				notices = append(notices, n.Msg)
			}
		}
		u, err := r.Read()
		if err != nil || len(u.Alternates) != 1 || u.Alternates[0].Hreflang != tc.want {
			t.Fatalf("%.60s…: %+v, %v", tc.attrs, u, err)
		}
		if len(notices) == 0 || !strings.Contains(notices[0], "given twice") {
			t.Errorf("%.60s…: notices %q, want one about an attribute given twice", tc.attrs, notices)
		}
	}
}

// TestMisplacedDeclaration: an XML declaration anywhere but the start (after
// a comment, a second one, one inside the root) is a parse-error notice:
// not well-formed XML, which strict parsers refuse. One at the start, and
// other processing instructions, are not.
func TestMisplacedDeclaration(t *testing.T) {
	entry := "<url><loc>https://a.example/1</loc></url>"
	for _, tc := range []struct {
		doc  string
		want []string
	}{
		{"<!-- c -->\n<?xml version=\"1.0\"?><urlset " + ns + ">" + entry + "</urlset>", []string{"2:1"}},
		{`<?xml version="1.0"?><?XML version="1.0"?><urlset ` + ns + ">" + entry + "</urlset>", []string{"1:22"}},
		{`<?xml version="1.0"?>` + "\n<urlset " + ns + `><?xml version="1.0"?>` + entry + "</urlset>", []string{"2:" + fmt.Sprint(len("<urlset "+ns+">")+1)}},
		{`<?xml version="1.0"?>` + "\n" + `<?xml-stylesheet href="a.xsl"?><urlset ` + ns + ">" + entry + "</urlset>", nil},
	} {
		r := sitemap.NewReader(strings.NewReader(tc.doc))
		var got []string
		r.OnNotice = func(n sitemap.Notice) {
			if n.Rule == sitemap.RuleParseError {
				got = append(got, fmt.Sprintf("%d:%d", n.Pos.Line, n.Pos.Col))
			}
		}
		if u, err := r.Read(); err != nil || u.Loc != "https://a.example/1" {
			t.Fatalf("%q: %v, %v", tc.doc, u, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: parse-error notices at %q, want %q", tc.doc, got, tc.want)
		}
	}
}

// TestGzipPadding: zero bytes after a gzip document's last member are
// padding, as gzip(1) reads them, not a damaged stream: such a sitemap was
// refused (compression-error). Other bytes there still are an error.
func TestGzipPadding(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	io.WriteString(zw, "<urlset "+ns+"><url><loc>http://a.example/1</loc></url></urlset>")
	zw.Close()
	for _, tc := range []struct {
		tail []byte
		ok   bool
	}{{make([]byte, 4096), true}, {[]byte("junk"), false}} {
		r := sitemap.NewReader(bytes.NewReader(append(bytes.Clone(b.Bytes()), tc.tail...)))
		var err error
		n := 0
		for err == nil {
			if _, err = r.Read(); err == nil {
				n++
			}
		}
		if n != 1 || (err == io.EOF) != tc.ok {
			t.Errorf("tail %q: %d entries, %v; want 1 and ok %v", tc.tail[:min(4, len(tc.tail))], n, err, tc.ok)
		}
	}
}
