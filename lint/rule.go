package lint

import (
	"fmt"
	"regexp"
	"strings"
)

// Severity says how much a finding matters.
type Severity int

// Severities, from most to least serious. The zero value is Error so that a
// Diagnostic built without one is never quietly downgraded.
const (
	// Error: Search Console reports an error, or a crawler drops the URL,
	// the file or the annotation.
	Error Severity = iota
	// Warning: the file is read, but something is lost or ignored.
	Warning
	// Info: harmless, but worth knowing (e.g. tags Google ignores).
	Info
)

var severityNames = [...]string{"error", "warning", "info"}

// String returns "error", "warning" or "info".
func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// MarshalText writes the severity as its name, as in JSON reports.
func (s Severity) MarshalText() ([]byte, error) {
	if s < 0 || int(s) >= len(severityNames) {
		return nil, fmt.Errorf("lint: invalid severity %d", int(s))
	}
	return []byte(severityNames[s]), nil
}

// UnmarshalText reads a severity name written by MarshalText.
func (s *Severity) UnmarshalText(b []byte) error {
	for i, n := range severityNames {
		if string(b) == n {
			*s = Severity(i)
			return nil
		}
	}
	return fmt.Errorf("lint: unknown severity %q", b)
}

// A Rule is one check, described for people and tools. Rules are values, as
// go/analysis analyzers are: the checker and the site driver report
// diagnostics that name them, and the table in docs/rules.md is generated
// from them.
type Rule struct {
	// Name is the rule's stable ID, kebab-case (e.g. "invalid-date"). It
	// appears in reports and JSON, so it never changes once released.
	Name string
	// Severity is the severity of the rule's diagnostics.
	Severity Severity
	// Doc explains the rule: its first line is a title, the rest says why
	// it matters and where the rule comes from.
	Doc string
	// SearchConsole is the Search Console error or warning the rule
	// predicts (e.g. "Invalid date"), or "" when Search Console has none.
	SearchConsole string
	// URL is where the rule is documented: an anchor in docs/rules.md.
	URL string
}

// Title returns the first line of the rule's Doc.
func (r *Rule) Title() string {
	t, _, _ := strings.Cut(r.Doc, "\n")
	return t
}

var ruleName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// validate reports what is wrong with the rule set: bad names, empty docs,
// unknown severities, duplicates. A test calls it; it is not run at init,
// so a mistake never takes the library down.
func validate(rules []*Rule) error {
	seen := make(map[string]bool)
	var errs []string
	for _, r := range rules {
		switch {
		case !ruleName.MatchString(r.Name):
			errs = append(errs, fmt.Sprintf("rule %q: name is not kebab-case", r.Name))
		case seen[r.Name]:
			errs = append(errs, fmt.Sprintf("rule %q: defined twice", r.Name))
		}
		seen[r.Name] = true
		if strings.TrimSpace(r.Doc) == "" || strings.TrimSpace(r.Title()) == "" {
			errs = append(errs, fmt.Sprintf("rule %q: empty doc or title", r.Name))
		}
		if r.Severity < Error || r.Severity > Info {
			errs = append(errs, fmt.Sprintf("rule %q: invalid severity %d", r.Name, r.Severity))
		}
		if r.URL != docURL(r.Name) {
			errs = append(errs, fmt.Sprintf("rule %q: URL %q, want %q", r.Name, r.URL, docURL(r.Name)))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("lint: invalid rules:\n%s", strings.Join(errs, "\n"))
	}
	return nil
}

// docBase is where docs/rules.md is published; each rule has an anchor there.
const docBase = "https://github.com/sitemapkit/sitemapkit/blob/main/docs/rules.md"

func docURL(name string) string { return docBase + "#" + name }

// Rules returns every rule, in the order of docs/rules.md. The slice is new
// on every call; the rules it points to must not be modified.
func Rules() []*Rule {
	return append([]*Rule(nil), allRules...)
}

// Lookup returns the rule named name, or nil.
func Lookup(name string) *Rule {
	return ruleByName[name]
}

var ruleByName = func() map[string]*Rule {
	m := make(map[string]*Rule, len(allRules))
	for _, r := range allRules {
		m[r.Name] = r
	}
	return m
}()
