package source

import (
	"io"
	"iter"
	"sync"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Ahead is a Source that reads another Source on a goroutine of its own,
// batches of records ahead of its caller, so that parsing the input runs
// on one core while the caller builds the sitemaps on another. It returns
// exactly what the Source it reads returns, in order; Line and Err report
// for the record last returned, as that Source's would. Close stops the
// goroutine: call it when done with the Ahead, before closing the input.
type Ahead struct {
	src     Source
	placer  Placer           // names src's places, if they are not lines
	printer Fingerprinter    // src's fingerprints, if it has any
	batches chan *aheadBatch // filled batches, in order
	free    chan *aheadBatch // emptied batches, for reuse
	stop    chan struct{}
	once    sync.Once
	// unique, when set, is told the locs of each batch's URLs and says
	// which are new (see ReadAheadUnique); dups counts the others.
	unique func(locs []string, fresh []bool)
	dups   int

	cur   *aheadBatch
	next  int // index in cur of the record Read returns next
	line  int
	place string // the Placer's place for the record last returned
	fp    uint64 // the fingerprint of the record last returned
	hasFP bool
	end   error // Err of the source after the record last returned
	done  bool  // the record last returned ended the stream
}

// aheadBatchLen is how many records travel together: enough that the cost
// of a channel operation is spread thin, few enough that three batches of
// URLs stay small.
const aheadBatchLen = 512

type aheadBatch struct {
	recs []aheadRecord
	// dedupe's scratch
	locs  []string
	idx   []int
	fresh []bool
}

type aheadRecord struct {
	u     sitemap.URL
	err   error
	line  int
	place string // src's Place, when it is a Placer
	fp    uint64 // src's Fingerprint, when it has one
	hasFP bool
	end   error // src.Err() right after this record
	dup   bool  // a duplicate (see ReadAheadUnique): not returned
}

// ReadAhead starts reading src ahead of the caller and returns the Ahead
// that returns its records.
func ReadAhead(src Source) *Ahead { return readAhead(src, nil) }

// ReadAheadUnique is ReadAhead dropping duplicates: unique is told the
// locs of each batch of URLs read, in order, and sets fresh[i] false for
// those it has seen (a URL seen before, or earlier in the batch). It runs
// on the goroutine that reads, once a batch: a set's lookups, a cache miss
// each, are then issued back to back and overlap, instead of stalling the
// parse of each URL in turn. Duplicates counts what it dropped.
func ReadAheadUnique(src Source, unique func(locs []string, fresh []bool)) *Ahead {
	return readAhead(src, unique)
}

func readAhead(src Source, unique func(locs []string, fresh []bool)) *Ahead {
	// Three would do (one being read, one in flight, one being built) if
	// both sides kept pace batch by batch; they do not, and with three
	// goroutines (reading, building, gzip) on two cores, each wait for a
	// batch idles a core: eight cut generate's time by a tenth.
	const nbatches = 8
	a := &Ahead{
		unique:  unique,
		src:     src,
		placer:  placerOf(src),
		printer: fingerprinterOf(src),
		batches: make(chan *aheadBatch, nbatches),
		free:    make(chan *aheadBatch, nbatches),
		stop:    make(chan struct{}),
	}
	for range nbatches {
		a.free <- &aheadBatch{recs: make([]aheadRecord, 0, aheadBatchLen)}
	}
	go a.fill()
	return a
}

// fill reads src into batches until the stream ends or Close is called.
func (a *Ahead) fill() {
	defer close(a.batches)
	for {
		var b *aheadBatch
		select {
		case b = <-a.free:
		case <-a.stop:
			return
		}
		b.recs = b.recs[:0]
		over := false
		for len(b.recs) < aheadBatchLen && !over {
			// The record is filled where it lies: a URL is large, and
			// each copy of it costs.
			b.recs = b.recs[:len(b.recs)+1]
			r := &b.recs[len(b.recs)-1]
			r.u, r.err = a.src.Read()
			r.end, r.line = a.src.Err(), a.src.Line()
			r.place, r.fp, r.hasFP, r.dup = "", 0, false, false
			if a.placer != nil {
				r.place = a.placer.Place()
			}
			if a.printer != nil {
				r.fp, r.hasFP = a.printer.Fingerprint()
			}
			over = r.err == io.EOF || (r.err != nil && r.end != nil)
		}
		if a.unique != nil {
			a.dedupe(b)
		}
		select {
		case a.batches <- b:
		case <-a.stop:
			return
		}
		if over {
			return
		}
	}
}

// dedupe marks the batch's duplicates.
func (a *Ahead) dedupe(b *aheadBatch) {
	locs, idx := b.locs[:0], b.idx[:0]
	for i := range b.recs {
		if r := &b.recs[i]; r.err == nil && r.u.Loc != "" {
			locs, idx = append(locs, r.u.Loc), append(idx, i)
		}
	}
	fresh := b.fresh[:0]
	for range locs {
		fresh = append(fresh, true)
	}
	a.unique(locs, fresh)
	for k, i := range idx {
		if !fresh[k] {
			b.recs[i].dup = true
			b.recs[i].u = sitemap.URL{}
			a.dups++
		}
	}
	clear(locs) // the URLs' memory is not the batch's to keep
	b.locs, b.idx, b.fresh = locs, idx, fresh
}

// Duplicates returns how many URLs ReadAheadUnique's set found seen, once
// the stream is over.
func (a *Ahead) Duplicates() int { return a.dups }

// Read returns the next record of the Source read, with its contract.
func (a *Ahead) Read() (sitemap.URL, error) {
	for {
		u, err, dup := a.read()
		if !dup {
			return u, err
		}
	}
}

// read is Read, returning duplicates too, marked.
func (a *Ahead) read() (sitemap.URL, error, bool) {
	if a.done {
		return sitemap.URL{}, a.last(), false
	}
	if a.cur == nil || a.next == len(a.cur.recs) {
		if a.cur != nil {
			a.free <- a.cur
			a.cur = nil
		}
		b, ok := <-a.batches
		if !ok { // Close was called
			a.done, a.end = true, io.ErrClosedPipe
			return sitemap.URL{}, a.end, false
		}
		a.cur, a.next = b, 0
	}
	r := &a.cur.recs[a.next]
	a.next++
	a.line, a.place, a.end, a.fp, a.hasFP = r.line, r.place, r.end, r.fp, r.hasFP
	if r.err == io.EOF || (r.err != nil && r.end != nil) {
		a.done = true
	}
	u := r.u
	r.u = sitemap.URL{} // drop the batch's reference to the URL's memory
	return u, r.err, r.dup
}

// last is what Read returns once the stream is over.
func (a *Ahead) last() error {
	if a.end != nil {
		return a.end
	}
	return io.EOF
}

// All returns every record, with the contract of Source.All.
func (a *Ahead) All() iter.Seq2[sitemap.URL, error] { return all(a) }

// Name returns the name of the Source read.
func (a *Ahead) Name() string { return a.src.Name() }

// Line returns the line on which the record Read last returned starts.
func (a *Ahead) Line() int { return a.line }

// Err returns the error that ended the stream, or nil.
func (a *Ahead) Err() error { return a.end }

// Place returns the place of the record Read last returned, as the Source
// read names it (see Place).
func (a *Ahead) Place() string {
	if a.place != "" {
		return a.place
	}
	return linePlace(a.src.Name(), a.line)
}

// Fingerprint returns the fingerprint of the record Read last returned,
// as the Source read gave it (see FingerprintOf).
func (a *Ahead) Fingerprint() (uint64, bool) { return a.fp, a.hasFP }

// Close stops reading ahead; a later Read returns io.ErrClosedPipe. It
// does not wait for a read under way in the goroutine (the standard input
// may never answer): closing the input ends that read, whose record is
// then dropped. Close does not close the Source read.
func (a *Ahead) Close() error {
	a.once.Do(func() { close(a.stop) })
	if !a.done {
		a.done, a.end = true, io.ErrClosedPipe
	}
	return nil
}

var _ Source = (*Ahead)(nil)
