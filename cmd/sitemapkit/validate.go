package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/internal/nearest"
	"github.com/sitemapkit/sitemapkit/lint"
)

type validateOptions struct {
	listRules   bool
	ignore      []string
	failOn      string
	quiet       bool
	format      string
	maxPerRule  int
	robotsAgent string
	site        discover.Options
}

func newValidateCommand(a *app) *cobra.Command {
	o := &validateOptions{format: "text"}
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
declares; and every URL of the site that its robots.txt disallows for
Googlebot (--robots-agent), which Search Console reports as "Submitted URL
blocked by robots.txt". --robots FILE judges by a local robots.txt instead,
offline too. Loops (an index listing itself, robots.txt listing itself,
redirect cycles) are caught; indexes nested deeper than --max-depth are not
followed.

--format json prints one JSON document instead (see docs/validate.md);
--format sarif a SARIF 2.1.0 log, which GitHub code scanning uploads
(github/codeql-action/upload-sarif); --format github workflow annotations.

EXIT STATUS
  0  no errors (warnings and infos may have been reported)
  1  errors were found
  2  usage error, or nothing could be read
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP)`,
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
			for _, r := range o.ignore {
				if !slices.ContainsFunc(lint.Rules(), func(x *lint.Rule) bool { return x.Name == r }) {
					msg := fmt.Sprintf("--ignore %q: no such rule", r)
					var names []string
					for _, x := range lint.Rules() {
						names = append(names, x.Name)
					}
					if near := nearest.Word(r, names); near != "" {
						msg += fmt.Sprintf(" (did you mean %q?)", near)
					}
					return &usageError{msg: msg, hint: "sitemapkit help rules"}
				}
			}
			if o.site.Robots != "" {
				if fi, err := os.Stat(o.site.Robots); err != nil || fi.IsDir() {
					return &usageError{msg: fmt.Sprintf("--robots %s: not a robots.txt file", o.site.Robots), hint: "sitemapkit validate --robots public/robots.txt public/"}
				}
			}
			if o.site.Base != "" && !isHTTPURL(o.site.Base) {
				return &usageError{msg: fmt.Sprintf("--base %q is not an absolute http(s) URL", o.site.Base), hint: "sitemapkit validate --base https://www.example.com/ public/"}
			}
			return checkSiteFlags(&o.site, "validate")
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
	f.Var(&enumFlag{p: &o.format, names: validateFormats, def: "text"}, "format", "output format: text, json, github (workflow annotations) or sarif (SARIF 2.1.0, for GitHub code scanning)")
	f.StringArrayVar(&o.ignore, "ignore", nil, "leave out the findings of this `RULE` (repeatable; sitemapkit help rules lists them)")
	f.Var(&enumFlag{p: &o.failOn, names: []string{"error", "warning"}, def: "error"}, "fail-on", "exit 1 on errors, or on warnings too")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print the errors only (and the warnings, with --fail-on warning): no infos or summary")
	f.BoolVar(&o.listRules, "list-rules", false, "print the rules it checks (as sitemapkit help rules does), and exit")
	f.IntVar(&o.maxPerRule, "max-per-rule", 100, "list at most this many findings of one rule in one file, and of one rule about whole documents (fetch errors) across the walk (all are counted); 0: no limit")
	addSiteFlags(f, &o.site)
	f.StringVar(&o.site.Robots, "robots", "", "judge sitemaps and URLs by this robots.txt `FILE` instead of fetching the site's (e.g. the one deployed with a build folder)")
	f.StringVar(&o.robotsAgent, "robots-agent", "Googlebot", "the crawler whose robots.txt group URLs are judged by (url-blocked-by-robots); \"\" judges none")
	return cmd
}

// listed reports whether d is printed: with -q, only what fails the run
// (errors, and warnings too with --fail-on warning), so that a run that
// fails always says why.
func (o *validateOptions) listed(d lint.Diagnostic) bool {
	if !o.quiet {
		return true
	}
	return d.Severity == lint.Error || o.failOn == "warning" && d.Severity == lint.Warning
}

// validateFormats are validate's --format values.
var validateFormats = []string{"text", "json", "github", "sarif"}

func runValidate(ctx context.Context, a *app, o *validateOptions, args []string) error {
	limitHeap(validateHeap)
	col := &lint.Collector{MaxPerRule: o.maxPerRule, LimitName: "--max-per-rule"}
	files, err := lint.CheckSite(ctx, args, o.site, &lint.Checker{Report: col.Add, MaxPerRule: o.maxPerRule, Ignore: o.ignore, RobotsAgent: o.robotsAgent})
	if err != nil {
		return err
	}
	rep := col.Report(files)

	w := bufio.NewWriter(a.stdout)
	if o.format == "json" {
		if err := writeReportJSON(w, rep); err != nil {
			return err
		}
	} else if o.format == "sarif" {
		if err := writeJSON(w, sarifReport(rep, o.listed)); err != nil {
			return err
		}
	} else {
		for _, d := range rep.Diagnostics {
			switch {
			case !o.listed(d):
			case o.format == "github":
				fmt.Fprintln(w, githubAnnotation(d))
			default:
				fmt.Fprintln(w, d.String())
			}
		}
		if !o.quiet {
			writeSummary(w, &rep.Summary)
			if o.site.Base == "" {
				if note := unscopedNote(rep.Files); note != "" {
					fmt.Fprintln(w, note)
				}
			}
		}
	}
	if err := w.Flush(); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing output: %w", err)}
	}
	switch {
	case rep.Summary.FilesRead == 0:
		return &exitError{code: exitUsage, err: errors.New("nothing could be read")}
	case rep.Summary.Errors > 0:
		return &exitError{code: exitInputErrors}
	case o.failOn == "warning" && rep.Summary.Warnings > 0:
		return &exitError{code: exitInputErrors}
	}
	return nil
}

// unscopedNote says which documents read had no public URL (local files
// without --base, and not named by an index's <loc>), so that the scope
// rules were not applied to their URLs; "" when there are none. With
// --base given, a document without one is named by a relative <loc>, a
// finding of its own.
func unscopedNote(files []lint.FileResult) string {
	n, first := 0, ""
	for _, f := range files {
		if f.Read && f.URL == "" {
			if n++; n == 1 {
				first = f.Name
			}
		}
	}
	if n == 0 {
		return ""
	}
	what, its := lint.Printable(first), "its"
	if n > 1 {
		what, its = fmt.Sprintf("%d local files (%s…)", n, lint.Printable(first)), "their"
	}
	return "Scope not checked for " + what + ": " + its + " public URL is unknown. Give --base https://www.example.com/ (the URL of the folder given) to check that each URL is on the sitemap's host and inside its folder."
}

// writeReportJSON writes rep as writeJSON does, a file and a diagnostic
// at a time: encoded whole, the report of an index of 60,000 children
// (20 MB of JSON) was held, and more as its buffer grew, before its first
// byte was written (137 MB of peak RSS).
func writeReportJSON(w io.Writer, rep *lint.Report) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// encode writes v as the value of a field of rep, at its depth.
	encode := func(prefix string, v any) error {
		buf.Reset()
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return err
	}
	io.WriteString(w, "{\n  \"files\": ")
	if err := writeJSONArray(w, rep.Files, encode); err != nil {
		return err
	}
	io.WriteString(w, ",\n  \"diagnostics\": ")
	if err := writeJSONArray(w, rep.Diagnostics, encode); err != nil {
		return err
	}
	io.WriteString(w, ",\n  \"summary\": ")
	if err := encode("  ", &rep.Summary); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n}\n")
	return err
}

// writeJSONArray writes s, the value of a field of a report, an element
// at a time with encode.
func writeJSONArray[E any](w io.Writer, s []E, encode func(prefix string, v any) error) error {
	if s == nil {
		_, err := io.WriteString(w, "null")
		return err
	}
	if len(s) == 0 {
		_, err := io.WriteString(w, "[]")
		return err
	}
	io.WriteString(w, "[")
	for i := range s {
		sep := ",\n    "
		if i == 0 {
			sep = "\n    "
		}
		io.WriteString(w, sep)
		if err := encode("    ", &s[i]); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n  ]")
	return err
}

// githubAnnotation writes d as a GitHub Actions workflow command, which
// the run's page shows on the file and line (::error, ::warning, ::notice).
func githubAnnotation(d lint.Diagnostic) string {
	kind := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning"}[d.Severity]
	if kind == "" {
		kind = "notice"
	}
	props := "file=" + ghProperty(d.File)
	if d.Line > 0 {
		props += ",line=" + strconv.Itoa(d.Line)
		if d.Col > 0 {
			props += ",col=" + strconv.Itoa(d.Col)
		}
	}
	props += ",title=" + ghProperty(d.Rule)
	return "::" + kind + " " + props + "::" + ghData(d.Message)
}

// ghData and ghProperty escape a workflow command's message and its
// properties, as GitHub's toolkit does.
var (
	ghDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func ghData(s string) string     { return ghDataEscaper.Replace(s) }
func ghProperty(s string) string { return ghPropertyEscaper.Replace(s) }

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
