package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// head is the smallest valid top of a file: 2 lines.
const head = "base = \"https://www.example.com/\"\nout = \"public/\"\n"

// files is a valid files source: 3 lines.
const files = "[[source]]\ntype = \"files\"\npaths = [\"urls.txt\"]\n"

func TestErrors(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string // every error, in order
	}{
		{"unknown top-level key", head + "gzipp = true\n" + files,
			[]string{`site/sitemapkit.toml:3:1: unknown key "gzipp" (did you mean "gzip"?)`}},
		{"unknown key, flag spelling", head + "max-urls = 10\n" + files,
			[]string{`site/sitemapkit.toml:3:1: unknown key "max-urls" (did you mean "max_urls"?)`}},
		{"unknown key, nothing near", head + "colour = \"blue\"\n" + files,
			[]string{`site/sitemapkit.toml:3:1: unknown key "colour"`}},
		{"unknown key in [filter]", head + "[filter]\nexclude = []\n  strip_param = [\"sid\"]\n" + files,
			[]string{`site/sitemapkit.toml:5:3: unknown key "strip_param" in [filter] (did you mean "strip_params"?)`}},
		{"unknown key in [[source]]: the second one", head + files + files + "pahts = [\"x\"]\n",
			[]string{`site/sitemapkit.toml:9:1: unknown key "pahts" in [[source]] (did you mean "paths"?)`}},
		{"unknown key in [[group.source]]", head + files + "[[group]]\nname = \"a\"\n[[group.source]]\ntype = \"log\"\npaths = [\"access.log\"]\n" +
			"[[group]]\nname = \"b\"\n[[group.source]]\ntype = \"log\"\npaths = [\"access.log\"]\n[[group.source]]\ntype = \"log\"\nkeep_param = [\"page\"]\npaths = [\"x.log\"]\n",
			[]string{`site/sitemapkit.toml:18:1: unknown key "keep_param" in [[group.source]] (did you mean "keep_params"?)`}},
		{"unknown key in [[group]]", head + "[[group]]\nname = \"a\"\ngzip = true\n" + "[[group.source]]\ntype = \"log\"\npaths = [\"access.log\"]\n",
			[]string{`site/sitemapkit.toml:5:1: unknown key "gzip" in [[group]]`}},
		{"unknown key in an inline table", head + "filter = { include = [], exclud = [] }\n" + files,
			[]string{`site/sitemapkit.toml:3:26: unknown key "exclud" in [filter] (did you mean "exclude"?)`}},
		{"unknown dotted key", head + "filter.excludes = []\n" + files,
			[]string{`site/sitemapkit.toml:3:1: unknown key "excludes" in [filter] (did you mean "exclude"?)`}},
		{"unknown keys after a multi-line string and array", head + "[[source]]\ntype = \"sql\"\ndriver = \"sqlite\"\ndsn = \"a.db\"\nquery = \"\"\"\nSELECT loc\n  bogus = 1\nFROM t\"\"\"\n" +
			"strip_params = [\n  \"a\", # x = 1\n  \"b\",\n]\nquerry = 1\n",
			[]string{`site/sitemapkit.toml:15:1: unknown key "querry" in [[source]] (did you mean "query"?)`}},
		{"several mistakes, in the file's order", head + "[[source]]\ntype = \"files\"\npaths = [\"a\", 3]\nbogus = 1\n[filter]\nmax_urls = 5\n",
			[]string{
				`site/sitemapkit.toml:5:15: paths must be an array of strings; element 2 is an integer (3)`,
				`site/sitemapkit.toml:6:1: unknown key "bogus" in [[source]]`,
				`site/sitemapkit.toml:8:1: unknown key "max_urls" in [filter]`,
			}},
		{"negative crawl depth, at its key", head + "[[source]]\ntype = \"crawl\"\npaths = [\"https://www.example.com/\"]\nmax_depth = -1\n",
			[]string{`site/sitemapkit.toml:6:1: max_depth -1 is negative: the most links from a start to a page, 0 for the default`}},
		{"wrong type", head + "max_urls = \"1000\"\n" + files,
			[]string{`site/sitemapkit.toml:3:1: max_urls must be an integer, not a string ("1000")`}},
		{"wrong type: bool", head + "gzip = \"yes\"\n" + files,
			[]string{`site/sitemapkit.toml:3:1: gzip must be true or false, not a string ("yes")`}},
		{"wrong type in the second source", head + files + "[[source]]\ntype = \"files\"\npaths = \"urls.txt\"\n",
			[]string{`site/sitemapkit.toml:8:1: paths must be an array of strings, not a string ("urls.txt")`}},
		{"wrong type: table as a value", head + "source = 3\n",
			[]string{`site/sitemapkit.toml:3:1: source must be an array of tables ([[source]]), not an integer (3)`}},
		{"wrong type: float", head + "max_bytes = 1e6\n" + files,
			[]string{`site/sitemapkit.toml:3:1: max_bytes must be an integer, not a float (1e+06)`}},
		{"bad enum", head + "format = \"html\"\n" + files,
			[]string{`site/sitemapkit.toml:3:1: format "html" is not one of xml, txt`}},
		{"bad enum in a source", head + "[[source]]\ntype = \"dir\"\npath = \"public\"\nlastmod = \"ctime\"\n",
			[]string{`site/sitemapkit.toml:6:1: lastmod "ctime" is not one of auto, git, mtime, none`}},
		{"bad source type", head + "[[source]]\ntype = \"database\"\n",
			[]string{`site/sitemapkit.toml:4:1: type "database" is not one of files, dir, sql, log, sitemap, crawl`}},
		{"key of another source type", head + "[[source]]\ntype = \"dir\"\npath = \"public\"\nquery = \"SELECT 1\"\n",
			[]string{`site/sitemapkit.toml:6:1: query is not a key of dir sources (it is one of sql sources')`}},
		{"key of another source type, set to its zero value", head + "[[source]]\ntype = \"files\"\npaths = [\"a.txt\"]\nimages = false\n",
			[]string{`site/sitemapkit.toml:6:1: images is not a key of files sources (it is one of dir sources')`}},
		{"missing base", "out = \"public/\"\n" + files,
			[]string{`site/sitemapkit.toml: base is required: the site's URL, e.g. base = "https://www.example.com/"`}},
		{"missing base and out", files,
			[]string{
				`site/sitemapkit.toml: base is required: the site's URL, e.g. base = "https://www.example.com/"`,
				`site/sitemapkit.toml: out is required: the folder to publish into, e.g. out = "public/"`,
			}},
		{"base not a URL", "base = \"www.example.com\"\nout = \"p\"\n" + files,
			[]string{`site/sitemapkit.toml:1:1: base "www.example.com" is not an http or https URL, e.g. "https://www.example.com/"`}},
		{"missing source key: placed at its header", head + files + "[[source]]\ntype = \"sql\"\ndriver = \"sqlite\"\nquery = \"SELECT loc FROM t\"\n",
			[]string{`site/sitemapkit.toml:6:1: a sql source needs dsn (e.g. dsn = "shop.db") or dsn_env (e.g. dsn_env = "DATABASE_URL")`}},
		{"missing type", head + "[[source]]\npaths = [\"a.txt\"]\n",
			[]string{`site/sitemapkit.toml:3:1: a source needs a type: one of files, dir, sql, log, sitemap, crawl`}},
		{"dsn and dsn_env", head + "[[source]]\ntype = \"sql\"\ndriver = \"postgres\"\ndsn = \"postgres://x\"\ndsn_env = \"DATABASE_URL\"\nquery = \"SELECT loc FROM t\"\n",
			[]string{`site/sitemapkit.toml:7:1: give dsn or dsn_env, not both`}},
		{"no source", head,
			[]string{"site/sitemapkit.toml: no source: add a [[source]] (see `sitemapkit init`)"}},
		{"group name twice", head + "[[group]]\nname = \"p\"\n[[group.source]]\ntype = \"log\"\npaths = [\"a.log\"]\n[[group]]\nname = \"p\"\n[[group.source]]\ntype = \"log\"\npaths = [\"b.log\"]\n",
			[]string{`site/sitemapkit.toml:9:1: group name "p" is used twice`}},
		{"group name not a file stem", head + "[[group]]\nname = \"my products\"\n[[group.source]]\ntype = \"log\"\npaths = [\"a.log\"]\n",
			[]string{`site/sitemapkit.toml:4:1: group name "my products": use letters, digits, _ and - only`}},
		{"group named as the set", head + "[[group]]\nname = \"sitemap\"\n[[group.source]]\ntype = \"log\"\npaths = [\"a.log\"]\n",
			[]string{`site/sitemapkit.toml:4:1: group name "sitemap" is the set's own name (name); choose another`}},
		{"group without name or source", head + files + "[[group]]\n",
			[]string{
				`site/sitemapkit.toml:6:1: a group needs a name, e.g. name = "products"`,
				`site/sitemapkit.toml:6:1: group "" has no source: add a [[group.source]]`,
			}},
		{"bad regular expression", head + "[filter]\nexclude = [\"/a/**\", \"re:^/p/(\"]\n" + files,
			[]string{"site/sitemapkit.toml:4:21: exclude pattern \"re:^/p/(\": bad pattern: error parsing regexp: missing closing ): `^/p/(`"}},
		{"pattern that is a URL", head + files + "include = [\"/a/**\", \"https://www.example.com/blog/**\"]\n",
			[]string{`site/sitemapkit.toml:6:21: include pattern "https://www.example.com/blog/**": bad pattern: patterns match the URL's path: write /blog/** rather than https://www.example.com/blog/**`}},
		{"URL in a files source", head + "[[source]]\ntype = \"files\"\npaths = [\"https://www.example.com/urls.txt\"]\n",
			[]string{`site/sitemapkit.toml:5:10: paths: "https://www.example.com/urls.txt" is a URL; only sitemap sources read URLs`}},
		{"files of unknown format", head + "[[source]]\ntype = \"files\"\npaths = [\"urls.txt\", \"export.xlsx\"]\n",
			[]string{`site/sitemapkit.toml:5:22: paths: "export.xlsx": the format is not known from the name (.txt, .csv, .jsonl, optionally .gz); set format = "txt", "csv" or "jsonl"`}},
		{"limit too large", head + "max_urls = 50001\n" + files,
			[]string{`site/sitemapkit.toml:3:1: max_urls 50001 is out of range: 1 to 50000 (0 or absent: 50000)`}},
		{"syntax error", head + "gzip = \n" + files,
			[]string{`site/sitemapkit.toml:3:8: TOML: expected value but found '\n' instead`}},
		{"syntax error: duplicate key", head + "gzip = true\ngzip = false\n" + files,
			[]string{`site/sitemapkit.toml:4:13: TOML: Key 'gzip' has already been defined.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(strings.NewReader(tt.doc), "site/sitemapkit.toml")
			if err == nil {
				t.Fatalf("no error; config %+v", c)
			}
			if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", err, strings.Join(tt.want, "\n"))
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "site/sitemapkit.toml" {
				t.Errorf("error is not a *Error naming the file: %#v", err)
			}
		})
	}
}

func TestSyntaxErrorUnwraps(t *testing.T) {
	_, err := Parse(strings.NewReader("base = [\n"), "x.toml")
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("%v does not wrap a toml.ParseError", err)
	}
}

func TestFull(t *testing.T) {
	doc := `base = "https://www.example.com/"
out = "public/"
public_url = "https://www.example.com/sitemaps/"
name = "site"
gzip = true
format = "txt"
index = "always"
max_urls = 1000
max_bytes = 1048576
keep_duplicates = true
strict = true

[filter]
include = ["/blog/**", "re:^/p/[0-9]+$"]
exclude = ["/admin/**"]
strip_params = []

[[source]]
type = "files"
paths = ["urls.txt", "/data/products.csv.gz"]
format = "csv"
exclude = ["/old/**"]

[[source]]
type = "dir"
path = "public/"
strip_html = true
include_files = ["**/*.pdf"]
exclude_files = ["drafts/**"]
lastmod = "git"
images = true

[[source]]
type = "log"
paths = ["/var/log/nginx/access.log"]
keep_params = ["page"]
strip_params = ["utm_source"]

[[source]]
type = "sitemap"
paths = ["https://old.example.com/sitemap.xml", "legacy/sitemap.xml.gz"]

[[group]]
name = "products"
  [[group.source]]
  type = "sql"
  driver = "sqlite"
  dsn = "shop.db"
  query = "SELECT slug, updated_at AS lastmod FROM products"
  loc = "https://www.example.com/products/{slug}"

[[group]]
name = "blog"
  [[group.source]]
  type = "sql"
  driver = "postgres"
  dsn_env = "DATABASE_URL"
  query = "SELECT loc FROM posts"
  include = ["/blog/**"]
`
	got, err := Parse(strings.NewReader(doc), "site/sitemapkit.toml")
	if err != nil {
		t.Fatal(err)
	}
	got.origin = nil
	want := &Config{
		Base: "https://www.example.com/", Out: "site/public", PublicURL: "https://www.example.com/sitemaps/",
		Name: "site", Gzip: true, Format: "txt", Index: "always", MaxURLs: 1000, MaxBytes: 1 << 20,
		KeepDuplicates: true, Strict: true,
		Filter: Filter{Include: []string{"/blog/**", "re:^/p/[0-9]+$"}, Exclude: []string{"/admin/**"}, StripParams: []string{}},
		Sources: []Source{
			{Type: "files", Paths: []string{"site/urls.txt", "/data/products.csv.gz"}, Format: "csv",
				Filter: Filter{Exclude: []string{"/old/**"}}},
			{Type: "dir", Path: "site/public", StripHTML: true, IncludeFiles: []string{"**/*.pdf"},
				ExcludeFiles: []string{"drafts/**"}, Lastmod: "git", Images: true},
			{Type: "log", Paths: []string{"/var/log/nginx/access.log"}, KeepParams: []string{"page"},
				Filter: Filter{StripParams: []string{"utm_source"}}},
			{Type: "sitemap", Paths: []string{"https://old.example.com/sitemap.xml", "site/legacy/sitemap.xml.gz"}},
		},
		Groups: []Group{
			{Name: "products", Sources: []Source{{Type: "sql", Driver: "sqlite", DSN: "site/shop.db",
				Query: "SELECT slug, updated_at AS lastmod FROM products", Loc: "https://www.example.com/products/{slug}"}}},
			{Name: "blog", Sources: []Source{{Type: "sql", Driver: "postgres", DSNEnv: "DATABASE_URL",
				Query: "SELECT loc FROM posts", Filter: Filter{Include: []string{"/blog/**"}}}}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	if got.Filter.StripParams == nil {
		t.Error("strip_params = [] decoded as absent (nil): it must mean none")
	}

	o := got.BuildOptions()
	wantOpts := publish.Options{Dir: "site/public", Base: "https://www.example.com/", PublicURL: "https://www.example.com/sitemaps/",
		Name: "site", Format: sitemap.FormatText, Gzip: true, Index: publish.IndexAlways, MaxURLs: 1000, MaxBytes: 1 << 20, NoDedupe: true}
	if o != wantOpts {
		t.Errorf("BuildOptions:\n%+v\nwant\n%+v", o, wantOpts)
	}
}

func TestBuildOptionsDefaults(t *testing.T) {
	c, err := Parse(strings.NewReader(head+files), "sitemapkit.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Filter.StripParams != nil {
		t.Errorf("absent strip_params decoded as %q, want nil (the session IDs)", c.Filter.StripParams)
	}
	o := c.BuildOptions()
	want := publish.Options{Dir: "public/", Base: "https://www.example.com/", Format: sitemap.FormatURLSet, Index: publish.IndexAuto}
	if o != want {
		t.Errorf("BuildOptions:\n%+v\nwant\n%+v", o, want)
	}
	// build accepts them as they are.
	want.Dir = t.TempDir()
	b, err := publish.New(want)
	if err != nil {
		t.Fatal(err)
	}
	b.Abort()
}

// TestRelativePaths loads a file from another folder than the current one:
// its relative paths are relative to its folder, the rest is left alone.
func TestRelativePaths(t *testing.T) {
	dir := t.TempDir()
	doc := `base = "https://www.example.com/"
out = "public"
[[source]]
type = "files"
paths = ["urls.txt", "data/more.txt", "/abs/list.txt"]
[[source]]
type = "dir"
path = "../site/public"
[[source]]
type = "sitemap"
paths = ["https://www.example.com/sitemap.xml", "old/sitemap.xml"]
[[source]]
type = "sql"
driver = "sqlite"
dsn = "shop.db"
query = "SELECT loc FROM t"
[[source]]
type = "sql"
driver = "sqlite"
dsn = "file:db/shop.db?mode=ro"
query = "SELECT loc FROM t"
[[source]]
type = "sql"
driver = "sqlite"
dsn = ":memory:"
query = "SELECT loc FROM t"
[[source]]
type = "sql"
driver = "postgres"
dsn = "host=localhost dbname=shop"
query = "SELECT loc FROM t"
`
	p := filepath.Join(dir, "conf", FileName)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "conf")
	checks := []struct{ what, got, want string }{
		{"out", c.Out, filepath.Join(conf, "public")},
		{"files paths[0]", c.Sources[0].Paths[0], filepath.Join(conf, "urls.txt")},
		{"files paths[1]", c.Sources[0].Paths[1], filepath.Join(conf, "data/more.txt")},
		{"absolute path", c.Sources[0].Paths[2], "/abs/list.txt"},
		{"dir path", c.Sources[1].Path, filepath.Join(dir, "site/public")},
		{"sitemap URL", c.Sources[2].Paths[0], "https://www.example.com/sitemap.xml"},
		{"sitemap file", c.Sources[2].Paths[1], filepath.Join(conf, "old/sitemap.xml")},
		{"sqlite file", c.Sources[3].DSN, filepath.Join(conf, "shop.db")},
		{"sqlite URI", c.Sources[4].DSN, "file:" + filepath.ToSlash(filepath.Join(conf, "db/shop.db")) + "?mode=ro"},
		{"sqlite memory", c.Sources[5].DSN, ":memory:"},
		{"postgres", c.Sources[6].DSN, "host=localhost dbname=shop"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: %q, want %q", ch.what, ch.got, ch.want)
		}
	}

	// Load's errors name the file as given.
	if err := os.WriteFile(p, []byte("base = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(p)
	if want := p + ":1:1: base must be a string, not an integer (1)"; err == nil || err.Error() != want {
		t.Errorf("Load: %v, want %s", err, want)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: %v, want os.ErrNotExist", err)
	}
}

// TestValidateInCode checks a Config built in code, as the command builds
// one from flags: its mistakes say where they are without a file.
func TestValidateInCode(t *testing.T) {
	c := &Config{Base: "https://www.example.com/", Out: "public",
		Sources: []Source{{Type: "files", Paths: []string{"a.txt"}}, {Type: "dir", Path: "public", Query: "SELECT 1"}},
		Groups:  []Group{{Name: "g", Sources: []Source{{Type: "log"}}}},
	}
	err := c.Validate()
	want := []string{
		"config: source #2: query is not a key of dir sources (it is one of sql sources')",
		`config: group #1, source #1: a log source needs paths, e.g. paths = ["access.log"]`,
	}
	if err == nil {
		t.Fatal("no error")
	}
	if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	c.Sources[1].Query = ""
	c.Groups[0].Sources[0].Paths = []string{"access.log"}
	if err := c.Validate(); err != nil {
		t.Errorf("fixed config: %v", err)
	}
}

// exampleLine is a commented-out TOML line of the starter file.
var exampleLine = regexp.MustCompile(`^# ?(\[\[?[a-z.]+\]\]?|[a-z_]+ = .*)$`)

func TestStarter(t *testing.T) {
	for _, base := range []string{"", "https://shop.example.org/", `https://www.example.com/"quoted"\`} {
		s := Starter(base)
		c, err := Parse(strings.NewReader(s), FileName)
		if err != nil {
			if strings.Contains(base, `"`) {
				continue // not a URL: refused, but as a value, not as syntax
			}
			t.Fatalf("Starter(%q) does not load: %v", base, err)
		}
		want := base
		if want == "" {
			want = ExampleBase
		}
		if c.Base != want {
			t.Errorf("Starter(%q): base %q", base, c.Base)
		}
	}

	// Every key of every table is in the file, set or commented out.
	s := Starter("")
	var lines []string
	for line := range strings.SplitSeq(s, "\n") {
		if exampleLine.MatchString(line) {
			line = strings.TrimPrefix(strings.TrimPrefix(line, "#"), " ")
		}
		lines = append(lines, line)
	}
	all := strings.Join(lines, "\n")
	c, err := Parse(strings.NewReader(all), FileName)
	if err != nil {
		t.Fatalf("the starter with its examples uncommented does not load: %v\n%s", err, all)
	}
	types := map[string]bool{}
	for _, g := range append([]Group{{Sources: c.Sources}}, c.Groups...) {
		for _, s := range g.Sources {
			types[s.Type] = true
		}
	}
	for _, typ := range sourceTypes {
		if !types[typ] {
			t.Errorf("the starter has no example of a %s source", typ)
		}
	}
	if len(c.Groups) == 0 {
		t.Error("the starter has no example of a group")
	}
	for _, k := range slices.Concat(keysOf(reflect.TypeFor[Config]()), keysOf(reflect.TypeFor[Filter]()), keysOf(reflect.TypeFor[Submit]())) {
		if k == "filter" || k == "source" || k == "group" || k == "submit" {
			continue // tables, checked above
		}
		if !regexp.MustCompile(`(?m)^` + k + ` = `).MatchString(all) {
			t.Errorf("the starter lacks the key %s", k)
		}
	}
	for _, k := range keysOf(reflect.TypeFor[Source]()) {
		if k == "include" || k == "exclude" || k == "strip_params" {
			continue
		}
		if k == "dsn_env" && strings.Contains(all, "dsn_env = ") || regexp.MustCompile(`(?m)^`+k+` = `).MatchString(all) {
			continue
		}
		t.Errorf("the starter lacks the source key %s", k)
	}
}

// TestDocs checks that docs/config.md documents every key.
func TestDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[Config](), reflect.TypeFor[Filter](), reflect.TypeFor[Group](), reflect.TypeFor[Source](), reflect.TypeFor[Submit]()} {
		for _, k := range keysOf(typ) {
			if !strings.Contains(string(doc), "`"+k+"`") && !strings.Contains(string(doc), "`["+k+"]`") && !strings.Contains(string(doc), "`[["+k+"]]`") {
				t.Errorf("docs/config.md does not document the key %s", k)
			}
		}
	}
}

// A value changed after Load is validated through Detach: its mistake is
// not placed at the file's line of the key, which holds another value.
func TestDetach(t *testing.T) {
	c, err := Parse(strings.NewReader("base = \"https://www.example.com/\"\nout = \"public\"\nmax_urls = 100\n\n[[source]]\ntype = \"files\"\npaths = [\"u.txt\"]\n"), "site/sitemapkit.toml")
	if err != nil {
		t.Fatal(err)
	}
	c.MaxURLs = 60000
	if err := c.Validate(); err == nil || !strings.HasPrefix(err.Error(), "site/sitemapkit.toml:3:") {
		t.Fatalf("Validate = %v, want the file's line of max_urls", err)
	}
	err = c.Detach().Validate()
	if err == nil || strings.Contains(err.Error(), "sitemapkit.toml") || !strings.Contains(err.Error(), "max_urls 60000") {
		t.Errorf("Detach().Validate() = %v, want the mistake without the file", err)
	}
	if d := c.Detach(); &d.Sources[0] != &c.Sources[0] {
		t.Error("Detach copied the sources: Source.Inputs would not find them")
	}
}

// TestChoices checks that the values of format and index are spelled in
// one place, with publish's defaults, and that each becomes its option.
func TestChoices(t *testing.T) {
	for _, c := range []struct {
		key, def string
		names    []string
	}{{"format", "xml", []string{"xml", "txt"}}, {"index", "auto", []string{"auto", "always", "never"}}} {
		names, def := Choices(c.key)
		if def != c.def || !reflect.DeepEqual(names, c.names) {
			t.Errorf("Choices(%q) = %q, %q; want %q, %q", c.key, names, def, c.names, c.def)
		}
	}
	seen := map[publish.Options]bool{}
	for _, f := range []string{"", "xml", "txt"} {
		for _, i := range []string{"", "auto", "always", "never"} {
			seen[(&Config{Format: f, Index: i}).BuildOptions()] = true
		}
	}
	if len(seen) != 2*3 {
		t.Errorf("the values of format and index make %d options, want 6", len(seen))
	}
}

// TestStarterDefaults checks that the values the starter file writes for
// the builder's options are publish's defaults: a starter as written
// builds what a file without those keys does.
func TestStarterDefaults(t *testing.T) {
	c, err := Parse(strings.NewReader(Starter("")), FileName)
	if err != nil {
		t.Fatal(err)
	}
	got := c.BuildOptions()
	want := (&Config{Base: c.Base, Out: c.Out, Gzip: c.Gzip}).BuildOptions().WithDefaults()
	if got.Name == "" || got.MaxURLs == 0 || got.MaxBytes == 0 || got.WithDefaults() != want {
		t.Errorf("the starter's options:\n%+v\nwant the defaults, written out:\n%+v", got, want)
	}
}
