package main

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionOf(t *testing.T) {
	for _, c := range []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.4.2"}}, "v1.4.2"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, "devel-0123456789ab+dirty"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "devel-abc"},
		{debug.BuildInfo{}, "devel"},
	} {
		if got := versionOf(&c.info); got != c.want {
			t.Errorf("%+v: %q, want %q", c.info.Main, got, c.want)
		}
	}
}

// TestRootCommand: the version, the help without a command (a usage
// error), and an unknown command with the nearest one to try.
func TestRootCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		r := genRun(t, "", args...)
		r.want(t, 0)
		if r.stdout != "sitemapkit "+version()+"\n" {
			t.Errorf("%v: %q", args, r.stdout)
		}
	}
	r := genRun(t, "")
	r.want(t, exitUsage)
	if !strings.Contains(r.stdout, "Available Commands:") || !strings.Contains(r.stdout, "submit") {
		t.Errorf("no command: no help on stdout:\n%s", r.stdout)
	}
	r = genRun(t, "", "validat", "x.xml")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, `unknown command "validat"`) || !strings.Contains(r.stderr, "Try: sitemapkit validate") {
		t.Errorf("unknown command: %s", r.stderr)
	}
}

// TestFormatNotes: --format txt says what it leaves out; --gzip on a set
// of one file says why that file is plain.
func TestFormatNotes(t *testing.T) {
	dir := t.TempDir()
	in := genWrite(t, dir, "u.csv", "loc,lastmod\n"+genBase+"a,2024-01-01\n")
	r := genRun(t, "", "generate", "--base", genBase, "--out", dir+"/txt", "--format", "txt", in)
	r.want(t, 0)
	if !strings.Contains(r.stdout, "Text sitemaps hold URLs only") {
		t.Errorf("--format txt:\n%s", r.stdout)
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", dir+"/gz", "--gzip", in)
	r.want(t, 0)
	if !strings.Contains(r.stdout, "Not gzipped: the set fits in one file, sitemap.xml") {
		t.Errorf("--gzip with one file:\n%s", r.stdout)
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", dir+"/gz2", "--gzip", "--index", "always", in)
	r.want(t, 0)
	if strings.Contains(r.stdout, "Not gzipped") {
		t.Errorf("--gzip with an index:\n%s", r.stdout)
	}
}

// TestPlainErrors: an --out that is a file, a missing input, and --strict
// with a refused line are worded as what went wrong, and --strict makes no
// folder and does not say the line was left out of a set it did not
// publish.
func TestPlainErrors(t *testing.T) {
	dir := t.TempDir()
	in := genWrite(t, dir, "u.txt", genBase+"a\nhttps://other.example/b\n")
	afile := genWrite(t, dir, "afile", "x")
	r := genRun(t, "", "generate", "--base", genBase, "--out", afile, in)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, afile+" is a file, not a folder") || strings.Contains(r.stderr, "mkdir") {
		t.Errorf("--out a file: %s", r.stderr)
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", dir+"/out", dir+"/missing.txt")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "missing.txt: no such file or folder") || strings.Contains(r.stderr, "stat ") {
		t.Errorf("a missing input: %s", r.stderr)
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", dir+"/strict", "--strict", in)
	r.want(t, exitInputErrors)
	if strings.Contains(r.stderr, "left out of the set") || !strings.Contains(r.stderr, "nothing was published") {
		t.Errorf("--strict: %s", r.stderr)
	}
	if _, err := os.Stat(dir + "/strict"); err == nil {
		t.Error("--strict with a refused line made --out")
	}
}
