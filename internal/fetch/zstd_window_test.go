package fetch

import (
	"errors"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/internal/zstdwin"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Content-Encoding: zstd with the window RFC 9659 asks decoders to
// support is decoded; a larger one, which it lets them refuse, is a
// compression error naming the window and the cap (the cap was 64 MiB:
// a 44 MiB window cost 106 MB of RSS).
func TestZstdWindowCap(t *testing.T) {
	body := strings.Repeat("<url><loc>https://www.example.com/p</loc></url>\n", 2000)
	got, _, err := getAll(t, &Client{}, serve(t, []byte(sitetest.Zstd(body, zstdwin.MaxWindow)), "zstd"))
	if err != nil || string(got) != body {
		t.Fatalf("window at the cap: %d bytes, %v", len(got), err)
	}
	got, _, err = getAll(t, &Client{}, serve(t, []byte(sitetest.Zstd(body, 2*zstdwin.MaxWindow)), "zstd"))
	const want = "compression error: Content-Encoding zstd: window too large: 16 MiB, over the 8 MiB cap (RFC 9659's"
	if !errors.Is(err, sitemap.ErrCompression) || !strings.Contains(err.Error(), want) {
		t.Fatalf("window over the cap: %v, want %q", err, want)
	}
	if len(got) != 0 {
		t.Errorf("%d bytes decoded past the refusal", len(got))
	}
}
