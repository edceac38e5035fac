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
}

func newText(lr *lineReader, name string) *textSource { return &textSource{lr: lr, name: name} }

// Read returns the next URL, with the contract of Source.Read.
func (t *textSource) Read() (sitemap.URL, error) {
	if t.err != nil {
		return sitemap.URL{}, t.err
	}
	for {
		line, ok := t.lr.next()
		if !ok {
			t.err = endError(t.lr, t.name)
			return sitemap.URL{}, t.err
		}
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		t.line = t.lr.line
		if err := checkUTF8(t.name, t.line, line); err != nil {
			return sitemap.URL{}, err
		}
		return sitemap.URL{Loc: line}, nil
	}
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
