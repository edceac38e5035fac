package discover_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Documents come in walk order behind nested indexes whatever the
// concurrency, while the consumer reads their bodies concurrently.
func TestWalkOrder(t *testing.T) {
	dir := t.TempDir()
	base := "https://www.example.com/"
	writeFile(t, filepath.Join(dir, "a.xml"), sitetest.Index(base+"b.xml", base+"big1.xml", base+"big2.xml", base+"big3.xml"))
	writeFile(t, filepath.Join(dir, "b.xml"), sitetest.Index(base+"big4.xml", base+"big5.xml"))
	for i := 1; i <= 5; i++ {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("big%d.xml", i)), sitetest.URLSet(base+fmt.Sprint(i)))
	}
	want := []string{"a.xml", "b.xml", "big4.xml", "big5.xml", "big1.xml", "big2.xml", "big3.xml"}
	for _, conc := range []int{1, 2, 4} {
		var got []string
		done := make(chan struct{}, len(want))
		for d := range discover.Walk(t.Context(), []string{filepath.Join(dir, "a.xml")}, discover.Options{Concurrency: conc, Offline: true}) {
			if len(d.Problems) > 0 || d.Body == nil {
				t.Fatalf("concurrency %d: %s: %v", conc, d.Name, d.Problems)
			}
			got = append(got, filepath.Base(d.Name))
			if filepath.Base(d.Name) < "b" != (d.Format == sitemap.FormatIndex) && d.Format != sitemap.FormatIndex {
				t.Errorf("%s: format %s", d.Name, d.Format)
			}
			go func() {
				io.Copy(io.Discard, d.Body)
				d.Body.Close()
				done <- struct{}{}
			}()
		}
		for range want {
			<-done
		}
		if !slices.Equal(got, want) {
			t.Errorf("concurrency %d: %q, want %q", conc, got, want)
		}
	}
}

// A walk given up (its ctx cancelled) returns at once, closes what it
// opened ahead and sends no further request.
func TestWalkCancelled(t *testing.T) {
	site := sitetest.New(t)
	var locs []string
	for i := range 20 {
		p := fmt.Sprintf("/s%d.xml", i)
		site.Page(p, sitetest.URLSet("{{.}}/"+fmt.Sprint(i)))
		locs = append(locs, "{{.}}"+p)
	}
	site.Page("/index.xml", sitetest.Index(locs...))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	start := time.Now()
	// Requests are counted as the walk makes them: one made before the
	// cancel may still reach the server after Walk returns.
	var made atomic.Int64
	rt := roundTripper(func(r *http.Request) (*http.Response, error) {
		made.Add(1)
		return http.DefaultTransport.RoundTrip(r)
	})
	for d := range discover.Walk(ctx, []string{site.URL + "/index.xml"}, discover.Options{Concurrency: 4, Transport: rt}) {
		if d.Body != nil {
			d.Body.Close()
		}
		if n++; n == 2 {
			cancel()
		}
	}
	if n != 2 {
		t.Errorf("%d documents after the cancel, want none", n-2)
	}
	hits := 0
	for i := range 20 {
		hits += site.Hits(fmt.Sprintf("/s%d.xml", i))
	}
	if hits > 1+4 {
		t.Errorf("%d sitemaps fetched, want at most the one read and the window ahead", hits)
	}
	returned := made.Load()
	time.Sleep(50 * time.Millisecond)
	if later := made.Load(); later != returned {
		t.Errorf("%d requests after Walk returned", later-returned)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("Walk took %v after its cancel", time.Since(start))
	}
}

// Breaking the loop ends the walk too.
func TestWalkBreak(t *testing.T) {
	dir := t.TempDir()
	var starts []string
	for i := range 8 {
		p := filepath.Join(dir, fmt.Sprintf("s%d.xml", i))
		writeFile(t, p, sitetest.URLSet("https://www.example.com/"+fmt.Sprint(i)))
		starts = append(starts, p)
	}
	for d := range discover.Walk(t.Context(), starts, discover.Options{}) {
		d.Body.Close()
		break
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The bodies of the last documents are read after the loop has ended, as
// a consumer that reads them concurrently does: the walk's end must not cut
// them. Each sitemap is larger than what the connection buffers, so a
// body cut short shows.
func TestWalkBodiesOutliveLoop(t *testing.T) {
	s := sitetest.New(t)
	var locs []string
	for i := range 3 {
		urls := make([]string, 40000)
		for j := range urls {
			urls[j] = fmt.Sprintf("{{.}}/page-%d-%d", i, j)
		}
		s.Page(fmt.Sprintf("/sitemap-%d.xml", i), sitetest.URLSet(urls...))
		locs = append(locs, fmt.Sprintf("{{.}}/sitemap-%d.xml", i))
	}
	s.Page("/sitemap.xml", sitetest.Index(locs...))
	var docs []*discover.Document
	for d := range discover.Walk(t.Context(), []string{s.URL + "/sitemap.xml"}, discover.Options{}) {
		if len(d.Problems) > 0 || d.Body == nil {
			t.Fatalf("%s: %v", d.Name, d.Problems)
		}
		docs = append(docs, d)
	}
	for _, d := range docs[1:] {
		r := sitemap.NewReader(d.Body)
		n := 0
		for {
			if _, err := r.Read(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s, after %d URLs: %v", d.Name, n, err)
			}
			n++
		}
		d.Body.Close()
		if n != 40000 {
			t.Errorf("%s: %d URLs, want 40000", d.Name, n)
		}
	}
}

// A body still read when the walk's time budget runs out ends with the
// walk-limit finding, as an error of the read: the walk, over, cannot
// yield one.
func TestWalkBudgetWhileReading(t *testing.T) {
	s := sitetest.New(t)
	s.Trickle("/slow.xml", 2000, 20*time.Millisecond)
	var d *discover.Document
	for doc := range discover.Walk(t.Context(), []string{s.URL + "/slow.xml"}, discover.Options{Budget: 300 * time.Millisecond}) {
		d = doc
	}
	if d == nil || d.Body == nil {
		t.Fatalf("document %+v", d)
	}
	defer d.Body.Close()
	_, err := io.Copy(io.Discard, d.Body)
	var we *discover.Error
	if !errors.As(err, &we) || we.Kind != discover.Limit {
		t.Fatalf("read error %v, want a walk-limit finding", err)
	}
}

// TestRobotsWholeTimeout: a robots.txt is fetched whole within Timeout
// (only sitemaps, opened ahead of their reader, are timed read by read): a
// robots.txt that trickles must not hold the walk, or a crawler.
func TestRobotsWholeTimeout(t *testing.T) {
	s := sitetest.New(t)
	s.Handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		for range 30 {
			if _, err := io.WriteString(w, "#"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
	f := discover.NewFetcher(discover.Options{Timeout: 300 * time.Millisecond})
	start := time.Now()
	f.Allowed(t.Context(), s.URL+"/page", "Googlebot")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Allowed answered after %v, want within the timeout (300ms)", took)
	}
}

// TestRedirectsSettled: which of two documents redirecting to one sitemap
// is read does not depend on which answered first (the first in walk
// order is), a sitemap listed as well is read at its own listing, and a
// child redirecting to its own index is the loop it was.
func TestRedirectsSettled(t *testing.T) {
	s := sitetest.New(t)
	s.Page("/t.xml", sitetest.URLSet("{{.}}/p"))
	s.Handle("/a.xml", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond) // answers last
		http.Redirect(w, r, "/t.xml", http.StatusMovedPermanently)
	})
	s.Handle("/b.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/t.xml", http.StatusMovedPermanently)
	})
	s.Handle("/up.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/index2.xml", http.StatusMovedPermanently)
	})
	s.Page("/index.xml", sitetest.Index("{{.}}/a.xml", "{{.}}/b.xml"))
	s.Page("/index2.xml", sitetest.Index("{{.}}/up.xml", "{{.}}/t.xml", "{{.}}/b.xml"))
	for _, conc := range []int{1, 16} {
		read := map[string]bool{}
		repeated := map[string]bool{}
		for d := range discover.Walk(t.Context(), []string{s.URL + "/index.xml", s.URL + "/index2.xml"}, discover.Options{Concurrency: conc}) {
			name := d.Name[len(s.URL):]
			for _, p := range d.Problems {
				if p.Kind == discover.Repeated {
					repeated[name] = true
				}
			}
			if d.Body != nil {
				read[name] = true
				io.Copy(io.Discard, d.Body)
				d.Body.Close()
			}
		}
		if !read["/a.xml"] || !repeated["/b.xml"] || read["/t.xml"] || !read["/up.xml"] || repeated["/up.xml"] {
			t.Errorf("concurrency %d: read %v, repeated %v; want /a.xml read, /b.xml repeated, /t.xml not read again, /up.xml read (a loop)", conc, read, repeated)
		}
	}
}

// TestRepeatFindings: a repeat carries its redirect and the Repeated
// finding only (not what reading the other copy found: a damaged index's
// error), and a child redirecting to an index above it reached through a
// redirect is the loop it is, not a repeat.
func TestRepeatFindings(t *testing.T) {
	s := sitetest.New(t)
	s.Page("/t.xml", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>{{.}}/u.xml</loc></sitemap><sitemap><loc>`)
	s.Page("/u.xml", sitetest.URLSet("{{.}}/p"))
	s.Handle("/a.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/t.xml", http.StatusMovedPermanently)
	})
	s.Page("/i.xml", sitetest.Index("{{.}}/t.xml", "{{.}}/a.xml", "{{.}}/c.xml"))
	s.Handle("/c.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/i.xml", http.StatusMovedPermanently)
	})
	s.Handle("/s.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/i.xml", http.StatusMovedPermanently)
	})
	for _, conc := range []int{1, 8} {
		for d := range discover.Walk(t.Context(), []string{s.URL + "/s.xml"}, discover.Options{Concurrency: conc}) {
			var kinds []discover.Kind
			for _, p := range d.Problems {
				kinds = append(kinds, p.Kind)
			}
			switch d.Name[len(s.URL):] {
			case "/a.xml":
				if !slices.Equal(kinds, []discover.Kind{discover.Redirected, discover.Repeated}) || d.Body != nil {
					t.Errorf("concurrency %d: a.xml: %v, body %v; want its redirect and Repeated, no body", conc, d.Problems, d.Body != nil)
				}
			case "/c.xml":
				if slices.Contains(kinds, discover.Repeated) {
					t.Errorf("concurrency %d: c.xml, redirecting to the index above it: %v, want it read (a loop)", conc, d.Problems)
				}
			}
			if d.Body != nil {
				d.Body.Close()
			}
		}
	}
}

// TestSelfListedThroughRedirect: an index reached through a redirect that
// lists its own final URL lists itself, said so.
func TestSelfListedThroughRedirect(t *testing.T) {
	s := sitetest.New(t)
	s.Page("/i.xml", sitetest.Index("{{.}}/i.xml", "{{.}}/u.xml"))
	s.Page("/u.xml", sitetest.URLSet("{{.}}/p"))
	s.Handle("/s.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/i.xml", http.StatusMovedPermanently)
	})
	var msgs []string
	for d := range discover.Walk(t.Context(), []string{s.URL + "/s.xml"}, discover.Options{}) {
		for _, p := range d.Problems {
			if p.Kind == discover.Loop {
				msgs = append(msgs, p.Error())
			}
		}
		if d.Body != nil {
			d.Body.Close()
		}
	}
	if len(msgs) != 1 || msgs[0] != "the index lists itself; not read again" {
		t.Errorf("loop findings %q, want one: the index lists itself", msgs)
	}
}
