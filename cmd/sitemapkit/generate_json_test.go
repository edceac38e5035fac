package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateJSONSummary: --format json prints the summary as one JSON
// document that says what was written (the files on disk, their sizes),
// what was refused and left out, and --format txt,json does both.
func TestGenerateJSONSummary(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.csv")
	genWrite(t, filepath.Dir(in), "in.csv", "loc,lastmod,priority\n"+
		"https://www.example.com/a,2024-05-01,0.5\n"+
		"https://www.example.com/b,2024-05-01,1.5\n"+
		"https://other.example.org/c,,\n"+
		"https://www.example.com/a,,\n")
	for _, tc := range []struct {
		args []string
		ext  string
	}{
		{[]string{"--format", "json"}, ".xml"},
		{[]string{"--format", "txt,json"}, ".txt"},
		{[]string{"--format", "json", "--format", "txt", "--index", "always"}, ".txt"},
	} {
		out := t.TempDir()
		r := genRun(t, "", append([]string{"generate", "--base", genBase, "--out", out, in}, tc.args...)...)
		r.want(t, exitInputErrors) // a line was refused
		var s jsonSummary
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("%v: stdout is not the JSON summary: %v\n%s", tc.args, err, r.stdout)
		}
		if s.DryRun || s.Dir != out || s.URLs != 2 || s.Duplicates != 1 || len(s.Submit) != 1 {
			t.Errorf("%v: %+v", tc.args, s)
		}
		if rr := s.Refused.ByRule["url-not-allowed"]; s.Refused.Count != 1 || rr.Count != 1 || !strings.Contains(rr.Examples[0], "in.csv:4") {
			t.Errorf("%v: refused %+v, want line 4 url-not-allowed", tc.args, s.Refused)
		}
		// A text sitemap has no priority to leave out.
		if want := map[string]int{".xml": 1, ".txt": 0}[tc.ext]; s.FieldsLeftOut.Count != want || s.FieldsLeftOut.ByRule["invalid-priority"].Count != want {
			t.Errorf("%v: fields left out %+v, want %d, the priority of line 3", tc.args, s.FieldsLeftOut, want)
		}
		for _, f := range s.Files {
			fi, err := os.Stat(filepath.Join(out, f.Name))
			if err != nil || fi.Size() != f.Bytes {
				t.Errorf("%v: file %+v: on disk %v %v", tc.args, f, fi, err)
			}
			if !f.Index && filepath.Ext(f.Name) != tc.ext {
				t.Errorf("%v: file %s, want %s sitemaps", tc.args, f.Name, tc.ext)
			}
		}
		if tc.ext == ".txt" && !strings.Contains(strings.Join(s.Notes, " "), "Text sitemaps hold URLs only") {
			t.Errorf("%v: notes %q lack the text format's", tc.args, s.Notes)
		}
	}

	// A dry run says so; the set format of a config file stays when
	// --format names only the summary's.
	dir := t.TempDir()
	cfg := genWrite(t, dir, "sitemapkit.toml", "base = \""+genBase+"\"\nout = \"out\"\nformat = \"txt\"\n[[source]]\ntype = \"files\"\npaths = [\""+filepath.ToSlash(in)+"\"]\n")
	r := genRun(t, "", "generate", "--config", cfg, "--format", "json", "--dry-run")
	r.want(t, 0)
	var s jsonSummary
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatalf("dry run: %v\n%s", err, r.stdout)
	}
	if !s.DryRun || len(s.Files) != 1 || s.Files[0].Name != "sitemap.txt" {
		t.Errorf("dry run with format = txt in the file: %+v", s)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("the dry run wrote --out")
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", t.TempDir(), "--format", "yaml", in)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, `"yaml" is not one of xml, txt, json`) {
		t.Errorf("--format yaml: %s", r.stderr)
	}
	for _, f := range [][]string{{"--format", "xml,txt"}, {"--format", "txt", "--format", "xml"}} {
		r = genRun(t, "", append([]string{"generate", "--base", genBase, "--out", t.TempDir(), in}, f...)...)
		r.want(t, exitUsage)
		if !strings.Contains(r.stderr, "a set has one format") {
			t.Errorf("%v: %s", f, r.stderr)
		}
	}
}

// TestLinesIn: the duplicate set's size is estimated from a plain file's
// size and its first lines, and not guessed for a gzipped one.
func TestLinesIn(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&b, "https://www.example.com/p/%d\n", i)
	}
	plain := genWrite(t, dir, "u.txt", b.String())
	if n := linesIn(plain); n < 45000 || n > 55000 {
		t.Errorf("linesIn = %d, want about 50,000", n)
	}
	if n := linesIn(genWrite(t, dir, "u.txt.gz", genGzip(t, b.String()))); n != 0 {
		t.Errorf("linesIn of a gzipped file = %d, want 0", n)
	}
	if n := linesIn(filepath.Join(dir, "missing")); n != 0 {
		t.Errorf("linesIn of a missing file = %d", n)
	}
	// Lines that cannot hold a URL are no URLs: a file of newlines (a
	// gigabyte of them reserved 16 GB, and crashed the run), or of
	// whitespace and short lines, reserves nothing.
	blank := genWrite(t, dir, "blank.txt", strings.Repeat("\n", 4<<20)+"https://www.example.com/a\n")
	if n := linesIn(blank); n != 0 {
		t.Errorf("linesIn of 4 Mi blank lines = %d, want 0", n)
	}
	short := genWrite(t, dir, "short.txt", strings.Repeat(" \t\r\n#\nhttp://a.b\n", 1<<18))
	if n := linesIn(short); n != 0 {
		t.Errorf("linesIn of lines too short for a URL = %d, want 0", n)
	}
	// Blank lines among URLs count for nothing either.
	b.Reset()
	for i := range 50000 {
		fmt.Fprintf(&b, "https://www.example.com/p/%d\n\n\n\n", i)
	}
	if n := linesIn(genWrite(t, dir, "gaps.txt", b.String())); n < 45000 || n > 55000 {
		t.Errorf("linesIn of URLs between blank lines = %d, want about 50,000", n)
	}
}
