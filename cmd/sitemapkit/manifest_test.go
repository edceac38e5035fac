package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManifestOutsideOut: --manifest keeps the set's manifest out of the
// folder that is deployed; the first run with it takes over the one in
// --out; later runs still remove the set's old files; submit finds the set
// through it, and says where to look when it is not told.
func TestManifestOutsideOut(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	mf := filepath.Join(dir, "meta", "manifest.json")
	st := filepath.Join(dir, "meta", "state.db")
	in := genWrite(t, dir, "in.txt", genBase+"a\n"+genBase+"b\n"+genBase+"c\n")
	gen := func(extra ...string) genResult {
		r := genRun(t, "", append([]string{"generate", "--base", genBase, "--out", out, "--max-urls", "1", "--state", st, in}, extra...)...)
		r.want(t, 0)
		return r
	}
	gen() // the manifest in --out, as before
	if _, err := os.Stat(filepath.Join(out, ".sitemapkit-manifest-sitemap.json")); err != nil {
		t.Fatal(err)
	}
	gen("--manifest", mf)
	genWrite(t, dir, "in.txt", genBase+"a\n")
	gen("--manifest", mf)
	names, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, n := range names {
		files = append(files, n.Name())
		if strings.HasPrefix(n.Name(), ".sitemapkit") {
			t.Errorf("%s is in --out, to be deployed", n.Name())
		}
	}
	if len(files) != 1 || files[0] != "sitemap.xml" {
		t.Errorf("--out holds %v, want the one sitemap left", files)
	}
	if _, err := os.Stat(mf); err != nil {
		t.Errorf("no manifest at --manifest: %v", err)
	}

	r := genRun(t, "", "submit", "--base", genBase, "--out", out, "--state", st, "--manifest", mf, "--dry-run")
	r.want(t, 0)
	r = genRun(t, "", "submit", "--base", genBase, "--out", out, "--state", st, "--dry-run")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "generate --manifest") {
		t.Errorf("submit without --manifest: %s", r.stderr)
	}

	// The manifest and the state are two files.
	r = genRun(t, "", "generate", "--base", genBase, "--out", out, "--state", st, "--manifest", st, in)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "--manifest") {
		t.Errorf("--manifest the state's file: %s", r.stderr)
	}
}
