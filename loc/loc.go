// Package loc applies the sitemap protocol's rules for URLs: IRIs to URIs,
// IDN hosts to punycode, normalisation, session IDs, and the scope rules
// (same scheme, host and port as the sitemap, inside its directory).
//
// The protocol asks for absolute http(s) URLs, "URL-escaped" per RFC 3986
// and RFC 3987, shorter than 2,048 characters, on the sitemap's scheme, host
// and port and under its directory. [Normalize] turns what users have (an
// IRI from a CSV file or a database) into such a URI, [Scope.Apply] adds the
// scope rules for the builder, and [Scope.Check] and [Check] report the same
// problems in URIs read from others' files without rewriting them. They
// all read URLs with [sitemap.ParseURI], as the sitemap.Writer does, so
// that what one accepts the others do.
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
//   - Escapes take one spelling (RFC 3986 §6.2.2): hex digits upper-case
//     ("%c3%bc" becomes "%C3%BC", "%2f" "%2F"), and an escaped unreserved
//     character decoded ("%7E" becomes "~", "%41" "A"). The spellings are
//     equivalent (§2.1, §2.3), and one URL must have one form, or the
//     de-duplication and the coming state see two pages. A reserved
//     character stays escaped: "%2F" is not "/".
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
	pathOK  = charset(unreserved + subDelims + ":@/")
	queryOK = charset(unreserved + subDelims + ":@/?") // also the fragment's
	isHex   = charset("0123456789ABCDEFabcdef")
	// isUnreserved holds RFC 3986's unreserved characters (§2.3):
	// escaping them changes nothing, so their escapes are decoded.
	isUnreserved = charset(unreserved)
	// hostFast holds the bytes of the labels of a normalised ASCII host
	// name.
	hostFast = charset("abcdefghijklmnopqrstuvwxyz0123456789-_")
	// pathLook and queryLook mark, for skip, the bytes of a path and of a
	// query that need a second look: those not allowed as they are, and
	// the path's dots.
	pathLook  = look(without(pathOK, "."))
	queryLook = look(queryOK)
)

// look turns a set of allowed bytes into skip's table.
func look(ok [256]bool) (t [256]uint8) {
	for c, ok := range ok {
		if !ok {
			t[c] = 1
		}
	}
	return t
}

func charset(s string) (t [256]bool) {
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return t
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

// parse is sitemap.ParseURI with loc's field and raw as the value.
func parse(s, raw string) (sitemap.URI, error) {
	u, err := sitemap.ParseURI(s)
	if err != nil {
		v := err.(*sitemap.Violation)
		v.Field, v.Value = "loc", raw
	}
	return u, err
}

// port returns the port of u as Normalize writes it: without leading
// zeros, and "" for the scheme's default one.
func port(u *sitemap.URI, scheme string) string {
	p := strings.TrimLeft(u.Port, "0")
	if p == "" && u.Port != "" {
		p = "0"
	}
	if p == defaultPort(scheme) {
		return ""
	}
	return p
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// normHost lower-cases host and turns an IDN into punycode; ParseURI has
// checked an ASCII host's bytes and an IPv6 literal.
func normHost(host, raw string) (string, error) {
	if host[0] == '[' {
		a, _ := netip.ParseAddr(host[1 : len(host)-1])
		return "[" + a.String() + "]", nil
	}
	lower := strings.ToLower(host)
	if isASCII(host) && !strings.Contains(lower, "xn--") {
		return lower, nil
	}
	if !utf8.ValidString(host) {
		return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+": not UTF-8")
	}
	h, err := profile.ToASCII(host)
	if err != nil {
		return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+": "+idnaReason(err))
	}
	// The punycode is held to what ParseURI takes of an ASCII host: UTS
	// #46 maps "／" to "/", for one.
	if h == "" {
		return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+": empty")
	}
	u, err := sitemap.ParseURI("http://" + h + "/")
	if err != nil || u.Host != h || u.Port != "" || !isASCII(h) {
		return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+
			": not a host name once in punycode ("+strconv.Quote(h)+")")
	}
	// A punycode label past DNS's 63 octets is refused when it is read
	// back (the idna package decodes it again): refused here too, so that
	// what Normalize returns normalises to itself.
	for label := range strings.SplitSeq(h, ".") {
		if len(label) > maxLabel && strings.HasPrefix(label, "xn--") {
			return "", violation(sitemap.RuleInvalidURL, raw, "invalid host "+strconv.Quote(host)+
				": a label of more than 63 characters once in punycode")
		}
	}
	return h, nil
}

// maxLabel is the longest DNS label, in octets (RFC 1035 §2.3.4).
const maxLabel = 63

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
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
			if v := unhex(s[i+1])<<4 | unhex(s[i+2]); isUnreserved[v] {
				b = append(b, v)
			} else {
				b = append(b, '%', upperHex[v>>4], upperHex[v&15])
			}
			i += 2
		default:
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return b
}

const upperHex = "0123456789ABCDEF"

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// canonicalEscape reports whether s[i] starts a valid escape in its one
// spelling: upper-case hex, of a character that is not unreserved.
func canonicalEscape(s string, i int) bool {
	if !validEscape(s, i) {
		return false
	}
	a, b := s[i+1], s[i+2]
	return !('a' <= a && a <= 'f' || 'a' <= b && b <= 'f') && !isUnreserved[unhex(a)<<4|unhex(b)]
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
// "/", dot segments removed, escapes in one spelling (upper-case hex, and
// unreserved characters decoded).
// The package documentation lists every choice.
//
// It returns a *sitemap.Violation with RuleRelativeURL when raw has no
// scheme or host, RuleInvalidURL when it is not http(s) or cannot be
// parsed (invalid host or port, user name or password), and RuleURLTooLong,
// without rewriting it, when it is longer than MaxRewrite, or would be
// once rewritten.
//
// A URI Normalize returned comes back as it is, checked in one pass over
// its bytes without allocating: normalising is idempotent, and cheap the
// second time, so that a stage that cannot know whether its input is
// canonical (the Builder, for an image's URL) may ask again.
func Normalize(raw string) (string, error) {
	// The length first: the fast path returned a URI that needed no
	// rewriting whatever its length, and an image's URL has no other cap
	// (one of 10 MB was published, in a sitemap no reader takes).
	if len(raw) > MaxRewrite {
		if err := tooLong(raw); err != nil {
			return "", err
		}
	}
	if normal(raw) {
		return raw, nil
	}
	n, _, err := normalize(raw)
	if err == nil && len(n) > MaxRewrite {
		// Escaping makes a URI up to three times as long: refused too, so
		// that what Normalize returns it returns again as it is.
		return "", violation(sitemap.RuleURLTooLong, raw,
			strconv.Itoa(len(n))+" characters once escaped, more than the 65,536 sitemapkit takes")
	}
	return n, err
}

// normal reports whether Normalize would return raw as it is. It may say
// false for a URI that is (an IPv6 or punycode host, a segment that starts
// with "."): the slow path decides. It runs for every URL a source gives,
// so its loops are the tight kind: one table lookup a byte.
func normal(raw string) bool {
	i, ok := normalOrigin(raw)
	return ok && normalPath(raw, i)
}

// Canonical reports whether Normalize and StripSessionIDs (with the
// default names) both return raw as it is: in one pass over the URL, for
// a source to skip both on the usual URL. It may say false for a URI
// that is (as normal may): the two functions decide.
func Canonical(raw string) bool {
	if len(raw) > MaxRewrite {
		return false // Normalize refuses it
	}
	i, ok := normalOrigin(raw)
	return ok && fastFrom(raw, i+1)
}

// normalOrigin reports whether raw starts with an origin Normalize
// keeps as it is, followed by a '/', at the index it returns.
func normalOrigin(raw string) (int, bool) {
	var i int
	switch {
	case strings.HasPrefix(raw, "https://"):
		i = 8
	case strings.HasPrefix(raw, "http://"):
		i = 7
	default:
		return 0, false
	}
	start := i
	for { // a label, and the dot after it
		if i < len(raw) && raw[i] == 'x' && strings.HasPrefix(raw[i:], "xn--") {
			return 0, false // punycode, to be checked
		}
		j := i
		for i < len(raw) && hostFast[raw[i]] {
			i++
		}
		if i == j {
			return 0, false // an empty label, refused
		}
		if i == len(raw) || raw[i] != '.' {
			break
		}
		if i++; i == len(raw) || !hostFast[raw[i]] {
			break // a trailing dot, kept; or an empty label, refused below
		}
	}
	if i < len(raw) && raw[i] == ':' {
		j := i + 1
		for j < len(raw) && '0' <= raw[j] && raw[j] <= '9' {
			j++
		}
		port := raw[i+1 : j]
		if port == "" || port[0] == '0' || len(port) > 5 || len(port) == 5 && port > "65535" ||
			port == defaultPort(raw[:start-3]) {
			return 0, false
		}
		i = j
	}
	if i == len(raw) || raw[i] != '/' {
		return 0, false
	}
	return i, true
}

// normalPath is normal for the path at raw[i:] (i on its first '/') and
// what follows it: bytes it allows, escapes, no dot segment ("/." or
// "/%2e" may start one: the slow path decides).
func normalPath(raw string, i int) bool {
	for {
		i = skip(raw, i, &pathLook)
		switch {
		case i == len(raw):
			return true
		case raw[i] == '.':
			if raw[i-1] == '/' {
				return false
			}
			i++
		case raw[i] == '%':
			if !canonicalEscape(raw, i) {
				return false // also "/%2e", which may start a dot segment
			}
			i += 3
		case raw[i] == '?':
			return normalQuery(raw, i+1)
		case raw[i] == '#':
			return normalQuery(raw, i)
		default:
			return false
		}
	}
}

// normalQuery is normal for the query at raw[i:] and what follows it: a
// fragment once, after a "#" (which i may stand on).
func normalQuery(raw string, i int) bool {
	fragment := false
	for {
		i = skip(raw, i, &queryLook)
		switch {
		case i == len(raw):
			return true
		case raw[i] == '%' && canonicalEscape(raw, i):
			i += 3
		case raw[i] == '#' && !fragment:
			fragment = true
			i++
		default:
			return false
		}
	}
}

// skip returns the index of the first byte from raw[i:] on that t says
// needs a look (or len(raw)), eight bytes at a time while none does.
func skip(raw string, i int, t *[256]uint8) int {
	for ; i+8 <= len(raw); i += 8 {
		b := raw[i : i+8]
		if t[b[0]]|t[b[1]]|t[b[2]]|t[b[3]]|t[b[4]]|t[b[5]]|t[b[6]]|t[b[7]] != 0 {
			break
		}
	}
	for i < len(raw) && t[raw[i]] == 0 {
		i++
	}
	return i
}

// MaxRewrite is the length of the longest URI Normalize and Scope.Apply
// rewrite, white space around it aside, and of the longest Normalize
// returns, rewritten or not (an image's URL has no other cap, and one
// past the sitemap reader's token of 256 KiB would make a sitemap no
// reader takes). Rewriting costs memory in
// proportion, up to three times the length for each copy (a 16 MiB CSV
// field of control characters peaked at 420 MB), and no real URL comes
// near: a sitemap's loc must be shorter than 2,048 characters, and one of
// 64 KiB normalises that short only through thousands of dot segments or
// of characters that are dropped.
const MaxRewrite = 64 << 10

// tooLong returns the violation of a URI longer than MaxRewrite, whose
// length is not the loc's rule alone: an image's URL has no other cap.
func tooLong(raw string) error {
	if t := trimSpace(raw); len(t) > MaxRewrite {
		return violation(sitemap.RuleURLTooLong, raw,
			strconv.Itoa(len(t))+" characters, more than the 65,536 sitemapkit takes")
	}
	return nil
}

// normalize is Normalize, also returning the parts of raw as written.
func normalize(raw string) (string, sitemap.URI, error) {
	p, err := parse(trimSpace(raw), raw)
	if err != nil {
		return "", p, err
	}
	scheme := strings.ToLower(p.Scheme)
	host, err := normHost(p.Host, raw)
	if err != nil {
		return "", p, err
	}
	b := make([]byte, 0, len(raw)+len(raw)/4+8)
	b = append(b, scheme...)
	b = append(b, "://"...)
	b = append(b, host...)
	if port := port(&p, scheme); port != "" {
		b = append(b, ':')
		b = append(b, port...)
	}
	pathStart := len(b)
	if p.Path == "" {
		b = append(b, '/')
	} else {
		b = appendEscaped(b, p.Path, &pathOK)
		b = removeDotSegments(b, pathStart)
	}
	if p.HasQuery {
		b = append(b, '?')
		b = appendEscaped(b, p.Query, &queryOK)
	}
	if p.HasFragment {
		b = append(b, '#')
		b = appendEscaped(b, p.Fragment, &queryOK)
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
