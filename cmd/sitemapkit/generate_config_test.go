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
