// Package htmltoken runs golang.org/x/net/html's tokenizer with a bound on
// each token. That tokenizer copies, lowers and remembers in a map every
// attribute name of a tag, to drop repeats: one 10 MB tag of a million
// attributes cost 190 MB, and a hostile site linking eight such pages made
// a crawl hold 1.4 GB. Its one limit (SetMaxBuf) is on any token, and text
// needs a large one (a script's inline data is several MB on real sites),
// as does a quoted attribute value (an inline image's data: URL).
//
// Here a token may take MaxText bytes, and of a tag, the bytes outside its
// quoted attribute values (its name, the names of its attributes, white
// space, unquoted values) MaxTag: a tag is read, as it comes, by the rules
// the tokenizer reads it by (readTag's), to tell them. Past either bound
// the tokenizer's read fails with ErrTooLong, having spent memory for
// MaxTag bytes of attribute names at most.
package htmltoken

import (
	"bytes"
	"fmt"
	"io"

	"golang.org/x/net/html"
)

const (
	// MaxTag bounds a tag's bytes outside its quoted values: 28 MB of
	// the tokenizer's allocations at worst.
	MaxTag = 1 << 20
	// MaxText bounds any token: text (copied once), a comment, a tag
	// with its quoted values.
	MaxText = 32 << 20
)

// ErrTooLong is the error of a page with a token longer than its bound.
var ErrTooLong = fmt.Errorf("an HTML tag of over %d MiB outside its quoted values, or a token of over %d MiB: the page is broken or hostile, and is not read", MaxTag>>20, MaxText>>20)

// chunk bounds each read the tokenizer makes: what it reads ahead, past the
// token it reads, is charged to that token, and so must stay small beside
// MaxTag.
const chunk = 64 << 10

// readAhead is the most the tokenizer reads past a token's end to find
// it: "</noframes" and the byte after it past a raw text ("<a" past text).
// A token is given it beyond MaxText, so that one of MaxText bytes is read.
const readAhead = len("</noframes>")

// maxTag and maxText are MaxTag and MaxText, smaller in tests.
var maxTag, maxText = MaxTag, MaxText

// A Tokenizer is an html.Tokenizer whose tokens are bounded (see the
// package comment); Next fails with ErrTooLong (Err) past a bound.
type Tokenizer struct {
	*html.Tokenizer
	b *budget
}

// NewTokenizer returns a Tokenizer of the HTML that r holds, in UTF-8.
func NewTokenizer(r io.Reader) *Tokenizer {
	b := &budget{r: r}
	b.start(nil, false)
	z := html.NewTokenizer(b)
	// The tokenizer's own bound, as a backstop: a token is at most its
	// budget plus what was read ahead before it.
	z.SetMaxBuf(maxText + 2*chunk)
	return &Tokenizer{Tokenizer: z, b: b}
}

// Next scans the next token and returns its type, as html.Tokenizer.Next
// does, and starts the bounds of the one after it on what the tokenizer
// holds of it. After the start tag of an element whose text the tokenizer
// reads raw, that text is no tag, whatever its bytes; unless it is empty:
// the tokenizer then reads the element's end tag in the same Next, so
// that end tag ("</script" and whatever attributes follow) is told here,
// from the bytes ahead, and read as a tag.
func (t *Tokenizer) Next() html.TokenType {
	tt := t.Tokenizer.Next()
	buf := t.Buffered()
	raw := false
	if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
		name := rawTag(t.Raw())
		raw = name == "plaintext" || name != "" && !t.endTagAhead(buf, name)
	}
	t.b.start(buf, raw)
	return tt
}

// NextIsNotRawText is html.Tokenizer's (a parser calls it in <svg> and
// <math>, where <style> and <title> hold elements): the next token is
// then bounded as any, a tag included, not as raw text.
func (t *Tokenizer) NextIsNotRawText() {
	t.Tokenizer.NextIsNotRawText()
	t.b.start(t.Buffered(), false)
}

// endTagAhead reports whether the bytes ahead, buf then the page's, open
// with name's end tag, as html.Tokenizer's readRawEndTag matches it: the
// raw element's text is then empty.
func (t *Tokenizer) endTagAhead(buf []byte, name string) bool {
	need := len("</") + len(name) + 1
	ahead := buf
	if len(ahead) < need {
		ahead = append(buf[:len(buf):len(buf)], t.b.peek(need-len(buf))...)
	}
	if len(ahead) < need || ahead[0] != '<' || ahead[1] != '/' {
		return false
	}
	for i := range len(name) {
		if c := ahead[2+i]; c != name[i] && c != name[i]-('a'-'A') {
			return false
		}
	}
	switch ahead[need-1] {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return true
	}
	return false
}

// Check reads the HTML r holds to its end, as a Tokenizer, and returns the
// first error: ErrTooLong, or r's. It is for a caller about to give the
// page to html.Parse, which has no such bounds, and which past an <svg> or
// <math> reads as tags what the tokenizer alone reads otherwise: a
// <style>'s text, and what follows a "<![CDATA[" (a bogus comment to its
// first ">" here, a section to its "]]>" there: a quoted value here may be
// tags there). So past "<svg" or "<math", every "<" is taken for a tag's,
// and bounded as one (by foreign).
func Check(r io.Reader) error {
	t := NewTokenizer(io.TeeReader(r, &foreign{}))
	for t.Next() != html.ErrorToken {
	}
	if err := t.Err(); err != io.EOF {
		return err
	}
	return nil
}

// foreign reads a page as written to it: past "<svg" or "<math" (in any
// case), it reads from every "<" a tag, as a tagScan does, and fails with
// ErrTooLong when one is past MaxTag. Tags that overlap are read at once:
// two in the same state go on alike, and only the longer is kept.
type foreign struct {
	svg, math int       // bytes of "<svg" and "<math" matched
	armed     bool      // one has been seen
	tags      []tagScan // the tags under way, each in its own state
}

func (f *foreign) Write(p []byte) (int, error) {
	for _, c := range p {
		if !f.armed {
			f.svg = match(f.svg, "<svg", c)
			f.math = match(f.math, "<math", c)
			f.armed = f.svg == len("<svg") || f.math == len("<math")
			continue
		}
		if c == '<' {
			f.tags = append(f.tags, tagScan{})
		}
		kept := f.tags[:0]
	next:
		for _, s := range f.tags {
			s.feed([]byte{c})
			if s.state == sDone {
				continue
			}
			if s.counted > maxTag {
				return 0, ErrTooLong
			}
			for i, k := range kept {
				if k.state == s.state && k.quote == s.quote && k.first == s.first {
					kept[i].counted = max(k.counted, s.counted)
					continue next
				}
			}
			kept = append(kept, s)
		}
		f.tags = kept
	}
	return len(p), nil
}

// match returns how much of pat (which repeats no prefix of itself) is
// matched after c, when i was before it; letters in any case.
func match(i int, pat string, c byte) int {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	switch {
	case c == pat[i]:
		return i + 1
	case c == pat[0]:
		return 1
	}
	return 0
}

// rawTag returns the name, in lower case, of the element raw, a start
// tag, opens when the tokenizer reads its text as raw text
// (html.Tokenizer's readStartTag: the name, up to white space, "/" or
// ">", in any case), and "" for any other.
func rawTag(raw []byte) string {
	if len(raw) < 2 {
		return ""
	}
	name := raw[1:]
	for i, c := range name {
		if c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '/' || c == '>' {
			name = name[:i]
			break
		}
	}
	if len(name) < 3 || len(name) > len("plaintext") {
		return ""
	}
	var lower [9]byte
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	switch s := string(lower[:len(name)]); s {
	case "iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp":
		return s
	}
	return ""
}

// budget is the reader between the page and the tokenizer: it serves a
// token MaxText bytes (and readAhead), in reads of chunk bytes at most, and reads what it
// serves with a tagScan, which counts a tag's bytes outside its quoted
// values; past either bound it fails. It may read a few bytes ahead of
// what it served (peek), which it serves first.
type budget struct {
	r     io.Reader
	ahead []byte // read from r by peek, not yet served
	err   error  // r's error met by peek, served after ahead
	left  int    // bytes the token may still take
	scan  tagScan
}

// start starts the bounds of a token, of which buf is what the tokenizer
// holds already; raw says it is a raw-text element's text.
func (b *budget) start(buf []byte, raw bool) {
	b.left = maxText + readAhead
	b.scan = tagScan{}
	if raw {
		b.scan.state = sDone
	}
	b.scan.feed(buf)
}

// peek returns the next n bytes of the page, or fewer at its end or on an
// error, without serving them.
func (b *budget) peek(n int) []byte {
	for tries := 0; len(b.ahead) < n && b.err == nil && tries < 100; tries++ {
		var p [16]byte
		m, err := b.r.Read(p[:min(n-len(b.ahead), len(p))])
		b.ahead = append(b.ahead, p[:m]...)
		b.err = err
	}
	return b.ahead[:min(n, len(b.ahead))]
}

// read reads the page: the bytes peeked first.
func (b *budget) read(p []byte) (int, error) {
	if len(b.ahead) > 0 {
		n := copy(p, b.ahead)
		b.ahead = b.ahead[n:]
		return n, nil
	}
	if b.err != nil {
		return 0, b.err
	}
	return b.r.Read(p)
}

func (b *budget) Read(p []byte) (int, error) {
	if b.left <= 0 || b.scan.counted > maxTag {
		// Spent: the page is over its bound unless it ends here.
		var one [1]byte
		n, err := b.read(one[:])
		switch {
		case n > 0:
			return 0, ErrTooLong
		case err != nil:
			return 0, err
		}
		return 0, nil
	}
	p = p[:min(len(p), b.left, chunk)]
	n, err := b.read(p)
	b.left -= n
	b.scan.feed(p[:n])
	return n, err
}

// A tagScan reads a token from its first byte as html.Tokenizer reads a
// tag (Next, readTag, readTagName, readTagAttrKey, readTagAttrVal, and
// skipWhiteSpace between them), and counts the bytes of a start or end tag
// outside its quoted values: those whose number the tokenizer's memory
// grows with. Any other token (text, a comment, a doctype) is sDone from
// its first bytes, and so is a tag once read to its ">".
type tagScan struct {
	state   scanState
	quote   byte // the quote of a quoted value
	first   bool // at an attribute name's first byte
	counted int
}

type scanState uint8

const (
	sStart    scanState = iota // the token's first byte
	sLt                        // after "<"
	sSlash                     // after "</"
	sName                      // in the tag's name
	sSpace                     // skipping white space; then ">" ends the tag, else a name starts
	sAttr                      // in an attribute's name
	sAfterKey                  // after it: white space, then "/", "=" or the next name
	sAfterEq                   // after "=": white space, then the value
	sQuoted                    // in a quoted value
	sUnquoted                  // in an unquoted value
	sDone                      // past the tag, or not a tag
)

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// feed reads b, the token's bytes that follow those fed before.
func (s *tagScan) feed(b []byte) {
	for i := 0; i < len(b) && s.state != sDone; {
		if s.state == sQuoted {
			// A value's bytes at once: the tokenizer keeps them in its
			// buffer, no copy of its own.
			j := bytes.IndexByte(b[i:], s.quote)
			if j < 0 {
				return
			}
			i += j + 1
			s.state = sSpace
			s.counted++
			continue
		}
		if s.step(b[i]) {
			i++
			s.counted++
		}
	}
}

// step moves the scan on by c, outside a quoted value, and reports
// whether c is consumed: false when it is to be read again in the new
// state, where the tokenizer unreads it.
func (s *tagScan) step(c byte) bool {
	switch s.state {
	case sStart:
		s.state = sDone
		if c == '<' {
			s.state = sLt
		}
	case sLt:
		switch {
		case isLetter(c):
			s.state = sName
		case c == '/':
			s.state = sSlash
		default: // a comment, a doctype, or text
			s.state = sDone
		}
	case sSlash:
		s.state = sDone // "</>", or a bogus comment
		if isLetter(c) {
			s.state = sName
		}
	case sName:
		switch {
		case isSpace(c):
			s.state = sSpace
		case c == '/' || c == '>':
			s.state = sSpace
			return false
		}
	case sSpace:
		switch {
		case isSpace(c):
		case c == '>':
			s.state = sDone
		default:
			s.state, s.first = sAttr, true
			return false
		}
	case sAttr:
		first := s.first
		s.first = false
		switch {
		case c == '=' && first:
			// "=" before a name's first byte is a byte of the name.
		case isSpace(c) || c == '/' || c == '>' || c == '=':
			s.state = sAfterKey
			return false
		}
	case sAfterKey:
		switch {
		case isSpace(c):
		case c == '/':
			s.state = sSpace
		case c == '=':
			s.state = sAfterEq
		default:
			s.state = sSpace
			return false
		}
	case sAfterEq:
		switch {
		case isSpace(c):
		case c == '>':
			s.state = sSpace
			return false
		case c == '"' || c == '\'':
			s.state, s.quote = sQuoted, c
		default:
			s.state = sUnquoted
		}
	case sUnquoted:
		switch {
		case isSpace(c):
			s.state = sSpace
		case c == '>':
			s.state = sSpace
			return false
		}
	}
	return true
}
