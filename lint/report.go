package lint

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
)

// A Report is the outcome of checking a sitemap set, ready to render: the
// documents reached, the diagnostics listed, in order, and the counts. Its
// JSON form is the document `sitemapkit validate --format json` prints
// (docs/validate.md); an HTML report or an HTTP handler renders the same
// values.
type Report struct {
	// Files are the documents reached, in walk order.
	Files []FileResult `json:"files"`
	// Diagnostics are the findings listed: by document, in walk order
	// (a robots.txt's or folder's before the first document it led to,
	// set-wide ones last), then by place. Past a Collector's MaxPerRule,
	// one diagnostic at line 0 stands for a rule's findings left out of a
	// file.
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Summary counts every finding, listed or not.
	Summary Summary `json:"summary"`
}

// Summary counts a Report's documents, URLs and findings.
type Summary struct {
	Files     int `json:"files"`      // documents reached
	FilesRead int `json:"files_read"` // documents opened or fetched and read
	URLs      int `json:"urls"`       // entries of every document read that is not an index
	Errors    int `json:"errors"`
	Warnings  int `json:"warnings"`
	Infos     int `json:"infos"`
	Omitted   int `json:"omitted"` // findings counted but not listed (MaxPerRule)
	// ByRule counts the findings of each rule that fired, by rule name.
	ByRule map[string]RuleCount `json:"by_rule"`
}

// RuleCount is how often a rule fired, with the rule's severity so that a
// summary can be rendered without looking the rule up.
type RuleCount struct {
	Severity Severity `json:"severity"`
	Count    int      `json:"count"`
}

// Rules returns the names of the rules that fired, in the order a summary
// lists them: errors first, then warnings, then infos; within a severity
// the most frequent first, then by name.
func (s *Summary) Rules() []string {
	rules := make([]string, 0, len(s.ByRule))
	for r := range s.ByRule {
		rules = append(rules, r)
	}
	slices.SortFunc(rules, func(a, b string) int {
		x, y := s.ByRule[a], s.ByRule[b]
		return cmp.Or(cmp.Compare(x.Severity, y.Severity), cmp.Compare(y.Count, x.Count), cmp.Compare(a, b))
	})
	return rules
}

// A Collector gathers a check's diagnostics into a Report. It counts every
// finding but keeps only the first MaxPerRule of one rule in one file, so
// that a million-URL set with one mistake everywhere gives a readable
// report in bounded memory.
//
// Use Add as the Checker's Report, then call Report once with the
// documents the check reached; it counts the findings the Checker left out
// (FileResult.Omitted) as its own. Add may be called from several
// goroutines.
type Collector struct {
	// MaxPerRule is how many findings of one rule in one file are listed,
	// and of one rule about whole documents (no line) in the whole check;
	// 0 or less lists all.
	MaxPerRule int
	// LimitName names MaxPerRule in the diagnostic that stands for the
	// findings left out, as the user set it (the command's
	// "--max-per-rule"). Empty means "max per rule".
	LimitName string

	mu      sync.Mutex
	diags   []Diagnostic
	sum     Summary
	shown   map[fileRule]int
	omitted map[fileRule]int
	// firstOmitted names, by rule, the document of the first finding
	// about a whole document that was left out: the note stands there.
	firstOmitted map[string]string
}

// fileRule keys the per-rule caps.
type fileRule struct{ file, rule string }

// Add counts d and lists it unless its rule has reached MaxPerRule in its
// file.
func (c *Collector) Add(d Diagnostic) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count(d.Rule, d.Severity, 1)
	key := fileRule{d.File, d.Rule}
	if d.Line == 0 {
		// A finding about a whole document (a fetch error, an empty
		// sitemap) is capped across the walk, not per file: an index of
		// 50,000 children that answer 404 is one file's worth each.
		key.file = ""
	}
	if c.MaxPerRule > 0 && c.shown[key] >= c.MaxPerRule {
		if c.omitted[key] == 0 && key.file == "" {
			c.firstOmitted[d.Rule] = d.File
		}
		c.omitted[key]++
		c.sum.Omitted++
		return
	}
	c.shown[key]++
	c.diags = append(c.diags, d)
}

// count counts n findings of rule, of severity sev; c.mu is held.
func (c *Collector) count(rule string, sev Severity, n int) {
	if c.sum.ByRule == nil {
		c.sum.ByRule = map[string]RuleCount{}
		c.shown = map[fileRule]int{}
		c.omitted = map[fileRule]int{}
		c.firstOmitted = map[string]string{}
	}
	switch sev {
	case Error:
		c.sum.Errors += n
	case Warning:
		c.sum.Warnings += n
	default:
		c.sum.Infos += n
	}
	rc := c.sum.ByRule[rule]
	rc.Severity = sev
	rc.Count += n
	c.sum.ByRule[rule] = rc
}

// lastLine sorts the notes of findings left out after a file's listed
// findings; it is 0 in the Report.
const lastLine = 1<<31 - 1

// Report returns the report of the diagnostics added so far, for the
// documents files (in walk order, as CheckSite returns them). Call it once,
// when the check is over: the Report takes the Collector's memory.
func (c *Collector) Report(files []FileResult) *Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range files {
		for rule, n := range f.Omitted {
			c.count(rule, severityOf(rule), n)
			c.omitted[fileRule{f.Name, rule}] += n
			c.sum.Omitted += n
		}
	}
	diags := c.diags
	sum := c.sum
	if sum.ByRule == nil {
		sum.ByRule = map[string]RuleCount{}
	}
	// The notes of a file come in the order of the summary: by severity,
	// the most omitted first, then by rule name.
	notes := make([]fileRule, 0, len(c.omitted))
	for key := range c.omitted {
		notes = append(notes, key)
	}
	slices.SortFunc(notes, func(a, b fileRule) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(severityOf(a.rule), severityOf(b.rule)),
			cmp.Compare(c.omitted[b], c.omitted[a]), cmp.Compare(a.rule, b.rule))
	})
	limit := c.LimitName
	if limit == "" {
		limit = "max per rule"
	}
	for _, key := range notes {
		n := c.omitted[key]
		msg := fmt.Sprintf("%d more %s findings in this file not shown (%s %d)", n, key.rule, limit, c.MaxPerRule)
		if key.file == "" {
			key.file = c.firstOmitted[key.rule]
			msg = fmt.Sprintf("%d more %s findings about this and later documents not shown (%s %d, across the walk)", n, key.rule, limit, c.MaxPerRule)
		}
		diags = append(diags, Diagnostic{File: key.file, Line: lastLine, Rule: key.rule, Severity: severityOf(key.rule), Message: msg})
	}
	sortDiagnostics(diags, files)
	for i := range diags {
		if diags[i].Line == lastLine {
			diags[i].Line = 0
		}
	}
	c.diags, c.sum, c.shown, c.omitted, c.firstOmitted = nil, Summary{}, nil, nil, nil

	rep := &Report{Files: files, Diagnostics: diags, Summary: sum}
	if rep.Files == nil {
		rep.Files = []FileResult{}
	}
	if rep.Diagnostics == nil {
		rep.Diagnostics = []Diagnostic{}
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
	return rep
}

// severityOf returns the severity of the rule named name; Error for a
// rule this package does not define.
func severityOf(name string) Severity {
	if r := Lookup(name); r != nil {
		return r.Severity
	}
	return Error
}

// sortDiagnostics puts diagnostics in walk order (documents checked at
// once report in any order), then by place; a robots.txt's or folder's
// findings come before the first document it led to. It looks up the
// documents that have findings, not every document reached.
func sortDiagnostics(diags []Diagnostic, files []FileResult) {
	// place is where a diagnostic's file stands: the index of the first
	// document of that name or, for a robots.txt or folder, of the first
	// it led to (set), and whether it is a document read (doc).
	type place struct {
		rank     int
		set, doc bool
	}
	places := map[string]place{}
	for _, d := range diags {
		places[d.File] = place{}
	}
	for i, f := range files {
		if p, ok := places[f.Name]; ok && !p.doc {
			if !p.set {
				p.rank, p.set = i, true
			}
			p.doc = true
			places[f.Name] = p
		}
	}
	for i, f := range files {
		if p, ok := places[f.Parent]; ok && !p.set && f.Parent != "" {
			p.rank, p.set = i, true
			places[f.Parent] = p
		}
	}
	rank := func(name string) int {
		if p := places[name]; p.set {
			return p.rank
		}
		if name == "" {
			return len(files) + 1 // set-wide findings last
		}
		return -1
	}
	isDoc := func(name string) int {
		if places[name].doc {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(diags, func(x, y Diagnostic) int {
		return cmp.Or(
			cmp.Compare(rank(x.File), rank(y.File)),
			cmp.Compare(isDoc(x.File), isDoc(y.File)),
			cmp.Compare(x.Line, y.Line),
			cmp.Compare(x.Col, y.Col),
		)
	})
}
