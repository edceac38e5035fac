package source_test

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// writeSite writes files (slash paths relative to dir) into dir.
func writeSite(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// page is a minimal HTML page with head and body.
func page(head, body string) string {
	return "<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>t</title>" + head + "</head>\n<body>" + body + "</body></html>\n"
}

// readStatic opens o and returns every URL and every error, in order.
func readStatic(t *testing.T, o source.StaticOptions) ([]sitemap.URL, []error) {
	t.Helper()
	s, err := source.OpenStatic(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var urls []sitemap.URL
	var errs []error
	for u, err := range s.All() {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		urls = append(urls, u)
	}
	if err := s.Err(); err != nil {
		t.Fatalf("Err: %v", err)
	}
	return urls, errs
}

// site is a build folder with one of each case the static source handles.
var site = map[string]string{
	"index.html": page(`<link rel="alternate" hreflang="en" href="/">`+
		`<link rel="alternate" hreflang="de" href="https://www.example.com/de/">`+
		`<link rel="alternate" hreflang="de" href="/de/">`, // a duplicate
		`<img src="img/logo.png"><img src="https://cdn.example.net/a.jpg">`+
			`<img src="data:image/png;base64,iVBORw0KGgo="><img src="/img/logo.png"><img src="">`+
			`<img src="javascript:alert(1)">`),
	"de/index.html": page(`<link rel="alternate" hreflang="en" href="../">`+
		`<link rel="ALTERNATE" hreflang="de" href="./">`, ""),
	"about/index.html": page("", "<p>about</p>"),
	"about/team.html":  page("", `<img src="../img/team.jpg">`),
	"blog/index.html":  page(`<base href="/blog/posts/">`, `<img src="x.jpg">`),
	// Canonical to another page of the folder: that page lists itself.
	"blog/post-1.html":    page(`<link rel="canonical" href="post-one.html">`, ""),
	"blog/post-one.html":  page(`<link rel="canonical" href="https://www.example.com/blog/post-one.html">`, ""),
	"blog/old.html":       page(`<link rel="canonical" href="https://other.example.org/moved">`, `<img src="o.jpg">`),
	"blog/same.html":      page(`<link rel="canonical" href="/blog/same">`, `<img src="s.jpg">`),
	"multi.html":          page(`<link rel="canonical" href="/a"><link rel="canonical" href="/b">`, ""),
	"private.html":        page(`<meta name="ROBOTS" content="index, NOINDEX">`, ""),
	"gb.html":             page(`<meta name="googlebot" content=" None ">`, ""),
	"bodyrobots.html":     page("", `<meta name="robots" content="noindex">`),
	"404.html":            page("", "not found"),
	"404/index.html":      page("", "not found"),
	"fr/50x.html":         page("", "oops"),
	"a b.html":            page("", ""),
	"café/menü.html":      page("", ""),
	"page.HTM":            page("", ""),
	"docs/guide.pdf":      "%PDF-1.4",
	"docs/notes.txt":      "notes",
	"manual.pdf":          "%PDF-1.4",
	"drafts/wip.html":     page("", ""),
	"drafts/wip.pdf":      "%PDF-1.4",
	".hidden/secret.html": page("", ""),
	".DS_Store":           "x",
	"style.css":           "body{}",
	"img/logo.png":        "png",
}

func TestStaticSite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	writeSite(t, dir, site)
	// Symbolic links back up the tree must not loop the walk.
	if err := os.Symlink("..", filepath.Join(dir, "about", "up")); err != nil {
		t.Fatal(err)
	}
	urls, errs := readStatic(t, source.StaticOptions{
		Dir:     dir,
		Base:    "https://www.example.com",
		Include: []string{"**/*.pdf"},
		Exclude: []string{"drafts/**"},
		Lastmod: source.LastmodNone,
		Images:  true,
	})
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	const b = "https://www.example.com/"
	img := func(locs ...string) []sitemap.Image {
		var out []sitemap.Image
		for _, l := range locs {
			out = append(out, sitemap.Image{Loc: l})
		}
		return out
	}
	enDE := []sitemap.Alternate{{Hreflang: "en", Href: b}, {Hreflang: "de", Href: b + "de/"}}
	want := []sitemap.URL{
		{Loc: b + "a%20b.html"},
		{Loc: b + "about/"},
		{Loc: b + "about/team.html", Images: img(b + "img/team.jpg")},
		{Loc: b + "blog/", Images: img(b + "blog/posts/x.jpg")},
		{Loc: "https://other.example.org/moved"},
		{Loc: b + "blog/post-one.html"},
		{Loc: b + "blog/same", Images: img(b + "blog/s.jpg")},
		{Loc: b + "bodyrobots.html"},
		{Loc: b + "caf%C3%A9/men%C3%BC.html"},
		{Loc: b + "de/", Alternates: enDE},
		{Loc: b + "docs/guide.pdf"},
		{Loc: b, Alternates: enDE, Images: img(b+"img/logo.png", "https://cdn.example.net/a.jpg")},
		{Loc: b + "manual.pdf"},
		{Loc: b + "multi.html"},
		{Loc: b + "page.HTM"},
	}
	if !reflect.DeepEqual(urls, want) {
		t.Errorf("got %d URLs:\n%s\nwant %d:\n%s", len(urls), dump(urls), len(want), dump(want))
	}

	// Without Images, the same pages, without images: reading the body
	// never changes which pages are listed.
	plain, _ := readStatic(t, source.StaticOptions{Dir: dir, Base: b, Include: []string{"**/*.pdf"},
		Exclude: []string{"drafts"}, Lastmod: source.LastmodNone})
	for i := range want {
		want[i].Images = nil
	}
	if !reflect.DeepEqual(plain, want) {
		t.Errorf("without images, got:\n%s\nwant:\n%s", dump(plain), dump(want))
	}
}

// TestStaticBuild builds the test site's sitemap with the real builder:
// every URL the source gives is accepted but the canonical on another
// host, which the builder refuses with its scope rule, and the file
// passes the schemas.
func TestStaticBuild(t *testing.T) {
	dir := t.TempDir()
	writeSite(t, dir, site)
	s, err := source.OpenStatic(context.Background(), source.StaticOptions{Dir: dir, Base: "https://www.example.com/",
		Include: []string{"**/*.pdf"}, Exclude: []string{"drafts"}, Images: true, Lastmod: source.LastmodNone})
	if err != nil {
		t.Fatal(err)
	}
	res, refused := buildAll(t, s, publish.Options{Base: "https://www.example.com/"})
	if res.URLs != 14 || len(refused) != 1 || !strings.Contains(refused[0], "old.html") || !strings.Contains(refused[0], "other.example.org") {
		t.Errorf("%d URLs (want 14), refused %q (want old.html's canonical)", res.URLs, refused)
	}
}

func TestStaticStripHTML(t *testing.T) {
	dir := t.TempDir()
	writeSite(t, dir, map[string]string{
		"index.htm":         page("", ""),
		"about.html":        page("", ""),
		"docs/intro.htm":    page("", ""),
		"docs/index.html":   page("", ""),
		"self.html":         page(`<link rel="canonical" href="/site/self">`, ""),
		"spelt.html":        page(`<link rel="canonical" href="/site/spelt.html">`, ""),
		"404.html":          page("", ""),
		"report/data.pdf":   "%PDF",
		"report/index.html": page("", ""),
	})
	urls, errs := readStatic(t, source.StaticOptions{Dir: dir, Base: "https://www.example.com/site/", StripHTML: true,
		Include: []string{"404.html", "report/*"}, Exclude: []string{"report/index.html"}, Lastmod: source.LastmodNone})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	const b = "https://www.example.com/site/"
	want := []string{b + "404", b + "about", b + "docs/", b + "docs/intro", b, b + "report/data.pdf", b + "self", b + "spelt.html"}
	if got := locs(urls); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestStaticErrors(t *testing.T) {
	dir := t.TempDir()
	writeSite(t, dir, map[string]string{"a.html": page("", ""), "c.html": page("", "")})
	if err := os.Symlink("missing.html", filepath.Join(dir, "b.html")); err != nil {
		t.Fatal(err)
	}
	s, err := source.OpenStatic(context.Background(), source.StaticOptions{Dir: dir, Base: "http://x.test/", Lastmod: source.LastmodNone})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Name(); got != dir {
		t.Errorf("Name %q, want %q", got, dir)
	}
	u, err := s.Read()
	if err != nil || u.Loc != "http://x.test/a.html" || s.Place() != filepath.Join(dir, "a.html") {
		t.Fatalf("first: %v %v at %s", u, err, s.Place())
	}
	_, err = s.Read()
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.File != filepath.Join(dir, "b.html") || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("broken link: %v, want a *ParseError for b.html", err)
	}
	if source.Place(s) != pe.File {
		t.Errorf("Place %q, want %q", source.Place(s), pe.File)
	}
	if u, err = s.Read(); err != nil || u.Loc != "http://x.test/c.html" {
		t.Fatalf("after the error: %v %v", u, err)
	}
	if _, err = s.Read(); err != io.EOF || s.Err() != nil {
		t.Fatalf("end: %v, Err %v", err, s.Err())
	}

	for _, tc := range []struct {
		name string
		o    source.StaticOptions
		want string
	}{
		{"no dir", source.StaticOptions{Base: "https://a.test/"}, "no folder"},
		{"missing dir", source.StaticOptions{Dir: filepath.Join(dir, "nope"), Base: "https://a.test/"}, "no such file"},
		{"file", source.StaticOptions{Dir: filepath.Join(dir, "a.html"), Base: "https://a.test/"}, "not a folder"},
		{"no base", source.StaticOptions{Dir: dir}, "no base URL"},
		{"relative base", source.StaticOptions{Dir: dir, Base: "/docs/"}, "no scheme"},
		{"ftp base", source.StaticOptions{Dir: dir, Base: "ftp://a.test/"}, "not http or https"},
		{"query base", source.StaticOptions{Dir: dir, Base: "https://a.test/?x=1"}, "no query"},
		{"bad glob", source.StaticOptions{Dir: dir, Base: "https://a.test/", Include: []string{"[a"}}, "include glob"},
		{"absolute glob", source.StaticOptions{Dir: dir, Base: "https://a.test/", Exclude: []string{"/x"}}, "relative"},
		{"bad mode", source.StaticOptions{Dir: dir, Base: "https://a.test/", Lastmod: 9}, "unknown lastmod"},
	} {
		_, err := source.OpenStatic(context.Background(), tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestStaticCancel(t *testing.T) {
	dir := t.TempDir()
	writeSite(t, dir, map[string]string{"a.html": page("", ""), "b.html": page("", "")})
	ctx, cancel := context.WithCancel(context.Background())
	s, err := source.OpenStatic(ctx, source.StaticOptions{Dir: dir, Base: "https://a.test/", Lastmod: source.LastmodNone})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(); err != nil {
		t.Fatal(err)
	}
	cancel()
	for range 2 {
		if _, err := s.Read(); err != context.Canceled {
			t.Fatalf("Read after cancel: %v", err)
		}
	}
	if s.Err() != context.Canceled {
		t.Fatalf("Err: %v", s.Err())
	}
}

func TestStaticMtime(t *testing.T) {
	// The machine's zone must not show: a run on a machine in another zone
	// (a CI runner in UTC, a laptop in Berlin) wrote every lastmod anew, the
	// same instants spelled with another offset, so every file of the set
	// was rewritten and a state took every page for changed.
	local := time.Local
	time.Local = time.FixedZone("test", 5*3600+30*60)
	t.Cleanup(func() { time.Local = local })
	dir := t.TempDir()
	writeSite(t, dir, map[string]string{"a.html": page("", ""), "b/index.html": page("", ""), "f.pdf": "%PDF"})
	times := map[string]time.Time{
		"a.html":       time.Date(2023, 3, 4, 5, 6, 7, 0, time.UTC),
		"b/index.html": time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC),
		"f.pdf":        time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	for name, tm := range times {
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(name)), tm, tm); err != nil {
			t.Fatal(err)
		}
	}
	urls, errs := readStatic(t, source.StaticOptions{Dir: dir, Base: "https://a.test/", Lastmod: source.LastmodMtime, Include: []string{"*.pdf"}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []sitemap.URL{
		{Loc: "https://a.test/a.html", LastMod: "2023-03-04T05:06:07+00:00"},
		{Loc: "https://a.test/b/", LastMod: "2024-12-31T23:59:59+00:00"},
		{Loc: "https://a.test/f.pdf", LastMod: "2022-01-01T00:00:00+00:00"},
	}
	if !reflect.DeepEqual(urls, want) {
		t.Errorf("got:\n%s\nwant:\n%s", dump(urls), dump(want))
	}
	for _, u := range urls {
		if _, err := sitemap.ParseDate(u.LastMod); err != nil {
			t.Errorf("%s: lastmod %q: %v", u.Loc, u.LastMod, err)
		}
	}
}

// needGit skips the test when git is missing, except in CI.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("git is required in CI: %v", err)
		}
		t.Skipf("git is not installed: %v", err)
	}
}

// runGit runs git in dir with a fixed identity and dates, and no user or
// system configuration.
func runGit(t *testing.T, dir, date string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func TestStaticGit(t *testing.T) {
	needGit(t)
	repo := t.TempDir()
	pub := filepath.Join(repo, "public")
	const (
		d1 = "2024-01-02T03:04:05+02:00"
		d2 = "2024-02-03T04:05:06-05:00"
		d3 = "2024-03-04T05:06:07+00:00"
		d4 = "2024-04-05T06:07:08+05:30"
	)
	runGit(t, repo, d1, "init", "-q")
	writeSite(t, pub, map[string]string{"a.html": page("", ""), "b.html": page("", ""), "gone.html": page("", ""),
		"café/ü.html": page("", ""), "doc.pdf": "%PDF 1"})
	runGit(t, repo, d1, "add", ".")
	runGit(t, repo, d1, "commit", "-q", "-m", "one")
	writeSite(t, pub, map[string]string{"b.html": page("<title>b2</title>", ""), "doc.pdf": "%PDF 2"})
	runGit(t, repo, d2, "rm", "-q", "public/gone.html")
	runGit(t, repo, d2, "commit", "-q", "-a", "-m", "two")
	writeSite(t, repo, map[string]string{"src/b.md": "b", "public/b.html": page("<title>b3</title>", "")})
	runGit(t, repo, d3, "add", "src")
	runGit(t, repo, d3, "commit", "-q", "-m", "three: outside the folder; b.html changed but not committed")
	writeSite(t, pub, map[string]string{"c.html": page("", "untracked")})

	// A file's commit date, in the commit's zone, whatever the order of
	// commits and what happens outside the folder.
	const b = "https://www.example.com/"
	want := []sitemap.URL{
		{Loc: b + "a.html", LastMod: d1},
		{Loc: b + "b.html", LastMod: d2},
		{Loc: b + "c.html"}, // untracked: no date rather than an invented one
		{Loc: b + "caf%C3%A9/%C3%BC.html", LastMod: d1},
		{Loc: b + "doc.pdf", LastMod: d2},
	}
	for _, mode := range []source.Lastmod{source.LastmodGit, source.LastmodAuto} {
		urls, errs := readStatic(t, source.StaticOptions{Dir: pub, Base: b, Lastmod: mode, Include: []string{"*.pdf"}})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if !reflect.DeepEqual(urls, want) {
			t.Errorf("%v: got:\n%s\nwant:\n%s", mode, dump(urls), dump(want))
		}
	}
	// The same as git's own answer, file by file.
	for _, u := range want[:2] {
		name := strings.TrimPrefix(u.Loc, b)
		out, err := exec.Command("git", "-C", pub, "log", "-1", "--format=%cI", "--", name).Output()
		if err != nil || strings.TrimSpace(string(out)) != u.LastMod {
			t.Errorf("git log -1 %s: %q (%v), we say %q", name, out, err, u.LastMod)
		}
	}

	// A shallow clone's oldest commit shows every file as added: those
	// files get no date, the ones changed since keep theirs.
	clone := filepath.Join(t.TempDir(), "clone")
	runGit(t, repo, d4, "clone", "-q", "--depth", "3", "file://"+repo, clone)
	urls, errs := readStatic(t, source.StaticOptions{Dir: filepath.Join(clone, "public"), Base: b, Lastmod: source.LastmodGit})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want = []sitemap.URL{{Loc: b + "a.html"}, {Loc: b + "b.html", LastMod: d2}, {Loc: b + "caf%C3%A9/%C3%BC.html"}}
	if !reflect.DeepEqual(urls, want) {
		t.Errorf("shallow: got:\n%s\nwant:\n%s", dump(urls), dump(want))
	}
}

func TestStaticNotGit(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	if exec.Command("git", "-C", dir, "rev-parse").Run() == nil {
		t.Skip("the temporary folder is inside a git work tree")
	}
	writeSite(t, dir, map[string]string{"a.html": page("", "")})
	_, err := source.OpenStatic(context.Background(), source.StaticOptions{Dir: dir, Base: "https://a.test/", Lastmod: source.LastmodGit})
	if err == nil || !strings.Contains(err.Error(), "not in a git work tree") {
		t.Errorf("LastmodGit outside git: %v", err)
	}
	urls, errs := readStatic(t, source.StaticOptions{Dir: dir, Base: "https://a.test/"})
	if len(errs) > 0 || len(urls) != 1 || urls[0].LastMod != "" {
		t.Errorf("LastmodAuto outside git: %v %v, want one URL without lastmod", urls, errs)
	}
}

func TestParseLastmod(t *testing.T) {
	for _, m := range []source.Lastmod{source.LastmodAuto, source.LastmodGit, source.LastmodMtime, source.LastmodNone} {
		got, err := source.ParseLastmod(strings.ToUpper(m.String()))
		if err != nil || got != m {
			t.Errorf("ParseLastmod(%q) = %v, %v", m.String(), got, err)
		}
	}
	if m, err := source.ParseLastmod(""); err != nil || m != source.LastmodAuto {
		t.Errorf(`ParseLastmod("") = %v, %v`, m, err)
	}
	if _, err := source.ParseLastmod("ctime"); err == nil {
		t.Error("ParseLastmod(ctime): no error")
	}
}

func dump(urls []sitemap.URL) string {
	var b strings.Builder
	for _, u := range urls {
		b.WriteString("  " + u.Loc)
		if u.LastMod != "" {
			b.WriteString(" lastmod=" + u.LastMod)
		}
		for _, a := range u.Alternates {
			b.WriteString(" alt=" + a.Hreflang + ":" + a.Href)
		}
		for _, i := range u.Images {
			b.WriteString(" img=" + i.Loc)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestStaticURLEscaping lists files with odd names under the URLs a
// browser asks for: only what a path segment cannot hold is escaped, so
// that the sitemap names the URL the site links to ("a(1).html", not
// "a%281%29.html"), and each URL is already in loc.Normalize's form.
func TestStaticURLEscaping(t *testing.T) {
	dir := t.TempDir()
	names := map[string]string{
		"a(1).html":              "a(1).html",
		"x,y;z=1@2!$&'*+~:.htm":  "x,y;z=1@2!$&'*+~:.htm",
		"100%.html":              "100%25.html",
		"what?.html":             "what%3F.html",
		"c#.html":                "c%23.html",
		"two words.html":         "two%20words.html",
		`q"<>\^{|}[]` + "`.html": "q%22%3C%3E%5C%5E%7B%7C%7D%5B%5D%60.html",
		"Über.html":              "%C3%9Cber.html",
		"\xff\xfe.html":          "%FF%FE.html", // not UTF-8: escaped as the bytes it has
		"index.html.bak":         "",            // neither a page nor included
		"dir (copy)/index.html":  "dir%20(copy)/",
	}
	files := map[string]string{}
	var want []string
	for name, u := range names {
		files[name] = page("", "")
		if u != "" {
			want = append(want, "https://www.example.com/"+u)
		}
	}
	writeSite(t, dir, files)
	urls, errs := readStatic(t, source.StaticOptions{Dir: dir, Base: "https://www.example.com/", Lastmod: source.LastmodNone})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := locs(urls)
	slices.Sort(got)
	slices.Sort(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	for _, u := range got {
		if n, err := loc.Normalize(u); n != u || err != nil {
			t.Errorf("%s: loc.Normalize gives %q (%v)", u, n, err)
		}
	}
}

// TestStaticCanonicalSelf: a page whose canonical is itself spelt with a
// fragment or a final "/" is listed with its own fields (alternates,
// images, lastmod), under the canonical without its fragment, which
// Google ignores.
func TestStaticCanonicalSelf(t *testing.T) {
	dir := t.TempDir()
	alt := `<link rel="alternate" hreflang="de" href="/de/">`
	writeSite(t, dir, map[string]string{
		"frag.html":      page(`<link rel="canonical" href="frag.html#main">`+alt, `<img src="f.png">`),
		"slash.html":     page(`<link rel="canonical" href="/slash/">`+alt, `<img src="s.png">`),
		"both.html":      page(`<link rel="canonical" href="/both/#x"><link rel="canonical" href="both/">`+alt, ""),
		"other.html":     page(`<link rel="canonical" href="/elsewhere#top">`+alt, ""),
		"dir/index.html": page(`<link rel="canonical" href="/dir/#top">`+alt, ""),
		"dir.html":       page(`<link rel="canonical" href="/dir/">`, ""), // dir/index.html is /dir/
		"query.html":     page(`<link rel="canonical" href="/query.html?x=1">`+alt, ""),
		"index.html":     page(`<link rel="canonical" href="https://www.example.com/#">`+alt, ""),
		"frag-away.html": page(`<link rel="canonical" href="query.html#a">`, ""),
	})
	urls, errs := readStatic(t, source.StaticOptions{Dir: dir, Base: "https://www.example.com/", Lastmod: source.LastmodNone, Images: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	const b = "https://www.example.com/"
	de := []sitemap.Alternate{{Hreflang: "de", Href: b + "de/"}}
	want := []sitemap.URL{
		{Loc: b + "both/", Alternates: de},
		{Loc: b + "dir/", Alternates: de},
		{Loc: b + "frag.html", Alternates: de, Images: []sitemap.Image{{Loc: b + "f.png"}}},
		{Loc: b, Alternates: de},
		{Loc: b + "elsewhere"},
		{Loc: b + "query.html?x=1"},
		{Loc: b + "slash/", Alternates: de, Images: []sitemap.Image{{Loc: b + "s.png"}}},
	}
	if !reflect.DeepEqual(urls, want) {
		t.Errorf("got:\n%s\nwant:\n%s", dump(urls), dump(want))
	}
}

// TestStaticHreflangInvalid: an alternate whose hreflang the protocol
// refuses is dropped, not the page: the builder refuses a whole URL for
// one bad alternate.
func TestStaticHreflangInvalid(t *testing.T) {
	dir := t.TempDir()
	writeSite(t, dir, map[string]string{
		"a.html": page(`<link rel="alternate" hreflang="en_US" href="/en/">`+
			`<link rel="alternate" hreflang="english" href="/en/">`+
			`<link rel="alternate" hreflang="GB" href="/gb/">`+
			`<link rel="alternate" hreflang="en-UK" href="/uk/">`+
			`<link rel="alternate" hreflang="de-DE" href="/de/">`+
			`<link rel="alternate" hreflang="X-Default" href="/">`, ""),
	})
	s, err := source.OpenStatic(context.Background(), source.StaticOptions{Dir: dir, Base: "https://www.example.com/", Lastmod: source.LastmodNone})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	bld, err := publish.New(publish.Options{Dir: out, Base: "https://www.example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	var got []sitemap.URL
	err = bld.AddAll(context.Background(), func(yield func(sitemap.URL, error) bool) {
		for u, err := range s.All() {
			if err == nil {
				got = append(got, u)
			}
			if !yield(u, err) {
				return
			}
		}
	}, func(err error) error {
		t.Errorf("%s: %v", source.Place(s), err)
		return nil
	})
	if err != nil {
		bld.Abort()
		t.Fatal(err)
	}
	if _, err := bld.Publish(context.Background()); err != nil {
		t.Fatal(err)
	}
	xsdtest.Check(t, out)
	want := []sitemap.URL{{Loc: "https://www.example.com/a.html", Alternates: []sitemap.Alternate{
		{Hreflang: "de-DE", Href: "https://www.example.com/de/"}, {Hreflang: "X-Default", Href: "https://www.example.com/"}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", dump(got), dump(want))
	}
}

// TestStaticGitUnborn: a repository without commits yet (files added,
// none committed) is a work tree with nothing to date: no lastmod, and no
// failure, in either git mode.
func TestStaticGitUnborn(t *testing.T) {
	needGit(t)
	repo := t.TempDir()
	runGit(t, repo, "2024-01-02T03:04:05Z", "init", "-q")
	writeSite(t, repo, map[string]string{"a.html": page("", "")})
	runGit(t, repo, "2024-01-02T03:04:05Z", "add", ".")
	for _, mode := range []source.Lastmod{source.LastmodGit, source.LastmodAuto} {
		urls, errs := readStatic(t, source.StaticOptions{Dir: repo, Base: "https://a.test/", Lastmod: mode})
		want := []sitemap.URL{{Loc: "https://a.test/a.html"}}
		if len(errs) > 0 || !reflect.DeepEqual(urls, want) {
			t.Errorf("%v: %v %v, want %v", mode, dump(urls), errs, want)
		}
	}
}

// TestStaticGitConfig: settings in the repository's (or the user's)
// configuration that change what git log prints do not change the dates.
// diff.relative makes log's paths relative to the folder.
func TestStaticGitConfig(t *testing.T) {
	needGit(t)
	repo := t.TempDir()
	const d = "2024-05-06T07:08:09+02:00"
	runGit(t, repo, d, "init", "-q")
	writeSite(t, repo, map[string]string{"site dir/a b.html": page("", ""), "top.html": page("", "")})
	runGit(t, repo, d, "add", ".")
	runGit(t, repo, d, "commit", "-q", "-m", "one")
	runGit(t, repo, d, "config", "diff.relative", "true")
	urls, errs := readStatic(t, source.StaticOptions{Dir: filepath.Join(repo, "site dir"), Base: "https://a.test/", Lastmod: source.LastmodGit})
	want := []sitemap.URL{{Loc: "https://a.test/a%20b.html", LastMod: d}}
	if len(errs) > 0 || !reflect.DeepEqual(urls, want) {
		t.Errorf("got %v %v, want %v", dump(urls), errs, dump(want))
	}
}
