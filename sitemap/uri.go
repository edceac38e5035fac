package sitemap

import (
	"net/netip"
	"strconv"
	"strings"
)

// A URI is an absolute http(s) URI cut into its parts as written. It comes
// from [ParseURI], the one parser behind the Writer's checks, package loc's
// normalisation and scope rules, and the path that package source's filters
// match: they all agree on what a URL is because they all read it here.
type URI struct {
	Scheme string // "http" or "https", in the case written
	// Host is the host as written: a name (perhaps not ASCII, which
	// package loc turns into punycode), or an IPv6 literal with its
	// brackets.
	Host     string
	Port     string // the digits after the host's ":", "" when there are none
	Path     string // from the "/" after the host up to "?" or "#"; "" when there is none
	Query    string // after "?", without it
	Fragment string // after "#", without it
	// HasQuery and HasFragment tell an empty query or fragment ("/a?",
	// "/a#"), which RFC 3986 keeps, from none.
	HasQuery, HasFragment bool
}

// ParseURI cuts s into the parts of an absolute http(s) URI, and refuses,
// with a *Violation whose Field is left for the caller to fill, what no
// sitemap may list whatever its escaping: RuleRelativeURL for a reference
// without scheme or host, RuleInvalidURL for another scheme, whitespace
// around s, a user name or password (a sitemap is public, so it could only
// leak a secret), an IPv6 literal that is not closed or not an IPv6
// address (zones included), a port that is not a number up to 65535, an
// ASCII host holding a byte other than letters, digits, "-", "_" and ".",
// or an empty label. An empty port ("example.com:/") is allowed, as RFC
// 3986 allows it.
//
// It does not look at the escaping of the path, query and fragment, nor
// at a host that is not ASCII, nor at punycode: package loc rewrites those
// and the Writer refuses them unescaped. It allocates only for a
// Violation.
func ParseURI(s string) (URI, error) {
	var u URI
	if s != "" && (isURISpace(s[0]) || isURISpace(s[len(s)-1])) {
		return u, uriError(RuleInvalidURL, s, "not escaped: whitespace around the URL")
	}
	var rest string
	switch {
	case len(s) >= 8 && s[:8] == "https://":
		u.Scheme, rest = s[:5], s[8:]
	case len(s) >= 7 && s[:7] == "http://":
		u.Scheme, rest = s[:4], s[7:]
	default:
		var err error
		if rest, err = parseScheme(s, &u); err != nil {
			return u, err
		}
	}
	// The usual authority is a host name alone: labels of letters, digits,
	// "-" and "_" between single dots, up to "/", "?", "#" or the end. One
	// tight loop takes it; anything else takes parseAuthority.
	i, dot := 0, true // dot: at the start, or just after a "."
	for ; i < len(rest); i++ {
		c := rest[i]
		if hostLabel[c] {
			dot = false
		} else if c != '.' || dot {
			break
		} else {
			dot = true
		}
	}
	if i == 0 || i < len(rest) && rest[i] != '/' && rest[i] != '?' && rest[i] != '#' {
		var err error
		if i, err = parseAuthority(s, rest, &u); err != nil {
			return u, err
		}
	} else {
		u.Host = rest[:i]
	}
	rest = rest[i:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		u.Fragment, u.HasFragment = rest[i+1:], true
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		u.Query, u.HasQuery = rest[i+1:], true
		rest = rest[:i]
	}
	u.Path = rest
	return u, nil
}

// parseScheme is ParseURI's for a scheme other than "https://" and
// "http://" as most URLs spell them: it returns what follows "//".
func parseScheme(s string, u *URI) (string, error) {
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
		if strings.HasPrefix(s, "//") {
			return "", uriError(RuleRelativeURL, s, "relative URL: no scheme; write the absolute URL, e.g. https:"+shorten(s, 40))
		}
		return "", uriError(RuleRelativeURL, s, "relative URL: no scheme; write the absolute URL, e.g. https://www.example.com/page")
	}
	u.Scheme = s[:colon]
	if !asciiEqualFold(u.Scheme, "http") && !asciiEqualFold(u.Scheme, "https") {
		return "", uriError(RuleInvalidURL, s, "scheme "+strconv.Quote(u.Scheme)+" is not http or https")
	}
	rest := s[colon+1:]
	if len(rest) < 2 || rest[0] != '/' || rest[1] != '/' {
		return "", uriError(RuleRelativeURL, s, "relative URL: no host after "+s[:colon+1])
	}
	return rest[2:], nil
}

// parseAuthority is ParseURI's for an authority that is not a plain host
// name, at the start of rest: it sets u's Host and Port and returns where
// the authority ends in rest.
func parseAuthority(s, rest string, u *URI) (int, error) {
	end, at, colon := len(rest), false, -1
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '/', '?', '#':
			end = i
		case '@':
			at = true
			continue
		case ':':
			colon = i
			continue
		default:
			continue
		}
		break
	}
	authority := rest[:end]
	if authority == "" {
		return 0, uriError(RuleRelativeURL, s, "relative URL: no host")
	}
	if at {
		return 0, uriError(RuleInvalidURL, s, "a user name or password (…@) is not allowed in a sitemap URL")
	}
	host, port, hasPort := authority, "", false
	if authority[0] == '[' {
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return 0, uriError(RuleInvalidURL, s, "IPv6 host without closing ]")
		}
		host, port = authority[:end+1], authority[end+1:]
		if port != "" {
			if port[0] != ':' {
				return 0, uriError(RuleInvalidURL, s, "unexpected "+strconv.Quote(port)+" after the IPv6 host")
			}
			port, hasPort = port[1:], true
		}
		if a, err := netip.ParseAddr(host[1:end]); err != nil || !a.Is6() || a.Zone() != "" {
			return 0, uriError(RuleInvalidURL, s, "invalid IPv6 host "+host)
		}
	} else if colon >= 0 {
		host, port, hasPort = authority[:colon], authority[colon+1:], true
	}
	if hasPort {
		n := 0
		for i := 0; i < len(port); i++ {
			c := port[i]
			if c < '0' || c > '9' {
				return 0, uriError(RuleInvalidURL, s, "port "+strconv.Quote(port)+" is not a number")
			}
			if n = n*10 + int(c-'0'); n > 65535 {
				return 0, uriError(RuleInvalidURL, s, "port "+port+" is over 65535")
			}
		}
	}
	if host == "" {
		return 0, uriError(RuleRelativeURL, s, "relative URL: no host")
	}
	if host[0] != '[' {
		if msg := hostProblem(host); msg != "" {
			return 0, uriError(RuleInvalidURL, s, "invalid host "+strconv.Quote(host)+": "+msg)
		}
	}
	u.Host, u.Port = host, port
	return end, nil
}

// hostProblem says what is wrong with host, a name (not an IPv6
// literal), or "". Bytes past ASCII are the caller's, to turn into
// punycode or refuse.
func hostProblem(host string) string {
	for i := 0; i < len(host); i++ {
		c := host[i]
		if c >= 0x80 {
			return ""
		}
		if !hostByte[c] {
			return strconv.Quote(host[i:i+1]) + " is not allowed in a host name"
		}
		if c == '.' && (i == 0 || host[i-1] == '.') {
			return "empty label"
		}
	}
	return ""
}

// hostByte holds the bytes of a host name in ASCII: letters, digits and
// "-._" ("_" exists in real host names, and browsers allow it); hostLabel
// the same but the dot.
var hostByte, hostLabel = func() (t, l [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") {
		t[c], l[c] = true, true
	}
	t['.'] = true
	return t, l
}()

func isURISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func uriError(rule, s, msg string) *Violation {
	return &Violation{Rule: rule, Value: s, Msg: msg}
}
