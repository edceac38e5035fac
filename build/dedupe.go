package build

import (
	"hash/maphash"
	"math/bits"
	"slices"
)

// seenSet is the set of the URLs already written, kept as 64-bit hashes of
// their normalised locs. Two different locs sharing a hash would drop the
// second as a duplicate: with 64 bits and a random seed per Builder, the
// odds are about n²/2⁶⁵ (3·10⁻⁶ for ten million URLs), and differ from run
// to run.
//
// The hashes live in one flat open-addressing table, whose every access is
// a cache miss once it outgrows the caches (~150 ns on a server, most of
// the cost of de-duplication). So that a new URL, the common case, costs no
// miss, a Bloom filter of one 64-bit word per lookup (4 bits set in it),
// small enough to stay in cache, answers "never seen" first; and new
// hashes are inserted into the table in batches, whose independent
// accesses the processor overlaps. Only a URL the filter has seen (a
// duplicate, or 1–3 % false positives) is looked up in the table.
//
// Memory: the table grows by half when 85 % full (load 0.57 to 0.85: 9.4
// to 14.1 bytes per URL), the filter keeps 8 to 12 bits per URL (1 to 1.5
// bytes): at most 15.6 bytes per URL in all, within the 16, where
// a map[string]struct{} costs ~100 bytes plus the strings.
//
// Slots are picked by fast range reduction (hash·len >> 64), so lengths
// need not be powers of two, and linear probing keeps a probe sequence in
// consecutive memory.
type seenSet struct {
	seed    maphash.Seed
	slots   []uint64 // 0 means empty; a hash of 0 is stored as 1
	n       int      // hashes in slots
	bloom   []uint64
	pending []uint64 // added, in the filter, not yet in slots
}

const (
	seenMinSlots  = 1 << 12
	seenMinBloom  = 1 << 9 // words
	seenBatch     = 256    // pending hashes: a linear scan stays cheap
	bloomMinBits  = 8      // bits per URL before the filter grows
	slotsMaxLoad  = 0.85
	growNumerator = 3 // growth factor 3/2, for table and filter
	growDenom     = 2
)

func newSeenSet() *seenSet {
	return &seenSet{
		seed:    maphash.MakeSeed(),
		slots:   make([]uint64, seenMinSlots),
		bloom:   make([]uint64, seenMinBloom),
		pending: make([]uint64, 0, seenBatch),
	}
}

func (s *seenSet) hash(loc string) uint64 {
	h := maphash.Comparable(s.seed, loc)
	if h == 0 {
		h = 1
	}
	return h
}

// bloomWord and bloomMask pick the filter's word from the hash's low 32
// bits and the 4 bits from bits 32–55; the table's slot comes from the
// high bits of the product with its length, so the two are independent
// enough.
func bloomWord(h uint64, n int) int {
	return int((h & 0xffffffff) * uint64(n) >> 32)
}

func bloomMask(h uint64) uint64 {
	return 1<<(h>>32&63) | 1<<(h>>38&63) | 1<<(h>>44&63) | 1<<(h>>50&63)
}

// contains reports whether h was added.
func (s *seenSet) contains(h uint64) bool {
	m := bloomMask(h)
	if s.bloom[bloomWord(h, len(s.bloom))]&m != m {
		return false
	}
	if found, _ := s.find(h); found {
		return true
	}
	return slices.Contains(s.pending, h)
}

// add adds h, which contains reported absent.
func (s *seenSet) add(h uint64) {
	s.bloom[bloomWord(h, len(s.bloom))] |= bloomMask(h)
	s.pending = append(s.pending, h)
	if len(s.pending) == seenBatch {
		s.flush()
	}
	if s.len()*bloomMinBits > len(s.bloom)*64 {
		s.growBloom()
	}
}

func (s *seenSet) len() int { return s.n + len(s.pending) }

// flush inserts the pending hashes into the table. The loop's iterations
// do not depend on each other, so their cache misses overlap.
func (s *seenSet) flush() {
	for _, h := range s.pending {
		if float64(s.n+1) > slotsMaxLoad*float64(len(s.slots)) {
			s.growSlots()
		}
		if found, i := s.find(h); !found {
			s.slots[i] = h
			s.n++
		}
	}
	s.pending = s.pending[:0]
}

// find returns whether h is in the table and, if not, its free slot.
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

// growSlots rehashes into a table half as large again. Old slots are
// visited in order, and their new places come in nearly the same order,
// so this streams through memory.
func (s *seenSet) growSlots() {
	old := s.slots
	s.slots = make([]uint64, len(old)*growNumerator/growDenom)
	for _, h := range old {
		if h != 0 {
			_, i := s.find(h)
			s.slots[i] = h
		}
	}
}

func (s *seenSet) growBloom() {
	s.bloom = make([]uint64, len(s.bloom)*growNumerator/growDenom)
	for _, l := range [][]uint64{s.slots, s.pending} {
		for _, h := range l {
			if h != 0 {
				s.bloom[bloomWord(h, len(s.bloom))] |= bloomMask(h)
			}
		}
	}
}

// bytesPerURL reports the set's cost per URL held, for tests.
func (s *seenSet) bytesPerURL() float64 {
	return float64((len(s.slots)+len(s.bloom)+cap(s.pending))*8) / float64(s.len())
}
