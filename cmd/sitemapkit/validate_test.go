package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/lint"
)

// sk runs the command in-process and returns its exit code and output.
func sk(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code = run(ctx, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func xmlURLSet(entries ...string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">` + "\n" +
		strings.Join(entries, "\n") + "\n</urlset>\n"
}

func entry(loc string) string {
	return "<url><loc>" + loc + "</loc><lastmod>2024-05-01</lastmod></url>"
}

func gzipText(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const vbase = "https://www.example.com/"

// goodSet writes an index and two children (one gzipped) into a folder.
func goodSet(t *testing.T) string {
	dir := t.TempDir()
	write(t, dir, "sitemap.xml", sitetest.Index(vbase+"sitemap-1.xml", vbase+"sitemap-2.xml.gz"))
	write(t, dir, "sitemap-1.xml", xmlURLSet(entry(vbase+"a"), entry(vbase+"b")))
	write(t, dir, "sitemap-2.xml.gz", gzipText(xmlURLSet(entry(vbase+"c"))))
	return dir
}

func TestValidateGoodFolder(t *testing.T) {
	dir := goodSet(t)
	code, out, errOut := sk(t, "validate", "--base", vbase, "--offline", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if want := "3 files (3 read), 3 URLs: 0 errors, 0 warnings, 0 infos\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
}

var diagLine = regexp.MustCompile(`^(.+):(\d+):(\d+): (error|warning|info)\[([a-z0-9-]+)\]: (.+)$`)

func TestValidateErrorsText(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "sitemap.xml", xmlURLSet(
		entry(vbase+"a"),
		"<url><loc>"+vbase+"b</loc><lastmod>2024-05-01T10:00</lastmod></url>",
		"<url><loc>https://other.example.org/c</loc><changefreq>sometimes</changefreq></url>",
		entry(vbase+"a"),
	))
	code, out, _ := sk(t, "validate", "--base", vbase, p)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	found := map[string]string{}
	for _, l := range lines {
		if m := diagLine.FindStringSubmatch(l); m != nil {
			if m[1] != p {
				t.Errorf("file %q, want %q", m[1], p)
			}
			found[m[5]] = m[2] + ":" + m[3]
		}
	}
	for rule, line := range map[string]string{"time-without-timezone": "4", "url-not-allowed": "5", "invalid-changefreq": "5", "duplicate-url": "6"} {
		pos, ok := found[rule]
		if !ok || !strings.HasPrefix(pos, line+":") {
			t.Errorf("%s at %q, want line %s\n%s", rule, pos, line, out)
		}
	}
	if !strings.Contains(out, "1 file (1 read), 4 URLs: 3 errors, 1 warning") {
		t.Errorf("summary missing:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^  error +time-without-timezone +1$`).MatchString(out) {
		t.Errorf("by-rule summary missing:\n%s", out)
	}
	// Lines come sorted by place.
	var last int
	for _, l := range lines {
		if m := diagLine.FindStringSubmatch(l); m != nil {
			var n int
			fmt.Sscan(m[2], &n)
			if n < last {
				t.Errorf("diagnostics out of order:\n%s", out)
			}
			last = n
		}
	}
}

func TestValidateJSON(t *testing.T) {
	dir := goodSet(t)
	write(t, dir, "sitemap-1.xml", xmlURLSet(entry(vbase+"a"), "<url><loc>"+vbase+"b</loc><priority>2</priority></url>"))
	code, out, errOut := sk(t, "validate", "--format", "json", "--base", vbase, dir)
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var rep struct {
		Files []struct {
			Name, URL, Parent, Format, Compressed string
			URLs, Errors, Warnings, Infos         int
			Bytes                                 int64
			Read                                  bool
		}
		Diagnostics []lint.Diagnostic
		Summary     struct {
			Files     int `json:"files"`
			FilesRead int `json:"files_read"`
			URLs      int `json:"urls"`
			Errors    int `json:"errors"`
			Warnings  int `json:"warnings"`
			Infos     int `json:"infos"`
			Omitted   int `json:"omitted"`
			ByRule    map[string]struct {
				Severity string
				Count    int
			} `json:"by_rule"`
		}
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Files) != 3 || rep.Files[0].Format != "sitemapindex" || rep.Files[2].Compressed != "gzip" || rep.Files[1].URLs != 2 {
		t.Errorf("files: %+v", rep.Files)
	}
	if rep.Files[1].URL != vbase+"sitemap-1.xml" || rep.Files[1].Bytes == 0 || !rep.Files[1].Read {
		t.Errorf("file 1: %+v", rep.Files[1])
	}
	if rep.Summary.Files != 3 || rep.Summary.FilesRead != 3 || rep.Summary.URLs != 3 || rep.Summary.Errors != 1 {
		t.Errorf("summary: %+v", rep.Summary)
	}
	if r := rep.Summary.ByRule["invalid-priority"]; r.Count != 1 || r.Severity != "error" {
		t.Errorf("by_rule: %+v", rep.Summary.ByRule)
	}
	if len(rep.Diagnostics) == 0 || rep.Diagnostics[0].Rule != "invalid-priority" || rep.Diagnostics[0].Line != 4 {
		t.Errorf("diagnostics: %+v", rep.Diagnostics)
	}
}

func TestValidateExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"validate"}, 2, "at least one"},
		{[]string{"validate", "--format", "xml", dir}, 2, `"xml" is not one of text, json, github, sarif`},
		{[]string{"validate", "--base", "example.com", dir}, 2, "--base"},
		{[]string{"validate", "--bogus", dir}, 2, "unknown flag"},
		{[]string{"validate", filepath.Join(dir, "missing.xml")}, 2, "nothing could be read"},
		{[]string{"validate", "--offline", "https://www.example.com/sitemap.xml"}, 2, "nothing could be read"},
	} {
		code, out, errOut := sk(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut+out, tc.msg) {
			t.Errorf("%q: exit %d, want %d with %q\nstdout: %s\nstderr: %s", tc.args, code, tc.code, tc.msg, out, errOut)
		}
	}
}

func TestValidateHelp(t *testing.T) {
	code, out, _ := sk(t, "validate", "--help")
	for _, want := range []string{"EXIT STATUS", "sitemapkit validate https://www.example.com/", "--offline", "--base", "--timeout", "--user-agent", "--max-depth", "--concurrency", "--format"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestValidateSiteOverHTTP(t *testing.T) {
	w := sitetest.New(t)
	w.Page("/robots.txt", "User-agent: *\nAllow: /\nSitemap: {{.}}/sitemap.xml\n")
	w.Page("/sitemap.xml", sitetest.Index("{{.}}/s1.xml", "{{.}}/s2.xml", "{{.}}/gone.xml", "{{.}}/slow.xml"))
	w.Page("/s1.xml", xmlURLSet(entry("{{.}}/a")))
	w.Handle("/s2.xml", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, "/s1-moved.xml", http.StatusMovedPermanently)
	})
	w.Page("/s1-moved.xml", xmlURLSet(entry("{{.}}/b")))
	release := make(chan struct{})
	defer close(release)
	w.Handle("/slow.xml", func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	code, out, errOut := sk(t, "validate", "--timeout", "300ms", "--user-agent", "probe/2.0", "--concurrency", "2", w.URL+"/")
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		// A missing sitemap is reported on the index line that lists it.
		w.URL + "/sitemap.xml:5: error[http-error]: " + w.URL + "/gone.xml: HTTP 404 Not Found",
		w.URL + "/sitemap.xml:6: error[fetch-error]: " + w.URL + "/slow.xml: timed out after 300ms",
		w.URL + "/s2.xml: info[redirect]: 301 redirect from " + w.URL + "/s2.xml to " + w.URL + "/s1-moved.xml",
		"5 files (3 read), 2 URLs: 2 errors, 0 warnings, 1 info",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, ua := range w.UserAgents() {
		if ua != "probe/2.0" {
			t.Errorf("User-Agent %q, want probe/2.0", ua)
		}
	}
}

func TestValidateMaxDepth(t *testing.T) {
	w := sitetest.New(t)
	w.Page("/i0.xml", sitetest.Index("{{.}}/i1.xml"))
	w.Page("/i1.xml", sitetest.Index("{{.}}/leaf.xml"))
	w.Page("/leaf.xml", xmlURLSet(entry("{{.}}/a")))
	_, out, _ := sk(t, "validate", "--max-depth", "1", w.URL+"/i0.xml")
	if !strings.Contains(out, "its 1 children are not read") || strings.Contains(out, "leaf.xml") {
		t.Errorf("--max-depth 1:\n%s", out)
	}
	_, out, _ = sk(t, "validate", w.URL+"/i0.xml")
	if !strings.Contains(out, "3 files (3 read), 1 URL") {
		t.Errorf("default depth reads the nested index's children:\n%s", out)
	}
}

func TestValidateMaxPerRule(t *testing.T) {
	dir := t.TempDir()
	var entries []string
	for i := range 7 {
		entries = append(entries, fmt.Sprintf("<url><loc>%sp%d</loc><priority>7</priority></url>", vbase, i))
	}
	p := write(t, dir, "s.xml", xmlURLSet(entries...))
	_, out, _ := sk(t, "validate", "--max-per-rule", "3", p)
	if n := strings.Count(out, "error[invalid-priority]: priority"); n != 3 {
		t.Errorf("%d invalid-priority lines listed, want 3:\n%s", n, out)
	}
	if !strings.Contains(out, p+": error[invalid-priority]: 4 more invalid-priority findings in this file not shown (--max-per-rule 3)") ||
		!strings.Contains(out, "7 errors") {
		t.Errorf("omitted findings must be counted and said:\n%s", out)
	}
	_, out, _ = sk(t, "validate", "--max-per-rule", "0", "--format", "json", p)
	var rep lint.Report // the API moved: validate renders lint.Collector's report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Errors != 7 || rep.Summary.Omitted != 0 || len(rep.Diagnostics) < 7 {
		t.Errorf("--max-per-rule 0 lists all: %+v", rep.Summary)
	}
}

// TestValidateMaxPerRuleAcrossWalk: 2,000 children of an index that
// answer 404 are reported on the index's lines, and capped there; findings
// about whole documents (starts that answer 404) are capped across the
// walk, not per file, which would give a line per document.
func TestValidateMaxPerRuleAcrossWalk(t *testing.T) {
	w := sitetest.New(t)
	var locs []string
	for i := range 2000 {
		locs = append(locs, fmt.Sprintf("{{.}}/gone%d.xml", i))
	}
	w.Page("/index.xml", sitetest.Index(locs...))
	_, out, _ := sk(t, "validate", "--max-per-rule", "10", w.URL+"/index.xml")
	if n := strings.Count(out, ".xml: HTTP 404"); n != 10 {
		t.Errorf("%d http-error lines listed, want 10", n)
	}
	// Each is on the index's line that lists it: the index's cap.
	if !strings.Contains(out, "/index.xml: error[http-error]: 1990 more http-error findings in this file not shown (--max-per-rule 10)") ||
		!strings.Contains(out, "2,000 errors") {
		t.Errorf("omitted findings must be counted and said:\n%.2000s", out)
	}

	args := []string{"validate", "--max-per-rule", "10"}
	for i := range 300 {
		args = append(args, fmt.Sprintf("%s/gone%d.xml", w.URL, i))
	}
	_, out, _ = sk(t, args...)
	if n := strings.Count(out, "error[http-error]: HTTP 404"); n != 10 {
		t.Errorf("%d http-error lines listed, want 10", n)
	}
	if !strings.Contains(out, "error[http-error]: 290 more http-error findings about this and later documents not shown (--max-per-rule 10, across the walk)") {
		t.Errorf("omitted findings must be counted and said:\n%.2000s", out)
	}
}

// TestValidateRobots: --robots FILE judges a folder's URLs offline by the
// robots.txt deployed with it, for Googlebot unless --robots-agent; a
// missing file is a usage error.
func TestValidateRobots(t *testing.T) {
	dir := t.TempDir()
	genWrite(t, dir, "sitemap.xml", xmlURLSet(entry("https://www.example.com/nogoogle/a"), entry("https://www.example.com/private/b")))
	robots := genWrite(t, t.TempDir(), "robots.txt", "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n")
	code, out, _ := sk(t, "validate", "--offline", "--robots", robots, dir)
	if code != exitInputErrors || !strings.Contains(out, "sitemap.xml:3:6: error[url-blocked-by-robots]: https://www.example.com/nogoogle/a: disallowed for Googlebot by "+robots) ||
		strings.Contains(out, "/private/b:") {
		t.Errorf("--robots: exit %d\n%s", code, out)
	}
	code, out, _ = sk(t, "validate", "--offline", "--robots", robots, "--robots-agent", "bingbot", dir)
	if code != exitInputErrors || !strings.Contains(out, "/private/b: disallowed for bingbot") || strings.Contains(out, "/nogoogle/a:") {
		t.Errorf("--robots-agent bingbot: exit %d\n%s", code, out)
	}
	if code, out, _ = sk(t, "validate", "--offline", dir); code != 0 || strings.Contains(out, "url-blocked-by-robots") {
		t.Errorf("no robots.txt known, yet URLs judged: exit %d\n%s", code, out)
	}
	// A robots.txt past 500 KiB is cut, and said, as a fetched one is.
	huge := genWrite(t, t.TempDir(), "robots.txt", strings.Repeat("# padding padding padding\n", 30000)+"User-agent: *\nDisallow: /\n")
	code, out, _ = sk(t, "validate", "--offline", "--robots", huge, dir)
	if code != exitInputErrors || !strings.Contains(out, huge+": error[robots-txt-truncated]") || strings.Contains(out, "url-blocked-by-robots") {
		t.Errorf("--robots past 500 KiB: exit %d\n%s", code, out)
	}
	// Its Sitemap: lines are its own, at their lines.
	site := sitetest.New(t)
	withSitemap := genWrite(t, t.TempDir(), "robots.txt", "User-agent: *\nSitemap: "+site.URL+"/missing.xml\n")
	code, out, _ = sk(t, "validate", "--robots", withSitemap, site.URL+"/")
	if code != exitUsage || !strings.Contains(out, withSitemap+":2: error[http-error]: "+site.URL+"/missing.xml: HTTP 404") { // nothing read
		t.Errorf("--robots with a site: exit %d\n%s", code, out)
	}
	code, _, errOut := sk(t, "validate", "--robots", filepath.Join(dir, "nope.txt"), dir)
	if code != exitUsage || !strings.Contains(errOut, "--robots") {
		t.Errorf("a missing --robots file: exit %d, %s", code, errOut)
	}
}

// The note on the scope names the documents whose public URL was not
// known: not a local index's children, which the index's <loc>s place.
func TestValidateUnscopedNote(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "sitemap.xml", sitetest.Index(vbase+"maps/s1.xml"))
	write(t, dir, "s1.xml", xmlURLSet(entry(vbase+"a")))
	write(t, dir, "other/a.xml", xmlURLSet(entry(vbase+"b")))
	write(t, dir, "other/b.xml", xmlURLSet(entry(vbase+"c")))
	write(t, dir, "rel/index.xml", sitetest.Index("child.xml"))
	write(t, dir, "rel/child.xml", xmlURLSet(entry(vbase+"rel/d")))
	for _, tc := range []struct {
		args []string
		note string
		code int
	}{
		// The child's URL is known (the index names it): its URL outside
		// /maps/ is found; the index's own is not known.
		{[]string{filepath.Join(dir, "sitemap.xml")}, "Scope not checked for " + filepath.Join(dir, "sitemap.xml") + ": its public URL is unknown.", 1},
		{[]string{filepath.Join(dir, "other")}, "Scope not checked for 2 local files (" + filepath.Join(dir, "other", "a.xml") + "…): their public URL is unknown.", 0},
		{[]string{"--base", vbase + "maps/", filepath.Join(dir, "sitemap.xml")}, "", 1},
		// With --base, a child named by a relative <loc> has no public URL:
		// a relative-url finding, not a note asking for --base.
		{[]string{"--base", vbase + "rel/", filepath.Join(dir, "rel", "index.xml")}, "", 1},
	} {
		code, out, errOut := sk(t, append([]string{"validate", "--offline"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d\n%s%s", tc.args, code, tc.code, out, errOut)
		}
		if tc.note == "" && strings.Contains(out, "Scope not checked") || !strings.Contains(out, tc.note) {
			t.Errorf("%q: want the note %q:\n%s", tc.args, tc.note, out)
		}
		if strings.HasSuffix(tc.args[len(tc.args)-1], "sitemap.xml") && !strings.Contains(out, "s1.xml:3:6: error[url-outside-directory]") {
			t.Errorf("%q: the child's scope is not checked:\n%s", tc.args, out)
		}
	}
}

// A sitemap still being read when --time-budget runs out is a walk-limit
// finding, for validate and read alike, not a fetch error.
func TestBudgetSpentWhileReading(t *testing.T) {
	s := sitetest.New(t)
	s.Trickle("/slow.xml", 2000, 20*time.Millisecond)
	code, out, errOut := sk(t, "validate", "--time-budget", "400ms", s.URL+"/slow.xml")
	if code != 1 || !strings.Contains(out, s.URL+"/slow.xml: error[walk-limit]: the walk's time budget of 400ms was spent while this document was read") || strings.Contains(out, "fetch-error") {
		t.Errorf("validate: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = sk(t, "read", "--time-budget", "400ms", s.URL+"/slow.xml")
	if code != 1 || !strings.Contains(errOut, "error[walk-limit]") || strings.Count(out, "\n") < 2000 {
		t.Errorf("read: exit %d, %d lines\n%s", code, strings.Count(out, "\n"), errOut)
	}
}

// TestSiteFlagsRefused: a 0 for the walk's numbers is refused, by read and
// validate alike, not taken for the default.
func TestSiteFlagsRefused(t *testing.T) {
	for _, cmd := range []string{"read", "validate"} {
		for flag, want := range map[string]string{
			"--max-depth=0":     "--max-depth 0: at least 1",
			"--concurrency=-2":  "--concurrency -2: at least 1",
			"--max-documents=0": "--max-documents 0: at least 1",
			"--timeout=0s":      "--timeout 0: give a duration",
			"--time-budget=0":   "--time-budget 0: give a duration",
		} {
			code, _, errOut := sk(t, cmd, flag, "x.xml")
			if code != exitUsage || !strings.Contains(errOut, want) || !strings.Contains(errOut, "Try: sitemapkit "+cmd+" --help") {
				t.Errorf("%s %s: exit %d\n%s", cmd, flag, code, errOut)
			}
		}
	}
}

// TestValidateScopeNoteEscaped: the note that a local file's scope was
// not checked names the file as findings do, its control characters
// escaped: a file name holding a newline added a forged finding line.
func TestValidateScopeNoteEscaped(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "evil\nforged.xml:1:1: error[fake]: injected\nz.xml", xmlURLSet(entry(vbase+"a")))
	_, out, _ := sk(t, "validate", dir)
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "forged") || strings.HasPrefix(line, "z.xml") {
			t.Errorf("a line of the file's name: %q\n%s", line, out)
		}
	}
	if !strings.Contains(out, `evil\nforged.xml`) {
		t.Errorf("the note does not show the name escaped:\n%s", out)
	}
}

// TestValidateQuietFailOnWarning: with -q and --fail-on warning, a set
// whose only findings are warnings fails the run, so -q must still list
// them; it listed errors alone, and the run exited 1 saying nothing.
func TestValidateQuietFailOnWarning(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "sitemap.xml", xmlURLSet(`<url><loc>`+vbase+`</loc><image:image><image:loc>`+vbase+`a.jpg</image:loc><image:caption>x</image:caption></image:image></url>`))
	for _, format := range []string{"text", "github", "sarif"} {
		finding := "deprecated-tag]"
		switch format {
		case "github":
			finding = "title=deprecated-tag::"
		case "sarif":
			finding = `"ruleId": "deprecated-tag"`
		}
		code, out, errOut := sk(t, "validate", "-q", "--fail-on", "warning", "--format", format, p)
		if code != exitInputErrors || !strings.Contains(out, finding) {
			t.Errorf("--format %s: exit %d, want 1 with the warning that fails the run listed\nstdout: %s\nstderr: %s", format, code, out, errOut)
		}
		// Without --fail-on warning, -q lists errors alone, and the run passes.
		code, out, errOut = sk(t, "validate", "-q", "--format", format, p)
		if code != exitOK || strings.Contains(out, finding) {
			t.Errorf("--format %s without --fail-on: exit %d, want 0 and no finding\nstdout: %s\nstderr: %s", format, code, out, errOut)
		}
	}
}
