package lint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
)

// A schemaDisagreement is a file on which the official schemas and Google
// disagree, and the rule we follow.
type schemaDisagreement struct {
	xsdValid bool     // what xsdcheck says
	rule     string   // the rule we report; "" when we accept the file
	severity Severity // its severity
	why      string
}

// schemaDisagreements documents, by file name, where the checker departs
// from ../shared/spec/xsd. Everywhere else a schema failure must be one of
// our errors.
var schemaDisagreements = map[string]schemaDisagreement{
	"lastmod_noTZ.xml": {true, TimeWithoutZone.Name, Error,
		"xsd:dateTime accepts a time without a zone; W3C datetime and Google (\"Invalid date\") do not"},
	"videonoloc.xml": {true, InvalidVideo.Name, Error,
		"the video schema cannot require one of content_loc and player_loc; Google requires one"},
	"news-hhmm.xml": {false, "", Error,
		"the news schema refuses hh:mm without seconds; W3C datetime and Google's news docs allow it"},
	"lastmod-w3c.xml": {false, "", Error,
		"the sitemap schema refuses YYYY, YYYY-MM and hh:mm without seconds; W3C datetime, which the protocol names, allows them"},
	"unknownns.xml": {false, UnknownTag.Name, Warning,
		"the schemas' strict wildcard refuses namespaces without a loaded schema; Google ignores such elements"},
	"misspelt-tag.xml": {false, UnknownTag.Name, Warning,
		"the sitemap schema refuses elements it does not define; Google ignores them (and so the value a misspelt <lastmod> holds)"},
	"url-in-index.xml": {false, UnknownTag.Name, Warning,
		"the index schema refuses a <url>; Google reads the index's <sitemap> entries and ignores it"},
	"empty.xml": {false, EmptySitemap.Name, Warning,
		"the schema requires one <url>; Search Console calls an empty sitemap a harmless warning"},
	"empty-index.xml": {false, EmptySitemap.Name, Warning,
		"the schema requires one <sitemap>; an empty index is read, with a warning"},
}

// xsdInvalid runs xsdcheck once on files and returns the ones it refuses.
// It skips t without the tool or xmllint, except under CI.
func xsdInvalid(t *testing.T, files []string) map[string]bool {
	t.Helper()
	tool := xsdtest.Tool()
	_, lintErr := exec.LookPath("xmllint")
	if tool == "" || lintErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("xsdcheck or xmllint not found")
		}
		t.Skip("xsdcheck or xmllint not found (apt-get install -y libxml2-utils; shared/ beside the repo)")
	}
	out, err := exec.Command(tool, files...).CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("xsdcheck: %v\n%s", err, out)
	}
	invalid := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		for _, f := range files {
			if strings.HasPrefix(line, f+": INVALID") || strings.HasPrefix(line, f+": not a sitemap") {
				invalid[f] = true
			}
		}
	}
	if !strings.Contains(string(out), fmt.Sprintf("%d invalid", len(invalid))) {
		t.Fatalf("could not read xsdcheck's report (found %d invalid):\n%s", len(invalid), out)
	}
	return invalid
}

// TestSchemaAgreement checks that every schema failure of the shared
// samples (positive and negative) and of our own testdata is an error here,
// except the documented disagreements; and that the schema-valid samples
// have no error here (scope rules are skipped: their public URL is not
// known).
func TestSchemaAgreement(t *testing.T) {
	samples := filepath.Join("..", "..", "shared", "spec", "samples")
	var files []string
	for _, pat := range []string{
		filepath.Join(samples, "*.xml"), filepath.Join(samples, "neg", "*.xml"),
		filepath.Join("testdata", "*.xml"), filepath.Join("testdata", "schema", "*.xml"),
	} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Skipf("only %d files: shared/spec/samples not beside the repo", len(files))
	}
	invalid := xsdInvalid(t, files)
	seen := map[string]bool{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var diags []Diagnostic
			c := &Checker{Now: testNow, Report: func(d Diagnostic) { diags = append(diags, d) }}
			if _, err := c.CheckDocument(context.Background(), f, "", bytes.NewReader(data)); err != nil {
				t.Fatal(err)
			}
			c.Finish()
			var errs []Diagnostic
			has := func(rule string, sev Severity) bool {
				for _, d := range diags {
					if d.Rule == rule && d.Severity == sev {
						return true
					}
				}
				return false
			}
			for _, d := range diags {
				if d.Severity == Error {
					errs = append(errs, d)
				}
			}
			valid := !invalid[f]
			if dis, ok := schemaDisagreements[filepath.Base(f)]; ok {
				seen[filepath.Base(f)] = true
				if valid != dis.xsdValid {
					t.Errorf("xsdcheck says valid=%v; the disagreement table says %v", valid, dis.xsdValid)
				}
				switch {
				case dis.rule == "" && len(errs) > 0:
					t.Errorf("we should accept the file (%s), but report %v", dis.why, errs)
				case dis.rule != "" && !has(dis.rule, dis.severity):
					t.Errorf("we should report %s[%s] (%s); got %v", dis.severity, dis.rule, dis.why, diags)
				}
				return
			}
			if !valid && len(errs) == 0 {
				t.Errorf("the schemas refuse the file but the checker reports no error; got %v", diags)
			}
			if valid && len(errs) > 0 && !isTestdata(f) {
				t.Errorf("the schemas accept the sample but the checker reports errors: %v", errs)
			}
		})
	}
	for name := range schemaDisagreements {
		if !seen[name] {
			t.Errorf("disagreement %s: no such file was checked", name)
		}
	}
}

func isTestdata(path string) bool {
	return filepath.Base(filepath.Dir(path)) == "testdata"
}
