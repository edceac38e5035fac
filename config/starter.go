package config

import (
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemapkit/feed"
	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/publish"
)

// ExampleBase is the base URL Starter writes when given none.
const ExampleBase = "https://www.example.com/"

// Starter returns the commented config file `sitemapkit init` writes, for
// the site at base (ExampleBase when empty): every top-level and [filter]
// key with its default, one files source, and an example of each other
// source type and of a group, commented out. It loads as it is.
func Starter(base string) string {
	if base == "" {
		base = ExampleBase
	}
	var names []string
	for _, n := range loc.SessionIDNames() {
		names = append(names, quote(n))
	}
	// The defaults are publish's, written once there.
	d := publish.Options{}.WithDefaults()
	_, format := Choices("format")
	_, index := Choices("index")
	return strings.NewReplacer(
		"{base}", quote(base),
		"{session_ids}", strings.Join(names, ", "),
		"{name}", quote(d.Name),
		"{format}", quote(format),
		"{index}", quote(index),
		"{max_urls}", strconv.Itoa(d.MaxURLs),
		"{max_bytes}", strconv.FormatInt(d.MaxBytes, 10),
		"{feed_entries}", strconv.Itoa(feed.DefaultEntries),
	).Replace(starter)
}

// quote writes s as a TOML basic string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// starter is Starter's text. Commented-out examples are TOML lines behind
// "# "; the test uncomments every such line and loads the result, so each
// example stays valid.
const starter = `# sitemapkit.toml: how ` + "`sitemapkit generate`" + ` builds this site's sitemaps.
# Every key is documented in docs/config.md. Relative paths are relative to
# the folder this file is in.

# The site's URL (required): every URL listed must be on it.
base = {base}
# The folder to publish the sitemaps into (required), often the static
# site's build folder: sitemapkit only ever removes files it wrote there.
out = "public/"
# The URL the out folder is served at, when it is not base ("": base).
public_url = ""
# The files' name stem: sitemap.xml is the file to submit to search engines.
name = {name}
# Where the set's manifest (the record of the files it published) is kept
# ("": in out, as .sitemapkit-manifest-NAME.json). Set it outside out when
# out is deployed as it is, e.g. ".sitemapkit/manifest.json".
manifest = ""
# Gzip the child sitemaps (.xml.gz).
gzip = false
# "xml", or "txt" (one URL per line, without lastmod or extensions).
format = {format}
# "auto": an index only when one file is not enough; "always"; "never".
index = {index}
# At most this many URLs per file (the protocol's limit, and the largest).
max_urls = {max_urls}
# At most this many bytes per file, uncompressed (50 MiB, the largest).
max_bytes = {max_bytes}
# Keep a URL listed twice (false: drop duplicates).
keep_duplicates = false
# Publish nothing if any URL is refused (false: report and leave it out).
strict = false

# The zone of dates written without one, as databases write them
# ("2024-05-02 10:00:00"): an IANA name such as "Europe/Berlin".
timezone = "UTC"

# How a URL's non-ASCII characters are percent-encoded: "utf-8", or
# "latin1" (ISO-8859-1 bytes: ü as %FC) for a server that serves such URLs.
url_encoding = "utf-8"

# Keeping lastmod true (see the README): a file, outside out, that remembers
# each page's content, lastmod and sitemap file from run to run, so that only
# the files whose URLs changed are rewritten ("": none, e.g.
# ".sitemapkit/state.db").
state = ""
# "content": a URL's lastmod is when its content was first seen as it is
# now (needs state); "": each source's own dates.
lastmod = ""
# What counts as a page's content, for lastmod = "content": CSS selectors of
# the main content ("": main, else article, else the body without header,
# nav, footer and aside) and of elements that never count (".views, .ad").
content_selector = ""
ignore_selector = ""
# Publish feed.xml, an Atom feed of the URLs latest added or changed (needs
# state), listing this many, and naming this WebSub hub ("": none).
feed = false
feed_entries = {feed_entries}
hub = ""

# Which URLs to keep and how to clean them, for every source. A pattern
# matches the URL's path: a glob ("/blog/**": * stays within a segment, **
# is any number of segments; "*.pdf" matches at any depth), or "re:" and a
# Go regular expression ("re:^/p/[0-9]+$").
[filter]
# Keep only URLs matching one of these ([]: every URL).
include = []
# Leave out URLs matching one of these, e.g. ["/admin/**", "/cart"].
exclude = []
# Query parameters to remove from every URL. Left out, as here: these
# session IDs; [] removes none.
#strip_params = [{session_ids}]

# How "sitemapkit submit" makes the set's changes known (needs state; see
# docs/config.md). Google's and Bing's ping endpoints are gone: none is a
# default.
# [submit]
# robots = "public/robots.txt"
# indexnow = "on"
# indexnow_endpoint = "https://api.indexnow.org/indexnow"
# indexnow_key = "0123456789abcdef0123456789abcdef"
# websub_hubs = ["https://pubsubhubbub.appspot.com/"]
# search_console_property = "sc-domain:example.com"
# google_credentials = "secrets/search-console.json"
# search_console_endpoint = "https://www.googleapis.com/webmasters/v3/"
# google_token_url = "https://oauth2.googleapis.com/token"
# pings = ["https://search.example/ping?sitemap={sitemap}"]

# Where the URLs come from: one [[source]] table per source. Every source
# may also have its own include, exclude and strip_params, applied after
# [filter].

# URL lists (.txt), CSV (.csv) and JSON Lines (.jsonl) files, optionally
# gzipped (.gz): see ` + "`sitemapkit generate --help`" + ` for their columns.
[[source]]
type = "files"
paths = ["urls.txt"]
# "auto" (from each file's extension), "txt", "csv" or "jsonl".
format = "auto"
# The files' encoding: "utf-8", or "latin1" or "windows-1252" for legacy
# exports, converted as they are read.
encoding = "utf-8"

# A static site's build folder (Hugo, Jekyll, Next export…): its pages,
# minus noindex pages and pages whose canonical is elsewhere.
# [[source]]
# type = "dir"
# path = "public/"
# List about.html as /about.
# strip_html = false
# Other files to list, by glob relative to path ([]: HTML pages only).
# include_files = ["**/*.pdf"]
# Files and folders to leave out.
# exclude_files = ["drafts/**"]
# lastmod from "git" (the last commit), "mtime" (often the build's time),
# "none", or "auto" (git when the folder is in a git repository, else none).
# lastmod = "auto"
# List each page's <img> sources as image entries.
# images = false

# A database query: its columns loc (or the loc template below), lastmod,
# changefreq and priority become the URLs' fields.
# [[source]]
# type = "sql"
# "sqlite" or "postgres".
# driver = "sqlite"
# A SQLite file, or a PostgreSQL URL. To keep a password out of this file,
# give instead the environment variable that holds it: dsn_env = "DATABASE_URL".
# dsn = "shop.db"
# query = "SELECT slug, updated_at AS lastmod FROM products"
# {column} is replaced by the column's value, escaped.
# loc = "https://www.example.com/products/{slug}"

# Web server access logs (Common or Combined Log Format, gzipped or not):
# the pages that were served successfully.
# [[source]]
# type = "log"
# paths = ["/var/log/nginx/access.log", "/var/log/nginx/access.log.1.gz"]
# Query parameters to keep in logged URLs ([]: drop them all).
# keep_params = ["page"]

# Existing sitemaps, indexes and robots.txt files, local or on the web: to
# merge, split or move a set without losing its extensions.
# [[source]]
# type = "sitemap"
# paths = ["https://old.example.com/sitemap.xml", "legacy/sitemap.xml.gz"]

# A crawl of the live site, from these URLs (their scheme, host and folder
# are its scope), listing the indexable, canonical pages it finds.
# [[source]]
# type = "crawl"
# paths = ["https://www.example.com/"]
# Other hosts to crawl too, whole.
# hosts = []
# Pages fetched at once; requests a second to one host (0: no limit).
# concurrency = 8
# rate = 5
# The most pages fetched, and links from a start to a page.
# max_pages = 100000
# max_depth = 100
# Stop after this long (resumable with generate --resume).
# budget = "1h"
# Files other than HTML pages to list, by path pattern.
# include_files = ["**/*.pdf"]
# Do not follow links marked rel="nofollow".
# skip_nofollow = false
# Render the pages whose links look written by their scripts in headless
# Chromium (Debian's chromium package).
# render = false
# Every URL met, and why it was left out, as JSON Lines.
# crawl_log = "crawl.jsonl"
# Where the crawl keeps what does not fit in memory and, when stopped,
# what --resume needs ("": .sitemapkit/crawl-XXXXXXXX, named by paths).
# crawl_dir = ""

# A group is a set of its own files under the one index (here
# products-1-….xml), with its own sources.
# [[group]]
# name = "products"
# [[group.source]]
# type = "sql"
# driver = "postgres"
# dsn_env = "DATABASE_URL"
# query = "SELECT 'https://www.example.com/p/' || id AS loc, updated_at AS lastmod FROM products"
# exclude = ["/p/test-*"]
`
