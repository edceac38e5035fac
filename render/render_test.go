package render

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/browsertest"
)

// TestChromium renders a page whose link is written by a script, as
// a browser leaves the document.
func TestChromium(t *testing.T) {
	browsertest.Need(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "probe/") {
			t.Errorf("User-Agent %q", ua)
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><head><script>document.addEventListener("DOMContentLoaded", () => { document.body.innerHTML = '<a href="/written">w</a>' })</script></head><body></body></html>`))
	}))
	defer srv.Close()
	c := &Chromium{UserAgent: "probe/1.0", Timeout: 20 * time.Second}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	html, err := c.Render(ctx, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `<a href="/written">`) {
		t.Errorf("rendered:\n%s", html)
	}
	if _, err := (&Chromium{ExecPath: "/nonexistent/chromium"}).Render(ctx, srv.URL); err == nil {
		t.Error("a missing browser rendered")
	}
}
