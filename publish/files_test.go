package publish

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestOwnName(t *testing.T) {
	for _, tc := range []struct {
		file string
		want bool
	}{
		{"sitemap.xml", true},
		{"sitemap.txt", true},
		{"sitemap-index-2.xml", true},
		{"sitemap-index-12.xml", true},
		{"sitemap-1-3fa2c19b.xml", true},
		{"sitemap-12-3fa2c19b.xml.gz", true},
		{"sitemap-3-00000000.txt", true},
		{"sitemap-3-0000000a.txt.gz", true},
		{"sitemap.xml.gz", false},
		{"sitemap-index-0.xml", false},
		{"sitemap-index-x.xml", false},
		{"sitemap-0-3fa2c19b.xml", false},
		{"sitemap-1-3fa2c19.xml", false},
		{"sitemap-1-3fa2c19z.xml", false},
		{"sitemap-1-3fa2c19b.html", false},
		{"sitemap-1-3fa2c19b.xml.bak", false},
		{"news-1-3fa2c19b.xml", false},
		{"index.html", false},
		{"../sitemap.xml", false},
		{"sitemap-1.xml", false},
	} {
		if got := ownName("sitemap", manifestFile{Name: tc.file}); got != tc.want {
			t.Errorf("ownName(sitemap, %q) = %v, want %v", tc.file, got, tc.want)
		}
	}
	for _, tc := range []struct {
		group, file string
		want        bool
	}{
		{"news", "news-1-3fa2c19b.xml", true},
		{"news", "news-2-3fa2c19b.xml.gz", true},
		{"my-blog", "my-blog-10-3fa2c19b.txt", true},
		{"news", "news.xml", false},
		{"news", "news-index-2.xml", false},
		{"news", "blog-1-3fa2c19b.xml", false},
		{"news", "news-1-3fa2c19b.html", false},
		{"../x", "../x-1-3fa2c19b.xml", false},
		{"sitemap", "sitemap-1-3fa2c19b.xml", false}, // a group never has the set's name
	} {
		if got := ownName("sitemap", manifestFile{Name: tc.file, Group: tc.group}); got != tc.want {
			t.Errorf("ownName(sitemap, %q in group %q) = %v, want %v", tc.file, tc.group, got, tc.want)
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.xml"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(dir, "a.xml", ".sitemapkit-tmp-x.", []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "a.xml"))
	if err != nil || string(got) != "new" {
		t.Fatalf("a.xml = %q, %v; want new", got, err)
	}
	assertNoTemps(t, dir)

	// A failing rename (the target is a non-empty folder) leaves no temp file.
	if err := os.MkdirAll(filepath.Join(dir, "d.xml", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(dir, "d.xml", ".sitemapkit-tmp-x.", []byte("new"), false); err == nil {
		t.Fatal("rename over a folder succeeded")
	}
	assertNoTemps(t, dir)
}

func TestRemoveLeftovers(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".sitemapkit-tmp-sitemap.123", ".sitemapkit-tmp-news.456", "keep.xml", ".sitemapkit-tmp-sitemapx"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := removeLeftovers(dir, ".sitemapkit-tmp-sitemap.", time.Time{}); err != nil {
		t.Fatal(err)
	}
	got := listDir(t, dir)
	want := []string{".sitemapkit-tmp-news.456", ".sitemapkit-tmp-sitemapx", "keep.xml"}
	if !slices.Equal(got, want) {
		t.Errorf("left %q, want %q", got, want)
	}
}

// TestWriteFileRemovesStaleTemps: a run killed while it wrote the feed or
// the IndexNow key file left its temp file for good (the set's own are
// removed by the next Builder, under its lock). WriteFile now removes its
// name's temps once they are stale; a younger one, maybe another
// process's about to be renamed, and other names' are left.
func TestWriteFileRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{
		".sitemapkit-tmp-feed.xml.111",  // stale: removed
		".sitemapkit-tmp-feed.xml.222",  // fresh: kept
		".sitemapkit-tmp-key.txt.333",   // another name's: kept
		".sitemapkit-tmp-feed.xmlx.444", // another name's: kept
	} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if n != ".sitemapkit-tmp-feed.xml.222" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	for range 2 { // written, then unchanged: the temps go either way
		if _, err := WriteFile(dir, "feed.xml", []byte("<feed/>")); err != nil {
			t.Fatal(err)
		}
	}
	got := listDir(t, dir)
	want := []string{".sitemapkit-tmp-feed.xml.222", ".sitemapkit-tmp-feed.xmlx.444", ".sitemapkit-tmp-key.txt.333", "feed.xml"}
	if !slices.Equal(got, want) {
		t.Errorf("left %q, want %q", got, want)
	}
}

func listDir(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func assertNoTemps(t testing.TB, dir string) {
	t.Helper()
	for _, n := range listDir(t, dir) {
		if len(n) >= len(tempPrefix) && n[:len(tempPrefix)] == tempPrefix {
			t.Errorf("temp file left: %s", n)
		}
	}
}
