package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemapkit/config"
	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/feed"
	"github.com/sitemapkit/sitemapkit/lint"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/render"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
	"github.com/sitemapkit/sitemapkit/source/postgres"
	"github.com/sitemapkit/sitemapkit/source/sqlite"
)

// generateOptions are generate's flags. They fill a config.Config, the
// one description of a run whether it comes from flags, sitemapkit.toml or
// both.
type generateOptions struct {
	configPath string
	// set holds the flags that are keys of the file: base, out, max_urls…
	set           config.Config
	inputFormat   string
	inputEncoding string

	dirs                       []string
	stripHTML, images          bool
	includeFiles, excludeFiles []string
	lastmod                    string

	sqlDriver, sqlDSN, sqlDSNEnv, sqlQuery, sqlLoc string

	logs, keepParams []string
	sitemaps         []string
	crawl            crawlFlags

	include, exclude, stripParams []string

	quiet, dryRun bool
	// jsonSummary: --format json, the summary on stdout as JSON;
	// formatGiven: --format named the sitemaps' format too.
	jsonSummary, formatGiven bool
	submit                   bool
	sf                       submitFlags
}

const generateExample = `  # The site's setup in ./sitemapkit.toml (see "sitemapkit init"):
  sitemapkit generate

  # Three inputs, gzipped children, into a static site's folder:
  sitemapkit generate --base https://www.example.com/ --out public/ --gzip \
      urls.txt products.csv posts.jsonl

  # A static site's build folder, lastmod from git, PDFs too:
  sitemapkit generate --base https://www.example.com/ --out public/ \
      --dir public/ --include-files '**/*.pdf'

  # A database, and the pages the access logs show:
  sitemapkit generate --base https://www.example.com/ --out public/ \
      --sql-driver postgres --sql-dsn-env DATABASE_URL \
      --sql-query "SELECT slug, updated_at AS lastmod FROM products WHERE published" \
      --sql-loc "https://www.example.com/products/{slug}" \
      --log /var/log/nginx/access.log --log /var/log/nginx/access.log.1.gz

  # Move an old set to new limits, keeping every extension:
  sitemapkit generate --base https://www.example.com/ --out new/ --max-urls 10000 \
      --sitemap https://www.example.com/sitemap.xml

  # Truthful lastmod: rewrite only what changed, with a feed of the changes:
  sitemapkit generate --base https://www.example.com/ --out public/ --dir public/ \
      --state .sitemapkit/state.db --lastmod content --feed

  # From another program, through the standard input:
  cat urls.txt | sitemapkit generate --base https://www.example.com/ --out public/ -`

const generateLong = `Build a sitemap set from what a site has (URL lists, CSV and JSONL files,
its build folder, its database, its access logs, its existing sitemaps) and
publish it into --out: sitemap.xml is the file to submit. While everything
fits in one file it is a plain sitemap; past 50,000 URLs or 50 MiB it is an
index over sitemap-1-….xml, sitemap-2-….xml, … (--index). Files are named
after their content and swapped in atomically: a run that fails or is killed
leaves the published set as it was, and only files sitemapkit wrote are ever
removed.

CONFIG FILE
  With no input and no source flag, generate reads ./sitemapkit.toml;
  --config names another. The file holds everything the flags do, plus
  groups: named parts of the set with files of their own under the one
  index (products-1-….xml, blog-1-….xml). Flags given with a config file
  override its settings and add to its sources. "sitemapkit init" writes a
  commented starter; "sitemapkit help config" lists every key.

INPUTS
  Files, by extension or --input-format:
    .txt     one URL per line; blank lines and # comments skipped
    .csv     a header row: loc (required), lastmod, changefreq, priority,
             image (repeatable), alternate:<hreflang> (e.g. alternate:de-DE),
             images, videos, news, alternates (JSON, as in .jsonl),
             content_hash or etag (what --lastmod content compares),
             sitemap (ignored): "sitemapkit read --format csv" writes it
    .jsonl   one JSON object per line: loc, lastmod, changefreq, priority,
             images, videos, news, alternates (see the README)
  Each may be gzipped (.gz, or any gzip data). "-" reads the standard input,
  whose format is guessed from its first line unless --input-format says.
  --dir       a static build folder: every HTML page, minus noindex pages and
              pages whose canonical is another; hreflang links become
              alternates; lastmod from git (--lastmod)
  --sql-*     a query's rows: columns loc (or --sql-loc's template), lastmod,
              changefreq, priority, image, images, alternates…
  --log       an access log (Common or Combined, gzipped or not): the pages
              that answered GET or HEAD with 200 or 304, each once
  --sitemap   existing sitemaps (files, folders, URLs, robots.txt; indexes
              followed), every extension kept

  A URL the protocol forbids (another host, outside the sitemap's folder, a
  bad lastmod…) is left out and reported with its place and rule; with
  --strict, any refused URL makes the run fail and nothing is published.
  No lastmod, changefreq or priority is ever invented.

FILTERS
  --include and --exclude match the URL's path: a glob ("/blog/**", "*.pdf")
  or a regular expression ("re:^/p/[0-9]+$"). --strip-param removes query
  parameters; by default session IDs (sid, PHPSESSID, jsessionid…) are
  removed; --strip-param none removes nothing.

KEEPING LASTMOD TRUE
  --state FILE remembers, from run to run, each page's content fingerprint,
  lastmod and file (SQLite; keep it out of --out). Each URL then stays in
  its file, and only the files whose URLs changed are rewritten: a run
  with no change writes nothing. With --lastmod content, a URL's lastmod is
  when its significant content was first seen as it is now (a page's main
  text, title, metas, canonical, hreflang, JSON-LD, images; not scripts,
  attributes, footers or mtimes; tune with --content-selector and
  --ignore-selector), the source's own date on a first run, never the
  run's time for a page not seen to change. The run's time is
  SOURCE_DATE_EPOCH when set. --feed publishes feed.xml, an Atom feed of
  the latest changes. --dry-run says what a run would do, writing nothing.

EXIT STATUS
  0    the set was published; every input line was accepted
  1    some lines were refused (the set was published without them, unless
       --strict: then nothing was), or an input could not be read (nothing
       was published), or no URL was left to publish
  2    usage or environment error (bad flag or config file, missing file,
       --out not writable, a database that cannot be queried)
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP): the published set is left as
       it was`

func newGenerateCommand(a *app) *cobra.Command {
	o := &generateOptions{}
	cmd := &cobra.Command{
		Use:     "generate [--config FILE] [--base URL --out DIR] [flags] [INPUT...]",
		Short:   "Build a sitemap set from a site's files, folder, database, logs or sitemaps, and publish it atomically",
		Long:    generateLong,
		Example: generateExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerate(cmd.Context(), a, cmd.Flags(), o, args)
		},
	}
	f := cmd.Flags()
	f.SortFlags = false
	// The defaults are publish's, written once there.
	def := publish.Options{}.WithDefaults()
	c := &o.set
	f.StringVar(&o.configPath, "config", "", "read the run's setup from `FILE` (default ./sitemapkit.toml when no input is given)")
	f.StringVar(&c.Base, "base", "", "the site's `URL`, e.g. https://www.example.com/ (required); every URL must be on it")
	f.StringVar(&c.Out, "out", "", "the folder `DIR` to publish into (required); created if missing")
	f.StringVar(&c.PublicURL, "public-url", "", "the `URL` --out is served at, when not --base (e.g. https://www.example.com/sitemaps/)")
	f.StringVar(&c.Manifest, "manifest", "", "keep the set's manifest in `FILE`, e.g. outside --out when --out is deployed as it is\n(default --out/.sitemapkit-manifest-NAME.json)")
	f.BoolVar(&c.Gzip, "gzip", false, "gzip the child sitemaps (.xml.gz)")
	f.Var(&enumFlag{p: &o.inputFormat, names: []string{"auto", "txt", "csv", "jsonl"}, def: "auto"}, "input-format", "read every input file as txt, csv or jsonl, whatever its name")
	f.Var(encodingFlag{&o.inputEncoding}, "input-encoding",
		"read the input files (and the config file's files sources that name none) in this encoding, converted to UTF-8;\nin utf-8 a line that is not is refused")
	f.Var(&genFormatFlag{set: newChoiceFlag(&c.Format, "format"), json: &o.jsonSummary, given: &o.formatGiven}, "format",
		"write xml or txt sitemaps; json: print the summary as JSON (with a set format: --format txt,json)")
	f.Var(newChoiceFlag(&c.Index, "index"), "index", "auto: an index only when one file is not enough; always; never (fail instead)")
	f.IntVar(&c.MaxURLs, "max-urls", 0, fmt.Sprintf("at most `N` URLs per file (default %d)", def.MaxURLs))
	f.Int64Var(&c.MaxBytes, "max-bytes", 0, fmt.Sprintf("at most `N` bytes per file, uncompressed (default %d)", def.MaxBytes))
	f.BoolVar(&c.KeepDuplicates, "no-dedupe", false, "keep duplicate URLs (saves "+dedupeCost+")")
	f.BoolVar(&c.Strict, "strict", false, "fail, publishing nothing, if any line is refused")
	f.StringVar(&c.Name, "name", "", fmt.Sprintf("the files' name `STEM` (default %q: %[1]s.xml, %[1]s-1-….xml, …)", def.Name))

	f.StringArrayVar(&o.dirs, "dir", nil, "a static site's build folder `DIR` to list the pages of (repeatable)")
	f.BoolVar(&o.stripHTML, "strip-html", false, "--dir: list about.html as /about (when the server serves it so)")
	f.StringArrayVar(&o.includeFiles, "include-files", nil, "--dir: also list files matching this `GLOB`, e.g. \"**/*.pdf\" (repeatable)")
	f.StringArrayVar(&o.excludeFiles, "exclude-files", nil, "--dir: leave out files matching this `GLOB`, e.g. \"drafts/**\" (repeatable)")
	f.Var(&enumFlag{p: &o.lastmod, names: []string{"auto", "git", "mtime", "none", "content"}, def: "auto"}, "lastmod",
		"--dir: lastmod from the file's last git commit, its mtime, or none (auto: git in a repository, else none);\ncontent, for every source (needs --state): the time the page's content was first seen as it is")
	f.BoolVar(&o.images, "images", false, "--dir: list each page's <img> sources as image entries")

	f.Var(&enumFlag{p: &o.sqlDriver, names: []string{"sqlite", "postgres"}}, "sql-driver", "the database: sqlite or postgres")
	f.StringVar(&o.sqlDSN, "sql-dsn", "", "the database to open (`DSN`): a SQLite file, or a PostgreSQL URL or key=value string")
	f.StringVar(&o.sqlDSNEnv, "sql-dsn-env", "", "the environment variable `NAME` holding the DSN, to keep a password out of the command line")
	f.StringVar(&o.sqlQuery, "sql-query", "", "a SELECT (`QUERY`) whose columns are the URL's fields (loc, lastmod, changefreq, priority, …)")
	f.StringVar(&o.sqlLoc, "sql-loc", "", "build loc from the query's columns with `TEMPLATE`: \"https://www.example.com/p/{slug}\"")

	f.StringArrayVar(&o.logs, "log", nil, "an access log `FILE` (Common or Combined Log Format, gzipped or not) to list the pages of (repeatable)")
	f.StringArrayVar(&o.keepParams, "keep-param", nil, "--log: keep the query parameter `NAME` (others are dropped; repeatable)")
	f.StringArrayVar(&o.sitemaps, "sitemap", nil, "an existing sitemap, index, feed, folder, robots.txt or URL (`SOURCE`) to take the URLs of (repeatable)")
	f.StringArrayVar(&o.crawl.starts, "crawl", nil, "crawl the live site from this `URL` (repeatable), listing its indexable, canonical pages")
	o.crawl.register(f)

	f.StringArrayVar(&o.include, "include", nil, "keep only URLs whose path matches `PATTERN`: a glob (\"/blog/**\") or \"re:REGEXP\" (repeatable)")
	f.StringArrayVar(&o.exclude, "exclude", nil, "leave out URLs whose path matches `PATTERN` (repeatable; wins over --include)")
	f.StringArrayVar(&o.stripParams, "strip-param", nil, "remove the query parameter `NAME` from every URL (repeatable; default: session IDs; \"none\": nothing)")
	f.Var(&enumFlag{p: &c.URLEncoding, names: []string{"utf-8", "latin1"}, def: "utf-8"}, "url-encoding",
		"percent-encode URLs' non-ASCII characters as UTF-8, or as ISO-8859-1 bytes (latin1: ü as %FC) for a server that serves such URLs")
	f.StringVar(&c.Timezone, "timezone", "", "read date-times without a zone (a database's \"2024-05-02 10:00:00\") in this IANA `ZONE` (default UTC)")
	f.StringVar(&c.State, "state", "", "remember each page's content, lastmod and file in the SQLite `FILE` (created if missing; keep it out of --out):\nonly the files whose URLs changed are rewritten")
	f.BoolVar(&c.Feed, "feed", false, "also publish feed.xml, an Atom feed of the URLs latest added or changed (needs --state)")
	f.IntVar(&c.FeedEntries, "feed-entries", 0, fmt.Sprintf("list `N` URLs in the feed (default %d)", feed.DefaultEntries))
	f.StringVar(&c.Hub, "hub", "", "the WebSub hub `URL` the feed names (rel=\"hub\")")
	f.StringVar(&c.ContentSelector, "content-selector", "", "--lastmod content: the CSS `SELECTOR` of a page's main content (default: main, else article, else body)")
	f.StringVar(&c.IgnoreSelector, "ignore-selector", "", "--lastmod content: the CSS `SELECTOR` of elements that never count (\".views, .ad\")")
	f.BoolVar(&o.dryRun, "dry-run", false, "do everything but write: say what would change, leaving --out and --state as they are")
	f.BoolVar(&o.submit, "submit", false, "then tell search engines what this run changed, as sitemapkit submit does (needs --state; its flags apply)")
	o.sf.register(f, false)
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print nothing but errors")
	return cmd
}

// enumFlag is a string flag whose value is one of a few names.
type enumFlag struct {
	p     *string
	names []string
	def   string
}

// newChoiceFlag is the flag of a config key with a few values (see
// config.Choices), whose default is the key's.
func newChoiceFlag(p *string, key string) *enumFlag {
	names, def := config.Choices(key)
	return &enumFlag{p: p, names: names, def: def}
}

func (e *enumFlag) String() string {
	if *e.p == "" {
		return e.def
	}
	return *e.p
}

func (e *enumFlag) Set(s string) error {
	s = strings.ToLower(s)
	if !slices.Contains(e.names, s) {
		return fmt.Errorf("%q is not one of %s", s, strings.Join(e.names, ", "))
	}
	*e.p = s
	return nil
}

func (e *enumFlag) Type() string { return strings.Join(e.names, "|") }

// Choices are the values completion offers.
func (e *enumFlag) Choices() []string { return e.names }

// expectedURLs estimates how many URLs the files sources of cfg list, from
// each plain file's size and the lines in its first 64 KiB, so that the
// duplicate set is made the right size at once rather than grown. Files it
// cannot tell of (gzipped, the standard input, other sources) count 0: the
// set grows for them as it goes.
func expectedURLs(cfg *config.Config) int {
	n := 0
	for _, ss := range append([][]config.Source{cfg.Sources}, groupSources(cfg)...) {
		for _, s := range ss {
			if s.Type != config.TypeFiles {
				continue
			}
			for _, p := range s.Paths {
				n += linesIn(p)
			}
		}
	}
	return n
}

// linesIn estimates the lines of the plain file at path that may hold a
// URL; 0 when it cannot. Lines shorter than the shortest loc (12
// characters, the schema's), blank lines above all, are not counted: the
// set is made resident at its reserved size, 16 bytes a URL, and a file
// of a gigabyte of newlines reserved a billion URLs, and crashed the run.
func linesIn(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	head := make([]byte, 64<<10)
	k, _ := io.ReadFull(f, head)
	head = head[:k]
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		return 0
	}
	lines := 0
	for rest := head; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte{'\n'})
		if len(bytes.TrimSpace(line)) >= minLoc {
			lines++
		}
	}
	if lines == 0 {
		return 0
	}
	return int(float64(fi.Size()) * float64(lines) / float64(k))
}

// minLoc is the length of the shortest loc the sitemap schemas allow.
const minLoc = 12

// groupSources returns the sources of each of cfg's groups.
func groupSources(cfg *config.Config) [][]config.Source {
	var ss [][]config.Source
	for _, g := range cfg.Groups {
		ss = append(ss, g.Sources)
	}
	return ss
}

// encodingFlag is --input-encoding: the names source.ParseEncoding takes,
// kept as the canonical one.
type encodingFlag struct{ p *string }

func (e encodingFlag) String() string {
	if *e.p == "" {
		return source.UTF8.String()
	}
	return *e.p
}

func (e encodingFlag) Set(s string) error {
	enc, err := source.ParseEncoding(s)
	if err != nil {
		return err
	}
	*e.p = enc.String()
	return nil
}

func (e encodingFlag) Type() string { return strings.Join(e.Choices(), "|") }

// Choices are the values completion offers.
func (encodingFlag) Choices() []string {
	return []string{source.UTF8.String(), source.Latin1.String(), source.Windows1252.String()}
}

// genFormatFlag is generate's --format: the sitemaps' format (xml, txt),
// and json, which is the summary's. One flag for both, as validate's and
// read's --format name what they print; a comma or a second --format
// gives both ("txt,json").
type genFormatFlag struct {
	set         *enumFlag
	json, given *bool
}

func (g *genFormatFlag) String() string {
	s := g.set.String()
	if *g.json {
		if !*g.given {
			return "json"
		}
		s += ",json"
	}
	return s
}

func (g *genFormatFlag) Set(s string) error {
	for v := range strings.SplitSeq(s, ",") {
		v = strings.ToLower(strings.TrimSpace(v))
		if v == "json" {
			*g.json = true
			continue
		}
		was := *g.set.p
		if err := g.set.Set(v); err != nil {
			return fmt.Errorf("%q is not one of %s", v, strings.Join(g.Choices(), ", "))
		}
		if *g.given && was != v {
			return fmt.Errorf("%s and %s: a set has one format (json is the summary's, and goes with either)", was, v)
		}
		*g.given = true
	}
	return nil
}

func (g *genFormatFlag) Type() string { return g.set.Type() + "|json" }

// Choices are the values completion offers.
func (g *genFormatFlag) Choices() []string { return append(slices.Clone(g.set.names), "json") }

var _ pflag.Value = (*enumFlag)(nil)

// dedupeCost is what de-duplication costs, as publish.Options.NoDedupe
// says (TestDedupeFigure keeps the two, and the docs, the same).
const dedupeCost = "at most 16 bytes of memory per URL"

const generateHint = "sitemapkit generate --base https://www.example.com/ --out public/ urls.txt"

// hasSources reports whether a flag names a source.
func (o *generateOptions) hasSources() bool {
	return len(o.dirs)+len(o.logs)+len(o.sitemaps)+len(o.crawl.starts) > 0 || o.sqlQuery != ""
}

// runConfig is the run's setup: the config file, if any, with the flags
// given over it, or the flags alone. fromFile is how many of its Sources
// the file gave; those after are the flags'.
func (o *generateOptions) runConfig(flags *pflag.FlagSet, args []string) (cfg *config.Config, fromFile int, err error) {
	path := o.configPath
	if path == "" && len(args) == 0 && !o.hasSources() {
		if _, err := os.Stat(config.FileName); err != nil {
			return nil, 0, &usageError{
				msg:  "generate: no input (give files, \"-\" for the standard input, a source flag such as --dir, or a " + config.FileName + ")",
				hint: generateHint + "\n  or: sitemapkit init   (writes a " + config.FileName + " to edit)"}
		}
		path = config.FileName
	}
	cfg = &config.Config{}
	if path != "" {
		if cfg, err = config.Load(path); err != nil {
			return nil, 0, &exitError{code: exitUsage, err: err}
		}
	} else {
		switch {
		case o.set.Base == "":
			return nil, 0, &usageError{msg: "generate: --base is required" + requiredWhat["Base"], hint: generateHint}
		case o.set.Out == "":
			return nil, 0, &usageError{msg: "generate: --out is required" + requiredWhat["Dir"], hint: generateHint}
		}
	}
	// Without a file every flag applies, its default included; with one,
	// only the flags given override it.
	set := func(name string, apply func()) {
		if path == "" || flags.Changed(name) {
			apply()
		}
	}
	f := &o.set
	if o.crawl.resume {
		for _, ss := range append([][]config.Source{cfg.Sources}, groupSources(cfg)...) {
			for i := range ss {
				ss[i].Resume = ss[i].Type == config.TypeCrawl
			}
		}
	}
	if err := o.crawl.applyTo(flags, cfg); err != nil {
		return nil, 0, &usageError{msg: "generate: " + err.Error(), hint: "sitemapkit generate --help"}
	}
	if o.inputEncoding != "" {
		// The file's files sources without an encoding of their own
		// are read in the one given, as its inputs are.
		for _, ss := range append([][]config.Source{cfg.Sources}, groupSources(cfg)...) {
			for i := range ss {
				if ss[i].Type == config.TypeFiles && ss[i].Encoding == "" {
					ss[i].Encoding = o.inputEncoding
				}
			}
		}
	}
	set("base", func() { cfg.Base = f.Base })
	set("out", func() { cfg.Out = f.Out })
	set("public-url", func() { cfg.PublicURL = f.PublicURL })
	set("manifest", func() { cfg.Manifest = f.Manifest })
	set("name", func() { cfg.Name = f.Name })
	set("gzip", func() { cfg.Gzip = f.Gzip })
	if path == "" || o.formatGiven {
		cfg.Format = f.Format
	}
	set("index", func() { cfg.Index = f.Index })
	set("max-urls", func() { cfg.MaxURLs = f.MaxURLs })
	set("max-bytes", func() { cfg.MaxBytes = f.MaxBytes })
	set("no-dedupe", func() { cfg.KeepDuplicates = f.KeepDuplicates })
	set("strict", func() { cfg.Strict = f.Strict })
	set("timezone", func() { cfg.Timezone = f.Timezone })
	set("url-encoding", func() { cfg.URLEncoding = f.URLEncoding })
	set("state", func() { cfg.State = f.State })
	set("feed", func() { cfg.Feed = f.Feed })
	set("feed-entries", func() { cfg.FeedEntries = f.FeedEntries })
	set("hub", func() { cfg.Hub = f.Hub })
	set("content-selector", func() { cfg.ContentSelector = f.ContentSelector })
	set("ignore-selector", func() { cfg.IgnoreSelector = f.IgnoreSelector })
	o.sf.apply(flags, &cfg.Submit)
	if o.submit && cfg.State == "" {
		return nil, 0, &usageError{msg: "generate: --submit needs --state: it sends what the state records of this run", hint: generateHint + " --state .sitemapkit/state.db --submit"}
	}
	dirLastmod := o.lastmod
	if o.lastmod == "content" {
		cfg.Lastmod, dirLastmod = "content", ""
	}
	cfg.Filter.Include = append(cfg.Filter.Include, o.include...)
	cfg.Filter.Exclude = append(cfg.Filter.Exclude, o.exclude...)
	if len(o.stripParams) > 0 {
		cfg.Filter.StripParams = []string{}
		if !slices.Equal(o.stripParams, []string{"none"}) {
			cfg.Filter.StripParams = o.stripParams
		}
	}

	// byFlag names the flag behind each source the flags add, for errors.
	fromFile = len(cfg.Sources)
	byFlag := map[int]string{}
	add := func(flag string, s config.Source) {
		byFlag[len(cfg.Sources)] = flag
		cfg.Sources = append(cfg.Sources, s)
	}
	if len(args) > 0 {
		if i := slices.Index(args, "-"); i >= 0 && slices.Contains(args[i+1:], "-") {
			return nil, 0, &usageError{msg: `generate: "-" (the standard input) is given twice`, hint: generateHint}
		}
		for _, p := range args {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				return nil, 0, &usageError{msg: "generate: " + p + " is a folder, not an input file: a build folder is read with --dir, a folder of sitemaps with --sitemap",
					hint: "sitemapkit generate … --dir " + p}
			}
		}
		if o.inputFormat == "" || o.inputFormat == "auto" {
			for _, p := range args {
				if _, err := source.FormatOf(p); err != nil && p != "-" {
					return nil, 0, &usageError{msg: "generate: " + err.Error(), hint: "sitemapkit generate --input-format txt|csv|jsonl … " + p}
				}
			}
		}
		add("INPUT", config.Source{Type: config.TypeFiles, Paths: args, Format: o.inputFormat, Encoding: o.inputEncoding})
	}
	// The settings of one kind of input, given without it, would be
	// ignored without a word: refused.
	dir, log := "--dir public/", "--log access.log" // the inputs, as a hint gives them
	for _, set := range []struct {
		name, input       string
		given, inputGiven bool
	}{
		{"strip-html", dir, o.stripHTML, len(o.dirs) > 0},
		{"include-files", dir, len(o.includeFiles) > 0, len(o.dirs) > 0},
		{"exclude-files", dir, len(o.excludeFiles) > 0, len(o.dirs) > 0},
		{"images", dir, o.images, len(o.dirs) > 0},
		{"keep-param", log, len(o.keepParams) > 0, len(o.logs) > 0},
	} {
		if set.given && !set.inputGiven {
			flag, _, _ := strings.Cut(set.input, " ")
			return nil, 0, &usageError{msg: fmt.Sprintf("generate: --%s applies to %s, and none is given (a config file's sources take the key in their [[source]])", set.name, flag),
				hint: "sitemapkit generate … " + set.input + " --" + set.name}
		}
	}
	if flags.Changed("lastmod") && o.lastmod != "content" && o.lastmod != "auto" && len(o.dirs) == 0 {
		return nil, 0, &usageError{msg: fmt.Sprintf("generate: --lastmod %s applies to --dir, and none is given (content applies to every input; a config file's sources take lastmod in their [[source]])", o.lastmod),
			hint: "sitemapkit generate … " + dir + " --lastmod " + o.lastmod}
	}
	for _, d := range o.dirs {
		add("--dir "+d, config.Source{Type: config.TypeDir, Path: d, StripHTML: o.stripHTML,
			IncludeFiles: o.includeFiles, ExcludeFiles: o.excludeFiles, Lastmod: dirLastmod, Images: o.images})
	}
	switch {
	case o.sqlQuery != "" && (o.sqlDriver == "" || o.sqlDSN == "" && o.sqlDSNEnv == ""):
		return nil, 0, &usageError{msg: "generate: --sql-query needs --sql-driver and --sql-dsn (or --sql-dsn-env)",
			hint: `sitemapkit generate … --sql-driver sqlite --sql-dsn shop.db --sql-query "SELECT loc, updated_at AS lastmod FROM pages"`}
	case o.sqlQuery != "":
		add("--sql-query", config.Source{Type: config.TypeSQL, Driver: o.sqlDriver, DSN: o.sqlDSN, DSNEnv: o.sqlDSNEnv,
			Query: o.sqlQuery, Loc: o.sqlLoc})
	case o.sqlDriver != "" || o.sqlDSN != "" || o.sqlDSNEnv != "" || o.sqlLoc != "":
		return nil, 0, &usageError{msg: "generate: --sql-driver, --sql-dsn, --sql-dsn-env and --sql-loc need --sql-query",
			hint: `sitemapkit generate … --sql-driver sqlite --sql-dsn shop.db --sql-query "SELECT loc, updated_at AS lastmod FROM pages"`}
	}
	if len(o.logs) > 0 {
		add("--log", config.Source{Type: config.TypeLog, Paths: o.logs, KeepParams: o.keepParams})
	}
	if len(o.sitemaps) > 0 {
		add("--sitemap", config.Source{Type: config.TypeSitemap, Paths: o.sitemaps})
	}
	if len(o.crawl.starts) > 0 {
		if err := o.crawl.check(); err != nil {
			return nil, 0, &usageError{msg: "generate: " + err.Error(), hint: "sitemapkit generate --help"}
		}
		add("--crawl", o.crawl.source())
	}
	if path != "" && len(cfg.Sources) == 0 && len(cfg.Groups) == 0 {
		return nil, 0, &exitError{code: exitUsage, err: fmt.Errorf("%s: no [[source]] or [[group]]: nothing to build from", path)}
	}
	// Load checked the file alone: what is wrong now is a flag's value (or
	// a flag against the file), to be named as the flag, not placed at the
	// file's line of the key, which holds another value.
	if err := cfg.Detach().Validate(); err != nil {
		return nil, 0, &usageError{msg: "generate: " + flagWords(err, byFlag), hint: "sitemapkit generate --help"}
	}
	return cfg, fromFile, nil
}

// keyFlags are the flags that set the keys of sources and filters, for
// errors about a Config built from flags. The builder's options are named
// by config.NameOf.
var keyFlags = map[string]string{
	"include": "--include", "exclude": "--exclude",
	"strip_params": "--strip-param", "include_files": "--include-files", "exclude_files": "--exclude-files",
	"lastmod": "--lastmod", "driver": "--sql-driver", "dsn": "--sql-dsn", "query": "--sql-query",
	"loc": "--sql-loc", "keep_params": "--keep-param", "paths": "", "dsn_env": "--sql-dsn-env",
	"keep_duplicates": "--no-dedupe", "state": "--state", "feed": "--feed", "feed_entries": "--feed-entries",
	"concurrency": "--concurrency", "rate": "--rate", "hosts": "--crawl-host", "budget": "--crawl-budget", "max_pages": "--max-pages", "max_depth": "--max-depth",
	"hub": "--hub", "content_selector": "--content-selector", "ignore_selector": "--ignore-selector", "timezone": "--timezone",
	"manifest": "--manifest", "encoding": "--input-encoding", "url_encoding": "--url-encoding",
}

// requiredWhat says what a required option given as empty is.
var requiredWhat = map[string]string{"Base": " (the site's URL)", "Dir": " (the folder to publish into)"}

// flagWords words the errors of a Config built from flags as the flags
// are spelled: a bad option is named by its flag ("--max-urls 60000 is
// out of range"), and "source #2: " becomes the flag that made source 2.
func flagWords(err error, byFlag map[int]string) string {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	var msgs []string
	for _, err := range errs {
		if oe, ok := errors.AsType[*publish.OptionError](err); ok {
			msg := oe.Named(config.NameOf(oe.Field).Flag)
			if errors.Is(oe, publish.ErrRequired) {
				msg += requiredWhat[oe.Field]
			}
			msgs = append(msgs, msg)
			continue
		}
		var ce *config.Error
		if !errors.As(err, &ce) {
			msgs = append(msgs, err.Error())
			continue
		}
		msg := ce.Msg
		if rest, ok := strings.CutPrefix(msg, "source #"); ok {
			n, after, _ := strings.Cut(rest, ": ")
			if k, err := strconv.Atoi(n); err == nil && byFlag[k-1] != "" {
				msg = byFlag[k-1] + ": " + after
			}
		}
		flag, after, _ := strings.Cut(msg, ": ")
		word, tail, _ := strings.Cut(after, " ")
		if f, ok := keyFlags[strings.TrimSuffix(word, ":")]; ok {
			msg = flag + ": " + strings.TrimSpace(f+" "+tail)
		} else if word, tail, _ := strings.Cut(msg, " "); keyFlags[word] != "" {
			msg = keyFlags[word] + " " + tail
		}
		msgs = append(msgs, msg)
	}
	return strings.Join(msgs, "\n  ")
}

func runGenerate(ctx context.Context, a *app, flags *pflag.FlagSet, o *generateOptions, args []string) error {
	limitHeap(generateHeap)
	cfg, fromFile, err := o.runConfig(flags, args)
	if err != nil {
		return err
	}
	stdin, release := interruptible(ctx, a.stdin)
	defer release()
	cfg.Stdin = stdin
	// The databases the command reads: linked here, not by source.
	cfg.SQLDrivers = []source.SQLDriver{sqlite.Driver{}, postgres.Driver{}}
	cfg.UserAgent = discover.UserAgent(version())
	// The browser of --render starts with the first page that needs it.
	browser := &render.Chromium{UserAgent: cfg.UserAgent}
	defer browser.Close()
	cfg.Renderer = browser
	// A source a flag added is not in the file: its errors must not be
	// placed there.
	flagged := cfg.Detach()
	type set struct {
		name    string
		sources []config.Source
	}
	sets := []set{{"", cfg.Sources}}
	for _, g := range cfg.Groups {
		sets = append(sets, set{g.Name, g.Sources})
	}
	// Every input is resolved before anything is built: a missing file or
	// a bad option is a usage error, not a half-read run.
	var inputs [][]config.Input
	for k, st := range sets {
		var ins []config.Input
		for i := range st.sources {
			c := cfg
			if k == 0 && i >= fromFile {
				c = flagged
			}
			more, err := st.sources[i].Inputs(c)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			ins = append(ins, more...)
		}
		inputs = append(inputs, ins)
	}
	for _, ins := range inputs {
		for i := range ins {
			if err := ins[i].Check(); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
		}
	}

	bopts := cfg.BuildOptions()
	// Duplicates are dropped as the inputs are read, a batch at a time on
	// the goroutine that parses them, rather than one at a time by the
	// Builder on the one that encodes (a state drops its own). Not
	// released here: a read-ahead stopped by an error may still be in it;
	// the set is freed once it is garbage.
	var seen *publish.Seen
	if cfg.State == "" && !bopts.NoDedupe {
		seen = publish.NewSeen()
		seen.Reserve(expectedURLs(cfg))
		// The room is the input's size: its pages would all be touched.
		// Made resident at once, on another goroutine, they cost the
		// read-ahead no page fault each.
		seen.Populate()
		bopts.NoDedupe = true
	}
	var tr *tracker
	if cfg.State != "" {
		now, err := runTime(os.Getenv)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		if tr, err = openTracker(ctx, cfg, o.dryRun, now); err != nil {
			return stateError(err)
		}
		defer tr.close()
		// The state keeps each URL in its file, and drops duplicates.
		bopts.Stable, bopts.NoDedupe = true, true
		if cfg.Lastmod == "content" {
			bopts.ChangedAt = now
		}
	}
	// The options passed Check in Validate: New fails only for the folder.
	b, err := publish.New(bopts)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	defer b.Abort()
	var planned *publish.Result // with --dry-run, the set that would be published
	b.BeforeSwap(func(res *publish.Result) error {
		if o.dryRun {
			planned = res
			return errDryRun
		}
		if tr == nil {
			return nil
		}
		killAt("before-commit")
		if err := tr.run.Commit(ctx, res); err != nil {
			return err
		}
		killAt("committed")
		return nil
	})

	rep := newRefusals()
	var notes []string
	var extended bool // a URL has extensions: the set written is checked
	var dups int      // duplicates the inputs' filters dropped (seen)
	prog := startProgress(a, o.quiet)
	defer prog.stop()
	for k, st := range sets {
		if err := b.Group(ctx, st.name); err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		for i := range inputs[k] {
			if err := addInput(ctx, b, tr, seen, st.name, &inputs[k][i], rep, prog, &notes, &extended, &dups); err != nil {
				return err
			}
			if err := tr.restore(ctx, b, bopts.Dir, st.name, false); err != nil {
				return stateError(err)
			}
		}
	}
	if err := tr.restore(ctx, b, bopts.Dir, "", true); err != nil {
		return stateError(err)
	}
	prog.stop()
	killAt("read")

	if cfg.Strict && rep.total+rep.dropped.total > 0 {
		b.Abort()
		rep.printAs(a.stderr, "--strict: nothing was published")
		rep.dropped.printAs(a.stderr, "--strict: nothing was published")
		return &exitError{code: exitInputErrors,
			err: fmt.Errorf("--strict: %s refused; nothing was published", rep.what())}
	}
	res, err := b.Publish(ctx)
	// With a state, duplicates are the state's to drop (the Builder keeps
	// none), and without one the inputs' filters'; the summary counts them
	// as always.
	shown := bopts
	if seen != nil {
		shown.NoDedupe = false
		if res != nil {
			res.Duplicates += dups
		}
		if planned != nil {
			planned.Duplicates += dups
		}
	}
	if tr != nil {
		shown.NoDedupe = false
		if res != nil {
			res.Duplicates += tr.run.Counts().Duplicates
		}
		if planned != nil {
			planned.Duplicates += tr.run.Counts().Duplicates
		}
	}
	if errors.Is(err, errDryRun) {
		if tr != nil {
			notes = append(notes, tr.changeLines(planned, true, bopts.Dir)...)
		}
		if o.jsonSummary {
			return printJSONSummary(a.stdout, shown, planned, rep, notes, nil)
		}
		if !o.quiet {
			printSummary(a, shown, planned, rep, notes)
		}
		return nil
	}
	if err != nil {
		rep.printAs(a.stderr, "nothing was published")
		switch {
		case errors.Is(err, context.Canceled):
			return err
		case errors.Is(err, publish.ErrEmpty):
			// What the inputs said (a crawl's reasons) says why.
			for _, n := range notes {
				fmt.Fprintln(a.stderr, n)
			}
			return &exitError{code: exitInputErrors, err: errors.New("no URL to publish; the published set is left as it was")}
		case errors.Is(err, publish.ErrNeedsIndex):
			return &exitError{code: exitInputErrors, err: fmt.Errorf("%w (--index never); nothing was published", err)}
		}
		return &exitError{code: exitUsage, err: fmt.Errorf("publishing into %s: %w; the published set is left as it was", bopts.Dir, err)}
	}
	// A group left without URLs (its inputs empty, filtered out or all
	// duplicates of earlier ones) has no file: nothing else would say so.
	for _, g := range cfg.Groups {
		if !slices.ContainsFunc(res.Files, func(f publish.File) bool { return f.Group == g.Name }) {
			notes = append(notes, fmt.Sprintf("Group %q: no URL, so no file of its own.", g.Name))
		}
	}
	notes = append(notes, formatNotes(bopts, res)...)
	if strings.EqualFold(cfg.URLEncoding, "latin1") {
		notes = append(notes, "Non-ASCII characters written in URLs percent-encoded as ISO-8859-1 (--url-encoding latin1): ü is %FC, not %C3%BC; escapes already in URLs, and --dir pages (named by their files' bytes), are kept.")
	}
	if tr != nil {
		killAt("swapped")
		if err := tr.run.MarkPublished(ctx); err != nil {
			// The set is live and the state holds its changes; the next
			// run sees this one as not published, and says so.
			res.Warnings = append(res.Warnings, err.Error())
		}
		notes = append(notes, tr.changeLines(res, false, bopts.Dir)...)
		if cfg.Feed {
			note, err := tr.writeFeed(ctx, cfg, bopts.WithDefaults())
			if err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("the set was published, but not its feed: %w", err)}
			}
			notes = append(notes, note)
		}
		killAt("feed-written")
	}
	// Read back once the run's work is done: the set is live, the state
	// knows it, and an interrupt here loses only the report.
	var checked *lint.Report
	switch {
	case !extended || bopts.Format == sitemap.FormatText:
	case crossHost(bopts):
		notes = append(notes, "Not checked as sitemapkit validate would: the sitemaps are on another host than the site, which only the site's robots.txt vouches for; validate the site once deployed.")
	default:
		if checked, err = checkWritten(ctx, bopts, res); err != nil {
			notes = append(notes, "The check of the set written was interrupted; the set is published (sitemapkit validate checks it).")
		} else {
			notes = append(notes, checkLines(checked)...)
		}
	}

	switch {
	case o.jsonSummary:
		if err := printJSONSummary(a.stdout, shown, res, rep, notes, checked); err != nil {
			return err
		}
	case !o.quiet:
		printSummary(a, shown, res, rep, notes)
	case rep.total > 0:
		rep.print(a.stderr)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(a.stderr, "sitemapkit: warning: %s\n", w)
	}
	if o.submit && tr != nil {
		tr.close() // the run's hold on the state ends before submit takes it
		sa := *a
		if o.jsonSummary {
			sa.stdout = a.stderr // stdout holds one JSON document
		}
		if err := runSubmit(ctx, &sa, cfg, &o.sf, o.quiet); err != nil {
			return err
		}
	}
	return refusedError(rep)
}

// refusedError is the exit of a run that published the set: 1 when lines
// were refused.
func refusedError(rep *refusals) error {
	if rep.total > 0 {
		return &exitError{code: exitInputErrors,
			err: fmt.Errorf("%s refused; the set was published without them", countOf(rep.total, "line"))}
	}
	return nil
}

// addInput adds every URL of one input, recording what is refused and
// what the input says of itself (a log's skipped lines, a filter's drops).
// An input that cannot be read to its end stops the run: publishing the
// rest would drop its URLs from the live set.
func addInput(ctx context.Context, b *publish.Builder, tr *tracker, seen *publish.Seen, group string, in *config.Input, rep *refusals, prog *progress, notes *[]string, extended *bool, dups *int) error {
	src, closeInput, err := in.Open(ctx)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return &exitError{code: exitUsage, err: err}
	}
	defer closeInput()
	// Parse the input on one core while the set is built on the other.
	var ahead *source.Ahead
	if seen != nil {
		ahead = source.ReadAheadUnique(src, seen.AddBatch)
	} else {
		ahead = source.ReadAhead(src)
	}
	defer ahead.Close()
	onError := func(err error) error {
		if ahead.Err() != nil {
			return err
		}
		var v *sitemap.Violation
		var pe *source.ParseError
		var fd *publish.FieldsDropped
		switch {
		case errors.As(err, &fd):
			for _, v := range fd.Violations {
				rep.dropped.add(v.Rule, ahead.Place()+": "+v.Error())
			}
		case errors.As(err, &v):
			rep.add(v.Rule, ahead.Place()+": "+v.Error())
		case errors.As(err, &pe):
			rep.add("input-error", pe.Error())
			tr.failedRead(pe)
		default:
			return err
		}
		return nil
	}
	for u, rerr := range prog.count(ahead.All()) {
		if rerr == nil {
			if !*extended && hasExtensions(&u) {
				*extended = true
			}
			// b.Add called here, not through a func value, lets u stay
			// on the stack: a heap copy per URL costs a fifth of a run.
			if tr == nil {
				rerr = b.Add(ctx, &u)
			} else {
				rerr = tr.add(ctx, b, ahead, group, u)
			}
			if rerr != nil && b.Err() != nil {
				err = rerr
				break
			}
		}
		if rerr != nil {
			if err = onError(rerr); err != nil {
				break
			}
		}
	}
	switch {
	case ctx.Err() != nil && (err != nil || ahead.Err() != nil):
		// An input cut short by the signal (see interruptible).
		return ctx.Err()
	case err == nil:
		// The stream is over: what its sources counted is final.
		*notes = append(*notes, inputNotes(src)...)
		*dups += ahead.Duplicates()
		return nil
	case errors.Is(err, context.Canceled):
		return err
	case ahead.Err() != nil:
		return &exitError{code: exitInputErrors, err: fmt.Errorf("%w; nothing was published", err)}
	case errors.Is(err, publish.ErrNeedsIndex):
		return &exitError{code: exitInputErrors, err: fmt.Errorf("%w (--index never); nothing was published", err)}
	}
	return &exitError{code: exitUsage, err: fmt.Errorf("%w; nothing was published", err)}
}

// errDryRun stops a --dry-run's Publish before the swap.
var errDryRun = errors.New("dry run")

// formatNotes says what the set's format and layout did with the options
// that a user could think ignored.
func formatNotes(o publish.Options, res *publish.Result) []string {
	var notes []string
	if o.Format == sitemap.FormatText {
		notes = append(notes, "Text sitemaps hold URLs only: the inputs' lastmod, changefreq, priority, images, videos, news and alternates are not written (--format xml keeps them).")
	}
	if o.Gzip && len(res.Files) == 1 && !res.Files[0].Index && res.Files[0].GzipBytes == 0 {
		notes = append(notes, "Not gzipped: the set fits in one file, "+res.Files[0].Name+", the file to submit, whose name must not change with the set's size; --gzip applies to the files of an index.")
	}
	return notes
}
