package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/sitemapkit/sitemapkit/internal/longtest"
	"github.com/sitemapkit/sitemapkit/internal/sitetest"
)

// buildCommand builds the command, for a test to measure it in a process
// of its own.
func buildCommand(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sitemapkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestReadValidateMemory: read and validate of a set of 3,000,000 URLs (an
// index and 60 gzipped sitemaps) by the built command stay within the
// issue's 64 MiB of peak RSS: read keeps nothing a URL, validate its
// duplicate table in memory to a million URLs, then on disk.
func TestReadValidateMemory(t *testing.T) {
	longtest.Skip(t, "builds the command and reads 3,000,000 URLs twice")
	const n = 3_000_000
	bin := buildCommand(t)
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

// TestValidateHreflangMemory: validate of 2,000,000 URLs with five
// hreflang alternates each (10,000,000 links, whose reciprocity is checked
// at the end), written here as 40 gzipped sitemaps, stays within 64 MiB
// of peak RSS, and finds the one link not returned.
func TestValidateHreflangMemory(t *testing.T) {
	longtest.Skip(t, "builds the command and validates 2,000,000 URLs of five alternates each")
	const clusters, perFile = 400_000, 50_000
	bin := buildCommand(t)
	dir := t.TempDir()
	langs := []string{"en", "de", "fr", "es", "it"}
	var children []string
	var f *os.File
	var zw *gzip.Writer
	var w *bufio.Writer
	end := func() {
		w.WriteString("</urlset>\n")
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		zw.Close()
		f.Close()
	}
	n := 0
	for c := range clusters {
		for _, l := range langs {
			if n%perFile == 0 {
				if f != nil {
					end()
				}
				name := fmt.Sprintf("sitemap-%d.xml.gz", n/perFile+1)
				children = append(children, genBase+name)
				var err error
				if f, err = os.Create(filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
				zw, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
				w = bufio.NewWriterSize(zw, 1<<16)
				w.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
			}
			fmt.Fprintf(w, "<url><loc>%s%s/%d</loc>", genBase, l, c)
			for _, a := range langs {
				if c == 7 && l == "de" && a == "en" {
					continue // the one link not returned: en/7 → de/7
				}
				fmt.Fprintf(w, `<xhtml:link rel="alternate" hreflang="%s" href="%s%s/%d"/>`, a, genBase, a, c)
			}
			w.WriteString("</url>\n")
			n++
		}
	}
	end()
	index := filepath.Join(dir, "sitemap.xml")
	if err := os.WriteFile(index, []byte(sitetest.Index(children...)), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cmd := exec.Command(bin, "validate", "--base", genBase, index)
	cmd.Stdout = &out
	peak := peakRSS(t, cmd)
	t.Logf("validate of %d URLs with %d alternates each: peak RSS %.1f MiB", n, len(langs), float64(peak)/(1<<20))
	if peak > 64<<20 {
		t.Errorf("peak RSS %.1f MiB, over 64 MiB", float64(peak)/(1<<20))
	}
	if got := strings.Count(out.String(), "[hreflang-not-reciprocal]"); got != 1 || !strings.Contains(out.String(), "2,000,000 URLs") {
		t.Errorf("%d hreflang-not-reciprocal findings, want 1:\n%s", got, out.String())
	}
}

// TestManyDocumentsMemory: read and validate of 20,000 tiny sitemaps stay
// within 64 MiB of peak RSS, whether they are an index's children over
// HTTP, the files of a folder, or (10,000 of them, what 500 KiB holds) a
// robots.txt's Sitemap: lines. The walk held every document it had read,
// with its closed body and its connection's buffers, until the listing's
// last: 395 MB to read an index of 30,000 children.
func TestManyDocumentsMemory(t *testing.T) {
	longtest.Skip(t, "builds the command and reads 50,000 sitemaps twice")
	const n, lines = 20_000, 10_000
	bin := buildCommand(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		site := "http://" + r.Host
		bw := bufio.NewWriter(w)
		defer bw.Flush()
		switch r.URL.Path {
		case "/index.xml":
			var children []string
			for i := range n {
				children = append(children, site+"/c/"+strconv.Itoa(i)+".xml")
			}
			io.WriteString(bw, sitetest.Index(children...))
		case "/robots.txt":
			for i := range lines {
				fmt.Fprintf(bw, "Sitemap: %s/c/%d.xml\n", site, i)
			}
		default:
			page, ok := strings.CutSuffix(r.URL.Path, ".xml")
			if !ok || !strings.HasPrefix(page, "/c/") {
				http.NotFound(w, r)
				return
			}
			io.WriteString(bw, sitetest.URLSet(site+page))
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	for i := range n {
		page := genBase + strconv.Itoa(i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%05d.xml", i)), []byte(sitetest.URLSet(page)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		what, start string
		n           int
	}{
		{"an index of 20,000 children", srv.URL + "/index.xml", n},
		{"a robots.txt of 10,000 Sitemap: lines", srv.URL + "/", lines},
		{"a folder of 20,000 sitemaps", dir, n},
	} {
		for _, args := range [][]string{{"read", "--format", "text", c.start}, {"validate", "-q", c.start}} {
			var out countingWriter
			cmd := exec.Command(bin, args...)
			cmd.Stdout = &out
			peak := peakRSS(t, cmd)
			t.Logf("%s of %s: peak RSS %.1f MiB", args[0], c.what, float64(peak)/(1<<20))
			if peak > 64<<20 {
				t.Errorf("%s of %s: peak RSS %.1f MiB, over 64 MiB", args[0], c.what, float64(peak)/(1<<20))
			}
			if args[0] == "read" && out.lines != c.n {
				t.Errorf("read of %s printed %d URLs, want %d", c.what, out.lines, c.n)
			}
		}
	}
}
