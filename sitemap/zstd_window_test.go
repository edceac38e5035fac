package sitemap_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// A .zst file whose window is the cap is read; one whose window is over it
// is a compression error that names the file, the window and the cap
// (its decoder would have kept 16 MiB), and Detect finds it zstd of an
// unknown format.
func TestReaderZstdWindow(t *testing.T) {
	locs := make([]string, 2000)
	for i := range locs {
		locs[i] = "https://www.example.com/p" + strings.Repeat("x", i%50)
	}
	doc := sitetest.URLSet(locs...)
	dir := t.TempDir()
	for _, c := range []struct {
		window int
		err    string
	}{
		{sitemap.MaxZstdWindow, ""},
		{2 * sitemap.MaxZstdWindow, "window too large: 16 MiB, over the 8 MiB cap (RFC 9659's"},
	} {
		name := filepath.Join(dir, fmt.Sprintf("w%d.xml.zst", c.window>>20))
		if err := os.WriteFile(name, []byte(sitetest.Zstd(doc, c.window)), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		res := rdRead(t, f, func(r *sitemap.Reader) { r.Name = name })
		f.Close()
		if c.err == "" {
			if res.err != nil || len(res.urls) != len(locs) {
				t.Errorf("window %d: %d entries, %v", c.window, len(res.urls), res.err)
			}
			continue
		}
		if f, c := sitemap.Detect(strings.NewReader(sitetest.Zstd(doc, c.window))); f != sitemap.FormatUnknown || c != "zstd" {
			t.Errorf("Detect: %v, %q", f, c)
		}
		var se *sitemap.SyntaxError
		if !errors.As(res.err, &se) || se.File != name || !errors.Is(res.err, sitemap.ErrCompression) || !strings.Contains(res.err.Error(), c.err) {
			t.Errorf("window %d: error %v, want a compression error naming %s and saying %q", c.window, res.err, name, c.err)
		}
		if len(res.urls) != 0 {
			t.Errorf("window %d: %d entries before the error", c.window, len(res.urls))
		}
	}
}
