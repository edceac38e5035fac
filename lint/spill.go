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
// found as it is read (its document's hashes).
var (
	setMemURLs = 1 << 20
	spillRun   = 1 << 17 // records a run holds: 3 MiB, and as much to sort it
	spillMerge = 64      // runs of one size: so many are merged into one of the next
)

// A dupRecord is a URL past the table: its hash and its place.
type dupRecord struct {
	h               uint64
	file, line, col uint32
}

// recordSize is a dupRecord's size on disk.
const recordSize = 20

func compareRecords(x, y dupRecord) int {
	return cmp.Or(cmp.Compare(x.h, y.h), cmp.Compare(x.file, y.file), cmp.Compare(x.line, y.line), cmp.Compare(x.col, y.col))
}

// dupSpill is the runs of records on disk: runs[k] holds runs of
// spillRun·spillMerge^k records, fewer than spillMerge of them, so that a
// record is written once for each size it goes through (a handful), and
// the merge at the end reads a bounded number of files.
type dupSpill struct {
	dir  string // "" for the system's
	buf  []dupRecord
	tmp  []dupRecord // sortRecords'
	runs [][]string
	err  error // the first failure: the check of duplicates past the table stops
}

// add records r; a full buffer becomes a run.
func (s *dupSpill) add(r dupRecord) {
	if s.err != nil {
		return
	}
	if s.buf == nil {
		s.buf = make([]dupRecord, 0, spillRun)
	}
	s.buf = append(s.buf, r)
	if len(s.buf) == spillRun {
		s.flush()
	}
}

// flush sorts the buffer into a run.
func (s *dupSpill) flush() {
	if len(s.buf) == 0 || s.err != nil {
		return
	}
	s.sortBuf()
	name, err := s.write(func(yield func(dupRecord) bool) {
		for _, r := range s.buf {
			if !yield(r) {
				return
			}
		}
	})
	s.buf = s.buf[:0]
	if err != nil {
		s.err = err
		return
	}
	s.addRun(0, name)
}

// addRun adds the run name to those of size k, merging them into one of
// size k+1 when there are spillMerge.
func (s *dupSpill) addRun(k int, name string) {
	for len(s.runs) <= k {
		s.runs = append(s.runs, nil)
	}
	s.runs[k] = append(s.runs[k], name)
	if len(s.runs[k]) < spillMerge {
		return
	}
	merged, err := s.write(s.mergeRuns(s.runs[k], false))
	for _, r := range s.runs[k] {
		os.Remove(r)
	}
	s.runs[k] = nil
	if err != nil {
		s.err = err
		return
	}
	s.addRun(k+1, merged)
}

// sortBuf sorts the buffer.
func (s *dupSpill) sortBuf() {
	if len(s.tmp) < len(s.buf) {
		s.tmp = make([]dupRecord, cap(s.buf))
	}
	sortRecords(s.buf, s.tmp[:len(s.buf)])
}

// sortRecords sorts rs by hash, then place, using tmp (as long): a radix
// sort of the hashes, a byte at a time from the lowest (they are uniform:
// no comparison), then the rare runs of equal hashes (one URL listed
// twice) by place.
func sortRecords(rs, tmp []dupRecord) {
	src, dst := rs, tmp
	for shift := 0; shift < 64; shift += 8 {
		var at [256]int
		for _, r := range src {
			at[byte(r.h>>shift)]++
		}
		n := 0
		for i, c := range at {
			at[i] = n
			n += c
		}
		for _, r := range src {
			b := byte(r.h >> shift)
			dst[at[b]] = r
			at[b]++
		}
		src, dst = dst, src
	}
	// Eight passes: the records are back in rs.
	for i := 0; i < len(rs); {
		j := i + 1
		for j < len(rs) && rs[j].h == rs[i].h {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(rs[i:j], compareRecords)
		}
		i = j
	}
}

// write writes the records of seq to a new run file and returns its name.
func (s *dupSpill) write(seq func(func(dupRecord) bool)) (string, error) {
	f, err := os.CreateTemp(s.dir, "sitemapkit-validate-*.run")
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	var b [recordSize]byte
	for r := range seq {
		binary.LittleEndian.PutUint64(b[:8], r.h)
		binary.LittleEndian.PutUint32(b[8:], r.file)
		binary.LittleEndian.PutUint32(b[12:], r.line)
		binary.LittleEndian.PutUint32(b[16:], r.col)
		w.Write(b[:])
	}
	err = errors.Join(w.Flush(), f.Close(), s.err)
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// merged yields the records of every run and of the buffer, in order.
// A read failure ends it and is kept in s.err.
func (s *dupSpill) merged() func(func(dupRecord) bool) {
	var all []string
	for _, rs := range s.runs {
		all = append(all, rs...)
	}
	return s.mergeRuns(all, true)
}

// mergeRuns yields the records of the runs named, and of the buffer when
// withBuf, in order.
func (s *dupSpill) mergeRuns(names []string, withBuf bool) func(func(dupRecord) bool) {
	return func(yield func(dupRecord) bool) {
		h := &runHeap{}
		for _, name := range names {
			f, err := os.Open(name)
			if err != nil {
				s.err = err
				return
			}
			defer f.Close()
			rr := &runReader{r: bufio.NewReaderSize(f, 32<<10)}
			if rr.next(s) {
				h.rs = append(h.rs, rr)
			}
		}
		if withBuf {
			s.sortBuf()
			buf := &runReader{recs: s.buf}
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

// remove removes the run files.
func (s *dupSpill) remove() {
	for _, rs := range s.runs {
		for _, name := range rs {
			os.Remove(name)
		}
	}
	s.runs = nil
}

// runReader reads a run's records in order, from its file or a slice.
type runReader struct {
	r    *bufio.Reader
	recs []dupRecord
	cur  dupRecord
}

func (rr *runReader) next(s *dupSpill) bool {
	if rr.r == nil {
		if len(rr.recs) == 0 {
			return false
		}
		rr.cur, rr.recs = rr.recs[0], rr.recs[1:]
		return true
	}
	var b [recordSize]byte
	if _, err := io.ReadFull(rr.r, b[:]); err != nil {
		if err != io.EOF && s.err == nil {
			s.err = err
		}
		return false
	}
	rr.cur = dupRecord{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint32(b[8:]),
		binary.LittleEndian.Uint32(b[12:]), binary.LittleEndian.Uint32(b[16:])}
	return true
}

type runHeap struct{ rs []*runReader }

func (h *runHeap) Len() int           { return len(h.rs) }
func (h *runHeap) Less(i, j int) bool { return compareRecords(h.rs[i].cur, h.rs[j].cur) < 0 }
func (h *runHeap) Swap(i, j int)      { h.rs[i], h.rs[j] = h.rs[j], h.rs[i] }
func (h *runHeap) Push(x any)         { h.rs = append(h.rs, x.(*runReader)) }
func (h *runHeap) Pop() any {
	x := h.rs[len(h.rs)-1]
	h.rs = h.rs[:len(h.rs)-1]
	return x
}
