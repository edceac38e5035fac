package source

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrTemplate is a loc template that cannot be parsed or whose columns the
// query does not return.
var ErrTemplate = errors.New("bad loc template")

// locTemplate builds a loc from a row's columns: literal text and
// expressions, {name} (the value escaped as one path segment) or {+name}
// (RFC 6570 reserved expansion: "/" and the other reserved characters kept).
type locTemplate struct {
	src   string
	parts []tmplPart
}

type tmplPart struct {
	lit      string // literal text, when name is ""
	name     string // column name as written
	reserved bool   // {+name}
	col      int    // index of the column in the result, set by bind
}

// parseLocTemplate parses s. Braces are always expressions: a "{" without
// its "}", a lone "}" or an empty name is an error, since a URL never holds
// a brace unescaped.
func parseLocTemplate(s string) (*locTemplate, error) {
	t := &locTemplate{src: s}
	rest := s
	for rest != "" {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			t.parts = append(t.parts, tmplPart{lit: rest})
			break
		}
		at := len(s) - len(rest) + open + 1 // 1-based byte offset in s
		if rest[open] == '}' {
			return nil, fmt.Errorf("%w %q: \"}\" at byte %d closes no \"{\"", ErrTemplate, s, at)
		}
		if open > 0 {
			t.parts = append(t.parts, tmplPart{lit: rest[:open]})
		}
		rest = rest[open+1:]
		end := strings.IndexAny(rest, "{}")
		if end < 0 || rest[end] == '{' {
			return nil, fmt.Errorf("%w %q: \"{\" at byte %d is not closed", ErrTemplate, s, at)
		}
		p := tmplPart{name: rest[:end]}
		if strings.HasPrefix(p.name, "+") {
			p.reserved = true
			p.name = p.name[1:]
		}
		p.name = strings.TrimSpace(p.name)
		if p.name == "" {
			return nil, fmt.Errorf("%w %q: empty expression at byte %d (want {column} or {+column})", ErrTemplate, s, at)
		}
		t.parts = append(t.parts, p)
		rest = rest[end+1:]
	}
	return t, nil
}

// bind finds each expression's column among names (case-insensitive). It
// reports the first name that is not there, or is there twice.
func (t *locTemplate) bind(names []string) error {
	for i := range t.parts {
		p := &t.parts[i]
		if p.name == "" {
			continue
		}
		p.col = -1
		for j, n := range names {
			if !strings.EqualFold(n, p.name) {
				continue
			}
			if p.col >= 0 {
				return fmt.Errorf("%w %q: column %q appears twice in the result", ErrTemplate, t.src, p.name)
			}
			p.col = j
		}
		if p.col < 0 {
			return fmt.Errorf("%w %q: no column %q in the result (columns: %s)", ErrTemplate, t.src, p.name, strings.Join(names, ", "))
		}
	}
	return nil
}

// uses reports whether an expression reads column i.
func (t *locTemplate) uses(i int) bool {
	for _, p := range t.parts {
		if p.name != "" && p.col == i {
			return true
		}
	}
	return false
}

// appendExpand appends the template expanded with value(i), column i's
// text, to dst.
func (t *locTemplate) appendExpand(dst []byte, value func(col int) string) []byte {
	for _, p := range t.parts {
		switch {
		case p.name == "":
			dst = append(dst, p.lit...)
		case p.reserved:
			dst = appendReserved(dst, value(p.col))
		default:
			dst = append(dst, url.PathEscape(value(p.col))...)
		}
	}
	return dst
}

// appendReserved appends s percent-encoded as RFC 6570 reserved expansion
// does: unreserved and reserved characters, and %XX triplets already in s,
// are kept; every other byte (space, controls, non-ASCII, "%" not starting
// a triplet, and " < > \ ^ ` { | }) is encoded.
func appendReserved(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && strings.IndexByte(hexDigits, s[i+1]) >= 0 && strings.IndexByte(hexDigits, s[i+2]) >= 0:
			dst = append(dst, s[i:i+3]...)
			i += 2
		case keptReserved(c):
			dst = append(dst, c)
		default:
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		}
	}
	return dst
}

// keptReserved reports whether c is an RFC 3986 unreserved or reserved
// character.
func keptReserved(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0
}

const hexDigits = "0123456789abcdefABCDEF"
