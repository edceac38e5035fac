package sitemap

import (
	"errors"
	"io"
	"strconv"
)

// A Writer writes one sitemap document (a urlset, an index or a text
// sitemap) to an io.Writer, and knows the document's exact size at every
// moment, so that a caller can split a stream of URLs at the protocol's
// limits without ever going one byte over.
//
// Set the exported fields before the first Write. The Writer buffers;
// Close writes the closing tag and flushes, and its error must be checked.
//
// # What it writes
//
// An XML document starts with the declaration on the first line and the
// root element on the second; each entry then takes exactly one line, with
// no indentation, so a line number names an entry (entry n is on line
// n+2). A urlset's root always declares the sitemap namespace and the
// image, video, news and xhtml ones, whether or not an entry uses them: a
// streaming writer cannot go back to add a declaration, and unused
// declarations cost about 250 bytes once per file. Children are in the
// order the schemas demand (loc, lastmod, changefreq, priority, then
// images, videos, news and alternates; inside a video the schema's
// sequence). Every value is escaped: & < > " ' become entities, and tab,
// newline and carriage return become character references, so that no
// value can break the one-entry-per-line layout or be changed by an XML
// parser's whitespace normalisation.
//
// A text document is each URL's Loc followed by "\n", nothing else: the
// other fields have no place in the format and are dropped, unchecked;
// Loc is checked as in XML.
//
// # What it refuses
//
// An entry that breaks a rule [URL.Check] or [IndexEntry.Check] reports is
// refused with the first *Violation. The Writer is stricter than Check, and
// than the schemas, in one place: a lastmod must have at least a full date
// (the W3C forms YYYY and YYYY-MM fail the schemas). It also rewrites one
// form: a time without seconds (hh:mm, which W3C and Google accept but the
// schemas do not) is written with ":00" added, the same instant. A time
// without a time zone is refused, although the schemas accept it: Google
// reports it as an invalid date.
type Writer struct {
	// MaxURLs is the most entries the document may hold. Default (0 or
	// less): MaxURLs (50,000). Larger values make documents search engines
	// refuse.
	MaxURLs int
	// MaxBytes is the largest the complete document may be, declaration
	// and closing tag included: a document may be exactly MaxBytes long,
	// never one byte more. Default (0 or less): MaxBytes (52,428,800).
	// Larger values make documents search engines refuse.
	MaxBytes int64
	// MaxNews is the most entries carrying News the document may hold.
	// Default (0 or less): MaxNews (1,000).
	MaxNews int
	// LocsChecked says that the caller checked each entry's loc before
	// WriteURL (loc.Scope.Apply returns it absolute, escaped, in scope
	// and short enough): WriteURL does not parse it again, a tenth of a
	// large run's time. The other fields are checked as ever.
	LocsChecked bool

	w       io.Writer
	format  Format
	buf     []byte
	written int64 // bytes handed to w
	count   int
	news    int
	closing string
	closed  bool
	err     error      // from w: the document is broken
	first   *Violation // first violation of the entry being checked
	report  func(*Violation)
}

// flushAt is the size at which the buffer is handed to the io.Writer:
// large enough to amortise the call, small enough to stay in cache.
const flushAt = 64 << 10

const xmlDecl = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

const urlsetOpen = `<urlset xmlns="` + NamespaceSitemap +
	`" xmlns:image="` + NamespaceImage +
	`" xmlns:video="` + NamespaceVideo +
	`" xmlns:news="` + NamespaceNews +
	`" xmlns:xhtml="` + NamespaceXHTML + `">` + "\n"

const indexOpen = `<sitemapindex xmlns="` + NamespaceSitemap + `">` + "\n"

var (
	errWrongFormat = errors.New("sitemap: entry of the wrong kind for this document (WriteURL on an index, or WriteIndex on a urlset or text)")
	errClosed      = errors.New("sitemap: write after Close")
)

// NewWriter returns a Writer of a document of format f (FormatURLSet,
// FormatIndex or FormatText) to w. Any other format gives a Writer whose
// every write fails.
func NewWriter(w io.Writer, f Format) *Writer {
	wr := &Writer{w: w, format: f, buf: make([]byte, 0, flushAt+4096)}
	wr.report = wr.keepFirst
	switch f {
	case FormatURLSet:
		wr.buf = append(wr.buf, xmlDecl+urlsetOpen...)
		wr.closing = "</urlset>\n"
	case FormatIndex:
		wr.buf = append(wr.buf, xmlDecl+indexOpen...)
		wr.closing = "</sitemapindex>\n"
	case FormatText:
	default:
		wr.err = errors.New("sitemap: NewWriter: cannot write format " + f.String())
	}
	return wr
}

func (w *Writer) keepFirst(v *Violation) {
	if w.first == nil {
		w.first = v
	}
}

// takeViolation returns the first violation reported since the last call.
func (w *Writer) takeViolation() error {
	v := w.first
	if v == nil {
		return nil
	}
	w.first = nil
	return v
}

// WriteURL writes one URL to a urlset or text document.
//
// It returns a *Violation, and writes nothing, when u breaks a protocol
// rule; ErrFull, and writes nothing, when u would take the document past
// MaxURLs, MaxBytes or MaxNews; any other error comes from the underlying
// io.Writer, after which the document is broken and every call fails.
//
// An entry so large that even an empty document cannot hold it within
// MaxBytes is refused with a *Violation (RuleFileTooLarge), not ErrFull,
// so that a caller starting a new document at each ErrFull cannot loop.
func (w *Writer) WriteURL(u *URL) error {
	if err := w.usable(w.format == FormatURLSet || w.format == FormatText); err != nil {
		return err
	}
	switch {
	case w.LocsChecked && len(u.Loc) >= minLocLen:
		if w.format != FormatText {
			u.checkFields(w.report, true)
		}
	case w.format == FormatText:
		checkSitemapLoc(w.report, "loc", u.Loc)
	default:
		u.check(w.report, true)
	}
	if err := w.takeViolation(); err != nil {
		return err
	}
	if w.count >= w.maxURLs() {
		return ErrFull
	}
	news := u.News != nil && w.format == FormatURLSet
	if news && w.news >= w.maxNews() {
		return ErrFull
	}
	mark := len(w.buf)
	if w.format == FormatText {
		w.buf = append(w.buf, u.Loc...)
		w.buf = append(w.buf, '\n')
	} else {
		w.buf = appendURL(w.buf, u)
	}
	if err := w.commit(mark); err != nil {
		return err
	}
	if news {
		w.news++
	}
	return nil
}

// WriteIndex writes one <sitemap> to an index document, with the same
// return contract as WriteURL.
func (w *Writer) WriteIndex(e *IndexEntry) error {
	if err := w.usable(w.format == FormatIndex); err != nil {
		return err
	}
	e.check(w.report, true)
	if err := w.takeViolation(); err != nil {
		return err
	}
	if w.count >= w.maxURLs() {
		return ErrFull
	}
	mark := len(w.buf)
	b := append(w.buf, "<sitemap><loc>"...)
	b = appendLoc(b, e.Loc)
	b = append(b, "</loc>"...)
	if e.LastMod != "" {
		b = append(b, "<lastmod>"...)
		b = appendDateValue(b, e.LastMod)
		b = append(b, "</lastmod>"...)
	}
	w.buf = append(b, "</sitemap>\n"...)
	return w.commit(mark)
}

func (w *Writer) usable(rightKind bool) error {
	switch {
	case w.err != nil:
		return w.err
	case w.closed:
		return errClosed
	case !rightKind:
		return errWrongFormat
	}
	return nil
}

// commit keeps the entry appended to the buffer since mark if the document
// still fits in MaxBytes, and takes it back otherwise.
func (w *Writer) commit(mark int) error {
	if size := w.written + int64(len(w.buf)+len(w.closing)); size > w.maxBytes() {
		entry := len(w.buf) - mark
		w.buf = w.buf[:mark]
		if w.count == 0 {
			return &Violation{Rule: RuleFileTooLarge, Field: "url",
				Msg: "the entry alone is " + strconv.Itoa(entry) + " bytes: no document of at most " +
					strconv.FormatInt(w.maxBytes(), 10) + " bytes can hold it"}
		}
		return ErrFull
	}
	w.count++
	if len(w.buf) >= flushAt {
		return w.flush()
	}
	return nil
}

func (w *Writer) flush() error {
	n, err := w.w.Write(w.buf)
	w.written += int64(n)
	if err == nil && n < len(w.buf) {
		err = io.ErrShortWrite
	}
	w.buf = w.buf[:0]
	if err != nil {
		w.err = err
	}
	return err
}

func (w *Writer) maxURLs() int {
	if w.MaxURLs <= 0 {
		return MaxURLs
	}
	return w.MaxURLs
}

func (w *Writer) maxBytes() int64 {
	if w.MaxBytes <= 0 {
		return MaxBytes
	}
	return w.MaxBytes
}

func (w *Writer) maxNews() int {
	if w.MaxNews <= 0 {
		return MaxNews
	}
	return w.MaxNews
}

// Len returns the exact size in bytes the document would have if it were
// closed now: what was written, plus what is buffered, plus the closing tag.
// After Close it is the size of the document.
func (w *Writer) Len() int64 {
	n := w.written + int64(len(w.buf))
	if !w.closed {
		n += int64(len(w.closing))
	}
	return n
}

// Count returns the number of entries written.
func (w *Writer) Count() int {
	return w.count
}

// Close writes the closing tag (and the opening one, for a document with no
// entry) and flushes. It does not close the underlying io.Writer. Calling
// Close again returns the first call's error.
//
// A urlset or index with no entry is well-formed but fails the schemas,
// which require at least one entry; Google reports it as an empty sitemap.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	w.buf = append(w.buf, w.closing...)
	return w.flush()
}
