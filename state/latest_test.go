package state

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// TestLatestMemory: Latest picks the feed's n latest URLs without copying
// every URL of the state onto the Go heap (it held 32 bytes a URL there,
// and sorted them all: a run of a million URLs with --feed peaked 55 MB
// above one without), and picks the same ones, in the same order, as a
// sort of them all.
func TestLatestMemory(t *testing.T) {
	const n = 200_000
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.Begin(ctx, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	place := func(*sitemap.URL, int) (int, error) { return 1, nil }
	var want []Change
	for i := range n {
		// Many ties (one date per 1,000 URLs), broken by key.
		lm := sitemap.FormatDate(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i%997) * time.Minute))
		if i%10 == 0 {
			lm = "" // no lastmod: never listed
		}
		u := sitemap.URL{Loc: fmt.Sprintf("%sp/%d", base, i), LastMod: lm}
		if err := r.Add(&u, uint64(i), false, "", place); err != nil {
			t.Fatal(err)
		}
		if lm != "" {
			want = append(want, Change{u.Loc, lm})
		}
	}
	if err := r.Commit(ctx, &publish.Result{Files: []publish.File{{Name: "sitemap.xml", N: 1}}}); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(want, func(a, b Change) int {
		if c := cmp.Compare(b.LastMod, a.LastMod); c != 0 {
			return c
		}
		return cmp.Compare(Key(a.Loc), Key(b.Loc))
	})
	for _, k := range []int{1, 100, 10_000} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		got, err := r.Latest(ctx, k)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want[:k]) {
			t.Errorf("Latest(%d) differs from a sort of every URL", k)
		}
		// The k kept, their locs, and the queries': nothing a URL of the
		// state.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(k)*2048+1<<20 {
			t.Errorf("Latest(%d) of %d URLs allocated %d bytes", k, n, alloc)
		}
	}
}
