package submit

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/robots"
)

const site = "https://www.example.com/"

func TestRobots(t *testing.T) {
	robotsURL, _ := url.Parse(site + "robots.txt")
	ours := SetSitemaps(site, "sitemap")
	for _, c := range []struct {
		name, old, want string
		sitemaps        []string
	}{
		{"created", "", "Sitemap: " + site + "sitemap.xml\n", []string{site + "sitemap.xml"}},
		{"comments, groups, CRLF, no final newline",
			"# hello\r\nUser-agent: *\r\nDisallow: /admin # keep out\r\n\r\nUser-agent: Googlebot\r\nAllow: /",
			"# hello\r\nUser-agent: *\r\nDisallow: /admin # keep out\r\n\r\nUser-agent: Googlebot\r\nAllow: /\r\nSitemap: " + site + "sitemap.xml\r\n",
			[]string{site + "sitemap.xml"}},
		{"kept where it is, in any spelling",
			"User-agent: *\nSITEMAP:   " + site + "sitemap.xml   # ours\nDisallow: /x\n",
			"User-agent: *\nSITEMAP:   " + site + "sitemap.xml   # ours\nDisallow: /x\n",
			[]string{site + "sitemap.xml"}},
		{"stale lines of the set removed, others' kept",
			"Sitemap: " + site + "sitemap-index-2.xml\nSitemap: " + site + "blog/sitemap.xml\nSitemap: " + site + "news.xml\nUser-agent: *\nSitemap: https://cdn.example.net/sitemap.xml\n",
			"Sitemap: " + site + "blog/sitemap.xml\nSitemap: " + site + "news.xml\nUser-agent: *\nSitemap: https://cdn.example.net/sitemap.xml\nSitemap: " + site + "sitemap.xml\n",
			[]string{site + "sitemap.xml"}},
		{"relative line resolved", "Sitemap: /sitemap.xml\n", "Sitemap: /sitemap.xml\n", []string{site + "sitemap.xml"}},
		{"two indexes", "User-agent: *\nDisallow:\n",
			"User-agent: *\nDisallow:\nSitemap: " + site + "sitemap.xml\nSitemap: " + site + "sitemap-index-2.xml\n",
			[]string{site + "sitemap.xml", site + "sitemap-index-2.xml"}},
	} {
		got, changed := Robots([]byte(c.old), robotsURL, c.sitemaps, ours)
		if string(got) != c.want || changed != (c.old != c.want) {
			t.Errorf("%s: got (changed %v)\n%q\nwant\n%q", c.name, changed, got, c.want)
		}
		again, changed := Robots(got, robotsURL, c.sitemaps, ours)
		if changed || string(again) != string(got) {
			t.Errorf("%s: a second run changed it:\n%q", c.name, again)
		}
	}
}

// TestRobotsPastParseLimit: a robots.txt longer than the parser reads
// (robots.MaxBytes) is edited as a short one: the Sitemap: line added at
// its end is found there next time, not added again on every run, and a
// stale line of the set past the limit is removed.
func TestRobotsPastParseLimit(t *testing.T) {
	robotsURL, _ := url.Parse(site + "robots.txt")
	ours := SetSitemaps(site, "sitemap")
	big := "User-agent: *\n" + strings.Repeat("Disallow: /private/\n", robots.MaxBytes/20+1)
	want := []string{site + "sitemap.xml"}
	got, changed := Robots([]byte(big+"Sitemap: "+site+"sitemap-index-2.xml\n"), robotsURL, want, ours)
	if !changed || string(got) != big+"Sitemap: "+site+"sitemap.xml\n" {
		t.Errorf("first run: changed %v, ends %q", changed, got[len(got)-100:])
	}
	again, changed := Robots(got, robotsURL, want, ours)
	if changed || string(again) != string(got) {
		t.Errorf("a second run changed it: %d Sitemap: lines", strings.Count(string(again), "Sitemap:"))
	}
}

func TestWriteRobots(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "robots.txt")
	robotsURL, _ := url.Parse(site + "robots.txt")
	ours := SetSitemaps(site, "sitemap")
	if wrote, err := WriteRobots(path, robotsURL, []string{site + "sitemap.xml"}, ours); err != nil || !wrote {
		t.Fatalf("created: %v %v", wrote, err)
	}
	st1, _ := os.Stat(path)
	if wrote, err := WriteRobots(path, robotsURL, []string{site + "sitemap.xml"}, ours); err != nil || wrote {
		t.Fatalf("second run: wrote %v %v", wrote, err)
	}
	st2, _ := os.Stat(path)
	if !st1.ModTime().Equal(st2.ModTime()) {
		t.Error("an unchanged robots.txt was rewritten")
	}
	if got, _ := os.ReadFile(path); string(got) != "Sitemap: "+site+"sitemap.xml\n" {
		t.Errorf("robots.txt: %q", got)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("temp files left: %v", ents)
	}
}

// TestWriteRobotsSymlink: a robots.txt that is a symbolic link (to the
// site's source, say) stays one, and the file it points to is edited; a
// link to a file not made yet (absolute, or relative to the link's
// folder) stays one too, and the file is created where it points (the
// link was replaced by a file of its own, which the deployed robots.txt
// never saw).
func TestWriteRobotsSymlink(t *testing.T) {
	for _, c := range []struct {
		name, old string // old "": no file yet
		relative  bool
	}{
		{"to a file", "User-agent: *\nDisallow: /admin\n", false},
		{"to no file yet", "", false},
		{"relative, to no file yet", "", true},
	} {
		dir := t.TempDir()
		src := filepath.Join(dir, "static")
		os.Mkdir(src, 0o755)
		target := filepath.Join(src, "robots.txt")
		if c.old != "" {
			os.WriteFile(target, []byte(c.old), 0o644)
		}
		to := target
		if c.relative {
			to = filepath.Join("static", "robots.txt")
		}
		link := filepath.Join(dir, "robots.txt")
		if err := os.Symlink(to, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		robotsURL, _ := url.Parse(site + "robots.txt")
		if _, err := WriteRobots(link, robotsURL, []string{site + "sitemap.xml"}, SetSitemaps(site, "sitemap")); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced by a file (%v)", c.name, err)
		}
		if got, err := os.ReadFile(target); string(got) != c.old+"Sitemap: "+site+"sitemap.xml\n" {
			t.Errorf("%s: the file linked to: %q, %v", c.name, got, err)
		}
	}
}

func TestSetSitemaps(t *testing.T) {
	ours := SetSitemaps(site, "sitemap")
	for u, want := range map[string]bool{
		site + "sitemap.xml": true, site + "sitemap-index-12.xml": true, site + "sitemap.txt.gz": true,
		site + "sitemap-1-3fa2c19b.xml.gz": false, site + "sitemap-index-.xml": false, site + "blog/sitemap.xml": false,
		site + "other.xml": false, "https://other.example/sitemap.xml": false,
	} {
		if ours(u) != want {
			t.Errorf("%s: ours %v, want %v", u, !want, want)
		}
	}
}
