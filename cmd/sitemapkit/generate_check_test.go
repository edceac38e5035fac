package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateChecksWhatItWrote: what validate warns about in a set the
// Builder accepts (deprecated tags, old news, hreflang without a self-link
// or not returned) is reported by generate, from validate's own rules, in
// the text summary and the JSON one; a set without extensions is not read
// again.
func TestGenerateChecksWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	in := genWrite(t, dir, "in.jsonl", `{"loc":"`+genBase+`a","images":[{"loc":"`+genBase+`a.jpg","caption":"old"}]}
{"loc":"`+genBase+`b","news":{"publication":{"name":"X","language":"en"},"publication_date":"2020-01-01","title":"Old"}}
{"loc":"`+genBase+`c","alternates":[{"hreflang":"de","href":"`+genBase+`d"}]}
{"loc":"`+genBase+`d","alternates":[{"hreflang":"de","href":"`+genBase+`d"},{"hreflang":"en","href":"`+genBase+`e"}]}
`)
	out := filepath.Join(dir, "out")
	r := genRun(t, "", "generate", "--base", genBase, "--out", out, in)
	r.want(t, 0) // warnings do not fail the run
	v := genRun(t, "", "validate", "--base", genBase, out)
	for _, rule := range []string{"deprecated-tag", "news-too-old", "hreflang-missing-self", "hreflang-not-reciprocal"} {
		// The same finding, at the same place, as validate's.
		var line string
		for l := range strings.SplitSeq(v.stdout, "\n") {
			if strings.Contains(l, "warning["+rule+"]") {
				line = l
			}
		}
		if line == "" || !strings.Contains(r.stdout, "  "+line+"\n") {
			t.Errorf("generate does not report validate's %q:\n%s\nvalidate:\n%s", line, r.stdout, v.stdout)
		}
	}
	if !strings.Contains(r.stdout, "Checked as sitemapkit validate would: 0 errors, 4 warnings") {
		t.Errorf("summary:\n%s", r.stdout)
	}

	r = genRun(t, "", "generate", "--base", genBase, "--out", out, "--format", "json", in)
	r.want(t, 0)
	var s jsonSummary
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatal(err)
	}
	if s.Checks == nil || s.Checks.Summary.Warnings != 4 || s.Checks.Summary.ByRule["news-too-old"].Count != 1 {
		t.Errorf("JSON checks: %+v", s.Checks)
	}

	// Sitemaps on another host (cross-submission) are not read back
	// offline, where every URL would look out of scope.
	r = genRun(t, "", "generate", "--base", genBase, "--public-url", "https://cdn.example.net/sm/", "--out", filepath.Join(dir, "cdn"), in)
	r.want(t, 0)
	if strings.Contains(r.stdout, "Checked as") || !strings.Contains(r.stdout, "Not checked as sitemapkit validate would: the sitemaps are on another host") {
		t.Errorf("cross-host public URL:\n%s", r.stdout)
	}

	plain := genWrite(t, dir, "plain.txt", genBase+"x\n")
	r = genRun(t, "", "generate", "--base", genBase, "--out", filepath.Join(dir, "plain"), "--format", "json", plain)
	r.want(t, 0)
	s = jsonSummary{}
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s.Checks != nil {
		t.Errorf("a set without extensions was read again: %+v, %v", s.Checks, err)
	}
}
