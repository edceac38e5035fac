package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/lint"
)

type validateOptions struct {
	listRules  bool
	format     string
	maxPerRule int
	site       discover.Options
}

func newValidateCommand(a *app) *cobra.Command {
	o := &validateOptions{}
	cmd := &cobra.Command{
		Use:   "validate [flags] FILE|DIR|URL...",
		Short: "Check sitemaps, indexes and whole sites against the protocol and Google's rules",
		Long: `Validate checks sitemaps the way Search Console reads them and reports every
problem with its place and a stable rule ID (sitemapkit help rules lists them):

  FILE:LINE:COL: error[rule-id]: message

then a summary: files, URLs, errors, warnings and infos by rule.

What it reads:
  FILE      a sitemap, index, text sitemap or RSS/Atom feed, gzipped or not
            (the format is detected from the content)
  DIR       every sitemap file in the folder, detected by content; files an
            index there lists are read as its children
  URL       a site root (https://www.example.com/) or a robots.txt URL: its
            Sitemap: lines, then every index's children; or a sitemap URL

A local index's children are read from the index's folder when a file with
the child's base name is there (a site's sitemaps copied to disk, or
generate's output); otherwise they are fetched, unless --offline. --base
gives local files their public URL, for the scope rules (same host, inside
the sitemap's directory).

Over HTTP it reports HTTP errors, redirects, sitemaps blocked by robots.txt
for its User-Agent, and sitemaps on another host that no robots.txt
declares. Loops (an index listing itself, robots.txt listing itself,
redirect cycles) are caught; indexes nested deeper than --max-depth are not
followed.

--format json prints one JSON document instead (see docs/validate.md).

EXIT STATUS
  0  no errors (warnings and infos may have been reported)
  1  errors were found
  2  usage error, or nothing could be read`,
		Example: `  sitemapkit validate public/
  sitemapkit validate public/sitemap.xml.gz --base https://www.example.com/
  sitemapkit validate https://www.example.com/
  sitemapkit validate --format json https://www.example.com/sitemap.xml`,
		Args: func(cmd *cobra.Command, args []string) error {
			if o.listRules {
				return nil
			}
			if len(args) == 0 {
				return &usageError{msg: "validate needs at least one FILE, DIR or URL", hint: "sitemapkit validate --help"}
			}
			if o.format != "text" && o.format != "json" {
				return &usageError{msg: fmt.Sprintf("unknown --format %q (want text or json)", o.format), hint: "sitemapkit validate --help"}
			}
			if o.site.Base != "" && !isHTTPURL(o.site.Base) {
				return &usageError{msg: fmt.Sprintf("--base %q is not an absolute http(s) URL", o.site.Base), hint: "sitemapkit validate --base https://www.example.com/ public/"}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.listRules {
				fmt.Fprintln(a.stdout, rulesText())
				return nil
			}
			return runValidate(cmd.Context(), a, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	f.BoolVar(&o.listRules, "list-rules", false, "print the rules it checks (as sitemapkit help rules does), and exit")
	f.IntVar(&o.maxPerRule, "max-per-rule", 100, "list at most this many findings of one rule in one file, and of one rule about whole documents (fetch errors) across the walk (all are counted); 0: no limit")
	addSiteFlags(f, &o.site)
	return cmd
}

func runValidate(ctx context.Context, a *app, o *validateOptions, args []string) error {
	col := &lint.Collector{MaxPerRule: o.maxPerRule, LimitName: "--max-per-rule"}
	files, err := lint.CheckSite(ctx, args, o.site, &lint.Checker{Report: col.Add})
	if err != nil {
		return err
	}
	rep := col.Report(files)

	w := bufio.NewWriter(a.stdout)
	if o.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		for _, d := range rep.Diagnostics {
			fmt.Fprintln(w, d.String())
		}
		writeSummary(w, &rep.Summary)
	}
	if err := w.Flush(); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing output: %w", err)}
	}
	switch {
	case rep.Summary.FilesRead == 0:
		return &exitError{code: exitUsage, err: errors.New("nothing could be read")}
	case rep.Summary.Errors > 0:
		return &exitError{code: exitInputErrors}
	}
	return nil
}

func writeSummary(w *bufio.Writer, s *lint.Summary) {
	if s.Errors+s.Warnings+s.Infos > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%s (%s read), %s: %s, %s, %s\n",
		plural(s.Files, "file"), group(s.FilesRead), plural(s.URLs, "URL"),
		plural(s.Errors, "error"), plural(s.Warnings, "warning"), plural(s.Infos, "info"))
	for _, r := range s.Rules() {
		rc := s.ByRule[r]
		fmt.Fprintf(w, "  %-7s  %-28s %s\n", rc.Severity, r, group(rc.Count))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return group(n) + " " + word + "s"
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
