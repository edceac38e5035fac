package main

import (
	"bytes"
	"testing"

	"github.com/sitemapkit/sitemapkit/lint"
)

// TestReportJSONStreamed: validate --format json, written a file and a
// diagnostic at a time, is the report's JSON as writeJSON encodes it
// whole, byte for byte.
func TestReportJSONStreamed(t *testing.T) {
	files := []lint.FileResult{
		{Name: "https://e.com/sitemap.xml?a=1&b=<2>", URL: "https://e.com/sitemap.xml", Read: true, Format: "sitemapindex", URLs: 2, Bytes: 300},
		{Name: "https://e.com/s1.xml.gz", Parent: "https://e.com/sitemap.xml", Read: true, Format: "urlset", URLs: 7, Compressed: "gzip", Errors: 1, Omitted: map[string]int{"x": 1}},
		{Name: "https://e.com/s2.xml", Parent: "https://e.com/sitemap.xml", Format: "unknown"},
	}
	diags := []lint.Diagnostic{
		{File: "https://e.com/s1.xml.gz", Line: 3, Col: 5, Rule: "invalid-url", Severity: lint.Error, Message: `"a<b>&c" is not a URL`},
		{File: "https://e.com/sitemap.xml", Line: 4, Rule: "http-error", Severity: lint.Error, Message: "https://e.com/s2.xml: HTTP 404 Not Found"},
	}
	sum := lint.Summary{Files: 3, FilesRead: 2, URLs: 7, Errors: 2, ByRule: map[string]lint.RuleCount{"invalid-url": {Severity: lint.Error, Count: 1}, "http-error": {Severity: lint.Error, Count: 1}}}
	for _, rep := range []*lint.Report{
		{Files: files, Diagnostics: diags, Summary: sum},
		{Files: files[:1], Diagnostics: []lint.Diagnostic{}, Summary: sum},
		{Files: []lint.FileResult{}, Diagnostics: []lint.Diagnostic{}},
		{},
	} {
		var whole, streamed bytes.Buffer
		if err := writeJSON(&whole, rep); err != nil {
			t.Fatal(err)
		}
		if err := writeReportJSON(&streamed, rep); err != nil {
			t.Fatal(err)
		}
		if streamed.String() != whole.String() {
			t.Errorf("streamed:\n%s\nwant:\n%s", streamed.String(), whole.String())
		}
	}
}
