package state

import (
	"path/filepath"
	"testing"
	"time"
)

// TestIndexNeverFull: find stops at an empty slot, so the table must keep
// one whatever the number of URLs. A state of one URL made a table of one
// slot, full, and the next run looped for ever on its first new URL.
func TestIndexNeverFull(t *testing.T) {
	words := func(n int) []uint64 { return make([]uint64, n) }
	for n := range 40 {
		recs := make([]rec, n)
		for i := range recs {
			recs[i].key = Key("https://www.example.com/p/" + string(rune('a'+i)))
		}
		x := newIndex(recs, words)
		if len(x.table) <= n {
			t.Fatalf("%d URLs: a table of %d slots, none left empty", n, len(x.table))
		}
		x.hint = n // past the records: the table is asked
		if got := x.find(Key("https://www.example.com/absent")); got != -1 {
			t.Errorf("%d URLs: find of an absent key = %d, want -1", n, got)
		}
		for i := range recs {
			x.hint = n
			if got := x.find(recs[i].key); got != i {
				t.Errorf("%d URLs: find of record %d = %d", n, i, got)
			}
		}
	}
}

// TestStateOfOneURLThenAnother: a real state holding one URL, then a run
// given another one. It looped for ever in the index's lookup (and, busy,
// never saw Ctrl-C).
func TestStateOfOneURLThenAnother(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	dir := t.TempDir()
	t1 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	run(t, path, dir, Options{Now: t1}, pages(1))

	done := make(chan Counts, 1)
	go func() {
		defer close(done) // run's t.Fatal ends the goroutine, failing the test
		_, n, _ := run(t, path, dir, Options{Now: t1.Add(time.Hour)}, []page{{loc: base + "other", fp: 7}})
		done <- n
	}()
	select {
	case n, ok := <-done:
		if want := (Counts{Added: 1, Removed: 1}); ok && n != want {
			t.Errorf("second run: %+v, want %+v", n, want)
		}
	case <-time.After(2 * time.Minute): // it takes milliseconds; it hung
		t.Fatal("a run against a state of one URL, given another URL, did not end")
	}
}
