package offheap

import (
	"syscall"
	"unsafe"
)

// Raw system calls, not syscall.Mmap: its bookkeeping knows nothing of
// mremap. A mapping's address comes back as a uintptr, and is read as an
// unsafe.Pointer through memory, the one conversion vet allows: the
// memory is not the Go heap's, so the collector neither moves nor frees
// it.

func mapPages(size int) ([]uint64, error) {
	p, _, errno := syscall.Syscall6(syscall.SYS_MMAP, 0, uintptr(size),
		syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|syscall.MAP_NORESERVE, ^uintptr(0), 0)
	if errno != 0 {
		return nil, errno
	}
	return wordsAt(*(*unsafe.Pointer)(unsafe.Pointer(&p)), size), nil
}

// mremapMayMove lets the kernel move the mapping to grow it: it moves page
// tables, not bytes.
const mremapMayMove = 1

func remapPages(w []uint64, size int) ([]uint64, error) {
	p, _, errno := syscall.Syscall6(syscall.SYS_MREMAP, uintptr(unsafe.Pointer(unsafe.SliceData(w))),
		uintptr(len(w)*8), uintptr(size), mremapMayMove, 0, 0)
	if errno != 0 {
		return nil, errno
	}
	return wordsAt(*(*unsafe.Pointer)(unsafe.Pointer(&p)), size), nil
}

func unmapPages(w []uint64) error {
	_, _, errno := syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(unsafe.SliceData(w))), uintptr(len(w)*8), 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

func populatePages(w []uint64) error {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(unsafe.SliceData(w))), uintptr(len(w)*8), madvPopulateWrite)
	if errno != 0 {
		return errno
	}
	return nil
}
