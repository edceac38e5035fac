package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// read and validate refuse a zstd window over the 8 MiB cap with an error
// naming the document and the cap, in a file given, in a folder (where it
// was left out, as "no sitemap files"), or fetched, with Content-Encoding
// or as a .zst body; what is at the cap they read.
func TestZstdWindowCap(t *testing.T) {
	const over = 2 * sitemap.MaxZstdWindow
	const want = "window too large: 16 MiB, over the 8 MiB cap (RFC 9659's"
	dir := t.TempDir()
	write(t, dir, "ok.xml.zst", sitetest.Zstd(xmlURLSet(entry(vbase+"file")), sitemap.MaxZstdWindow))
	write(t, dir, "long.xml.zst", sitetest.Zstd(xmlURLSet(entry(vbase+"long")), over))
	s := sitetest.New(t)
	s.ZstdPage("/ok.xml", xmlURLSet(entry("{{.}}/encoded")), sitemap.MaxZstdWindow, true)
	s.ZstdPage("/long.xml", xmlURLSet(entry("{{.}}/long-encoded")), over, true)
	s.ZstdPage("/long.xml.zst", xmlURLSet(entry("{{.}}/long-body")), over, false)
	s.Page("/index.xml", sitetest.Index("{{.}}/ok.xml", "{{.}}/long.xml", "{{.}}/long.xml.zst"))
	refused := []string{filepath.Join(dir, "long.xml.zst"), s.URL + "/long.xml", s.URL + "/long.xml.zst"}
	for _, cmd := range []string{"read", "validate"} {
		code, out, errOut := sk(t, cmd, "--base", vbase, dir, s.URL+"/index.xml")
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s%s", cmd, code, out, errOut)
		}
		report := out + errOut
		for _, doc := range refused {
			if !strings.Contains(report, doc+":1:1: error[compression-error]: compression error: ") || !strings.Contains(report, want) {
				t.Errorf("%s: no compression error naming %s and saying %q:\n%s", cmd, doc, want, report)
			}
		}
		if cmd == "read" {
			for _, loc := range []string{vbase + "file", s.URL + "/encoded"} {
				if !strings.Contains(out, `"loc":"`+loc+`"`) {
					t.Errorf("read: %s not read:\n%s", loc, out)
				}
			}
		}
	}
}
