package source

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// jsonlSource reads URLs from JSON Lines: one object per line with the JSON
// field names of sitemap.URL; see the package documentation.
type jsonlSource struct {
	lr    *lineReader
	name  string
	line  int
	err   error
	buf   []byte
	print contentHash
}

// Fingerprint returns the fingerprint of the record last read's
// content_hash (or etag) field, when it has one.
func (j *jsonlSource) Fingerprint() (uint64, bool) { return j.print.get() }

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
		if err := checkUTF8(j.name, j.line, line); err != nil {
			return sitemap.URL{}, err
		}
		return j.decode(line)
	}
}

func (j *jsonlSource) decode(line string) (sitemap.URL, error) {
	var rewritten bool
	var err error
	if j.buf, rewritten, err = quoteNumbers(j.buf[:0], line); err != nil {
		col := 0
		if rk, ok := errors.AsType[*repeatedKeyError](err); ok {
			col = rk.off + 1
		}
		return sitemap.URL{}, j.fail(col, err)
	}
	dec := json.NewDecoder(bytes.NewReader(j.buf))
	dec.DisallowUnknownFields()
	var rec jsonlRecord
	err = dec.Decode(&rec)
	u := rec.URL
	u.Images, u.Videos, u.Alternates = rec.Images, rec.Videos, rec.Alternates
	j.print = contentHash{}
	j.print.set(cmp.Or(rec.ContentHash, rec.ETag))
	if err == nil {
		if off := dec.InputOffset(); len(bytes.TrimSpace(j.buf[off:])) > 0 {
			col := int(off) + 1 + len(j.buf[off:]) - len(bytes.TrimLeft(j.buf[off:], " \t\r"))
			if rewritten {
				col = lineColumn(line, col)
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
		le *listError
	)
	col := 0
	switch {
	case errors.As(err, &le):
		// A list's, worded already (decodeList).
		col = valueColumn(line, le.field)
	case errors.As(err, &se):
		if col = int(se.Offset); rewritten {
			col = lineColumn(line, col)
		}
		err = fmt.Errorf("%w: %s", ErrJSON, strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &te):
		if col = int(te.Offset); rewritten {
			col = lineColumn(line, col)
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
		col = keyColumn(line, name)
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
	// The lists shadow the URL's: decoded as the JSON columns of CSV
	// and SQL are, an element at a time and no more than maxCellItems,
	// so that a hostile line holds no more memory than its copies
	// (decoded whole, a line of 15 MB took 580 MB).
	Images     imageList     `json:"images"`
	Videos     videoList     `json:"videos"`
	Alternates alternateList `json:"alternates"`
	Sitemap    string        `json:"sitemap"`
	// ContentHash and ETag: the record's fingerprint, when the export
	// has one (see Fingerprinter); either, not a field of the URL.
	ContentHash string `json:"content_hash"`
	ETag        string `json:"etag"`
}

// A JSONL record's lists (see jsonlRecord).
type (
	imageList     []sitemap.Image
	videoList     []sitemap.Video
	alternateList []sitemap.Alternate
)

func (l *imageList) UnmarshalJSON(b []byte) error {
	u, err := decodeList(b, colImages, "images")
	*l = u.Images
	return err
}

func (l *videoList) UnmarshalJSON(b []byte) error {
	u, err := decodeList(b, colVideos, "videos")
	*l = u.Videos
	return err
}

func (l *alternateList) UnmarshalJSON(b []byte) error {
	u, err := decodeList(b, colAlternates, "alternates")
	*l = u.Alternates
	return err
}

// decodeList decodes b, the JSON array of a record's field name, as the
// column of kind k does, into the URL it returns.
func decodeList(b []byte, k colKind, name string) (sitemap.URL, error) {
	var u sitemap.URL
	var buf []byte
	if err := (&column{kind: k}).setJSON(&u, string(b), &buf); err != nil {
		return u, &listError{field: name, err: err}
	}
	return u, nil
}

// A listError is the error of a record's list, worded by setJSON.
type listError struct {
	field string
	err   error
}

func (e *listError) Error() string { return fmt.Sprintf("field %q: %v", e.field, e.err) }
func (e *listError) Unwrap() error { return e.err }

// keyColumn returns the 1-based column of quoted, a key as JSON writes
// it, where it is a key (followed by a colon) on line: the same text as
// an earlier value is not it. 0 if it cannot tell.
func keyColumn(line, quoted string) int {
	for off := 0; ; {
		i := strings.Index(line[off:], quoted)
		if i < 0 {
			return 0
		}
		at := off + i
		if rest := strings.TrimLeft(line[at+len(quoted):], " \t"); strings.HasPrefix(rest, ":") {
			return at + 1
		}
		off = at + 1
	}
}

// valueColumn returns the 1-based column of the value of the object's
// field name on line, or 0 if it cannot tell.
func valueColumn(line, name string) int {
	q := strconv.Quote(name)
	k := keyColumn(line, q)
	if k == 0 {
		return 0
	}
	rest := strings.TrimLeft(line[k-1+len(q):], " \t") // ":" and the value
	rest = strings.TrimLeft(rest[1:], " \t")
	return len(line) - len(rest) + 1
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
// is. It reports whether it changed anything. On the way it refuses, before
// the line is decoded:
//   - more than maxJSONValues commas outside strings (about as many
//     values): errTooManyValues;
//   - a key given twice in one object, or in two spellings of one name
//     ("loc" and "LOC"): a *repeatedKeyError. encoding/json matches keys
//     without regard to case and keeps the last, where other parsers keep
//     the first or refuse the object: what another tool saw in the line
//     would not be what was published;
//   - more than maxObjectKeys keys in one object (no record has a tenth
//     of them): errTooManyKeys, so that looking for repeats stays cheap.
//
// Objects nested deeper than maxKeyDepth are not looked into: no record
// nests half as deep, and encoding/json refuses what is not a record.
func quoteNumbers(dst []byte, line string) ([]byte, bool, error) {
	changed := false
	inStr := false
	commas := 0
	strAt, strEnd := 0, 0      // the last string, quotes included
	quote, backslash := -1, -1 // the next of each in a string (see indexFrom)
	var objBuf [maxKeyDepth]int
	objs := objBuf[:0] // per open object or array: its first key in keys; -1 for an array
	depth := 0         // open objects and arrays, tracked in objs or not
	var keyBuf [16]string
	keys := keyBuf[:0] // keys of the open objects, outermost first
	for i := 0; i < len(line); i++ {
		if inStr {
			// A string's bytes up to its quote or a backslash, at once.
			// Where the next of each is, is kept until passed: found
			// again at each escape, a string of escapes took time in
			// the square of its length (16 MiB: minutes).
			if quote < i {
				quote = indexFrom(line, i, '"')
			}
			if backslash < i {
				backslash = indexFrom(line, i, '\\')
			}
			j := min(quote, backslash)
			dst = append(dst, line[i:j]...)
			if i = j; i == len(line) {
				break
			}
			if line[i] == '\\' && i+1 < len(line) {
				dst = append(dst, line[i], line[i+1])
				i++
				continue
			}
			if line[i] == '"' {
				inStr = false
				strEnd = i + 1
			}
			dst = append(dst, line[i])
			continue
		}
		ch := line[i]
		switch {
		case ch == '"':
			inStr = true
			strAt = i
		case ch == ',':
			if commas++; commas > maxJSONValues {
				return dst, changed, errTooManyValues
			}
		case ch == '{' || ch == '[':
			if depth++; depth <= maxKeyDepth {
				first := -1
				if ch == '{' {
					first = len(keys)
				}
				objs = append(objs, first)
			}
		case ch == '}' || ch == ']':
			if depth > 0 {
				if depth <= maxKeyDepth {
					if first := objs[len(objs)-1]; first >= 0 {
						keys = keys[:first]
					}
					objs = objs[:len(objs)-1]
				}
				depth--
			}
		case ch == ':':
			if depth == 0 || depth > maxKeyDepth || objs[len(objs)-1] < 0 || strEnd <= strAt {
				break // not a key: encoding/json refuses the line
			}
			first := objs[len(objs)-1]
			if len(keys)-first == maxObjectKeys {
				return dst, changed, errTooManyKeys
			}
			key := unquoteKey(line[strAt:strEnd])
			for _, k := range keys[first:] {
				if strings.EqualFold(k, key) {
					return dst, changed, &repeatedKeyError{key: key, first: k, off: strAt}
				}
			}
			keys = append(keys, key)
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
	return dst, changed, nil
}

// lineColumn returns the 1-based column of line where the byte at col
// (1-based) of quoteNumbers's output for it came from: encoding/json
// places its errors in what it decoded, two bytes longer for each number
// quoted before, and the user reads the line. A quote added stands for the
// number's first or last byte. Errors only: it scans the line again.
func lineColumn(line string, col int) int {
	off := col - 1 // in the output
	if off < 0 {
		return col
	}
	added := 0 // bytes quoteNumbers added before line[i]
	inStr := false
	for i := 0; i < len(line); i++ {
		if i+added >= off {
			return i + 1
		}
		c := line[i]
		if inStr {
			switch {
			case c == '\\' && i+1 < len(line):
				if i+1+added >= off {
					return i + 2
				}
				i++
			case c == '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
		case c == '-' || c >= '0' && c <= '9':
			k := i + 1
			for k < len(line) && isNumberByte(line[k]) {
				k++
			}
			if validNumber(line[i:k]) {
				// '"' at i+added, the number, '"' at k+added+1.
				if off <= k+added+1 {
					return min(max(off-added-1, i), k-1) + 1
				}
				added += 2
			}
			i = k - 1
		}
	}
	return off - added + 1
}

// indexFrom returns the index of the first c in s from i on, or len(s).
func indexFrom(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}

// The bounds of quoteNumbers's look for repeated keys.
const (
	maxKeyDepth   = 16
	maxObjectKeys = 64
)

var errTooManyKeys = fmt.Errorf("%w: more than %d fields in one object", ErrTooMany, maxObjectKeys)

// A repeatedKeyError is a key an object of a JSON value gives twice.
type repeatedKeyError struct {
	key, first string
	off        int // of the second, in the text given to quoteNumbers
}

func (e *repeatedKeyError) Error() string {
	if e.key == e.first {
		return fmt.Sprintf("%v: field %q given twice", ErrJSON, e.key)
	}
	return fmt.Sprintf("%v: field %q given twice, as %q and %q (fields are matched without regard to case)", ErrJSON, e.key, e.first, e.key)
}

func (e *repeatedKeyError) Unwrap() error { return ErrJSON }

// unquoteKey returns the name a quoted JSON key spells; the key as written
// when it does not unquote (encoding/json refuses the line).
func unquoteKey(q string) string {
	if strings.IndexByte(q, '\\') < 0 {
		return q[1 : len(q)-1]
	}
	var s string
	if json.Unmarshal([]byte(q), &s) != nil {
		return q
	}
	return s
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

// AppendJSONL appends u as a line that New reads back in FormatJSONL, with
// doc, when not "", as its "sitemap" field (which the reader ignores).
func AppendJSONL(b []byte, u *sitemap.URL, doc string) []byte {
	// Written by hand, empty fields left out: encoding/json per entry
	// costs more than reading a sitemap does.
	b = append(b, `{"loc":`...)
	b = appendString(b, u.Loc)
	b = appendField(b, "lastmod", u.LastMod)
	b = appendField(b, "changefreq", u.ChangeFreq)
	b = appendField(b, "priority", u.Priority)
	if len(u.Images) > 0 {
		b = appendImagesJSON(append(b, `,"images":`...), u.Images)
	}
	if len(u.Videos) > 0 {
		// Rare and deep: encoding/json writes them, with the same tags.
		b = appendMarshal(append(b, `,"videos":`...), u.Videos)
	}
	if u.News != nil {
		b = appendMarshal(append(b, `,"news":`...), u.News)
	}
	if len(u.Alternates) > 0 {
		b = appendAlternatesJSON(append(b, `,"alternates":`...), u.Alternates)
	}
	b = appendField(b, "sitemap", doc)
	return append(b, '}', '\n')
}

// appendImagesJSON and appendAlternatesJSON append their lists as JSON
// arrays, as encoding/json would with the fields' tags.
func appendImagesJSON(b []byte, images []sitemap.Image) []byte {
	return appendArray(b, images, func(b []byte, im *sitemap.Image) []byte {
		b = appendString(append(b, `{"loc":`...), im.Loc)
		b = appendField(b, "caption", im.Caption)
		b = appendField(b, "geo_location", im.GeoLocation)
		b = appendField(b, "title", im.Title)
		b = appendField(b, "license", im.License)
		return append(b, '}')
	})
}

func appendAlternatesJSON(b []byte, alternates []sitemap.Alternate) []byte {
	return appendArray(b, alternates, func(b []byte, a *sitemap.Alternate) []byte {
		b = appendString(append(b, `{"hreflang":`...), a.Hreflang)
		b = appendString(append(b, `,"href":`...), a.Href)
		return append(b, '}')
	})
}

// appendArray appends xs as a JSON array, each element as elem writes it.
func appendArray[T any](b []byte, xs []T, elem func([]byte, *T) []byte) []byte {
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, &xs[i])
	}
	return append(b, ']')
}

func appendField(b []byte, name, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

func appendMarshal(b []byte, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil { // cannot happen: plain strings and structs
		return append(b, "null"...)
	}
	return append(b, j...)
}

const lowerHex = "0123456789abcdef"

const (
	ones = 0x0101010101010101
	high = 0x8080808080808080
)

// plain8 reports whether the 8 bytes of s need no escape in a JSON string:
// none is a control character (< 0x20), '"', '\\' or a byte of a multi-byte
// UTF-8 sequence. It tests all eight at once (the zero-byte trick of "Bit
// Twiddling Hacks": x-ones & ^x & high is nonzero iff a byte of x is 0).
func plain8(s string) bool {
	x := binary.LittleEndian.Uint64([]byte(s[:8])) // one load: the conversion is not made
	quote := x ^ (ones * '"')
	backslash := x ^ (ones * '\\')
	control := (x - ones*0x20) & ^x // high bit set where a byte < 0x20 (no high bytes, checked first)
	return x&high == 0 &&
		control&high == 0 &&
		(quote-ones) & ^quote & high == 0 &&
		(backslash-ones) & ^backslash & high == 0
}

// safe[c] is true for the ASCII bytes a JSON string holds as they are.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

// appendString appends s as a JSON string, as encoding/json would
// (invalid UTF-8 becomes U+FFFD, U+2028 and U+2029 are escaped) except
// that <, > and & are kept, the output not being for HTML, and that the
// C1 controls are escaped too, as the C0 ones are, the output being for
// terminals.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Skip eight plain bytes at a time: nearly every byte of a URL or
		// a date needs no escape, and this loop runs for every field.
		for i+8 <= len(s) && plain8(s[i:i+8]) {
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', lowerHex[c>>4], lowerHex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', lowerHex[r&0xf])
			i += size
			start = i
			continue
		}
		if r <= 0x9f {
			// A C1 control (U+0080 to U+009F): raw, U+009B is a
			// terminal's CSI, and a hostile loc read from a sitemap
			// would drive the terminal that read prints to.
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '0', '0', lowerHex[r>>4], lowerHex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
