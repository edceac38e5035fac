// Package zstdwin bounds the memory zstd decoding takes. A zstd decoder
// keeps its stream's whole window of history, which the stream's header
// sets (up to 3.75 TB by the format): MaxWindow caps it, wherever a stream
// comes from (a .zst file, a .zst body, Content-Encoding: zstd).
package zstdwin

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// MaxWindow is the largest window decoded: the 8 MB that RFC 9659 asks
// every decoder of Content-Encoding: zstd to support (and lets it refuse
// beyond), and what the zstd command uses up to level 19; only --long and
// --ultra ask for more. A decoder holds its window the whole stream
// through, and documents are decoded several at once.
const MaxWindow = 8 << 20

// HeaderMax is how many bytes of a stream Window needs, at most: the
// magic number, then what zstd.HeaderMaxSize counts (the frame header at
// its longest, 14 bytes, and a block header), which leaves the magic out.
// A frame with a dictionary ID and an 8-byte content size was not read
// whole at 17 bytes, so it was refused only once decoding met it
// (FuzzNewReader).
const HeaderMax = 4 + zstd.HeaderMaxSize

// ErrWindow is the error of a stream whose window is over MaxWindow.
var ErrWindow = errors.New("window too large")

// Window returns the window of the zstd frame that head begins, read from
// its header: the Window_Descriptor's, or for a single-segment frame its
// content size, which the decoder keeps instead. ok is false when head is
// not the start of a frame the decoder would take (it reports why). err
// wraps ErrWindow, naming the window and the cap, when it is over limit.
func Window(head []byte, limit int64) (window int64, ok bool, err error) {
	var h zstd.Header
	if h.Decode(head) != nil || h.Skippable {
		return 0, false, nil
	}
	window = int64(h.WindowSize)
	if h.SingleSegment {
		window = max(int64(h.FrameContentSize), zstd.MinWindowSize)
	}
	if window > limit {
		return window, true, windowError(window, limit, "")
	}
	return window, true, nil
}

func windowError(window, limit int64, where string) error {
	why := ""
	if limit == MaxWindow {
		why = " (RFC 9659's; zstd -19 and lower levels stay within it, --long and --ultra may not)"
	}
	return fmt.Errorf("%w: %s%s, over the %s cap%s", ErrWindow, Size(window), where, Size(limit), why)
}

// Size writes n bytes in the largest binary unit that keeps a digit
// before the point: "8 MiB", "44.0 MiB", "512 KiB".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// NewReader returns a decoder of the zstd stream br holds, which refuses a
// window over limit (ErrWindow, naming it and the cap): at once when the
// first frame asks for it, when the decoder meets it for a later one. The
// decoder is let go at the end of the stream, at its first error, or at
// Close: it keeps its window (zstd.Decoder.Close does not free it) while
// anything holds it. Other errors are the decoder's, or br's, as they are.
func NewReader(br *bufio.Reader, limit int64) (io.ReadCloser, error) {
	head, _ := br.Peek(HeaderMax)
	if _, _, err := Window(head, limit); err != nil {
		return nil, err
	}
	z := &reader{in: tail{r: br}, limit: limit}
	d, err := zstd.NewReader(&z.in,
		zstd.WithDecoderConcurrency(1), // no goroutines, no blocks decoded ahead
		zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(uint64(limit)))
	if err != nil {
		return nil, err
	}
	z.d = d
	return z, nil
}

type reader struct {
	d     *zstd.Decoder
	in    tail
	limit int64
	err   error // sticky, once d is let go
}

func (z *reader) Read(p []byte) (int, error) {
	if z.d == nil {
		return 0, z.err
	}
	n, err := z.d.Read(p)
	if err == nil {
		return n, nil
	}
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		// A later frame's header, or a damaged block: the decoder has
		// just read the header, when it is one.
		if i := bytes.LastIndex(z.in.last(), magic); i >= 0 {
			if w, ok, _ := Window(z.in.last()[i:], z.limit); ok && w > z.limit {
				err = windowError(w, z.limit, " in a later frame")
			}
		}
	}
	z.d.Close()
	z.d, z.err = nil, err
	return n, err
}

// Close lets the decoder go; a later Read returns io.ErrClosedPipe.
func (z *reader) Close() error {
	if z.d != nil {
		z.d.Close()
		z.d, z.err = nil, io.ErrClosedPipe
	}
	return nil
}

var magic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// tail reads r, keeping the last bytes read: the decoder reads a frame's
// header in small reads of its own, the last it makes before refusing it.
type tail struct {
	r   io.Reader
	buf [2 * HeaderMax]byte
	n   int // bytes of buf in use, at its end
}

func (t *tail) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n >= len(t.buf) {
		t.n = copy(t.buf[:], p[n-len(t.buf):n])
	} else {
		keep := min(t.n, len(t.buf)-n)
		copy(t.buf[len(t.buf)-keep-n:], t.buf[len(t.buf)-keep:])
		copy(t.buf[len(t.buf)-n:], p[:n])
		t.n = keep + n
	}
	return n, err
}

func (t *tail) last() []byte { return t.buf[len(t.buf)-t.n:] }
