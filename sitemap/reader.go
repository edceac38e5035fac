package sitemap

import (
	"io"
	"iter"
)

// A Position is a place in a document: 1-based line and column (in bytes),
// and the byte offset from the start of the decompressed document.
type Position struct {
	Line   int
	Col    int
	Offset int64
}

// A Reader reads the entries of one sitemap document of any format (urlset,
// sitemapindex, text, RSS, Atom; gzip-compressed or not), detected from the
// content. It streams: memory does not grow with the document.
//
// Set the exported fields before the first Read.
type Reader struct {
	// Name names the document in errors (a file name or URL).
	Name string
	// MaxBytes caps the decompressed size; past it Read fails with
	// ErrTooLarge. Default (0): MaxBytes plus a little slack.
	MaxBytes int64

	// TODO(reader helper): more options (Strict...), warnings hook, unexported state.
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader {
	panic("unimplemented")
}

// Read returns the next entry. For an index the entry's Loc and LastMod
// are the child sitemap's. At the end it returns io.EOF. On damage it
// returns a *SyntaxError; entries before the damage have been returned.
func (r *Reader) Read() (*URL, error) {
	panic("unimplemented")
}

// Format returns the document's format, known after the first Read.
func (r *Reader) Format() Format {
	panic("unimplemented")
}

// Pos returns the position of the start of the entry last returned by Read.
func (r *Reader) Pos() Position {
	panic("unimplemented")
}

// All returns the entries as an iterator; it stops after the first error.
func (r *Reader) All() iter.Seq2[URL, error] {
	panic("unimplemented")
}
