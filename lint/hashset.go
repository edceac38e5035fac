package lint

// hashSet is a set of 64-bit hashes with open addressing: 8 bytes a slot and
// at most 3/4 of the slots used, so 11 to 21 bytes per member (a Go map
// costs about 40). Zero is the empty slot, so hash 0 is stored as 1: one
// more collision in 2^64.
type hashSet struct {
	slots []uint64
	n     int
}

// add inserts h and reports whether it was new.
func (s *hashSet) add(h uint64) bool {
	if h == 0 {
		h = 1
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = h
			s.n++
			return true
		case h:
			return false
		}
	}
}

// has reports whether h is in the set.
func (s *hashSet) has(h uint64) bool {
	if h == 0 {
		h = 1
	}
	if len(s.slots) == 0 {
		return false
	}
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			return false
		case h:
			return true
		}
	}
}

func (s *hashSet) grow() {
	old := s.slots
	size := 2 * len(old)
	if size < 1024 {
		size = 1024
	}
	s.slots = make([]uint64, size)
	s.n = 0
	for _, h := range old {
		if h != 0 {
			s.add(h)
		}
	}
}

// reset empties the set but keeps its memory, for the next document. An
// empty one is left as it is: an index's set, kept for the documents
// after it (its children, most of them urlsets that use none), was
// cleared after each of them: 512 KiB for an index of 30,000.
func (s *hashSet) reset() {
	if s.n == 0 {
		return
	}
	clear(s.slots)
	s.n = 0
}
