package lint

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/internal/sitetest"
)

type siteResult struct {
	files []FileResult
	diags []Diagnostic
}

func (r *siteResult) rules() map[string]int {
	m := map[string]int{}
	for _, d := range r.diags {
		m[d.Rule]++
	}
	return m
}

// has asserts a finding of rule about the document named *fileSuffix:
// on it, or, for a listed document that could not be read, on the line
// that listed it, naming it.
func (r *siteResult) has(t *testing.T, rule, fileSuffix, msgPart string) {
	t.Helper()
	for _, d := range r.diags {
		named, _, _ := strings.Cut(d.Message, ": ")
		about := strings.HasSuffix(d.File, fileSuffix) || d.Line > 0 && strings.HasSuffix(named, fileSuffix)
		if d.Rule == rule && about && strings.Contains(d.Message, msgPart) {
			return
		}
	}
	t.Errorf("no %s on *%s containing %q; got:\n%s", rule, fileSuffix, msgPart, r)
}

func (r *siteResult) String() string {
	var b strings.Builder
	for _, d := range r.diags {
		b.WriteString("  " + d.String() + "\n")
	}
	for _, f := range r.files {
		fmt.Fprintf(&b, "  file %+v\n", f)
	}
	return b.String()
}

func (r *siteResult) errors() int {
	n := 0
	for _, d := range r.diags {
		if d.Severity == Error {
			n++
		}
	}
	return n
}

func checkSite(t *testing.T, opts discover.Options, starts ...string) *siteResult {
	t.Helper()
	return checkSiteWith(t, &Checker{}, opts, starts...)
}

// checkSiteWith is checkSite with c's settings.
func checkSiteWith(t *testing.T, c *Checker, opts discover.Options, starts ...string) *siteResult {
	t.Helper()
	res := &siteResult{}
	var mu sync.Mutex
	c.Report = func(d Diagnostic) {
		mu.Lock()
		res.diags = append(res.diags, d)
		mu.Unlock()
	}
	c.MaxBytes = opts.MaxBytes // the reader's cap, for gzipped sitemaps
	if opts.Timeout == 0 {
		opts.Timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	files, err := CheckSite(ctx, starts, opts, c)
	if err != nil {
		t.Fatalf("CheckSite: %v", err)
	}
	res.files = files
	return res
}

func TestGoodSiteFromRoot(t *testing.T) {
	s := sitetest.New(t)
	s.Page("/robots.txt", "User-agent: *\nDisallow: /private/\n\nSitemap: {{.}}/sitemap.xml\n")
	s.Page("/sitemap.xml", sitetest.Index("{{.}}/sitemap-1.xml", "{{.}}/sitemap-2.xml.gz"))
	s.Page("/sitemap-1.xml", sitetest.URLSet("{{.}}/a", "{{.}}/b"))
	s.GzPage("/sitemap-2.xml.gz", sitetest.URLSet("{{.}}/c"))
	r := checkSite(t, discover.Options{}, s.URL+"/")
	if r.errors() != 0 || len(r.diags) != 0 {
		t.Fatalf("a good site has findings:\n%s", r)
	}
	if len(r.files) != 3 {
		t.Fatalf("files:\n%s", r)
	}
	want := []struct {
		name, format string
		urls         int
	}{{s.URL + "/sitemap.xml", "sitemapindex", 2}, {s.URL + "/sitemap-1.xml", "urlset", 2}, {s.URL + "/sitemap-2.xml.gz", "urlset", 1}}
	for i, w := range want {
		f := r.files[i]
		if f.Name != w.name || f.Format != w.format || f.URLs != w.urls || !f.Read {
			t.Errorf("file %d = %+v, want %+v", i, f, w)
		}
	}
	if r.files[2].Compressed != "gzip" {
		t.Errorf("gzip child: Compressed = %q", r.files[2].Compressed)
	}
}

func TestUserAgentSent(t *testing.T) {
	s := sitetest.New(t)
	var ua string
	s.Handle("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		ua = r.UserAgent()
		w.Write([]byte(sitetest.URLSet(s.URL + "/a")))
	})
	checkSite(t, discover.Options{UserAgent: "testbot/1.0"}, s.URL+"/sitemap.xml")
	if ua != "testbot/1.0" {
		t.Errorf("User-Agent = %q", ua)
	}
}

func TestHostileSites(t *testing.T) {
	t.Run("index lists itself", func(t *testing.T) {
		s := sitetest.New(t)
		s.Page("/sitemap.xml", sitetest.Index("{{.}}/sitemap.xml", "{{.}}/s1.xml"))
		s.Page("/s1.xml", sitetest.URLSet("{{.}}/a"))
		r := checkSite(t, discover.Options{}, s.URL+"/sitemap.xml")
		r.has(t, "nested-index", "/sitemap.xml", "")
		// Once, on the line that lists it, not also as "listed by
		// another index".
		if n := r.rules()["nested-index"]; n != 1 || r.diags[0].Line != 3 {
			t.Errorf("%d nested-index findings, want 1 at line 3:\n%s", n, r)
		}
		if s.Hits("/sitemap.xml") != 1 || s.Hits("/s1.xml") != 1 {
			t.Errorf("fetched sitemap.xml %d times, s1.xml %d times", s.Hits("/sitemap.xml"), s.Hits("/s1.xml"))
		}
	})
	t.Run("robots.txt lists itself", func(t *testing.T) {
		s := sitetest.New(t)
		s.Page("/robots.txt", "Sitemap: {{.}}/robots.txt\nSitemap: {{.}}/s.xml\n")
		s.Page("/s.xml", sitetest.URLSet("{{.}}/a"))
		r := checkSite(t, discover.Options{}, s.URL+"/robots.txt")
		r.has(t, "unsupported-format", "/robots.txt", "read already")
		if len(r.files) != 1 || r.files[0].URLs != 1 {
			t.Errorf("files:\n%s", r)
		}
	})
	t.Run("two indexes list each other", func(t *testing.T) {
		s := sitetest.New(t)
		s.Page("/a.xml", sitetest.Index("{{.}}/b.xml"))
		s.Page("/b.xml", sitetest.Index("{{.}}/a.xml", "{{.}}/c.xml"))
		s.Page("/c.xml", sitetest.URLSet("{{.}}/x"))
		r := checkSite(t, discover.Options{}, s.URL+"/a.xml")
		r.has(t, "nested-index", "/b.xml", "")
		if s.Hits("/a.xml") != 1 || s.Hits("/c.xml") != 1 {
			t.Errorf("a.xml fetched %d times, c.xml %d", s.Hits("/a.xml"), s.Hits("/c.xml"))
		}
	})
	t.Run("HTTP errors", func(t *testing.T) {
		s := sitetest.New(t)
		s.Page("/sitemap.xml", sitetest.Index("{{.}}/missing.xml", "{{.}}/broken.xml"))
		s.Handle("/broken.xml", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) })
		r := checkSite(t, discover.Options{}, s.URL+"/sitemap.xml")
		r.has(t, "http-error", "/missing.xml", "404")
		r.has(t, "http-error", "/broken.xml", "500")
		// Each is tied to the index line that named it.
		for i, want := range []string{"/missing.xml: HTTP 404", "/broken.xml: HTTP 500"} {
			d := r.diags[i]
			if d.File != s.URL+"/sitemap.xml" || d.Line != 3+i || !strings.HasPrefix(d.Message, s.URL+want) {
				t.Errorf("finding %d: %s, want it at sitemap.xml:%d naming %s", i, d, 3+i, want)
			}
		}
	})
	t.Run("gzip bomb", func(t *testing.T) {
		s := sitetest.New(t)
		bomb := sitetest.Gzip(strings.Repeat(" ", 3<<20))
		s.Page("/sitemap.xml", sitetest.Index("{{.}}/bomb.xml", "{{.}}/bomb.xml.gz"))
		s.Handle("/bomb.xml", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write([]byte(bomb))
		})
		s.Page("/bomb.xml.gz", bomb)
		r := checkSite(t, discover.Options{MaxBytes: 1 << 20}, s.URL+"/sitemap.xml")
		r.has(t, "file-too-large", "/bomb.xml", "file too large")
		r.has(t, "file-too-large", "/bomb.xml.gz", "")
	})
	t.Run("Content-Encoding over a body not so encoded", func(t *testing.T) {
		// Read as an empty document before: the walk sniffs a body's
		// head, then reads it on, and the gzip decoder was opened again.
		s := sitetest.New(t)
		s.Handle("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write([]byte(sitetest.URLSet(s.URL + "/a")))
		})
		r := checkSite(t, discover.Options{}, s.URL+"/sitemap.xml")
		r.has(t, "compression-error", "/sitemap.xml", "Content-Encoding gzip")
	})
	t.Run("HTML instead of a sitemap", func(t *testing.T) {
		s := sitetest.New(t)
		s.Page("/sitemap.xml", "<!DOCTYPE html>\n<html><head><title>Shop</title></head><body>Welcome</body></html>\n")
		r := checkSite(t, discover.Options{}, s.URL+"/sitemap.xml")
		r.has(t, "sitemap-is-html", "/sitemap.xml", "")
	})
	t.Run("huge robots.txt", func(t *testing.T) {
		s := sitetest.New(t)
		big := "Sitemap: {{.}}/s.xml\n" + strings.Repeat("# filler filler filler filler filler filler\n", 600<<10/44) + "Sitemap: {{.}}/late.xml\n"
		s.Page("/robots.txt", big)
		s.Page("/s.xml", sitetest.URLSet("{{.}}/a"))
		s.Page("/late.xml", sitetest.URLSet("{{.}}/b"))
		r := checkSite(t, discover.Options{}, s.URL)
		if len(r.files) != 1 || r.files[0].Name != s.URL+"/s.xml" || s.Hits("/late.xml") != 0 {
			t.Errorf("the Sitemap: line past 500 KiB must be ignored:\n%s", r)
		}
	})
	t.Run("slow server", func(t *testing.T) {
		s := sitetest.New(t)
		release := make(chan struct{})
		defer close(release)
		s.Handle("/slow.xml", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		})
		s.Page("/sitemap.xml", sitetest.Index("{{.}}/slow.xml", "{{.}}/ok.xml"))
		s.Page("/ok.xml", sitetest.URLSet("{{.}}/a"))
		r := checkSite(t, discover.Options{Timeout: 200 * time.Millisecond}, s.URL+"/sitemap.xml")
		r.has(t, "fetch-error", "/slow.xml", "timed out")
		if len(r.files) != 3 || r.files[2].URLs != 1 {
			t.Errorf("the other child must still be read:\n%s", r)
		}
	})
	t.Run("redirects and loops", func(t *testing.T) {
		s := sitetest.New(t)
		s.Page("/sitemap.xml", sitetest.Index("{{.}}/old.xml", "{{.}}/loop1.xml"))
		s.Handle("/old.xml", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/new.xml", http.StatusMovedPermanently)
		})
		s.Page("/new.xml", sitetest.URLSet("{{.}}/a"))
		s.Handle("/loop1.xml", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2.xml", http.StatusFound) })
		s.Handle("/loop2.xml", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop1.xml", http.StatusFound) })
		r := checkSite(t, discover.Options{}, s.URL+"/sitemap.xml")
		r.has(t, "redirect", "/old.xml", "/new.xml")
		r.has(t, "fetch-error", "/loop1.xml", "redirect loop")
	})
	t.Run("blocked by robots.txt", func(t *testing.T) {
		s := sitetest.New(t)
		s.Page("/robots.txt", "User-agent: *\nDisallow: /private/\n\nUser-agent: sitemapkit\nDisallow: /mine/\n\nSitemap: {{.}}/mine/s.xml\nSitemap: {{.}}/private/s.xml\n")
		s.Page("/mine/s.xml", sitetest.URLSet("{{.}}/mine/a"))
		s.Page("/private/s.xml", sitetest.URLSet("{{.}}/private/a"))
		r := checkSite(t, discover.Options{}, s.URL+"/robots.txt")
		r.has(t, "blocked-by-robots", "/mine/s.xml", "disallowed for sitemapkit")
		if s.Hits("/mine/s.xml") != 0 {
			t.Error("a blocked sitemap was fetched")
		}
		// The * group does not apply when a group names sitemapkit.
		if s.Hits("/private/s.xml") != 1 {
			t.Error("/private/ is only disallowed for other crawlers")
		}
	})
	t.Run("robots.txt 500 disallows all", func(t *testing.T) {
		s := sitetest.New(t)
		s.Handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
		s.Page("/sitemap.xml", sitetest.URLSet("{{.}}/a"))
		r := checkSite(t, discover.Options{}, s.URL+"/sitemap.xml")
		r.has(t, "blocked-by-robots", "/sitemap.xml", "503")
		if s.Hits("/sitemap.xml") != 0 {
			t.Error("fetched despite robots.txt 5xx")
		}
	})
	t.Run("no Sitemap lines", func(t *testing.T) {
		s := sitetest.New(t)
		s.Page("/robots.txt", "User-agent: *\nDisallow:\n")
		r := checkSite(t, discover.Options{}, s.URL)
		r.has(t, "http-error", "/sitemap.xml", "no Sitemap: lines")
	})
}

// TestURLsBlockedByRobots: over HTTP, each URL of the site is judged by
// the site's robots.txt for the RobotsAgent (its own group winning over
// "*"), fetched once; a URL on another host is not judged (no fetch of its
// robots.txt); local files are judged only by a robots.txt given.
func TestURLsBlockedByRobots(t *testing.T) {
	s := sitetest.New(t)
	other := sitetest.New(t)
	s.Page("/robots.txt", "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\nAllow: /\n")
	// The site spelled in capitals is the site: judged too.
	upper := strings.Replace(s.URL, "http://", "HTTP://", 1)
	s.Page("/sitemap.xml", sitetest.URLSet("{{.}}/private/a", "{{.}}/nogoogle/b", "{{.}}/ok", other.URL+"/nogoogle/c", upper+"/nogoogle/d"))
	c := &Checker{RobotsAgent: "Googlebot"}
	r := checkSiteWith(t, c, discover.Options{}, s.URL+"/sitemap.xml")
	if got := r.rules()["url-blocked-by-robots"]; got != 2 {
		t.Errorf("%d url-blocked-by-robots findings, want 2 (/nogoogle/b and /nogoogle/d):\n%s", got, r)
	}
	r.has(t, "url-blocked-by-robots", "/sitemap.xml", "/nogoogle/b: disallowed for Googlebot by "+s.URL+"/robots.txt")
	if s.Hits("/robots.txt") != 1 || other.Hits("/robots.txt") != 0 {
		t.Errorf("robots.txt fetched %d times, the other host's %d; want 1 and 0", s.Hits("/robots.txt"), other.Hits("/robots.txt"))
	}

	dir := t.TempDir()
	sm := filepath.Join(dir, "sitemap.xml")
	os.WriteFile(sm, []byte(sitetest.URLSet("https://www.example.com/private/a", "https://www.example.com/ok")), 0o644)
	if r := checkSiteWith(t, &Checker{RobotsAgent: "bingbot"}, discover.Options{Offline: true}, sm); r.rules()["url-blocked-by-robots"] != 0 {
		t.Errorf("a local file judged without a robots.txt given:\n%s", r)
	}
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	r = checkSiteWith(t, &Checker{RobotsAgent: "bingbot"}, discover.Options{Offline: true, Robots: robots}, sm)
	r.has(t, "url-blocked-by-robots", "/sitemap.xml", "/private/a: disallowed for bingbot by "+robots)
	if d := r.diags[0]; d.Line != 3 {
		t.Errorf("finding at line %d, want the <loc>'s 3", d.Line)
	}
	r = checkSiteWith(t, &Checker{}, discover.Options{Offline: true, Robots: robots}, sm)
	if r.rules()["url-blocked-by-robots"] != 0 {
		t.Errorf("no RobotsAgent, yet URLs judged:\n%s", r)
	}
}

func TestCrossHost(t *testing.T) {
	a, b := sitetest.New(t), sitetest.New(t)
	a.Page("/sitemap.xml", sitetest.Index(b.URL+"/listed.xml", b.URL+"/unlisted.xml"))
	b.Page("/robots.txt", "Sitemap: {{.}}/listed.xml\n")
	b.Page("/listed.xml", sitetest.URLSet(a.URL+"/page"))
	b.Page("/unlisted.xml", sitetest.URLSet(a.URL+"/other"))
	r := checkSite(t, discover.Options{}, a.URL+"/sitemap.xml")
	r.has(t, "cross-host-sitemap", "/unlisted.xml", "")
	if b.Hits("/unlisted.xml") != 0 || b.Hits("/listed.xml") != 1 {
		t.Errorf("hits: listed %d, unlisted %d", b.Hits("/listed.xml"), b.Hits("/unlisted.xml"))
	}
	// The listed child's URLs are a's: no url-not-allowed for them, nor for
	// the index's <loc> that names it (b's robots.txt vouches for it); the
	// unlisted one is reported once, as cross-host-sitemap.
	for _, d := range r.diags {
		if strings.HasSuffix(d.File, "/listed.xml") || d.Rule == "url-not-allowed" {
			t.Errorf("unexpected finding in the cross-submitted sitemap: %s", d)
		}
	}

	// Cross-submission from robots.txt: a's robots.txt lists a sitemap on b
	// whose URLs are a's.
	a.Page("/robots.txt", "Sitemap: "+b.URL+"/for-a.xml\n")
	b.Page("/for-a.xml", sitetest.URLSet(a.URL+"/x", b.URL+"/not-a"))
	r = checkSite(t, discover.Options{}, a.URL)
	r.has(t, "url-not-allowed", "/for-a.xml", "")
	if n := r.rules()["url-not-allowed"]; n != 1 {
		t.Errorf("url-not-allowed %d times, want 1 (only b's URL):\n%s", n, r)
	}
}

func TestDepthLimit(t *testing.T) {
	s := sitetest.New(t)
	s.Page("/i0.xml", sitetest.Index("{{.}}/i1.xml"))
	s.Page("/i1.xml", sitetest.Index("{{.}}/i2.xml"))
	s.Page("/i2.xml", sitetest.Index("{{.}}/leaf.xml"))
	s.Page("/leaf.xml", sitetest.URLSet("{{.}}/a"))
	r := checkSite(t, discover.Options{}, s.URL+"/i0.xml")
	r.has(t, "nested-index", "/i1.xml", "")
	r.has(t, "nested-index", "/i2.xml", "not read")
	if s.Hits("/leaf.xml") != 0 {
		t.Error("an index three levels down was followed")
	}
	checkSite(t, discover.Options{MaxDepth: 3}, s.URL+"/i0.xml")
	if s.Hits("/leaf.xml") != 1 {
		t.Error("--max-depth 3 should reach the leaf")
	}
}

func siteWriteFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLocalFolder(t *testing.T) {
	dir := t.TempDir()
	base := "https://www.example.com/"
	siteWriteFile(t, filepath.Join(dir, "sitemap.xml"), sitetest.Index(base+"sitemap-1.xml", base+"sitemap-2.xml.gz"))
	siteWriteFile(t, filepath.Join(dir, "sitemap-1.xml"), sitetest.URLSet(base+"a", base+"b"))
	siteWriteFile(t, filepath.Join(dir, "sitemap-2.xml.gz"), sitetest.Gzip(sitetest.URLSet(base+"c")))
	siteWriteFile(t, filepath.Join(dir, "news.xml"), sitetest.URLSet(base+"n"))
	siteWriteFile(t, filepath.Join(dir, "robots.txt"), "User-agent: *\nDisallow:\n")
	siteWriteFile(t, filepath.Join(dir, "index.html"), "<!DOCTYPE html><html></html>")
	siteWriteFile(t, filepath.Join(dir, "urls.txt"), base+"t1\n"+base+"t2\n")
	siteWriteFile(t, filepath.Join(dir, "blog", "sitemap.xml"), sitetest.URLSet(base+"blog/p"))
	siteWriteFile(t, filepath.Join(dir, ".git", "sitemap.xml"), sitetest.URLSet(base+"hidden"))

	r := checkSite(t, discover.Options{Base: base, Offline: true}, dir)
	if r.errors() != 0 {
		t.Fatalf("errors:\n%s", r)
	}
	got := map[string]FileResult{}
	for _, f := range r.files {
		rel, _ := filepath.Rel(dir, f.Name)
		got[filepath.ToSlash(rel)] = f
	}
	want := map[string]int{"sitemap.xml": 2, "sitemap-1.xml": 2, "sitemap-2.xml.gz": 1, "news.xml": 1, "urls.txt": 2, "blog/sitemap.xml": 1}
	if len(got) != len(want) || len(r.files) != len(want) {
		t.Fatalf("files (each once):\n%s", r)
	}
	for name, n := range want {
		if got[name].URLs != n || !got[name].Read {
			t.Errorf("%s: %+v, want %d URLs", name, got[name], n)
		}
	}
	if got["blog/sitemap.xml"].URL != base+"blog/sitemap.xml" || got["news.xml"].URL != base+"news.xml" {
		t.Errorf("public URLs from --base: %+v", got)
	}
	// The index comes before its children, which come in index order.
	if filepath.Base(r.files[0].Name) != "sitemap.xml" || filepath.Base(r.files[1].Name) != "sitemap-1.xml" || filepath.Base(r.files[2].Name) != "sitemap-2.xml.gz" {
		t.Errorf("order:\n%s", r)
	}

	// --base that puts the sitemaps in a sub-folder: their URLs are then
	// outside the directory.
	r = checkSite(t, discover.Options{Base: base + "sub/", Offline: true}, filepath.Join(dir, "news.xml"))
	r.has(t, "url-outside-directory", "news.xml", "")
}

func TestLocalIndexChildren(t *testing.T) {
	s := sitetest.New(t)
	s.Page("/remote.xml", sitetest.URLSet("{{.}}/r"))
	dir := t.TempDir()
	siteWriteFile(t, filepath.Join(dir, "sitemap.xml"), sitetest.Index(s.URL+"/local.xml", s.URL+"/remote.xml"))
	siteWriteFile(t, filepath.Join(dir, "local.xml"), sitetest.URLSet(s.URL+"/l"))

	r := checkSite(t, discover.Options{}, filepath.Join(dir, "sitemap.xml"))
	if r.errors() != 0 || len(r.files) != 3 || !r.files[1].Read || !r.files[2].Read {
		t.Fatalf("online:\n%s", r)
	}
	if r.files[1].Name != filepath.Join(dir, "local.xml") || r.files[2].Name != s.URL+"/remote.xml" {
		t.Errorf("local child read from disk, the other fetched:\n%s", r)
	}
	if s.Hits("/local.xml") != 0 {
		t.Error("a child beside its index was fetched")
	}

	r = checkSite(t, discover.Options{Offline: true}, filepath.Join(dir, "sitemap.xml"))
	r.has(t, "fetch-error", "sitemap.xml", "1 of its 2 children are not in its folder and were not fetched (--offline), e.g. "+s.URL+"/remote.xml")
	if s.Hits("/remote.xml") != 1 {
		t.Error("--offline fetched")
	}
}

func TestMissingStart(t *testing.T) {
	r := checkSite(t, discover.Options{}, filepath.Join(t.TempDir(), "nope.xml"))
	r.has(t, "fetch-error", "nope.xml", "no such file")
	if len(r.files) != 1 || r.files[0].Read {
		t.Errorf("files:\n%s", r)
	}
}

// TestMaxPerRuleSameReport holds the Checker's MaxPerRule, which counts the
// findings past it without making them, to the Report a Collector makes of
// every finding: the same listing, notes and counts, with the Checker's
// Ignore (--ignore) left out of both, and of the files' counts. The set
// breaks rules on every URL (outside the directory, a bad lastmod, a bad
// priority, duplicates, URLs blocked by robots.txt).
func TestMaxPerRuleSameReport(t *testing.T) {
	s := sitetest.New(t)
	s.Page("/robots.txt", "User-agent: *\nDisallow: /shop/private\n\nSitemap: {{.}}/maps/sitemap.xml\n")
	s.Page("/maps/sitemap.xml", sitetest.Index("{{.}}/maps/a.xml", "{{.}}/maps/b.xml"))
	// Each file lists its first half twice (duplicates across files would
	// be reported in whichever file was checked second).
	urlset := func(from, to int) string {
		var b strings.Builder
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for k := from; k < to+(to-from)/2; k++ {
			i := k
			if k >= to {
				i = from + k - to
			}
			loc := fmt.Sprintf("{{.}}/shop/item-%d", i)
			switch {
			case i%7 == 0:
				loc = fmt.Sprintf("{{.}}/shop/private/%d", i)
			case i%11 == 0:
				loc = fmt.Sprintf("{{.}}/maps/in-scope-%d", i)
			case i%13 == 0:
				loc = fmt.Sprintf("{{.}}/shop/../maps/x-%d", i) // in scope once normalised: the slow path
			}
			lastmod := "2024-05-01"
			if i%2 == 1 {
				lastmod = "someday"
			}
			fmt.Fprintf(&b, "<url><loc>%s</loc><lastmod>%s</lastmod><priority>%d</priority></url>\n", loc, lastmod, 1+i%3)
		}
		b.WriteString("</urlset>\n")
		return b.String()
	}
	s.Page("/maps/a.xml", urlset(0, 400))
	s.Page("/maps/b.xml", urlset(1000, 1500))
	run := func(checkerMax int, ignore []string) string {
		col := &Collector{MaxPerRule: 5}
		c := &Checker{Report: col.Add, MaxPerRule: checkerMax, Ignore: ignore, RobotsAgent: "Googlebot"}
		files, err := CheckSite(context.Background(), []string{s.URL + "/"}, discover.Options{Timeout: 5 * time.Second}, c)
		if err != nil {
			t.Fatal(err)
		}
		rep := col.Report(files)
		// The files' counts are the summary's: an ignored rule is in
		// neither.
		var sum [3]int
		for _, f := range rep.Files {
			sum[0], sum[1], sum[2] = sum[0]+f.Errors, sum[1]+f.Warnings, sum[2]+f.Infos
		}
		if sum != [3]int{rep.Summary.Errors, rep.Summary.Warnings, rep.Summary.Infos} {
			t.Errorf("ignore %q: files count %v, the summary %+v", ignore, sum, rep.Summary)
		}
		var b strings.Builder
		for _, d := range rep.Diagnostics {
			fmt.Fprintln(&b, d)
		}
		fmt.Fprintf(&b, "%+v\n", rep.Summary)
		for _, f := range rep.Files {
			fmt.Fprintf(&b, "%s %d %d %d\n", f.Name, f.Errors, f.Warnings, f.Infos)
		}
		return b.String()
	}
	for _, ignore := range [][]string{nil, {"url-outside-directory", "invalid-date"}} {
		all, capped := run(0, ignore), run(5, ignore)
		if all != capped {
			t.Errorf("ignore %q: the Checker's cap changes the report:\nwithout it:\n%s\nwith it:\n%s", ignore, all, capped)
		}
		for _, rule := range []string{"url-outside-directory", "invalid-date", "invalid-priority", "duplicate-url", "url-blocked-by-robots"} {
			want := 1
			if slices.Contains(ignore, rule) {
				want = 0
			}
			if n := strings.Count(capped, "more "+rule+" findings in this file not shown"); n < want || want == 0 && n > 0 {
				t.Errorf("ignore %q: %d notes of omitted %s findings:\n%s", ignore, n, rule, capped)
			}
		}
	}
}
