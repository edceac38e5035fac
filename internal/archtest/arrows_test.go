package archtest

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/sitemapkit/sitemapkit/"

// allowed lists, for each package of the module (relative to its root), the
// packages of the module it may import in non-test code. A package missing
// from the table fails the test, so a new package has to take its place in
// the graph (and in docs/architecture.md) deliberately.
var allowed = map[string][]string{
	"sitemap":              {"internal/zstdwin", "internal/gunzip"},
	"loc":                  {"sitemap"},
	"internal/robots":      {},
	"internal/fetch":       {"sitemap", "internal/zstdwin", "internal/gunzip"},
	"discover":             {"sitemap", "loc", "internal/fetch", "internal/robots", "internal/zstdwin"},
	"lint":                 {"sitemap", "loc", "discover", "publish"},
	"source":               {"sitemap", "loc", "discover", "fingerprint", "internal/nearest", "internal/fetch", "internal/atomicfile", "internal/gunzip", "internal/htmltoken"},
	"render":               {},
	"internal/browsertest": {},
	"fingerprint":          {"internal/htmltoken"},
	"internal/htmltoken":   {},
	"state":                {"sitemap", "publish", "internal/offheap"},
	"source/sqlite":        {"source"},
	"source/postgres":      {"source"},
	"publish":              {"sitemap", "loc", "internal/offheap", "internal/atomicfile"},
	"internal/offheap":     {},
	"internal/zstdwin":     {},
	"internal/gunzip":      {},
	"internal/atomicfile":  {},
	"internal/nearest":     {},
	"internal/googletest":  {},
	"config":               {"sitemap", "loc", "source", "publish", "fingerprint", "feed", "internal/nearest"},
	"feed":                 {"sitemap"},
	"submit":               {"internal/robots", "internal/fetch", "publish", "state"},
	"cmd/sitemapkit":       {"*"},
	"internal/archtest":    {},
	"internal/longtest":    {},
	"internal/pgtest":      {},
	"internal/sharedtest":  {},
	"internal/sitetest":    {},
	"internal/xsdtest":     {"internal/sharedtest"},
}

func TestImportArrows(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		allow, ok := allowed[rel]
		if !ok {
			t.Errorf("package %s is not in the table of import arrows: give it its place in allowed (and in docs/architecture.md)", rel)
			return nil
		}
		if slices.Contains(allow, "*") {
			return nil
		}
		for _, imp := range pkg.Imports {
			ours, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if !slices.Contains(allow, ours) {
				t.Errorf("%s imports %s against the arrows: it may import only %v of ours", rel, ours, allow)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range allowed {
		if !seen[rel] {
			t.Errorf("package %s is in the table of import arrows but not in the module: remove its entry", rel)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "architecture.md")); err != nil {
		t.Errorf("docs/architecture.md, the map of these arrows, is missing: %v", err)
	}
}
