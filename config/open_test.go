package config

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

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
	writeFile(t, filepath.Join(site, "urls.txt"), "https://www.example.com/a\n# comment\nhttps://www.example.com/b\n")
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
[[source]]
type = "files"
paths = ["urls.txt", "data/products.csv"]
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
		{"https://www.example.com/a", "https://www.example.com/b", "https://www.example.com/p/1"},
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
