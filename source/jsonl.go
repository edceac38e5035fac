package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"reflect"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// jsonlSource reads URLs from JSON Lines: one object per line with the JSON
// field names of sitemap.URL; see the package documentation.
type jsonlSource struct {
	lr   *lineReader
	name string
	line int
	err  error
	buf  []byte
}

func newJSONL(lr *lineReader, name string) *jsonlSource { return &jsonlSource{lr: lr, name: name} }

// Read returns the next URL, with the contract of Source.Read.
func (j *jsonlSource) Read() (sitemap.URL, error) {
	if j.err != nil {
		return sitemap.URL{}, j.err
	}
	for {
		line, ok := j.lr.next()
		if !ok {
			j.err = endError(j.lr, j.name)
			return sitemap.URL{}, j.err
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		j.line = j.lr.line
		return j.decode(line)
	}
}

func (j *jsonlSource) decode(line string) (sitemap.URL, error) {
	var rewritten bool
	j.buf, rewritten = quoteNumbers(j.buf[:0], line)
	dec := json.NewDecoder(bytes.NewReader(j.buf))
	dec.DisallowUnknownFields()
	var rec jsonlRecord
	err := dec.Decode(&rec)
	u := rec.URL
	if err == nil {
		if off := dec.InputOffset(); len(bytes.TrimSpace(j.buf[off:])) > 0 {
			col := 0
			if !rewritten {
				col = int(off) + 1 + len(j.buf[off:]) - len(bytes.TrimLeft(j.buf[off:], " \t\r"))
			}
			return sitemap.URL{}, j.fail(col, fmt.Errorf("%w: more than one value on the line", ErrJSON))
		}
		if u.Loc == "" {
			return sitemap.URL{}, j.fail(0, fmt.Errorf("%w: an object needs \"loc\"", ErrMissingLoc))
		}
		return u, nil
	}
	var (
		se *json.SyntaxError
		te *json.UnmarshalTypeError
	)
	col := 0
	switch {
	case errors.As(err, &se):
		if !rewritten {
			col = int(se.Offset)
		}
		err = fmt.Errorf("%w: %s", ErrJSON, strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &te):
		if !rewritten {
			col = int(te.Offset)
		}
		if te.Field == "" {
			err = fmt.Errorf("%w: the line is a JSON %s, want an object", ErrJSON, te.Value)
		} else {
			// The URL is embedded in jsonlRecord: its fields' paths start "URL.".
			field := strings.TrimPrefix(te.Field, "URL.")
			err = fmt.Errorf("%w: field %q is a JSON %s, want %s", ErrJSON, field, te.Value, kindName(te.Type))
		}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		if i := strings.Index(line, name); i >= 0 {
			col = i + 1
		}
		if uq, e := strconv.Unquote(name); e == nil {
			name = uq
		}
		err = fmt.Errorf("%w %q", ErrUnknownField, name)
	case err == io.ErrUnexpectedEOF:
		err = fmt.Errorf("%w: unexpected end of line", ErrJSON)
	default:
		err = fmt.Errorf("%w: %s", ErrJSON, strings.TrimPrefix(err.Error(), "json: "))
	}
	return sitemap.URL{}, j.fail(col, err)
}

// jsonlRecord is one line of JSONL input: a URL, and the "sitemap" field
// that `sitemapkit read` adds to say where it found the URL, accepted so
// that read's output feeds generate as it is, and otherwise ignored.
type jsonlRecord struct {
	sitemap.URL
	Sitemap string `json:"sitemap"`
}

func (j *jsonlSource) fail(col int, err error) error {
	return &ParseError{File: j.name, Line: j.line, Column: col, Err: err}
}

func kindName(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string or number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Pointer, reflect.Map:
		return "an object"
	}
	return t.Kind().String()
}

// quoteNumbers appends line to dst with every JSON number outside strings
// turned into a string ("priority": 0.8 becomes "priority": "0.8"): every
// field of sitemap.URL is a string, so a number is welcome anywhere a value
// is. It reports whether it changed anything.
func quoteNumbers(dst []byte, line string) ([]byte, bool) {
	changed := false
	inStr := false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		if inStr {
			switch ch {
			case '\\':
				if i+1 < len(line) {
					dst = append(dst, ch)
					i++
					ch = line[i]
				}
			case '"':
				inStr = false
			}
			dst = append(dst, ch)
			continue
		}
		switch {
		case ch == '"':
			inStr = true
		case ch == '-' || ch >= '0' && ch <= '9':
			k := i + 1
			for k < len(line) && isNumberByte(line[k]) {
				k++
			}
			if !validNumber(line[i:k]) {
				// Left as it is, for encoding/json to report.
				dst = append(dst, line[i:k]...)
			} else {
				dst = append(dst, '"')
				dst = append(dst, line[i:k]...)
				dst = append(dst, '"')
				changed = true
			}
			i = k - 1
			continue
		}
		dst = append(dst, ch)
	}
	return dst, changed
}

// validNumber reports whether s is a number in JSON's grammar.
func validNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// All returns every URL; see Source.All.
func (j *jsonlSource) All() iter.Seq2[sitemap.URL, error] { return all(j) }

// Name returns the input's name.
func (j *jsonlSource) Name() string { return j.name }

// Line returns the line of the URL Read last returned.
func (j *jsonlSource) Line() int { return j.line }

// Err returns the error that ended the stream, or nil.
func (j *jsonlSource) Err() error {
	if j.err == io.EOF {
		return nil
	}
	return j.err
}
