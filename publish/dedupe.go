package publish

import (
	"hash/maphash"
	"math"
	"math/bits"
	"os"
	"runtime"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/sitemapkit/sitemapkit/internal/offheap"
)

// seenSet is the set of the URLs already written, kept as 64-bit hashes of
// their normalised locs. Two different locs sharing a hash would drop the
// second as a duplicate: with 64 bits and a random seed per Builder, the
// odds are about n²/2⁶⁵ (3·10⁻⁶ for ten million URLs), and differ from run
// to run.
//
// The hashes live in open-addressing tables, whose every access is a cache
// miss once they outgrow the caches (~150 ns on a server, most of the cost
// of de-duplication). So that a new URL, the common case, costs no miss, a
// Bloom filter of one 64-bit word per lookup (4 bits set in it), smaller
// and so more often in cache, answers "never seen" first; and new hashes
// are inserted into the tables in batches, whose independent accesses the
// processor overlaps. Only a URL the filter has seen (a duplicate, or 1–3 %
// false positives) is looked up in a table.
//
// The set is cut into seenSegs segments by the hash's top bits, each with
// its own filter and table in one allocation, growing on its own: a growth
// holds one segment's hashes twice (see grow), never two copies of the
// set. Segments of offheap.MinMap bytes and more are anonymous mappings, off
// the Go heap (see offheap.Alloc): what a growth frees leaves the process at
// once rather than waiting as garbage for a collection, and release, on
// Publish or Abort, unmaps the rest.
//
// Memory: a segment's table grows by half when 85 % full (load 0.57 to
// 0.85: 9.4 to 14.1 bytes per URL), and its filter takes a ninth of the
// segment's words, 7.1 bits per slot (8.4 to 12.5 bits, 1 to 1.6 bytes per
// URL): at most 15.7 bytes per URL in all. Mappings are whole pages,
// rounded down, so a growth never exceeds half; fixed costs are ~61 KB, and
// grow's scratch one segment's hashes (1/256 of the table): within the
// issue's 16 from ~12,000 URLs on (TestSeenSetMemory, TestSeenSetRSS),
// where a map[string]struct{} costs ~100 bytes plus the strings. Hashes
// are uniform, so the segments fill, and grow, nearly together: the
// process's peak is the set's, plus one segment.
//
// A Seen's set has no filters: it is filled a batch at a time (insert), a
// lookup issued after the other, and a filter would then be one more miss
// a URL, not one less.
//
// Slots are picked by fast range reduction (hash·len >> 64, on the bits
// below the segment's), so lengths need not be powers of two, and linear
// probing keeps a probe sequence in consecutive memory.
type seenSet struct {
	seed    maphash.Seed
	pending []uint64 // added, in a filter, not yet in a table
	scratch []uint64 // for grow
	segs    *seenSegments
	sink    uint64 // touch's, so that its loads are kept

	// populated is closed when populate's goroutine ends; nil if there
	// is none. stopPopulate asks it to end.
	populated    chan struct{}
	stopPopulate atomic.Bool
}

type seenSegments [seenSegs]seenSegment

// A seenSegment holds the hashes whose top seenSegBits bits are its index.
type seenSegment struct {
	mem    []uint64 // bloom, then slots
	bloom  []uint64
	slots  []uint64 // 0 means empty; a hash of 0 is stored as 1
	n      int      // hashes in slots
	limit  int      // n at which the table grows
	mapped bool     // mem is a mapping, for offheap.Free
	// noFilter: no filter, for a set filled by insert (see newSet)
	noFilter bool
}

const (
	seenSegBits   = 8
	seenSegs      = 1 << seenSegBits
	seenMinWords  = 18  // per segment: 16 slots, 2 filter words
	bloomShare    = 9   // the filter is 1/bloomShare of a segment
	seenBatch     = 256 // pending hashes: a linear scan stays cheap
	slotsMaxLoad  = 0.85
	growNumerator = 3 // growth factor 3/2
	growDenom     = 2
)

func newSeenSet() *seenSet { return newSet(true) }

// newSet returns an empty set, with filters or without (a set filled by
// insert alone, which never asks them).
func newSet(filter bool) *seenSet {
	s := &seenSet{
		seed:    maphash.MakeSeed(),
		pending: make([]uint64, 0, seenBatch),
		segs:    new(seenSegments),
	}
	for i := range s.segs {
		s.segs[i].noFilter = !filter
		s.segs[i].setMem(offheap.Alloc(seenMinWords))
	}
	// A Builder dropped without Publish or Abort must not leak its
	// mappings.
	runtime.AddCleanup(s, (*seenSegments).release, s.segs)
	return s
}

func (g *seenSegment) setMem(mem []uint64, mapped bool) {
	nb := len(mem) / bloomShare
	if g.noFilter {
		nb = 0
	}
	g.mem, g.mapped = mem, mapped
	g.bloom, g.slots = mem[:nb:nb], mem[nb:]
	g.limit = int(slotsMaxLoad * float64(len(g.slots)))
}

func (s *seenSet) hash(loc string) uint64 {
	return maphash.Comparable(s.seed, loc)
}

// key returns h as stored: 0 marks an empty slot, so a hash of 0 is taken
// for 1 (one more collision in 2⁶⁴).
func key(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

func (s *seenSet) segment(h uint64) *seenSegment {
	return &s.segs[h>>(64-seenSegBits)]
}

// bloomWord and bloomMask pick the filter's word from the hash's low 32
// bits and the 4 bits from bits 32–55; the segment comes from the top
// bits, and the slot from the high bits below them, so they are
// independent enough.
func bloomWord(h uint64, n int) int {
	return int((h & 0xffffffff) * uint64(n) >> 32)
}

func bloomMask(h uint64) uint64 {
	return 1<<(h>>32&63) | 1<<(h>>38&63) | 1<<(h>>44&63) | 1<<(h>>50&63)
}

// contains reports whether h was added.
func (s *seenSet) contains(h uint64) bool {
	h = key(h)
	g := s.segment(h)
	m := bloomMask(h)
	if g.bloom[bloomWord(h, len(g.bloom))]&m != m {
		return false
	}
	if found, _ := g.find(h); found {
		return true
	}
	return slices.Contains(s.pending, h)
}

// add adds h, which contains reported absent.
func (s *seenSet) add(h uint64) {
	h = key(h)
	g := s.segment(h)
	g.bloom[bloomWord(h, len(g.bloom))] |= bloomMask(h)
	s.pending = append(s.pending, h)
	if len(s.pending) == seenBatch {
		s.flush()
	}
}

// insert adds h unless it is there, in its table at once, and reports
// whether it added it: one cache miss a URL, rather than the filter's and
// then the table's. It is for a set without filters (newSet(false), a
// Seen's), which contains and add must not be used on.
func (s *seenSet) insert(h uint64) bool {
	h = key(h)
	g := s.segment(h)
	if g.n >= g.limit {
		s.grow(g)
	}
	found, i := g.find(h)
	if !found {
		g.slots[i] = h
		g.n++
	}
	return !found
}

// touch reads the first slot each of hs would probe, and nothing else: a
// loop of loads alone, whose cache misses the processor overlaps, many at
// once, where insert's loop, with its branches on what it loads, gets few
// in flight. insert then finds them in cache.
func (s *seenSet) touch(hs []uint64) {
	var x uint64
	for _, h := range hs {
		g := s.segment(h)
		x |= g.slots[g.home(h)]
	}
	s.sink = x
}

func (s *seenSet) len() int {
	n := len(s.pending)
	for i := range s.segs {
		n += s.segs[i].n
	}
	return n
}

// flush inserts the pending hashes into the tables. The loop's iterations
// do not depend on each other, so their cache misses overlap.
func (s *seenSet) flush() {
	for _, h := range s.pending {
		g := s.segment(h)
		if g.n >= g.limit {
			s.grow(g)
		}
		if found, i := g.find(h); !found {
			g.slots[i] = h
			g.n++
		}
	}
	s.pending = s.pending[:0]
}

// find returns whether h is in g's table and, if not, its free slot.
func (g *seenSegment) find(h uint64) (found bool, slot int) {
	i := g.home(h)
	for {
		switch g.slots[i] {
		case h:
			return true, i
		case 0:
			return false, i
		}
		i++
		if i == len(g.slots) {
			i = 0
		}
	}
}

// home is the slot where h's probe sequence starts.
func (g *seenSegment) home(h uint64) int {
	hi, _ := bits.Mul64(h<<seenSegBits, uint64(len(g.slots)))
	return int(hi)
}

// grow rehashes g into a segment half as large again. Its hashes are
// copied aside, in slot order, to scratch, and its memory resized, in
// place where the system can (see offheap.Resize): the process then holds one
// segment's hashes twice at most, never two copies of the set. The
// hashes come back in nearly the order of their new places, so this
// streams through memory. The filter is rebuilt from the table and from
// the pending hashes of g.
func (s *seenSet) grow(g *seenSegment) {
	s.growTo(g, len(g.mem)*growNumerator/growDenom)
}

// growTo rehashes g into a segment of words words.
func (s *seenSet) growTo(g *seenSegment, words int) {
	// The room outgrown, populate's spans are out of date: a segment
	// moved by mremap leaves its old range to be mapped again by
	// anyone, whose pages populate would then make resident.
	s.stopPopulating()
	s.scratch = s.scratch[:0]
	for _, h := range g.slots {
		if h != 0 {
			s.scratch = append(s.scratch, h)
		}
	}
	old := len(g.mem)
	mem, mapped := offheap.Resize(g.mem, g.mapped, words)
	// Only the old words may hold hashes: clearing the rest would touch
	// every page of a reservation (Reserve: 12 MiB for validate of a
	// single URL, with a page fault for each of its pages).
	clear(mem[:min(old, len(mem))])
	g.setMem(mem, mapped)
	for _, h := range s.scratch {
		_, i := g.find(h)
		g.slots[i] = h
		if !g.noFilter {
			g.bloom[bloomWord(h, len(g.bloom))] |= bloomMask(h)
		}
	}
	for _, h := range s.pending {
		if s.segment(h) == g {
			g.bloom[bloomWord(h, len(g.bloom))] |= bloomMask(h)
		}
	}
}

// populate makes the segments' mapped memory resident, on a goroutine of
// its own, unless it did before (see Seen.Populate). The goroutine holds
// s: its cleanup cannot unmap the segments while it runs.
func (s *seenSet) populate() {
	if s.populated != nil {
		return
	}
	type span struct {
		mem    []uint64
		mapped bool
	}
	spans := make([]span, len(s.segs))
	for i := range s.segs {
		spans[i] = span{s.segs[i].mem, s.segs[i].mapped}
	}
	s.populated = make(chan struct{})
	go func() {
		defer close(s.populated)
		for _, sp := range spans {
			if s.stopPopulate.Load() || !offheap.Populate(sp.mem, sp.mapped) && sp.mapped {
				return
			}
		}
	}()
}

// stopPopulating stops populate's goroutine, if one runs, and waits for
// it to end.
func (s *seenSet) stopPopulating() {
	if s.populated != nil {
		s.stopPopulate.Store(true)
		<-s.populated
	}
}

// release frees the segments; the set must not be used after.
func (s *seenSet) release() {
	if s != nil {
		// A segment's mapping must not be freed, and its range mapped
		// again by another, under populate.
		s.stopPopulating()
		s.segs.release()
		s.scratch = nil
	}
}

func (segs *seenSegments) release() {
	for i := range segs {
		g := &segs[i]
		offheap.Free(g.mem, g.mapped)
		*g = seenSegment{}
	}
}

// bytes reports the memory the set holds: its segments, its batch and
// its fixed parts, for tests.
func (s *seenSet) bytes() int {
	n := int(unsafe.Sizeof(*s)+unsafe.Sizeof(*s.segs)) + (cap(s.pending)+cap(s.scratch))*8
	for i := range s.segs {
		n += len(s.segs[i].mem) * 8
	}
	return n
}

// bytesPerURL reports the set's cost per URL held, for tests.
func (s *seenSet) bytesPerURL() float64 {
	return float64(s.bytes()) / float64(s.len())
}

// Seen is the set de-duplication keeps (at most 16 bytes a URL), for a
// caller that drops duplicates before the Builder, on another goroutine,
// and builds with Options.NoDedupe: the command drops them where it reads
// its inputs, on the core that parses them, so that the core that encodes
// does not wait on the set's cache misses. A Seen is not safe for
// concurrent use.
type Seen struct {
	s      *seenSet
	hashes []uint64 // AddBatch's
}

// NewSeen returns an empty Seen.
func NewSeen() *Seen { return &Seen{s: newSet(false)} }

// Add remembers loc, a normalised URL, and reports whether it is new:
// false for a URL added before.
func (s *Seen) Add(loc string) bool {
	return s.s.insert(s.s.hash(loc))
}

// AddBatch is Add for each of locs, in order, setting fresh[i] to its
// answer: a batch's lookups, each a cache miss in a large set, then
// overlap, rather than each stalling whatever work comes between two.
func (s *Seen) AddBatch(locs []string, fresh []bool) {
	hs := s.hashes[:0]
	for _, l := range locs {
		hs = append(hs, s.s.hash(l))
	}
	s.AddHashes(hs, fresh)
	s.hashes = hs
}

// AddHashes is AddBatch for a caller that hashed the locs already (and
// needs their hashes for itself): hs are 64-bit hashes, under a seed of
// the caller's made at random for this Seen (hash/maphash), so that no
// input can pick locs that collide. A Seen takes locs or hashes, not both.
func (s *Seen) AddHashes(hs []uint64, fresh []bool) {
	s.s.touch(hs)
	for i, h := range hs {
		fresh[i] = s.s.insert(h)
	}
}

// HasHash reports whether AddHashes added h: a lookup that adds nothing,
// for a caller that keeps the set as it is past a size.
func (s *Seen) HasHash(h uint64) bool {
	h = key(h)
	found, _ := s.s.segment(h).find(h)
	return found
}

// Reserve makes room for n URLs, so that the set does not grow (rehash
// its tables) on the way there: a caller that can tell how many URLs come
// saves a tenth of de-duplication's time. The room is within the bound of
// 16 bytes a URL for n URLs (about 9.6 at a million).
func (s *Seen) Reserve(n int) {
	// A segment gets n/seenSegs hashes give or take their square root
	// (the hashes are uniform): room for five of those more is room
	// for every segment but once in millions of sets.
	m := float64(n) / seenSegs
	words := int((m+5*math.Sqrt(m)+16)/slotsMaxLoad) + 1
	if words*8 >= offheap.MinMap {
		// A mapping is whole pages, rounded down (offheap.Alloc): ask
		// for whole pages, rounded up.
		page := os.Getpagesize() / 8
		words = (words + page - 1) / page * page
	}
	for i := range s.s.segs {
		if g := &s.s.segs[i]; words > len(g.mem) {
			s.s.growTo(g, words)
		}
	}
}

// Populate makes the room Reserve set aside resident at once, on a
// goroutine of its own, for a caller that will fill it: the set's first
// thousands of URLs, landing at random all over the room, otherwise take
// a page fault each, in whatever holds the set (validate, its lock: for
// the first 16 ms of a million URLs, the other core sat idle). It costs
// the room in memory, however few URLs come; and it does nothing where
// the system cannot (see offheap.Populate).
func (s *Seen) Populate() { s.s.populate() }

// Release frees the set's memory at once; s must not be used after, by
// any goroutine. Without it, the memory is freed once s is garbage.
func (s *Seen) Release() { s.s.release() }
