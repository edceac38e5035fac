package render

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
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
	html, moved, err := c.Render(ctx, srv.URL+"/", func(context.Context, string, bool) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `<a href="/written">`) {
		t.Errorf("rendered:\n%s", html)
	}
	if moved != "" {
		t.Errorf("the page moved to %s", moved)
	}
	if _, _, err := (&Chromium{ExecPath: "/nonexistent/chromium"}).Render(ctx, srv.URL, nil); err == nil {
		t.Error("a missing browser rendered")
	}
}

// TestChromiumAllow: every request of the page is asked of allow first,
// and made only when allowed; images are not requested at all; a script's
// navigation is returned as where the page moved.
func TestChromiumAllow(t *testing.T) {
	browsertest.Need(t)
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/ok.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(`document.addEventListener("DOMContentLoaded", () => { document.body.innerHTML += '<a href="/from-ok">ok</a>' })`))
		case "/no.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(`document.addEventListener("DOMContentLoaded", () => { document.body.innerHTML += '<a href="/from-no">no</a>' })`))
		case "/move":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><script>location.replace("/no/elsewhere")</script></head><body></body></html>`))
		case "/frames":
			// A popup, and a frame of another site (its own process, were
			// sites isolated), whose script is refused.
			w.Header().Set("Content-Type", "text/html")
			other := strings.Replace("http://"+r.Host, "127.0.0.1", "localhost", 1)
			w.Write([]byte(`<html><head><script>window.open("/no/popup")</script></head><body><iframe src="` + other + `/frame"></iframe></body></html>`))
		case "/frame":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><script src="/no/frame.js"></script></head><body>f</body></html>`))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><script src="/ok.js"></script><script src="/no.js"></script></head><body><img src="/img.png"></body></html>`))
		}
	}))
	defer srv.Close()
	c := &Chromium{Timeout: 20 * time.Second}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	var asked []string
	allow := func(_ context.Context, u string, doc bool) bool {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, strings.TrimPrefix(u, srv.URL))
		return !strings.Contains(u, "/no")
	}
	html, moved, err := c.Render(ctx, srv.URL+"/", allow)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `href="/from-ok"`) || strings.Contains(string(html), `href="/from-no"`) || moved != "" {
		t.Errorf("rendered (moved %q):\n%s", moved, html)
	}
	if _, moved, err = c.Render(ctx, srv.URL+"/move", allow); err != nil || moved != srv.URL+"/no/elsewhere" {
		t.Errorf("a page whose script navigates: moved %q, %v", moved, err)
	}
	if _, _, err = c.Render(ctx, srv.URL+"/frames", allow); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits["/no/popup"] != 0 || hits["/no/frame.js"] != 0 || hits["/frame"] != 1 || !slices.ContainsFunc(asked, func(u string) bool { return strings.HasSuffix(u, "/no/frame.js") }) {
		t.Errorf("a page with a popup and a frame of another site: requests made %v (asked %v)", hits, asked)
	}
	if hits["/no.js"] != 0 || hits["/no/elsewhere"] != 0 || hits["/img.png"] != 0 || hits["/ok.js"] != 1 {
		t.Errorf("requests made: %v (asked %v)", hits, asked)
	}
	if !slices.Contains(asked, "/no.js") || slices.Contains(asked, "/img.png") {
		t.Errorf("asked of allow: %v", asked)
	}
}
