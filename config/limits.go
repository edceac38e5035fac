package config

import (
	"fmt"
	"io"
	"os"
)

// Caps on a config file's shape, checked before the TOML decoder sees it.
// A config file is a few kilobytes written by hand; these leave it a
// thousand times the room it needs, and keep a hostile or broken file from
// costing more than a glance:
//
// The decoder (github.com/BurntSushi/toml v1.6.0) spends time and memory
// that grow with the square of some shapes. A key of n dotted parts
// ("a.a.a…a = 1") creates n nested tables and, for each, copies the key
// path so far (parser.go, the context slice cloned per part): O(n²) bytes,
// 20,000 parts in 40 KB took gigabytes. Inline tables nested n deep
// ("{a = {a = …}}") recurse once per level and copy the context likewise;
// arrays nested n deep recurse per level in the lexer and the parser. Our
// own position scanner named each array element by its full path, also
// O(n²) in the depth. Capping depth and key parts bounds all of them.
const (
	// maxFileBytes caps a config file's size.
	maxFileBytes = 1 << 20
	// maxNesting caps arrays and inline tables nested in one another (a
	// table header's brackets count too).
	maxNesting = 32
	// maxKeyParts caps the parts of one dotted key or table header.
	maxKeyParts = 32
)

// readCapped reads r up to maxFileBytes, failing past it without reading
// the rest.
func readCapped(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("config: reading %s: %w", name, err)
	}
	if len(data) > maxFileBytes {
		return nil, &Error{File: name, Msg: fmt.Sprintf("larger than %d KiB: a config file may be at most %d bytes", maxFileBytes>>10, maxFileBytes)}
	}
	return data, nil
}

// loadCapped is readCapped on the file at path.
func loadCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	return readCapped(f, path)
}

// checkShape finds the first place where doc nests arrays or inline
// tables deeper than maxNesting, or writes a key of more than maxKeyParts
// parts. It reads TOML's lexical structure only (strings, comments,
// brackets, key positions), in one pass and constant memory besides the
// bracket stack, so a malformed file is left to the decoder's own error.
func checkShape(doc []byte, name string) error {
	var (
		stack          []byte // open '[' and '{'
		line, lineFrom = 1, 0
		inKey          = true // at a key: line start (outside arrays), after '{' or ',' in an inline table
		parts          = 1
	)
	fail := func(i int, format string, args ...any) error {
		return &Error{File: name, Line: line, Col: i - lineFrom + 1, Msg: fmt.Sprintf(format, args...)}
	}
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch c {
		case '\n':
			line, lineFrom = line+1, i+1
			if len(stack) == 0 {
				inKey, parts = true, 1
			}
		case '#':
			for i+1 < len(doc) && doc[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			i = skipString(doc, i, &line, &lineFrom)
		case '[', '{':
			if len(stack) == maxNesting {
				return fail(i, "nested more than %d deep: arrays and inline tables may nest at most %d levels", maxNesting, maxNesting)
			}
			stack = append(stack, c)
			if c == '{' {
				inKey, parts = true, 1
			}
		case ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if len(stack) > 0 && stack[len(stack)-1] == '{' {
				inKey, parts = true, 1
			}
		case '=':
			inKey = false
		case '.':
			if inKey {
				if parts++; parts > maxKeyParts {
					return fail(i, "a key of more than %d dotted parts: a key may have at most %d", maxKeyParts, maxKeyParts)
				}
			}
		}
	}
	return nil
}

// skipString returns the index of the last byte of the string (basic or
// literal, one-line or multi-line) that opens at doc[i], counting its
// newlines; the end of doc when it never closes.
func skipString(doc []byte, i int, line, lineFrom *int) int {
	q := doc[i]
	multi := i+2 < len(doc) && doc[i+1] == q && doc[i+2] == q
	if multi {
		i += 2
	}
	for i++; i < len(doc); i++ {
		switch c := doc[i]; {
		case c == '\\' && q == '"':
			i++
			if i < len(doc) && doc[i] == '\n' {
				*line, *lineFrom = *line+1, i+1
			}
		case c == '\n':
			*line, *lineFrom = *line+1, i+1
			if !multi {
				return i - 1 // an unclosed one-line string: the decoder says so
			}
		case c == q && !multi:
			return i
		case c == q:
			// A multi-line string ends at the last three of a run of
			// quotes: """a""""" holds a"".
			k := 1
			for i+k < len(doc) && doc[i+k] == q && k < 5 {
				k++
			}
			if k >= 3 {
				return i + k - 1
			}
			i += k - 1
		}
	}
	return len(doc)
}
