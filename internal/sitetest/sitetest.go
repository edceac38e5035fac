// Package sitetest serves web sites for tests on 127.0.0.1 (httptest):
// the site walk, validate and read are tested against real HTTP servers,
// good, broken and hostile ones.
package sitetest

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// A Site answers the paths it was given and 404 for any other, and
// remembers what was asked. In bodies, {{.}} stands for the site's own URL
// (scheme and host), so that a sitemap can list the site's pages.
type Site struct {
	*httptest.Server
	mu    sync.Mutex
	pages map[string]http.HandlerFunc
	hits  map[string]int
	uas   []string
}

// New starts a Site, closed when t ends.
func New(t testing.TB) *Site {
	t.Helper()
	s := &Site{pages: map[string]http.HandlerFunc{}, hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		h := s.pages[r.URL.Path]
		s.hits[r.URL.Path]++
		s.uas = append(s.uas, r.UserAgent())
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// Page serves body at path.
func (s *Site) Page(path, body string) {
	body = strings.ReplaceAll(body, "{{.}}", s.URL)
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) })
}

// GzPage serves body gzipped at path, as a .xml.gz file is served (no
// Content-Encoding).
func (s *Site) GzPage(path, body string) {
	z := Gzip(strings.ReplaceAll(body, "{{.}}", s.URL))
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(z)) })
}

// ZstdPage serves body compressed by Zstd with window at path: with
// Content-Encoding: zstd when encoded, else as a .xml.zst file is served.
func (s *Site) ZstdPage(path, body string, window int, encoded bool) {
	z := Zstd(strings.ReplaceAll(body, "{{.}}", s.URL), window)
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) {
		if encoded {
			w.Header().Set("Content-Encoding", "zstd")
		}
		w.Write([]byte(z))
	})
}

// Trickle serves at path a urlset that never ends: its first n URLs at
// once (enough for the head a walk reads to tell the format), then one
// every pause, until the client goes.
func (s *Site) Trickle(path string, n int, pause time.Duration) {
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(w, "<url><loc>%s/p%d</loc></url>\n", s.URL, i); err != nil {
				return
			}
			if i < n {
				continue
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(pause):
			}
		}
	})
}

// Handle serves path with h.
func (s *Site) Handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = h
}

// Hits returns how many requests path received.
func (s *Site) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// UserAgents returns the User-Agent of every request, in order.
func (s *Site) UserAgents() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.uas...)
}

// Gzip returns s gzipped.
func Gzip(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// Zstd returns s compressed as one zstd frame whose header asks for the
// window given (a power of two), whatever s's size: a stream's, which
// does not say its size ahead.
func Zstd(s string, window int) string {
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b, zstd.WithWindowSize(window), zstd.WithEncoderConcurrency(1))
	if err != nil {
		panic(err)
	}
	w.Write([]byte(s))
	// Flushed before the end, the frame is a stream's: the encoder
	// would make one block written whole a frame of its own size.
	w.Flush()
	w.Close()
	return b.String()
}

// URLSet returns a urlset listing locs, each with lastmod 2024-05-01, one
// <url> per line.
func URLSet(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "<url><loc>%s</loc><lastmod>2024-05-01</lastmod></url>\n", l)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// Index returns a sitemap index listing locs, one <sitemap> per line.
func Index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>\n", l)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}
