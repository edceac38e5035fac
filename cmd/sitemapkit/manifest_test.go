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

	// The manifest and the state are two files, however spelt.
	rel, err := filepath.Rel(mustGetwd(t), st)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{st, rel} {
		r = genRun(t, "", "generate", "--base", genBase, "--out", out, "--state", st, "--manifest", m, in)
		r.want(t, exitUsage)
		if !strings.Contains(r.stderr, "--manifest") || !strings.Contains(r.stderr, "the state's file") {
			t.Errorf("--manifest %s, the state's file: %s", m, r.stderr)
		}
	}
	// Not inside --out, where it would be deployed or take a file's name.
	r = genRun(t, "", "generate", "--base", genBase, "--out", out, "--manifest", filepath.Join(out, "sitemap.xml"), in)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "inside the output folder") {
		t.Errorf("--manifest inside --out: %s", r.stderr)
	}
	afile := genWrite(t, dir, "afile", "x")
	r = genRun(t, "", "generate", "--base", genBase, "--out", filepath.Join(dir, "o3"), "--manifest", filepath.Join(afile, "m.json"), in)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, afile+" is a file, not a folder") {
		t.Errorf("--manifest under a file: %s", r.stderr)
	}
	// A dry run makes no folder for it.
	fresh := filepath.Join(dir, "fresh", "sub", "m.json")
	genRun(t, "", "generate", "--base", genBase, "--out", filepath.Join(dir, "dry"), "--manifest", fresh, "--dry-run", in).want(t, 0)
	if _, err := os.Stat(filepath.Join(dir, "fresh")); err == nil {
		t.Error("--dry-run made the manifest's folder")
	}
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
