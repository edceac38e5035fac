package source

import (
	"io"
	"iter"
	"strings"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// textSource reads a URL list: one URL per line, blank lines and '#'
// comments skipped, spaces around each URL trimmed.
type textSource struct {
	lr   *lineReader
	name string
	line int
	err  error

	// A CR alone ends a line as LF does: the rest of a line read after
	// one, and how many such lines were met (the line reader counts LFs;
	// a file whose lines all end in CR alone it splits itself).
	rest    string
	hasRest bool
	extra   int
}

func newText(lr *lineReader, name string) *textSource { return &textSource{lr: lr, name: name} }

// Read returns the next URL, with the contract of Source.Read.
func (t *textSource) Read() (sitemap.URL, error) {
	if t.err != nil {
		return sitemap.URL{}, t.err
	}
	for {
		line, n, ok := t.nextLine()
		if !ok {
			t.err = endError(t.lr, t.name)
			if pe, ok := t.err.(*ParseError); ok {
				pe.Line += t.extra // the lines a CR alone ended
			}
			return sitemap.URL{}, t.err
		}
		raw := line
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		t.line = n
		if err := checkUTF8(t.name, t.line, line); err != nil {
			// Columns of the line as written, spaces before the URL
			// included.
			if pe, ok := err.(*ParseError); ok {
				pe.Column += strings.Index(raw, line)
			}
			return sitemap.URL{}, err
		}
		return sitemap.URL{Loc: line}, nil
	}
}

// nextLine returns the next line and its number. A CR alone in a line
// read ends a line too: in a file of LF lines with one that ends in CR
// alone, two URLs ran into one, published as one with %0D in it.
func (t *textSource) nextLine() (string, int, bool) {
	if !t.hasRest {
		line, ok := t.lr.next()
		if !ok {
			return "", 0, false
		}
		t.rest, t.hasRest = line, true
	}
	line, n := t.rest, t.lr.line+t.extra
	if i := strings.IndexByte(line, '\r'); i >= 0 {
		line, t.rest = line[:i], line[i+1:]
		t.extra++
	} else {
		t.hasRest = false
	}
	return line, n, true
}

// All returns every URL; see Source.All.
func (t *textSource) All() iter.Seq2[sitemap.URL, error] { return all(t) }

// Name returns the input's name.
func (t *textSource) Name() string { return t.name }

// Line returns the line of the URL Read last returned.
func (t *textSource) Line() int { return t.line }

// Err returns the error that ended the stream, or nil.
func (t *textSource) Err() error {
	if t.err == io.EOF {
		return nil
	}
	return t.err
}

// endError is the error a reader returns once its lines are over: io.EOF
// at a clean end, else the read error with the input's name and line.
func endError(lr *lineReader, name string) error {
	err := lr.end()
	switch {
	case err == nil:
		return io.EOF
	case err == ErrLineTooLong:
		return &ParseError{File: name, Line: lr.line + 1, Err: ErrLineTooLong}
	default:
		return &ParseError{File: name, Line: lr.line + 1, Err: err}
	}
}
