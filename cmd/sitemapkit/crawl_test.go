package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/browsertest"
	"github.com/sitemapkit/sitemapkit/internal/longtest"
	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
)

// crawlSite is a small live site: a home page, a page, a noindex page, a
// page robots.txt disallows and a page whose canonical is the home page.
func crawlTestSite(t *testing.T) *sitetest.Site {
	s := sitetest.New(t)
	s.Page("/robots.txt", "User-agent: *\nDisallow: /private/\n")
	s.Page("/", `<html><body><a href="/a">a</a> <a href="/b">b</a> <a href="/private/x">x</a> <a href="/print">print</a></body></html>`)
	s.Page("/a", `<html><head><link rel="alternate" hreflang="en" href="/a"><link rel="alternate" hreflang="de" href="/de/a"></head><body><img src="/i.png"></body></html>`)
	s.Page("/de/a", `<html><head><link rel="alternate" hreflang="en" href="/a"><link rel="alternate" hreflang="de" href="/de/a"></head></html>`)
	s.Page("/b", `<html><head><meta name="robots" content="noindex"></head></html>`)
	s.Page("/print", `<html><head><link rel="canonical" href="/"></head></html>`)
	return s
}

// TestCrawlCommand: sitemapkit crawl prints the pages that belong in the
// sitemap as generate's JSONL, logs every URL met with why it was left
// out, and says so on stderr.
func TestCrawlCommand(t *testing.T) {
	s := crawlTestSite(t)
	log := filepath.Join(t.TempDir(), "crawl.jsonl")
	r := genRun(t, "", "crawl", "--rate", "0", "--crawl-dir", t.TempDir(), "--crawl-log", log, s.URL+"/")
	r.want(t, 0)
	var locs []string
	for line := range strings.SplitSeq(strings.TrimSpace(r.stdout), "\n") {
		var u struct {
			Loc        string `json:"loc"`
			Alternates []struct {
				Hreflang string `json:"hreflang"`
			} `json:"alternates"`
		}
		if err := json.Unmarshal([]byte(line), &u); err != nil {
			t.Fatalf("not JSONL: %q", line)
		}
		locs = append(locs, strings.TrimPrefix(u.Loc, s.URL))
		if strings.HasSuffix(u.Loc, "/a") && len(u.Alternates) != 2 {
			t.Errorf("/a: alternates %+v", u.Alternates)
		}
	}
	slices.Sort(locs)
	if want := []string{"/", "/a", "/de/a"}; !slices.Equal(locs, want) {
		t.Errorf("crawl listed %v, want %v", locs, want)
	}
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reasons := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e struct{ URL, Reason string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("crawl log: %q", sc.Text())
		}
		reasons[strings.TrimPrefix(e.URL, s.URL)] = e.Reason
	}
	for p, want := range map[string]string{"/": "", "/a": "", "/b": "noindex", "/private/x": "robots", "/print": "canonical-elsewhere"} {
		if got, ok := reasons[p]; !ok || got != want {
			t.Errorf("log: %s %q (%v), want %q", p, got, ok, want)
		}
	}
	if !strings.Contains(r.stderr, "Crawl: 5 pages fetched, 3 URLs listed.") || !strings.Contains(r.stderr, "canonical-elsewhere 1, noindex 1, robots 1") {
		t.Errorf("summary:\n%s", r.stderr)
	}

	r = genRun(t, "", "crawl", "not-a-url")
	r.want(t, exitUsage)
	// Values that mean nothing are refused, named as the flags, each in
	// one line (then the Try: line): --max-depth -1 added "--max-pages
	// and max_depth must not be negative".
	for flag, msg := range map[string]string{
		"--concurrency=300":                     "--concurrency 300 is out of range: 1 to 256",
		"--concurrency=0":                       "--concurrency 0 is out of range: 1 to 256",
		"--rate=-3":                             "--rate -3 is negative",
		"--max-pages=0":                         "--max-pages 0: at least 1 page",
		"--max-depth=-1":                        "--max-depth -1: at least 1",
		"--crawl-budget=0s":                     `--crawl-budget "0s" is not a duration`,
		"--crawl-host=https://cdn.example.com/": `--crawl-host "https://cdn.example.com/" is not a host name`,
	} {
		r := genRun(t, "", "crawl", flag, s.URL+"/")
		if r.code != exitUsage || !strings.Contains(r.stderr, msg) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 1 {
			t.Errorf("crawl %s: exit %d, %s", flag, r.code, r.stderr)
		}
		r = genRun(t, "", "generate", "--base", s.URL+"/", "--out", t.TempDir(), flag, "--crawl", s.URL+"/")
		if r.code != exitUsage || !strings.Contains(r.stderr, msg) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 1 {
			t.Errorf("generate --crawl … %s: exit %d, %s", flag, r.code, r.stderr)
		}
	}
	// A site whose robots.txt cannot be had is not crawled, and says so.
	down := sitetest.New(t)
	down.Handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	down.Page("/", "<html><body>home</body></html>")
	r = genRun(t, "", "crawl", "--rate", "0", "--crawl-dir", t.TempDir(), down.URL+"/")
	if r.code != exitInputErrors || !strings.Contains(r.stderr, "robots.txt answered 503 Service Unavailable") || !strings.Contains(r.stderr, "no page listed") {
		t.Errorf("robots.txt answering 503: exit %d, %s", r.code, r.stderr)
	}
	r = genRun(t, "", "generate", "--base", down.URL+"/", "--out", t.TempDir(), "--rate", "0", "--crawl-dir", t.TempDir(), "--crawl", down.URL+"/")
	if r.code != exitInputErrors || !strings.Contains(r.stderr, "robots.txt answered 503 Service Unavailable") || !strings.Contains(r.stderr, "no URL to publish") {
		t.Errorf("generate --crawl, robots.txt answering 503: exit %d, %s", r.code, r.stderr)
	}
}

// TestCrawlCommandRender: --render renders a page whose links its script
// writes, and finds what it links to; without it the page is counted.
func TestCrawlCommandRender(t *testing.T) {
	browsertest.Need(t)
	s := sitetest.New(t)
	s.Page("/", `<html><head><script>document.addEventListener("DOMContentLoaded", () => { document.body.innerHTML = '<a href="/app/x">x</a>' })</script></head><body></body></html>`)
	s.Page("/app/x", `<html><body>x</body></html>`)
	r := genRun(t, "", "crawl", "--rate", "0", "--crawl-dir", t.TempDir(), s.URL+"/")
	r.want(t, 0)
	if strings.Contains(r.stdout, "/app/x") || !strings.Contains(r.stderr, "pages that look client-rendered (scripts, no link): 1;") {
		t.Errorf("without --render:\n%s\n%s", r.stdout, r.stderr)
	}
	r = genRun(t, "", "crawl", "--rate", "0", "--crawl-dir", t.TempDir(), "--render", s.URL+"/")
	r.want(t, 0)
	if !strings.Contains(r.stdout, s.URL+"/app/x") || !strings.Contains(r.stderr, "pages rendered in Chromium: 1 (0 failed)") {
		t.Errorf("with --render:\n%s\n%s", r.stdout, r.stderr)
	}
}

// TestGenerateCrawl: generate --crawl (and a config's crawl source)
// publishes the pages the crawl found, as a source like the others.
func TestGenerateCrawl(t *testing.T) {
	s := crawlTestSite(t)
	out := filepath.Join(t.TempDir(), "out")
	r := genRun(t, "", "generate", "--base", s.URL+"/", "--out", out, "--rate", "0", "--crawl-dir", t.TempDir(), "--crawl", s.URL+"/")
	r.want(t, 0)
	got := genLocs(genPublished(t, out, "sitemap.xml"))
	slices.Sort(got)
	if want := []string{s.URL + "/", s.URL + "/a", s.URL + "/de/a"}; !slices.Equal(got, want) {
		t.Errorf("published %v, want %v", got, want)
	}
	xsdtest.Check(t, out)
	if !strings.Contains(r.stdout, "Crawl: 5 pages fetched, 3 URLs listed.") {
		t.Errorf("summary:\n%s", r.stdout)
	}

	dir := t.TempDir()
	cfg := genWrite(t, dir, "sitemapkit.toml", "base = \""+s.URL+"/\"\nout = \"out\"\n[[source]]\ntype = \"crawl\"\npaths = [\""+s.URL+"/\"]\nrate = 0\nexclude = [\"/de/**\"]\ncrawl_log = \"crawl.jsonl\"\n")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	got = genLocs(genPublished(t, filepath.Join(dir, "out"), "sitemap.xml"))
	slices.Sort(got)
	if want := []string{s.URL + "/", s.URL + "/a"}; !slices.Equal(got, want) {
		t.Errorf("config crawl source: published %v, want %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "crawl.jsonl")); err != nil {
		t.Errorf("no crawl log: %v", err)
	}
	bad := genWrite(t, dir, "bad.toml", "base = \""+s.URL+"/\"\nout = \"out\"\n[[source]]\ntype = \"crawl\"\npaths = [\"relative/\"]\n")
	r = genRun(t, "", "generate", "--config", bad)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "is not an http(s) URL to start the crawl at") {
		t.Errorf("a relative start: %s", r.stderr)
	}
}

// TestGenerateCrawlFlagsOverConfig: the crawl flags given with a config
// file override its crawl sources' keys, as flags override the file's
// settings (limits.md names --max-pages the flag of max_pages): they were
// ignored without --crawl, and --max-pages 1 crawled the whole site. A
// crawl flag with nothing to crawl is refused, not ignored.
func TestGenerateCrawlFlagsOverConfig(t *testing.T) {
	s := crawlTestSite(t)
	dir := t.TempDir()
	cfg := genWrite(t, dir, "sitemapkit.toml", "base = \""+s.URL+"/\"\nout = \"out\"\n[[source]]\ntype = \"crawl\"\npaths = [\""+s.URL+"/\"]\nrate = 0\ncrawl_dir = \"crawl\"\n")
	log := filepath.Join(t.TempDir(), "crawl.jsonl")
	r := genRun(t, "", "generate", "--config", cfg, "--max-pages", "1", "--crawl-log", log)
	r.want(t, 0)
	if got := genLocs(genPublished(t, filepath.Join(dir, "out"), "sitemap.xml")); !slices.Equal(got, []string{s.URL + "/"}) {
		t.Errorf("--max-pages 1 over the config's crawl: published %v, want the start alone\n%s", got, r.stdout)
	}
	if _, err := os.Stat(log); err != nil {
		t.Errorf("--crawl-log over the config's one crawl source: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", cfg, "--max-pages", "0"}, "generate: --max-pages 0: at least 1 page"},
		{[]string{"--base", s.URL + "/", "--out", filepath.Join(dir, "out2"), "--max-pages", "5", genWrite(t, dir, "urls.txt", s.URL+"/\n")},
			"generate: --max-pages: a crawl setting, and nothing is crawled"},
	} {
		r := genRun(t, "", append([]string{"generate"}, c.args...)...)
		r.want(t, exitUsage)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: stderr\n%s\nwant %q", c.args, r.stderr, c.want)
		}
	}
}

// TestCrawlCommandResume: a crawl interrupted (its context cancelled, as
// Ctrl-C does) says how to carry on; run again with --resume in the same
// folder, it prints every page, those found before the stop included, and
// leaves nothing behind once it ended.
func TestCrawlCommandResume(t *testing.T) {
	s := sitetest.New(t)
	var home strings.Builder
	for i := range 40 {
		fmt.Fprintf(&home, `<a href="/p%d">p</a>`, i)
		s.Handle(fmt.Sprintf("/p%d", i), func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(10 * time.Millisecond)
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body>page</body></html>"))
		})
	}
	s.Page("/", "<html><body>"+home.String()+"</body></html>")
	dir := filepath.Join(t.TempDir(), "crawl")
	log := filepath.Join(t.TempDir(), "crawl.jsonl")
	args := []string{"crawl", "--rate", "0", "--concurrency", "1", "--crawl-dir", dir, "--crawl-log", log, s.URL + "/"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(150*time.Millisecond, cancel) // as Ctrl-C does
	r := genRunCtx(t, ctx, "", args...)
	if r.code != exitInterrupted || !strings.Contains(r.stderr, "interrupted; resume it with --resume") {
		t.Fatalf("interrupted: exit %d\n%s", r.code, r.stderr)
	}
	first := strings.Count(r.stdout, "\n")
	if first == 0 || first >= 41 {
		t.Fatalf("the interrupted crawl printed %d pages", first)
	}
	r = genRun(t, "", append(args, "--resume")...)
	r.want(t, 0)
	if n := strings.Count(r.stdout, "\n"); n != 41 {
		t.Errorf("the resumed crawl printed %d pages, want all 41", n)
	}
	if !strings.Contains(r.stderr, fmt.Sprintf("41 URLs listed (%d before the stop)", first)) {
		t.Errorf("summary of the resumed crawl:\n%s", r.stderr)
	}
	// The log goes on: each page listed is in it once, from one run or
	// the other.
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]int{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var e struct{ URL, Reason string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("crawl log: %q", line)
		}
		if e.Reason == "" {
			listed[e.URL]++
		}
	}
	if len(listed) != 41 {
		t.Errorf("the log of the two runs lists %d pages, want 41", len(listed))
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("the crawl's folder is still there after the crawl ended")
	}
	r = genRun(t, "", append(args, "--resume")...)
	if r.code == 0 || !strings.Contains(r.stderr, "no stopped crawl to resume") {
		t.Errorf("resuming an ended crawl: exit %d, %s", r.code, r.stderr)
	}

	// The time budget stops it the same way.
	r = genRun(t, "", append(args, "--crawl-budget", "100ms")...)
	if r.code == 0 || !strings.Contains(r.stderr, "stopped at its time budget (100ms); resume it with --resume") {
		t.Errorf("past its budget: exit %d, %s", r.code, r.stderr)
	}
	r = genRun(t, "", append(args, "--resume")...)
	r.want(t, 0)
	if n := strings.Count(r.stdout, "\n"); n != 41 {
		t.Errorf("the crawl resumed after its budget printed %d pages, want all 41", n)
	}
}

// TestGenerateCrawlLastmodContent: a crawl source works with a state and
// --lastmod content: a page's lastmod moves when, and only when, its
// content does. The crawl says who it is.
func TestGenerateCrawlLastmodContent(t *testing.T) {
	s := sitetest.New(t)
	s.Page("/", `<html><body><main>home</main><a href="/a">a</a> <a href="/b">b</a></body></html>`)
	s.Page("/a", `<html><body><main>first text</main></body></html>`)
	s.Page("/b", `<html><body><main>b text</main></body></html>`)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	args := []string{"generate", "--base", s.URL + "/", "--out", out, "--state", filepath.Join(dir, "st.db"), "--lastmod", "content",
		"--rate", "0", "--crawl-dir", filepath.Join(dir, "crawl"), "--crawl", s.URL + "/"}
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600") // 2026-01-01
	genRun(t, "", args...).want(t, 0)
	s.Page("/a", `<html><body><main>second text</main></body></html>`)
	t.Setenv("SOURCE_DATE_EPOCH", "1768464000") // 2026-01-15T08:00:00Z
	genRun(t, "", args...).want(t, 0)
	got := lastmods(genPublished(t, out, "sitemap.xml"))
	// The first run knew no date (none is invented); the second saw /a
	// change, and nothing else.
	if got[s.URL+"/a"] != "2026-01-15T08:00:00+00:00" || got[s.URL+"/b"] != "" || got[s.URL+"/"] != "" {
		t.Errorf("lastmods %v: want /a's moved alone", got)
	}
	for _, ua := range s.UserAgents() {
		if !strings.HasPrefix(ua, "sitemapkit/") || !strings.Contains(ua, "https://") {
			t.Errorf("User-Agent %q does not name sitemapkit and a URL", ua)
		}
	}
}

// TestCrawlMemory crawls a site of 100,000 pages (each linking to two
// more, so that the frontier grows to tens of thousands and spills) with
// politeness off, as the binary runs: its peak RSS stays within the
// issue's 150 MiB, and it lists every page.
func TestCrawlMemory(t *testing.T) {
	longtest.Skip(t, "builds the command and crawls 100,000 pages")
	const n = 100_000
	bin := filepath.Join(t.TempDir(), "sitemapkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &i); err != nil && r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><head><title>page %d</title></head><body><main>page %d</main>`, i, i)
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < n {
				fmt.Fprintf(w, `<a href="/p/%d">%d</a> `, c, c)
			}
		}
		fmt.Fprint(w, `<a href="https://elsewhere.example/x">out</a></body></html>`)
	}))
	defer srv.Close()
	var out countingWriter
	cmd := exec.Command(bin, "crawl", "--rate", "0", "--concurrency", "32", "--max-pages", fmt.Sprint(n+10), "--crawl-dir", t.TempDir(), srv.URL+"/p/0")
	cmd.Stdout = &out
	start := time.Now()
	peak := peakRSS(t, cmd)
	el := time.Since(start)
	t.Logf("crawl of %d pages: %v (%.0f pages/s), peak RSS %.1f MiB", n, el.Round(time.Millisecond), n/el.Seconds(), float64(peak)/(1<<20))
	if out.lines != n {
		t.Errorf("%d pages listed, want %d", out.lines, n)
	}
	if peak > 150<<20 {
		t.Errorf("peak RSS %.1f MiB, over 150 MiB", float64(peak)/(1<<20))
	}
}

// countingWriter counts the lines written to it.
type countingWriter struct{ lines int }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.lines += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}
