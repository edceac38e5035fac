//go:build unix && !linux

package offheap

import (
	"syscall"
	"unsafe"
)

func mapPages(size int) ([]uint64, error) {
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, err
	}
	return wordsAt(unsafe.Pointer(unsafe.SliceData(b)), size), nil
}

// remapPages fails where mremap does not exist: Resize then maps
// anew.
func remapPages(w []uint64, size int) ([]uint64, error) { return nil, syscall.ENOTSUP }

func unmapPages(w []uint64) error {
	// syscall.Munmap finds the mapping by its last byte, so the slice
	// must span it exactly as Mmap returned it.
	return syscall.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8))
}

// populatePages does nothing where there is no MADV_POPULATE_WRITE: the
// pages are faulted in as they are first written.
func populatePages(w []uint64) error { return syscall.ENOTSUP }
