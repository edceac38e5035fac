package main

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/sitemapkit/sitemapkit/lint"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// refusalExamples is how many refused lines are quoted per rule.
const refusalExamples = 3

// refusals counts refused input lines by rule and keeps the first few;
// dropped does the same for lines kept without a field (a bad lastmod,
// changefreq or priority), which are warnings.
type refusals struct {
	header   string
	unit     string // what total counts: lines, fields
	total    int
	order    []string
	count    map[string]int
	examples map[string][]string
	dropped  *refusals
}

func newRefusals() *refusals {
	r := &refusals{header: "Refused", unit: "line", count: map[string]int{}, examples: map[string][]string{}}
	r.dropped = &refusals{header: "Fields left out", unit: "field", count: map[string]int{}, examples: map[string][]string{}}
	return r
}

func (r *refusals) add(rule, example string) {
	r.total++
	if r.count[rule] == 0 {
		r.order = append(r.order, rule)
	}
	r.count[rule]++
	if len(r.examples[rule]) < refusalExamples {
		r.examples[rule] = append(r.examples[rule], example)
	}
}

// what counts the lines refused and the fields left out.
func (r *refusals) what() string {
	switch {
	case r.dropped.total == 0:
		return countOf(r.total, "line")
	case r.total == 0:
		return countOf(r.dropped.total, "field")
	}
	return countOf(r.total, "line") + " and " + countOf(r.dropped.total, "field")
}

// print writes the refusals grouped by rule, most frequent first, for a
// set published without them.
func (r *refusals) print(w io.Writer) {
	r.printAs(w, "left out of the set")
	r.dropped.printAs(w, "the URLs kept without them")
}

// printAs is print, saying what became of the lines: "left out of the
// set", or, when nothing was published, not that.
func (r *refusals) printAs(w io.Writer, what string) {
	if r.total == 0 {
		return
	}
	fmt.Fprintf(w, "%s: %s (%s)\n", r.header, countOf(r.total, r.unit), what)
	rules := slices.Clone(r.order)
	slices.SortStableFunc(rules, func(a, b string) int { return r.count[b] - r.count[a] })
	for _, rule := range rules {
		fmt.Fprintf(w, "  %s: %s\n", rule, group(r.count[rule]))
		for _, ex := range r.examples[rule] {
			fmt.Fprintf(w, "    %s\n", ex)
		}
		if more := r.count[rule] - len(r.examples[rule]); more > 0 {
			fmt.Fprintf(w, "    … and %s more\n", group(more))
		}
	}
}

// summaryFiles is how many files the summary lists before it abbreviates.
const summaryFiles = 12

func printSummary(a *app, o publish.Options, res *publish.Result, rep *refusals, notes []string) {
	w := a.stdout
	if res.Elapsed == 0 {
		// --dry-run: the set was planned, not published.
		fmt.Fprintf(w, "Dry run: nothing was written. A run would publish %s in %s into %s.\n", countOf(res.URLs, "URL"),
			countOf(len(res.Files), "file"), o.Dir)
	} else {
		fmt.Fprintf(w, "Published %s in %s into %s (%s).\n", countOf(res.URLs, "URL"), countOf(len(res.Files), "file"), o.Dir,
			res.Elapsed.Round(time.Millisecond))
	}
	type row struct{ name, entries, bytes, gz string }
	var rows []row
	var entries int
	var bytes, gz int64
	for i, f := range res.Files {
		if !f.Index {
			entries += f.Entries
		}
		bytes += f.Bytes
		gz += f.GzipBytes
		switch {
		case i < summaryFiles || len(res.Files) == summaryFiles+1:
			name := f.Name
			if f.Index {
				name += " (index)"
			}
			if f.Kept {
				name += " (unchanged)"
			}
			rows = append(rows, row{name, group(f.Entries), group64(f.Bytes), gzipCell(f.GzipBytes)})
		case i == summaryFiles:
			rows = append(rows, row{"… " + countOf(len(res.Files)-summaryFiles, "more file"), "", "", ""})
		}
	}
	rows = append(rows, row{"total", group(entries), group64(bytes), gzipCell(gz)})
	width := len("file")
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r.name))
	}
	fmt.Fprintf(w, "  %-*s %11s %14s %12s\n", width, "file", "entries", "bytes", "gzipped")
	for _, r := range rows {
		fmt.Fprintf(w, "  %s%*s %11s %14s %12s\n", r.name, width-utf8.RuneCountInString(r.name), "", r.entries, r.bytes, r.gz)
	}
	switch len(res.Indexes) {
	case 0:
	case 1:
		fmt.Fprintf(w, "Submit: %s\n", res.Indexes[0])
	default:
		// --max-urls bounds an index's sitemaps as it bounds a file's URLs,
		// and --max-bytes its size: the limit the first index reached is
		// the one that split them.
		lim := o.WithDefaults()
		why := group(lim.MaxURLs) + " sitemaps"
		if i := slices.IndexFunc(res.Files, func(f publish.File) bool { return f.Index }); i >= 0 && res.Files[i].Entries < lim.MaxURLs {
			why = group64(lim.MaxBytes) + " bytes"
		}
		fmt.Fprintf(w, "Submit each of these %d index files (one index holds at most %s):\n", len(res.Indexes), why)
		for _, u := range res.Indexes {
			fmt.Fprintf(w, "  %s\n", u)
		}
	}
	rep.print(w)
	if res.Duplicates > 0 || !o.NoDedupe {
		fmt.Fprintf(w, "Duplicates dropped: %s\n", group(res.Duplicates))
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
}

// logSamples is how many unparsable lines of a log the summary quotes.
const logSamples = 3

// chain yields src and the sources it wraps (Unwrap), outermost first.
func chain(src source.Source) iter.Seq[source.Source] {
	return func(yield func(source.Source) bool) {
		for src != nil && yield(src) {
			u, ok := src.(interface{ Unwrap() source.Source })
			if !ok {
				return
			}
			src = u.Unwrap()
		}
	}
}

// inputNotes says what an input's sources counted once it has been read:
// the URLs its filters left out, and what an access log skipped.
func inputNotes(src source.Source) []string {
	var notes []string
	for src := range chain(src) {
		switch s := src.(type) {
		case *source.Filter:
			if n := s.Dropped(); n > 0 {
				notes = append(notes, fmt.Sprintf("%s: %s left out by the include/exclude filters", s.Name(), countOf(n, "URL")))
			}
			if n := s.Resolved(); n > 0 {
				notes = append(notes, fmt.Sprintf("%s: %s resolved against --base.", s.Name(), countOf(n, "relative URL")))
			}
			if n, zoneless := s.Dates(); n > 0 {
				note := fmt.Sprintf("%s: %s in a database's spelling rewritten in W3C form", s.Name(), countOf(n, "lastmod"))
				if zoneless > 0 {
					note += fmt.Sprintf(", %s without a zone read as %s (--timezone)", group(zoneless), s.Timezone())
				}
				notes = append(notes, note+".")
			}
		case *source.Log:
			notes = append(notes, logNote(s.Name(), s.Stats())...)
		case *source.Crawl:
			notes = append(notes, crawlNote(s.Stats())...)
		case *source.Static:
			if sk := s.Skipped(); len(sk) > 0 {
				var parts []string
				total := 0
				for _, why := range slices.Sorted(maps.Keys(sk)) {
					parts = append(parts, why+" "+group(sk[why]))
					total += sk[why]
				}
				what := group(total) + " pages or folders"
				if total == 1 {
					what = "1 page or folder"
				}
				notes = append(notes, fmt.Sprintf("%s: %s left out (%s).", s.Name(), what, strings.Join(parts, ", ")))
			}
		}
	}
	return notes
}

// logNote sums up what an access log gave: pages, repeats, skipped lines
// by reason, and the lines that are not log lines, with a few quoted.
func logNote(name string, st source.LogStats) []string {
	var skipped []string
	total := 0
	for _, reason := range slices.Sorted(maps.Keys(st.Skipped)) {
		total += st.Skipped[reason]
		skipped = append(skipped, reason+" "+group(st.Skipped[reason]))
	}
	line := fmt.Sprintf("%s: %s read: %s (%s more hits of them)", name, countOf(st.Lines, "line"), countOf(st.URLs, "page"), group(st.Repeats))
	if total > 0 {
		line += fmt.Sprintf("; %s skipped (%s)", group(total), strings.Join(skipped, ", "))
	}
	notes := []string{line}
	if st.Malformed > 0 {
		notes = append(notes, fmt.Sprintf("  %s not in Common or Combined Log Format, ignored:", countOf(st.Malformed, "line")))
		for i, e := range st.Samples {
			if i == logSamples {
				break
			}
			notes = append(notes, "    "+e.Error())
		}
		if more := st.Malformed - min(len(st.Samples), logSamples); more > 0 {
			notes = append(notes, fmt.Sprintf("    … and %s more", group(more)))
		}
	}
	return notes
}

func gzipCell(n int64) string {
	if n == 0 {
		return "-"
	}
	return group64(n)
}

// countOf formats a count with its noun: "1 URL", "1,000 URLs".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return group(n) + " " + noun + "s"
}

func group(n int) string { return group64(int64(n)) }

// group64 writes n with thousands separators, as people read counts.
func group64(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// progress rewrites one line on a terminal's stderr every second with the
// URLs read so far; it does nothing when stderr is not a terminal.
type progress struct {
	n    atomic.Int64
	on   bool
	done chan struct{}
	once sync.Once
	wg   sync.WaitGroup
}

func startProgress(a *app, quiet bool) *progress {
	p := &progress{done: make(chan struct{})}
	f, ok := a.stderr.(*os.File)
	if quiet || !ok || !isTerminal(f) {
		return p
	}
	p.on = true
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		start := time.Now()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		shown := false
		for {
			select {
			case <-p.done:
				if shown {
					fmt.Fprint(f, "\r\033[K")
				}
				return
			case now := <-t.C:
				n := p.n.Load()
				rate := float64(n) / now.Sub(start).Seconds()
				fmt.Fprintf(f, "\r\033[K%s URLs read (%s URLs/s)", group64(n), group64(int64(rate)))
				shown = true
			}
		}
	}()
	return p
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// count passes seq through, counting its items when progress is shown.
func (p *progress) count(seq iter.Seq2[sitemap.URL, error]) iter.Seq2[sitemap.URL, error] {
	if !p.on {
		return seq
	}
	return func(yield func(sitemap.URL, error) bool) {
		for u, err := range seq {
			p.n.Add(1)
			if !yield(u, err) {
				return
			}
		}
	}
}

// stop clears the progress line; it may be called more than once.
func (p *progress) stop() {
	p.once.Do(func() {
		close(p.done)
		p.wg.Wait()
	})
}

// jsonSummary is generate's summary as --format json prints it: what the
// text summary says, as values (README, "generate --format json").
type jsonSummary struct {
	DryRun        bool         `json:"dry_run"`
	Dir           string       `json:"dir"`
	URLs          int          `json:"urls"`
	Elapsed       float64      `json:"elapsed_seconds"`
	Files         []jsonFile   `json:"files"`
	Submit        []string     `json:"submit"`
	Duplicates    int          `json:"duplicates"`
	Refused       jsonRefusals `json:"refused"`
	FieldsLeftOut jsonRefusals `json:"fields_left_out"`
	Notes         []string     `json:"notes"`
	Warnings      []string     `json:"warnings"`
	// Checks is validate's report on the set written, when it was checked
	// (a set with images, videos, news or alternates).
	Checks *lint.Report `json:"checks,omitempty"`
}

type jsonFile struct {
	Name      string `json:"name"`
	URL       string `json:"url"`
	Index     bool   `json:"index"`
	Group     string `json:"group,omitempty"`
	Entries   int    `json:"entries"`
	Bytes     int64  `json:"bytes"`
	GzipBytes int64  `json:"gzip_bytes"`
	LastMod   string `json:"lastmod,omitempty"`
	Unchanged bool   `json:"unchanged"`
}

type jsonRefusals struct {
	Count  int                 `json:"count"`
	ByRule map[string]jsonRule `json:"by_rule"`
}

type jsonRule struct {
	Count    int      `json:"count"`
	Examples []string `json:"examples"`
}

func (r *refusals) json() jsonRefusals {
	j := jsonRefusals{Count: r.total, ByRule: map[string]jsonRule{}}
	for rule, n := range r.count {
		j.ByRule[rule] = jsonRule{Count: n, Examples: r.examples[rule]}
	}
	return j
}

// printJSONSummary writes the summary of res (planned, with --dry-run) as
// one JSON document.
func printJSONSummary(w io.Writer, o publish.Options, res *publish.Result, rep *refusals, notes []string, checks *lint.Report) error {
	s := jsonSummary{
		DryRun: res.Elapsed == 0, Dir: o.Dir, URLs: res.URLs, Elapsed: res.Elapsed.Seconds(),
		Files: []jsonFile{}, Submit: res.Indexes, Duplicates: res.Duplicates,
		Refused: rep.json(), FieldsLeftOut: rep.dropped.json(), Notes: notes, Warnings: res.Warnings, Checks: checks,
	}
	for _, f := range res.Files {
		s.Files = append(s.Files, jsonFile{Name: f.Name, URL: f.URL, Index: f.Index, Group: f.Group, Entries: f.Entries,
			Bytes: f.Bytes, GzipBytes: f.GzipBytes, LastMod: f.LastMod, Unchanged: f.Kept})
	}
	for _, p := range []*[]string{&s.Submit, &s.Notes, &s.Warnings} {
		if *p == nil {
			*p = []string{}
		}
	}
	return writeJSON(w, s)
}

// writeJSON writes v as the commands' JSON reports are written: indented,
// URLs' & < > as they are.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
