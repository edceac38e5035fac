package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/longtest"
)

// TestReadValidateMemory: read and validate of a set of 3,000,000 URLs (an
// index and 60 gzipped sitemaps) by the built command stay within the
// issue's 64 MiB of peak RSS: read keeps nothing a URL, validate its
// duplicate table in memory to a million URLs, then on disk.
func TestReadValidateMemory(t *testing.T) {
	longtest.Skip(t, "builds the command and reads 3,000,000 URLs twice")
	const n = 3_000_000
	bin := filepath.Join(t.TempDir(), "sitemapkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	in := benchWorkload(t, n)
	set := filepath.Join(t.TempDir(), "set")
	if out, err := exec.Command(bin, "generate", "-q", "--base", genBase, "--out", set, "--gzip", "--no-dedupe", in).CombinedOutput(); err != nil {
		t.Fatalf("generate: %v\n%s", err, out)
	}
	index := filepath.Join(set, "sitemap.xml")
	for _, args := range [][]string{{"read", "--format", "jsonl", index}, {"validate", "-q", "--base", genBase, index}} {
		var out countingWriter
		cmd := exec.Command(bin, args...)
		cmd.Stdout = &out
		peak := peakRSS(t, cmd)
		t.Logf("%s of %d URLs: peak RSS %.1f MiB", args[0], n, float64(peak)/(1<<20))
		if peak > 64<<20 {
			t.Errorf("%s: peak RSS %.1f MiB, over 64 MiB", args[0], float64(peak)/(1<<20))
		}
		if args[0] == "read" && out.lines != n {
			t.Errorf("read printed %d lines, want %d", out.lines, n)
		}
	}
}
