// Package sharedtest finds, from tests, the project's reference material:
// the shared/ folder beside the repository (the corpus, the schemas and
// xsdcheck), which CI provides and a developer may not have.
package sharedtest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	rootOnce sync.Once
	root     string
)

// Path returns the path of elem inside shared/, the folder beside the
// module's root, or "" when it does not exist.
func Path(elem ...string) string {
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				root = filepath.Join(filepath.Dir(dir), "shared")
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return
			}
			dir = parent
		}
	})
	if root == "" {
		return ""
	}
	p := filepath.Join(append([]string{root}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// Corpus returns the path of the corpus file or folder rel (slash-separated,
// "" for the corpus itself). Without it, it skips t, except under CI
// (CI=true), which must provide ../shared: there it fails t.
func Corpus(t testing.TB, rel string) string {
	t.Helper()
	p := Path("corpus", filepath.FromSlash(rel))
	if p == "" {
		msg := strings.TrimSuffix("shared/corpus/"+rel, "/") + " not found beside the repository"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + ": CI must provide it")
		}
		t.Skip(msg)
	}
	return p
}
