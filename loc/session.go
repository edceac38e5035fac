package loc

import (
	"strings"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// sessionIDNames are the parameter names that carry a session ID in the
// URLs of common platforms: generic (sid, sessionid, session_id), PHP
// (PHPSESSID), Java servlets (JSESSIONID, also as the path parameter
// ";jsessionid="), classic ASP (ASPSESSIONIDxxxxxxxx) and ColdFusion (CFID,
// CFTOKEN). A trailing "*" matches any name with that prefix.
var sessionIDNames = [...]string{
	"sid", "sessionid", "session_id", "phpsessid", "jsessionid", "aspsessionid*", "cfid", "cftoken",
}

// SessionIDNames returns the parameter names that Scope.Apply and Check
// report as session IDs, matched without regard to ASCII case; a name ending in
// "*" matches every name that starts with the rest ("aspsessionid*"). Each
// call returns a new slice that the caller may extend, for example to give
// StripSessionIDs a site's own names. Google asks for URLs without session
// IDs: each visit makes new ones, so the same page is listed many times.
func SessionIDNames() []string {
	return append([]string(nil), sessionIDNames[:]...)
}

// matchName reports whether the parameter name is one of names, without
// regard to ASCII case (only: "ſid" is not "sid").
func matchName(name string, names []string) bool {
	for _, n := range names {
		if p, ok := strings.CutSuffix(n, "*"); ok {
			if len(name) >= len(p) && eqFold(name[:len(p)], p) {
				return true
			}
		} else if len(name) == len(n) && eqFold(name, n) {
			return true
		}
	}
	return false
}

// eqFold reports whether a and b, of the same length, are equal without
// regard to ASCII case.
func eqFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isSessionName is matchName(name, sessionIDNames[:]), spelled out to be
// quick: it runs for every parameter of every URL on Apply's fast path.
// TestIsSessionName holds it to the list.
func isSessionName(name string) bool {
	switch len(name) {
	case 3:
		return eqLower(name, "sid")
	case 4:
		return eqLower(name, "cfid")
	case 7:
		return eqLower(name, "cftoken")
	case 9:
		return eqLower(name, "sessionid") || eqLower(name, "phpsessid")
	case 10:
		return eqLower(name, "session_id") || eqLower(name, "jsessionid")
	}
	return len(name) >= 12 && eqLower(name[:12], "aspsessionid")
}

// eqLower reports whether s equals lower, a lower-case ASCII string of the
// same length, without regard to ASCII case.
func eqLower(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		if c := s[i]; c != lower[i] && (c < 'A' || c > 'Z' || c+'a'-'A' != lower[i]) {
			return false
		}
	}
	return true
}

// pathParam returns the name of the path parameter s starts with (s follows
// a ";") and its length, value included.
func pathParam(s string) (name string, n int) {
	n = strings.IndexAny(s, ";/?#")
	if n < 0 {
		n = len(s)
	}
	name, _, _ = strings.Cut(s[:n], "=")
	return name, n
}

// sessionID returns the name of the first session-ID parameter in the path
// parameters or the query of uri, or "".
func sessionID(uri string) string {
	path, _, query := pathAndQuery(uri)
	for i := 0; i < len(path); i++ {
		if path[i] == ';' {
			if name, _ := pathParam(path[i+1:]); isSessionName(name) {
				return name
			}
		}
	}
	for query != "" {
		var param string
		param, query, _ = strings.Cut(query, "&")
		if name, _, _ := strings.Cut(param, "="); isSessionName(name) {
			return name
		}
	}
	return ""
}

// pathAndQuery returns the path of uri (as sitemap.ParseURI reads it, or
// up to "?" or "#" for a reference it refuses: a relative one), where it
// starts in uri, and the query of uri.
func pathAndQuery(uri string) (path string, start int, query string) {
	if u, err := sitemap.ParseURI(uri); err == nil {
		start = len(uri) - len(u.Path)
		if u.HasQuery {
			start -= 1 + len(u.Query)
		}
		if u.HasFragment {
			start -= 1 + len(u.Fragment)
		}
		return u.Path, start, u.Query
	}
	path, _, _ = strings.Cut(uri, "#")
	path, query, _ = strings.Cut(path, "?")
	return path, 0, query
}

// hasParam reports whether query has a parameter named in names (nil:
// the session IDs). The query may go on with "#" and a fragment, where it
// ends. It runs for every URL a Filter strips, hence the tight loop.
func hasParam(query string, names []string) bool {
	name := 0 // where the current parameter's name starts; -1 once it has ended
	for i := 0; i < len(query); i++ {
		for i < len(query) && !paramSep[query[i]] {
			i++
		}
		if i == len(query) || query[i] == '#' {
			return name >= 0 && isParam(query[name:i], names)
		}
		if name >= 0 && isParam(query[name:i], names) {
			return true
		}
		name = -1
		if query[i] == '&' {
			name = i + 1
		}
	}
	return name >= 0 && isParam(query[name:], names)
}

// isParam reports whether name is one of names; nil names are the session
// IDs, matched by isSessionName, which is quicker than matchName.
func isParam(name string, names []string) bool {
	if names == nil {
		return isSessionName(name)
	}
	return matchName(name, names)
}

// paramSep marks the bytes that end a query parameter's name, or it.
var paramSep = [256]bool{'=': true, '&': true, '#': true}

// StripSessionIDs returns uri without its session-ID parameters: query
// parameters and path parameters (";jsessionid=…") whose name is one of
// names, matched as SessionIDNames describes (nil names means
// SessionIDNames()). Other parameters keep their order and spelling; a query
// left empty loses its "?". uri is returned as it is when it has none.
func StripSessionIDs(uri string, names []string) string {
	return stripSessionIDs(uri, names, true)
}

// stripSessionIDs is StripSessionIDs; quick takes the shortcut for URLs
// with nothing to strip, which tests hold to the long way.
func stripSessionIDs(uri string, names []string, quick bool) string {
	// The usual URL has no path parameter and no session ID in its query:
	// two vectorised scans tell, and it is returned as it is. Whatever they
	// cannot rule out takes the long way below.
	q, semi := strings.IndexByte(uri, '?'), strings.IndexByte(uri, ';')
	if noPathParams := quick && (semi < 0 || q >= 0 && semi > q); noPathParams && q < 0 {
		return uri
	} else if noPathParams && (strings.HasPrefix(uri, "https://") || strings.HasPrefix(uri, "http://") || q > strings.Index(uri, "://")) {
		if !hasParam(uri[q+1:], names) {
			return uri
		}
	}
	path, pathStart, query := pathAndQuery(uri)
	var b strings.Builder
	changed := false
	// Path parameters.
	last := 0
	for i := 0; i < len(path); i++ {
		if path[i] != ';' {
			continue
		}
		name, n := pathParam(path[i+1:])
		if isParam(name, names) {
			if !changed {
				b.Grow(len(uri))
				b.WriteString(uri[:pathStart])
				changed = true
			}
			b.WriteString(path[last:i])
			last = i + 1 + n
		}
		i += n
	}
	if changed {
		b.WriteString(path[last:])
	}
	// Query parameters.
	rest := uri[pathStart+len(path):] // "?query#fragment", "#fragment" or ""
	if strings.HasPrefix(rest, "?") {
		rest = rest[1+len(query):]
		if !hasParam(query, names) {
			// The common case: nothing to drop, nothing allocated.
			if !changed {
				return uri
			}
			b.WriteString("?" + query)
		} else {
			var kept []string
			for q := query; ; {
				param, more, found := strings.Cut(q, "&")
				if name, _, _ := strings.Cut(param, "="); !isParam(name, names) {
					kept = append(kept, param)
				}
				if !found {
					break
				}
				q = more
			}
			if !changed {
				b.Grow(len(uri))
				b.WriteString(uri[:pathStart])
				b.WriteString(path)
				changed = true
			}
			if q := strings.Join(kept, "&"); q != "" {
				b.WriteString("?" + q)
			}
		}
	}
	if !changed {
		return uri
	}
	b.WriteString(rest)
	return b.String()
}
