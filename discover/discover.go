// Package discover finds the sitemaps of a site, of local files and of
// folders: a robots.txt and its Sitemap: lines, an index and its children,
// the sitemap files of a folder. It yields each document in walk order,
// with where it was found, what robots.txt said, the redirects it took and
// why it could not be read, as values, so that a checker, a reader and a
// crawler each decide what a finding means to them.
//
// It owns the walk's policy: robots.txt is honoured for the User-Agent
// (an unreachable robots.txt disallows everything, RFC 9309), an index
// child on another host is read only when a robots.txt vouches for it
// (cross-submission), a document is read once however many times it is
// listed, redirects are followed and recorded, and indexes are followed
// MaxDepth levels down.
package discover

import (
	"io"
	"net/http"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/fetch"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Options configure a walk. The zero value is usable: WithDefaults gives
// every field its default, and Walk applies it.
type Options struct {
	// Base is the public URL of local starts, for the scope rules: a file
	// given as a start is at Base + its base name, a file found in a folder
	// at Base + its path relative to the folder. "" leaves local files'
	// public URLs unknown (except for children named by an index, whose
	// <loc> is their URL).
	Base string
	// Offline forbids the network: URLs given as starts, and index
	// children that are not beside their local index, are not fetched.
	Offline bool
	// Timeout bounds each fetch: a robots.txt whole, a sitemap up to its
	// answer and then each read of its body (the walk opens sitemaps ahead
	// of their reader: the wait for it is not counted; Budget bounds the
	// whole). Negative: no limit.
	Timeout time.Duration
	// UserAgent is sent with every request and is the agent robots.txt
	// rules are matched against.
	UserAgent string
	// MaxDepth is how many levels of index are followed below a start or a
	// robots.txt Sitemap: line. At 2, an index listed by an index (a nested
	// index, itself an error) is still read one level down; deeper indexes
	// get a TooDeep finding and their children are not read.
	MaxDepth int
	// Concurrency is how many documents are fetched (and, by a consumer
	// that follows it, read) at once.
	Concurrency int
	// MaxBytes caps a fetched body after HTTP content decoding.
	MaxBytes int64
	// Budget bounds the whole walk's time, as Timeout bounds one fetch: a
	// site of 100,000 sitemaps that never answer would otherwise take
	// 100,000 × Timeout / Concurrency. Past it the walk ends with a Limit
	// finding. Negative: no limit.
	Budget time.Duration
	// MaxDocuments caps the documents one walk reads (sitemaps and
	// indexes; robots.txt files and folders are not counted). Google
	// reads at most 500 index files of 50,000 sitemaps per site, but a
	// site with more than 100,000 sitemaps is either huge or hostile; past
	// the cap the walk ends with a Limit finding.
	MaxDocuments int
	// Robots is a robots.txt file read instead of fetching any: it stands
	// for every host's, to judge a site's sitemaps and URLs by the
	// robots.txt about to be deployed with them, offline. "": each host's
	// robots.txt is fetched (except Offline).
	Robots string
	// Transport makes the HTTP requests. Default (nil): http.DefaultTransport.
	Transport http.RoundTripper
}

// Defaults of Options, as WithDefaults applies them.
const (
	DefaultTimeout      = fetch.DefaultTimeout
	DefaultMaxDepth     = 2
	DefaultConcurrency  = 4
	DefaultMaxBytes     = fetch.DefaultMaxBytes
	DefaultBudget       = time.Hour
	DefaultMaxDocuments = 100_000
)

// WithDefaults returns o with each zero field set to its default: Timeout
// DefaultTimeout (30s), UserAgent sitemapkit's (version "dev"), MaxDepth
// DefaultMaxDepth, Concurrency DefaultConcurrency, MaxBytes
// DefaultMaxBytes (just over sitemap.MaxBytes), Budget DefaultBudget (1h),
// MaxDocuments DefaultMaxDocuments (100,000). It is the one place the
// defaults are written; a command binds its flags to its result.
func (o Options) WithDefaults() Options {
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.UserAgent == "" {
		o.UserAgent = fetch.UserAgent("")
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Budget == 0 {
		o.Budget = DefaultBudget
	}
	if o.MaxDocuments <= 0 {
		o.MaxDocuments = DefaultMaxDocuments
	}
	return o
}

// UserAgent returns sitemapkit's User-Agent for a version, e.g.
// "sitemapkit/1.2.0 (+https://github.com/sitemapkit/sitemapkit)"; its
// product token, "sitemapkit", is what robots.txt groups name.
func UserAgent(version string) string { return fetch.UserAgent(version) }

// A Document is one thing the walk found: a sitemap (urlset, index, text
// or feed), or a Listing (a robots.txt, a folder) that names sitemaps.
type Document struct {
	// Name is the local path, or the URL fetched.
	Name string
	// URL is the document's public URL for the scope rules: the <loc> or
	// Sitemap: line that named it, the URL fetched, or Base + path for a
	// local file. A sitemap on another host submitted through a site's
	// robots.txt gets that site's root directory, since its URLs must be
	// the site's. "" when unknown.
	URL string
	// Parent names the index or robots.txt that listed the document; ""
	// for a start.
	Parent string
	// ParentLine is the line of Parent that named the document: its
	// Sitemap: line, or its <loc> in the index. 0 when unknown, or for a
	// start. A document that cannot be read is missing from there.
	ParentLine int
	// Depth is 0 for a start or a robots.txt Sitemap: line, and one more
	// for each index above the document.
	Depth int
	// Local reports that the document is a file (or folder).
	Local bool
	// Listing reports a robots.txt or a folder: it is walked for the
	// sitemaps it names and has no Body.
	Listing bool
	// Format is the sitemap's format as sitemap.Detect found it; an index's
	// children follow it in the walk.
	Format sitemap.Format
	// Redirects are the redirects followed to fetch it, in order.
	Redirects []Redirect
	// Body is the document's content (HTTP Content-Encoding undone, a
	// sitemap's own compression left to its reader), nil when it could not
	// be opened. An index's Body holds the bytes the walk read for its
	// children, and ends with the error that stopped that reading, if one
	// did. The consumer must close it.
	Body io.ReadCloser
	// Problems are the walk's findings about the document, in the order
	// they happened: why it could not be opened, and findings about the
	// Sitemap: lines or children it lists.
	Problems []*Error
}

// A Redirect is one redirect followed.
type Redirect struct {
	From       string // the URL that answered with a redirect
	To         string // where it pointed
	StatusCode int    // 301, 302, 303, 307 or 308
}

// A Kind says what an Error found.
type Kind int

// The kinds of Error. Their String is the ID of the lint rule they break.
const (
	// FetchFailed: a network error, a timeout, a redirect loop, a file
	// that cannot be opened, a folder without sitemaps, a fetch forbidden
	// by Options.Offline, an unreachable robots.txt.
	FetchFailed Kind = iota + 1
	// HTTPStatus: an answer other than 200 OK, after redirects.
	HTTPStatus
	// BlockedByRobots: robots.txt disallows the URL for the User-Agent.
	BlockedByRobots
	// CrossHost: an index child on another host that no robots.txt names.
	CrossHost
	// InvalidURL: a document or Sitemap: line that is no absolute
	// http(s) URL; not fetched.
	InvalidURL
	// RelativeURL: a relative Sitemap: line, resolved against robots.txt.
	RelativeURL
	// TooDeep: an index MaxDepth levels down; its children are not read.
	TooDeep
	// Loop: an index listing itself; not read again.
	Loop
	// Relisted: a robots.txt listing a document read already (itself, or
	// a loop); not read again.
	Relisted
	// Redirected: one redirect followed (Document.Redirects has them all).
	Redirected
	// Damaged: the index could not be read through (Err is the
	// sitemap.Reader's error); the children before the damage are walked.
	Damaged
	// Truncated: a robots.txt over robots.MaxBytes (500 KiB), of which
	// only the beginning is read, as RFC 9309 allows and Google does.
	Truncated
	// Limit: Options.Budget or Options.MaxDocuments was reached; the
	// document it is found on and those after it are not read.
	Limit
	// Repeated: a robots.txt naming a sitemap again, a start given again,
	// or a document that redirects to one the walk reads already; not
	// read again.
	Repeated
)

var kindNames = [...]string{"", "fetch-error", "http-error", "blocked-by-robots", "cross-host-sitemap",
	sitemap.RuleInvalidURL, sitemap.RuleRelativeURL, "nested-index", "nested-index",
	sitemap.RuleUnsupportedFormat, "redirect", "damaged", "robots-txt-truncated", "walk-limit", "duplicate-url"}

// String returns the ID of the lint rule the kind breaks ("fetch-error",
// "http-error"…), but "damaged" for Damaged: the rule is its Err's
// (sitemap.ErrorRule).
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// An Error is a finding of the walk.
type Error struct {
	Kind Kind
	// Line is the line of the listing the finding is about: a robots.txt
	// Sitemap: line, an index's <loc>; 0 otherwise.
	Line int
	// Err is the cause, when there is one: a fetch or file error, the
	// reader's error of a Damaged index.
	Err error
	msg string
}

// Error returns the finding as a sentence about its document.
func (e *Error) Error() string { return e.msg }

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }
