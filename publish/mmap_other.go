//go:build !unix

package publish

// allocWords returns n zeroed words on the Go heap, where no anonymous
// mapping is to be had.
func allocWords(n int) (_ []uint64, mapped bool) { return make([]uint64, n), false }

// resizeWords returns n zeroed words, leaving old to the garbage
// collector.
func resizeWords(old []uint64, mapped bool, n int) (_ []uint64, isMapped bool) {
	return make([]uint64, n), false
}

// freeWords leaves w to the garbage collector.
func freeWords(w []uint64, mapped bool) {}
