package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/config"
	"github.com/sitemapkit/sitemapkit/publish"
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

// TestGenerateRequiredFlagOverConfig checks that a required option
// emptied by its flag over a config file is named as the flag, in the
// words generate uses without a file.
func TestGenerateRequiredFlagOverConfig(t *testing.T) {
	dir := t.TempDir()
	genWrite(t, dir, "urls.txt", genNumbered(3, "page"))
	cfg := genWrite(t, dir, "sitemapkit.toml", "base = \""+genBase+"\"\nout = \"public\"\n\n[[source]]\ntype = \"files\"\npaths = [\"urls.txt\"]\n")
	for flag, want := range map[string]string{
		"--base": "sitemapkit: generate: --base is required (the site's URL)\n",
		"--out":  "sitemapkit: generate: --out is required (the folder to publish into)\n",
	} {
		r := genRun(t, "", "generate", "--config", cfg, flag, "")
		r.want(t, exitUsage)
		if !strings.HasPrefix(r.stderr, want) {
			t.Errorf("%s \"\": stderr\n%s\nwant %q", flag, r.stderr, want)
		}
		r = genRun(t, "", "generate", "--base", genBase, "--out", "o", flag, "", "x.txt")
		if !strings.HasPrefix(r.stderr, want) {
			t.Errorf("%s \"\" without a file: stderr\n%s\nwant %q", flag, r.stderr, want)
		}
	}
}

// TestGenerateOptionFromFilePlaced checks that a bad option of the file
// that only the builder's check finds (a port past 65535 in base) is
// placed at its key in the file, not blamed on a flag that was not given
// ("generate: --base: …" before options were checked in one place).
func TestGenerateOptionFromFilePlaced(t *testing.T) {
	dir := t.TempDir()
	genWrite(t, dir, "urls.txt", genNumbered(3, "page"))
	cfg := genWrite(t, dir, "sitemapkit.toml", "out = \"public\"\nbase = \"https://www.example.com:99999/\"\n\n[[source]]\ntype = \"files\"\npaths = [\"urls.txt\"]\n")
	r := genRun(t, "", "generate", "--config", cfg)
	r.want(t, exitUsage)
	if want := "sitemapkit: " + cfg + ":2:1: base: loc: "; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr\n%s\nwant it to start with %q", r.stderr, want)
	}
}

// TestOptionNames checks the one table of the names of publish.Options'
// fields: every field has a key of the file and a flag of generate, so
// that a new option cannot be added without them (its errors would name
// nothing).
func TestOptionNames(t *testing.T) {
	keys := map[string]bool{}
	ct := reflect.TypeFor[config.Config]()
	for i := range ct.NumField() {
		keys[strings.Split(ct.Field(i).Tag.Get("toml"), ",")[0]] = true
	}
	flags := newGenerateCommand(&app{}).Flags()
	ot := reflect.TypeFor[publish.Options]()
	for i := range ot.NumField() {
		field := ot.Field(i).Name
		n := config.NameOf(field)
		if !keys[n.Key] {
			t.Errorf("publish.Options.%s: key %q is not a key of config.Config", field, n.Key)
		}
		if flags.Lookup(strings.TrimPrefix(n.Flag, "--")) == nil || !strings.HasPrefix(n.Flag, "--") {
			t.Errorf("publish.Options.%s: flag %q is not a flag of generate", field, n.Flag)
		}
	}
}

// TestDedupeFigure checks that what de-duplication costs is said alike
// wherever users read it: the source of truth is the doc comment of
// publish.Options.NoDedupe.
func TestDedupeFigure(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "../../publish/options.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	ast.Inspect(f, func(n ast.Node) bool {
		if fd, ok := n.(*ast.Field); ok && len(fd.Names) == 1 && fd.Names[0].Name == "NoDedupe" {
			doc = fd.Doc.Text()
		}
		return doc == ""
	})
	figure := regexp.MustCompile(`at most ([0-9.]+) bytes`)
	m := figure.FindStringSubmatch(strings.Join(strings.Fields(doc), " "))
	if m == nil {
		t.Fatalf("publish.Options.NoDedupe's doc says no figure: %q", doc)
	}
	want := "at most " + m[1] + " bytes of memory per URL"
	if dedupeCost != want {
		t.Errorf("--no-dedupe's help says %q, publish.Options.NoDedupe %q", dedupeCost, want)
	}
	perURL := regexp.MustCompile(`[0-9][0-9.–-]* bytes[a-z ]* per URL`)
	for _, p := range []string{"../../README.md", "../../docs/config.md", "../../config/config.go"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(strings.ReplaceAll(string(b), "//", "")), " ")
		found := perURL.FindAllString(text, -1)
		if len(found) == 0 {
			t.Errorf("%s does not say what de-duplication costs", p)
		}
		for _, s := range found {
			if s != m[1]+" bytes of memory per URL" {
				t.Errorf("%s says %q, publish.Options.NoDedupe %q", p, s, want)
			}
		}
	}
}
