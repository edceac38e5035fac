package source

import (
	"errors"
	"fmt"
	"iter"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// FilterOptions say which URLs a Filter keeps and which query parameters
// it removes from them.
//
// # Patterns
//
// Include and Exclude patterns match the path of a URL's loc once
// normalised (see Normalisation below): from the "/" after the host up to
// the "?" or "#", as the sitemap will spell it (percent-escapes included:
// write "/caf%C3%A9/*" for /café/; a loc without a path has the path "/";
// "/blog/../admin/x" is "/admin/x", where a crawler goes). Matching is
// case-sensitive, as paths are. The query never takes part: remove
// parameters with StripParams.
//
// A pattern is a glob, with the syntax of the static folder source's:
//
//   - "/" separates segments, and cannot be escaped;
//   - within a segment, path.Match syntax: "*" is any run of characters,
//     "?" one character, "[a-z]" and "[^0-9]" character classes, "\*"
//     a literal star;
//   - "**" as a whole segment is any number of segments, none included:
//     "/blog/**" matches /blog, /blog/ and everything under /blog/ (not
//     /blogger), "/**/amp" matches /amp and /news/2024/amp;
//   - a pattern matches the whole path: "/blog/*" matches /blog/a but not
//     /blog/a/b, nor /blog/a/ (whose last segment is empty);
//   - a pattern that does not start with "/" matches at any depth, as if
//     it started with "/**/": "*.pdf" matches /a.pdf and /docs/2024/a.pdf,
//     "tag/*" matches /tag/go and /en/tag/go.
//
// A pattern written "re:EXPR" is instead a regular expression (Go's RE2
// syntax, linear time), matched against the same path; it is not anchored
// unless it says so: "re:^/p/[0-9]+$" matches /p/12 only, "re:/amp$" any
// path ending in /amp.
//
// A pattern that is empty, a full URL ("https://…": write the path), a
// glob that path.Match refuses or an expression that does not compile is
// an error from NewFilter, naming it.
//
// # Normalisation
//
// A Filter is where a source's URLs take the one spelling they keep from
// then on, in the sitemap and in whatever is keyed by URL: before the
// parameters are stripped and the patterns matched, it normalises the loc
// and the URLs of images, videos and alternates with loc.Normalize and
// loc.NormalizeExtensions. Normalize returns a normalised URL as it is,
// after a check that does not allocate, so a Filter over another (or over
// a source that normalises for its own needs, an access log) rewrites
// nothing twice. A URL that cannot be normalised is returned as it is,
// whatever the patterns say, for the publish.Builder to refuse with its
// rule, at its place.
type FilterOptions struct {
	// Include lists patterns of which a URL must match one to be kept.
	// Empty: every URL is kept unless excluded.
	Include []string
	// Exclude lists patterns of which a URL matching any one is left out,
	// whatever Include says.
	Exclude []string
	// StripParams are the query parameters, and path parameters
	// (";jsessionid=…"), removed from every loc and every alternate's href
	// before the patterns are matched, with loc.StripSessionIDs: names
	// match without regard to ASCII case, a trailing "*" matches any name
	// with that prefix. Nil: loc.SessionIDNames(), the session IDs of
	// common platforms (sid, PHPSESSID, jsessionid, ASPSESSIONID*…). An
	// empty non-nil slice: nothing is removed. Image, video and news URLs
	// are left as they are: they are not pages.
	StripParams []string
	// Timezone is the zone of date-times written without one, as
	// databases write them ("2024-05-02 10:00:00", SQLite's
	// CURRENT_TIMESTAMP): a lastmod in a database's spelling is rewritten
	// in the W3C form a sitemap takes, read in this zone when it has none.
	// Nil: UTC.
	Timezone *time.Location
	// Base, when set, resolves a relative loc ("/about/", "about/") against
	// it, as every generator does, before it is normalised: an export
	// often lists paths. Empty: a relative loc stays one, and is refused
	// later (relative-url).
	Base string
	// Latin1 percent-encodes the non-ASCII characters of each loc and
	// alternate's href as ISO-8859-1 bytes (loc.Latin1) rather than UTF-8,
	// for a server that serves ISO-8859-1 URLs. Escapes already in a URL
	// (a static folder's pages, named by their files' bytes) are kept. A URL with a character
	// ISO-8859-1 lacks is a *ParseError wrapping loc's *sitemap.Violation.
	Latin1 bool
}

// Filter is a Source that returns the URLs of another Source that its
// FilterOptions keep, with the parameters they name removed. Errors of the
// Source read are returned as they are, and Name, Line and Err are that
// Source's, for the record last returned, as is its Place through Unwrap. A URL left out is counted
// by Dropped and never returned; the next is read in its place.
type Filter struct {
	src     Source
	include []matcher
	exclude []matcher
	strip   bool     // remove parameters named by names
	names   []string // the parameters to remove; nil: loc's session IDs
	dropped int
	tz      *time.Location
	latin1  bool
	base    *url.URL // resolves relative locs; nil: none are
	rel     int      // relative locs resolved
	dates   int      // lastmods rewritten from a database's spelling
	zonal   int      // of those, read in tz
}

// NewFilter returns a Filter of src with the options o, or an error naming
// the first pattern that cannot be compiled. It does not touch src, so that
// NewFilter(nil, o) checks options (a config file's) without a Source.
func NewFilter(src Source, o FilterOptions) (*Filter, error) {
	f := &Filter{src: src, tz: o.Timezone, latin1: o.Latin1}
	if o.Base != "" {
		b, err := url.Parse(o.Base)
		if err != nil || !b.IsAbs() {
			return nil, fmt.Errorf("base %q is not an absolute URL", o.Base)
		}
		f.base = b
	}
	var err error
	if f.include, err = compilePatterns("include", o.Include); err != nil {
		return nil, err
	}
	if f.exclude, err = compilePatterns("exclude", o.Exclude); err != nil {
		return nil, err
	}
	f.strip = o.StripParams == nil || len(o.StripParams) > 0
	if len(o.StripParams) > 0 {
		f.names = append([]string(nil), o.StripParams...)
	}
	return f, nil
}

// Read returns the next URL kept, with the contract of Source.Read.
func (f *Filter) Read() (sitemap.URL, error) {
	for {
		u, err := f.src.Read()
		if err != nil {
			return u, err
		}
		if f.latin1 {
			// Before a relative loc is resolved, which would escape it
			// as UTF-8.
			if err := latin1(&u); err != nil {
				return sitemap.URL{}, &ParseError{File: f.src.Name(), Line: f.src.Line(), Err: err}
			}
		}
		if f.base != nil {
			if r, ok := Resolve(f.base, u.Loc); ok {
				u.Loc = r
				f.rel++
			}
		}
		// The usual URL is canonical already: told in one pass, rather
		// than the two of normalising it and stripping its session IDs.
		plain := f.names == nil && len(u.Images)+len(u.Videos)+len(u.Alternates) == 0 && loc.Canonical(u.Loc)
		ok := plain || normalize(&u)
		u.LastMod, u.ChangeFreq, u.Priority = trimField(u.LastMod), trimField(u.ChangeFreq), trimField(u.Priority)
		if u.LastMod != "" {
			if d, zoneless, rewrote := dbDate(u.LastMod, f.tz); rewrote {
				u.LastMod = d
				f.dates++
				if zoneless {
					f.zonal++
				}
			}
		}
		if f.strip && !plain {
			f.stripParams(&u)
		}
		if !ok || f.keeps(u.Loc) {
			return u, nil
		}
		f.dropped++
	}
}

// trimField is s without the XML white space around it, as an XML reader
// reads a lastmod, changefreq or priority: a CSV written "a, 2024-05-02,
// weekly" means those values, not values the Writer refuses. Most have
// none, told by their ends.
func trimField(s string) string {
	const space = " \t\r\n" // XML's
	if s != "" && (strings.IndexByte(space, s[0]) >= 0 || strings.IndexByte(space, s[len(s)-1]) >= 0) {
		return strings.Trim(s, space)
	}
	return s
}

// normalize normalises u's loc and the URLs of its extensions, and
// reports whether all were normalised; u keeps what could not be.
func normalize(u *sitemap.URL) bool {
	n, err := loc.Normalize(u.Loc)
	if err != nil {
		return false
	}
	if len(u.Images)+len(u.Videos)+len(u.Alternates) > 0 {
		v := *u // u keeps its extensions if one cannot be normalised
		if loc.NormalizeExtensions(&v) != nil {
			return false
		}
		u.Images, u.Videos, u.Alternates = v.Images, v.Videos, v.Alternates
	}
	u.Loc = n
	return true
}

// latin1 encodes u's loc and alternates' hrefs with loc.Latin1.
func latin1(u *sitemap.URL) error {
	l, err := loc.Latin1(u.Loc)
	if err != nil {
		return err
	}
	u.Loc = l
	copied := false
	for i := range u.Alternates {
		h, err := loc.Latin1(u.Alternates[i].Href)
		if err != nil {
			return err
		}
		if h != u.Alternates[i].Href {
			if !copied {
				u.Alternates, copied = slices.Clone(u.Alternates), true
			}
			u.Alternates[i].Href = h
		}
	}
	return nil
}

// stripParams removes f.names from u's loc and alternates' hrefs.
func (f *Filter) stripParams(u *sitemap.URL) {
	u.Loc = f.stripOne(u.Loc)
	copied := false
	for i := range u.Alternates {
		h := u.Alternates[i].Href
		s := f.stripOne(h)
		if s == h {
			continue
		}
		if !copied {
			// The slice may be shared with the Source's own memory.
			u.Alternates = append([]sitemap.Alternate(nil), u.Alternates...)
			copied = true
		}
		u.Alternates[i].Href = s
	}
}

// stripOne removes f.names from s; a URL with nothing to remove is
// returned as it is, and nothing is allocated.
func (f *Filter) stripOne(s string) string { return loc.StripSessionIDs(s, f.names) }

// keeps reports whether the patterns keep a URL with this loc, normalised.
func (f *Filter) keeps(l string) bool {
	if f.include == nil && f.exclude == nil {
		return true
	}
	u, _ := sitemap.ParseURI(l) // l is normalised: it parses, and has a path
	p := u.Path
	if p == "" {
		p = "/" // never for a normalised loc; the matchers want a leading "/"
	}
	if f.include != nil && !anyMatches(f.include, p) {
		return false
	}
	return !anyMatches(f.exclude, p)
}

// Unwrap returns the Source f reads: Place names a record's place through
// it, and a caller reaches what it counts (an access log's Stats) once the
// stream is over.
func (f *Filter) Unwrap() Source { return f.src }

// Dropped returns how many URLs Include and Exclude have left out so far.
func (f *Filter) Dropped() int { return f.dropped }

// Dates reports how many lastmods were rewritten from a database's
// spelling, and how many of them had no zone and were read in
// FilterOptions.Timezone.
func (f *Filter) Dates() (rewritten, zoneless int) { return f.dates, f.zonal }

// Resolved counts the relative locs resolved against FilterOptions.Base.
func (f *Filter) Resolved() int { return f.rel }

// Resolve returns loc resolved against base when loc is a path ("/about/",
// "blog/post"), not a URL; ok is false when loc is a URL (or cannot be
// resolved), and is then left as it is. The canonical stage resolves an
// input's relative locs with it (FilterOptions.Base), and `sitemapkit read
// --base` those of a sitemap.
func Resolve(base *url.URL, loc string) (resolved string, ok bool) {
	if !relative(loc) {
		return loc, false
	}
	r, err := base.Parse(loc)
	if err != nil {
		return loc, false
	}
	return r.String(), true
}

// relative reports whether loc is a path, not a URL: no scheme before its
// first "/", "?" or "#" (so not "https://…"), and not "//host/…".
func relative(loc string) bool {
	if loc == "" || strings.HasPrefix(loc, "//") {
		return false
	}
	for i := 0; i < len(loc); i++ {
		switch loc[i] {
		case ':':
			return false
		case '/', '?', '#':
			return true
		}
	}
	return true
}

// Timezone names the zone dates without one are read in.
func (f *Filter) Timezone() string {
	if f.tz == nil {
		return "UTC"
	}
	return f.tz.String()
}

// All returns every URL kept and every error, with the contract of
// Source.All.
func (f *Filter) All() iter.Seq2[sitemap.URL, error] { return all(f) }

// Name returns the name of the Source read.
func (f *Filter) Name() string { return f.src.Name() }

// Line returns the Source's line for the record last returned.
func (f *Filter) Line() int { return f.src.Line() }

// Err returns the error that ended the Source's stream, or nil.
func (f *Filter) Err() error { return f.src.Err() }

// matcher is a compiled pattern: a glob's segments, or a regexp.
type matcher struct {
	glob []string
	re   *regexp.Regexp
}

// compilePatterns compiles the patterns of one option.
func compilePatterns(option string, patterns []string) ([]matcher, error) {
	var out []matcher
	for _, p := range patterns {
		m, err := compilePattern(p)
		if err != nil {
			return nil, fmt.Errorf("%s pattern %q: %w", option, p, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// ErrPattern is what NewFilter's error for a glob or expression it cannot
// compile wraps.
var ErrPattern = errors.New("bad pattern")

func compilePattern(p string) (matcher, error) {
	if expr, ok := strings.CutPrefix(p, "re:"); ok {
		re, err := regexp.Compile(expr)
		if err != nil {
			return matcher{}, fmt.Errorf("%w: %w", ErrPattern, err)
		}
		return matcher{re: re}, nil
	}
	switch {
	case p == "":
		return matcher{}, fmt.Errorf("%w: empty", ErrPattern)
	case strings.Contains(p, "://"):
		return matcher{}, fmt.Errorf("%w: patterns match the URL's path: write /blog/** rather than https://www.example.com/blog/**", ErrPattern)
	}
	if p[0] != '/' {
		p = "/**/" + p
	}
	var segs []string
	for _, s := range strings.Split(p[1:], "/") {
		if s == "**" {
			if len(segs) > 0 && segs[len(segs)-1] == "**" {
				continue // "/**/**/" is "/**/"
			}
		} else if _, err := path.Match(s, ""); err != nil {
			return matcher{}, fmt.Errorf("%w in segment %q (path.Match syntax: a class left open, a range backwards, a trailing \\)", ErrPattern, s)
		}
		segs = append(segs, s)
	}
	return matcher{glob: segs}, nil
}

func anyMatches(ms []matcher, p string) bool {
	for i := range ms {
		if ms[i].match(p) {
			return true
		}
	}
	return false
}

func (m *matcher) match(p string) bool {
	if m.re != nil {
		return m.re.MatchString(p)
	}
	return matchGlob(m.glob, p)
}

// matchGlob matches p, a path starting with "/", against a glob's
// segments. "**" is to segments what "*" is to characters in wildcard
// matching, so the classic greedy algorithm applies: remember the last
// "**" and, on a mismatch, let it take one more segment. It runs in
// O(segments × pattern segments) and allocates nothing.
func matchGlob(g []string, p string) bool {
	const none = -1
	pi, gi := 1, 0 // start of the current path segment; pattern segment
	starG, starP := none, 0
	for pi <= len(p) || gi < len(g) {
		if gi < len(g) {
			if g[gi] == "**" {
				starG, starP = gi, pi
				gi++
				continue
			}
			if pi <= len(p) {
				end := segEnd(p, pi)
				if ok, _ := path.Match(g[gi], p[pi:end]); ok {
					gi, pi = gi+1, end+1
					continue
				}
			}
		}
		if starG == none || starP > len(p) {
			return false
		}
		starP = segEnd(p, starP) + 1
		pi, gi = starP, starG+1
	}
	return true
}

// segEnd returns the end of the path segment starting at i.
func segEnd(p string, i int) int {
	if j := strings.IndexByte(p[i:], '/'); j >= 0 {
		return i + j
	}
	return len(p)
}

var _ Source = (*Filter)(nil)
