// Package htmltoken runs golang.org/x/net/html's tokenizer with a bound on
// each token. That tokenizer copies, lowers and remembers in a map every
// attribute name of a tag, to drop repeats: one 10 MB tag of a million
// attributes cost 190 MB, and a hostile site linking eight such pages made
// a crawl hold 1.4 GB. Its one limit (SetMaxBuf) is on any token, and text
// needs a large one (a script's inline data is several MB on real sites).
// Here a tag, comment or doctype may take MaxTag bytes, and text (between
// tags, or a script's, style's or other raw-text element's) MaxText: past
// its bound, the tokenizer's read fails with ErrTooLong, having spent
// memory for MaxTag bytes of a tag at most.
package htmltoken

import (
	"fmt"
	"io"

	"golang.org/x/net/html"
)

const (
	// MaxTag bounds a tag (with its attributes), a comment or a doctype:
	// 28 MB of the tokenizer's allocations at worst.
	MaxTag = 1 << 20
	// MaxText bounds text, which the tokenizer copies once.
	MaxText = 32 << 20
)

// ErrTooLong is the error of a page with a token longer than its bound.
var ErrTooLong = fmt.Errorf("an HTML tag or comment over %d MiB, or text over %d MiB: the page is broken or hostile, and is not read", MaxTag>>20, MaxText>>20)

// chunk bounds each read the tokenizer makes: what it reads ahead, past the
// token it reads, is charged to that token, and so must stay small beside
// MaxTag.
const chunk = 64 << 10

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
	b.set(0)
	z := html.NewTokenizer(b)
	// The tokenizer's own bound, as a backstop: a token is at most its
	// budget plus what was read ahead before it.
	z.SetMaxBuf(maxText + 2*chunk)
	return &Tokenizer{Tokenizer: z, b: b}
}

// Next scans the next token and returns its type, as html.Tokenizer.Next
// does, and sets the bound of the one after it: MaxText after the start
// tag of an element whose text the tokenizer reads raw, or before text;
// MaxTag before a "<". A raw-text element whose text is empty is the
// exception: the tokenizer reads its end tag in the same Next as the
// text it found none of, so that end tag ("</script" and whatever
// attributes follow) is told here, from the bytes ahead, and given
// MaxTag.
func (t *Tokenizer) Next() html.TokenType {
	tt := t.Tokenizer.Next()
	switch buf := t.Buffered(); {
	case tt == html.StartTagToken || tt == html.SelfClosingTagToken:
		switch name := rawTag(t.Raw()); {
		case name == "":
			t.b.set(boundAt(buf))
		case name != "plaintext" && t.endTagAhead(buf, name):
			t.b.set(maxTag)
		default:
			t.b.set(maxText)
		}
	default:
		t.b.set(boundAt(buf))
	}
	return tt
}

// boundAt returns the bound of a token that is not a raw element's text by
// its first byte: buf's, or, when nothing is buffered, the first read.
func boundAt(buf []byte) int {
	switch {
	case len(buf) == 0:
		return 0 // told by the first byte read
	case buf[0] == '<':
		return maxTag
	}
	return maxText
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
// page to html.Parse, which has no such bounds.
func Check(r io.Reader) error {
	t := NewTokenizer(r)
	for t.Next() != html.ErrorToken {
	}
	if err := t.Err(); err != io.EOF {
		return err
	}
	return nil
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

// budget is the reader between the page and the tokenizer: it serves
// left bytes more, in reads of chunk bytes at most, then fails. When the
// token about to be read is unknown (nothing of it is buffered), its first
// byte tells its bound. It may read a few bytes ahead of what it served
// (peek), which it serves first.
type budget struct {
	r       io.Reader
	ahead   []byte // read from r by peek, not yet served
	err     error  // r's error met by peek, served after ahead
	left    int
	unknown bool
}

// set sets the bound of the token about to be read; 0 leaves it to the
// first byte read.
func (b *budget) set(n int) { b.left, b.unknown = n, n == 0 }

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
	if b.unknown {
		n, err := b.read(p[:min(len(p), chunk)])
		if n > 0 {
			b.set(maxText)
			if p[0] == '<' {
				b.set(maxTag)
			}
			b.left -= n
		}
		return n, err
	}
	if b.left <= 0 {
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
	return n, err
}
