package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/fingerprint"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/source"
)

// sourceKeys are the keys of each source type, besides type and the
// filter's include, exclude and strip_params, which every type has.
var sourceKeys = map[string][]string{
	TypeFiles:   {"paths", "format", "encoding"},
	TypeDir:     {"path", "strip_html", "include_files", "exclude_files", "lastmod", "images"},
	TypeSQL:     {"driver", "dsn", "dsn_env", "query", "loc"},
	TypeLog:     {"paths", "keep_params"},
	TypeSitemap: {"paths"},
	TypeCrawl:   {"paths", "hosts", "concurrency", "rate", "max_pages", "max_depth", "include_files", "skip_nofollow", "render", "budget", "crawl_dir", "crawl_log"},
}

var sourceTypes = []string{TypeFiles, TypeDir, TypeSQL, TypeLog, TypeSitemap, TypeCrawl}

// Validate checks c as Load does: required keys, the values of keys with a
// few choices, the keys of each source's type, group names. Paths are not
// opened: a missing file is found when its source opens. The error is an
// *Error, or several joined with errors.Join.
func (c *Config) Validate() error {
	v := &validator{origin: c.origin}
	v.top(c)
	sortErrors(v.errs)
	return errors.Join(v.errs...)
}

// ValidateSubmit is Validate for `sitemapkit submit`, which reads no
// source: it checks the set's options, the state and [submit].
func (c *Config) ValidateSubmit() error {
	v := &validator{origin: c.origin}
	v.options(c.BuildOptions())
	v.tracking(c)
	sortErrors(v.errs)
	return errors.Join(v.errs...)
}

// Validate checks s alone, as Validate checks each source of a Config.
func (s *Source) Validate() error {
	v := &validator{}
	v.source(nil, s)
	sortErrors(v.errs)
	return errors.Join(v.errs...)
}

type validator struct {
	origin *origin
	errs   []error
}

// errorf records a mistake at path. When the file does not place it (a
// Config built in code, a key left out), the message says where it is.
func (v *validator) errorf(path []string, format string, args ...any) {
	e := v.origin.errorAt(path, fmt.Sprintf(format, args...))
	if e.Line == 0 {
		if w := where(path); w != "" {
			e.Msg = w + ": " + e.Msg
		}
	}
	v.errs = append(v.errs, e)
}

// where names the table of the key at path as a person counts: "source
// #2", "group #1, source #3".
func where(path []string) string {
	var parts []string
	for _, p := range path {
		name, idx, ok := strings.Cut(p, "[")
		if !ok || name != "source" && name != "group" {
			continue
		}
		n, _ := strconv.Atoi(strings.TrimSuffix(idx, "]"))
		parts = append(parts, name+" #"+strconv.Itoa(n+1))
	}
	return strings.Join(parts, ", ")
}

func elem(path []string, name string, i int) []string {
	return append(slices.Clone(path), name+"["+strconv.Itoa(i)+"]")
}

func at(path []string, key string) []string { return append(slices.Clone(path), key) }

// oneOf checks that s, when set, is one of choices.
func (v *validator) oneOf(path []string, s string, choices ...string) {
	if s != "" && !slices.Contains(choices, s) {
		v.errorf(path, "%s %q is not one of %s", keyName(path), s, strings.Join(choices, ", "))
	}
}

func (v *validator) top(c *Config) {
	v.options(c.BuildOptions())
	formats, _ := Choices("format")
	v.oneOf([]string{"format"}, c.Format, formats...)
	indexes, _ := Choices("index")
	v.oneOf([]string{"index"}, c.Index, indexes...)
	v.filter([]string{"filter"}, &c.Filter)
	v.tracking(c)

	sources := len(c.Sources)
	for i := range c.Sources {
		v.source(elem(nil, "source", i), &c.Sources[i])
	}
	names := map[string]bool{}
	for i := range c.Groups {
		g := &c.Groups[i]
		p := elem(nil, "group", i)
		switch {
		case g.Name == "":
			v.errorf(p, `a group needs a name, e.g. name = "products"`)
		case !publish.ValidName(g.Name):
			v.errorf(at(p, "name"), "group name %q: use letters, digits, _ and - only", g.Name)
		case g.Name == c.BuildOptions().WithDefaults().Name:
			v.errorf(at(p, "name"), "group name %q is the set's own name (name); choose another", g.Name)
		case names[g.Name]:
			v.errorf(at(p, "name"), "group name %q is used twice", g.Name)
		}
		names[g.Name] = true
		if len(g.Sources) == 0 {
			v.errorf(p, "group %q has no source: add a [[group.source]]", g.Name)
		}
		for j := range g.Sources {
			v.source(elem(p, "source", j), &g.Sources[j])
		}
		sources += len(g.Sources)
	}
	if len(c.Groups) > 0 && c.Index == "never" {
		v.errorf([]string{"index"}, `index "never" cannot be: a set with groups needs an index`)
	}
	if sources == 0 && len(v.errs) == 0 {
		v.errorf(nil, "no source: add a [[source]] (see `sitemapkit init`)")
	}
}

// required words a required key left out, with an example.
var required = map[string]string{
	"base": `the site's URL, e.g. base = "https://www.example.com/"`,
	"out":  `the folder to publish into, e.g. out = "public/"`,
}

// options records the mistakes publish.Options.Check finds in the builder's
// options, each under its key, wrapping the *publish.OptionError.
func (v *validator) options(o publish.Options) {
	err := o.Check()
	if err == nil {
		return
	}
	for _, err := range err.(interface{ Unwrap() []error }).Unwrap() {
		oe := err.(*publish.OptionError)
		key := optionNames[oe.Field].Key
		e := v.origin.errorAt([]string{key}, oe.Named(key))
		if errors.Is(oe, publish.ErrRequired) {
			e = v.origin.errorAt(nil, oe.Named(key)+": "+required[key])
		}
		e.Err = oe
		v.errs = append(v.errs, e)
	}
}

func (v *validator) filter(path []string, f *Filter) {
	for i, p := range f.Include {
		if _, err := source.NewFilter(nil, source.FilterOptions{Include: []string{p}}); err != nil {
			v.errorf(elem(path, "include", i), "%v", err)
		}
	}
	for i, p := range f.Exclude {
		if _, err := source.NewFilter(nil, source.FilterOptions{Exclude: []string{p}}); err != nil {
			v.errorf(elem(path, "exclude", i), "%v", err)
		}
	}
	for i, name := range f.StripParams {
		if name == "" {
			v.errorf(elem(path, "strip_params", i), "strip_params: empty parameter name")
		}
	}
}

func (v *validator) source(path []string, s *Source) {
	if s.Type == "" {
		v.errorf(path, `a source needs a type: one of %s`, strings.Join(sourceTypes, ", "))
		return
	}
	allowed, ok := sourceKeys[s.Type]
	if !ok {
		v.errorf(at(path, "type"), "type %q is not one of %s", s.Type, strings.Join(sourceTypes, ", "))
		return
	}
	// A key of another type is a mistake, even set to its zero value.
	rv := reflect.ValueOf(s).Elem()
	fields := fieldsOf(rv.Type())
	for _, k := range keysOf(rv.Type()) {
		if k == "type" || k == "include" || k == "exclude" || k == "strip_params" || slices.Contains(allowed, k) {
			continue
		}
		if !v.origin.has(at(path, k)) && rv.FieldByIndex(fields[k]).IsZero() {
			continue
		}
		var owners []string
		for _, t := range sourceTypes {
			if slices.Contains(sourceKeys[t], k) {
				owners = append(owners, t)
			}
		}
		v.errorf(at(path, k), "%s is not a key of %s sources (it is one of %s sources')", k, s.Type, strings.Join(owners, ", "))
	}

	need := func(key string, set bool, example string) {
		if !set {
			v.errorf(path, "a %s source needs %s, e.g. %s", s.Type, key, example)
		}
	}
	switch s.Type {
	case TypeFiles:
		need("paths", len(s.Paths) > 0, `paths = ["urls.txt"]`)
		v.oneOf(at(path, "format"), s.Format, "auto", "txt", "csv", "jsonl")
		if _, err := source.ParseEncoding(s.Encoding); err != nil {
			v.errorf(at(path, "encoding"), "encoding %q is not one of utf-8, latin1, windows-1252", s.Encoding)
		}
		if s.Format == "" || s.Format == "auto" {
			for i, p := range s.Paths {
				if _, err := source.FormatOf(p); err != nil && p != "" && p != "-" {
					v.errorf(elem(path, "paths", i), `paths: %q: the format is not known from the name (.txt, .csv, .jsonl, optionally .gz); set format = "txt", "csv" or "jsonl"`, p)
				}
			}
		}
	case TypeDir:
		need("path", s.Path != "", `path = "public/"`)
		v.oneOf(at(path, "lastmod"), s.Lastmod, "auto", "git", "mtime", "none")
		for _, list := range []struct {
			key   string
			globs []string
		}{{"include_files", s.IncludeFiles}, {"exclude_files", s.ExcludeFiles}} {
			for i, g := range list.globs {
				if g == "" || strings.HasPrefix(g, "/") {
					v.errorf(elem(path, list.key, i), "%s: %q must be a glob relative to path, e.g. \"**/*.pdf\"", list.key, g)
				}
			}
		}
	case TypeSQL:
		need("driver", s.Driver != "", `driver = "sqlite"`)
		v.oneOf(at(path, "driver"), s.Driver, "sqlite", "postgres")
		switch {
		case s.DSN == "" && s.DSNEnv == "":
			v.errorf(path, `a sql source needs dsn (e.g. dsn = "shop.db") or dsn_env (e.g. dsn_env = "DATABASE_URL")`)
		case s.DSN != "" && s.DSNEnv != "":
			v.errorf(at(path, "dsn_env"), "give dsn or dsn_env, not both")
		}
		need("query", s.Query != "", `query = "SELECT loc, lastmod FROM pages"`)
	case TypeLog, TypeSitemap:
		need("paths", len(s.Paths) > 0, `paths = ["access.log"]`)
	case TypeCrawl:
		need("paths", len(s.Paths) > 0, `paths = ["https://www.example.com/"]`)
		for i, p := range s.Paths {
			if !isURL(p) {
				v.errorf(elem(path, "paths", i), "paths: %q is not an http(s) URL to start the crawl at", p)
			}
		}
		for i, h := range s.Hosts {
			if h == "" || strings.ContainsAny(h, "/?#@ ") {
				v.errorf(elem(path, "hosts", i), "hosts %q is not a host name, such as \"cdn.example.com\" (no scheme, no path)", h)
			}
		}
		if s.Concurrency < 0 || s.Concurrency > 256 {
			v.errorf(at(path, "concurrency"), "concurrency %d is out of range: 1 to 256", s.Concurrency)
		}
		if s.Rate != nil && *s.Rate < 0 {
			v.errorf(at(path, "rate"), "rate %v is negative: requests a second, 0 for no limit", *s.Rate)
		}
		if d, err := time.ParseDuration(s.Budget); s.Budget != "" && (err != nil || d <= 0) {
			v.errorf(at(path, "budget"), "budget %q is not a duration such as \"90m\"", s.Budget)
		}
		if s.MaxPages < 0 {
			v.errorf(at(path, "max_pages"), "max_pages %d is negative: the most pages fetched, 0 for the default", s.MaxPages)
		}
		if s.MaxDepth < 0 {
			v.errorf(at(path, "max_depth"), "max_depth %d is negative: the most links from a start to a page, 0 for the default", s.MaxDepth)
		}
	}
	for i, p := range s.Paths {
		if p == "" {
			v.errorf(elem(path, "paths", i), "paths: empty path")
		} else if isURL(p) && s.Type != TypeSitemap && s.Type != TypeCrawl {
			v.errorf(elem(path, "paths", i), "paths: %q is a URL; only sitemap sources read URLs", p)
		}
	}
	v.filter(path, &s.Filter)
}

// tracking checks the keys of change tracking: state, lastmod, the
// selectors and the feed.
func (v *validator) tracking(c *Config) {
	v.oneOf([]string{"lastmod"}, c.Lastmod, "content")
	if c.Lastmod == "content" && c.State == "" {
		v.errorf([]string{"lastmod"}, `lastmod "content" needs state: a file to remember each page's content in`)
	}
	if c.State != "" && c.Out != "" && publish.InDir(c.State, c.Out) {
		v.errorf([]string{"state"}, "state %q is inside out %q, which is published: keep it elsewhere, e.g. \".sitemapkit/state.db\" beside the config file", c.State, c.Out)
	}
	if c.Manifest != "" && c.State != "" && samePath(c.Manifest, c.State) {
		v.errorf([]string{"manifest"}, "manifest %q is the state's file: give each its own", c.Manifest)
	}
	if c.KeepDuplicates && c.State != "" {
		v.errorf([]string{"keep_duplicates"}, "keep_duplicates cannot be used with state: the state remembers one entry, in one file, for each URL")
	}
	if c.Feed && c.State == "" {
		v.errorf([]string{"feed"}, "feed needs state: the feed lists the changes the state records")
	}
	if c.Feed && c.BuildOptions().WithDefaults().Name == "feed" {
		// The set's index (or single file) would be feed.xml, which the
		// feed then overwrites.
		v.errorf([]string{"name"}, `name "feed" with feed: the set's file would be feed.xml, the feed's name; choose another name`)
	}
	if c.FeedEntries < 0 || c.FeedEntries > MaxFeedEntries {
		v.errorf([]string{"feed_entries"}, "feed_entries %d is out of range: 1 to %d", c.FeedEntries, MaxFeedEntries)
	}
	if c.Hub != "" {
		if u, err := url.Parse(c.Hub); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			v.errorf([]string{"hub"}, "hub %q is not an http(s) URL", c.Hub)
		}
	}
	v.oneOf([]string{"url_encoding"}, strings.ToLower(c.URLEncoding), "utf-8", "latin1")
	if _, err := c.Location(); err != nil {
		v.errorf([]string{"timezone"}, "timezone %q is not a time zone: use an IANA name such as \"Europe/Berlin\" or \"UTC\"", c.Timezone)
	}
	sub := c.Submit
	v.oneOf([]string{"submit", "indexnow"}, sub.IndexNow, "on", "off")
	for key, u := range map[string]string{"indexnow_endpoint": sub.IndexNowEndpoint, "search_console_endpoint": sub.SearchConsoleEndpoint,
		"google_token_url": sub.GoogleTokenURL} {
		if p, err := url.Parse(u); u != "" && (err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "") {
			v.errorf([]string{"submit", key}, "%s %q is not an http(s) URL", key, u)
		}
	}
	for i, u := range sub.WebSubHubs {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
			v.errorf([]string{"submit", "websub_hubs"}, "websub_hubs #%d %q is not an http(s) URL", i+1, u)
		}
	}
	for i, p := range sub.Pings {
		if !strings.Contains(p, "{sitemap}") {
			v.errorf([]string{"submit", "pings"}, "pings #%d %q has no {sitemap} to put the index's URL in", i+1, p)
		}
	}
	if _, err := fingerprint.New(fingerprint.Options{Content: c.ContentSelector}); err != nil {
		v.errorf([]string{"content_selector"}, "%v", err)
	}
	if _, err := fingerprint.New(fingerprint.Options{Ignore: c.IgnoreSelector}); err != nil {
		v.errorf([]string{"ignore_selector"}, "%v", err)
	}
}

// MaxFeedEntries is the most URLs feed_entries may ask the feed to list.
const MaxFeedEntries = 10000

// samePath reports whether a and b name one file: the same absolute path,
// or, for files that exist, the same file.
func samePath(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && x == y {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
