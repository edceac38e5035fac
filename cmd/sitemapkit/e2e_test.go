package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
)

// TestGenerateThenValidate publishes the shipped examples (every input
// format, every extension) split into an index and gzipped children, and
// checks that our own checker finds no error in what our own generator
// wrote, that the schemas accept it, and that read gives every URL back.
func TestGenerateThenValidate(t *testing.T) {
	inputs := []string{"../../examples/urls.txt", "../../examples/products.csv", "../../examples/posts.jsonl"}
	out := filepath.Join(t.TempDir(), "public")
	args := append([]string{"generate", "--base", vbase, "--out", out, "--gzip", "--max-urls", "4"}, inputs...)
	code, summary, errOut := sk(t, args...)
	if code != 0 {
		t.Fatalf("generate: exit %d\n%s%s", code, summary, errOut)
	}
	xsdtest.Check(t, out)

	code, js, errOut := sk(t, "validate", "--format", "json", "--base", vbase, "--offline", filepath.Join(out, "sitemap.xml"))
	var report struct {
		Files       []struct{ Name, Format string }
		Diagnostics []struct{ Rule, Severity, Message string }
		Summary     struct{ URLs, Errors int }
	}
	if err := json.Unmarshal([]byte(js), &report); err != nil {
		t.Fatalf("validate --format json: %v\n%s%s", err, js, errOut)
	}
	for _, d := range report.Diagnostics {
		if d.Severity == "error" {
			t.Errorf("validate found an error in generate's output: %s: %s", d.Rule, d.Message)
		}
	}
	if code != 0 || report.Summary.Errors != 0 {
		t.Errorf("validate: exit %d, %d errors\n%s", code, report.Summary.Errors, js)
	}
	children := 0
	for _, f := range report.Files {
		if f.Format == "urlset" {
			children++
		}
	}
	if children < 2 {
		t.Errorf("validate read %d children, want the whole index followed (%+v)", children, report.Files)
	}

	want := 0
	for _, in := range inputs {
		b, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "loc,") {
				want++
			}
		}
	}
	code, text, errOut := sk(t, "read", "--format", "text", filepath.Join(out, "sitemap.xml"))
	if got := strings.Count(text, "\n"); code != 0 || got != want || report.Summary.URLs != want {
		t.Errorf("read: exit %d, %d URLs; validate counted %d; the inputs hold %d\n%s", code, got, report.Summary.URLs, want, errOut)
	}
}
