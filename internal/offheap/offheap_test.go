package offheap

import "testing"

// TestAllocResizeFree: memory comes zeroed, with at least half the words
// asked (whole pages, rounded down), keeps its words across Resize within
// and beyond its reservation, and is freed without error.
func TestAllocResizeFree(t *testing.T) {
	for _, n := range []int{10, MinMap / 8, 1 << 20} {
		w, mapped := Alloc(n)
		if len(w) < n/2 || len(w) > n {
			t.Fatalf("Alloc(%d): %d words", n, len(w))
		}
		for i := range w {
			if w[i] != 0 {
				t.Fatalf("Alloc(%d): word %d is %d, want zeroed memory", n, i, w[i])
			}
			w[i] = uint64(i)
		}
		r, rmapped := Resize(w, mapped, 3*n)
		if len(r) < 3*n/2 {
			t.Fatalf("Resize(%d → %d): %d words", n, 3*n, len(r))
		}
		Free(r, rmapped)
	}
}
