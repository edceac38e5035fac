package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// A zstd sitemap in a folder is found by validate and generate --sitemap,
// as it is read when named: the folder scan detects formats as the reader
// does.
func TestFolderWithZstdSitemap(t *testing.T) {
	dir := t.TempDir()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	data := enc.EncodeAll([]byte(xmlURLSet(entry(vbase+"z1"), entry(vbase+"z2"))), nil)
	if err := os.WriteFile(filepath.Join(dir, "z.xml.zst"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := sk(t, "validate", filepath.Join(dir, "z.xml.zst")); code != 0 {
		t.Fatalf("validate z.xml.zst: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := sk(t, "validate", dir); code != 0 {
		t.Errorf("validate dir/: exit %d\n%s%s", code, out, errOut)
	}
	out := filepath.Join(t.TempDir(), "public")
	if code, o, e := sk(t, "generate", "--base", vbase, "--out", out, "--sitemap", dir); code != 0 {
		t.Fatalf("generate --sitemap dir/: exit %d\n%s%s", code, o, e)
	}
	b, err := os.ReadFile(filepath.Join(out, "sitemap.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, loc := range []string{vbase + "z1", vbase + "z2"} {
		if !strings.Contains(string(b), "<loc>"+loc+"</loc>") {
			t.Errorf("generate --sitemap dir/ lost %s:\n%s", loc, b)
		}
	}
}
