package build

import (
	"strconv"
	"testing"
)

func TestSeenSet(t *testing.T) {
	s := newSeenSet()
	const n = 300000
	add := func(i int) bool {
		h := s.hash("https://www.example.com/p/" + strconv.Itoa(i))
		if s.contains(h) {
			return false
		}
		s.add(h)
		return true
	}
	for i := range n {
		if !add(i) {
			t.Fatalf("URL %d found before it was added", i)
		}
		// Duplicates of recent URLs (still pending) and of old ones.
		if add(i) || add(i/2) || add(i/1000) {
			t.Fatalf("duplicate of URL %d, %d or %d not found", i, i/2, i/1000)
		}
	}
	for i := range n {
		if !s.contains(s.hash("https://www.example.com/p/" + strconv.Itoa(i))) {
			t.Fatalf("URL %d lost after growing", i)
		}
	}
	wrong, positives := 0, 0
	for i := n; i < 2*n; i++ {
		h := s.hash("https://www.example.com/p/" + strconv.Itoa(i))
		if s.contains(h) {
			wrong++
		}
		if m := bloomMask(h); s.bloom[bloomWord(h, len(s.bloom))]&m == m {
			positives++
		}
	}
	if wrong > 0 {
		t.Errorf("%d URLs never added were found", wrong)
	}
	// The filter must spare most lookups of new URLs the table.
	if rate := float64(positives) / n; rate > 0.05 {
		t.Errorf("filter false positive rate %.3f, want < 0.05", rate)
	}
	if s.len() != n {
		t.Errorf("len = %d, want %d", s.len(), n)
	}
}

// TestSeenSetMemory: the bound, at most 16 bytes per URL, holds at
// every size once past the initial allocation.
func TestSeenSetMemory(t *testing.T) {
	s := newSeenSet()
	worst := 0.0
	for i := range 400000 {
		h := s.hash(strconv.Itoa(i))
		if !s.contains(h) {
			s.add(h)
		}
		if s.len() > 2*seenMinSlots {
			worst = max(worst, s.bytesPerURL())
		}
	}
	if worst > 16 {
		t.Errorf("worst %.2f bytes per URL, want ≤ 16", worst)
	}
}

func TestSeenSetSeedsDiffer(t *testing.T) {
	a, b := newSeenSet(), newSeenSet()
	if a.hash("https://www.example.com/") == b.hash("https://www.example.com/") {
		t.Error("two sets hash alike: the seed is not per Builder")
	}
}

// BenchmarkSeenSet adds 1,000,000 new URLs (the common case: no
// duplicates), as a set of that size does.
func BenchmarkSeenSet(b *testing.B) {
	locs := make([]string, 1_000_000)
	for i := range locs {
		locs[i] = "https://www.example.com/catalog/item-" + strconv.Itoa(i) + "?color=red"
	}
	for b.Loop() {
		s := newSeenSet()
		for _, l := range locs {
			if h := s.hash(l); !s.contains(h) {
				s.add(h)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(locs)), "ns/URL")
}
