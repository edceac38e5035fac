// Package loc applies the sitemap protocol's rules for URLs: IRIs to URIs,
// IDN hosts to punycode, normalisation, session IDs, and the scope rules
// (same scheme, host and port as the sitemap, inside its directory).
package loc

// Normalize returns raw as an absolute URI ready to be written in a sitemap:
// non-ASCII and other characters not allowed in a URI percent-encoded as
// UTF-8 (RFC 3987 §3.1; "http://www.example.com/ümlat.html&q=name" becomes
// "http://www.example.com/%C3%BCmlat.html&q=name"), an IDN host in punycode,
// scheme and host lower-cased, a default port removed, an empty path made
// "/". Valid percent-escapes are kept as they are.
//
// It returns a *sitemap.Violation with RuleRelativeURL when raw has no
// scheme or host, and RuleInvalidURL when it is not http(s) or cannot be
// parsed.
func Normalize(raw string) (string, error) {
	panic("unimplemented")
}

// A Scope holds the rules for the URLs one sitemap may list: those of the
// sitemap's public URL.
type Scope struct {
	// TODO(loc helper)
}

// NewScope returns the Scope of a sitemap published at sitemapURL. When
// sitemapURL ends in "/", it is the directory itself. It returns an error
// when sitemapURL is not an absolute http(s) URL.
func NewScope(sitemapURL string) (*Scope, error) {
	panic("unimplemented")
}

// Apply normalises raw (see Normalize) and checks it against the scope. It
// returns the URI to write, or a *sitemap.Violation: RuleRelativeURL,
// RuleInvalidURL, RuleURLNotAllowed (other scheme, host or port),
// RuleOutsideDirectory, RuleURLTooLong (2,048 characters or more once
// escaped), RuleSessionID.
//
// Apply is called for every URL of a set: a URL that is already a
// normalised ASCII URI inside the scope takes a fast path that does not
// allocate.
func (s *Scope) Apply(raw string) (string, error) {
	panic("unimplemented")
}
