package publish

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// stableRun publishes urls as a stable set, each in the file places says
// it was in (0 when absent), and records where each went.
func stableRun(t *testing.T, opts Options, urls []sitemap.URL, places map[string]int) *Result {
	t.Helper()
	opts.Stable = true
	if opts.Base == "" {
		opts.Base = base
	}
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abort()
	ctx := context.Background()
	got := map[string]int{}
	for i := range urls {
		n, err := b.Place(ctx, &urls[i], places[urls[i].Loc])
		if err != nil {
			t.Fatal(err)
		}
		got[urls[i].Loc] = n
	}
	res, err := b.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Moves {
		for l, n := range got {
			if n == m.From {
				got[l] = m.To
			}
		}
	}
	clear(places)
	for l, n := range got {
		places[l] = n
	}
	assertNoTemps(t, opts.Dir)
	xsdtest.Check(t, opts.Dir)
	return res
}

// mtimes returns the modification time of each file of dir.
func mtimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]time.Time{}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = info.ModTime()
	}
	return m
}

// children returns the names of res's children by number.
func children(res *Result) map[int]string {
	m := map[int]string{}
	for _, f := range res.Files {
		if !f.Index {
			m[f.N] = f.Name
		}
	}
	return m
}

func TestStableFiles(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, Gzip: true, MaxURLs: 10}
	places := map[string]int{}
	urls := items(0, 30)
	first := stableRun(t, opts, urls, places)
	if len(first.Files) != 4 {
		t.Fatalf("first run: %d files, want an index and 3 children", len(first.Files))
	}

	// The same URLs in another order: nothing is rewritten.
	time.Sleep(10 * time.Millisecond)
	before := mtimes(t, dir)
	shuffled := slices.Clone(urls)
	slices.Reverse(shuffled)
	again := stableRun(t, opts, shuffled, places)
	for _, f := range again.Files {
		if !f.Kept {
			t.Errorf("rerun without change: %s rewritten", f.Name)
		}
	}
	if after := mtimes(t, dir); !sameTimes(before, after) {
		t.Errorf("rerun without change touched the folder:\nbefore %v\nafter  %v", before, after)
	}

	// One URL of file 2 changes: only file 2 and the index are rewritten.
	changed := slices.Clone(urls)
	changed[14].LastMod = "2030-01-01"
	opts.ChangedAt = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	res := stableRun(t, opts, changed, places)
	old, now := children(again), children(res)
	for n := 1; n <= 3; n++ {
		if rewritten := old[n] != now[n]; rewritten != (n == 2) {
			t.Errorf("file %d: rewritten %v (%s → %s), want only file 2 rewritten", n, rewritten, old[n], now[n])
		}
	}
	index, err := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), now[2]+"</loc><lastmod>2030-01-02T03:04:05+00:00</lastmod>") {
		t.Errorf("index: the rewritten file's lastmod is not the run's time:\n%s", index)
	}

	// A new URL goes to the last file while it has room; removed URLs
	// leave their file, and two files left sparse are merged.
	opts.ChangedAt = time.Time{}
	var fewer []sitemap.URL
	for i, u := range changed {
		if i < 10 || i == 11 || i == 25 {
			fewer = append(fewer, u)
		}
	}
	fresh := item(100)
	fewer = append(fewer, fresh)
	res = stableRun(t, opts, fewer, places)
	if len(res.Moves) != 1 || res.Moves[0] != (Move{From: 3, To: 2}) {
		t.Errorf("moves = %+v, want file 3 merged into file 2", res.Moves)
	}
	if places[fresh.Loc] != 2 {
		t.Errorf("new URL in file %d, want 2 (file 3, where it went, merged into 2)", places[fresh.Loc])
	}
	now = children(res)
	if now[1] != old[1] || now[3] != "" || len(now) != 2 {
		t.Errorf("after removals: files %v; want file 1 kept as %s and file 3 merged away", now, old[1])
	}
	for _, f := range res.Files {
		if f.N == 2 && f.Entries != 3 {
			t.Errorf("file 2 holds %d URLs, want 3", f.Entries)
		}
	}
	if len(res.Removed) != 1 || res.Removed[0] != old[3] {
		t.Errorf("removed %v, want the old file 3 alone (file 2 was rewritten, not removed)", res.Removed)
	}
}

// TestStableSingle: a stable set that fits in one file is sitemap.xml,
// kept as it is when nothing changes, and becomes child 1 when it grows.
func TestStableSingle(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, Gzip: true, MaxURLs: 10}
	places := map[string]int{}
	res := stableRun(t, opts, items(0, 5), places)
	if len(res.Files) != 1 || res.Files[0].Name != "sitemap.xml" {
		t.Fatalf("files %+v, want sitemap.xml alone", res.Files)
	}
	res = stableRun(t, opts, items(0, 5), places)
	if !res.Files[0].Kept {
		t.Error("unchanged single file rewritten")
	}
	res = stableRun(t, opts, items(0, 12), places)
	if len(res.Files) != 3 {
		t.Fatalf("files %+v, want an index and two children", res.Files)
	}
	if places[item(0).Loc] != 1 || places[item(11).Loc] != 2 {
		t.Errorf("places %v: the first URLs stay in file 1, the new ones past 10 go to file 2", places)
	}
}

// TestStableIndexNever: URLs an indexed set kept in several files are one
// file when a later run may write no index, as long as they fit in one;
// they failed the run with ErrNeedsIndex, remembered in files 2 and 3.
func TestStableIndexNever(t *testing.T) {
	dir := t.TempDir()
	places := map[string]int{}
	stableRun(t, Options{Dir: dir, MaxURLs: 4}, items(0, 10), places)
	if places[item(9).Loc] != 3 {
		t.Fatalf("places %v: want 3 files of at most 4", places)
	}
	res := stableRun(t, Options{Dir: dir, Index: IndexNever}, items(0, 10), places)
	if len(res.Files) != 1 || res.Files[0].Name != "sitemap.xml" || res.Files[0].Entries != 10 {
		t.Fatalf("files %+v, want sitemap.xml alone with the 10 URLs", res.Files)
	}
	for l, n := range places {
		if n != 1 {
			t.Errorf("%s in file %d, want 1", l, n)
		}
	}
	// More than one file holds is still refused.
	b, err := New(Options{Dir: dir, Base: base, Stable: true, Index: IndexNever, MaxURLs: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abort()
	var perr error
	for i, u := range items(0, 11) {
		if _, perr = b.Place(context.Background(), &u, places[u.Loc]); perr != nil {
			if i != 10 {
				t.Fatalf("URL %d refused: %v", i, perr)
			}
			break
		}
	}
	if !errors.Is(perr, ErrNeedsIndex) {
		t.Errorf("11 URLs in files of 10 with IndexNever: %v, want ErrNeedsIndex", perr)
	}
}

func sameTimes(a, b map[string]time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !w.Equal(v) {
			return false
		}
	}
	return true
}
