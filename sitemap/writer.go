package sitemap

import "io"

// A Writer writes one sitemap document (a urlset, an index or a text
// sitemap) to an io.Writer, and knows the document's exact size at every
// moment, so that a caller can split a stream of URLs at the protocol's
// limits without ever going one byte over.
//
// Set the exported fields before the first Write. The Writer buffers;
// Close writes the closing tag and flushes, and its error must be checked.
type Writer struct {
	// MaxURLs is the most entries the document may hold. Default (0): MaxURLs (50,000).
	MaxURLs int
	// MaxBytes is the largest the complete document may be, closing tag
	// included. Default (0): MaxBytes (52,428,800).
	MaxBytes int64
	// MaxNews is the most entries carrying News the document may hold.
	// Default (0): MaxNews (1,000).
	MaxNews int

	// TODO(writer helper): unexported state.
}

// NewWriter returns a Writer of a document of format f (FormatURLSet,
// FormatIndex or FormatText) to w.
func NewWriter(w io.Writer, f Format) *Writer {
	panic("unimplemented")
}

// WriteURL writes one URL to a urlset or text document.
//
// It returns a *Violation, and writes nothing, when u breaks a protocol
// rule; ErrFull, and writes nothing, when u would take the document past
// MaxURLs, MaxBytes or MaxNews; any other error comes from the underlying
// io.Writer.
func (w *Writer) WriteURL(u *URL) error {
	panic("unimplemented")
}

// WriteIndex writes one <sitemap> to an index document, with the same
// return contract as WriteURL.
func (w *Writer) WriteIndex(e *IndexEntry) error {
	panic("unimplemented")
}

// Len returns the exact size in bytes the document would have if it were
// closed now: what was written, plus what is buffered, plus the closing tag.
func (w *Writer) Len() int64 {
	panic("unimplemented")
}

// Count returns the number of entries written.
func (w *Writer) Count() int {
	panic("unimplemented")
}

// Close writes the closing tag (and the opening one, for a document with no
// entry) and flushes. It does not close the underlying io.Writer.
func (w *Writer) Close() error {
	panic("unimplemented")
}
