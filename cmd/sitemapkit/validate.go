package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"sync"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/lint"
)

type validateOptions struct {
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
problem with its place and a stable rule ID (see docs/rules.md):

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
			return runValidate(cmd.Context(), a, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	f.IntVar(&o.maxPerRule, "max-per-rule", 100, "list at most this many findings of one rule in one file (all are counted); 0: no limit")
	addSiteFlags(f, &o.site)
	return cmd
}

// validateReport is the JSON document of validate --format json,
// documented in docs/validate.md.
type validateReport struct {
	Files       []lint.FileResult `json:"files"`
	Diagnostics []lint.Diagnostic `json:"diagnostics"`
	Summary     validateSummary   `json:"summary"`
}

type validateSummary struct {
	Files     int                  `json:"files"`
	FilesRead int                  `json:"files_read"`
	URLs      int                  `json:"urls"`
	Errors    int                  `json:"errors"`
	Warnings  int                  `json:"warnings"`
	Infos     int                  `json:"infos"`
	Omitted   int                  `json:"omitted"` // findings counted but not listed (--max-per-rule)
	ByRule    map[string]ruleCount `json:"by_rule"`
}

type ruleCount struct {
	Severity lint.Severity `json:"severity"`
	Count    int           `json:"count"`
}

func runValidate(ctx context.Context, a *app, o *validateOptions, args []string) error {
	var mu sync.Mutex
	var diags []lint.Diagnostic
	sum := validateSummary{ByRule: map[string]ruleCount{}}
	shown := map[[2]string]int{}
	omitted := map[[2]string]int{}
	c := &lint.Checker{Report: func(d lint.Diagnostic) {
		mu.Lock()
		defer mu.Unlock()
		// Every finding is counted; only the first maxPerRule of a rule in
		// a file are kept, so that a million-URL set with one mistake
		// everywhere stays readable and in bounded memory.
		switch d.Severity {
		case lint.Error:
			sum.Errors++
		case lint.Warning:
			sum.Warnings++
		default:
			sum.Infos++
		}
		rc := sum.ByRule[d.Rule]
		rc.Severity = d.Severity
		rc.Count++
		sum.ByRule[d.Rule] = rc
		key := [2]string{d.File, d.Rule}
		if o.maxPerRule > 0 && shown[key] >= o.maxPerRule {
			omitted[key]++
			sum.Omitted++
			return
		}
		shown[key]++
		diags = append(diags, d)
	}}
	files, err := lint.CheckSite(ctx, args, o.site, c)
	if err != nil {
		return err
	}
	for key, n := range omitted {
		rule := lint.Lookup(key[1])
		diags = append(diags, lint.Diagnostic{File: key[0], Line: 1<<31 - 1, Rule: key[1], Severity: rule.Severity,
			Message: fmt.Sprintf("%d more %s findings in this file not shown (--max-per-rule %d)", n, key[1], o.maxPerRule)})
	}
	sortDiagnostics(diags, files)
	for i := range diags {
		if diags[i].Line == 1<<31-1 {
			diags[i].Line = 0
		}
	}

	rep := validateReport{Files: files, Diagnostics: diags, Summary: sum}
	if rep.Files == nil {
		rep.Files = []lint.FileResult{}
	}
	if rep.Diagnostics == nil {
		rep.Diagnostics = []lint.Diagnostic{}
	}
	rep.Summary.Files = len(files)
	for _, f := range files {
		if f.Read {
			rep.Summary.FilesRead++
			if f.Format != "sitemapindex" {
				rep.Summary.URLs += f.URLs
			}
		}
	}

	w := bufio.NewWriter(a.stdout)
	if o.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		for _, d := range diags {
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

func writeSummary(w *bufio.Writer, s *validateSummary) {
	if s.Errors+s.Warnings+s.Infos > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%s (%s read), %s: %s, %s, %s\n",
		plural(s.Files, "file"), group(s.FilesRead), plural(s.URLs, "URL"),
		plural(s.Errors, "error"), plural(s.Warnings, "warning"), plural(s.Infos, "info"))
	rules := make([]string, 0, len(s.ByRule))
	for r := range s.ByRule {
		rules = append(rules, r)
	}
	sort.Slice(rules, func(i, j int) bool {
		a, b := s.ByRule[rules[i]], s.ByRule[rules[j]]
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return rules[i] < rules[j]
	})
	for _, r := range rules {
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

// sortDiagnostics puts diagnostics in walk order (documents checked at
// once report in any order), then by place; a robots.txt's or folder's
// findings come before the first document it led to.
func sortDiagnostics(diags []lint.Diagnostic, files []lint.FileResult) {
	order := map[string]int{}
	for i, f := range files {
		if _, ok := order[f.Name]; !ok {
			order[f.Name] = i
		}
	}
	for i, f := range files {
		if _, ok := order[f.Parent]; !ok && f.Parent != "" {
			order[f.Parent] = i
		}
	}
	rank := func(name string) int {
		if r, ok := order[name]; ok {
			return r
		}
		if name == "" {
			return len(files) + 1 // set-wide findings last
		}
		return -1
	}
	isDoc := map[string]int{}
	for _, f := range files {
		isDoc[f.Name] = 1
	}
	slices.SortStableFunc(diags, func(x, y lint.Diagnostic) int {
		return cmp.Or(
			cmp.Compare(rank(x.File), rank(y.File)),
			cmp.Compare(isDoc[x.File], isDoc[y.File]),
			cmp.Compare(x.Line, y.Line),
			cmp.Compare(x.Col, y.Col),
		)
	})
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
