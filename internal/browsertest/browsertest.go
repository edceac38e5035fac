// Package browsertest tells the tests that render pages whether they can:
// Chromium on $PATH. Without it a test is skipped, but in CI (where .ci/run
// installs it) it fails, so that the rendering is never untested there.
package browsertest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Need skips t, or fails it in CI, when there is no chromium on $PATH.
func Need(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("chromium"); err == nil {
		return
	}
	if v := strings.ToLower(os.Getenv("CI")); v != "" && v != "false" && v != "0" {
		t.Fatal("no chromium on $PATH: .ci/run installs Debian's chromium package")
	}
	t.Skip("no chromium on $PATH (apt-get install chromium)")
}
