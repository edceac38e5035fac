package main

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
)

// TestGenerateSiteExample runs the README's first command: the example
// static site's config, with its pages and a group of products.
func TestGenerateSiteExample(t *testing.T) {
	out := t.TempDir()
	r := genRun(t, "", "generate", "--config", "../../examples/site/sitemapkit.toml", "--out", out)
	r.want(t, exitOK)
	xsdtest.Check(t, out)

	files := genListSet(t, out)
	var groups []string
	for _, f := range files {
		groups = append(groups, strings.SplitN(f, "-", 2)[0])
	}
	if !slices.Equal(groups, []string{"products", "sitemap", "sitemap.xml"}) {
		t.Errorf("published %v, want an index over one sitemap-1 and one products-1 file", files)
	}
	got := genLocs(genPublished(t, out, "sitemap.xml"))
	want := []string{
		// The pages, in the folder's order: not the noindex draft, not the
		// printable page whose canonical is /about/, not 404.html.
		"https://www.example.com/about/",
		"https://www.example.com/blog/hello-world/",
		"https://www.example.com/blog/",
		"https://www.example.com/de/blog/hallo-welt/",
		"https://www.example.com/docs/manual.pdf",
		"https://www.example.com/",
	}
	if !slices.Equal(got[:min(len(got), len(want))], want) {
		t.Errorf("pages published:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(got) - len(want); n != 5 {
		t.Errorf("%d products published after the pages, want the CSV's 5", n)
	}
	if !strings.Contains(r.stdout, "Submit: https://www.example.com/sitemap.xml") {
		t.Errorf("summary:\n%s", r.stdout)
	}
	// Our own checker finds nothing wrong in it (hreflang pairs included).
	v := genRun(t, "", "validate", "--offline", "--base", genBase, filepath.Join(out, "sitemap.xml"))
	v.want(t, exitOK)
	if !strings.Contains(v.stdout, "0 errors, 0 warnings") {
		t.Errorf("validate:\n%s", v.stdout)
	}
}

// A folder holding sitemapkit.toml needs no argument at all; flags given
// override the file.
func TestGenerateReadsConfigInFolder(t *testing.T) {
	dir := t.TempDir()
	genWrite(t, dir, "urls.txt", genNumbered(3, "page"))
	genWrite(t, dir, "sitemapkit.toml", `base = "`+genBase+`"
out = "public"

[[source]]
type = "files"
paths = ["urls.txt"]
`)
	t.Chdir(dir)
	genRun(t, "", "generate").want(t, exitOK)
	if n := len(genPublished(t, filepath.Join(dir, "public"), "sitemap.xml")); n != 3 {
		t.Errorf("%d URLs published into the config's out, want 3", n)
	}
	other := t.TempDir()
	genRun(t, "", "generate", "--out", other, "--name", "pages").want(t, exitOK)
	if n := len(genPublished(t, other, "pages.xml")); n != 3 {
		t.Errorf("--out and --name over the config: %d URLs in pages.xml, want 3", n)
	}
}

func TestGenerateConfigErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := genWrite(t, dir, "sitemapkit.toml", `base = "`+genBase+`"
out = "public"

[[source]]
type = "files"
pahts = ["urls.txt"]
`)
	r := genRun(t, "", "generate", "--config", cfg)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, cfg+":6:1: ") || !strings.Contains(r.stderr, "paths") {
		t.Errorf("an unknown key is not named with its file and line:\n%s", r.stderr)
	}

	missing := genWrite(t, dir, "missing.toml", `base = "`+genBase+`"
out = "public"

[[source]]
type = "files"
paths = ["nowhere.txt"]
`)
	r = genRun(t, "", "generate", "--config", missing)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "nowhere.txt") || !strings.Contains(r.stderr, missing+":4") {
		t.Errorf("a missing input is not named with the config's line of its source:\n%s", r.stderr)
	}

	t.Chdir(t.TempDir())
	r = genRun(t, "", "generate")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "sitemapkit.toml") || !strings.Contains(r.stderr, "sitemapkit init") {
		t.Errorf("no input and no config file: the message does not say what to do:\n%s", r.stderr)
	}
}

// TestGenerateEverySource mixes every kind of source in one run from
// flags: a file, a static folder, a SQLite database, an access log and the
// sitemap of a live site, with filters over all of them.
func TestGenerateEverySource(t *testing.T) {
	site := sitetest.New(t)
	base := site.URL + "/"
	site.Page("/old/sitemap.xml", sitetest.URLSet("{{.}}/old/a", "{{.}}/old/b", "{{.}}/admin/old"))

	dir := t.TempDir()
	list := genWrite(t, dir, "urls.txt", base+"list/1?sid=abc\n"+base+"list/2\n")

	public := filepath.Join(dir, "public")
	for name, body := range map[string]string{
		"index.html":           `<html><head><title>Home</title></head><body></body></html>`,
		"blog/post/index.html": `<html><head><link rel="alternate" hreflang="de" href="/de/post/"></head><body></body></html>`,
		"hidden/index.html":    `<html><head><meta name="robots" content="noindex"></head></html>`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(public, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		genWrite(t, public, name, body)
	}

	dbPath := filepath.Join(dir, "shop.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE products (slug TEXT, updated TEXT, visible INT)`,
		`INSERT INTO products VALUES ('tea pot', '2024-05-01', 1), ('cup', '2024-05-02T10:00:00+02:00', 1), ('draft', NULL, 0)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	logLines := []string{
		`127.0.0.1 - - [10/Oct/2024:13:55:36 +0000] "GET /from-log HTTP/1.1" 200 2326 "-" "Mozilla/5.0"`,
		`127.0.0.1 - - [10/Oct/2024:13:55:37 +0000] "GET /from-log HTTP/1.1" 200 2326 "-" "Mozilla/5.0"`,
		`127.0.0.1 - - [10/Oct/2024:13:55:38 +0000] "GET /style.css HTTP/1.1" 200 100 "-" "Mozilla/5.0"`,
		`127.0.0.1 - - [10/Oct/2024:13:55:39 +0000] "POST /from-log HTTP/1.1" 200 10 "-" "Mozilla/5.0"`,
		`127.0.0.1 - - [10/Oct/2024:13:55:40 +0000] "GET /missing HTTP/1.1" 404 10 "-" "Mozilla/5.0"`,
		`this is not a log line`,
	}
	accessLog := genWrite(t, dir, "access.log.gz", genGzip(t, strings.Join(logLines, "\n")+"\n"))

	t.Setenv("SITEMAPKIT_TEST_SHOP", dbPath) // a DSN kept out of the command line
	out := filepath.Join(dir, "out")
	r := genRun(t, "", "generate", "--base", base, "--out", out, "--gzip", "--max-urls", "3",
		list,
		"--dir", public,
		"--sql-driver", "sqlite", "--sql-dsn-env", "SITEMAPKIT_TEST_SHOP",
		"--sql-query", "SELECT slug, updated AS lastmod FROM products WHERE visible = 1 ORDER BY slug DESC",
		"--sql-loc", base+"products/{slug}",
		"--log", accessLog,
		"--sitemap", base+"old/sitemap.xml",
		"--exclude", "/admin/**")
	r.want(t, exitOK)
	xsdtest.Check(t, out)

	urls := genPublished(t, out, "sitemap.xml")
	want := []string{
		base + "list/1", base + "list/2", // the session ID stripped
		base + "blog/post/", base, // the folder, in its order, without the noindex page
		base + "products/tea%20pot", base + "products/cup", // the rows, escaped
		base + "from-log",              // the log: the one page, once
		base + "old/a", base + "old/b", // the sitemap, without /admin/
	}
	if got := genLocs(urls); !slices.Equal(got, want) {
		t.Fatalf("published:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), r.stdout)
	}
	if u := urls[2]; len(u.Alternates) != 1 || u.Alternates[0].Href != base+"de/post/" {
		t.Errorf("the page's hreflang link became %+v", u.Alternates)
	}
	if urls[4].LastMod != "2024-05-01" || urls[5].LastMod != "2024-05-02T10:00:00+02:00" {
		t.Errorf("the rows' lastmod: %q, %q", urls[4].LastMod, urls[5].LastMod)
	}
	if urls[6].LastMod != "" {
		t.Errorf("the log's page has lastmod %q: a visit is not a change", urls[6].LastMod)
	}
	if urls[7].LastMod != "2024-05-01" {
		t.Errorf("the old sitemap's lastmod became %q", urls[7].LastMod)
	}
	for _, want := range []string{
		"6 lines read: 1 page (1 more hits of them); 3 skipped",
		"1 line not in Common or Combined Log Format, ignored:",
		accessLog + ":6:",
		"1 URL left out by the include/exclude filters",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
}

// A source that cannot be read to its end publishes nothing: the live set
// keeps the URLs it would have lost.
func TestGenerateBrokenSourcePublishesNothing(t *testing.T) {
	site := sitetest.New(t)
	base := site.URL + "/"
	site.Page("/sitemap.xml", sitetest.Index("{{.}}/a.xml", "{{.}}/gone.xml"))
	site.Page("/a.xml", sitetest.URLSet("{{.}}/a"))
	out := t.TempDir()
	list := genWrite(t, t.TempDir(), "urls.txt", base+"x\n")
	genRun(t, "", "generate", "--base", base, "--out", out, list).want(t, exitOK)
	before := genSnapshot(t, out)

	r := genRun(t, "", "generate", "--base", base, "--out", out, list, "--sitemap", base+"sitemap.xml")
	r.want(t, exitInputErrors)
	if !strings.Contains(r.stderr, "gone.xml") || !strings.Contains(r.stderr, "nothing was published") {
		t.Errorf("stderr does not name the child that failed:\n%s", r.stderr)
	}
	genSameSnapshot(t, before, genSnapshot(t, out))

	r = genRun(t, "", "generate", "--base", base, "--out", out,
		"--sql-driver", "sqlite", "--sql-dsn", filepath.Join(t.TempDir(), "none.db"), "--sql-query", "SELECT loc FROM pages")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "none.db") {
		t.Errorf("a missing database is not named:\n%s", r.stderr)
	}
	genSameSnapshot(t, before, genSnapshot(t, out))
}

func TestInitThenGenerate(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sitemapkit.toml")
	genRun(t, "", "init", "--base", genBase, "--config", cfg).want(t, exitOK)
	genWrite(t, dir, "urls.txt", genNumbered(2, "p"))
	out := t.TempDir()
	r := genRun(t, "", "generate", "--config", cfg, "--out", out)
	r.want(t, exitOK)
	if got := genLocs(genPublished(t, out, "sitemap.xml")); len(got) != 2 {
		t.Errorf("the starter config published %v, want urls.txt's 2 URLs", got)
	}
}

// TestGenerateBadQueryLeavesNoFolder: a source that fails once the run
// has begun (a query on a missing table, a damaged file) leaves no --out
// folder behind when there was none.
func TestGenerateBadQueryLeavesNoFolder(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "shop.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE products (slug TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out := filepath.Join(dir, "site", "public")
	r := genRun(t, "", "generate", "--base", genBase, "--out", out,
		"--sql-driver", "sqlite", "--sql-dsn", dbPath, "--sql-query", "SELECT loc FROM pages")
	if r.code == exitOK || !strings.Contains(r.stderr, "pages") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "site")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed run left %s (%v)", filepath.Join(dir, "site"), err)
	}
}
