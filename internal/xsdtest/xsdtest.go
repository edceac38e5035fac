// Package xsdtest checks, from tests, that files sitemapkit wrote pass the
// official schemas, by running the shared xsdcheck tool (xmllint).
package xsdtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	findOnce sync.Once
	tool     string
)

// Tool returns the path of the xsdcheck script: $SITEMAPKIT_XSDCHECK, or
// shared/tools/xsdcheck in the folder beside the module's root. It returns
// "" when there is none.
func Tool() string {
	findOnce.Do(func() {
		if p := os.Getenv("SITEMAPKIT_XSDCHECK"); p != "" {
			tool = p
			return
		}
		dir, err := os.Getwd()
		if err != nil {
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				p := filepath.Join(filepath.Dir(dir), "shared", "tools", "xsdcheck")
				if _, err := os.Stat(p); err == nil {
					tool = p
				}
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return
			}
			dir = parent
		}
	})
	return tool
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
