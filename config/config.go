// Package config reads sitemapkit.toml, the file that holds a site's whole
// sitemap setup: where the site is, where its sitemaps go, how they are
// written, and the sources of its URLs, alone or in named groups.
//
//	base = "https://www.example.com/"
//	out = "public/"
//	gzip = true
//
//	[filter]
//	exclude = ["/admin/**"]
//
//	[[source]]
//	type = "dir"
//	path = "public/"
//
//	[[group]]
//	name = "products"
//	  [[group.source]]
//	  type = "sql"
//	  driver = "sqlite"
//	  dsn = "shop.db"
//	  query = "SELECT slug, updated_at AS lastmod FROM products"
//	  loc = "https://www.example.com/products/{slug}"
//
// docs/config.md documents every key; the doc comment of each field below
// is the same text. [Starter] is a commented file with every key.
//
// # Errors
//
// A mistake in the file is an *Error naming its file, line and column: a
// syntax error, a key sitemapkit does not know (with the nearest known key
// when it looks like a typo), a value of the wrong type, a value that is
// not one of a key's choices, a key that does not belong to the source's
// type, a required key left out (placed at its table's header). Load and
// Parse report every mistake they find, joined with errors.Join, so one
// edit can fix them all.
//
// The builder's options (base, out, name, max_urls…) are checked by
// publish.Options.Check, the one place their ranges are written: such an
// *Error wraps the *publish.OptionError, whose Field NameOf turns into the
// key or the flag.
//
// # Paths
//
// Relative paths in the file (out, a source's path and paths, a SQLite
// dsn) are relative to the folder the file is in, not to the folder the
// command runs in: Load and Parse rewrite them so, and the Config they
// return holds paths usable as they are. URLs in a sitemap source's paths
// are left alone.
//
// # Building a Config in code
//
// Every field is exported and every zero value is the key's default, so a
// Config built from command-line flags goes through the same Validate,
// BuildOptions and Source.Open as a file; its paths are used as given.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/cespare/xxhash/v2"

	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// FileName is the config file's name: `sitemapkit generate` reads it from
// the current folder when given no input.
const FileName = "sitemapkit.toml"

// Config is a site's sitemap setup. Its fields mirror the file's keys,
// named in each field's toml tag; the zero value of every field is the
// key's default.
type Config struct {
	// Base is the site's URL, e.g. "https://www.example.com/" (required).
	// Every URL must be on it: same scheme, host and port.
	Base string `toml:"base"`
	// Out is the folder the sitemaps are published into (required); it is
	// created if missing. It is often the static site's own build folder:
	// sitemapkit only ever removes files it wrote.
	Out string `toml:"out"`
	// PublicURL is the URL the out folder is served at, when it is not
	// base (e.g. "https://www.example.com/sitemaps/"). Default: base.
	PublicURL string `toml:"public_url"`
	// Manifest is the file the set's manifest (its record of the files it
	// published) is kept in, relative to this file. Default: in out, as
	// .sitemapkit-manifest-NAME.json. Set it outside out when out is
	// deployed as it is, so that the manifest is not published.
	Manifest string `toml:"manifest"`
	// Name is the stem of the files' names: letters, digits, "_" and "-".
	// Default "sitemap": sitemap.xml, sitemap-1-….xml, …
	Name string `toml:"name"`
	// Gzip writes the child sitemaps gzipped (.xml.gz). Default false.
	Gzip bool `toml:"gzip"`
	// Format is "xml" (default) or "txt" (one URL per line, no extensions).
	Format string `toml:"format"`
	// Index is "auto" (default: an index only when one file is not
	// enough), "always", or "never" (fail instead).
	Index string `toml:"index"`
	// MaxURLs lowers the limit of URLs per file. Default (0): 50000, the
	// protocol's limit, which is also the largest value allowed.
	MaxURLs int `toml:"max_urls"`
	// MaxBytes lowers the limit of bytes per file, uncompressed. Default
	// (0): 52428800 (50 MiB), the protocol's limit and the largest allowed.
	MaxBytes int64 `toml:"max_bytes"`
	// KeepDuplicates keeps a URL listed twice. Default false: duplicates
	// are dropped, at a cost of at most 16 bytes of memory per URL.
	KeepDuplicates bool `toml:"keep_duplicates"`
	// Strict fails the run, publishing nothing, when any URL is refused.
	// Default false: refused URLs are reported and left out.
	Strict bool `toml:"strict"`
	// State is the file that remembers what each page was from one run to
	// the next (an SQLite database, created if missing; relative to this
	// file), so that files whose URLs did not change are not rewritten and
	// lastmod can mean a change of content. Keep it outside out: it is
	// never published. Default: none, every run starts afresh.
	State string `toml:"state"`
	// Lastmod is "content" to make each URL's lastmod the time its
	// significant content was first seen as it is now (needs state), for
	// every source; default "": each source's own dates.
	Lastmod string `toml:"lastmod"`
	// ContentSelector is a CSS selector naming the main content of a page
	// of a dir source, for lastmod = "content": only its text counts, not
	// that of <main>. Default: <main>, else <article>, else the body
	// without header, nav, footer and aside.
	ContentSelector string `toml:"content_selector"`
	// IgnoreSelector is a CSS selector of elements that never count as
	// content (a view counter, an advertisement), for lastmod = "content".
	IgnoreSelector string `toml:"ignore_selector"`
	// Feed writes feed.xml beside the index: an Atom feed of the URLs most
	// recently added or changed (needs state). Default false.
	Feed bool `toml:"feed"`
	// FeedEntries is how many URLs the feed lists. Default (0): 100.
	FeedEntries int `toml:"feed_entries"`
	// Hub is the URL of a WebSub hub, linked from the feed (rel="hub").
	Hub string `toml:"hub"`
	// Timezone is the zone of date-times written without one (a
	// database's "2024-05-02 10:00:00", a TIMESTAMP column): an IANA name
	// such as "Europe/Berlin". Default: UTC.
	Timezone string `toml:"timezone"`
	// URLEncoding is how the non-ASCII characters of a loc are
	// percent-encoded: "utf-8" (default, as RFC 3987 and browsers do) or
	// "latin1", as ISO-8859-1 bytes, for a server that serves ISO-8859-1
	// URLs (sitemaps.org's example: ü as %FC).
	URLEncoding string `toml:"url_encoding"`
	// Submit says how `sitemapkit submit` (and generate --submit) makes
	// the set's changes known ([submit]).
	Submit Submit `toml:"submit"`
	// Filter applies to every source, in groups too ([filter]).
	Filter Filter `toml:"filter"`
	// Sources are the sources of the main set, whose files are named after
	// Name ([[source]]).
	Sources []Source `toml:"source"`
	// Groups are named sets of their own files under the one index
	// ([[group]]).
	Groups []Group `toml:"group"`

	// Stdin is what a files source's path "-" reads (not a key: a command
	// sets it). Nil: "-" cannot be read.
	Stdin io.Reader `toml:"-"`
	// SQLDrivers open the databases of sql sources, each found by its
	// Name, the source's driver key (not a key: a command sets it, with
	// source/sqlite's and source/postgres's, so that config links no
	// database driver of its own). Without its driver a sql source cannot
	// be read.
	SQLDrivers []source.SQLDriver `toml:"-"`
	// UserAgent is what a crawl source sends and matches robots.txt
	// groups with (not a key: the command sets it with its version).
	UserAgent string `toml:"-"`
	// Renderer renders a crawl source's pages when it says render (not a
	// key: the command links the browser's driver, package render).
	Renderer source.Renderer `toml:"-"`

	origin *origin // where the config was read from; nil when built in code
}

// origin is where a Config was read from, for errors.
type origin struct {
	file string
	pos  map[string]pos
}

// Submit is the [submit] table: the channels `sitemapkit submit` uses.
// Google's and Bing's ping endpoints are gone (2023, 2022): no ping is
// ever a default.
type Submit struct {
	// Robots is the robots.txt file to keep a Sitemap: line in for each
	// index (relative to this file). Default: robots.txt in out when out
	// is served at the site's root (public_url is base); "none" keeps
	// none.
	Robots string `toml:"robots"`
	// IndexNow is "on" (default) or "off": whether the URLs each run
	// added, changed and removed are posted to IndexNow.
	IndexNow string `toml:"indexnow"`
	// IndexNowEndpoint is where they are posted. Default
	// https://api.indexnow.org/indexnow, shared by every engine taking part.
	IndexNowEndpoint string `toml:"indexnow_endpoint"`
	// IndexNowKey is the key; default: one made once and kept in the
	// state. Its key file, KEY.txt, is published in out.
	IndexNowKey string `toml:"indexnow_key"`
	// WebSubHubs are told when the feed changes (default: hub, if set).
	WebSubHubs []string `toml:"websub_hubs"`
	// SearchConsoleProperty is the Search Console property to submit the
	// indexes to: "https://www.example.com/" or "sc-domain:example.com".
	// Default: none.
	SearchConsoleProperty string `toml:"search_console_property"`
	// GoogleCredentials is a service account's JSON key file. Default:
	// $GOOGLE_APPLICATION_CREDENTIALS.
	GoogleCredentials string `toml:"google_credentials"`
	// SearchConsoleEndpoint and GoogleTokenURL replace Google's API root
	// and token endpoint (tests, private deployments).
	SearchConsoleEndpoint string `toml:"search_console_endpoint"`
	GoogleTokenURL        string `toml:"google_token_url"`
	// Pings are URL templates, with {sitemap}, of engines that still take
	// a ping, called when an index changed. Default: none.
	Pings []string `toml:"pings"`
}

// Filter chooses and cleans URLs. At the top level it applies to every
// source; a source's own include, exclude and strip_params apply after it.
type Filter struct {
	// Include keeps only URLs whose path matches one of these patterns: a
	// glob ("/blog/**": * is any run of characters within a segment, ** as
	// a segment any number of segments; a glob not starting with "/"
	// matches at any depth) or, after "re:", a Go regular expression
	// ("re:^/p/[0-9]+$"), as source.FilterOptions says. Default: every URL.
	Include []string `toml:"include"`
	// Exclude leaves out URLs whose path matches one of these patterns
	// (same syntax as include), even when include matches too.
	Exclude []string `toml:"exclude"`
	// StripParams names query parameters removed from every URL. In
	// [filter], nil (the key absent) means the session IDs sid, PHPSESSID,
	// jsessionid and the like (loc.SessionIDNames), and an empty list
	// means none. In a source, the names are removed in addition.
	StripParams []string `toml:"strip_params"`
}

// Group is a named set of files under the set's one index: a group named
// products has files products-1-….xml, products-2-…, listed in the index
// after the main set's.
type Group struct {
	// Name names the group's files (required): letters, digits, "_" and
	// "-", unique among groups and different from the set's name.
	Name string `toml:"name"`
	// Sources are the group's sources ([[group.source]]); at least one.
	Sources []Source `toml:"source"`
}

// Source is one source of URLs. Type says which keys apply; a key of
// another type is an error.
type Source struct {
	// Type is one of "files", "dir", "sql", "log", "sitemap" and "crawl"
	// (required).
	Type string `toml:"type"`

	// Paths (files, log, sitemap, crawl; required) are the files to read,
	// or a crawl's start URLs. A sitemap source also takes URLs (and
	// robots.txt files or URLs, whose Sitemap: lines it follows). Gzipped
	// files are read as such.
	Paths []string `toml:"paths"`
	// Format (files) is "auto" (default: from each file's extension:
	// .txt, .csv, .jsonl, optionally followed by .gz), "txt", "csv" or
	// "jsonl".
	Format string `toml:"format"`
	// Encoding (files) is the files' character encoding: "utf-8"
	// (default; a line that is not is refused), "latin1" or
	// "windows-1252", read as such and converted.
	Encoding string `toml:"encoding"`

	// Path (dir; required) is the static site's build folder.
	Path string `toml:"path"`
	// StripHTML (dir) lists about.html as /about instead of /about.html.
	// Default false. index.html is always listed as its folder.
	StripHTML bool `toml:"strip_html"`
	// IncludeFiles (dir, crawl) are globs of files other than HTML pages
	// to list too, e.g. "**/*.pdf": in a dir source relative to path ("**"
	// is any number of folders; a glob without it is anchored at path), in
	// a crawl source path patterns as include's. Default: HTML pages only.
	IncludeFiles []string `toml:"include_files"`
	// ExcludeFiles (dir) are globs, relative to path, of files and folders
	// to leave out, e.g. "drafts/**".
	ExcludeFiles []string `toml:"exclude_files"`
	// Lastmod (dir) is where a page's lastmod comes from: "auto" (default:
	// "git" when path is in a git repository, else none), "git" (the
	// file's last commit), "mtime" (the file's modification time: often
	// the build's time, not the content's) or "none".
	Lastmod string `toml:"lastmod"`
	// Images (dir) lists each page's <img> sources as image entries.
	// Default false.
	Images bool `toml:"images"`

	// Driver (sql; required) is "sqlite" or "postgres".
	Driver string `toml:"driver"`
	// DSN (sql) is the database to open: a SQLite file (relative to the
	// config file's folder) or a PostgreSQL URL or key=value string. Give
	// dsn or dsn_env, not both.
	DSN string `toml:"dsn"`
	// DSNEnv (sql) names an environment variable holding the DSN, to keep
	// passwords out of the file, e.g. "DATABASE_URL".
	DSNEnv string `toml:"dsn_env"`
	// Query (sql; required) is the SELECT whose columns are the URL's
	// fields: loc (unless loc below builds it), lastmod, changefreq,
	// priority.
	Query string `toml:"query"`
	// Loc (sql) builds each URL from a template over the query's columns:
	// "https://www.example.com/products/{slug}"; each {column} is escaped
	// as a path segment. Default: the query's loc column.
	Loc string `toml:"loc"`

	// KeepParams (log) names the query parameters kept in logged URLs, e.g.
	// "page"; the others are dropped. Default: none kept.
	KeepParams []string `toml:"keep_params"`

	// Hosts (crawl) are more hosts whose pages are crawled, besides the
	// scope of the start URLs in paths (their scheme, host and folder).
	Hosts []string `toml:"hosts"`
	// Concurrency (crawl) is how many pages are fetched at once from one
	// host, 1 to 256 (and as many from each of hosts, 256 in all at most).
	// Default 8.
	Concurrency int `toml:"concurrency"`
	// Rate (crawl) is the most requests a second to one host; 0: no
	// limit. Default 5.
	Rate *float64 `toml:"rate"`
	// MaxPages (crawl) is the most pages fetched. Default 100000.
	MaxPages int `toml:"max_pages"`
	// MaxDepth (crawl) is how many links from a start a page may be.
	// Default 100.
	MaxDepth int `toml:"max_depth"`
	// Budget (crawl) bounds the crawl's time, as a Go duration ("90m");
	// past it the crawl stops, resumable. Default "1h".
	Budget string `toml:"budget"`
	// SkipNofollow (crawl) does not follow links marked rel="nofollow".
	SkipNofollow bool `toml:"skip_nofollow"`
	// Render (crawl) renders the pages whose links look written by their
	// scripts in headless Chromium (Debian's chromium package).
	Render bool `toml:"render"`
	// CrawlDir (crawl) is the folder the crawl keeps its spilled frontier,
	// the pages it listed and, when it is stopped, what --resume needs in
	// (relative to this file). Default: DefaultCrawlDir of its paths.
	CrawlDir string `toml:"crawl_dir"`
	// Resume carries on the crawl stopped in CrawlDir (not a key: the
	// command's --resume).
	Resume bool `toml:"-"`
	// CrawlLog (crawl) is a file the crawl writes every URL it met to, as
	// JSON Lines: its status, depth, where it was found and why it was
	// left out (relative to this file).
	CrawlLog string `toml:"crawl_log"`

	// Filter is the source's own include, exclude and strip_params, which
	// apply after the top-level [filter].
	Filter
}

// DefaultCrawlDir is the folder a crawl from starts keeps its files in
// when none is given: .sitemapkit/crawl-XXXXXXXX, named by the starts, so
// that two crawls do not share one and a crawl finds its own to resume.
func DefaultCrawlDir(starts []string) string {
	return filepath.Join(".sitemapkit", fmt.Sprintf("crawl-%08x", uint32(xxhash.Sum64String(strings.Join(starts, "\n")))))
}

// Source types.
const (
	TypeFiles   = "files"
	TypeDir     = "dir"
	TypeSQL     = "sql"
	TypeLog     = "log"
	TypeSitemap = "sitemap"
	TypeCrawl   = "crawl"
)

// Load reads, checks and returns the config file at path. Relative paths
// in it are made relative to path's folder. The error is an *Error, or
// several joined, for mistakes in the file.
func Load(path string) (*Config, error) {
	data, err := loadCapped(path)
	if err != nil {
		return nil, err
	}
	return parse(data, path)
}

// Parse reads and checks a config file's content from r; name is its file
// name, used in errors and as the folder relative paths are relative to.
func Parse(r io.Reader, name string) (*Config, error) {
	data, err := readCapped(r, name)
	if err != nil {
		return nil, err
	}
	return parse(data, name)
}

func parse(data []byte, name string) (*Config, error) {
	if err := checkShape(data, name); err != nil {
		return nil, err
	}
	var raw map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&raw); err != nil {
		return nil, syntaxError(name, err)
	}
	c := &Config{origin: &origin{file: name, pos: keyPositions(string(data))}}
	d := &decoder{origin: c.origin}
	d.table(raw, reflectValue(c), nil, "")
	sortErrors(d.errs)
	if err := errors.Join(d.errs...); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	c.resolve(filepath.Dir(name))
	return c, nil
}

// syntaxError places the TOML decoder's error.
func syntaxError(name string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := pe.Message
		if msg == "" {
			msg = "syntax error"
		}
		return &Error{File: name, Line: pe.Position.Line, Col: pe.Position.Col, Msg: "TOML: " + msg, Err: err}
	}
	return &Error{File: name, Msg: strings.TrimPrefix(err.Error(), "toml: "), Err: err}
}

// Detach returns a copy of c that no longer knows the file it was read
// from: its errors name no file and no line. A command validates through
// it what its flags changed after Load, since those mistakes are not the
// file's. The copy shares c's sources and groups, so Source.Inputs finds
// c's sources in it.
func (c *Config) Detach() *Config {
	d := *c
	d.origin = nil
	return &d
}

// BuildOptions returns the options of the set's builder.
func (c *Config) BuildOptions() publish.Options {
	o := publish.Options{
		Dir:       c.Out,
		Base:      c.Base,
		PublicURL: c.PublicURL,
		Manifest:  c.Manifest,
		Name:      c.Name,
		Gzip:      c.Gzip,
		MaxURLs:   c.MaxURLs,
		MaxBytes:  c.MaxBytes,
		NoDedupe:  c.KeepDuplicates,
	}
	o.Format = o.WithDefaults().Format // spelled out, as it always was
	for _, n := range formatNames {
		if n.name == c.Format {
			o.Format = n.format
		}
	}
	for _, n := range indexNames {
		if n.name == c.Index {
			o.Index = n.index
		}
	}
	return o
}

// formatNames and indexNames spell the values of publish.Options' Format
// and Index as the keys format and index (and generate's flags) take them.
var (
	formatNames = []struct {
		name   string
		format sitemap.Format
	}{{"xml", sitemap.FormatURLSet}, {"txt", sitemap.FormatText}}
	indexNames = []struct {
		name  string
		index publish.IndexMode
	}{{"auto", publish.IndexAuto}, {"always", publish.IndexAlways}, {"never", publish.IndexNever}}
)

// Choices returns the values the key "format" or "index" takes, and its
// default (publish's), spelled as in the file; nil for another key.
func Choices(key string) (names []string, def string) {
	d := publish.Options{}.WithDefaults()
	switch key {
	case "format":
		for _, n := range formatNames {
			names = append(names, n.name)
			if n.format == d.Format {
				def = n.name
			}
		}
	case "index":
		for _, n := range indexNames {
			names = append(names, n.name)
			if n.index == d.Index {
				def = n.name
			}
		}
	}
	return names, def
}

// OptionName is how a site's setup names a field of publish.Options: the
// file's key and generate's flag. Errors name the field so.
type OptionName struct {
	Key  string // e.g. "max_urls"
	Flag string // e.g. "--max-urls"
}

// optionNames is the one table of the names of publish.Options' fields.
var optionNames = map[string]OptionName{
	"Dir":       {"out", "--out"},
	"Base":      {"base", "--base"},
	"PublicURL": {"public_url", "--public-url"},
	"Manifest":  {"manifest", "--manifest"},
	"Name":      {"name", "--name"},
	"Format":    {"format", "--format"},
	"Gzip":      {"gzip", "--gzip"},
	"Index":     {"index", "--index"},
	"MaxURLs":   {"max_urls", "--max-urls"},
	"MaxBytes":  {"max_bytes", "--max-bytes"},
	"NoDedupe":  {"keep_duplicates", "--no-dedupe"},
	// Set from the state, not given as such.
	"Stable":    {"state", "--state"},
	"ChangedAt": {"lastmod", "--lastmod"},
}

// NameOf returns the key and flag of the publish.Options field, as an
// *publish.OptionError names it; the zero OptionName for another name.
func NameOf(field string) OptionName { return optionNames[field] }

// resolve makes the relative paths of the file relative to dir, its folder.
func (c *Config) resolve(dir string) {
	if dir == "." || dir == "" {
		return
	}
	join := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	c.Out = join(c.Out)
	c.State = join(c.State)
	c.Manifest = join(c.Manifest)
	if c.Submit.Robots != "none" {
		c.Submit.Robots = join(c.Submit.Robots)
	}
	c.Submit.GoogleCredentials = join(c.Submit.GoogleCredentials)
	crawlLogs := func(ss []Source) {
		for i := range ss {
			ss[i].CrawlLog = join(ss[i].CrawlLog)
			if ss[i].Type == TypeCrawl && ss[i].CrawlDir == "" {
				ss[i].CrawlDir = DefaultCrawlDir(ss[i].Paths)
			}
			ss[i].CrawlDir = join(ss[i].CrawlDir)
		}
	}
	crawlLogs(c.Sources)
	for i := range c.Groups {
		crawlLogs(c.Groups[i].Sources)
	}
	sources := func(ss []Source) {
		for i := range ss {
			s := &ss[i]
			s.Path = join(s.Path)
			for j, p := range s.Paths {
				if !isURL(p) && p != "-" {
					s.Paths[j] = join(p)
				}
			}
			if s.Type == TypeSQL && s.Driver == "sqlite" && s.DSN != "" {
				s.DSN = sqliteDSN(s.DSN, join)
			}
		}
	}
	sources(c.Sources)
	for i := range c.Groups {
		sources(c.Groups[i].Sources)
	}
}

// sqliteDSN resolves the file of a SQLite DSN: a path, or a "file:" URI
// whose path is relative. ":memory:" and its URI forms are left alone.
func sqliteDSN(dsn string, join func(string) string) string {
	if dsn == ":memory:" || strings.Contains(dsn, "mode=memory") {
		return dsn
	}
	rest, uri := strings.CutPrefix(dsn, "file:")
	if !uri {
		return join(dsn)
	}
	p, q, hasQ := strings.Cut(rest, "?")
	if p == "" || p == ":memory:" || strings.HasPrefix(p, "/") {
		return dsn
	}
	// The URI's path is escaped ("my%20shop.db") and the folder is not: a
	// "#", "?" or "%" in its name must not end or change the path.
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	p = (&url.URL{Path: filepath.ToSlash(join(p))}).EscapedPath()
	if hasQ {
		return "file:" + p + "?" + q
	}
	return "file:" + p
}

func isURL(p string) bool {
	return strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://")
}

// Error is a mistake in a config file or Config.
type Error struct {
	// File is the file's name as given to Load or Parse; empty for a
	// Config built in code.
	File string
	// Line and Col (1-based, Col in bytes) are where the mistake is; 0 when
	// unknown, as for a required key left out of the top level.
	Line, Col int
	// Msg says what is wrong, naming the key.
	Msg string
	// Err is the underlying error, if any (a toml.ParseError).
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
			if e.Col > 0 {
				fmt.Fprintf(&b, ":%d", e.Col)
			}
		}
		b.WriteString(": ")
	} else {
		b.WriteString("config: ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// sortErrors puts errors in the file's order; those without a line first.
func sortErrors(errs []error) {
	line := func(err error) (int, int) {
		if e, ok := err.(*Error); ok {
			return e.Line, e.Col
		}
		return 0, 0
	}
	slices.SortStableFunc(errs, func(a, b error) int {
		la, ca := line(a)
		lb, cb := line(b)
		if la != lb {
			return la - lb
		}
		return ca - cb
	})
}

// Location is the zone Timezone names (UTC when empty); Validate reports
// a name that is not one.
func (c *Config) Location() (*time.Location, error) {
	if c.Timezone == "" {
		return time.UTC, nil
	}
	return time.LoadLocation(c.Timezone)
}
