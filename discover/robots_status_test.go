package discover_test

import (
	"net/http"
	"testing"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/internal/sitetest"
)

// TestRobotsStatus: a robots.txt that answers 404 (or another 4xx) allows
// everything; one that answers 5xx, or 429 Too Many Requests, disallows
// everything. A 429 is the server asking for fewer requests, not saying
// it has no rules: Google treats it as a 5xx, and taking it for "no
// robots.txt" sent a crawl, at full speed, to every page of a busy
// server, the ones its rules keep crawlers from included.
func TestRobotsStatus(t *testing.T) {
	for status, want := range map[int]bool{
		http.StatusNotFound:            true,
		http.StatusForbidden:           true,
		http.StatusGone:                true,
		http.StatusTooManyRequests:     false,
		http.StatusInternalServerError: false,
		http.StatusServiceUnavailable:  false,
	} {
		site := sitetest.New(t)
		site.Handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", status) })
		f := discover.NewFetcher(discover.Options{})
		if got, why := f.Allowed(t.Context(), site.URL+"/page", ""); got != want {
			t.Errorf("robots.txt answering %d: Allowed = %v (%s), want %v", status, got, why, want)
		}
	}
}
