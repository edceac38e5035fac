// Package source reads the inputs of a sitemap set: streams of
// [sitemap.URL] from what a site has: URL lists, CSV and JSONL files
// ([Open], [New]), a static site's build folder ([OpenStatic]), a database
// query ([OpenSQL]), access logs ([OpenLog], [NewLog]) and existing
// sitemaps ([OpenSitemaps]); a [Filter] ([NewFilter]) gives the URLs of
// any of them their one canonical spelling, then chooses and cleans them.
//
// Every source reads its input in one pass with constant memory (a log
// keeps 64-bit hashes of the pages it has given, to give each once), and
// returns one URL at a time from Read, or all of them from All as an
// iter.Seq2 that package publish consumes. A source only gives what its input
// says: no lastmod, changefreq or priority is ever made up (a visit in a
// log is not a change; a build folder's mtime is the build's time, so the
// folder's lastmod comes from git unless asked otherwise). The sections
// below describe the file formats; each other source's doc comment
// describes it. Gzipped input is recognised
// by its magic bytes and read transparently, whatever its name; a UTF-8
// byte order mark at the start is skipped; lines may end in "\n" or "\r\n",
// or in "\r" alone in a file whose first 4 KiB end lines so.
//
// # Text
//
// One URL per line; a "\r" alone ends one too, anywhere. Blank lines and
// lines starting with '#' are skipped;
// spaces around a URL are trimmed.
//
//	# products
//	https://www.example.com/products/1
//	https://www.example.com/products/2
//
// # CSV
//
// RFC 4180, with a header row naming the columns. loc is required; lastmod,
// changefreq and priority are optional; image may be repeated, one image
// per non-empty cell; alternate:<hreflang> columns hold hreflang
// alternates (alternate:de-DE, alternate:x-default). The columns images,
// alternates, videos and news hold the JSON values of JSONL's fields of
// those names (an image may be a bare URL), added to what image and
// alternate:<hreflang> cells hold; an empty cell holds nothing. A sitemap
// column (the file `sitemapkit read` found the URL in) is accepted and
// ignored. Any other column is an error: a misspelt header must not
// silently drop data. [AppendCSV] writes rows that read back as the
// entries they were written from (see it for the exceptions),
// [AppendJSONL] and [AppendText] lines.
// A content_hash (or etag) column is the row's own word on whether its
// page changed: not a field of the URL, but its fingerprint (see
// Fingerprinter), which a change tracker compares instead of the row's
// fields, so that a lastmod that moves while the hash does not is not a
// change. JSONL records and SQL rows take the same field.
//
//	loc,lastmod,priority,image,image,alternate:de-DE
//	https://www.example.com/p/1,2024-05-01,0.8,https://www.example.com/1.jpg,,https://www.example.com/de/p/1
//
//	loc,lastmod,images,alternates
//	https://www.example.com/p/2,2024-05-01,"[""https://www.example.com/2.jpg""]","[{""hreflang"":""de"",""href"":""https://www.example.com/de/p/2""}]"
//
// # JSONL
//
// One JSON object per line, with the field names of [sitemap.URL] (loc,
// lastmod, changefreq, priority, images, videos, news, alternates) and of
// the types it holds. A number is accepted wherever the field is a string
// ("priority": 0.8, "duration": 600; a duration or view count of 600.0 is
// 600, as the schema wants a whole number). The "sitemap" field that
// `sitemapkit read` adds is accepted and ignored, so read's output is
// input here as it is. Any other field is an error.
//
//	{"loc":"https://www.example.com/a","lastmod":"2024-05-01","priority":0.8,"images":[{"loc":"https://www.example.com/a.jpg"}]}
//
// # Errors
//
// A record that cannot be read is a *[ParseError] with its file, line and
// column (a page of a folder, a row of a query); the reader goes on with
// the next record. [Place] names where any source's last record came from,
// for messages about a URL that was read but refused later. An error that ends the
// stream (I/O, damaged gzip, a bad CSV header, a line longer than
// [MaxLineBytes]) is also returned by Err once the stream is over.
package source

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Source is a stream of URLs read from one input.
type Source interface {
	// Read returns the next URL. At the end of the input it returns io.EOF.
	// For a record it cannot read it returns a *ParseError, and the next
	// call goes on with the next record. For an error that ends the stream
	// it returns that error, on this and every later call, and Err reports it.
	Read() (sitemap.URL, error)
	// All returns every URL, and every error Read returns, in order; it
	// stops after an error that ends the stream.
	All() iter.Seq2[sitemap.URL, error]
	// Name is the input's name, used in errors (a file name, or "stdin").
	Name() string
	// Line is the line on which the URL (or error) Read last returned starts.
	Line() int
	// Err returns the error that ended the stream, or nil while the stream
	// is readable or after a clean end.
	Err() error
}

// Format is an input format.
type Format string

// The input formats. FormatAuto guesses from the content: an object on the
// first line is JSONL, a first line with a loc column is CSV, anything
// else is text. Blank lines before it are skipped.
const (
	FormatAuto  Format = ""
	FormatText  Format = "txt"
	FormatCSV   Format = "csv"
	FormatJSONL Format = "jsonl"
)

// MaxLineBytes is the longest line (or CSV record) a reader accepts. A longer
// one ends the stream with ErrLineTooLong: it is not a list of URLs.
const MaxLineBytes = 16 << 20

// Errors a ParseError wraps.
var (
	ErrUnknownFormat = errors.New("unknown input format")
	ErrHeader        = errors.New("bad CSV header")
	ErrFieldCount    = errors.New("wrong number of fields")
	ErrQuote         = errors.New(`extraneous or missing " in quoted field`)
	ErrBareQuote     = errors.New(`bare " in non-quoted field`)
	ErrUnknownField  = errors.New("unknown field")
	ErrMissingLoc    = errors.New("missing loc")
	ErrJSON          = errors.New("invalid JSON")
	ErrLineTooLong   = errors.New("line too long")
	ErrGzip          = errors.New("damaged gzip input")
	ErrTooMany       = errors.New("too many values") // past a record's bounds (see docs/limits.md)
)

// A ParseError is a record that cannot be read, with its place. Line and
// Column are 1-based; Column counts bytes and is 0 when unknown.
type ParseError struct {
	File   string
	Line   int
	Column int
	// Loc is the URL of the record that could not be read, when the
	// source knows it (a page of a static folder): a change tracker keeps
	// its previous entry rather than dropping it.
	Loc string
	Err error
}

// Error returns "file:line:column: message", leaving out what is unknown.
func (e *ParseError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteByte(':')
		if e.Column > 0 {
			b.WriteString(strconv.Itoa(e.Column))
			b.WriteByte(':')
		}
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns Err, for errors.Is and errors.As.
func (e *ParseError) Unwrap() error { return e.Err }

// ParseFormat returns the Format named s: "txt" (or "text"), "csv",
// "jsonl" (or "ndjson"), or "" and "auto" for FormatAuto.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormatAuto, nil
	case "txt", "text":
		return FormatText, nil
	case "csv":
		return FormatCSV, nil
	case "jsonl", "ndjson":
		return FormatJSONL, nil
	}
	return FormatAuto, fmt.Errorf("%w %q (want txt, csv or jsonl)", ErrUnknownFormat, s)
}

// FormatOf returns the format a file name's extension names: .txt, .csv,
// .jsonl (or .ndjson), each optionally followed by .gz.
func FormatOf(name string) (Format, error) {
	ext := strings.ToLower(filepath.Ext(name))
	if ext == ".gz" {
		ext = strings.ToLower(filepath.Ext(strings.TrimSuffix(name, filepath.Ext(name))))
	}
	switch ext {
	case ".txt":
		return FormatText, nil
	case ".csv":
		return FormatCSV, nil
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	}
	return FormatAuto, fmt.Errorf("%s: %w: the name does not end in .txt, .csv, .jsonl or .ndjson (optionally .gz)", name, ErrUnknownFormat)
}

// New returns a Source reading r in format f (a URL list, CSV or JSON Lines,
// as the package documentation describes them); name is used in errors.
// With FormatAuto it reads the first line to choose the format.
func New(r io.Reader, name string, f Format) Source {
	return NewEncoded(r, name, f, UTF8)
}

// NewEncoded is New for an input in the encoding e.
func NewEncoded(r io.Reader, name string, f Format, e Encoding) Source {
	lr := newLineReader(r)
	lr.dec = e.decoder()
	if f == FormatAuto {
		f = sniff(lr)
	}
	switch f {
	case FormatCSV:
		return newCSV(lr, name)
	case FormatJSONL:
		return newJSONL(lr, name)
	default:
		return newText(lr, name)
	}
}

// File is a Source reading a file opened by Open.
type File struct {
	Source
	f *os.File
}

// Unwrap returns the Source reading the file: its fingerprints (see
// FingerprintOf) are the File's.
func (f *File) Unwrap() Source { return f.Source }

// Close closes the file (not os.Stdin).
func (f *File) Close() error {
	if f.f == nil || f.f == os.Stdin {
		return nil
	}
	return f.f.Close()
}

// Open opens the file at path ("-" for the standard input, named "stdin")
// as a Source of format f; with FormatAuto, the format comes from the
// file's extension (see FormatOf), or from the content for "-".
func Open(path string, f Format) (*File, error) {
	return OpenEncoded(path, f, UTF8)
}

// OpenEncoded is Open for a file in the encoding e.
func OpenEncoded(path string, f Format, e Encoding) (*File, error) {
	if path == "-" {
		return &File{Source: NewEncoded(os.Stdin, "stdin", f, e), f: os.Stdin}, nil
	}
	if f == FormatAuto {
		var err error
		if f, err = FormatOf(path); err != nil {
			return nil, err
		}
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &File{Source: NewEncoded(fh, path, f, e), f: fh}, nil
}

// sniff guesses the format from the first non-blank line without consuming it.
func sniff(lr *lineReader) Format {
	line := strings.TrimSpace(lr.peekLine())
	if strings.HasPrefix(line, "{") {
		return FormatJSONL
	}
	// A header of one column (no comma) too: no URL reads "loc".
	for _, name := range strings.Split(line, ",") {
		if strings.EqualFold(strings.Trim(strings.TrimSpace(name), `"`), "loc") {
			return FormatCSV
		}
	}
	return FormatText
}

// reader is what every reader implements for all.
type reader interface {
	Read() (sitemap.URL, error)
	Err() error
}

// all turns a reader's Read into an iterator that stops after an error
// that ends the stream.
func all(r reader) iter.Seq2[sitemap.URL, error] {
	return func(yield func(sitemap.URL, error) bool) {
		for {
			u, err := r.Read()
			if err == io.EOF {
				return
			}
			if !yield(u, err) || (err != nil && r.Err() != nil) {
				return
			}
		}
	}
}

// Compile-time checks that every reader is a Source.
var (
	_ Source = (*textSource)(nil)
	_ Source = (*csvSource)(nil)
	_ Source = (*jsonlSource)(nil)
	_ Source = (*File)(nil)
)

// ErrEncoding is the error of a line that is not UTF-8: read as it is, a
// Latin-1 "café" would become the URL caf%E9, which no UTF-8 site serves.
// A legacy file is read with its Encoding instead.
var ErrEncoding = errors.New("not UTF-8")

// An Encoding is the character encoding of a text input (txt, CSV,
// JSONL). Inputs are UTF-8, and a line that is not is refused
// (ErrEncoding); a legacy file is read in its encoding instead, each line
// converted to UTF-8. Which bytes a URL then gets is the URL encoding's
// business (loc.Latin1), not the file's.
type Encoding int

// The encodings of text inputs.
const (
	UTF8        Encoding = iota
	Latin1               // ISO-8859-1
	Windows1252          // Windows' Western European code page: Latin-1 but for € and curly quotes… at 0x80–0x9F
)

var encodingNames = [...]string{"utf-8", "latin1", "windows-1252"}

// String returns "utf-8", "latin1" or "windows-1252".
func (e Encoding) String() string {
	if e < 0 || int(e) >= len(encodingNames) {
		return fmt.Sprintf("encoding(%d)", int(e))
	}
	return encodingNames[e]
}

// ParseEncoding returns the Encoding named s: utf-8 (or ""), latin1
// (iso-8859-1) or windows-1252 (cp1252), in any case.
func ParseEncoding(s string) (Encoding, error) {
	switch strings.ToLower(s) {
	case "", "utf-8", "utf8":
		return UTF8, nil
	case "latin1", "latin-1", "iso-8859-1", "iso8859-1":
		return Latin1, nil
	case "windows-1252", "cp1252":
		return Windows1252, nil
	}
	return UTF8, fmt.Errorf("unknown encoding %q (want utf-8, latin1 or windows-1252)", s)
}

// decoder returns the conversion of a line to UTF-8; nil for UTF-8.
func (e Encoding) decoder() func(string) string {
	var cm *charmap.Charmap
	switch e {
	case Latin1:
		cm = charmap.ISO8859_1
	case Windows1252:
		cm = charmap.Windows1252
	default:
		return nil
	}
	var table [256]rune
	for i := range table {
		table[i] = cm.DecodeByte(byte(i))
		if table[i] == utf8.RuneError {
			// The five bytes Windows-1252 leaves undefined (0x81, 0x8D,
			// 0x8F, 0x90, 0x9D) are the C1 controls of the same number,
			// as WHATWG's decoder (every browser's) reads them: distinct
			// bytes stay distinct.
			table[i] = rune(i)
		}
	}
	return func(line string) string {
		i := 0
		for i < len(line) && line[i] < utf8.RuneSelf {
			i++
		}
		if i == len(line) {
			return line
		}
		b := make([]byte, i, len(line)+len(line)/2)
		copy(b, line)
		for ; i < len(line); i++ {
			b = utf8.AppendRune(b, table[line[i]])
		}
		return string(b)
	}
}

// checkUTF8 returns a *ParseError placing the first byte of line that is
// not UTF-8, or nil.
func checkUTF8(name string, line int, s string) error {
	if utf8.ValidString(s) {
		return nil
	}
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		i += n
	}
	return &ParseError{File: name, Line: line, Column: i + 1,
		Err: fmt.Errorf("%w: byte 0x%02X; the file is probably Latin-1 or Windows-1252: read it as such (generate --input-encoding latin1, or the source's encoding key) or convert it (iconv -f latin1 -t utf-8 FILE)", ErrEncoding, s[i])}
}
