package sitemap

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// The scanner is a purpose-built tokenizer for the small XML grammar of
// sitemaps and feeds. It works over one large reused buffer: it finds '<'
// with bytes.IndexByte, matches element names in place and copies only the
// values the Reader keeps. Lines are counted lazily, over whole regions of
// the buffer, when a position is asked for or the buffer is compacted.
//
// Every construct but character data is bounded by the buffer: a tag, a
// run of text between two pieces of markup, or a line of a text sitemap
// longer than scanBufSize is an error. Comments, CDATA sections and
// skipped elements stream, whatever their size.
const (
	scanBufSize = 256 << 10 // the largest token, and the buffer's largest size
	scanBufInit = 4 << 10   // the buffer's first size (see more)
	minFill     = 4 << 10   // read at least this much before rescanning a token
	maxDepth    = 256       // element nesting
	maxValue    = 1 << 20   // the longest value kept (decoded)
	maxBindings = 1024      // namespace declarations in scope
	maxNSBytes  = 64 << 10  // their prefixes and URIs, in bytes
	maxName     = 1 << 10   // an element's name, in bytes
	maxWarned   = 1024      // keys of the notices given once a document (see warnOnce)
)

var (
	errTokenTooLong = errors.New("token too long (over 256 KiB)")
	errValueTooLong = errors.New("value too long (over 1 MiB)")
	errTooDeep      = errors.New("elements nested too deeply")
	errBindings     = errors.New("too many namespace declarations (over 1,024, or 64 KiB, in scope)")
	errNameTooLong  = errors.New("element name too long (over 1 KiB)")
)

// nsID names the namespaces the Reader knows; nsOther is any other.
type nsID uint8

const (
	nsNone nsID = iota // no namespace
	nsOther
	nsSitemap
	nsImage
	nsVideo
	nsNews
	nsXHTML
	nsAtom
	nsAtom03
	nsRSS1
	nsRDF
	nsDC
)

func nsOf(uri string) nsID {
	switch uri {
	case "":
		return nsNone
	case NamespaceSitemap:
		return nsSitemap
	case NamespaceImage:
		return nsImage
	case NamespaceVideo:
		return nsVideo
	case NamespaceNews:
		return nsNews
	case NamespaceXHTML:
		return nsXHTML
	case "http://www.w3.org/2005/Atom":
		return nsAtom
	case "http://purl.org/atom/ns#":
		return nsAtom03
	case "http://purl.org/rss/1.0/":
		return nsRSS1
	case "http://www.w3.org/1999/02/22-rdf-syntax-ns#":
		return nsRDF
	case "http://purl.org/dc/elements/1.1/":
		return nsDC
	}
	return nsOther
}

// conventionalNS is what an undeclared prefix most likely meant: sitemaps
// in the wild often use image: or video: without declaring them.
var conventionalNS = map[string]string{
	"image": NamespaceImage,
	"video": NamespaceVideo,
	"news":  NamespaceNews,
	"xhtml": NamespaceXHTML,
	"dc":    "http://purl.org/dc/elements/1.1/",
	"atom":  "http://www.w3.org/2005/Atom",
	"rdf":   "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
}

type binding struct {
	prefix string
	uri    string
	id     nsID
	held   int // bytes of the prefixes and URIs of this and the bindings below it
}

// elem is an open element.
type elem struct {
	qname []byte // owned, reused
	local int    // index of the local name in qname
	id    nsID
	uri   string
	nbind int // len(bindings) before the element's declarations
	gen   int // scanner.bindGen when id and uri were resolved
}

type attr struct {
	name, val [2]int // spans in scanner.attrBuf
}

// tagInfo describes the tag next returned.
type tagInfo struct {
	end   bool  // an end tag
	empty bool  // <name/>
	off   int64 // offset of its '<'
	qname []byte
	local []byte
	id    nsID
	uri   string
}

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokStart
	tokEnd
)

type scanner struct {
	name string // for errors
	src  io.Reader
	buf  []byte
	r, w int   // buf[r:w] is unread
	base int64 // offset of buf[0] in the document
	eof  bool
	rerr error // the error that ended the input, other than io.EOF

	// Line counting: everything before lnAt is counted, as XML counts
	// lines: a line ends in LF, CR LF or a CR alone (classic Mac OS).
	// prevCR: the byte before lnAt is a CR, so an LF at lnAt ends no line.
	// sawCR: a CR was read, so lines are not counted by their LFs alone.
	lnAt      int64
	line      int
	lineStart int64
	prevCR    bool
	sawCR     bool
	// The same at base, for counting back to an offset on its line.
	baseLineStart int64
	baseCR        bool

	// Marks: offsets of the current entry and its fields, ascending, and
	// the positions resolved so far.
	marks []int64
	pos   []Position

	stack    []elem
	bindings []binding
	bindGen  int // how many declarations were ever pushed: bindings[:n] is as it was while this and n are
	tag      tagInfo
	attrs    []attr
	attrBuf  []byte
	attrSet  map[string]bool // the names of a tag of many attributes (see dupAttr)
	attrTag  int64           // the offset of the tag attrSet is of; -1: none
	declAt   int64           // the offset of the XML declaration at the start; -1: none
	quiet    int             // > 0 while skipping an element: its text is not noticed
	warned   map[string]bool

	notice  func(off int64, rule, msg string)
	discard func() // called before text leaves the buffer (Reader.OnDiscard)
}

func (s *scanner) init(src io.Reader, name string) {
	s.name = name
	s.src = src
	s.buf = make([]byte, scanBufInit)
	s.line = 1
	s.prevCR, s.sawCR = false, false
	s.attrTag, s.declAt = -1, -1
}

// more compacts the buffer and reads more input. It reports whether new
// bytes arrived; false means the end of input, an input error (s.rerr) or
// a token that fills the whole buffer (s.rerr = errTokenTooLong).
func (s *scanner) more() bool {
	if s.eof || s.rerr != nil {
		return false
	}
	if s.r > 0 {
		if s.discard != nil {
			s.discard()
		}
		s.resolveMarks()
		s.advance(s.base + int64(s.r))
		n := copy(s.buf, s.buf[s.r:s.w])
		s.base += int64(s.r)
		s.r, s.w = 0, n
		s.baseLineStart, s.baseCR = s.lineStart, s.prevCR
	}
	if s.w == len(s.buf) { // only at scanBufSize: a buffer that fills grows below
		s.rerr = errTokenTooLong
		return false
	}
	got, w0 := 0, s.w
	defer func() {
		// Once a fill, not once a position: most documents have no CR.
		s.sawCR = s.sawCR || bytes.IndexByte(s.buf[w0:s.w], '\r') >= 0
	}()
	for empty := 0; got < minFill && s.w < len(s.buf); {
		n, err := s.src.Read(s.buf[s.w:])
		s.w += n
		got += n
		if err == io.EOF {
			s.eof = true
			break
		}
		if err != nil {
			s.rerr = err
			break
		}
		if n == 0 {
			if empty++; empty > 100 {
				s.rerr = io.ErrNoProgress
				break
			}
		}
	}
	if s.w == len(s.buf) && len(s.buf) < scanBufSize {
		// The input is larger than the buffer: the next reads are
		// larger. A small document (most of an index's children) never
		// pays for the whole buffer: made at once, it was 256 KiB of a
		// walk's allocation for each document of a few hundred bytes.
		s.grow()
	}
	return got > 0
}

// grow doubles the buffer, up to scanBufSize.
func (s *scanner) grow() {
	b := make([]byte, min(2*len(s.buf), scanBufSize))
	copy(b, s.buf[:s.w])
	s.buf = b
}

// ensure reports whether n bytes are available at s.r.
func (s *scanner) ensure(n int) bool {
	for s.w-s.r < n {
		if !s.more() {
			return false
		}
	}
	return true
}

// readErr is the error that ended the input, placed: a document error
// (too large, compression, token too long) as a *SyntaxError at the end of
// what was read, an I/O error of the source as it is.
func (s *scanner) readErr() error {
	switch {
	case s.rerr == errTokenTooLong:
		return s.syntaxErr(s.base+int64(s.r), errTokenTooLong)
	case errors.Is(s.rerr, ErrTooLarge), errors.Is(s.rerr, ErrCompression):
		return s.syntaxErr(s.base+int64(s.w), s.rerr)
	}
	return s.rerr
}

// eofErr is the error for input that ended inside a construct.
func (s *scanner) eofErr() error {
	if s.rerr != nil {
		return s.readErr()
	}
	return s.syntaxErr(s.base+int64(s.w), io.ErrUnexpectedEOF)
}

// advance counts lines up to off (base <= off <= end of data) and returns
// the position of off.
func (s *scanner) advance(off int64) Position {
	if off < s.lnAt && off >= s.base {
		// Back: a notice inside a tag after its mark, or an offset kept
		// for later (Reader.PosAt).
		i := int(off - s.base)
		prev := s.baseCR
		if i > 0 {
			prev = s.buf[i-1] == '\r'
		}
		if n := s.countLines(s.buf[i:s.lnAt-s.base], prev); n > 0 {
			s.line -= n
			s.lineStart = s.baseLineStart
			if j := s.lastLineEnd(s.buf[:i]); j >= 0 {
				s.lineStart = s.base + int64(j) + 1
			}
		}
		if prev {
			// Just after a CR, as counting forward has it: the LF of a
			// CR LF, where no line end is counted back, starts the line.
			s.lineStart = off
		}
		s.lnAt, s.prevCR = off, prev
	}
	if off > s.lnAt {
		seg := s.buf[s.lnAt-s.base : off-s.base]
		if n := s.countLines(seg, s.prevCR); n > 0 {
			s.line += n
		}
		// An LF after a CR ends no line, but the line starts after it.
		if j := s.lastLineEnd(seg); j >= 0 {
			s.lineStart = s.lnAt + int64(j) + 1
		}
		s.lnAt, s.prevCR = off, seg[len(seg)-1] == '\r'
	}
	return Position{Line: s.line, Col: int(off-s.lineStart) + 1, Offset: off}
}

// countLines counts the line ends in seg, as XML reads them: LF, CR LF,
// and a CR alone. prevCR says the byte before seg is a CR, whose line end
// an LF at the start of seg completes.
func (s *scanner) countLines(seg []byte, prevCR bool) int {
	n := bytes.Count(seg, lf)
	if !s.sawCR {
		return n
	}
	n += bytes.Count(seg, cr) - bytes.Count(seg, crlf)
	if prevCR && len(seg) > 0 && seg[0] == '\n' {
		n--
	}
	return n
}

// lastLineEnd returns the index of the last CR or LF of b, or -1.
func (s *scanner) lastLineEnd(b []byte) int {
	i := bytes.LastIndexByte(b, '\n')
	if !s.sawCR {
		return i
	}
	if j := bytes.LastIndexByte(b[i+1:], '\r'); j >= 0 {
		return i + 1 + j
	}
	return i
}

var (
	lf   = []byte{'\n'}
	cr   = []byte{'\r'}
	crlf = []byte("\r\n")
)

// mark records off (not before any earlier mark) for later resolution and
// returns its index.
func (s *scanner) mark(off int64) int {
	s.marks = append(s.marks, off)
	return len(s.marks) - 1
}

func (s *scanner) resetMarks() {
	s.marks = s.marks[:0]
	s.pos = s.pos[:0]
}

func (s *scanner) resolveMarks() { s.resolveTo(len(s.marks)) }

// resolveTo resolves the marks before n.
func (s *scanner) resolveTo(n int) {
	for len(s.pos) < n {
		o := s.marks[len(s.pos)]
		if o < s.base { // cannot happen: marks are resolved before they leave the buffer
			s.pos = append(s.pos, Position{Offset: o})
			continue
		}
		s.pos = append(s.pos, s.advance(o))
	}
}

// markPos returns the position of mark i. The marks after it are left:
// their text is counted with the next entry's, in one pass, unless asked.
func (s *scanner) markPos(i int) Position {
	s.resolveTo(i + 1)
	return s.pos[i]
}

// position returns the position of off: a mark of the current entry, or
// any offset of the text in the buffer (Line 0 for another).
func (s *scanner) position(off int64) Position {
	s.resolveMarks()
	if off < s.base || off > s.base+int64(s.w) {
		for i, o := range s.marks {
			if o == off {
				return s.pos[i]
			}
		}
		return Position{Offset: off}
	}
	return s.advance(off)
}

func (s *scanner) syntaxErr(off int64, err error) *SyntaxError {
	p := s.position(off)
	return &SyntaxError{File: s.name, Line: p.Line, Col: p.Col, Offset: off, Err: err}
}

func (s *scanner) errorf(off int64, format string, args ...any) *SyntaxError {
	return s.syntaxErr(off, fmt.Errorf(format, args...))
}

func (s *scanner) warn(off int64, rule, msg string) {
	if s.notice != nil {
		s.notice(off, rule, msg)
	}
}

// warnOnce notices msg once per document for key. The keys remembered
// are bounded (maxWarned): past them a new key is not noticed, for a
// document of a million names given twice or prefixes undeclared, each
// distinct, held them all (500 MB for 50 MB); it has been told of the
// first 1,024.
func (s *scanner) warnOnce(key string, off int64, rule, msg string) {
	if s.warned == nil {
		s.warned = map[string]bool{}
	}
	if !s.warned[key] && len(s.warned) < maxWarned {
		s.warned[key] = true
		s.warn(off, rule, msg)
	}
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

func isNameStart(c byte) bool { return nameBytes[c]&1 != 0 }

func isNameByte(c byte) bool { return nameBytes[c] != 0 }

// nameBytes classes the bytes of XML names: 1 a name's first byte (and
// any other), 2 a byte of a name but not its first. Non-ASCII bytes are
// taken as name bytes, whatever character they are part of.
var nameBytes = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == ':', c >= 0x80:
			t[c] = 1
		case c >= '0' && c <= '9', c == '-', c == '.':
			t[c] = 2
		}
	}
	return t
}()

// next skips character data, comments and processing instructions and
// returns the next start or end tag (described by s.tag), or tokEOF at the
// end of input. Start tags are pushed on the element stack (unless empty),
// end tags popped; an end tag that does not match is an error.
func (s *scanner) next() (tokKind, error) {
	for {
		for s.r < s.w && isSpaceByte(s.buf[s.r]) {
			s.r++
		}
		if s.r == s.w {
			if !s.more() {
				if s.rerr != nil {
					return tokEOF, s.readErr()
				}
				return tokEOF, nil
			}
			continue
		}
		if s.buf[s.r] != '<' {
			if err := s.skipText(); err != nil {
				return tokEOF, err
			}
			continue
		}
		if !s.ensure(2) {
			return tokEOF, s.eofErr()
		}
		switch s.buf[s.r+1] {
		case '!':
			off := s.base + int64(s.r)
			cdata, err := s.skipBang(nil, false)
			if err != nil {
				return tokEOF, err
			}
			if cdata && s.quiet == 0 && len(s.stack) > 0 {
				s.warn(off, RuleParseError, fmt.Sprintf("text inside <%s>, where only elements are allowed", s.stack[len(s.stack)-1].qname))
			}
		case '?':
			s.misplacedDecl()
			if err := s.skipUntil(2, "?>"); err != nil {
				return tokEOF, err
			}
		default:
			return s.scanTag()
		}
	}
}

// misplacedDecl notices an XML declaration at s.r, a processing
// instruction whose target is xml, anywhere but the document's start
// (declAt): not well-formed XML, which strict parsers refuse (one after a
// comment, two run together, one inside the root).
func (s *scanner) misplacedDecl() {
	off := s.base + int64(s.r)
	if off == s.declAt || !s.ensure(6) {
		return
	}
	if b := s.buf[s.r+2 : s.r+6]; bytes.EqualFold(b[:3], []byte("xml")) && (isSpaceByte(b[3]) || b[3] == '?') {
		s.warn(off, RuleParseError, "XML declaration not at the start of the document (nothing may come before it)")
	}
}

// skipText consumes character data up to the next '<', noticing text that
// is not white space (outside skipped elements).
func (s *scanner) skipText() error {
	seen := s.quiet > 0
	for {
		i := bytes.IndexByte(s.buf[s.r:s.w], '<')
		end := s.w
		if i >= 0 {
			end = s.r + i
		}
		if !seen {
			if j := firstNonSpace(s.buf[s.r:end]); j >= 0 {
				seen = true
				if n := len(s.stack); n > 0 {
					s.warn(s.base+int64(s.r+j), RuleParseError, fmt.Sprintf("text inside <%s>, where only elements are allowed", s.stack[n-1].qname))
				} else {
					// Once a document: junk after the root (10 million
					// "<b/>x") gave a notice for each piece of text.
					s.warnOnce("text-outside", s.base+int64(s.r+j), RuleParseError, "text outside the root element")
				}
			}
		}
		s.r = end
		if i >= 0 {
			return nil
		}
		if !s.more() {
			if s.rerr != nil {
				return s.readErr()
			}
			return nil
		}
	}
}

func firstNonSpace(b []byte) int {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if !isSpaceByte(c) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if !isUnicodeSpace(r) {
			return i
		}
		i += n
	}
	return -1
}

func isUnicodeSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\u200b' || r == '\ufeff'
}

// skipUntil consumes input from s.r+skip to the end of the next delim.
func (s *scanner) skipUntil(skip int, delim string) error {
	start := s.base + int64(s.r)
	for {
		if s.w-s.r < skip {
			if !s.more() {
				return s.eofAt(start)
			}
			continue
		}
		if i := bytes.Index(s.buf[s.r+skip:s.w], []byte(delim)); i >= 0 {
			s.r += skip + i + len(delim)
			return nil
		}
		// Keep the last len(delim)-1 bytes: the delimiter may straddle.
		if keep := s.w - (len(delim) - 1); keep > s.r+skip {
			s.r = keep
			skip = 0
		}
		if !s.more() {
			return s.eofAt(start)
		}
	}
}

// eofAt is the error for input that ended inside a construct at start.
func (s *scanner) eofAt(start int64) error {
	if s.rerr != nil {
		return s.readErr()
	}
	return s.syntaxErr(s.base+int64(s.w), fmt.Errorf("%w (in the construct at offset %d)", io.ErrUnexpectedEOF, start))
}

// skipBang handles markup starting with "<!" at s.r: comments are skipped,
// a CDATA section is appended to dst when keep is set (and reported), and
// DOCTYPE or other declarations are refused.
func (s *scanner) skipBang(dst *[]byte, keep bool) (cdata bool, err error) {
	off := s.base + int64(s.r)
	s.ensure(9)
	b := s.buf[s.r:s.w]
	switch {
	case bytes.HasPrefix(b, []byte("<!--")):
		return false, s.skipUntil(4, "-->")
	case bytes.HasPrefix(b, []byte("<![CDATA[")):
		s.r += 9
		for {
			if i := bytes.Index(s.buf[s.r:s.w], []byte("]]>")); i >= 0 {
				if keep {
					*dst = s.appendChecked(*dst, s.buf[s.r:s.r+i], s.base+int64(s.r))
				}
				s.r += i + 3
				return true, nil
			}
			if cut := s.w - 2; cut > s.r {
				if s.buf[cut-1] == '\r' && cut-1 > s.r {
					cut-- // with the LF that may follow it, for appendLines
				}
				if keep {
					*dst = s.appendChecked(*dst, s.buf[s.r:cut], s.base+int64(s.r))
					if len(*dst) > maxValue {
						// Where it went past: the section's start has left
						// the buffer, and with it its line.
						return true, s.syntaxErr(s.base+int64(cut), errValueTooLong)
					}
				}
				s.r = cut
			}
			if !s.more() {
				return true, s.eofAt(off)
			}
		}
	case len(b) >= 9 && bytes.EqualFold(b[2:9], []byte("DOCTYPE")):
		return false, s.doctype(off)
	case bytes.HasPrefix(b, []byte("<!ENTITY")), bytes.HasPrefix(b, []byte("<!ELEMENT")),
		bytes.HasPrefix(b, []byte("<!ATTLIST")), bytes.HasPrefix(b, []byte("<!NOTATION")):
		return false, s.syntaxErr(off, ErrDoctype)
	}
	if len(b) < 9 && s.rerr == nil && s.eof {
		return false, s.eofErr()
	}
	return false, s.errorf(off, "invalid markup %q", shorten(string(b[:min(len(b), 9)]), 9))
}

// doctype refuses a DOCTYPE declaration at off: an HTML one names the
// document as HTML, any other is refused as a vector of XXE and entity
// expansion attacks.
func (s *scanner) doctype(off int64) error {
	s.ensure(64)
	b := s.buf[s.r+9 : s.w]
	i := 0
	for i < len(b) && isSpaceByte(b[i]) {
		i++
	}
	j := i
	for j < len(b) && isNameByte(b[j]) {
		j++
	}
	if bytes.EqualFold(b[i:j], []byte("html")) {
		return s.syntaxErr(off, ErrHTML)
	}
	return s.syntaxErr(off, ErrDoctype)
}

// scanTag parses the start or end tag at s.r.
func (s *scanner) scanTag() (tokKind, error) {
	t := &s.tag
	off := s.base + int64(s.r)
	t.off = off
	end := s.buf[s.r+1] == '/'
	i := 1
	if end {
		i = 2
		// Most end tags close the element open, spelled as it was, with
		// no space: matched whole.
		if n := len(s.stack); n > 0 {
			e := &s.stack[n-1]
			if k := 2 + len(e.qname); s.r+k < s.w && s.buf[s.r+k] == '>' && string(s.buf[s.r+2:s.r+k]) == string(e.qname) {
				s.r += k + 1
				return s.pop(t, n), nil
			}
		}
	}
	nameStart := i
	// The name.
	for {
		if s.r+i >= s.w {
			if !s.more() {
				return tokEOF, s.eofAt(off)
			}
			continue
		}
		c := s.buf[s.r+i]
		if i == nameStart && !isNameStart(c) {
			return tokEOF, s.errorf(off+int64(i), "invalid character %q at the start of a tag name", c)
		}
		if !isNameByte(c) {
			break
		}
		i++
	}
	nameEnd := i
	if nameEnd-nameStart > maxName {
		// Open elements' names are kept: 256 of 256 KiB each held
		// 64 MiB of a 50 MB document.
		return tokEOF, s.syntaxErr(off, errNameTooLong)
	}
	if end {
		for {
			if s.r+i >= s.w {
				if !s.more() {
					return tokEOF, s.eofAt(off)
				}
				continue
			}
			c := s.buf[s.r+i]
			if c == '>' {
				break
			}
			if !isSpaceByte(c) {
				return tokEOF, s.errorf(s.base+int64(s.r+i), "invalid character %q in end tag", c)
			}
			i++
		}
		name := s.buf[s.r+nameStart : s.r+nameEnd]
		n := len(s.stack)
		if n == 0 {
			return tokEOF, s.errorf(off, "unexpected end tag </%s>", name)
		}
		if e := &s.stack[n-1]; !bytes.Equal(e.qname, name) {
			return tokEOF, s.errorf(off, "element <%s> closed by </%s>", e.qname, name)
		}
		s.r += i + 1
		return s.pop(t, n), nil
	}
	// Attributes.
	s.attrs = s.attrs[:0]
	s.attrBuf = s.attrBuf[:0]
	hasNS := false
	for {
		if s.r+i >= s.w {
			if !s.more() {
				return tokEOF, s.eofAt(off)
			}
			continue
		}
		c := s.buf[s.r+i]
		if isSpaceByte(c) {
			i++
			continue
		}
		if c == '>' {
			i++
			t.empty = false
			break
		}
		if c == '/' {
			if !s.ensure(i + 2) {
				return tokEOF, s.eofAt(off)
			}
			if s.buf[s.r+i+1] != '>' {
				return tokEOF, s.errorf(s.base+int64(s.r+i), "expected /> in tag")
			}
			i += 2
			t.empty = true
			break
		}
		if !isSpaceByte(s.buf[s.r+i-1]) {
			return tokEOF, s.errorf(s.base+int64(s.r+i), "expected space before attribute")
		}
		had := len(s.attrs)
		ni, err := s.scanAttr(i, off)
		if err != nil {
			return tokEOF, err
		}
		if len(s.attrs) > had { // not an attribute given twice, which is dropped
			a := s.attrs[len(s.attrs)-1]
			if nm := s.attrBuf[a.name[0]:a.name[1]]; bytes.HasPrefix(nm, []byte("xmlns")) && (len(nm) == 5 || nm[5] == ':') {
				hasNS = true
			}
		}
		i = ni
	}
	if len(s.stack) >= maxDepth {
		return tokEOF, s.syntaxErr(off, errTooDeep)
	}
	// Push the element (an empty one is popped by the caller's view: it
	// never enters the stack, but its declarations apply to its own name).
	n := len(s.stack)
	if n < cap(s.stack) {
		s.stack = s.stack[:n+1]
	} else {
		s.stack = append(s.stack, elem{})
	}
	e := &s.stack[n]
	name := s.buf[s.r+nameStart : s.r+nameEnd]
	s.r += i
	// The element that had this place last (the <url> before this one,
	// nearly always) resolved the same name under the same declarations:
	// its namespace is this one's.
	if hasNS || e.gen != s.bindGen || e.nbind != len(s.bindings) || !bytes.Equal(e.qname, name) {
		e.qname = append(e.qname[:0], name...)
		e.nbind = len(s.bindings)
		if hasNS {
			if err := s.declare(off); err != nil {
				return tokEOF, err
			}
		}
		e.local = bytes.IndexByte(e.qname, ':') + 1
		e.id, e.uri = s.resolve(e.qname, e.local, off)
		e.gen = s.bindGen
		if hasNS {
			e.gen = -1 // its own declarations are popped with it
		}
	}
	t.end = false
	t.qname, t.local, t.id, t.uri = e.qname, e.qname[e.local:], e.id, e.uri
	if t.empty {
		s.bindings = s.bindings[:e.nbind]
		s.stack = s.stack[:n]
	}
	return tokStart, nil
}

// pop ends the element on top of the stack, of n elements, describing its
// end tag in t.
func (s *scanner) pop(t *tagInfo, n int) tokKind {
	e := &s.stack[n-1]
	t.end, t.empty = true, false
	t.qname, t.local, t.id, t.uri = e.qname, e.qname[e.local:], e.id, e.uri
	s.bindings = s.bindings[:e.nbind]
	s.stack = s.stack[:n-1]
	return tokEnd
}

// scanAttr parses one attribute at s.r+i into s.attrs and returns the
// index after it.
func (s *scanner) scanAttr(i int, off int64) (int, error) {
	start := i
	for {
		if s.r+i >= s.w {
			if !s.more() {
				return 0, s.eofAt(off)
			}
			continue
		}
		c := s.buf[s.r+i]
		if i == start && !isNameStart(c) {
			return 0, s.errorf(s.base+int64(s.r+i), "invalid character %q in tag", c)
		}
		if !isNameByte(c) {
			break
		}
		i++
	}
	var a attr
	a.name[0] = len(s.attrBuf)
	s.attrBuf = append(s.attrBuf, s.buf[s.r+start:s.r+i]...)
	a.name[1] = len(s.attrBuf)
	dup := s.dupAttr(s.attrBuf[a.name[0]:a.name[1]], off)
	if dup {
		// Not well-formed XML, which parsers read differently (the
		// first, the last, or nothing): the first is read, and the
		// reader says so, once a document for each name: a tag of one
		// attribute given 100,000 times is one finding, not 100,000.
		nm := s.attrBuf[a.name[0]:a.name[1]]
		s.warnOnce("attr:"+string(nm), s.base+int64(s.r+start), RuleParseError, fmt.Sprintf("attribute %s given twice; the first is read", nm))
	}
	// = and the quote.
	var q byte
	for q == 0 {
		if s.r+i >= s.w {
			if !s.more() {
				return 0, s.eofAt(off)
			}
			continue
		}
		c := s.buf[s.r+i]
		switch {
		case isSpaceByte(c):
		case c == '=' && a.val[0] == 0:
			a.val[0] = -1
		case (c == '"' || c == '\'') && a.val[0] == -1:
			q = c
		default:
			return 0, s.errorf(s.base+int64(s.r+i), "attribute %s without a quoted value", s.attrBuf[a.name[0]:a.name[1]])
		}
		i++
	}
	for {
		j := bytes.IndexByte(s.buf[s.r+i:s.w], q)
		if j < 0 {
			if !s.more() {
				return 0, s.eofAt(off)
			}
			continue
		}
		v := s.buf[s.r+i : s.r+i+j]
		if k := bytes.IndexByte(v, '<'); k >= 0 {
			return 0, s.errorf(s.base+int64(s.r+i+k), "'<' in attribute value")
		}
		a.val[0] = len(s.attrBuf)
		s.attrBuf = s.decode(s.attrBuf, v, s.base+int64(s.r+i))
		a.val[1] = len(s.attrBuf)
		if !dup {
			s.attrs = append(s.attrs, a)
		}
		return i + j + 1, nil
	}
}

// dupAttr reports whether the tag at off has an attribute named name
// already. A tag of a few attributes is looked through; one of many gets
// a set, so that 20,000 attributes cost no 200 million comparisons.
func (s *scanner) dupAttr(name []byte, off int64) bool {
	const few = 16
	if len(s.attrs) < few {
		for _, a := range s.attrs {
			if bytes.Equal(s.attrBuf[a.name[0]:a.name[1]], name) {
				return true
			}
		}
		return false
	}
	if s.attrTag != off || s.attrSet == nil {
		clear(s.attrSet)
		if s.attrSet == nil {
			s.attrSet = map[string]bool{}
		}
		for _, a := range s.attrs {
			s.attrSet[string(s.attrBuf[a.name[0]:a.name[1]])] = true
		}
		s.attrTag = off
	}
	if s.attrSet[string(name)] {
		return true
	}
	s.attrSet[string(name)] = true
	return false
}

// attr returns the value of the attribute named name of the last start tag.
func (s *scanner) attr(name string) (string, bool) {
	for _, a := range s.attrs {
		if string(s.attrBuf[a.name[0]:a.name[1]]) == name {
			return string(s.attrBuf[a.val[0]:a.val[1]]), true
		}
	}
	return "", false
}

// declare pushes the namespace declarations of the last start tag.
func (s *scanner) declare(off int64) error {
	for _, a := range s.attrs {
		nm := s.attrBuf[a.name[0]:a.name[1]]
		if !bytes.HasPrefix(nm, []byte("xmlns")) {
			continue
		}
		prefix := ""
		if len(nm) > 5 {
			if nm[5] != ':' {
				continue
			}
			prefix = string(nm[6:])
		}
		held := len(prefix) + (a.val[1] - a.val[0])
		if n := len(s.bindings); n > 0 {
			held += s.bindings[n-1].held
		}
		// The declarations in scope are kept: 1,024 URIs of 48 KiB each
		// held 50 MB, four such documents 200 MB.
		if len(s.bindings) >= maxBindings || held > maxNSBytes {
			return s.syntaxErr(off, errBindings)
		}
		uri := string(s.attrBuf[a.val[0]:a.val[1]])
		s.bindings = append(s.bindings, binding{prefix: prefix, uri: uri, id: nsOf(uri), held: held})
		s.bindGen++
	}
	return nil
}

// resolve returns the namespace of the qualified name q whose local name
// starts at local.
func (s *scanner) resolve(q []byte, local int, off int64) (nsID, string) {
	var prefix []byte
	if local > 0 {
		prefix = q[:local-1]
	}
	for i := len(s.bindings) - 1; i >= 0; i-- {
		if b := &s.bindings[i]; b.prefix == string(prefix) {
			return b.id, b.uri
		}
	}
	if local == 0 {
		return nsNone, ""
	}
	if string(prefix) == "xml" {
		return nsOther, "http://www.w3.org/XML/1998/namespace"
	}
	p := string(prefix)
	uri := conventionalNS[p]
	s.warnOnce("prefix:"+p, off, RuleParseError, fmt.Sprintf("namespace prefix %q is not declared", p))
	if uri == "" {
		return nsOther, "undeclared:" + p
	}
	return nsOf(uri), uri
}

// text reads the content of the element just started (and pushed) up to
// its end tag, appending the text, entities decoded and CDATA sections
// kept, to dst. Child elements are noticed and skipped.
func (s *scanner) text(dst []byte) ([]byte, error) {
	if s.tag.empty {
		return dst, nil
	}
	depth := len(s.stack)
	for {
		i := bytes.IndexByte(s.buf[s.r:s.w], '<')
		if i < 0 {
			if !s.more() {
				return dst, s.eofErr()
			}
			continue
		}
		if i > 0 {
			dst = s.decode(dst, s.buf[s.r:s.r+i], s.base+int64(s.r))
			s.r += i
			if len(dst) > maxValue {
				return dst, s.syntaxErr(s.base+int64(s.r), errValueTooLong)
			}
		}
		if !s.ensure(2) {
			return dst, s.eofErr()
		}
		switch s.buf[s.r+1] {
		case '/':
			if _, err := s.scanTag(); err != nil {
				return dst, err
			}
			if len(s.stack) < depth {
				return dst, nil
			}
		case '!':
			if _, err := s.skipBang(&dst, true); err != nil {
				return dst, err
			}
			if len(dst) > maxValue {
				return dst, s.syntaxErr(s.base+int64(s.r), errValueTooLong)
			}
		case '?':
			s.misplacedDecl()
			if err := s.skipUntil(2, "?>"); err != nil {
				return dst, err
			}
		default:
			if _, err := s.scanTag(); err != nil {
				return dst, err
			}
			s.warn(s.tag.off, RuleUnknownTag, fmt.Sprintf("unexpected element <%s> inside <%s>", s.tag.qname, s.stack[depth-1].qname))
			if err := s.skip(); err != nil {
				return dst, err
			}
		}
	}
}

// skip skips the content of the element just started, up to its end tag.
func (s *scanner) skip() error {
	if s.tag.empty {
		return nil
	}
	depth := len(s.stack)
	s.quiet++
	defer func() { s.quiet-- }()
	for {
		tok, err := s.next()
		if err != nil {
			return err
		}
		switch tok {
		case tokEOF:
			return s.eofErr()
		case tokEnd:
			if len(s.stack) < depth {
				return nil
			}
		}
	}
}

// decode appends seg (character data at offset off), entities decoded, to
// dst, noticing undefined entities and characters XML does not allow.
func (s *scanner) decode(dst, seg []byte, off int64) []byte {
	cr := false
	switch plainAmp(seg) {
	case 0: // nearly every value: as it is
		return append(dst, seg...)
	case 1:
	default:
		s.checkChars(seg, off)
		cr = bytes.IndexByte(seg, '\r') >= 0
	}
	for {
		j := bytes.IndexByte(seg, '&')
		if j < 0 {
			if cr {
				return appendLines(dst, seg)
			}
			return append(dst, seg...)
		}
		if cr {
			dst = appendLines(dst, seg[:j])
		} else {
			dst = append(dst, seg[:j]...)
		}
		off += int64(j)
		seg = seg[j:]
		if len(seg) >= 5 && string(seg[:5]) == "&amp;" { // nearly every entity of a URL
			dst = append(dst, '&')
			seg = seg[5:]
			off += 5
			continue
		}
		n, r, ok := entity(seg)
		if !ok {
			end := bytes.IndexAny(seg[:min(len(seg), 12)], "; \t\r\n<")
			if end > 0 && seg[end] == ';' {
				s.warn(off, RuleParseError, fmt.Sprintf("undefined entity %s", seg[:end+1]))
			} else {
				s.warn(off, RuleParseError, "unescaped '&' (write &amp;)")
			}
			dst = append(dst, '&')
			seg = seg[1:]
			off++
			continue
		}
		if !xmlChar(r) {
			s.warn(off, RuleInvalidCharacter, fmt.Sprintf("character reference %s to a character XML does not allow", seg[:n]))
		}
		dst = utf8.AppendRune(dst, r)
		seg = seg[n:]
		off += int64(n)
	}
}

// appendChecked appends raw character data (a CDATA section) to dst.
func (s *scanner) appendChecked(dst, seg []byte, off int64) []byte {
	if !plain(seg) {
		s.checkChars(seg, off)
		return appendLines(dst, seg)
	}
	return append(dst, seg...)
}

// appendLines appends text to dst with its line ends as XML reads them
// (XML 1.0 §2.11): CR LF, and a CR alone, become LF. A value written on
// Windows reads as it would from any XML parser; a CR written as &#13;
// stays one (entities are decoded after).
func appendLines(dst, text []byte) []byte {
	for {
		i := bytes.IndexByte(text, '\r')
		if i < 0 {
			return append(dst, text...)
		}
		dst = append(append(dst, text[:i]...), '\n')
		text = text[i+1:]
		if len(text) > 0 && text[0] == '\n' {
			text = text[1:]
		}
	}
}

// entity decodes the reference at the start of b ('&'), returning its
// length and rune.
func entity(b []byte) (int, rune, bool) {
	end := bytes.IndexByte(b[:min(len(b), 12)], ';')
	if end < 0 && len(b) > 12 && b[1] == '#' {
		// A character reference may have any number of leading zeros
		// (&#x0000000041; is "A"): its digits are looked through.
		end = charRefEnd(b)
	}
	if end < 2 {
		return 0, 0, false
	}
	name := b[1:end]
	switch string(name) {
	case "amp":
		return end + 1, '&', true
	case "lt":
		return end + 1, '<', true
	case "gt":
		return end + 1, '>', true
	case "quot":
		return end + 1, '"', true
	case "apos":
		return end + 1, '\'', true
	}
	if name[0] != '#' || len(name) < 2 {
		return 0, 0, false
	}
	var v uint64
	var err error
	if name[1] == 'x' {
		v, err = strconv.ParseUint(string(name[2:]), 16, 32)
	} else {
		v, err = strconv.ParseUint(string(name[1:]), 10, 32)
	}
	if err != nil || v > unicode.MaxRune {
		return 0, 0, false
	}
	return end + 1, rune(v), true
}

// charRefEnd returns the index of the ';' that ends the character
// reference at the start of b ("&#" then decimal digits, or "&#x" then hex
// digits), or -1.
func charRefEnd(b []byte) int {
	i, hex := 2, false
	if i < len(b) && b[i] == 'x' {
		i, hex = 3, true
	}
	for ; i < len(b); i++ {
		c := b[i]
		if !('0' <= c && c <= '9' || hex && ('a' <= c|0x20 && c|0x20 <= 'f')) {
			break
		}
	}
	if i < len(b) && b[i] == ';' {
		return i
	}
	return -1
}

// xmlChar reports whether XML 1.0 allows r.
func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// plain reports whether b holds only printable ASCII.
func plain(b []byte) bool { return plainAmp(b) != 2 }

// plainAmp is 0 when b holds only printable ASCII other than '&' (the
// text is what it says), 1 when it holds '&' too (entities to decode),
// 2 otherwise (characters to check): plain and a search for '&' in one
// pass, eight bytes at a time, the last eight overlapping the eight
// before them rather than a byte at a time.
func plainAmp(b []byte) int {
	const lo, hi, amp = 0x2020202020202020, 0x8080808080808080, 0x0101010101010101 * '&'
	var bad, amps uint64
	word := func(x uint64) {
		bad |= (x - lo) | x
		amps |= zeroByte(x ^ amp)
	}
	if len(b) >= 8 {
		for i := 0; i+8 < len(b); i += 8 {
			word(binary.LittleEndian.Uint64(b[i:]))
		}
		word(binary.LittleEndian.Uint64(b[len(b)-8:]))
	} else {
		for _, c := range b {
			if c < 0x20 || c >= 0x80 {
				return 2
			}
			if c == '&' {
				amps = 1
			}
		}
	}
	switch {
	case bad&hi != 0:
		return 2
	case amps != 0:
		return 1
	}
	return 0
}

// zeroByte has the high bit of a byte set where x has a zero byte (and
// maybe where a 0x01 follows one); it is 0 when x has none.
func zeroByte(x uint64) uint64 {
	const ones, hi = 0x0101010101010101, 0x8080808080808080
	return (x - ones) & ^x & hi
}

// checkChars notices the first character of b (at off) that XML 1.0 does
// not allow, or the first byte that is not UTF-8.
func (s *scanner) checkChars(b []byte, off int64) {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				s.warn(off+int64(i), RuleInvalidCharacter, fmt.Sprintf("control character U+%04X", c))
				return
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			s.warn(off+int64(i), RuleInvalidCharacter, fmt.Sprintf("byte 0x%02X is not UTF-8 (sitemaps must be UTF-8)", c))
			return
		}
		if !xmlChar(r) {
			s.warn(off+int64(i), RuleInvalidCharacter, fmt.Sprintf("character U+%04X", r))
			return
		}
		i += n
	}
}

// trim returns the span of b[a:] without leading and trailing white space
// (ASCII and Unicode spaces, no-break spaces included).
func trim(b []byte, a int) (int, int) {
	z := len(b)
	for a < z {
		c := b[a]
		if c < utf8.RuneSelf {
			if !isSpaceByte(c) {
				break
			}
			a++
			continue
		}
		r, n := utf8.DecodeRune(b[a:z])
		if !isUnicodeSpace(r) {
			break
		}
		a += n
	}
	for z > a {
		c := b[z-1]
		if c < utf8.RuneSelf {
			if !isSpaceByte(c) {
				break
			}
			z--
			continue
		}
		r, n := utf8.DecodeLastRune(b[a:z])
		if !isUnicodeSpace(r) {
			break
		}
		z -= n
	}
	return a, z
}
