package config

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // sql.Open("sqlite"), to write the test databases

	"github.com/sitemapkit/sitemapkit/source"
	"github.com/sitemapkit/sitemapkit/source/sqlite"
)

// sqlDrivers are the drivers a command gives Config.SQLDrivers.
var sqlDrivers = []source.SQLDriver{sqlite.Driver{}}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readInputs opens every input of every source of c in turn, as generate
// does, and returns the URLs they give, per source.
func readInputs(t *testing.T, c *Config, sources []Source) [][]string {
	t.Helper()
	var got [][]string
	for i := range sources {
		ins, err := sources[i].Inputs(c)
		if err != nil {
			t.Fatal(err)
		}
		var locs []string
		for _, in := range ins {
			src, closeIn, err := in.Open(context.Background())
			if err != nil {
				t.Fatalf("%s: %v", in.Name, err)
			}
			for u, err := range src.All() {
				if err != nil {
					t.Fatalf("%s: %v", in.Name, err)
				}
				locs = append(locs, u.Loc)
			}
			if err := closeIn(); err != nil {
				t.Fatal(err)
			}
		}
		got = append(got, locs)
	}
	return got
}

// TestInputs reads a config's sources from real files next to it, loaded
// from another folder than the current one.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	writeFile(t, filepath.Join(site, "urls.txt"), "https://www.example.com/a\n# comment\nhttps://www.example.com/b\nhttps://www.example.com/c?ref=x&sid=1&q=2\n")
	writeFile(t, filepath.Join(site, "old", "sitemap.xml"), `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://www.example.com/old/1</loc><lastmod>2024-01-02</lastmod><image:image><image:loc>https://www.example.com/1.jpg</image:loc></image:image></url>
<url><loc>https://www.example.com/old/2;jsessionid=AB12</loc></url>
<url><loc>https://www.example.com/tmp/3</loc></url>
</urlset>
`)
	writeFile(t, filepath.Join(site, "data", "products.csv"), "loc,lastmod\nhttps://www.example.com/p/1,2024-05-01\n")
	writeFile(t, filepath.Join(site, "public", "index.html"), "<!doctype html><title>Home</title>")
	writeFile(t, filepath.Join(site, "public", "about", "index.html"), "<!doctype html><title>About</title>")
	writeFile(t, filepath.Join(site, "public", "drafts", "x.html"), "<!doctype html><title>Draft</title>")
	writeFile(t, filepath.Join(site, "public", "guide.pdf"), "%PDF-1.4")
	writeFile(t, filepath.Join(site, "logs", "access.log"),
		`203.0.113.9 - - [10/Oct/2024:13:55:36 +0000] "GET /shop?page=2&sid=9 HTTP/1.1" 200 2326 "-" "Mozilla/5.0"
203.0.113.9 - - [10/Oct/2024:13:55:37 +0000] "GET /missing HTTP/1.1" 404 12 "-" "Mozilla/5.0"
203.0.113.9 - - [10/Oct/2024:13:55:38 +0000] "POST /form HTTP/1.1" 200 12 "-" "Mozilla/5.0"
`)
	writeFile(t, filepath.Join(site, FileName), `base = "https://www.example.com/"
out = "public"
[filter]
exclude = ["/b", "/tmp/**"]
[[source]]
type = "files"
paths = ["urls.txt", "data/products.csv"]
strip_params = ["ref"]
[[source]]
type = "sitemap"
paths = ["old/sitemap.xml"]
[[source]]
type = "dir"
path = "public"
include_files = ["**/*.pdf"]
exclude_files = ["drafts/**"]
lastmod = "none"
[[group]]
name = "visits"
  [[group.source]]
  type = "log"
  paths = ["logs/access.log"]
  keep_params = ["page"]
`)
	c, err := Load(filepath.Join(site, FileName))
	if err != nil {
		t.Fatal(err)
	}
	got := readInputs(t, c, append(append([]Source(nil), c.Sources...), c.Groups[0].Sources...))
	want := [][]string{
		// [filter] drops /b and the session ID, the source's own strip_params ref.
		{"https://www.example.com/a", "https://www.example.com/c?q=2", "https://www.example.com/p/1"},
		{"https://www.example.com/old/1", "https://www.example.com/old/2"},
		{"https://www.example.com/about/", "https://www.example.com/guide.pdf", "https://www.example.com/"}, // walk order
		{"https://www.example.com/shop?page=2"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("URLs:\n%q\nwant\n%q", got, want)
	}
}

// TestInputErrors checks that an input that cannot be opened is named,
// with the line of its source in the config file.
func TestInputErrors(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, FileName)
	writeFile(t, p, head+"[[source]]\ntype = \"files\"\npaths = [\"urls.txt\"]\n"+
		"[[source]]\ntype = \"dir\"\npath = \"public\"\nlastmod = \"git\"\n")
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	ins, err := c.Sources[0].Inputs(c)
	if err != nil {
		t.Fatal(err)
	}
	_, closeIn, err := ins[0].Open(context.Background())
	if want := p + ":3:1: open " + filepath.Join(dir, "urls.txt") + ": no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v does not wrap fs.ErrNotExist", err)
	}
	if err := closeIn(); err != nil {
		t.Errorf("close after a failed open: %v", err)
	}

	// A folder outside any git work tree cannot give git dates.
	if err := os.Mkdir(filepath.Join(dir, "public"), 0o755); err != nil {
		t.Fatal(err)
	}
	ins, err = c.Sources[1].Inputs(c)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = ins[0].Open(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), p+":6:1: ") {
		t.Errorf("error %v, want it placed at the source's header, %s:6:1", err, p)
	}
}

// TestSQLInputs queries a real SQLite file, named in the file and through
// dsn_env.
func TestSQLInputs(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(dir, "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE products (slug TEXT, updated_at TEXT)",
		"INSERT INTO products VALUES ('red shoe', '2024-05-01'), ('hat', '2024-06-02')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	writeFile(t, p, head+`[[group]]
name = "products"
  [[group.source]]
  type = "sql"
  driver = "sqlite"
  dsn = "shop.db"
  query = "SELECT slug, updated_at AS lastmod FROM products ORDER BY slug"
  loc = "https://www.example.com/products/{slug}"
  [[group.source]]
  type = "sql"
  driver = "sqlite"
  dsn_env = "SITEMAPKIT_TEST_DSN"
  query = "SELECT 'https://www.example.com/p/' || slug AS loc FROM products WHERE slug = 'hat'"
`)
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	c.SQLDrivers = sqlDrivers
	t.Setenv("SITEMAPKIT_TEST_DSN", filepath.Join(dir, "shop.db"))
	got := readInputs(t, c, c.Groups[0].Sources)
	want := [][]string{
		{"https://www.example.com/products/hat", "https://www.example.com/products/red%20shoe"},
		{"https://www.example.com/p/hat"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("URLs:\n%q\nwant\n%q", got, want)
	}

	t.Setenv("SITEMAPKIT_TEST_DSN", "")
	ins, err := c.Groups[0].Sources[1].Inputs(c)
	if err != nil {
		t.Fatal(err)
	}
	_, closeIn, err := ins[0].Open(context.Background())
	if want := p + ":11:3: the environment variable $SITEMAPKIT_TEST_DSN, which should hold the database's DSN, is not set"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	closeIn()

	// A program that gives config no SQLite driver cannot read one.
	c.SQLDrivers = nil
	if ins, err = c.Groups[0].Sources[1].Inputs(c); err != nil {
		t.Fatal(err)
	}
	noDriver := p + `:11:3: driver "sqlite": this program reads no such database (Config.SQLDrivers lacks it)`
	if err := ins[0].Check(); err == nil || err.Error() != noDriver {
		t.Errorf("Check: %v, want %s", err, noDriver)
	}
	_, closeIn, err = ins[0].Open(context.Background())
	if err == nil || err.Error() != noDriver {
		t.Errorf("Open: %v, want %s", err, noDriver)
	}
	closeIn()
}

// TestCheck finds what would stop an input before anything is read, placed
// at its source's line.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "urls.txt"), "https://www.example.com/a\n")
	writeFile(t, filepath.Join(dir, "public", "index.html"), "<title>x</title>")
	if err := os.Mkdir(filepath.Join(dir, "folder.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	writeFile(t, p, head+`[[source]]
type = "files"
paths = ["urls.txt", "missing.txt", "folder.txt", "-"]
[[source]]
type = "dir"
path = "urls.txt"
[[source]]
type = "dir"
path = "public"
[[source]]
type = "sql"
driver = "sqlite"
dsn_env = "SITEMAPKIT_TEST_DSN"
query = "SELECT loc FROM t"
[[source]]
type = "sql"
driver = "sqlite"
dsn = "file:gone.db?mode=ro"
query = "SELECT loc FROM t"
[[source]]
type = "sitemap"
paths = ["https://www.example.com/sitemap.xml", "old/sitemap.xml"]
[[source]]
type = "log"
paths = ["-"]
`)
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	c.SQLDrivers = sqlDrivers
	t.Setenv("SITEMAPKIT_TEST_DSN", "")
	var got []string
	for i := range c.Sources {
		ins, err := c.Sources[i].Inputs(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range ins {
			if err := in.Check(); err != nil {
				got = append(got, strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
			} else {
				got = append(got, "ok "+strings.ReplaceAll(in.Name, dir+string(filepath.Separator), ""))
			}
		}
	}
	want := []string{
		"ok urls.txt",
		"sitemapkit.toml:3:1: missing.txt: no such file or folder",
		"sitemapkit.toml:3:1: folder.txt is a folder, not an input file",
		`sitemapkit.toml:3:1: "-" (the standard input): nothing to read (Config.Stdin is nil)`,
		"sitemapkit.toml:6:1: urls.txt is a file, not a folder",
		"ok public",
		"sitemapkit.toml:12:1: the environment variable $SITEMAPKIT_TEST_DSN, which should hold the database's DSN, is not set",
		"sitemapkit.toml:17:1: gone.db: no such file or folder",
		"sitemapkit.toml:22:1: stat old/sitemap.xml: no such file or directory",
		`sitemapkit.toml:25:1: "-" (the standard input): nothing to read (Config.Stdin is nil)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Check:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// With Stdin set, "-" reads it, its format guessed from the content.
	c.Stdin = strings.NewReader("https://www.example.com/from-stdin\n")
	c.Sources = c.Sources[:1]
	c.Sources[0].Paths = []string{"-"}
	if got, want := readInputs(t, c, c.Sources), [][]string{{"https://www.example.com/from-stdin"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("stdin: %q, want %q", got, want)
	}
}

// TestSQLiteURIRelative reads a SQLite "file:" URI relative to a config
// file in a folder whose name URIs escape: a space, "#", "?" and "%".
// The URI's own escapes ("%20") name the file, for Check as for Open.
func TestSQLiteURIRelative(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my #site? %41")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: filepath.Join(dir, "my shop.db")}).EscapedPath())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE t (loc TEXT); INSERT INTO t VALUES ('https://www.example.com/a')"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	writeFile(t, p, head+`[[source]]
type = "sql"
driver = "sqlite"
dsn = "file:my%20shop.db?cache=private"
query = "SELECT loc FROM t"
`)
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	c.SQLDrivers = sqlDrivers
	ins, err := c.Sources[0].Inputs(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := ins[0].Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	if got, want := readInputs(t, c, c.Sources), [][]string{{"https://www.example.com/a"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}
