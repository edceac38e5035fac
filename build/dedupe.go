package build

import (
	"hash/maphash"
	"math/bits"
)

// seenSet is the set of the URLs already written, kept as 64-bit hashes of
// their normalised locs, in one flat open-addressing table.
//
// Memory: the table grows by half when it is three-quarters full, so its
// load stays between 0.5 and 0.75 and it costs 10.7 to 16 bytes per URL
// (the bound is 16; a map[string]struct{} costs ~100 bytes plus the
// strings). Two different locs sharing a hash would drop the second as a
// duplicate: with 64 bits and a random seed per Builder, the odds are about
// n²/2⁶⁵ (3·10⁻⁶ for ten million URLs), and differ from run to run.
//
// Slots are picked by fast range reduction (hash·len >> 64) rather than by
// masking, so that the length need not be a power of two; linear probing
// keeps a lookup within one or two cache lines.
type seenSet struct {
	seed  maphash.Seed
	slots []uint64 // 0 means empty; a hash of 0 is stored as 1
	n     int
}

const seenMinSlots = 1 << 12

func newSeenSet() *seenSet {
	return &seenSet{seed: maphash.MakeSeed(), slots: make([]uint64, seenMinSlots)}
}

func (s *seenSet) hash(loc string) uint64 {
	h := maphash.Comparable(s.seed, loc)
	if h == 0 {
		h = 1
	}
	return h
}

// find returns whether h is in the set and, if not, the slot where insert
// must put it.
func (s *seenSet) find(h uint64) (found bool, slot int) {
	hi, _ := bits.Mul64(h, uint64(len(s.slots)))
	i := int(hi)
	for {
		switch s.slots[i] {
		case h:
			return true, i
		case 0:
			return false, i
		}
		i++
		if i == len(s.slots) {
			i = 0
		}
	}
}

// insert adds h at slot, which find returned with no insert in between.
func (s *seenSet) insert(h uint64, slot int) {
	s.slots[slot] = h
	s.n++
	if s.n*4 > len(s.slots)*3 {
		s.grow()
	}
}

func (s *seenSet) grow() {
	old := s.slots
	s.slots = make([]uint64, len(old)+len(old)/2)
	for _, h := range old {
		if h != 0 {
			_, i := s.find(h)
			s.slots[i] = h
		}
	}
}

// bytesPerURL reports the table's cost per URL held, for tests.
func (s *seenSet) bytesPerURL() float64 {
	return float64(len(s.slots)*8) / float64(s.n)
}
