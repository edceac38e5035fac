package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemapkit/config"
	"github.com/sitemapkit/sitemapkit/lint"
)

// rulesText is the table of the rules validate checks: what a user with
// the binary alone needs to read a report (docs/rules.md has the same).
func rulesText() string {
	var b strings.Builder
	b.WriteString("The rules validate checks (and generate enforces), with their stable IDs, as\nreports and --format json name them:\n\n")
	for _, r := range lint.Rules() {
		title, why, _ := strings.Cut(r.Doc, "\n")
		fmt.Fprintf(&b, "%-28s %-8s %s\n", r.Name, r.Severity, title)
		if r.SearchConsole != "" {
			fmt.Fprintf(&b, "%-37s Search Console: %q\n", "", r.SearchConsole)
		}
		for _, line := range wrap(why, 70) {
			fmt.Fprintf(&b, "%-37s %s\n", "", line)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// wrap cuts s into lines of at most width characters, at spaces.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// newHelpTopics are `sitemapkit help rules` and `sitemapkit help config`:
// the rule table and every key of sitemapkit.toml, for a user who has the
// binary and not the repository's docs.
func newHelpTopics() []*cobra.Command {
	return []*cobra.Command{
		{Use: "rules", Short: "The rules validate checks: IDs, severities, what each means", Long: rulesText()},
		{Use: "config", Short: "Every key of " + config.FileName + ", commented (what sitemapkit init writes)",
			Long: "Every key of " + config.FileName + ", with its default, as `sitemapkit init` writes the file:\n\n" +
				strings.TrimRight(config.Starter(""), "\n")},
	}
}
