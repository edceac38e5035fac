package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/lint"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// checkedPerRule is how many findings of one rule in one file the summary
// lists after a check of the set written; validate lists them all.
const checkedPerRule = 5

// hasExtensions reports whether u carries what validate's warnings about a
// set the Builder accepted look at: images and videos (deprecated tags),
// news (age) and hreflang alternates (self-links, reciprocity).
func hasExtensions(u *sitemap.URL) bool {
	return len(u.Images)+len(u.Videos)+len(u.Alternates) > 0 || u.News != nil
}

// checkWritten checks the set just published in o.Dir with validate's
// rules, reading the files as validate reads them, so that generate
// reports what validate would before anyone else does. Only a set with
// extensions is read again: without them, what the Builder refused is all
// the rules could find, and reading a million URLs again would cost a
// second run.
func checkWritten(ctx context.Context, o publish.Options, res *publish.Result) (*lint.Report, error) {
	o = o.WithDefaults()
	var starts []string
	for _, f := range res.Files {
		if f.Index {
			starts = append(starts, filepath.Join(o.Dir, f.Name))
		}
	}
	if len(starts) == 0 {
		for _, f := range res.Files {
			starts = append(starts, filepath.Join(o.Dir, f.Name))
		}
	}
	public := o.PublicURL
	if public == "" {
		public = o.Base
	}
	col := &lint.Collector{MaxPerRule: checkedPerRule, LimitName: "shown by generate; sitemapkit validate lists all"}
	files, err := lint.CheckSite(ctx, starts, discover.Options{Base: public, Offline: true}, &lint.Checker{Report: col.Add, MaxPerRule: checkedPerRule})
	if err != nil {
		return nil, err
	}
	return col.Report(files), nil
}

// origin is a URL's scheme and host.
func origin(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	return u.Scheme + "://" + u.Host
}

// crossHost reports whether the set's files are served on another host
// than the site (cross-submission): only the site's robots.txt makes them
// the site's, so read offline their URLs would all be out of scope.
func crossHost(o publish.Options) bool {
	return o.PublicURL != "" && origin(o.PublicURL) != origin(o.Base)
}

// checkLines words a check of the set written for the summary: nothing
// when it found nothing.
func checkLines(rep *lint.Report) []string {
	s := rep.Summary
	if s.Errors+s.Warnings == 0 {
		return nil
	}
	var counts []string
	for _, r := range s.Rules() {
		if c := s.ByRule[r]; c.Severity != lint.Info {
			counts = append(counts, fmt.Sprintf("%s %s", r, group(c.Count)))
		}
	}
	lines := []string{fmt.Sprintf("Checked as sitemapkit validate would: %s, %s (%s).",
		countOf(s.Errors, "error"), countOf(s.Warnings, "warning"), strings.Join(counts, ", "))}
	for _, d := range rep.Diagnostics {
		if d.Severity != lint.Info {
			lines = append(lines, "  "+d.String())
		}
	}
	return lines
}
