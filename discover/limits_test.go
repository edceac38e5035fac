package discover_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// walk returns every document of a walk, bodies drained, and the findings
// of the given kind as "name: message".
func walk(t *testing.T, starts []string, o discover.Options, kind discover.Kind) (docs []*discover.Document, found []string) {
	t.Helper()
	for d := range discover.Walk(t.Context(), starts, o) {
		if d.Body != nil {
			io.Copy(io.Discard, d.Body)
			d.Body.Close()
		}
		docs = append(docs, d)
		for _, p := range d.Problems {
			if p.Kind == kind {
				found = append(found, d.Name+": "+p.Error())
			}
		}
	}
	return docs, found
}

// robotsSite is a site whose robots.txt lists n sitemaps, /s0.xml….
func robotsSite(t *testing.T, n int) *sitetest.Site {
	site := sitetest.New(t)
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Sitemap: {{.}}/s%d.xml\n", i)
	}
	site.Page("/robots.txt", b.String())
	return site
}

// TestRobotsTruncated: a robots.txt past 500 KiB is read up to the cap,
// as RFC 9309 allows, and the walk says how much it ignored: 88,111
// sitemaps were silently never checked.
func TestRobotsTruncated(t *testing.T) {
	site := robotsSite(t, 100_000)
	site.Page("/s0.xml", sitetest.URLSet("{{.}}/a"))
	_, found := walk(t, []string{site.URL + "/"}, discover.Options{MaxDocuments: 3}, discover.Truncated)
	if len(found) != 1 || !strings.Contains(found[0], "robots.txt is ") || !strings.Contains(found[0], "500 KiB") {
		t.Fatalf("findings %q, want one saying how much past 500 KiB was ignored", found)
	}
}

// TestWalkLimits: a walk ends at its time budget or document cap with one
// Limit finding naming the first document not read, instead of taking
// N × timeout / concurrency (8.7 days for 100,000 sitemaps that never
// answer).
func TestWalkLimits(t *testing.T) {
	site := robotsSite(t, 1000)
	handleAll := func(h http.HandlerFunc) {
		for i := range 1000 {
			site.Handle(fmt.Sprintf("/s%d.xml", i), h)
		}
	}
	handleAll(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers
	})

	docs, found := walk(t, []string{site.URL + "/"}, discover.Options{Budget: 300 * time.Millisecond, Timeout: time.Hour}, discover.Limit)
	if len(found) != 1 || !strings.Contains(found[0], "time budget of 300ms") || !strings.Contains(found[0], "/s0.xml") {
		t.Errorf("budget: findings %q, want one naming s0.xml", found)
	}
	if last := docs[len(docs)-1]; last.Problems[0].Kind != discover.Limit || last.Body != nil {
		t.Errorf("budget: the walk went on after its limit: %s %v", last.Name, last.Problems)
	}

	handleAll(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, sitetest.URLSet("http://"+r.Host+"/p"))
	})
	docs, found = walk(t, []string{site.URL + "/"}, discover.Options{MaxDocuments: 10}, discover.Limit)
	if len(found) != 1 || !strings.Contains(found[0], "10 documents read") || !strings.Contains(found[0], "/s10.xml") {
		t.Errorf("cap: findings %q, want one naming s10.xml", found)
	}
	if len(docs) != 12 {
		t.Errorf("cap: %d documents, want robots.txt, 10 sitemaps and the finding", len(docs))
	}
}

// TestIndexLoops: a cycle of indexes is named as a loop, from a file or
// from the folder that holds it: a → b → a gave nothing at all (read
// exited 0, silent), and a folder whose only index lists itself gave "no
// sitemap files in this folder".
func TestIndexLoops(t *testing.T) {
	base := "https://www.example.com/"
	for name, files := range map[string]map[string]string{
		"self":  {"a.xml": sitetest.Index(base + "a.xml")},
		"pair":  {"a.xml": sitetest.Index(base + "b.xml"), "b.xml": sitetest.Index(base + "a.xml")},
		"three": {"a.xml": sitetest.Index(base + "b.xml"), "b.xml": sitetest.Index(base + "c.xml"), "c.xml": sitetest.Index(base+"a.xml", base+"d.xml"), "d.xml": sitetest.URLSet(base + "d")},
	} {
		dir := t.TempDir()
		for f, body := range files {
			writeFile(t, filepath.Join(dir, f), body)
		}
		for _, start := range []string{filepath.Join(dir, "a.xml"), dir} {
			_, found := walk(t, []string{start}, discover.Options{Offline: true, MaxDepth: 3}, discover.Loop)
			if len(found) != 1 {
				t.Errorf("%s from %s: loop findings %q, want one", name, filepath.Base(start), found)
				continue
			}
			if name != "self" && !strings.Contains(found[0], "a.xml → ") {
				t.Errorf("%s from %s: %q does not name the loop", name, filepath.Base(start), found[0])
			}
		}
	}
}

// TestCrossHostVerdictIndependentOfOrder: an index on host A listing a
// sitemap on host B that no robots.txt names breaks the cross-host rule,
// whether the walk met that sitemap before (through a redirect from a
// URL A's robots.txt lists) or not. From the site root it gave no error,
// from the index alone cross-host-sitemap.
func TestCrossHostVerdictIndependentOfOrder(t *testing.T) {
	b := sitetest.New(t)
	b.Page("/child.xml", sitetest.URLSet("{{.}}/p"))
	a := sitetest.New(t)
	a.Page("/robots.txt", "Sitemap: {{.}}/old.xml\nSitemap: {{.}}/index.xml\n")
	a.Handle("/old.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/child.xml", http.StatusMovedPermanently)
	})
	a.Page("/index.xml", sitetest.Index(b.URL+"/child.xml"))
	for _, start := range []string{a.URL + "/", a.URL + "/index.xml"} {
		for _, conc := range []int{1, 4} {
			docs, found := walk(t, []string{start}, discover.Options{Concurrency: conc}, discover.CrossHost)
			if len(found) != 1 || !strings.HasPrefix(found[0], b.URL+"/child.xml: ") {
				t.Errorf("from %s (concurrency %d): cross-host findings %q, want one on child.xml", start, conc, found)
			}
			n := 0
			for _, d := range docs {
				if d.Listing || d.Body != nil || len(d.Problems) > 0 {
					n++
				}
			}
			if n != len(docs) {
				t.Errorf("from %s: a document yielded with neither body nor finding", start)
			}
		}
	}
}

// TestRedirectToRefusedCrossHost: a sitemap on another host that an index
// lists, refused by the cross-host rule, is not read there; a child of the
// index that redirects to it is the one copy read (a redirect is followed
// wherever it goes, as when nothing else lists its target), not a repeat
// of a sitemap the walk never read, and a second such redirect is the
// repeat. Likewise a robots.txt that vouches for it lists it to be read.
func TestRedirectToRefusedCrossHost(t *testing.T) {
	b := sitetest.New(t)
	b.Page("/x.xml", sitetest.URLSet("{{.}}/p"))
	a := sitetest.New(t)
	for _, p := range []string{"/r1.xml", "/r2.xml"} {
		a.Handle(p, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, b.URL+"/x.xml", http.StatusMovedPermanently)
		})
	}
	a.Page("/first.xml", sitetest.Index(b.URL+"/x.xml", "{{.}}/r1.xml", "{{.}}/r2.xml"))
	a.Page("/last.xml", sitetest.Index("{{.}}/r1.xml", "{{.}}/r2.xml", b.URL+"/x.xml"))
	a.Page("/only.xml", sitetest.Index(b.URL+"/x.xml"))
	c := sitetest.New(t)
	c.Page("/robots.txt", "Sitemap: "+b.URL+"/x.xml\n")
	x := b.URL + "/x.xml"
	for _, tc := range []struct {
		starts []string
		read   string
		want   map[string][]discover.Kind
	}{
		{[]string{a.URL + "/first.xml"}, a.URL + "/r1.xml", map[string][]discover.Kind{x: {discover.CrossHost}, a.URL + "/r2.xml": {discover.Repeated}}},
		{[]string{a.URL + "/last.xml"}, a.URL + "/r1.xml", map[string][]discover.Kind{x: {discover.CrossHost}, a.URL + "/r2.xml": {discover.Repeated}}},
		{[]string{a.URL + "/only.xml", c.URL + "/"}, x, map[string][]discover.Kind{x: {discover.CrossHost}}},
	} {
		for _, conc := range []int{1, 8} {
			docs, _ := walk(t, tc.starts, discover.Options{Concurrency: conc}, 0)
			got := map[string][]discover.Kind{}
			var read []string
			for _, d := range docs {
				for _, p := range d.Problems {
					if p.Kind != discover.Redirected {
						got[d.Name] = append(got[d.Name], p.Kind)
					}
				}
				if d.Body != nil && !d.Listing && d.Format != sitemap.FormatIndex {
					read = append(read, d.Name)
				}
			}
			if !reflect.DeepEqual(got, tc.want) || !slices.Equal(read, []string{tc.read}) {
				t.Errorf("from %q (concurrency %d): findings %v, read %q; want %v, and %s read", tc.starts, conc, got, read, tc.want, tc.read)
			}
		}
	}
}

// TestRobotsCutOff: a robots.txt whose body ends before its
// Content-Length is not the file: everything is disallowed, as for one
// that cannot be reached, and said so; what came of it (an Allow) is not
// taken for the whole.
func TestRobotsCutOff(t *testing.T) {
	site := sitetest.New(t)
	site.Handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2000")
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	})
	site.Page("/s.xml", sitetest.URLSet("{{.}}/a"))
	f := discover.NewFetcher(discover.Options{})
	ok, why := f.Allowed(t.Context(), site.URL+"/s.xml", "sitemapkit")
	if ok || !strings.Contains(why, "robots.txt could not be read") {
		t.Errorf("Allowed = %v, %q; want false, robots.txt could not be read", ok, why)
	}
}

// TestRobotsOncePerSpelling: the URLs of one site spelled otherwise (the
// host in capitals, the default port) share its robots.txt, fetched once:
// a sitemap listing the site in a thousand spellings must not make a
// thousand fetches.
func TestRobotsOncePerSpelling(t *testing.T) {
	if _, err := net.LookupHost("localhost"); err != nil {
		t.Skipf("localhost does not resolve: %v", err)
	}
	site := sitetest.New(t)
	site.Page("/robots.txt", "User-agent: *\nDisallow: /\n")
	base := strings.Replace(site.URL, "127.0.0.1", "localhost", 1)
	f := discover.NewFetcher(discover.Options{})
	for _, u := range []string{
		base + "/a",
		strings.Replace(base, "localhost", "LOCALHOST", 1) + "/b",
		strings.Replace(base, "localhost", "LocalHost", 1) + "/c",
		strings.Replace(base, "http://", "HTTP://", 1) + "/d",
	} {
		if ok, _ := f.Allowed(t.Context(), u, "sitemapkit"); ok {
			t.Errorf("%s allowed, want disallowed", u)
		}
	}
	if n := site.Hits("/robots.txt"); n != 1 {
		t.Errorf("robots.txt fetched %d times, want 1", n)
	}
}

// TestRobotsFileEndless: a --robots file without end (/dev/zero) is read
// to its cap and what follows counted up to a bound: the walk ends, and
// says there was more.
func TestRobotsFileEndless(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	p := filepath.Join(t.TempDir(), "s.xml")
	if err := os.WriteFile(p, []byte(sitetest.URLSet("https://www.example.com/a")), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string)
	go func() {
		_, found := walk(t, []string{p}, discover.Options{Robots: "/dev/zero"}, discover.Truncated)
		done <- found
	}()
	select {
	case found := <-done:
		if len(found) != 1 || !strings.Contains(found[0], "more than") {
			t.Errorf("findings %q, want one saying there was more than it counted", found)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the walk did not end: the robots.txt file is counted without bound")
	}
}

// TestRedirectCheckedByRobots: a redirect leads to a URL that robots.txt
// must allow as well, on another host or the same one: only the first
// URL was asked, and a redirect to a disallowed path was fetched.
func TestRedirectCheckedByRobots(t *testing.T) {
	b := sitetest.New(t)
	b.Page("/robots.txt", "User-agent: *\nDisallow: /private\n")
	var fetched atomic.Int32
	b.Handle("/private/s.xml", func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		io.WriteString(w, sitetest.URLSet(b.URL+"/private/a"))
	})
	a := sitetest.New(t)
	a.Page("/robots.txt", "User-agent: *\nAllow: /\n")
	a.Handle("/x.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/private/s.xml", http.StatusFound)
	})
	b.Handle("/y.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/private/s.xml", http.StatusMovedPermanently)
	})
	for _, start := range []string{a.URL + "/x.xml", b.URL + "/y.xml"} {
		_, found := walk(t, []string{start}, discover.Options{}, discover.BlockedByRobots)
		if len(found) != 1 || !strings.Contains(found[0], "redirected to "+b.URL+"/private/s.xml") {
			t.Errorf("%s: findings %q, want one blocked-by-robots naming the hop", start, found)
		}
	}
	if n := fetched.Load(); n != 0 {
		t.Errorf("the disallowed sitemap was fetched %d times", n)
	}
}

// TestRedirectHopCheck: the robots.txt of a redirect's hop is fetched off
// the document's clock (a slow robots.txt and a slow document, each in
// time, timed out together), and a hop to another scheme is a fetch
// failure, not robots.txt's word (its robots.txt was looked for over ftp).
func TestRedirectHopCheck(t *testing.T) {
	slow := 600 * time.Millisecond
	b := sitetest.New(t)
	b.Handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(slow)
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	})
	b.Handle("/s.xml", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(slow)
		io.WriteString(w, sitetest.URLSet(b.URL+"/a"))
	})
	a := sitetest.New(t)
	a.Page("/robots.txt", "User-agent: *\nAllow: /\n")
	a.Handle("/x.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/s.xml", http.StatusFound)
	})
	a.Handle("/ftp.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://files.example.com/s.xml", http.StatusFound)
	})
	o := discover.Options{Timeout: time.Second}
	if _, found := walk(t, []string{a.URL + "/x.xml"}, o, discover.FetchFailed); len(found) != 0 {
		t.Errorf("a slow hop's robots.txt and document, each in time: %q", found)
	}
	_, blocked := walk(t, []string{a.URL + "/ftp.xml"}, o, discover.BlockedByRobots)
	_, failed := walk(t, []string{a.URL + "/ftp.xml"}, o, discover.FetchFailed)
	if len(blocked) != 0 || len(failed) != 1 || !strings.Contains(failed[0], "not an http") {
		t.Errorf("a hop to ftp: blocked %q, failed %q; want one fetch failure", blocked, failed)
	}
}

// TestFolderThroughSymlink: a folder given through a symbolic link (a
// build's public -> dist/) is read as the folder it names: it was
// reported as holding no sitemap files (exit 2), where "link/" was read.
func TestFolderThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dist")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(target, "sitemap.xml"), sitetest.URLSet("https://www.example.com/a"))
	link := filepath.Join(dir, "public")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	docs, found := walk(t, []string{link}, discover.Options{Offline: true}, discover.FetchFailed)
	if len(found) != 0 {
		t.Errorf("findings %q, want none", found)
	}
	var read []string
	for _, d := range docs {
		if !d.Listing {
			read = append(read, d.Name)
		}
	}
	if want := []string{filepath.Join(link, "sitemap.xml")}; !slices.Equal(read, want) {
		t.Errorf("documents read %q, want %q", read, want)
	}
}

// TestFolderUnreadable: a folder, or a part of one, that cannot be read
// is reported as such: "no sitemap files in this folder" was said of a
// folder that could not be listed, and a sub-folder or a sitemap that
// could not be read was left out unnamed (validate exited 0). A hidden
// file that cannot be read is no sitemap, and is not named; nor is one
// whose name no sitemap has (a docroot's wp-config.php, kept from the
// user who deploys).
func TestFolderUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a folder whatever its mode")
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "sitemap.xml"), sitetest.URLSet("https://www.example.com/a"))
	if err := os.Mkdir(filepath.Join(dir, "more"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "more", "sitemap.xml"), sitetest.URLSet("https://www.example.com/b"))
	writeFile(t, filepath.Join(dir, "shut.xml"), sitetest.URLSet("https://www.example.com/c"))
	writeFile(t, filepath.Join(dir, ".htpasswd"), "admin:x")   // hidden: no sitemap, not named
	writeFile(t, filepath.Join(dir, "wp-config.php"), "<?php") // no sitemap's name: not named
	shut := []string{filepath.Join(dir, "more"), filepath.Join(dir, "shut.xml"), filepath.Join(dir, ".htpasswd"), filepath.Join(dir, "wp-config.php"), dir}
	for _, p := range shut {
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, p := range shut {
			os.Chmod(p, 0o755)
		}
	})
	_, found := walk(t, []string{dir}, discover.Options{Offline: true}, discover.FetchFailed)
	if len(found) != 1 || !strings.Contains(found[0], "cannot read: permission denied") {
		t.Errorf("folder shut: findings %q, want one saying it cannot be read", found)
	}
	os.Chmod(dir, 0o755)
	_, found = walk(t, []string{dir}, discover.Options{Offline: true}, discover.FetchFailed)
	slices.Sort(found)
	want := []string{
		dir + ": cannot read " + filepath.Join(dir, "more") + ": permission denied",
		filepath.Join(dir, "shut.xml") + ": cannot read: permission denied",
	}
	slices.Sort(want)
	if !slices.Equal(found, want) {
		t.Errorf("parts shut: findings %q, want %q", found, want)
	}
}
