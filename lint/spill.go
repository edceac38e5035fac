package lint

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"slices"
)

// A set's URLs are looked up in a table in memory (publish.Seen) while
// there are at most setMemURLs of them (about 12 MiB). Past that, the
// table is kept as it is, for lookups, and the next URLs' records (hash
// and place) are sorted in runs on disk, merged at Finish: two in
// different sitemaps are a duplicate, reported then. Memory stays flat
// whatever the set's size; a URL listed twice in one sitemap is still
// found as it is read (its document's hashes). The hreflang links go
// through runs the same way, from the first (see reciprocity).
var (
	setMemURLs = 1 << 20
	// setPopulateURLs is the size from which the set's room is made
	// resident (see publish.Seen.Populate): its cost in memory (12 MiB)
	// is then taken by a set that, had it grown on, would have touched
	// nearly all of it anyway, from about 10,000 URLs.
	setPopulateURLs = 1024
	spillRun        = 1 << 17 // records a run holds: 3 to 4 MiB, and as much to sort it
	spillMerge      = 64      // runs of one size: so many are merged into one of the next
)

// A dupRecord is a URL past the table: its hash and its place.
type dupRecord struct {
	h               uint64
	file, line, col uint32
}

// dupCodec orders dupRecords by hash, then place.
var dupCodec = codec[dupRecord]{
	size: 20,
	key:  func(r dupRecord) uint64 { return r.h },
	cmp: func(x, y dupRecord) int {
		return cmp.Or(cmp.Compare(x.h, y.h), cmp.Compare(x.file, y.file), cmp.Compare(x.line, y.line), cmp.Compare(x.col, y.col))
	},
	put: func(b []byte, r dupRecord) {
		binary.LittleEndian.PutUint64(b, r.h)
		binary.LittleEndian.PutUint32(b[8:], r.file)
		binary.LittleEndian.PutUint32(b[12:], r.line)
		binary.LittleEndian.PutUint32(b[16:], r.col)
	},
	get: func(b []byte) dupRecord {
		return dupRecord{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint32(b[8:]),
			binary.LittleEndian.Uint32(b[12:]), binary.LittleEndian.Uint32(b[16:])}
	},
}

// A codec tells a spill how to order its records and keep them on disk.
type codec[T any] struct {
	size int              // bytes a record takes on disk
	key  func(T) uint64   // the order's first part, radix-sorted: uniform hashes
	cmp  func(x, y T) int // the whole order, key first
	put  func([]byte, T)  // writes a record into size bytes
	get  func([]byte) T   // reads one back
}

// A spill sorts more records than memory should hold: runs[k] holds runs
// of spillRun·spillMerge^k records on disk, fewer than spillMerge of
// them, so that a record is written once for each size it goes through
// (a handful), and the merge at the end reads a bounded number of files.
// A set that never fills the buffer is sorted in memory.
type spill[T any] struct {
	dir  string // "" for the system's
	c    *codec[T]
	buf  []T
	tmp  []T          // sortRecords'
	runs [][]*os.File // open, their names removed: a killed check leaves nothing
	err  error        // the first failure: what the records are for is not checked
}

// add records r; a full buffer becomes a run.
func (s *spill[T]) add(r T) {
	if s.err != nil {
		return
	}
	if s.buf == nil {
		s.buf = make([]T, 0, spillRun)
	}
	s.buf = append(s.buf, r)
	if len(s.buf) == spillRun {
		s.flush()
	}
}

// flush sorts the buffer into a run.
func (s *spill[T]) flush() {
	if len(s.buf) == 0 || s.err != nil {
		return
	}
	s.sortBuf()
	run, err := s.write(slices.Values(s.buf))
	s.buf = s.buf[:0]
	if err != nil {
		s.err = err
		return
	}
	s.addRun(0, run)
}

// addRun adds run to those of size k, merging them into one of size k+1
// when there are spillMerge.
func (s *spill[T]) addRun(k int, run *os.File) {
	for len(s.runs) <= k {
		s.runs = append(s.runs, nil)
	}
	s.runs[k] = append(s.runs[k], run)
	if len(s.runs[k]) < spillMerge {
		return
	}
	merged, err := s.write(s.mergeRuns(s.runs[k], false))
	for _, r := range s.runs[k] {
		closeRun(r)
	}
	s.runs[k] = nil
	if err != nil {
		s.err = err
		return
	}
	s.addRun(k+1, merged)
}

// sortBuf sorts the buffer.
func (s *spill[T]) sortBuf() {
	if len(s.tmp) < len(s.buf) {
		s.tmp = make([]T, cap(s.buf))
	}
	sortRecords(s.buf, s.tmp[:len(s.buf)], s.c)
}

// sortRecords sorts rs in c's order, using tmp (as long): a radix sort of
// the keys, a byte at a time from the lowest (they are uniform hashes: no
// comparison), then the runs of equal keys (a URL listed twice, a page's
// links) by the whole order.
func sortRecords[T any](rs, tmp []T, c *codec[T]) {
	src, dst := rs, tmp
	for shift := 0; shift < 64; shift += 8 {
		var at [256]int
		for _, r := range src {
			at[byte(c.key(r)>>shift)]++
		}
		n := 0
		for i, k := range at {
			at[i] = n
			n += k
		}
		for _, r := range src {
			b := byte(c.key(r) >> shift)
			dst[at[b]] = r
			at[b]++
		}
		src, dst = dst, src
	}
	// Eight passes: the records are back in rs.
	for i := 0; i < len(rs); {
		j, k := i+1, c.key(rs[i])
		for j < len(rs) && c.key(rs[j]) == k {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(rs[i:j], c.cmp)
		}
		i = j
	}
}

// write writes the records of seq to a new run file, and returns it open.
// Its name is removed at once (a system that refuses, Windows, keeps it
// until remove).
func (s *spill[T]) write(seq func(func(T) bool)) (*os.File, error) {
	f, err := os.CreateTemp(s.dir, "sitemapkit-validate-*.run")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 64<<10)
	b := make([]byte, s.c.size)
	for r := range seq {
		s.c.put(b, r)
		w.Write(b)
	}
	if err = errors.Join(w.Flush(), s.err); err != nil {
		closeRun(f)
		return nil, err
	}
	return f, nil
}

// closeRun closes a run and removes its name, if it still has one.
func closeRun(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}

// merged yields the records of every run and of the buffer, in order.
// A read failure ends it and is kept in s.err.
func (s *spill[T]) merged() func(func(T) bool) {
	var all []*os.File
	for _, rs := range s.runs {
		all = append(all, rs...)
	}
	return s.mergeRuns(all, true)
}

// mergeRuns yields the records of runs, and of the buffer when withBuf,
// in order.
func (s *spill[T]) mergeRuns(runs []*os.File, withBuf bool) func(func(T) bool) {
	return func(yield func(T) bool) {
		h := &runHeap[T]{c: s.c}
		for _, f := range runs {
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				s.err = err
				return
			}
			rr := &runReader[T]{r: bufio.NewReaderSize(f, 32<<10), b: make([]byte, s.c.size)}
			if rr.next(s) {
				h.rs = append(h.rs, rr)
			}
		}
		if withBuf {
			s.sortBuf()
			buf := &runReader[T]{recs: s.buf}
			if buf.next(s) {
				h.rs = append(h.rs, buf)
			}
		}
		heap.Init(h)
		for h.Len() > 0 {
			rr := h.rs[0]
			if !yield(rr.cur) {
				return
			}
			if rr.next(s) {
				heap.Fix(h, 0)
			} else {
				heap.Pop(h)
			}
		}
		if withBuf {
			s.buf = s.buf[:0]
		}
	}
}

// remove closes the run files, which frees them.
func (s *spill[T]) remove() {
	for _, rs := range s.runs {
		for _, f := range rs {
			closeRun(f)
		}
	}
	s.runs = nil
}

// runReader reads a run's records in order, from its file or a slice.
type runReader[T any] struct {
	r    *bufio.Reader
	b    []byte
	recs []T
	cur  T
}

func (rr *runReader[T]) next(s *spill[T]) bool {
	if rr.r == nil {
		if len(rr.recs) == 0 {
			return false
		}
		rr.cur, rr.recs = rr.recs[0], rr.recs[1:]
		return true
	}
	if _, err := io.ReadFull(rr.r, rr.b); err != nil {
		if err != io.EOF && s.err == nil {
			s.err = err
		}
		return false
	}
	rr.cur = s.c.get(rr.b)
	return true
}

type runHeap[T any] struct {
	c  *codec[T]
	rs []*runReader[T]
}

func (h *runHeap[T]) Len() int           { return len(h.rs) }
func (h *runHeap[T]) Less(i, j int) bool { return h.c.cmp(h.rs[i].cur, h.rs[j].cur) < 0 }
func (h *runHeap[T]) Swap(i, j int)      { h.rs[i], h.rs[j] = h.rs[j], h.rs[i] }
func (h *runHeap[T]) Push(x any)         { h.rs = append(h.rs, x.(*runReader[T])) }
func (h *runHeap[T]) Pop() any {
	x := h.rs[len(h.rs)-1]
	h.rs = h.rs[:len(h.rs)-1]
	return x
}
