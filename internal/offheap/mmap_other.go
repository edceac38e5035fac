//go:build !unix

package offheap

// Alloc returns n zeroed words on the Go heap, where no anonymous
// mapping is to be had.
func Alloc(n int) (_ []uint64, mapped bool) { return make([]uint64, n), false }

// Resize returns n zeroed words (the words past len(old) are zero, as the
// unix Resize promises), leaving old to the garbage collector.
func Resize(old []uint64, mapped bool, n int) (_ []uint64, isMapped bool) {
	return make([]uint64, n), false
}

// Free leaves w to the garbage collector.
func Free(w []uint64, mapped bool) {}

// Populate does nothing: there are no mappings here.
func Populate(w []uint64, mapped bool) bool { return false }
