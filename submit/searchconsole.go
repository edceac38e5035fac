package submit

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

// DefaultSearchConsole is the Search Console API's root.
const DefaultSearchConsole = "https://www.googleapis.com/webmasters/v3/"

// ScopeWebmasters is the OAuth scope sitemaps.submit needs (the read-only
// one is enough only to list).
const ScopeWebmasters = "https://www.googleapis.com/auth/webmasters"

// SearchConsole submits sitemaps to Google through the Search Console
// API (sitemaps.submit).
type SearchConsole struct {
	// Endpoint is the API's root, DefaultSearchConsole when empty.
	Endpoint string
	// Property is the Search Console property: a URL prefix
	// ("https://www.example.com/") or a domain ("sc-domain:example.com").
	Property string
	// Client sends authorized requests: see GoogleClient.
	Client *http.Client
	Retry  Retry
}

// GoogleClient returns an HTTP client that authorizes its requests as the
// service account of the JSON key credentials (the file Google Cloud's
// console downloads), with ScopeWebmasters, through the OAuth 2.0 JWT
// bearer flow. tokenURL replaces Google's token endpoint when not empty
// (tests, private deployments). The key is never written anywhere.
func GoogleClient(ctx context.Context, credentials []byte, tokenURL string) (*http.Client, error) {
	conf, err := google.JWTConfigFromJSON(credentials, ScopeWebmasters)
	if err != nil {
		// The parser's errors do not quote the key; say what it wanted.
		return nil, fmt.Errorf("google credentials: not a service account's JSON key (%v)", err)
	}
	if tokenURL != "" {
		conf.TokenURL = tokenURL
	}
	// The token request and the API's, each bounded like the others.
	ctx = context.WithValue(ctx, oauth2.HTTPClient, defaultClient)
	client := conf.Client(ctx)
	client.Timeout = Timeout
	return client, nil
}

var searchConsoleHints = map[int]string{
	http.StatusUnauthorized: "the service account's credentials were refused: check the JSON key (a deleted key, or the wrong project)",
	http.StatusForbidden:    "the service account is not an owner of the property: add its e-mail address as an owner in Search Console (Settings, Users and permissions), and check that the property is spelled as Search Console shows it (https://www.example.com/ or sc-domain:example.com)",
	http.StatusNotFound:     "no such property: check its spelling (a URL prefix ends with /; a domain property is sc-domain:example.com)",
	http.StatusBadRequest:   "the sitemap's URL was refused: it must be inside the property",
}

// Contains reports whether the sitemap at sitemapURL is inside the
// property, the only sitemaps Search Console takes for it: for a domain
// property (sc-domain:example.com), a URL of the domain or of one of its
// subdomains, over http or https; for a URL prefix, a URL that starts
// with it (scheme and host in any case).
func (s *SearchConsole) Contains(sitemapURL string) bool {
	u, err := url.Parse(sitemapURL)
	if err != nil || u.Host == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if domain, ok := strings.CutPrefix(s.Property, "sc-domain:"); ok {
		domain = strings.TrimSuffix(strings.ToLower(domain), ".")
		return domain != "" && (host == domain || strings.HasSuffix(host, "."+domain))
	}
	p, err := url.Parse(s.Property)
	if err != nil || p.Host == "" {
		return false
	}
	path := p.EscapedPath()
	if path == "" {
		path = "/"
	}
	return strings.EqualFold(p.Scheme, u.Scheme) && strings.EqualFold(p.Host, u.Host) && strings.HasPrefix(u.EscapedPath(), path)
}

// Submit asks Google to read the sitemap at sitemapURL again (PUT
// sites/{property}/sitemaps/{sitemap URL}, both path-escaped). The
// answer has no body; any 2xx is success.
func (s *SearchConsole) Submit(ctx context.Context, sitemapURL string) error {
	root := s.Endpoint
	if root == "" {
		root = DefaultSearchConsole
	}
	if !strings.HasSuffix(root, "/") {
		root += "/"
	}
	target := root + "sites/" + url.PathEscape(s.Property) + "/sitemaps/" + url.PathEscape(sitemapURL)
	status, answer, err := send(ctx, s.Client, s.Retry, postBody(ctx, http.MethodPut, target, "", nil))
	if err == nil && status >= 200 && status < 300 {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var re *oauth2.RetrieveError
	if asRetrieve(err, &re) {
		code := re.Response.StatusCode
		if code == http.StatusTooManyRequests || code >= 500 {
			// The token endpoint is down or busy, which says nothing of
			// the key: later, like the API's own 429 and 5xx.
			return &Error{Channel: "search-console", Target: sitemapURL, Status: code, Retry: true,
				Msg: "the OAuth token endpoint still refused after retries; left pending"}
		}
		// The token endpoint refused the key: not worth retrying.
		return &Error{Channel: "search-console", Target: sitemapURL, Status: code,
			Msg: "the token endpoint refused the service account's key: check the JSON key (deleted, or another project's)"}
	}
	return answerError("search-console", sitemapURL, status, answer, err, searchConsoleHints)
}
