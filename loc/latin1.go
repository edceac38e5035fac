package loc

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Latin1 percent-encodes the non-ASCII characters of raw's path, query and
// fragment as ISO-8859-1 bytes instead of UTF-8 ("ü" becomes %FC, as in
// sitemaps.org's example for a server that serves ISO-8859-1 URLs). The
// host is left to Normalize (punycode); a relative reference ("/café",
// resolved later) has none, even with a "://" in its query or path (a
// redirect's target), so all of it is encoded. Escapes already in raw are
// kept.
// Normalize keeps what Latin1 wrote: it is the choice of a site that asks
// for it, never a default. A character ISO-8859-1 has no byte for is a
// *sitemap.Violation with RuleInvalidURL.
func Latin1(raw string) (string, error) {
	start := 0
	// "://" starts an authority only after a scheme: before any "/", "?"
	// or "#" (RFC 3986 §3).
	if i := strings.Index(raw, "://"); i >= 0 && !strings.ContainsAny(raw[:i], "/?#") {
		k := strings.IndexAny(raw[i+3:], "/?#")
		if k < 0 {
			return raw, nil
		}
		start = i + 3 + k
	}
	first := -1
	for i := start; i < len(raw); i++ {
		if raw[i] >= utf8.RuneSelf {
			first = i
			break
		}
	}
	if first < 0 {
		return raw, nil
	}
	var b strings.Builder
	b.Grow(len(raw) + 8)
	b.WriteString(raw[:first])
	for i := first; i < len(raw); {
		c := raw[i]
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(raw[i:])
		if r > 0xFF || r == utf8.RuneError && n == 1 {
			what := fmt.Sprintf("%q (U+%04X)", r, r)
			if r == utf8.RuneError {
				what = fmt.Sprintf("the byte 0x%02X, which is not UTF-8", c)
			}
			return raw, &sitemap.Violation{Rule: sitemap.RuleInvalidURL, Field: "loc", Value: raw,
				Msg: "has " + what + ", which ISO-8859-1 URLs cannot hold (--url-encoding latin1)"}
		}
		const hex = "0123456789ABCDEF"
		b.WriteByte('%')
		b.WriteByte(hex[r>>4])
		b.WriteByte(hex[r&15])
		i += n
	}
	return b.String(), nil
}
