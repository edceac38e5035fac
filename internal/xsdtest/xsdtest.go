// Package xsdtest checks, from tests, that files sitemapkit wrote pass the
// official schemas, by running the shared xsdcheck tool (xmllint).
package xsdtest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/sharedtest"
)

// Tool returns the path of the xsdcheck script: $SITEMAPKIT_XSDCHECK, or
// shared/tools/xsdcheck in the folder beside the module's root. It returns
// "" when there is none.
func Tool() string {
	if p := os.Getenv("SITEMAPKIT_XSDCHECK"); p != "" {
		return p
	}
	return sharedtest.Path("tools", "xsdcheck")
}

// Check validates every path (files, or folders searched for *.xml and
// *.xml.gz) against the schemas and fails t with xsdcheck's report when one
// is invalid. Without xmllint or the tool, it skips t, except under CI
// (CI=true), where a missing validator is a failure: CI must install it.
func Check(t testing.TB, paths ...string) {
	t.Helper()
	p := Tool()
	_, lintErr := exec.LookPath("xmllint")
	if p == "" || lintErr != nil {
		msg := "xsdcheck or xmllint not found (apt-get install -y libxml2-utils; shared/ beside the repo)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	out, err := exec.Command(p, paths...).CombinedOutput()
	if err != nil {
		t.Fatalf("schema validation failed: %v\n%s", err, out)
	}
}
