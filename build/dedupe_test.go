package build

import (
	"strconv"
	"testing"
)

func TestSeenSet(t *testing.T) {
	s := newSeenSet()
	const n = 200000
	for i := range n {
		loc := "https://www.example.com/p/" + strconv.Itoa(i)
		h := s.hash(loc)
		found, slot := s.find(h)
		if found {
			t.Fatalf("%s found before it was added", loc)
		}
		s.insert(h, slot)
	}
	for i := range n {
		if found, _ := s.find(s.hash("https://www.example.com/p/" + strconv.Itoa(i))); !found {
			t.Fatalf("URL %d lost after growing", i)
		}
	}
	misses := 0
	for i := n; i < 2*n; i++ {
		if found, _ := s.find(s.hash("https://www.example.com/p/" + strconv.Itoa(i))); found {
			misses++
		}
	}
	if misses > 0 {
		t.Errorf("%d URLs never added were found", misses)
	}
	if s.n != n {
		t.Errorf("n = %d, want %d", s.n, n)
	}
	// The bound: at most 16 bytes per URL, whatever the count.
	if b := s.bytesPerURL(); b > 16 {
		t.Errorf("%.1f bytes per URL, want ≤ 16", b)
	}
}

func TestSeenSetBoundEveryStep(t *testing.T) {
	s := newSeenSet()
	worst := 0.0
	for i := range 100000 {
		h := s.hash(strconv.Itoa(i))
		_, slot := s.find(h)
		s.insert(h, slot)
		if s.n > seenMinSlots {
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

func BenchmarkSeenSet(b *testing.B) {
	s := newSeenSet()
	locs := make([]string, 1<<20)
	for i := range locs {
		locs[i] = "https://www.example.com/catalog/item-" + strconv.Itoa(i) + "?color=red"
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := s.hash(locs[i&(len(locs)-1)])
		if found, slot := s.find(h); !found {
			s.insert(h, slot)
		}
	}
}
