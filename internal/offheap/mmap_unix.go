//go:build unix

package offheap

import (
	"os"
	"unsafe"
)

var pageSize = os.Getpagesize()

// mapSize returns the size in bytes of a mapping for about n words, or 0
// if n words belong on the heap. A mapping is n words rounded down to
// whole pages (at least n/2 words, as it is two pages or more), so that no
// byte the process pays for is wasted and a growth never takes more than
// it asked for.
func mapSize(n int) int {
	size := n * 8
	if size < max(MinMap, 2*pageSize) {
		return 0
	}
	return size &^ (pageSize - 1)
}

// mapReserve is how many times the asked size a mapping reserves: its
// slice's capacity. Pages never touched cost no memory, only address
// space, and a segment then grows within its reservation without a system
// call, which costs as much as the rest of a growth.
const mapReserve = 4

// Alloc returns about n zeroed words, and whether they are an
// anonymous mapping rather than Go heap, which Free must then unmap.
//
// Off the heap, memory given back by Free leaves the process at
// once, instead of waiting as garbage for the next collection, with the
// heap allowed to grow to twice its live size in the meantime.
func Alloc(n int) (_ []uint64, mapped bool) {
	if size := mapSize(n); size > 0 {
		w, err := mapPages(size * mapReserve)
		if err != nil {
			w, err = mapPages(size)
		}
		if err == nil {
			return w[:size/8], true
		}
		// Out of address space or over a mapping limit: the heap may
		// still have room, and failing here would lose the whole build.
	}
	return make([]uint64, n), false
}

// Resize returns about n words for old's words, and frees old. Its first
// len(old) words hold any content (old's, where it grew in place); the
// words past them are zero, so that a caller clears only those. A mapping
// grows in place: within its reservation, or where the system can move it
// (Linux's mremap), so that its pages, already touched, need not be
// faulted in again, which costs more than the rest of a growth.
func Resize(old []uint64, mapped bool, n int) (_ []uint64, isMapped bool) {
	if size := mapSize(n); mapped && size > 0 {
		if size/8 <= cap(old) {
			if size/8 < len(old) {
				// The reservation past a mapping's length is kept
				// zero, for the growth after a shrink.
				clear(old[size/8:])
			}
			return old[:size/8], true
		}
		if w, err := remapPages(old[:cap(old)], size*mapReserve); err == nil {
			return w[:size/8], true
		}
	}
	Free(old, mapped)
	return Alloc(n)
}

// Free gives back what Alloc or Resize returned.
func Free(w []uint64, mapped bool) {
	if mapped && cap(w) > 0 {
		// An error would mean w is not a mapping we made: nothing to
		// free.
		_ = unmapPages(w[:cap(w)])
	}
}

func wordsAt(p unsafe.Pointer, size int) []uint64 {
	return unsafe.Slice((*uint64)(p), size/8)
}

// Populate makes w's pages resident, writable, as its first writes would,
// in one system call rather than a page fault a page, and reports whether
// it did. It is for a caller about to write all over w (a hash table,
// written at random), which then takes no fault; or which calls it on a
// goroutine of its own, so that the faults are not taken where they would
// hold others up (under a lock). It changes no word of w. It is a hint:
// it does nothing for heap memory (mapped false), where the system has no
// such call (Linux before 5.14, other systems), or for a range no longer
// mapped.
func Populate(w []uint64, mapped bool) bool {
	return mapped && len(w) > 0 && populatePages(w) == nil
}
