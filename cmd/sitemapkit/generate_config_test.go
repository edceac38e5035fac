package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateFlagErrorsOverConfig checks that a bad flag given over a
// config file is reported as the flag: never as a mistake of the file, at
// one of its lines that holds another value (max_urls = 100 was blamed
// for --max-urls 60000).
func TestGenerateFlagErrorsOverConfig(t *testing.T) {
	dir := t.TempDir()
	genWrite(t, dir, "urls.txt", genNumbered(3, "page"))
	cfg := genWrite(t, dir, "sitemapkit.toml", `base = "`+genBase+`"
out = "public"
max_urls = 100

[filter]
include = ["/**"]

[[source]]
type = "files"
paths = ["urls.txt"]
`)
	genRun(t, "", "generate", "--config", cfg).want(t, exitOK)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-urls", "60000"}, "generate: --max-urls 60000 is out of range"},
		{[]string{"--include", "re:("}, `generate: --include pattern "re:("`},
		{[]string{"--base", "ftp://x"}, `generate: --base "ftp://x" is not an http or https URL`},
		{[]string{"--dir", dir, "--include-files", "/abs"}, "generate: --dir " + dir + `: --include-files "/abs" must be a glob`},
		{[]string{"--dir", filepath.Join(dir, "nope")}, filepath.Join(dir, "nope") + ": no such file"},
		{[]string{filepath.Join(dir, "nope.txt")}, filepath.Join(dir, "nope.txt") + ": no such file"},
	} {
		r := genRun(t, "", append([]string{"generate", "--config", cfg}, c.args...)...)
		r.want(t, exitUsage)
		if strings.Contains(r.stderr, cfg) || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q over the config: stderr\n%s\nwant %q, not the config file's name", c.args, r.stderr, c.want)
		}
	}
}

// TestGenerateEmptyGroup checks that a group whose sources give no URL
// (an empty file, a filter that leaves nothing) is said to be empty: it
// has no file in the set, and nothing else would tell.
func TestGenerateEmptyGroup(t *testing.T) {
	dir := t.TempDir()
	genWrite(t, dir, "urls.txt", genNumbered(3, "page"))
	genWrite(t, dir, "empty.txt", "")
	genWrite(t, dir, "posts.txt", genNumbered(2, "post"))
	cfg := genWrite(t, dir, "sitemapkit.toml", `base = "`+genBase+`"
out = "public"

[[source]]
type = "files"
paths = ["urls.txt"]

[[group]]
name = "products"
  [[group.source]]
  type = "files"
  paths = ["empty.txt"]
  [[group.source]]
  type = "files"
  paths = ["urls.txt"]
  exclude = ["/**"]

[[group]]
name = "blog"
  [[group.source]]
  type = "files"
  paths = ["posts.txt"]
`)
	r := genRun(t, "", "generate", "--config", cfg)
	r.want(t, exitOK)
	if want := `Group "products": no URL, so no file of its own.`; !strings.Contains(r.stdout, want) {
		t.Errorf("summary lacks %q:\n%s", want, r.stdout)
	}
	if strings.Contains(r.stdout, `"blog"`) {
		t.Errorf("the summary says a group with URLs is empty:\n%s", r.stdout)
	}
}
