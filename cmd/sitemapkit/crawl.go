package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemapkit/config"
	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/render"
	"github.com/sitemapkit/sitemapkit/source"
)

// crawlFlags are the crawl's settings, for generate's --crawl and for the
// crawl command: one definition of each.
type crawlFlags struct {
	starts       []string
	hosts        []string
	concurrency  int
	rate         float64
	maxPages     int
	maxDepth     int
	files        []string
	skipNofollow bool
	render       bool
	log          string
	dir          string
	resume       bool
	budget       time.Duration
}

func (c *crawlFlags) register(f *pflag.FlagSet) {
	f.StringArrayVar(&c.hosts, "crawl-host", nil, "crawl: also crawl the pages of this `HOST` (repeatable); the start's scheme, host and folder are always in scope")
	f.IntVar(&c.concurrency, "concurrency", source.DefaultCrawlConcurrency, "crawl: pages fetched at once from one host (and as many from each --crawl-host)")
	f.Float64Var(&c.rate, "rate", source.DefaultCrawlRate, "crawl: most requests a second to one host (0: no limit)")
	f.IntVar(&c.maxPages, "max-pages", source.DefaultCrawlMaxPages, "crawl: most pages fetched")
	f.IntVar(&c.maxDepth, "max-depth", source.DefaultCrawlMaxDepth, "crawl: most links from a start to a page")
	f.StringArrayVar(&c.files, "crawl-files", nil, "crawl: also list files other than HTML pages whose path matches this `PATTERN`, e.g. \"**/*.pdf\" (repeatable)")
	f.BoolVar(&c.skipNofollow, "skip-nofollow", false, "crawl: do not follow links marked rel=\"nofollow\"")
	f.BoolVar(&c.render, "render", false, "crawl: render the pages whose links look written by their scripts in headless Chromium (Debian's chromium)")
	f.StringVar(&c.log, "crawl-log", "", "crawl: write every URL met to `FILE` as JSON Lines: status, depth, where it was found, why it was left out")
	f.StringVar(&c.dir, "crawl-dir", "", "crawl: keep the frontier past 10,000 URLs, the pages listed and what --resume needs (recorded every minute and when stopped) in `DIR`\n(default .sitemapkit/crawl-XXXXXXXX, named by the start URLs)")
	f.DurationVar(&c.budget, "crawl-budget", source.DefaultCrawlBudget, "crawl: stop after this `DURATION` (resumable with --resume)")
	f.BoolVar(&c.resume, "resume", false, "crawl: carry on the crawl stopped (Ctrl-C, its time budget) in --crawl-dir, listing what it had found")
}

// check refuses the values of the flags that mean nothing, said as the
// flags are spelled: a crawl's flag defaults are numbers, so a 0 given is
// a mistake, not a request for the default.
func (c *crawlFlags) check() error {
	var errs []string
	if c.concurrency == 0 { // the source's own check takes the others
		errs = append(errs, "--concurrency 0 is out of range: 1 to 256")
	}
	if c.maxPages < 1 {
		errs = append(errs, fmt.Sprintf("--max-pages %d: at least 1 page", c.maxPages))
	}
	if c.maxDepth < 1 {
		errs = append(errs, fmt.Sprintf("--max-depth %d: at least 1 (the start's links)", c.maxDepth))
	}
	s := c.source()
	if len(s.Paths) == 0 {
		// The settings alone, given for a config file's crawls, which
		// have their own starts.
		s.Paths = []string{"https://www.example.com/"}
	}
	if c.maxPages < 1 || c.maxDepth < 1 {
		s.MaxPages, s.MaxDepth = max(c.maxPages, 0), max(c.maxDepth, 0) // said above
	}
	if err := s.Validate(); err != nil {
		errs = append(errs, flagWords(err, nil))
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "\n  "))
}

// applyTo puts the crawl flags given over the crawl sources of cfg, the
// file's (the flags' own --crawl source is made from them later), as
// flags override the file's settings: --max-pages 10 limits the file's
// crawl too. --crawl-log and --crawl-dir name one file and one folder:
// they go to --crawl's crawl, or, without one, to the file's crawl source
// when it has exactly one. A crawl flag with nothing to crawl is refused,
// not ignored.
func (c *crawlFlags) applyTo(flags *pflag.FlagSet, cfg *config.Config) error {
	settings := pflag.NewFlagSet("", pflag.ContinueOnError)
	(&crawlFlags{}).register(settings) // the crawl's settings, and --resume
	var given []string
	flags.Visit(func(f *pflag.Flag) {
		if f.Name != "resume" && settings.Lookup(f.Name) != nil {
			given = append(given, "--"+f.Name)
		}
	})
	if len(given) == 0 {
		return nil
	}
	var files []*config.Source
	for _, ss := range append([][]config.Source{cfg.Sources}, groupSources(cfg)...) {
		for i := range ss {
			if ss[i].Type == config.TypeCrawl {
				files = append(files, &ss[i])
			}
		}
	}
	if len(files) == 0 {
		if len(c.starts) == 0 {
			return fmt.Errorf("%s: a crawl setting, and nothing is crawled (give --crawl URL, or a crawl source in the config file)", given[0])
		}
		return nil
	}
	if err := c.check(); err != nil {
		return err
	}
	for _, name := range []string{"crawl-log", "crawl-dir"} {
		if flags.Changed(name) && len(c.starts) == 0 && len(files) > 1 {
			return fmt.Errorf("--%s names one crawl's, and the config file has %d crawl sources: set %s in each", name, len(files), strings.ReplaceAll(name, "-", "_"))
		}
	}
	for _, s := range files {
		set := func(name string, apply func()) {
			if flags.Changed(name) {
				apply()
			}
		}
		set("crawl-host", func() { s.Hosts = c.hosts })
		set("concurrency", func() { s.Concurrency = c.concurrency })
		set("rate", func() { r := c.rate; s.Rate = &r })
		set("max-pages", func() { s.MaxPages = c.maxPages })
		set("max-depth", func() { s.MaxDepth = c.maxDepth })
		set("crawl-files", func() { s.IncludeFiles = c.files })
		set("skip-nofollow", func() { s.SkipNofollow = c.skipNofollow })
		set("render", func() { s.Render = c.render })
		set("crawl-budget", func() { s.Budget = c.budget.String() })
		if len(c.starts) == 0 {
			set("crawl-log", func() { s.CrawlLog = c.log })
			set("crawl-dir", func() { s.CrawlDir = c.dir })
		}
	}
	return nil
}

// source is the crawl as a config source.
func (c *crawlFlags) source() config.Source {
	s := config.Source{Type: config.TypeCrawl, Paths: c.starts, Hosts: c.hosts, Concurrency: c.concurrency,
		MaxPages: c.maxPages, MaxDepth: c.maxDepth, SkipNofollow: c.skipNofollow, Render: c.render, CrawlLog: c.log,
		CrawlDir: c.dir, Resume: c.resume, Budget: c.budget.String()}
	if s.CrawlDir == "" {
		s.CrawlDir = config.DefaultCrawlDir(c.starts)
	}
	s.IncludeFiles = c.files
	rate := c.rate
	s.Rate = &rate
	return s
}

func newCrawlCommand(a *app) *cobra.Command {
	c := &crawlFlags{}
	cmd := &cobra.Command{
		Use:   "crawl [flags] URL...",
		Short: "Crawl a live site and print the pages that belong in its sitemap, as JSON Lines",
		Long: `Crawl fetches a live site the way a search engine does, from the URLs
given, and prints each page that belongs in its sitemap as a JSON line, the
input generate reads (sitemapkit crawl URL > pages.jsonl; sitemapkit
generate --base URL --out DIR pages.jsonl), or use generate --crawl URL.

A page is listed when it answers 200 with HTML (or is a file --crawl-files
names), is indexable (no noindex in a robots or googlebot meta tag or an
X-Robots-Tag header) and is canonical (a page whose rel=canonical, in its
head or its Link header, names another URL is left out, and that URL
crawled). Its hreflang alternates (head or Link header) and images come
with it.

Polite: robots.txt is obeyed for sitemapkit's User-Agent (an unreachable
one disallows everything), --rate requests a second and --concurrency pages
at once per host at most, 429 and 503 answers are retried after their
Retry-After (every request to the host waiting as long), and the crawl
stops at --max-pages, --max-depth and --crawl-budget (an hour). Scope: the
start's scheme, host and folder (the sitemap scope rule), and --crawl-host
hosts; every URL fetched, each redirect hop and canonical target included,
is checked against scope and robots.txt first. Traps are capped: more than
8 query parameters, a path segment repeated more than 3 times, more than
1,000 URLs of one shape (digits aside: a calendar), more than 10 redirects
and canonicals in a row, more than 5,000 links on a page (docs/limits.md).

A page whose canonical names a broken URL (an error, a redirect, noindex)
is listed: search engines ignore such a canonical.

JavaScript: a page with scripts and no link is counted as client-rendered;
with --render it is rendered in headless Chromium (Debian's chromium
package), each request of the browser held to robots.txt and --rate (and a
navigation to the scope), and its links, canonical and robots meta read
from what its scripts leave.

--crawl-log FILE records every URL met and why it was left out; the summary
on stderr groups the reasons.

Memory stays flat: past 10,000 URLs the frontier goes to --crawl-dir, and
the URLs met are kept as 8-byte hashes. Stopped by Ctrl-C or its time
budget, the crawl leaves what it needs there, and it records where it is
every minute, so that a crawl killed can be carried on too: run the same
command with --resume (the pages found before are printed again).

EXIT STATUS
  0  the crawl ended, and listed a page at least
  1  no page listed, or the crawl stopped early, by an error or its time
     budget (then --resume carries it on): the pages found are printed
  2  usage error, or a crawl folder that cannot be used
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP): the pages found are printed,
       and --resume carries it on`,
		Example: `  sitemapkit crawl https://www.example.com/ > pages.jsonl
  sitemapkit crawl --crawl-log crawl.jsonl --max-pages 5000 https://www.example.com/blog/
  sitemapkit generate --base https://www.example.com/ --out public/ --crawl https://www.example.com/`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &usageError{msg: "crawl needs a URL to start at", hint: "sitemapkit crawl https://www.example.com/"}
			}
			for _, u := range args {
				if !isHTTPURL(u) {
					return &usageError{msg: fmt.Sprintf("crawl: %q is not an http(s) URL", u), hint: "sitemapkit crawl https://www.example.com/"}
				}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			c.starts = args
			if err := c.check(); err != nil {
				return &usageError{msg: "crawl: " + err.Error(), hint: "sitemapkit crawl --help"}
			}
			return runCrawl(cmd.Context(), a, c)
		},
	}
	c.register(cmd.Flags())
	return cmd
}

// runCrawl crawls with c and prints the pages as JSON Lines.
func runCrawl(ctx context.Context, a *app, c *crawlFlags) error {
	cfg := &config.Config{Sources: []config.Source{c.source()}}
	cfg.UserAgent = discover.UserAgent(version())
	browser := &render.Chromium{UserAgent: cfg.UserAgent}
	defer browser.Close()
	cfg.Renderer = browser
	ins, err := cfg.Sources[0].Inputs(cfg)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	src, closeSrc, err := ins[0].Open(ctx)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	var cr *source.Crawl
	for s := range chain(src) {
		if c, ok := s.(*source.Crawl); ok {
			cr = c
		}
	}
	stopProgress := crawlProgress(a, cr)
	defer stopProgress()
	w := bufio.NewWriterSize(a.stdout, flushSize)
	var buf []byte
	n := 0
	for u, err := range src.All() {
		if err != nil {
			// What was found is printed: a resume prints it again, but a
			// reader of the output should not lose it.
			w.Flush()
			closeSrc()
			return &exitError{code: exitInputErrors, err: err}
		}
		buf = source.AppendJSONL(buf[:0], &u, "")
		w.Write(buf)
		n++
	}
	if err := closeSrc(); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if err := w.Flush(); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing output: %w", err)}
	}
	stopProgress()
	if cr != nil {
		st := cr.Stats()
		for _, l := range crawlNote(st) {
			fmt.Fprintln(a.stderr, l)
		}
		if st.Listed+st.Resumed == 0 {
			return &exitError{code: exitInputErrors, err: errors.New("crawl: no page listed (the reasons are above)")}
		}
	}
	return nil
}

// crawlProgress shows, on a terminal, a line of the crawl's progress
// (pages fetched, queued, a second) until the returned func is called.
func crawlProgress(a *app, cr *source.Crawl) (stop func()) {
	f, ok := a.stderr.(*os.File)
	if cr == nil || !ok || !isTerminal(f) {
		return func() {}
	}
	done := make(chan struct{})
	var once sync.Once
	start := time.Now()
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(f, "\r\033[K")
				return
			case <-t.C:
				s := cr.Stats()
				fmt.Fprintf(f, "\r\033[Kcrawl: %s fetched, %s queued, %s listed, %.0f pages/s", group(s.Fetched), group(s.Queued), group(s.Listed),
					float64(s.Fetched)/time.Since(start).Seconds())
			}
		}
	}()
	return func() { once.Do(func() { close(done) }) }
}

// crawlNote words a crawl's counts for a summary.
func crawlNote(s source.CrawlStats) []string {
	listed := countOf(s.Listed+s.Resumed, "URL") + " listed"
	if s.Resumed > 0 {
		listed += fmt.Sprintf(" (%s before the stop)", group(s.Resumed))
	}
	lines := []string{fmt.Sprintf("Crawl: %s fetched, %s.", countOf(s.Fetched, "page"), listed)}
	if len(s.Reasons) > 0 {
		var parts []string
		total := 0
		for _, r := range slices.Sorted(maps.Keys(s.Reasons)) {
			parts = append(parts, r+" "+group(s.Reasons[r]))
			total += s.Reasons[r]
		}
		lines = append(lines, fmt.Sprintf("  left out: %s (%s)", countOf(total, "URL"), strings.Join(parts, ", ")))
		for _, r := range slices.Sorted(maps.Keys(s.Examples)) {
			e := s.Examples[r]
			ex := e.URL
			switch {
			case e.Detail != "":
				ex += " (" + e.Detail + ")"
			case e.Target != "":
				ex += " -> " + e.Target
			}
			lines = append(lines, fmt.Sprintf("    %s: %s", r, ex))
		}
	}
	if s.Unlogged > 0 {
		lines = append(lines, fmt.Sprintf("  left out, and not logged once the crawl met more URLs than it remembers (4 × --max-pages): %s.", countOf(s.Unlogged, "URL")))
	}
	if s.LinksCut > 0 {
		lines = append(lines, fmt.Sprintf("  pages with more than %s links, the rest not followed: %s.", group(source.MaxCrawlLinks), group(s.LinksCut)))
	}
	switch {
	case s.ClientRendered > 0 && s.Rendered+s.RenderErrors == 0:
		lines = append(lines, fmt.Sprintf("  pages that look client-rendered (scripts, no link): %s; their links are written by JavaScript, which --render runs.", group(s.ClientRendered)))
	case s.Rendered+s.RenderErrors > 0:
		l := fmt.Sprintf("  pages rendered in Chromium: %s (%s failed).", group(s.Rendered), group(s.RenderErrors))
		if s.RenderError != "" {
			l += " The first failure: " + s.RenderError
		}
		lines = append(lines, l)
	}
	return lines
}
