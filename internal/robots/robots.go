// Package robots parses robots.txt as RFC 9309 defines it, with Google's
// documented behaviour where the RFC leaves room: Sitemap: lines (in any
// group, any number), groups chosen by the crawler's product token, the
// longest matching rule winning, Allow winning ties, the * and $ wildcards,
// and percent-encoding normalised before matching.
//
// grobotstxt, the port of Google's parser, is not available to this
// module, so this is a small implementation of the same rules, tested with
// Google's documented examples.
package robots

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxBytes is how much of a robots.txt is parsed: RFC 9309 says a crawler
// "MUST" parse at least 500 kibibytes; Google stops there too. The rest is
// ignored.
const MaxBytes = 500 << 10

// A Sitemap is one Sitemap: line.
type Sitemap struct {
	Line  int    // 1-based line in robots.txt
	Value string // as written
	// URL is the absolute URL: Value itself, or Value resolved against the
	// robots.txt URL when it was relative. Empty when the line is unusable.
	URL string
	// Problem says what is wrong with the line ("" when nothing is): a
	// relative URL (resolved, but the protocol wants a full URL), invalid
	// UTF-8, not http(s). A line with a Problem and an empty URL is skipped.
	Problem string
}

// Robots is a parsed robots.txt.
type Robots struct {
	// Sitemaps are the Sitemap: lines, in order, whatever group they are
	// in.
	Sitemaps []Sitemap
	// Truncated reports that the file was longer than MaxBytes and only
	// its beginning was parsed.
	Truncated bool

	groups   []group
	allowAll bool // 4xx: no robots.txt, everything allowed
	denyAll  bool // 5xx or unreachable: assume complete disallow
}

type group struct {
	agents []string // lower-case product tokens, "*" for any
	rules  []rule
	delay  float64 // Crawl-delay, seconds; 0 when none
}

type rule struct {
	allow   bool
	pattern string // normalised
}

// AllowAll is what a crawler assumes when robots.txt is "unavailable"
// (a 4xx status): everything may be fetched.
func AllowAll() *Robots { return &Robots{allowAll: true} }

// DisallowAll is what a crawler assumes when robots.txt is "unreachable"
// (a 5xx status or a network error): nothing may be fetched.
func DisallowAll() *Robots { return &Robots{denyAll: true} }

// Parse parses a robots.txt found at robotsURL (used to resolve relative
// Sitemap: lines; may be nil). Only the first MaxBytes are read. Parse
// never fails: lines it does not understand are ignored, as RFC 9309
// asks.
func Parse(data []byte, robotsURL *url.URL) *Robots {
	r := &Robots{}
	if len(data) > MaxBytes {
		data = data[:MaxBytes]
		r.Truncated = true
		// The line the cap cuts is not the line written: its half of
		// a Sitemap: URL would be fetched, of a rule obeyed.
		if i := bytes.LastIndexAny(data, "\r\n"); i >= 0 {
			data = data[:i+1]
		}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var cur *group
	lastWasAgent := false
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		var line []byte
		if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
			line = data[:i]
			if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			data = data[i+1:]
		} else {
			line, data = data, nil
		}
		k, v, ok := record(line)
		if !ok {
			continue
		}
		switch k {
		case "user-agent", "useragent", "user agent":
			if !lastWasAgent || cur == nil {
				r.groups = append(r.groups, group{})
				cur = &r.groups[len(r.groups)-1]
			}
			cur.agents = append(cur.agents, productToken(v))
			lastWasAgent = true
		case "allow", "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw":
			lastWasAgent = false
			// Rules before any user-agent line belong to no group (RFC 9309
			// §2.2.1); an empty Disallow allows everything, so it is no rule.
			if cur == nil || v == "" {
				continue
			}
			cur.rules = append(cur.rules, rule{allow: k == "allow", pattern: normalise(v)})
		case "sitemap", "site-map": // as SitemapLine
			// Sitemap lines belong to no group and end none (RFC 9309 §2.2.4).
			r.Sitemaps = append(r.Sitemaps, sitemapLine(lineNo, v, robotsURL))
		case "crawl-delay":
			// Not RFC 9309's (Google ignores it); Bing and Yandex honour
			// it, and a polite crawler does. It does not end a run of
			// user-agent lines.
			if d, err := strconv.ParseFloat(v, 64); err == nil && d > 0 && cur != nil {
				cur.delay = d
			}
		default:
			// Other records (host…) do not end a run of user-agent
			// lines, as in Google's parser.
		}
	}
	return r
}

// record splits one line of a robots.txt (without its line end) into its
// key, lower-cased, and its value, both trimmed, its comment dropped; ok
// is false for a line that is no record.
func record(line []byte) (key, value string, ok bool) {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	k, v, ok := bytes.Cut(line, []byte(":"))
	if !ok {
		return "", "", false
	}
	return strings.ToLower(string(bytes.TrimSpace(k))), string(bytes.TrimSpace(v)), true
}

// SitemapLine reads one line of a robots.txt (its line end may be there;
// a file's byte order mark is the caller's to drop) as Parse reads it: ok
// is false for any line but a Sitemap: line. Its Line is 0. A Sitemap: line belongs to no group (RFC
// 9309 §2.2.4), so it reads the same alone, at any place of a file of any
// length: for a tool that edits such lines where Parse would stop at
// MaxBytes.
func SitemapLine(line []byte, robotsURL *url.URL) (s Sitemap, ok bool) {
	line = bytes.TrimRight(line, "\r\n")
	k, v, ok := record(line)
	if !ok || k != "sitemap" && k != "site-map" {
		return Sitemap{}, false
	}
	return sitemapLine(0, v, robotsURL), true
}

func sitemapLine(n int, v string, base *url.URL) Sitemap {
	s := Sitemap{Line: n, Value: v}
	if !utf8.ValidString(v) {
		s.Problem = "not valid UTF-8"
		return s
	}
	if v == "" {
		s.Problem = "empty"
		return s
	}
	u, err := url.Parse(v)
	if err != nil {
		s.Problem = "not a URL: " + err.Error()
		return s
	}
	if !u.IsAbs() || u.Host == "" {
		if base == nil {
			s.Problem = "relative URL: the protocol wants a full URL, and there is no robots.txt URL to resolve it against"
			return s
		}
		u = base.ResolveReference(u)
		s.Problem = "relative URL: the protocol wants a full URL (resolved against robots.txt's)"
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		s.Problem = "not an http or https URL"
		return s
	}
	// Resolving can make what no parser reads back ("//::" against
	// https://example.com/ is "https://::"): a URL must survive its text.
	if back, err := url.Parse(u.String()); err != nil || back.Host == "" {
		s.Problem = "not a URL once resolved: " + strconv.Quote(u.String())
		return s
	}
	s.URL = u.String()
	return s
}

// productToken is the part of a user-agent line that names a crawler:
// letters, '-' and '_' (RFC 9309 §2.2.1), lower-cased. "*" stays "*".
func productToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	end := 0
	for end < len(v) {
		c := v[end]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' {
			end++
			continue
		}
		break
	}
	return strings.ToLower(v[:end])
}

// Allowed reports whether a crawler whose User-Agent is userAgent may
// fetch rawURL (an absolute URL, or a path with an optional query).
func (r *Robots) Allowed(userAgent, rawURL string) bool {
	switch {
	case r.allowAll:
		return true
	case r.denyAll:
		return false
	}
	path := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		path = u.EscapedPath()
		if u.RawQuery != "" || u.ForceQuery {
			path += "?" + u.RawQuery
		}
		if u.Opaque != "" {
			path = u.Opaque
		}
	}
	if path == "" || path[0] == '?' {
		// An empty path is "/" (RFC 3986 §6.2.3): "http://host?q" is
		// "/?q", which "Disallow: /" covers.
		path = "/" + path
	}
	// robots.txt itself is always allowed (RFC 9309 §2.2.2).
	if path == "/robots.txt" {
		return true
	}
	path = normalise(path)
	rules := r.rulesFor(productToken(userAgent))
	best, allowed := -1, true
	for _, ru := range rules {
		if n := len(ru.pattern); n >= best && match(ru.pattern, path) {
			if n > best || ru.allow {
				best, allowed = n, ru.allow
			}
		}
	}
	return allowed
}

// CrawlDelay returns the Crawl-delay of the group a crawler whose
// User-Agent is userAgent obeys (the longest its groups give), capped at
// a minute; 0 when there is none.
func (r *Robots) CrawlDelay(userAgent string) time.Duration {
	token := productToken(userAgent)
	var named, star float64
	found := false
	for _, g := range r.groups {
		switch g.names(token) {
		case byName:
			named, found = max(named, g.delay), true
		case byStar:
			star = max(star, g.delay)
		}
	}
	d := star
	if found {
		d = named
	}
	// Capped in seconds, before the conversion: a delay of 10¹⁰ seconds
	// or more (or "inf") overflows a Duration, which wraps negative.
	return time.Duration(min(d, time.Minute.Seconds()) * float64(time.Second))
}

// rulesFor merges every group naming the product token, or, when none
// does, every "*" group (RFC 9309 §2.2.1).
func (r *Robots) rulesFor(token string) []rule {
	var named, star []rule
	found := false
	for _, g := range r.groups {
		switch g.names(token) {
		case byName:
			named = append(named, g.rules...)
			found = true
		case byStar:
			star = append(star, g.rules...)
		}
	}
	if found {
		return named
	}
	return star
}

// How a group names a crawler.
const (
	notNamed = iota
	byStar   // "*" only
	byName   // its product token, with or without "*"
)

// names says how g names the crawler of token. Its own name wins over
// "*" whatever the order of the user-agent lines: a group that names "*"
// first, then the crawler, is the crawler's, and merged with its other
// groups.
func (g *group) names(token string) int {
	how := notNamed
	for _, a := range g.agents {
		if a == token && token != "" {
			return byName
		}
		if a == "*" {
			how = byStar
		}
	}
	return how
}

// match reports whether path matches pattern, where * matches any run of
// characters and a final $ anchors the end. A pattern matches a prefix of
// path otherwise.
func match(pattern, path string) bool {
	// Positions in path that the pattern so far can end at: Google's
	// algorithm, linear in len(pattern)*len(path) at worst.
	pos := []int{0}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '$' && i == len(pattern)-1 {
			return pos[len(pos)-1] == len(path)
		}
		if c == '*' {
			start := pos[0]
			pos = pos[:0]
			for p := start; p <= len(path); p++ {
				pos = append(pos, p)
			}
			continue
		}
		next := pos[:0]
		for _, p := range pos {
			if p < len(path) && path[p] == c {
				next = append(next, p+1)
			}
		}
		pos = next
		if len(pos) == 0 {
			return false
		}
	}
	return true
}

// normalise brings a path or pattern to one spelling (RFC 9309 §2.2.2):
// percent-encoded unreserved characters are decoded, other escapes get
// upper-case hex, and bytes outside ASCII are percent-encoded.
func normalise(s string) string {
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteByte('%')
				b.WriteByte(upper(s[i+1]))
				b.WriteByte(upper(s[i+2]))
			}
			i += 2
			changed = true
		case c >= 0x80 || c <= 0x20 || c == 0x7f:
			const hex = "0123456789ABCDEF"
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			changed = true
		default:
			b.WriteByte(c)
		}
	}
	if !changed {
		return s
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'f' {
		return c - 'a' + 'A'
	}
	return c
}

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}
