package offheap

import "testing"

// TestAllocResizeFree: memory comes zeroed, with at least half the words
// asked (whole pages, rounded down); past the old words, Resize's are
// zero, after a shrink too; and it is freed without error.
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
		for i := len(w); i < len(r); i++ {
			if r[i] != 0 {
				t.Fatalf("Resize(%d → %d): word %d is %d, want the words past the old ones zeroed", n, 3*n, i, r[i])
			}
		}
		// Shrunk, then grown again within the reservation: the words
		// the shrink let go of come back zeroed.
		for i := range r {
			r[i] = 1
		}
		s, smapped := Resize(r, rmapped, len(r)/4)
		g, gmapped := Resize(s, smapped, 3*n)
		for i := len(s); i < len(g); i++ {
			if g[i] != 0 {
				t.Fatalf("Resize after a shrink to %d: word %d is %d, want zero", len(s), i, g[i])
			}
		}
		Free(g, gmapped)
	}
}
