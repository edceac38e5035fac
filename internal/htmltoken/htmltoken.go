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
	b := &budget{r: r, unknown: true}
	z := html.NewTokenizer(b)
	// The tokenizer's own bound, as a backstop: a token is at most its
	// budget plus what was read ahead before it.
	z.SetMaxBuf(maxText + 2*chunk)
	return &Tokenizer{Tokenizer: z, b: b}
}

// Next scans the next token and returns its type, as html.Tokenizer.Next
// does, and sets the bound of the one after it: MaxText after the start
// tag of an element whose text the tokenizer reads raw, or before text;
// MaxTag before a "<".
func (t *Tokenizer) Next() html.TokenType {
	tt := t.Tokenizer.Next()
	switch buf := t.Buffered(); {
	case (tt == html.StartTagToken || tt == html.SelfClosingTagToken) && rawText(t.Raw()):
		t.b.set(maxText)
	case len(buf) == 0:
		t.b.unknown = true // told by the first byte read
	case buf[0] == '<':
		t.b.set(maxTag)
	default:
		t.b.set(maxText)
	}
	return tt
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

// rawText reports whether raw, a start tag, opens an element whose text
// the tokenizer reads as raw text (html.Tokenizer's readStartTag: the
// name, up to white space, "/" or ">", in any case).
func rawText(raw []byte) bool {
	if len(raw) < 2 {
		return false
	}
	name := raw[1:]
	for i, c := range name {
		if c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '/' || c == '>' {
			name = name[:i]
			break
		}
	}
	if len(name) < 3 || len(name) > len("plaintext") {
		return false
	}
	var lower [9]byte
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	switch string(lower[:len(name)]) {
	case "iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp":
		return true
	}
	return false
}

// budget is the reader between the page and the tokenizer: it serves
// left bytes more, in reads of chunk bytes at most, then fails. When the
// token about to be read is unknown (nothing of it is buffered), its first
// byte tells its bound.
type budget struct {
	r       io.Reader
	left    int
	unknown bool
}

func (b *budget) set(n int) { b.left, b.unknown = n, false }

func (b *budget) Read(p []byte) (int, error) {
	if b.unknown {
		n, err := b.r.Read(p[:min(len(p), chunk)])
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
		n, err := b.r.Read(one[:])
		switch {
		case n > 0:
			return 0, ErrTooLong
		case err != nil:
			return 0, err
		}
		return 0, nil
	}
	p = p[:min(len(p), b.left, chunk)]
	n, err := b.r.Read(p)
	b.left -= n
	return n, err
}
