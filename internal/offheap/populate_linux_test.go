package offheap

import (
	"syscall"
	"testing"
	"unsafe"
)

// resident counts w's pages in memory (mincore).
func resident(t *testing.T, w []uint64) int {
	t.Helper()
	page := syscall.Getpagesize()
	vec := make([]byte, (len(w)*8+page-1)/page)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(unsafe.SliceData(w))), uintptr(len(w)*8), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatalf("mincore: %v", errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// TestPopulate: Populate makes every page of a mapping resident and
// changes no word of it; for heap memory it does nothing, and says so.
func TestPopulate(t *testing.T) {
	w, mapped := Alloc(1 << 20) // 8 MiB
	if !mapped {
		t.Fatal("Alloc(1<<20) is not a mapping")
	}
	pages := len(w) * 8 / syscall.Getpagesize()
	w[0], w[len(w)/2] = 7, 9
	if got := resident(t, w); got > 2 {
		t.Fatalf("%d of %d pages resident before Populate, want the 2 written", got, pages)
	}
	if !Populate(w, mapped) {
		Free(w, mapped)
		t.Skip("no MADV_POPULATE_WRITE (Linux before 5.14)")
	}
	if got := resident(t, w); got != pages {
		t.Errorf("%d of %d pages resident after Populate, want all", got, pages)
	}
	for i, v := range w {
		want := uint64(0)
		switch i {
		case 0:
			want = 7
		case len(w) / 2:
			want = 9
		}
		if v != want {
			t.Fatalf("word %d is %d after Populate, want %d", i, v, want)
		}
	}
	if Populate(make([]uint64, 1<<10), false) {
		t.Error("Populate of heap memory reported it populated it")
	}
	Free(w, mapped)
}
