// Package gunzip reads gzip streams as gzip(1) does: one member or several
// run together, and zero bytes after the last one taken for padding (tape
// blocks, and servers and tools that pad a file) rather than a damaged
// header. Any other byte after a member is gzip.ErrHeader, as before.
package gunzip

import (
	"bufio"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// MaxPadding is how many zero bytes may follow the last member: tape
// blocks are at most tens of KiB.
const MaxPadding = 1 << 20

// Reader decompresses a gzip stream of one or more members.
type Reader struct {
	br  *bufio.Reader
	z   *gzip.Reader
	err error
}

// NewReader reads the first member's header from r and returns a Reader of
// the stream's data; its errors are gzip.NewReader's.
func NewReader(r io.Reader) (*Reader, error) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	z, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	// Member by member, so that what follows one is looked at here.
	z.Multistream(false)
	return &Reader{br: br, z: z}, nil
}

// Read reads decompressed data. It returns gzip.ErrChecksum for a member
// whose trailer does not match, gzip.ErrHeader for bytes after a member
// that are neither another member nor zero bytes to the end.
func (g *Reader) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	for {
		n, err := g.z.Read(p)
		if err != io.EOF {
			g.err = err
			return n, err
		}
		if err := g.next(); err != nil {
			g.err = err
			return n, err
		}
		if n > 0 {
			return n, nil
		}
	}
}

// next starts the member that follows the one just ended, or returns
// io.EOF at the end of the stream, padding included.
func (g *Reader) next() error {
	head, err := g.br.Peek(2)
	switch {
	case len(head) == 0 && err == io.EOF:
		return io.EOF
	case len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b:
		if err := g.z.Reset(g.br); err != nil {
			return err
		}
		g.z.Multistream(false)
		return nil
	}
	// Padding is zero bytes to the end, read a buffer at a time, up to
	// MaxPadding: an endless stream of zeros must end too.
	for n := 0; ; {
		b, _ := g.br.Peek(g.br.Buffered()) // what is buffered: no error
		for _, c := range b {
			if c != 0 {
				return gzip.ErrHeader
			}
		}
		if n += len(b); n > MaxPadding {
			return fmt.Errorf("%w: more than %d bytes of zeros after the gzip data", gzip.ErrHeader, MaxPadding)
		}
		g.br.Discard(len(b))
		if _, err := g.br.Peek(1); err == io.EOF {
			return io.EOF
		} else if err != nil {
			return err
		}
	}
}
