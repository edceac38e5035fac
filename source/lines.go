package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/sitemapkit/sitemapkit/internal/gunzip"
)

const (
	// bufSize is the size of each read: large, so that a file is read in
	// few system calls.
	bufSize = 1 << 20
	// windowSize is how many bytes of complete lines become one string.
	// Fields are slices of that string: one allocation serves dozens of
	// URLs, and a string a consumer keeps (build keeps each file's latest
	// lastmod) pins at most this much. 32 KiB windows took peak RSS at 10M
	// URLs from 22 to 31 MiB for no measurable speed.
	windowSize = 4 << 10
)

// lineReader splits a stream into lines, as strings sliced from windows of
// complete lines, with gzip sniffing and BOM removal at the start.
type lineReader struct {
	src     io.Reader
	buf     []byte
	r, w    int
	err     error // sticky error of src (io.EOF at its end)
	win     string
	wpos    int
	line    int // lines returned so far
	started bool
	crOnly  bool                // lines end in a lone "\r" (see start)
	dec     func(string) string // converts a line to UTF-8; nil: it is UTF-8
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{src: r}
}

// start reads the first bytes, switches to gunzip on gzip's magic bytes,
// and skips a UTF-8 byte order mark.
func (l *lineReader) start() {
	l.started = true
	l.buf = make([]byte, bufSize)
	l.readAtLeast(3)
	if l.w >= 2 && l.buf[0] == 0x1f && l.buf[1] == 0x8b {
		head := bytes.Clone(l.buf[:l.w])
		rest := l.src
		if l.err != nil {
			rest = eofReader{}
			if l.err != io.EOF {
				rest = errReader{l.err}
			}
		}
		l.r, l.w, l.err = 0, 0, nil
		zr, err := gunzip.NewReader(io.MultiReader(bytes.NewReader(head), rest))
		if err != nil {
			l.err = gzipError(err)
			return
		}
		l.src = gzipSource{zr}
		l.readAtLeast(3)
	}
	if bytes.HasPrefix(l.buf[l.r:l.w], []byte("\uFEFF")) {
		l.r += 3
		l.dec = nil // the mark says UTF-8, whatever the input was said to be
	}
	// Lines that end in CR alone (classic Mac OS, some exports) would be
	// one line, whose URLs ran into each other: a first window with a CR
	// and no LF makes every CR a line end.
	l.readAtLeast(windowSize)
	// The first window decides, however the reads cut the input.
	if head := l.buf[l.r:min(l.w, l.r+windowSize)]; bytes.IndexByte(head, '\n') < 0 && bytes.IndexByte(head, '\r') >= 0 {
		l.crOnly = true
		crToLF(l.buf[l.r:l.w])
	}
}

// crToLF turns each "\r" of b into "\n".
func crToLF(b []byte) {
	for i := bytes.IndexByte(b, '\r'); i >= 0; i = bytes.IndexByte(b, '\r') {
		b[i] = '\n'
		b = b[i+1:]
	}
}

// gzipSource reports a damaged gzip stream as such.
type gzipSource struct{ zr *gunzip.Reader }

func (g gzipSource) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF {
		err = gzipError(err)
	}
	return n, err
}

func gzipError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
		return fmt.Errorf("%w: %w", ErrGzip, err)
	}
	return err
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func (l *lineReader) readAtLeast(n int) {
	for l.w-l.r < n && l.err == nil {
		l.read()
	}
}

// read reads once more into the buffer, compacting or growing it first.
func (l *lineReader) read() {
	if l.r > 0 && l.w == len(l.buf) || l.r > len(l.buf)/2 {
		l.w = copy(l.buf, l.buf[l.r:l.w])
		l.r = 0
	}
	if l.w == len(l.buf) {
		// At most a line of MaxLineBytes and its "\n": doubling past it
		// took a line of up to twice that.
		if len(l.buf) > MaxLineBytes {
			l.err = ErrLineTooLong
			return
		}
		nb := make([]byte, min(2*len(l.buf), MaxLineBytes+1))
		l.w = copy(nb, l.buf[l.r:l.w])
		l.r = 0
		l.buf = nb
	}
	w0 := l.w
	if l.crOnly {
		defer func() { crToLF(l.buf[w0:l.w]) }()
	}
	n, err := l.src.Read(l.buf[l.w:])
	l.w += n
	if err != nil {
		l.err = err
	} else if n == 0 {
		// A reader that returns 0, nil repeatedly is broken; give it a few tries.
		for i := 0; i < 100 && n == 0 && err == nil; i++ {
			n, err = l.src.Read(l.buf[l.w:])
			l.w += n
		}
		if n == 0 && err == nil {
			err = io.ErrNoProgress
		}
		l.err = err
	}
}

// fill makes the next window of complete lines (the last line of the input
// may lack its newline). It returns false when there is nothing left; l.err
// then says why (io.EOF at a clean end).
func (l *lineReader) fill() bool {
	if !l.started {
		l.start()
	}
	for {
		avail := l.buf[l.r:l.w]
		end := -1
		if len(avail) > 0 {
			lim := avail
			if len(lim) > windowSize {
				lim = lim[:windowSize]
			}
			if j := bytes.LastIndexByte(lim, '\n'); j >= 0 {
				end = j + 1
			} else if len(avail) > windowSize {
				if j := bytes.IndexByte(avail[windowSize:], '\n'); j >= 0 {
					end = windowSize + j + 1
				}
			}
			if end < 0 && (l.err == ErrLineTooLong || len(avail) > MaxLineBytes) {
				l.err = ErrLineTooLong
				l.r = l.w
				return false
			}
			if end < 0 && l.err != nil {
				end = len(avail)
			}
		}
		if end >= 0 {
			l.win = string(avail[:end])
			l.wpos = 0
			l.r += end
			return true
		}
		if l.err != nil {
			return false
		}
		l.read()
	}
}

// next returns the next line without its "\n" or "\r\n" (or a final "\r"),
// and false at the end of the input.
func (l *lineReader) next() (string, bool) {
	if l.wpos >= len(l.win) {
		l.win, l.wpos = "", 0
		if !l.fill() {
			return "", false
		}
	}
	s := l.win[l.wpos:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
		l.wpos += i + 1
	} else {
		l.wpos = len(l.win)
	}
	l.line++
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	if l.dec != nil {
		s = l.dec(s)
	}
	return s, true
}

// peekLine returns the first non-blank line without consuming it. The
// blank lines before it are consumed (and counted): every format skips
// them, and a window of nothing but blank lines told nothing (a CSV after
// 4 KiB of blank lines was taken for a URL list).
func (l *lineReader) peekLine() string {
	for {
		if l.wpos >= len(l.win) && !l.fill() {
			return ""
		}
		s := l.win[l.wpos:]
		for s != "" {
			line := s
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				line, s = s[:i], s[i+1:]
			} else {
				s = ""
			}
			if strings.TrimSpace(line) != "" {
				return line
			}
		}
		for l.wpos < len(l.win) {
			l.next()
		}
	}
}

// end returns the error that ended the input, or nil at a clean end.
func (l *lineReader) end() error {
	if l.err == io.EOF {
		return nil
	}
	return l.err
}
