package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/config"
)

// TestInit writes the starter into the current folder, as a person runs it,
// and loads what it wrote.
func TestInit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	r := genRun(t, "", "init", "--base", "https://shop.example.org/")
	r.want(t, exitOK)
	wantOut := "Wrote sitemapkit.toml.\nNext: set out (public/ for now) and the sources (urls.txt for now) in it, then run:\n  sitemapkit generate\n"
	if r.stdout != wantOut {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, wantOut)
	}
	c, err := config.Load(filepath.Join(dir, config.FileName))
	if err != nil {
		t.Fatalf("the written file does not load: %v", err)
	}
	if c.Base != "https://shop.example.org/" {
		t.Errorf("base %q", c.Base)
	}
	if c.Out != filepath.Join(dir, "public") {
		t.Errorf("out %q, want the public folder next to the file", c.Out)
	}

	// A second run leaves the file (edited since) as it is.
	p := filepath.Join(dir, config.FileName)
	edited := []byte("# mine\n")
	if err := os.WriteFile(p, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	r = genRun(t, "", "init")
	r.want(t, exitUsage)
	if want := "sitemapkit: init: sitemapkit.toml exists; it is left as it is\nTry: sitemapkit init --force (to replace it), or --config OTHER.toml\n"; r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
	if b, _ := os.ReadFile(p); string(b) != string(edited) {
		t.Errorf("the file was changed without --force:\n%s", b)
	}

	// --force replaces it.
	r = genRun(t, "", "init", "--force")
	r.want(t, exitOK)
	if b, _ := os.ReadFile(p); string(b) != config.Starter("") {
		t.Errorf("--force wrote:\n%s\nwant the starter", b)
	}
	if !strings.HasPrefix(r.stdout, "Wrote sitemapkit.toml.\nNext: set base (https://www.example.com/ for now), out (public/ for now) and") {
		t.Errorf("stdout without --base:\n%s", r.stdout)
	}
}

// TestInitConfigPath writes the file elsewhere, into folders that do not
// exist yet, as init's example does (--config site/sitemaps.toml).
func TestInitConfigPath(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "my site", "new", "sitemaps.toml")
	for _, flag := range []string{"--config", "-o"} {
		os.Remove(p)
		r := genRun(t, "", "init", flag, p, "--base", "https://www.example.com/")
		r.want(t, exitOK)
		if !strings.HasSuffix(r.stdout, "\n  sitemapkit generate --config '"+p+"'\n") {
			t.Errorf("%s: stdout does not give the next command:\n%s", flag, r.stdout)
		}
		if _, err := config.Load(p); err != nil {
			t.Errorf("%s: %v", flag, err)
		}
	}
}

func TestInitErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"base not a URL", []string{"init", "--base", "www.example.com", "--config", filepath.Join(dir, "a.toml")},
			"sitemapkit: init: --base \"www.example.com\" is not an http or https URL\nTry: sitemapkit init --base https://www.example.com/\n"},
		{"a folder", []string{"init", "--config", dir},
			"sitemapkit: init: " + dir + " is a folder: --config names the file to write\nTry: sitemapkit init --config " + filepath.Join(dir, "sitemapkit.toml") + "\n"},
		{"a folder, forced", []string{"init", "--force", "--config", dir},
			"sitemapkit: init: " + dir + " is a folder: --config names the file to write\nTry: sitemapkit init --config " + filepath.Join(dir, "sitemapkit.toml") + "\n"},
		{"a new folder", []string{"init", "--config", filepath.Join(dir, "new") + "/"},
			"sitemapkit: init: " + filepath.Join(dir, "new") + "/ is a folder: --config names the file to write\nTry: sitemapkit init --config " + filepath.Join(dir, "new", "sitemapkit.toml") + "\n"},
		{"argument", []string{"init", "site.toml"},
			"sitemapkit: init: unexpected argument \"site.toml\"; the file to write is --config\nTry: sitemapkit init --config site.toml\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := genRun(t, "", tt.args...)
			r.want(t, exitUsage)
			if r.stderr != tt.stderr {
				t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, tt.stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "a.toml")); err == nil {
		t.Error("a file was written for a bad --base")
	}
}

func TestInitHelp(t *testing.T) {
	r := genRun(t, "", "init", "--help")
	r.want(t, exitOK)
	for _, want := range []string{"sitemapkit init --base https://www.example.com/", "--force", "--config", "sitemapkit help config", "EXIT STATUS"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("help lacks %q:\n%s", want, r.stdout)
		}
	}
}
