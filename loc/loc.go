// Package loc applies the sitemap protocol's rules for URLs: IRIs to URIs,
// IDN hosts to punycode, normalisation, session IDs, and the scope rules
// (same scheme, host and port as the sitemap, inside its directory).
//
// The protocol asks for absolute http(s) URLs, "URL-escaped" per RFC 3986
// and RFC 3987, shorter than 2,048 characters, on the sitemap's scheme, host
// and port and under its directory. [Normalize] turns what users have (an
// IRI from a CSV file or a database) into such a URI, [Scope.Apply] adds the
// scope rules for the builder, and [Scope.Check] and [Check] report the same
// problems in URIs read from others' files without rewriting them.
//
// # Choices
//
// Normalize rewrites only what must change for the URI to be valid or what
// RFC 3986 §6.2.2 and §6.2.3 call equivalent, and keeps everything else
// byte for byte:
//
//   - Scheme and host are lower-cased; an IDN host becomes punycode with the
//     UTS #46 processing browsers use (non-transitional, hyphens and "_"
//     allowed, Bidi and joiner rules checked), and a host that fails it is
//     refused. A trailing dot is kept: "example.com." is not the host
//     "example.com" for the scope rules (a sitemap should not mix them).
//     Hosts are not otherwise rewritten (no IPv4 number forms). An IPv6
//     literal is written in its RFC 5952 form ("[2001:db8::1]"); zones are
//     refused.
//   - A default port (:80 for http, :443 for https) and an empty port are
//     removed; other ports lose leading zeros.
//   - An empty path becomes "/".
//   - Every byte RFC 3986 does not allow where it stands is percent-encoded
//     with upper-case hex: non-ASCII as its UTF-8 bytes (invalid UTF-8 as
//     the bytes it has), controls, space, `"<>\^{|}` and the backquote, "["
//     and "]" outside an IPv6 host, a second "#", and a "%" not followed by
//     two hex digits (as "%25").
//   - Valid escapes are kept exactly as written, case included: "%c3%bc"
//     stays lower-case and "%41" is not decoded. RFC 3986 calls the
//     spellings equivalent, but some servers (signed URLs, caches) key on
//     the raw text, so we do not touch what is already valid.
//   - Dot segments ("/a/./b", "/a/../b", and their escaped forms "%2e" and
//     "%2E", as browsers read them) are removed per RFC 3986 §5.2.4. They
//     must be: a crawler resolves them before it asks, so
//     "/catalog/../admin" is really "/admin", outside "/catalog/".
//   - A user name or password ("user:pass@host") is refused: a sitemap is
//     public and crawlers do not log in, so it can only leak a secret.
//   - A fragment is kept (escaped). Crawlers ignore it, so "/a#x" and "/a"
//     are the same page to them, but the protocol does not forbid it and
//     dropping it would silently merge the URLs of a site routed by
//     fragment into one; package lint may warn about it.
//   - An empty query or fragment ("/a?", "/a#") is kept, as RFC 3986 §6.2.3
//     asks.
//
// Length (< 2,048) and session IDs are checked by [Scope.Apply] and the
// Check functions, not by Normalize, which only rewrites.
package loc

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// profile is UTS #46 as the WHATWG URL standard (and so browsers and
// Googlebot) applies it to hosts: non-transitional ("ß" stays "ß"),
// CheckHyphens off ("r3---sn-x" hosts exist), STD3 rules off ("_" exists in
// real host names), Bidi and joiner rules on.
var profile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
)

// Character classes, per RFC 3986 §2 and §3.
const (
	unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
	subDelims  = "!$&'()*+,;="
)

var (
	pathOK    = charset(unreserved + subDelims + ":@/")
	queryOK   = charset(unreserved + subDelims + ":@/?") // also the fragment's
	hostOK    = charset("abcdefghijklmnopqrstuvwxyz0123456789-._")
	hostASCII = charset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._")
	isHex     = charset("0123456789ABCDEFabcdef")
)

func charset(s string) (t [256]bool) {
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return t
}

// parsed is an absolute URI reference split into its parts, as written.
type parsed struct {
	scheme, authority, path, query, fragment string
	hasQuery, hasFragment                    bool
}

func violation(rule, raw, msg string) *sitemap.Violation {
	return &sitemap.Violation{Rule: rule, Field: "loc", Value: raw, Msg: msg}
}

// trimSpace removes the ASCII whitespace around s (WHATWG's set plus \v).
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// split cuts s into scheme, authority, path, query and fragment. It refuses
// a reference without scheme or authority, and schemes other than http(s).
func split(s, raw string) (parsed, error) {
	var p parsed
	colon := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			colon = i
			break
		}
		if !('a' <= c|0x20 && c|0x20 <= 'z' || i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			break
		}
	}
	if colon <= 0 {
		return p, violation(sitemap.RuleRelativeURL, raw, "relative URL: no scheme (http:// or https://)")
	}
	p.scheme = strings.ToLower(s[:colon])
	if p.scheme != "http" && p.scheme != "https" {
		return p, violation(sitemap.RuleInvalidURL, raw, "scheme "+strconv.Quote(s[:colon])+" is not http or https")
	}
	rest := s[colon+1:]
	if !strings.HasPrefix(rest, "//") {
		return p, violation(sitemap.RuleRelativeURL, raw, "relative URL: no host after "+s[:colon+1])
	}
	rest = rest[2:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	p.authority, rest = rest[:end], rest[end:]
	if p.authority == "" {
		return p, violation(sitemap.RuleRelativeURL, raw, "relative URL: no host")
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		p.fragment, p.hasFragment = rest[i+1:], true
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		p.query, p.hasQuery = rest[i+1:], true
		rest = rest[:i]
	}
	p.path = rest
	return p, nil
}

// hostPort returns the normalised host and port of an authority ("" for no
// port or the scheme's default one).
func hostPort(authority, scheme, raw string) (host, port string, err error) {
	if strings.IndexByte(authority, '@') >= 0 {
		return "", "", violation(sitemap.RuleInvalidURL, raw, "a user name or password (…@) is not allowed in a sitemap URL")
	}
	host, port = authority, ""
	if strings.HasPrefix(authority, "[") {
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return "", "", violation(sitemap.RuleInvalidURL, raw, "IPv6 host without closing ]")
		}
		host, port = authority[:end+1], authority[end+1:]
		if port != "" {
			if port[0] != ':' {
				return "", "", violation(sitemap.RuleInvalidURL, raw, "unexpected "+strconv.Quote(port)+" after the IPv6 host")
			}
			port = port[1:]
		}
	} else if i := strings.LastIndexByte(authority, ':'); i >= 0 {
		host, port = authority[:i], authority[i+1:]
	}
	if port != "" {
		n := 0
		for i := 0; i < len(port); i++ {
			c := port[i]
			if c < '0' || c > '9' {
				return "", "", violation(sitemap.RuleInvalidURL, raw, "port "+strconv.Quote(port)+" is not a number")
			}
			if n = n*10 + int(c-'0'); n > 65535 {
				return "", "", violation(sitemap.RuleInvalidURL, raw, "port "+port+" is over 65535")
			}
		}
		port = strconv.Itoa(n)
		if port == defaultPort(scheme) {
			port = ""
		}
	}
	host, err = normHost(host, raw)
	return host, port, err
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// normHost lower-cases host and turns an IDN into punycode.
func normHost(host, raw string) (string, error) {
	if host == "" {
		return "", violation(sitemap.RuleRelativeURL, raw, "relative URL: no host")
	}
	if host[0] == '[' {
		a, err := netip.ParseAddr(host[1 : len(host)-1])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", violation(sitemap.RuleInvalidURL, raw, "invalid IPv6 host "+host)
		}
		return "[" + a.String() + "]", nil
	}
	simple := true // ASCII letters, digits, "-", "_" and ".": no IDNA needed
	for i := 0; i < len(host) && simple; i++ {
		simple = hostASCII[host[i]]
	}
	h := host
	if simple && !strings.Contains(strings.ToLower(host), "xn--") {
		h = strings.ToLower(host)
	} else {
		if !utf8.ValidString(host) {
			return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+": not UTF-8")
		}
		var err error
		if h, err = profile.ToASCII(host); err != nil {
			return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+": "+idnaReason(err))
		}
	}
	if h == "" {
		return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+": empty")
	}
	for i := 0; i < len(h); i++ {
		if !hostOK[h[i]] {
			return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+": "+strconv.Quote(h[i:i+1])+" is not allowed in a host name")
		}
		if h[i] == '.' && (i == 0 || h[i-1] == '.') {
			return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+": empty label")
		}
	}
	return h, nil
}

// idnaReason drops the idna package's "idna: " prefix.
func idnaReason(err error) string {
	return strings.TrimPrefix(err.Error(), "idna: ")
}

// appendEscaped appends s with every byte ok does not allow
// percent-encoded, keeping valid escapes as they are.
func appendEscaped(b []byte, s string, ok *[256]bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case ok[c]:
			b = append(b, c)
		case c == '%' && validEscape(s, i):
			b = append(b, s[i:i+3]...)
			i += 2
		default:
			b = append(b, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		}
	}
	return b
}

func validEscape(s string, i int) bool {
	return i+2 < len(s) && isHex[s[i+1]] && isHex[s[i+2]]
}

// firstUnescaped returns the index in s of the first byte that ok does not
// allow and that is not a valid escape, or -1.
func firstUnescaped(s string, ok *[256]bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if ok[c] {
			continue
		}
		if c == '%' && validEscape(s, i) {
			i += 2
			continue
		}
		return i
	}
	return -1
}

// Normalize returns raw as an absolute URI ready to be written in a sitemap:
// non-ASCII and other characters not allowed in a URI percent-encoded as
// UTF-8 (RFC 3987 §3.1; "http://www.example.com/ümlat.html&q=name" becomes
// "http://www.example.com/%C3%BCmlat.html&q=name"), an IDN host in punycode,
// scheme and host lower-cased, a default port removed, an empty path made
// "/", dot segments removed. Valid percent-escapes are kept as they are.
// The package documentation lists every choice.
//
// It returns a *sitemap.Violation with RuleRelativeURL when raw has no
// scheme or host, and RuleInvalidURL when it is not http(s) or cannot be
// parsed (invalid host or port, user name or password).
func Normalize(raw string) (string, error) {
	n, _, err := normalize(raw)
	return n, err
}

// normalize is Normalize, also returning the parts of raw as written.
func normalize(raw string) (string, parsed, error) {
	p, err := split(trimSpace(raw), raw)
	if err != nil {
		return "", p, err
	}
	host, port, err := hostPort(p.authority, p.scheme, raw)
	if err != nil {
		return "", p, err
	}
	b := make([]byte, 0, len(raw)+len(raw)/4+8)
	b = append(b, p.scheme...)
	b = append(b, "://"...)
	b = append(b, host...)
	if port != "" {
		b = append(b, ':')
		b = append(b, port...)
	}
	pathStart := len(b)
	if p.path == "" {
		b = append(b, '/')
	} else {
		b = appendEscaped(b, p.path, &pathOK)
		b = removeDotSegments(b, pathStart)
	}
	if p.hasQuery {
		b = append(b, '?')
		b = appendEscaped(b, p.query, &queryOK)
	}
	if p.hasFragment {
		b = append(b, '#')
		b = appendEscaped(b, p.fragment, &queryOK)
	}
	return string(b), p, nil
}

// dotSegment reports whether seg is "." (1) or ".." (2), escaped or not, as
// the WHATWG URL standard reads them; 0 otherwise.
func dotSegment(seg []byte) int {
	switch len(seg) {
	case 1, 3:
		if string(seg) == "." || len(seg) == 3 && isDot2e(seg) {
			return 1
		}
	case 2, 4, 6:
		if len(seg) == 2 && string(seg) == ".." {
			return 2
		}
		if len(seg) == 4 && (seg[0] == '.' && isDot2e(seg[1:]) || isDot2e(seg[:3]) && seg[3] == '.') {
			return 2
		}
		if len(seg) == 6 && isDot2e(seg[:3]) && isDot2e(seg[3:]) {
			return 2
		}
	}
	return 0
}

func isDot2e(s []byte) bool { return s[0] == '%' && s[1] == '2' && s[2]|0x20 == 'e' }

// removeDotSegments resolves the dot segments of the escaped path b[start:]
// (which begins with "/") in place, per RFC 3986 §5.2.4.
func removeDotSegments(b []byte, start int) []byte {
	path := b[start:]
	has := false
	for i := 0; i < len(path); i++ {
		if path[i] == '/' && i+1 < len(path) && (path[i+1] == '.' || path[i+1] == '%') {
			has = true
			break
		}
	}
	if !has {
		return b
	}
	src := append([]byte(nil), path...) // out overwrites path as we read
	out := b[:start]
	for i := 0; i < len(src); {
		// src[i] == '/': the segment runs to the next '/'.
		j := i + 1
		for j < len(src) && src[j] != '/' {
			j++
		}
		switch dotSegment(src[i+1 : j]) {
		case 0:
			out = append(out, src[i:j]...)
		case 2:
			if k := lastSlash(out); k >= start {
				out = out[:k]
			}
			fallthrough
		case 1:
			if j == len(src) {
				out = append(out, '/') // "/a/.." is "/", "/a/." is "/a/"
			}
		}
		i = j
	}
	return out
}

func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return -1
}
