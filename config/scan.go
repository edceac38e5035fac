package config

import (
	"strconv"
	"strings"
)

// The TOML decoder knows where each key is but does not say: MetaData has no
// positions, and the line in its type errors is the last occurrence of a
// key path, which is wrong for every [[source]] but the last. So once the
// decoder has accepted a document, keyPositions reads it again, only to note
// where each key, table and array element starts. The document is valid
// TOML by then; still, nothing here may panic or loop on any input (the
// fuzz target checks), at worst a position is missing and the error falls
// back to its table's.

// pos is a place in the file, 1-based; the zero pos is unknown.
type pos struct{ line, col int }

// keyPositions maps the path of every key, table header and array element
// of doc (as joined by pathKey: "source[1].query") to where it starts.
func keyPositions(doc string) map[string]pos {
	s := &scanner{doc: doc, line: 1, lineStart: 0, pos: map[string]pos{}, arrays: map[string]int{}}
	s.document()
	return s.pos
}

// pathKey joins a path's parts; array elements are "name[i]" parts, which
// no bare or quoted key produces unescaped as joined here because parts are
// separated by a control character.
func pathKey(parts []string) string { return strings.Join(parts, "\x1f") }

type scanner struct {
	doc       string
	i         int
	line      int
	lineStart int
	pos       map[string]pos
	arrays    map[string]int // array of tables (as a path) → elements so far
	table     []string       // the current table's path
}

func (s *scanner) here() pos { return pos{s.line, s.i - s.lineStart + 1} }

func (s *scanner) eof() bool { return s.i >= len(s.doc) }

func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.doc[s.i]
}

// next moves one byte on, counting lines.
func (s *scanner) next() {
	if s.eof() {
		return
	}
	if s.doc[s.i] == '\n' {
		s.line++
		s.lineStart = s.i + 1
	}
	s.i++
}

func (s *scanner) note(parts []string, p pos) {
	// Bounded: an element of an array is noted under its whole path, so a
	// long key over a long array cost their product (a file of 60 KB took
	// 421 MB). No key of the format is this long, nor a real file this
	// many keys; past them a position is missing, and an error falls back
	// to its table's.
	if pathLen(parts) > maxNotedKey || len(s.pos) >= maxNoted {
		return
	}
	k := pathKey(parts)
	if _, ok := s.pos[k]; !ok {
		s.pos[k] = p
	}
}

// pathLen is the length of the key pathKey makes of parts.
func pathLen(parts []string) int {
	n := len(parts) - 1
	for _, part := range parts {
		n += len(part)
	}
	return n
}

// The bounds of what keyPositions notes: the length of a path, and how
// many paths.
const (
	maxNotedKey = 512
	maxNoted    = 1 << 16
)

// skipSpace skips blanks and comments, and newlines too when nl.
func (s *scanner) skipSpace(nl bool) {
	for !s.eof() {
		switch c := s.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			s.next()
		case c == '\n' && nl:
			s.next()
		case c == '#':
			for !s.eof() && s.peek() != '\n' {
				s.next()
			}
		default:
			return
		}
	}
}

func (s *scanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.next()
	}
}

func (s *scanner) document() {
	for {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		start := s.i
		if s.peek() == '[' {
			s.header()
		} else {
			s.keyValue(s.table)
		}
		if s.i == start { // not TOML after all: never loop
			s.next()
		}
		s.skipLine()
	}
}

// header reads [a.b] or [[a.b]] and makes it the current table.
func (s *scanner) header() {
	p := s.here()
	s.next()
	array := s.peek() == '['
	if array {
		s.next()
	}
	s.skipSpace(false)
	keys := s.key()
	if len(keys) == 0 {
		return
	}
	var path []string
	for i, k := range keys {
		path = append(path, k)
		n := s.arrays[pathKey(path)]
		switch {
		case array && i == len(keys)-1:
			s.arrays[pathKey(path)] = n + 1
			s.note(path, p) // the array's first element places the array
			path[len(path)-1] = k + "[" + strconv.Itoa(n) + "]"
		case n > 0: // [[group]] then [group.filter] or [[group.source]]
			path[len(path)-1] = k + "[" + strconv.Itoa(n-1) + "]"
		}
		s.note(path, p)
	}
	s.table = path
}

// key reads a dotted key (a . "b" . 'c'), leaving s after it.
func (s *scanner) key() []string {
	var parts []string
	for !s.eof() {
		s.skipSpace(false)
		var k string
		switch s.peek() {
		case '"':
			k = s.basicString()
		case '\'':
			k = s.literalString()
		default:
			start := s.i
			for !s.eof() && isBare(s.peek()) {
				s.next()
			}
			k = s.doc[start:s.i]
			if k == "" {
				return parts
			}
		}
		parts = append(parts, k)
		s.skipSpace(false)
		if s.peek() != '.' {
			return parts
		}
		s.next()
	}
	return parts
}

func isBare(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// keyValue reads key = value inside the table at path.
func (s *scanner) keyValue(table []string) {
	p := s.here()
	keys := s.key()
	if len(keys) == 0 {
		return
	}
	path := append([]string(nil), table...)
	for _, k := range keys {
		path = append(path, k)
		s.note(path, p)
	}
	s.skipSpace(false)
	if s.peek() != '=' {
		return
	}
	s.next()
	s.skipSpace(false)
	s.value(path)
}

// value skips one value, noting the keys of inline tables and the elements
// of arrays under path.
func (s *scanner) value(path []string) {
	switch s.peek() {
	case '"':
		s.basicString()
	case '\'':
		s.literalString()
	case '[':
		s.next()
		last := path[len(path)-1]
		noting := pathLen(path) <= maxNotedKey // else no element is noted: not made either
		for n := 0; !s.eof(); n++ {
			s.skipSpace(true)
			if s.peek() == ']' {
				s.next()
				return
			}
			start := s.i
			elem := path
			if noting {
				elem = append(append([]string(nil), path[:len(path)-1]...), last+"["+strconv.Itoa(n)+"]")
				s.note(elem, s.here())
			}
			s.value(elem)
			s.skipSpace(true)
			if s.peek() == ',' {
				s.next()
			} else if s.i == start {
				s.next() // never loop
			}
		}
	case '{':
		s.next()
		for !s.eof() {
			s.skipSpace(true)
			switch s.peek() {
			case '}':
				s.next()
				return
			case ',':
				s.next()
				continue
			}
			start := s.i
			s.keyValue(path)
			if s.i == start {
				s.next()
			}
		}
	default: // number, boolean, date: up to a delimiter
		for !s.eof() {
			switch s.peek() {
			case ',', ']', '}', '\n', '#':
				return
			}
			s.next()
		}
	}
}

// basicString reads "…" or """…""" and returns its text (escapes kept as
// written: only keys use it, and a key with escapes is unknown anyway).
func (s *scanner) basicString() string {
	if strings.HasPrefix(s.doc[s.i:], `"""`) {
		s.i += 3
		for !s.eof() {
			switch {
			case s.peek() == '\\':
				s.next()
				s.next()
			case strings.HasPrefix(s.doc[s.i:], `"""`):
				s.i += 3
				for s.peek() == '"' { // up to two quotes end the content
					s.next()
				}
				return ""
			default:
				s.next()
			}
		}
		return ""
	}
	s.next()
	var b strings.Builder
	for !s.eof() {
		c := s.peek()
		switch c {
		case '\\':
			s.next()
			if !s.eof() {
				b.WriteByte(s.peek())
				s.next()
			}
			continue
		case '"':
			s.next()
			return b.String()
		case '\n':
			return b.String()
		}
		b.WriteByte(c)
		s.next()
	}
	return b.String()
}

// literalString reads a literal string: one quote, or three (multi-line).
func (s *scanner) literalString() string {
	if strings.HasPrefix(s.doc[s.i:], "'''") {
		s.i += 3
		end := strings.Index(s.doc[s.i:], "'''")
		if end < 0 {
			end = len(s.doc) - s.i
		}
		for stop := s.i + end; s.i < stop; {
			s.next()
		}
		s.i = min(s.i+3, len(s.doc))
		for s.peek() == '\'' {
			s.next()
		}
		return ""
	}
	s.next()
	start := s.i
	for !s.eof() && s.peek() != '\'' && s.peek() != '\n' {
		s.next()
	}
	k := s.doc[start:s.i]
	if s.peek() == '\'' {
		s.next()
	}
	return k
}
