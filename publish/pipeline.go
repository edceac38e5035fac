package publish

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// The encoder (the caller's goroutine, in Add) hands the bytes of each file
// to the pipeline's worker in chunks of chunkSize, taken from a pool of
// poolChunks buffers: memory stays flat whatever the set's size, and the
// worker gzips and writes file k while the encoder fills file k+1. Fsync
// and Close run on a third goroutine, since they mostly wait for the disk.
const (
	chunkSize = 256 << 10
	// poolChunks: 4 left the encoder waiting on gzip, and gzip on the
	// encoder, often enough to cost a tenth of a run; 8 (2 MiB) do not.
	poolChunks = 8
	// fileBuffer sits between gzip (or the raw bytes) and the file, so
	// that writes reach the kernel in large pieces.
	fileBuffer = 256 << 10
)

// A child is one file of the set being built (a urlset or text document).
type child struct {
	n     int    // 1-based number in the stream, across groups
	group string // the group's name; "" for the main set
	gn    int    // 1-based number inside the group (n for the main set)

	// Owned by the encoder.
	entries  int
	latest   string // the latest lastmod of its URLs, as written
	latestOK bool   // latest parsed; latestAt holds its instant
	latestAt int64  // Unix nanoseconds of latest (see lastmod.go)

	// Owned by the worker until the pipeline is done.
	tmp  string // temp file holding the content as it will be published
	gzip bool   // tmp is gzipped
	raw  int64  // uncompressed size
	disk int64  // size of tmp
	sum  uint32 // CRC-32C of the uncompressed bytes (see checksum)
	// digest: with Options.Stable, the digest of its lines (see spool)
	digest string
}

type jobKind uint8

const (
	jobData     jobKind = iota // buf is the next piece of c
	jobEnd                     // c is complete
	jobCompress                // c was written uncompressed: gzip it now
)

type job struct {
	kind jobKind
	c    *child
	buf  []byte // jobData: a pool buffer, returned to the pool when written
	gzip bool   // jobData, first piece of c: write it gzipped
}

// pipeline is the worker side: temp files, gzip, checksums, fsync.
type pipeline struct {
	dir    string
	prefix string // temp files' name prefix

	jobs      chan job
	free      chan []byte
	allocated int // buffers made so far (encoder-owned)

	mu    sync.Mutex
	err   error    // first failure of the worker or the syncer
	temps []string // every temp file created, for cleanup
	fails chan struct{}

	done     chan struct{} // the worker has stopped
	syncq    chan *os.File
	syncDone chan struct{}
	closed   bool // jobs is closed (encoder-owned)

	// Worker state.
	gz *gzip.Writer
	bw *bufio.Writer
}

func newPipeline(dir, prefix string) *pipeline {
	p := &pipeline{
		dir:      dir,
		prefix:   prefix,
		jobs:     make(chan job, poolChunks),
		free:     make(chan []byte, poolChunks),
		fails:    make(chan struct{}),
		done:     make(chan struct{}),
		syncq:    make(chan *os.File, 16),
		syncDone: make(chan struct{}),
	}
	go p.run()
	go p.syncer()
	return p
}

// fail records the first error; the worker then only drains its queue.
func (p *pipeline) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = err
		close(p.fails)
	}
}

func (p *pipeline) failure() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// getBuf returns an empty pool buffer, waiting for the worker to free one
// when all are in flight.
func (p *pipeline) getBuf(ctx context.Context) ([]byte, error) {
	select {
	case b := <-p.free:
		return b, nil
	default:
	}
	if p.allocated < poolChunks {
		p.allocated++
		return make([]byte, 0, chunkSize), nil
	}
	select {
	case b := <-p.free:
		return b, nil
	case <-p.fails:
		return nil, p.failure()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pipeline) send(ctx context.Context, j job) error {
	err := ctx.Err()
	if err == nil {
		err = p.failure()
	}
	if err != nil {
		if j.buf != nil {
			p.free <- j.buf[:0]
		}
		return err
	}
	select {
	case p.jobs <- j:
		return nil
	case <-p.fails:
		if j.buf != nil {
			p.free <- j.buf[:0]
		}
		return p.failure()
	case <-ctx.Done():
		if j.buf != nil {
			p.free <- j.buf[:0]
		}
		return ctx.Err()
	}
}

// finish closes the queue and waits for the worker and the syncer. It
// returns the first failure.
func (p *pipeline) finish() error {
	if !p.closed {
		p.closed = true
		close(p.jobs)
	}
	<-p.done
	<-p.syncDone
	return p.failure()
}

// removeTemps removes every temp file the pipeline created that is still
// there. It must be called after finish.
func (p *pipeline) removeTemps() error {
	var errs []error
	for _, t := range p.temps {
		if err := os.Remove(t); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	p.temps = nil
	return errors.Join(errs...)
}

func (p *pipeline) createTemp() (*os.File, error) {
	f, err := createTemp(p.dir, p.prefix)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.temps = append(p.temps, f.Name())
	p.mu.Unlock()
	return f, nil
}

// countWriter counts what reaches the file.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// The content checksum of a file is the CRC-32C of its uncompressed
// bytes: its 8 hex digits name the file, and the manifest keeps it with the
// size to check a file before it is reused. It runs in hardware at many
// GB/s, where SHA-256 would cost the worker (the busier goroutine) a third
// of its time; a name only has to change when the content does, and two
// contents of one child number colliding on both checksum and size is a
// chance of 2⁻³² at worst, per changed file.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

type checksum struct{ c uint32 }

func (s *checksum) write(b []byte) { s.c = crc32.Update(s.c, castagnoli, b) }

func (s checksum) sum() uint32 { return s.c }

// hexSum is a checksum as file names and the manifest write it: 8 hex digits.
func hexSum(c uint32) string { return fmt.Sprintf("%08x", c) }

// out is the worker's file being written.
type out struct {
	c   *child
	f   *os.File
	cw  countWriter
	gz  bool
	sum checksum
}

func (p *pipeline) run() {
	defer close(p.done)
	defer close(p.syncq)
	var cur *out
	abandon := func() {
		if cur != nil {
			cur.f.Close()
			cur = nil
		}
	}
	defer abandon()
	for j := range p.jobs {
		if p.failure() != nil {
			abandon()
			if j.buf != nil {
				p.free <- j.buf[:0]
			}
			continue
		}
		var err error
		switch j.kind {
		case jobData:
			if cur == nil || cur.c != j.c {
				abandon()
				cur, err = p.open(j.c, j.gzip)
			}
			if err == nil {
				err = p.write(cur, j.buf)
			}
			p.free <- j.buf[:0]
		case jobEnd:
			if cur == nil || cur.c != j.c {
				abandon()
				cur, err = p.open(j.c, j.gzip)
			}
			if err == nil {
				err = p.end(cur)
				cur = nil
			}
		case jobCompress:
			err = p.compress(j.c)
		}
		if err != nil {
			p.fail(err)
		}
	}
}

func (p *pipeline) open(c *child, gz bool) (*out, error) {
	f, err := p.createTemp()
	if err != nil {
		return nil, err
	}
	o := &out{c: c, f: f, gz: gz}
	o.cw.w = f
	c.tmp = f.Name()
	c.gzip = gz
	if p.bw == nil {
		p.bw = bufio.NewWriterSize(&o.cw, fileBuffer)
	} else {
		p.bw.Reset(&o.cw)
	}
	if gz {
		p.resetGzip()
	}
	return o, nil
}

// resetGzip points the gzip writer, made once and reused, at p.bw. Its
// header carries no name and no time, so the same content always gives the
// same bytes.
func (p *pipeline) resetGzip() {
	if p.gz == nil {
		p.gz = gzip.NewWriter(p.bw)
	} else {
		p.gz.Reset(p.bw)
	}
}

func (p *pipeline) write(o *out, b []byte) error {
	o.sum.write(b)
	o.c.raw += int64(len(b))
	var err error
	if o.gz {
		_, err = p.gz.Write(b)
	} else {
		_, err = p.bw.Write(b)
	}
	if err != nil {
		return fmt.Errorf("publish: writing %s: %w", o.f.Name(), err)
	}
	return nil
}

// end completes o's file and hands it to the syncer.
func (p *pipeline) end(o *out) error {
	if o.gz {
		if err := p.gz.Close(); err != nil {
			o.f.Close()
			return fmt.Errorf("publish: writing %s: %w", o.f.Name(), err)
		}
	}
	if err := p.bw.Flush(); err != nil {
		o.f.Close()
		return fmt.Errorf("publish: writing %s: %w", o.f.Name(), err)
	}
	o.c.disk = o.cw.n
	o.c.sum = o.sum.sum()
	p.syncq <- o.f
	return nil
}

// compress gzips c's uncompressed temp file into a new temp file, which
// replaces it.
func (p *pipeline) compress(c *child) error {
	src, err := os.Open(c.tmp)
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	defer src.Close()
	f, err := p.createTemp()
	if err != nil {
		return err
	}
	o := &out{c: c, f: f, gz: true}
	o.cw.w = f
	p.bw.Reset(&o.cw)
	p.resetGzip()
	if _, err := io.Copy(p.gz, src); err != nil {
		f.Close()
		return fmt.Errorf("publish: compressing %s: %w", c.tmp, err)
	}
	if err := p.gz.Close(); err != nil {
		f.Close()
		return fmt.Errorf("publish: writing %s: %w", f.Name(), err)
	}
	if err := p.bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("publish: writing %s: %w", f.Name(), err)
	}
	// The plain temp file stays until the end, with the others (the
	// syncer may still hold it open, which some systems do not allow
	// removing).
	c.tmp, c.gzip, c.disk = f.Name(), true, o.cw.n
	p.syncq <- f
	return nil
}

func (p *pipeline) syncer() {
	defer close(p.syncDone)
	for f := range p.syncq {
		err := f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			p.fail(fmt.Errorf("publish: writing %s: %w", f.Name(), err))
		}
	}
}

// chunkWriter is the io.Writer the encoder's sitemap.Writer writes to: it
// fills pool buffers and queues them for the worker.
type chunkWriter struct {
	p   *pipeline
	c   *child
	gz  bool // the current child is to be gzipped
	buf []byte
	ctx context.Context
}

func (w *chunkWriter) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if w.buf == nil {
			buf, err := w.p.getBuf(w.ctx)
			if err != nil {
				return n - len(b), err
			}
			w.buf = buf
		}
		k := copy(w.buf[len(w.buf):cap(w.buf)], b)
		w.buf = w.buf[:len(w.buf)+k]
		b = b[k:]
		if len(w.buf) == cap(w.buf) {
			if err := w.flush(); err != nil {
				return n - len(b), err
			}
		}
	}
	return n, nil
}

// flush queues what is buffered.
func (w *chunkWriter) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	buf := w.buf
	w.buf = nil
	return w.p.send(w.ctx, job{kind: jobData, c: w.c, buf: buf, gzip: w.gz})
}

// end queues the rest of the current child and its end.
func (w *chunkWriter) end() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.p.send(w.ctx, job{kind: jobEnd, c: w.c, gzip: w.gz})
}

// discard drops what is buffered (a child that received no entry).
func (w *chunkWriter) discard() {
	if w.buf != nil {
		w.p.free <- w.buf[:0]
		w.buf = nil
	}
}
