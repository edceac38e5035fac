package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestValidateSARIF: --format sarif writes a log that OASIS's SARIF 2.1.0
// schema accepts, with a result per finding listed, at its place, with
// SARIF's level and the rule it names declared.
func TestValidateSARIF(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	p := genWrite(t, dir, "sitemap.xml", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc><lastmod>yesterday</lastmod></url>
<url><loc>https://www.example.com/a</loc><priority>0.5</priority></url>
</urlset>`)
	// An index whose child is missing gives a finding about a whole
	// document, with no line.
	idx := genWrite(t, dir, "index.xml", `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://www.example.com/gone.xml</loc></sitemap>
</sitemapindex>`)

	for _, args := range [][]string{{p, idx}, {"-q", p}} {
		r := genRun(t, "", append([]string{"validate", "--offline", "--format", "sarif"}, args...)...)
		r.want(t, exitInputErrors)
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(r.stdout))
		if err != nil {
			t.Fatalf("%v: not JSON: %v\n%s", args, err, r.stdout)
		}
		if err := schema.Validate(inst); err != nil {
			t.Fatalf("%v: the SARIF schema refuses the log: %v\n%s", args, err, r.stdout)
		}
		var log sarifLog
		if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
			t.Fatal(err)
		}
		run := log.Runs[0]
		levels := map[string]string{}
		for _, res := range run.Results {
			if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
				t.Errorf("result %s: ruleIndex %d names %s", res.RuleID, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID)
			}
			loc := res.Locations[0].Physical
			levels[res.RuleID] = res.Level
			if res.RuleID == "invalid-date" && (loc.Region.StartLine != 3 || loc.Artifact.URI != "file://"+filepath.ToSlash(p)) {
				t.Errorf("invalid-date at %+v, want %s line 3", loc, p)
			}
		}
		want := map[string]string{"invalid-date": "error"}
		if args[0] != "-q" {
			want["duplicate-url"] = "warning"
			want["priority-ignored"] = "note"
		}
		for rule, level := range want {
			if levels[rule] != level {
				t.Errorf("%v: %s has level %q, want %q (results %v)", args, rule, levels[rule], level, levels)
			}
		}
		if args[0] == "-q" && len(levels) != 1 {
			t.Errorf("-q lists %v, want the errors alone", levels)
		}
	}
}

// TestSARIFURI: a local file inside the working folder is named relative to
// it, as code scanning names a repository's files; others are file: URIs.
func TestSARIFURI(t *testing.T) {
	wd := filepath.FromSlash("/repo")
	for name, want := range map[string]string{
		filepath.FromSlash("/repo/public/sitemap.xml"): "public/sitemap.xml",
		filepath.FromSlash("/elsewhere/a b.xml"):       "file:///elsewhere/a%20b.xml",
		"https://www.example.com/s.xml":                "https://www.example.com/s.xml",
		"http://127.0.0.1:8101/my map.xml":             "http://127.0.0.1:8101/my%20map.xml",
	} {
		if got := sarifURI(name, wd); got != want {
			t.Errorf("sarifURI(%q) = %q, want %q", name, got, want)
		}
	}
	// Relative paths are the working folder's.
	real, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"public/x:y.xml": "public/x:y.xml",
		"x:y.xml":        "./x:y.xml",
		"../sibling.xml": "file://" + filepath.ToSlash(filepath.Join(filepath.Dir(real), "sibling.xml")),
	} {
		if got := sarifURI(name, real); got != want {
			t.Errorf("sarifURI(%q) = %q, want %q", name, got, want)
		}
	}
}
