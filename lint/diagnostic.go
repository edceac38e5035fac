package lint

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Diagnostic is one finding: a rule broken at a place in a document.
// Line and Col are 1-based (Col counts bytes); both are 0 when the finding
// is about the document as a whole or about a fetch, and Col alone is 0 when
// only the line is known (set-wide findings).
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

// String formats d as compilers do: "FILE:LINE:COL: error[rule-id]: message",
// leaving out what is 0. Control characters of the file name and the
// message (a loc's newline, a terminal's escape sequence, a bidi override)
// and invalid UTF-8 are written escaped, as Go writes them in a quoted
// string (\n, \x1b, \u202e): a hostile sitemap cannot add lines of its
// own to a report, nor drive the terminal it is read on.
func (d Diagnostic) String() string {
	s := Printable(d.File)
	if d.Line > 0 {
		s += ":" + strconv.Itoa(d.Line)
		if d.Col > 0 {
			s += ":" + strconv.Itoa(d.Col)
		}
	}
	if s != "" {
		s += ": "
	}
	return s + d.Severity.String() + "[" + d.Rule + "]: " + Printable(d.Message)
}

// Printable returns s with the runes that change how a terminal shows
// what follows escaped, as String escapes a diagnostic's file and
// message: control characters, line and paragraph separators, bidi
// controls, and bytes that are not UTF-8. s itself when it has none. For
// whatever else a report prints of a document: a name can hold a newline.
func Printable(s string) string {
	i := strings.IndexFunc(s, unprintable)
	if i < 0 {
		if utf8.ValidString(s) {
			return s
		}
		i = 0
	}
	b := []byte(s[:i])
	for j := i; j < len(s); {
		r, n := utf8.DecodeRuneInString(s[j:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\x`...)
			b = append(b, "0123456789abcdef"[s[j]>>4], "0123456789abcdef"[s[j]&15])
		case unprintable(r):
			q := strconv.QuoteRune(r)
			b = append(b, q[1:len(q)-1]...)
		default:
			b = append(b, s[j:j+n]...)
		}
		j += n
	}
	return string(b)
}

// unprintable reports whether r changes how a terminal shows what
// follows: a control character, a line or paragraph separator, a bidi
// control.
func unprintable(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}
