package sitemap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/sitemapkit/sitemapkit/internal/gunzip"
	"github.com/sitemapkit/sitemapkit/internal/zstdwin"
)

// DefaultMaxBytes is the Reader's cap on a document's decompressed size
// when Reader.MaxBytes is 0: the protocol's MaxBytes plus 64 KiB of slack,
// so that a checker can still read, and report as too large, a document
// that is just over the limit.
const DefaultMaxBytes = MaxBytes + 64<<10

// MaxZstdWindow is the largest zstd window a Reader decodes (8 MiB, RFC
// 9659's for HTTP, the zstd command's up to level 19): its decoder keeps
// the whole window. A stream that asks for more is ErrCompression, saying
// its window and the cap.
const MaxZstdWindow = zstdwin.MaxWindow

var (
	magicGzip = []byte{0x1f, 0x8b}
	magicZstd = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// sourceReader remembers the errors of the underlying reader, so that an
// error of the decompressor can be told from an I/O error it passes on.
type sourceReader struct {
	r   io.Reader
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		s.err = err
	}
	return n, err
}

// decoder reads decompressed bytes, returning ErrCompression-wrapped
// errors for damaged input and ErrTooLarge past the cap.
type decoder struct {
	src   *sourceReader
	dec   io.Reader // the decompressor, or the source itself
	limit int64
	n     int64
}

func (d *decoder) Read(p []byte) (int, error) {
	if d.n > d.limit {
		return 0, fmt.Errorf("%w: over %d bytes uncompressed", ErrTooLarge, d.limit)
	}
	// Read one byte past the limit to tell "at the limit" from "over it".
	if rest := d.limit + 1 - d.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := d.dec.Read(p)
	d.n += int64(n)
	if d.n > d.limit {
		n -= int(d.n - d.limit)
		return n, fmt.Errorf("%w: over %d bytes uncompressed", ErrTooLarge, d.limit)
	}
	if err != nil && err != io.EOF && err != d.src.err {
		err = fmt.Errorf("%w: %w", ErrCompression, err)
	}
	return n, err
}

// openDecoder sniffs src for gzip and zstd by their magic bytes and
// returns the decompressed stream and the compression's name.
func openDecoder(src io.Reader, limit int64) (*decoder, string, error) {
	sr := &sourceReader{r: src}
	// The magic bytes are peeked in a small buffer: a plain document is
	// then read in the scanner's own reads, and only a decompressor,
	// which reads its input a few bytes at a time, has a large one. A
	// buffer of 32 KiB for every document was most of what a small one
	// cost.
	br := bufio.NewReaderSize(sr, 512)
	d := &decoder{src: sr, limit: limit}
	head, err := br.Peek(4)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, "", err
	}
	compressed := func() *bufio.Reader { return bufio.NewReaderSize(br, 32<<10) }
	switch {
	case bytes.HasPrefix(head, magicGzip):
		z, err := gunzip.NewReader(compressed())
		if err != nil {
			if sr.err != nil {
				return nil, "gzip", sr.err
			}
			return nil, "gzip", fmt.Errorf("%w: gzip: %w", ErrCompression, err)
		}
		d.dec = z
		return d, "gzip", nil
	case bytes.HasPrefix(head, magicZstd):
		z, err := zstdwin.NewReader(compressed(), MaxZstdWindow)
		if err != nil {
			return nil, "zstd", fmt.Errorf("%w: zstd: %w", ErrCompression, err)
		}
		d.dec = z
		return d, "zstd", nil
	}
	d.dec = br // its only errors are the source's
	return d, "", nil
}
