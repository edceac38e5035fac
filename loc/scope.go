package loc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// A Scope holds the rules for the URLs one sitemap may list: those of the
// sitemap's public URL. A Scope is immutable: it may be used by several
// goroutines at once. The zero Scope has no scope rules: its Apply and
// Check apply the other rules only, like the package's Check.
type Scope struct {
	origin  string // "https://www.example.com:8443", normalised
	dir     string // "/catalog/": the directory of the sitemap's URL
	prefix  string // origin + dir: what every URL in scope starts with
	outside string // the outside-directory message, made once: a set may break it on every URL
}

// NewScope returns the Scope of a sitemap published at sitemapURL (the
// directory of "https://example.com/catalog/sitemap.xml" is
// "https://example.com/catalog/"). When sitemapURL ends in "/", it is the
// directory itself. sitemapURL is normalised first (see Normalize); its
// query and fragment play no part. It returns the *sitemap.Violation of
// Normalize when sitemapURL is not an absolute http(s) URL.
func NewScope(sitemapURL string) (*Scope, error) {
	n, err := Normalize(sitemapURL)
	if err != nil {
		return nil, err
	}
	origin, path := cutOrigin(n)
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	dir := path[:strings.LastIndexByte(path, '/')+1]
	prefix := origin + dir
	return &Scope{origin: origin, dir: dir, prefix: prefix,
		outside: "outside the sitemap's directory: only URLs starting with " + prefix + " are allowed"}, nil
}

// cutOrigin splits a normalised URI at the "/" that starts its path.
func cutOrigin(n string) (origin, rest string) {
	i := strings.Index(n, "://") + 3
	j := i + strings.IndexAny(n[i:], "/")
	return n[:j], n[j:]
}

// String returns the URL prefix every URI in scope starts with, such as
// "https://www.example.com/catalog/".
func (s *Scope) String() string { return s.prefix }

// Apply normalises raw (see Normalize) and checks it against the scope. It
// returns the URI to write, or a *sitemap.Violation: RuleRelativeURL,
// RuleInvalidURL, RuleURLNotAllowed (other scheme, host or port),
// RuleOutsideDirectory, RuleURLTooLong (2,048 characters or more once
// escaped), RuleSessionID (a parameter named in SessionIDNames).
//
// Apply is called for every URL of a set: a URL that is already a
// normalised ASCII URI inside the scope takes a fast path, one pass over
// its bytes that does not allocate and returns raw itself.
func (s *Scope) Apply(raw string) (string, error) {
	if s.fast(raw) {
		return raw, nil
	}
	if t := trimSpace(raw); len(t) > MaxRewrite {
		return "", locTooLong(raw, len(t)) // not rewritten (see MaxRewrite)
	}
	n, _, err := normalize(raw)
	if err != nil {
		return "", err
	}
	if err := s.check(raw, n, len(n)); err != nil {
		return "", err
	}
	return n, nil
}

// Check reports, without rewriting it, whether uri as written in a sitemap
// breaks a rule Apply enforces: it returns nil or the *sitemap.Violation
// Apply would return for it, except that a URI Normalize would have to
// escape is RuleInvalidURL ("not escaped"), and that the length counted is
// uri's own. What Normalize merely makes canonical (case of scheme and host,
// default port, dot segments) is not a problem: crawlers do the same. Use
// it to check the sitemaps others wrote; it is as fast as Apply on valid
// URIs.
func (s *Scope) Check(uri string) error {
	if s.fast(uri) {
		return nil
	}
	if s.fastOutside(uri) {
		return violation(sitemap.RuleOutsideDirectory, uri, s.outside)
	}
	return s.checkWritten(uri)
}

// Rule returns the rule Check finds uri breaking, as its
// *sitemap.Violation names it, or "" when it breaks none. It allocates
// nothing when uri is fine or only outside the directory: a checker that
// has listed enough findings of a rule counts the rest with Rule, and asks
// Check for the message of those it lists. s may be nil: no scope.
func (s *Scope) Rule(uri string) string {
	switch {
	case s == nil:
	case s.fast(uri):
		return ""
	case s.fastOutside(uri):
		return sitemap.RuleOutsideDirectory
	}
	err := s.checkWritten(uri)
	if v, ok := err.(*sitemap.Violation); ok {
		return v.Rule
	}
	if err != nil {
		return sitemap.RuleInvalidURL // not made by this package
	}
	return ""
}

// Check is Scope.Check without a scope, for a sitemap whose public URL is
// not known: it reports relative, invalid and unescaped URIs, URIs of
// 2,048 characters or more, and session IDs.
func Check(uri string) error {
	var s *Scope
	return s.checkWritten(uri)
}

// checkWritten is Check's slow path; s may be nil (no scope).
func (s *Scope) checkWritten(uri string) error {
	if t := trimSpace(uri); t != uri {
		return violation(sitemap.RuleInvalidURL, uri, "not escaped: whitespace around the URL")
	}
	n, p, err := normalize(uri)
	if err != nil {
		return err
	}
	if err := unescaped(p, uri); err != nil {
		return err
	}
	return s.check(uri, n, len(uri))
}

// unescaped reports the first part of p that Normalize would have to
// escape.
func unescaped(p sitemap.URI, raw string) error {
	for i := 0; i < len(p.Host); i++ {
		if p.Host[i] >= 0x80 {
			return violation(sitemap.RuleInvalidURL, raw, "not escaped: the host must be in punycode (xn--…)")
		}
	}
	parts := [...]struct {
		name, s string
		ok      *[256]bool
	}{{"path", p.Path, &pathOK}, {"query", p.Query, &queryOK}, {"fragment", p.Fragment, &queryOK}}
	for _, part := range parts {
		if i := firstUnescaped(part.s, part.ok); i >= 0 {
			c := part.s[i]
			msg := fmt.Sprintf("not escaped: %q in the %s (write %%%02X)", part.s[i:i+1], part.name, c)
			if c == '%' {
				msg = "not escaped: \"%\" not followed by two hex digits in the " + part.name + " (write %25)"
			} else if c >= 0x80 {
				msg = fmt.Sprintf("not escaped: non-ASCII byte 0x%02X in the %s (write %%%02X)", c, part.name, c)
			}
			return violation(sitemap.RuleInvalidURL, raw, msg)
		}
	}
	return nil
}

// check applies the scope, length and session-ID rules to n, the
// normalised form of raw; length is the length to hold against the limit.
// s may be nil: no scope.
func (s *Scope) check(raw, n string, length int) error {
	if s != nil && s.prefix != "" {
		origin, path := cutOrigin(n)
		if origin != s.origin {
			return violation(sitemap.RuleURLNotAllowed, raw, s.mismatch(origin))
		}
		if !strings.HasPrefix(path, s.dir) {
			return violation(sitemap.RuleOutsideDirectory, raw, s.outside)
		}
	}
	if length > sitemap.MaxLocLen {
		return locTooLong(raw, length)
	}
	if name := sessionID(n); name != "" {
		return violation(sitemap.RuleSessionID, raw, "carries a session ID ("+name+"); list URLs without one")
	}
	return nil
}

// locTooLong is the violation of a loc of length characters, too many.
func locTooLong(raw string, length int) error {
	return violation(sitemap.RuleURLTooLong, raw, strconv.Itoa(length)+" characters; a URL must be shorter than 2,048 characters")
}

// mismatch words why origin (normalised, not s.origin) is not allowed, as
// Search Console does.
func (s *Scope) mismatch(origin string) string {
	scheme, host, port := splitOrigin(origin)
	sScheme, sHost, sPort := splitOrigin(s.origin)
	switch {
	case scheme != sScheme:
		return "scheme " + scheme + ", sitemap is on " + sScheme
	case host == "www."+sHost:
		return "path mismatch: includes www (host " + host + ", sitemap is on " + sHost + ")"
	case "www."+host == sHost:
		return "path mismatch: missing www (host " + host + ", sitemap is on " + sHost + ")"
	case host != sHost:
		return "host " + host + ", sitemap is on " + sHost
	default:
		return "port " + port + ", sitemap is on port " + sPort
	}
}

// splitOrigin splits a normalised origin; port is the effective one.
func splitOrigin(origin string) (scheme, host, port string) {
	scheme, hp, _ := strings.Cut(origin, "://")
	host, port = hp, defaultPort(scheme)
	if i := strings.LastIndexByte(hp, ':'); i >= 0 && i > strings.LastIndexByte(hp, ']') {
		host, port = hp[:i], hp[i+1:]
	}
	return scheme, host, port
}

// fast reports whether raw is a normalised URI in scope that passes every
// rule, so that Apply may return it as it is. It may say false for a URI
// that is fine (a segment that starts with "."): the slow path decides.
func (s *Scope) fast(raw string) bool {
	if len(raw) > sitemap.MaxLocLen || len(raw) < len(s.prefix) || raw[:len(s.prefix)] != s.prefix || s.prefix == "" {
		return false
	}
	return fastFrom(raw, len(s.prefix))
}

// fastOutside reports whether raw is a normalised URI on the scope's
// origin but outside its directory, that breaks no rule checked before
// the directory: what a set published in the wrong folder has on every
// URL, answered without normalising each. The rules checked after it
// (length, session IDs) are not looked at.
func (s *Scope) fastOutside(raw string) bool {
	o := len(s.origin)
	if s.prefix == "" || len(raw) > sitemap.MaxLocLen || len(raw) <= o || raw[o] != '/' || raw[:o] != s.origin {
		return false
	}
	return !strings.HasPrefix(raw[o:], s.dir) && normalPath(raw, o)
}

// fastFrom reports whether raw[i:], just after a '/' of a normalised
// origin's path, is normalised and free of session IDs.
func fastFrom(raw string, i int) bool {
	if i < len(raw) && (raw[i] == '.' || raw[i] == '%') && dotStart(raw, i) {
		return false
	}
	for ; i < len(raw); i++ {
		c := raw[i]
		if fastPath[c] {
			continue
		}
		switch c {
		case '/':
			if i+1 < len(raw) && dotStart(raw, i+1) {
				return false
			}
		case '%':
			if !canonicalEscape(raw, i) {
				return false
			}
			i += 2
		case ';':
			if name, _ := pathParam(raw[i+1:]); isSessionName(name) {
				return false
			}
		case '?':
			return fastQuery(raw, i+1)
		case '#':
			return fastFragment(raw, i+1)
		default:
			return false
		}
	}
	return true
}

// dotStart reports whether the segment at raw[i:] may be a dot segment.
func dotStart(raw string, i int) bool {
	return raw[i] == '.' || raw[i] == '%' && i+2 < len(raw) && raw[i+1] == '2' && raw[i+2]|0x20 == 'e'
}

// fastQuery is fast for the query starting at raw[i:].
func fastQuery(raw string, i int) bool {
	name := i // start of the current parameter's name, -1 once seen
	for ; i < len(raw); i++ {
		c := raw[i]
		if fastQueryOK[c] {
			continue
		}
		switch c {
		case '=':
			if name >= 0 && isSessionName(raw[name:i]) {
				return false
			}
			name = -1
		case '&':
			if name >= 0 && isSessionName(raw[name:i]) {
				return false
			}
			name = i + 1
		case '%':
			if !canonicalEscape(raw, i) {
				return false
			}
			i += 2
		case '#':
			if name >= 0 && isSessionName(raw[name:i]) {
				return false
			}
			return fastFragment(raw, i+1)
		default:
			return false
		}
	}
	return name < 0 || !isSessionName(raw[name:])
}

// fastFragment is fast for the fragment starting at raw[i:].
func fastFragment(raw string, i int) bool {
	for ; i < len(raw); i++ {
		c := raw[i]
		if queryOK[c] {
			continue
		}
		if c != '%' || !canonicalEscape(raw, i) {
			return false
		}
		i += 2
	}
	return true
}

// The bytes the fast path passes without a second look.
var (
	fastPath    = without(pathOK, "/;")
	fastQueryOK = without(queryOK, "=&")
)

func without(t [256]bool, s string) [256]bool {
	for i := 0; i < len(s); i++ {
		t[s[i]] = false
	}
	return t
}
