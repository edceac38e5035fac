package state

import (
	"math/bits"

	"github.com/sitemapkit/sitemapkit/internal/offheap"
)

// keySet is a set of keys (uniform 64-bit hashes) by open addressing: 8
// bytes a slot, at most half full, so 16 to 32 bytes a key, where a Go map
// takes about 40, and off the Go heap when large (see package offheap).
// 0 marks an empty slot; the key 0 is kept aside.
type keySet struct {
	slots  []uint64
	mapped bool
	n      int
	zero   bool
}

// release frees the set's memory; the set is then empty.
func (s *keySet) release() {
	offheap.Free(s.slots, s.mapped)
	*s = keySet{}
}

func (s *keySet) has(k uint64) bool {
	if k == 0 {
		return s.zero
	}
	if len(s.slots) == 0 {
		return false
	}
	mask := uint64(len(s.slots) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

func (s *keySet) add(k uint64) {
	if k == 0 {
		s.zero = true
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return
		case 0:
			s.slots[i] = k
			s.n++
			return
		}
	}
}

func (s *keySet) grow() {
	old, mapped := s.slots, s.mapped
	n := max(64, 2*len(old))
	s.slots, s.mapped = offheap.Alloc(n)
	// A mapping is whole pages, rounded down; the mask needs a power of
	// two.
	s.slots = s.slots[:1<<(bits.Len(uint(len(s.slots)))-1)]
	s.n = 0
	for _, k := range old {
		if k != 0 {
			s.add(k)
		}
	}
	offheap.Free(old, mapped)
}
