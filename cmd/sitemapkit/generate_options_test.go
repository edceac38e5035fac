package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateOptionMessages pins what a user sees for a bad option, from
// a flag and from the config file: the flag's name for a flag, the key at
// its file:line:col for the file. The options are defined once (package
// publish); these words must not change with where they are checked.
func TestGenerateOptionMessages(t *testing.T) {
	dir := t.TempDir()
	urls := genWrite(t, dir, "urls.txt", genNumbered(3, "page"))
	out := filepath.Join(dir, "public")
	flags := []string{"generate", "--base", genBase, "--out", out}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-urls", "60000"}, "generate: --max-urls 60000 is out of range: 1 to 50000 (0 or absent: 50000)"},
		{[]string{"--max-urls", "-1"}, "generate: --max-urls -1 is out of range: 1 to 50000 (0 or absent: 50000)"},
		{[]string{"--max-bytes", "52428801"}, "generate: --max-bytes 52428801 is out of range: 1 to 52428800 (0 or absent: 52428800)"},
		{[]string{"--name", "a b"}, `generate: --name "a b": use letters, digits, _ and - only`},
		{[]string{"--public-url", "ftp://x/"}, `generate: --public-url "ftp://x/" is not an http or https URL, e.g. "https://www.example.com/"`},
		{[]string{"--base", "https://www.example.com:99999/"}, "generate: --base: loc: "},
		{[]string{"--max-urls", "0", "--max-bytes", "-5", "--name", "x.y"}, `generate: --name "x.y": use letters, digits, _ and - only` +
			"\n  --max-bytes -5 is out of range: 1 to 52428800 (0 or absent: 52428800)\nTry: "},
	} {
		r := genRun(t, "", append(append(flags[:len(flags):len(flags)], c.args...), urls)...)
		r.want(t, exitUsage)
		if got, _, _ := strings.Cut(r.stderr, "\nUsage"); !strings.HasPrefix(strings.TrimPrefix(got, "sitemapkit: "), c.want) {
			t.Errorf("%q: stderr\n%s\nwant %q", c.args, r.stderr, c.want)
		}
	}

	for _, c := range []struct {
		keys string
		want string
	}{
		{"max_urls = 60000\n", "sitemapkit.toml:3:1: max_urls 60000 is out of range: 1 to 50000 (0 or absent: 50000)"},
		{"max_bytes = -2\n", "sitemapkit.toml:3:1: max_bytes -2 is out of range: 1 to 52428800 (0 or absent: 52428800)"},
		{"name = \"a/b\"\n", `sitemapkit.toml:3:1: name "a/b": use letters, digits, _ and - only`},
		{"public_url = \"mailto:x\"\n", `sitemapkit.toml:3:1: public_url "mailto:x" is not an http or https URL, e.g. "https://www.example.com/"`},
		{"format = \"html\"\n", `sitemapkit.toml:3:1: format "html" is not one of xml, txt`},
		{"  index = \"sometimes\"\n", `sitemapkit.toml:3:3: index "sometimes" is not one of auto, always, never`},
	} {
		cfg := genWrite(t, dir, "sitemapkit.toml", "base = \""+genBase+"\"\nout = \"public\"\n"+c.keys+"\n[[source]]\ntype = \"files\"\npaths = [\"urls.txt\"]\n")
		r := genRun(t, "", "generate", "--config", cfg)
		r.want(t, exitUsage)
		if want := "sitemapkit: " + dir + string(filepath.Separator) + c.want + "\n"; r.stderr != want {
			t.Errorf("%q in the file: stderr\n%s\nwant\n%s", c.keys, r.stderr, want)
		}
	}
}
