package sitemap

// The protocol's limits (sitemaps.org, Google Search Central).
const (
	// MaxURLs is the most <url> entries a sitemap, and the most <sitemap>
	// entries an index, may hold.
	MaxURLs = 50000
	// MaxBytes is the largest a sitemap or index may be, uncompressed.
	MaxBytes = 52428800
	// MaxLocLen is the longest a <loc> may be once escaped: the protocol
	// says "less than 2,048 characters".
	MaxLocLen = 2047
	// MaxImages is the most images one <url> may carry.
	MaxImages = 1000
	// MaxNews is the most <url>s carrying <news:news> one sitemap may hold.
	MaxNews = 1000
	// MaxVideoDescription is the longest a video description may be, in characters.
	MaxVideoDescription = 2048
	// MaxVideoTitle is the longest a video title may be, in characters.
	MaxVideoTitle = 100
	// MaxVideoTags is the most <video:tag> elements one video may carry.
	MaxVideoTags = 32
	// MaxVideoDuration is the longest video duration, in seconds (8 hours).
	MaxVideoDuration = 28800
	// MaxUploaderLen is the longest a video uploader name may be, in characters.
	MaxUploaderLen = 255
)

// XML namespaces of the sitemap protocol and of the extensions Google reads.
const (
	NamespaceSitemap = "http://www.sitemaps.org/schemas/sitemap/0.9"
	NamespaceImage   = "http://www.google.com/schemas/sitemap-image/1.1"
	NamespaceVideo   = "http://www.google.com/schemas/sitemap-video/1.1"
	NamespaceNews    = "http://www.google.com/schemas/sitemap-news/0.9"
	NamespaceXHTML   = "http://www.w3.org/1999/xhtml"
)

// Format is the kind of a sitemap document.
type Format int

// The formats the Writer writes (URLSet, Index, Text) and the Reader reads
// (all of them).
const (
	FormatUnknown Format = iota
	FormatURLSet         // <urlset>
	FormatIndex          // <sitemapindex>
	FormatText           // one URL per line
	FormatRSS            // RSS 2.0 (and 1.0)
	FormatAtom           // Atom 1.0 (and 0.3)
)

var formatNames = [...]string{"unknown", "urlset", "sitemapindex", "text", "rss", "atom"}

// String returns the format's name as it appears in reports and JSON:
// "urlset", "sitemapindex", "text", "rss", "atom" or "unknown".
func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return "unknown"
	}
	return formatNames[f]
}

// URL is one entry of a urlset (or of a text sitemap or feed) with its
// extensions.
//
// Values are the protocol's text, exactly as written in the XML (entities
// decoded): a Reader returns what a file says, invalid values included, so
// that a checker can report them; a Writer validates them and refuses what
// the protocol forbids. An empty string means the element is absent: nothing
// is ever invented. The JSON field names are those of sitemapkit's JSONL
// input and of `sitemapkit read --format jsonl`.
type URL struct {
	Loc        string      `json:"loc"`
	LastMod    string      `json:"lastmod,omitempty"`    // W3C datetime, e.g. "2024-05-01" or "2024-05-01T10:00:00+02:00"
	ChangeFreq string      `json:"changefreq,omitempty"` // always, hourly, daily, weekly, monthly, yearly or never
	Priority   string      `json:"priority,omitempty"`   // 0.0 to 1.0, e.g. "0.8"
	Images     []Image     `json:"images,omitempty"`
	Videos     []Video     `json:"videos,omitempty"`
	News       *News       `json:"news,omitempty"`
	Alternates []Alternate `json:"alternates,omitempty"` // hreflang <xhtml:link rel="alternate">
}

// Image is an <image:image> (Google image extension 1.1). Caption,
// GeoLocation, Title and License were deprecated by Google in 2022; they are
// read and written for fidelity, and the checker warns about them.
type Image struct {
	Loc         string `json:"loc"`
	Caption     string `json:"caption,omitempty"`
	GeoLocation string `json:"geo_location,omitempty"`
	Title       string `json:"title,omitempty"`
	License     string `json:"license,omitempty"`
}

// Video is a <video:video> (Google video extension 1.1). Fields are in the
// order the schema demands. ThumbnailLoc, Title, Description and one of
// ContentLoc or PlayerLoc are required.
type Video struct {
	ThumbnailLoc         string       `json:"thumbnail_loc"`
	Title                string       `json:"title"`
	Description          string       `json:"description"`
	ContentLoc           string       `json:"content_loc,omitempty"`
	PlayerLoc            string       `json:"player_loc,omitempty"`
	Duration             string       `json:"duration,omitempty"`        // seconds, 1 to 28800
	ExpirationDate       string       `json:"expiration_date,omitempty"` // W3C datetime
	Rating               string       `json:"rating,omitempty"`          // 0.0 to 5.0
	ViewCount            string       `json:"view_count,omitempty"`
	PublicationDate      string       `json:"publication_date,omitempty"` // W3C datetime
	Tags                 []string     `json:"tags,omitempty"`             // at most 32
	Category             string       `json:"category,omitempty"`         // deprecated by Google
	FamilyFriendly       string       `json:"family_friendly,omitempty"`  // yes or no
	Restriction          *Restriction `json:"restriction,omitempty"`
	GalleryLoc           string       `json:"gallery_loc,omitempty"`           // deprecated by Google
	Prices               []Price      `json:"prices,omitempty"`                // deprecated by Google
	RequiresSubscription string       `json:"requires_subscription,omitempty"` // yes or no
	Uploader             *Uploader    `json:"uploader,omitempty"`
	Platform             *Platform    `json:"platform,omitempty"`
	Live                 string       `json:"live,omitempty"` // yes or no
}

// Restriction is <video:restriction>: the countries where the video may
// (Relationship "allow") or may not ("deny") be shown.
type Restriction struct {
	Relationship string `json:"relationship"` // allow or deny
	Countries    string `json:"countries"`    // ISO 3166 codes separated by spaces, e.g. "IE GB US"
}

// Platform is <video:platform>: the platforms where the video may (allow)
// or may not (deny) be shown.
type Platform struct {
	Relationship string `json:"relationship"` // allow or deny
	Platforms    string `json:"platforms"`    // web, mobile and tv separated by spaces
}

// Uploader is <video:uploader>, with its optional info URL.
type Uploader struct {
	Name string `json:"name"`
	Info string `json:"info,omitempty"`
}

// Price is <video:price> (deprecated by Google).
type Price struct {
	Value      string `json:"value"`
	Currency   string `json:"currency"`             // ISO 4217, e.g. EUR
	Type       string `json:"type,omitempty"`       // purchase or rent
	Resolution string `json:"resolution,omitempty"` // sd or hd
}

// News is <news:news> (Google News extension 0.9). Publication name and
// language, PublicationDate and Title are required.
type News struct {
	Publication     Publication `json:"publication"`
	PublicationDate string      `json:"publication_date"` // W3C datetime
	Title           string      `json:"title"`
	Access          string      `json:"access,omitempty"`        // Subscription or Registration (not in Google's current docs)
	Genres          string      `json:"genres,omitempty"`        // comma-separated (not in Google's current docs)
	Keywords        string      `json:"keywords,omitempty"`      // comma-separated (not in Google's current docs)
	StockTickers    string      `json:"stock_tickers,omitempty"` // at most 5, comma-separated (not in Google's current docs)
}

// Publication is <news:publication>.
type Publication struct {
	Name     string `json:"name"`
	Language string `json:"language"` // ISO 639 code, e.g. "en", "zh-cn"
}

// Alternate is one hreflang alternate, written as
// <xhtml:link rel="alternate" hreflang="…" href="…"/>.
type Alternate struct {
	Hreflang string `json:"hreflang"` // e.g. "de-DE" or "x-default"
	Href     string `json:"href"`
}

// IndexEntry is one <sitemap> of a sitemap index.
type IndexEntry struct {
	Loc     string `json:"loc"`
	LastMod string `json:"lastmod,omitempty"`
}
