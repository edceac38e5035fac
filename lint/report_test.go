package lint_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sitemapkit/sitemapkit/lint"
)

// A Collector turns a check into a Report without the command: here an
// HTTP handler's, checking one uploaded document, listing at most two
// findings of a rule, and answering with the summary as JSON.
func ExampleCollector() {
	var doc strings.Builder
	doc.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range 5 {
		fmt.Fprintf(&doc, "<url><loc>https://www.example.com/%d</loc><lastmod>someday</lastmod></url>\n", i)
	}
	doc.WriteString("</urlset>\n")

	col := &lint.Collector{MaxPerRule: 2, LimitName: "max_per_rule"}
	c := &lint.Checker{Report: col.Add}
	res, err := c.CheckDocument(context.Background(), "upload.xml", "", strings.NewReader(doc.String()))
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Finish()
	rep := col.Report([]lint.FileResult{{Name: "upload.xml", Read: true, Format: res.Format.String(), URLs: res.Entries, Errors: res.Errors}})
	for _, d := range rep.Diagnostics {
		fmt.Println(d)
	}
	s, _ := json.Marshal(rep.Summary)
	fmt.Println(string(s))
	// Output:
	// upload.xml:2:42: error[invalid-date]: lastmod: not a W3C datetime; write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm ("someday")
	// upload.xml:3:42: error[invalid-date]: lastmod: not a W3C datetime; write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm ("someday")
	// upload.xml: error[invalid-date]: 3 more invalid-date findings in this file not shown (max_per_rule 2)
	// {"files":1,"files_read":1,"urls":5,"errors":5,"warnings":0,"infos":0,"omitted":3,"by_rule":{"invalid-date":{"severity":"error","count":5}}}
}

// TestCollectorOrder checks the Report's order: documents in walk order (a
// parent's own findings before its first child's), set-wide findings last,
// places within a document, and the notes of a file's omitted findings
// after its listed ones, in the summary's order, whatever order the
// findings came in.
func TestCollectorOrder(t *testing.T) {
	files := []lint.FileResult{
		{Name: "sitemap.xml", Read: true, Format: "sitemapindex", URLs: 2},
		{Name: "b.xml", Parent: "sitemap.xml", Read: true, Format: "urlset", URLs: 3},
		{Name: "a.xml", Parent: "robots.txt", Read: true, Format: "urlset", URLs: 4},
		{Name: "gone.xml", Parent: "sitemap.xml"},
	}
	in := []lint.Diagnostic{
		{Rule: "too-many-index-files", Severity: lint.Warning, Message: "set-wide"},
		{File: "a.xml", Line: 9, Col: 1, Rule: "invalid-date"},
		{File: "a.xml", Line: 2, Col: 5, Rule: "invalid-date"},
		{File: "a.xml", Line: 3, Col: 1, Rule: "invalid-date"},
		{File: "a.xml", Line: 4, Col: 1, Rule: "duplicate-url", Severity: lint.Warning},
		{File: "a.xml", Line: 5, Col: 1, Rule: "duplicate-url", Severity: lint.Warning},
		{File: "a.xml", Line: 6, Col: 1, Rule: "invalid-priority"},
		{File: "a.xml", Line: 7, Col: 1, Rule: "invalid-priority"},
		{File: "a.xml", Line: 8, Col: 1, Rule: "duplicate-url", Severity: lint.Warning},
		{File: "a.xml", Line: 1, Col: 1, Rule: "invalid-priority"},
		{File: "robots.txt", Line: 3, Rule: "blocked-by-robots"},
		{File: "b.xml", Line: 1, Col: 2, Rule: "invalid-url"},
		{File: "gone.xml", Rule: "http-error"},
		{File: "sitemap.xml", Line: 4, Col: 1, Rule: "invalid-url"},
	}
	want := []string{
		"sitemap.xml:4:1 invalid-url ",
		"b.xml:1:2 invalid-url ",
		"robots.txt:3:0 blocked-by-robots ",
		"a.xml:2:5 invalid-date ",
		"a.xml:4:1 duplicate-url ",
		"a.xml:5:1 duplicate-url ",
		"a.xml:6:1 invalid-priority ",
		"a.xml:7:1 invalid-priority ",
		"a.xml:9:1 invalid-date ",
		"a.xml:0:0 invalid-date 1 more invalid-date findings in this file not shown (--max-per-rule 2)",
		"a.xml:0:0 invalid-priority 1 more invalid-priority findings in this file not shown (--max-per-rule 2)",
		"a.xml:0:0 duplicate-url 1 more duplicate-url findings in this file not shown (--max-per-rule 2)",
		"gone.xml:0:0 http-error ",
		":0:0 too-many-index-files set-wide",
	}
	for range 20 { // map order must not show
		c := &lint.Collector{MaxPerRule: 2, LimitName: "--max-per-rule"}
		for _, d := range in {
			c.Add(d)
		}
		rep := c.Report(files)
		var got []string
		for _, d := range rep.Diagnostics {
			got = append(got, fmt.Sprintf("%s:%d:%d %s %s", d.File, d.Line, d.Col, d.Rule, d.Message))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("order:\n got %q\nwant %q", got, want)
		}
		s := rep.Summary
		if s.Files != 4 || s.FilesRead != 3 || s.URLs != 7 || s.Errors != 10 || s.Warnings != 4 || s.Infos != 0 || s.Omitted != 3 {
			t.Fatalf("summary %+v", s)
		}
		if r := s.Rules(); !slices.Equal(r, []string{"invalid-date", "invalid-priority", "invalid-url", "blocked-by-robots", "http-error", "duplicate-url", "too-many-index-files"}) {
			t.Fatalf("Rules() = %q", r)
		}
	}
}

// TestCollectorEmpty: a check with nothing found is a valid JSON document
// with empty lists, as CI consumers expect, not nulls.
func TestCollectorEmpty(t *testing.T) {
	b, err := json.Marshal(new(lint.Collector).Report(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"files":[],"diagnostics":[],"summary":{"files":0,"files_read":0,"urls":0,"errors":0,"warnings":0,"infos":0,"omitted":0,"by_rule":{}}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// TestCollectorConcurrent: Add may be called from several goroutines (an
// HTTP handler checking documents at once); nothing is lost.
func TestCollectorConcurrent(t *testing.T) {
	c := &lint.Collector{MaxPerRule: 10}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				c.Add(lint.Diagnostic{File: fmt.Sprint("f", g), Line: i + 1, Rule: "invalid-url"})
			}
		}()
	}
	wg.Wait()
	rep := c.Report(nil)
	if rep.Summary.Errors != 800 || rep.Summary.Omitted != 720 || len(rep.Diagnostics) != 8*11 {
		t.Errorf("summary %+v, %d listed", rep.Summary, len(rep.Diagnostics))
	}
}

// TestDiagnosticStringEscapes: a finding's text is one line whatever its
// file name and message hold: control characters, bidi controls and
// invalid UTF-8 are escaped as Go escapes them, the rest kept as it is.
func TestDiagnosticStringEscapes(t *testing.T) {
	d := lint.Diagnostic{File: "f/inj\n::error::x.xml", Line: 3, Col: 6, Rule: "duplicate-url", Severity: lint.Warning,
		Message: "URL listed twice: https://e.example/é\r\n::error file=pwn.go::INJECTED \x1b[31m\u202e\xff"}
	want := `f/inj\n::error::x.xml:3:6: warning[duplicate-url]: URL listed twice: https://e.example/é\r\n::error file=pwn.go::INJECTED \x1b[31m\u202e\xff`
	if got := d.String(); got != want {
		t.Errorf("String() = %q\nwant       %q", got, want)
	}
	plain := lint.Diagnostic{File: "s.xml", Line: 1, Rule: "invalid-url", Severity: lint.Error, Message: "loc: café"}
	if got := plain.String(); got != "s.xml:1: error[invalid-url]: loc: café" {
		t.Errorf("String() = %q", got)
	}
}
