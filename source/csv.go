package source

import (
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/sitemapkit/sitemapkit/fingerprint"
	"github.com/sitemapkit/sitemapkit/internal/nearest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// csvSource reads URLs from CSV (RFC 4180) with a header row; see the
// package documentation for the columns.
type csvSource struct {
	lr     *lineReader
	name   string
	line   int
	err    error
	cols   []column
	locAt  int // cols[locAt] is the loc
	header bool
	print  contentHash

	// Scratch space of the quoted-field path.
	rec    []byte
	ends   []int
	cols1  []int // the column each field of the record starts at
	lines1 []int // and the line
	fields []string
	json   []byte   // scratch space of the JSON columns
	names  []string // the header's names, for errors
}

type colKind uint8

const (
	colLoc colKind = iota
	colLastMod
	colChangeFreq
	colPriority
	colImage
	colAlternate
	colContentHash // content_hash or etag: the record's fingerprint, not a field of the URL
	colSitemap     // where `sitemapkit read` found the URL: not a field of the URL
	colImages      // JSON array of URLs or image objects
	colAlternates  // JSON array of {"hreflang","href"} objects
	colVideos      // JSON array of video objects
	colNews        // JSON news object
)

type column struct {
	kind     colKind
	hreflang string
}

func newCSV(lr *lineReader, name string) *csvSource { return &csvSource{lr: lr, name: name} }

// Read returns the next URL, with the contract of Source.Read. A bad header
// ends the stream with a *ParseError wrapping ErrHeader.
func (c *csvSource) Read() (sitemap.URL, error) {
	if c.err != nil {
		return sitemap.URL{}, c.err
	}
	if !c.header {
		if err := c.readHeader(); err != nil {
			c.err = err
			return sitemap.URL{}, err
		}
	}
	for {
		line, ok := c.lr.next()
		if !ok {
			c.err = endError(c.lr, c.name)
			return sitemap.URL{}, c.err
		}
		if line == "" {
			continue
		}
		c.line = c.lr.line
		c.print = contentHash{}
		if err := checkUTF8(c.name, c.line, line); err != nil {
			return sitemap.URL{}, err
		}
		if strings.IndexByte(line, '"') < 0 {
			u, err := c.fast(line)
			if err == nil && strings.TrimSpace(u.Loc) == "" {
				at := 1
				for range c.locAt {
					at += strings.IndexByte(line[at-1:], ',') + 1
				}
				return sitemap.URL{}, c.noLoc(c.line, at)
			}
			return u, err
		}
		fields, err := c.record(line)
		if err != nil {
			if c.lr.end() != nil {
				c.err = endError(c.lr, c.name)
				return sitemap.URL{}, c.err
			}
			return sitemap.URL{}, err
		}
		if len(fields) != len(c.cols) {
			return sitemap.URL{}, c.fieldCount(len(fields))
		}
		var u sitemap.URL
		for i := range c.cols {
			if err := c.set(&u, i, fields[i]); err != nil {
				return sitemap.URL{}, c.fieldError(i, c.lines1[i], c.cols1[i], err)
			}
		}
		if strings.TrimSpace(u.Loc) == "" {
			return sitemap.URL{}, c.noLoc(c.lines1[c.locAt], c.cols1[c.locAt])
		}
		return u, nil
	}
}

// fast reads a line without quotes: fields are slices of the line.
func (c *csvSource) fast(line string) (sitemap.URL, error) {
	var u sitemap.URL
	last := len(c.cols) - 1
	rest := line
	for i := 0; i < last; i++ {
		j := strings.IndexByte(rest, ',')
		if j < 0 {
			return sitemap.URL{}, c.fieldCount(strings.Count(line, ",") + 1)
		}
		if err := c.set(&u, i, rest[:j]); err != nil {
			return sitemap.URL{}, c.fieldError(i, c.line, len(line)-len(rest)+1, err)
		}
		rest = rest[j+1:]
	}
	if strings.IndexByte(rest, ',') >= 0 {
		return sitemap.URL{}, c.fieldCount(strings.Count(line, ",") + 1)
	}
	if err := c.set(&u, last, rest); err != nil {
		return sitemap.URL{}, c.fieldError(last, c.line, len(line)-len(rest)+1, err)
	}
	return u, nil
}

func (c *csvSource) set(u *sitemap.URL, i int, f string) error {
	if c.cols[i].kind == colContentHash {
		c.print.set(f)
		return nil
	}
	return c.cols[i].set(u, f, &c.json)
}

// noLoc is the error for a record whose loc is empty, at the loc's line
// and col: said as JSONL and SQL say it, not as a relative URL of nothing.
func (c *csvSource) noLoc(line, col int) error {
	return c.fieldError(c.locAt, line, col, fmt.Errorf("%w: the cell is empty", ErrMissingLoc))
}

// fieldError is err, the refusal of field i's value (bad JSON, too many
// images), placed at the field's line and col and naming its column.
func (c *csvSource) fieldError(i, line, col int, err error) error {
	return &ParseError{File: c.name, Line: line, Column: col, Err: fmt.Errorf("column %q: %w", c.names[i], err)}
}

// Fingerprint returns the fingerprint of the record last read's
// content_hash (or etag) column, when it has one.
func (c *csvSource) Fingerprint() (uint64, bool) { return c.print.get() }

// contentHash is a record's content_hash (or etag) column, as a
// fingerprint: the source's own word on whether the page changed (see
// package state). An empty cell is none.
type contentHash struct {
	fp uint64
	ok bool
}

func (h *contentHash) set(s string) {
	if s = strings.TrimSpace(s); s != "" {
		h.fp, h.ok = fingerprint.Fields(s), true
	}
}

func (h contentHash) get() (uint64, bool) { return h.fp, h.ok }

// set puts the text of a column into u, with buf as scratch space for
// JSON. An empty cell adds nothing: rows differ in how many images and
// alternates they have. What the JSON columns hold is appended to what
// the one-field columns (image, alternate:<hreflang>) hold.
func (col *column) set(u *sitemap.URL, f string, buf *[]byte) error {
	switch col.kind {
	case colImages, colAlternates, colVideos, colNews:
		if f == "" {
			return nil
		}
		return col.setJSON(u, f, buf)
	case colLoc:
		u.Loc = f
	case colLastMod:
		u.LastMod = f
	case colChangeFreq:
		u.ChangeFreq = f
	case colPriority:
		u.Priority = f
	case colImage:
		if f != "" {
			if len(u.Images) == maxCellItems {
				return fmt.Errorf("%w: more than %d images, the most sitemapkit takes for one URL", ErrTooMany, maxCellItems)
			}
			u.Images = append(u.Images, sitemap.Image{Loc: f})
		}
	case colAlternate:
		if f != "" {
			if len(u.Alternates) == maxCellItems {
				return fmt.Errorf("%w: more than %d alternates, the most sitemapkit takes for one URL", ErrTooMany, maxCellItems)
			}
			u.Alternates = append(u.Alternates, sitemap.Alternate{Hreflang: col.hreflang, Href: f})
		}
	}
	return nil
}

func (c *csvSource) fieldCount(n int) error {
	return &ParseError{File: c.name, Line: c.line, Column: 1,
		Err: fmt.Errorf("%w: %d, the header has %d", ErrFieldCount, n, len(c.cols))}
}

// readHeader reads the first non-empty record and maps its columns.
func (c *csvSource) readHeader() error {
	c.header = true
	var line string
	for {
		var ok bool
		line, ok = c.lr.next()
		if !ok {
			return endError(c.lr, c.name)
		}
		if strings.TrimSpace(line) != "" { // blank lines before it, as the format's guess skips them
			break
		}
	}
	c.line = c.lr.line
	if n := strings.Count(line, ","); n >= maxColumns {
		// Refused before its fields are made: each row's would be too.
		return &ParseError{File: c.name, Line: c.line, Column: 1,
			Err: fmt.Errorf("%w: %d columns or more, past the %d of any URL list (1,000 images and hundreds of languages)", ErrHeader, n+1, maxColumns)}
	}
	names, err := c.record(line)
	if err != nil {
		if c.lr.end() != nil {
			return endError(c.lr, c.name)
		}
		return err
	}
	bad := func(i int, format string, args ...any) error {
		return &ParseError{File: c.name, Line: c.lines1[i], Column: c.cols1[i],
			Err: fmt.Errorf("%w: "+format, append([]any{ErrHeader}, args...)...)}
	}
	seen := map[string]bool{}
	hasLoc := false
	for i, raw := range names {
		name := strings.TrimSpace(raw)
		col, key, ok, err := fieldColumn(name)
		switch {
		case err != nil:
			return bad(i, "%v", err)
		case ok:
		case name == "":
			return bad(i, "column %d has no name", i+1)
		default:
			hint := ""
			if s := nearest.Word(name, csvColumns); s != "" {
				hint = fmt.Sprintf(": did you mean %q?", s)
			}
			return bad(i, "unknown column %q%s (want loc, lastmod, changefreq, priority, image, images, alternate:<hreflang>, alternates, videos, news, content_hash, etag or sitemap)", name, hint)
		}
		if col.kind == colLoc {
			hasLoc, c.locAt = true, len(c.cols)
		}
		if col.kind != colImage {
			if seen[key] {
				return bad(i, "column %q appears twice", name)
			}
			seen[key] = true
		}
		c.cols = append(c.cols, col)
		c.names = append(c.names, name)
	}
	if !hasLoc {
		return bad(0, "no loc column")
	}
	return nil
}

// maxColumns is the most columns a CSV header may name.
const maxColumns = 4096

// csvColumns are the names of the columns, for a misspelt one's hint.
var csvColumns = []string{"loc", "lastmod", "changefreq", "priority", "image", "images", "alternates", "videos", "news", "content_hash", "etag", "sitemap"}

// fieldColumn maps a column name that CSV headers and SQL result columns
// share (case-insensitive): loc, lastmod, changefreq, priority, image,
// alternate:<hreflang>, the JSON columns images, alternates, videos and
// news, content_hash (or etag: one of the two) and sitemap. key
// identifies the column for finding duplicates (alternate:DE and
// alternate:de are one). ok is false for any other name; err is set for
// an alternate column without a hreflang.
func fieldColumn(name string) (col column, key string, ok bool, err error) {
	key = strings.ToLower(name)
	if k, ok := columnKinds[key]; ok {
		col.kind = k
		if k == colContentHash {
			key = "content_hash"
		}
		return col, key, true, nil
	}
	if !strings.HasPrefix(key, "alternate:") {
		return col, key, false, nil
	}
	col.kind = colAlternate
	col.hreflang = strings.TrimSpace(name[len("alternate:"):])
	if col.hreflang == "" {
		return col, key, false, fmt.Errorf("column %q has no hreflang (e.g. alternate:de-DE)", name)
	}
	return col, "alternate:" + strings.ToLower(col.hreflang), true, nil
}

// columnKinds are the kinds of the columns named by a word alone, by
// their names in lower case.
var columnKinds = map[string]colKind{
	"loc": colLoc, "lastmod": colLastMod, "changefreq": colChangeFreq, "priority": colPriority,
	"image": colImage, "images": colImages, "alternates": colAlternates, "videos": colVideos, "news": colNews,
	"content_hash": colContentHash, "etag": colContentHash, "sitemap": colSitemap,
}

// record parses one record that starts with line, per RFC 4180 as
// encoding/csv does (quoted fields may span lines; "" is a quote). The
// fields are slices of one string. Where each field starts (1-based line
// and column) is in c.lines1 and c.cols1.
func (c *csvSource) record(line string) ([]string, error) {
	c.rec, c.ends, c.cols1, c.lines1 = c.rec[:0], c.ends[:0], c.cols1[:0], c.lines1[:0]
	col := 1          // of the line being read, c.lr.line
	var badText error // a line of a quoted field that is not UTF-8
	fail := func(e error) ([]string, error) {
		return nil, &ParseError{File: c.name, Line: c.lr.line, Column: col, Err: e}
	}
	// A quote left open swallows the rest of the input into one field, so
	// no later record can be trusted: the error ends the stream, naming
	// where the quote opens, instead of refusing one record and going on
	// from wherever the field stopped.
	unclosed := func(what string) ([]string, error) {
		last := len(c.cols1) - 1
		err := &ParseError{File: c.name, Line: c.lines1[last], Column: c.cols1[last],
			Err: fmt.Errorf("%w: field %d opens a quote here that %s", ErrQuote, last+1, what)}
		c.err = err
		return nil, err
	}
fields:
	for {
		if len(c.cols1) == maxColumns {
			// No header names more (readHeader), so no row has more: a
			// record of millions of fields, quoted across lines where
			// the header's comma count does not see them, would be made
			// whole first. Within its first line it is refused alone (the
			// line is read); past it, it ends the stream: where it ends
			// is not worth finding.
			last := len(c.cols1) - 1
			err := &ParseError{File: c.name, Line: c.lines1[last], Column: c.cols1[last],
				Err: fmt.Errorf("%w: a record of more than %d fields", ErrTooMany, maxColumns)}
			// The rest of the line may open a quote that runs on (an odd
			// count of quotes): the record goes past its line then too.
			if c.lr.line != c.lines1[0] || strings.Count(line, `"`)%2 == 1 {
				c.err = err
			}
			return nil, err
		}
		c.cols1, c.lines1 = append(c.cols1, col), append(c.lines1, c.lr.line)
		if line == "" || line[0] != '"' {
			i := strings.IndexByte(line, ',')
			f := line
			if i >= 0 {
				f = line[:i]
			}
			if j := strings.IndexByte(f, '"'); j >= 0 {
				col += j
				return fail(ErrBareQuote)
			}
			c.rec = append(c.rec, f...)
			c.ends = append(c.ends, len(c.rec))
			if i < 0 {
				break fields
			}
			line = line[i+1:]
			col += i + 1
			continue
		}
		line = line[1:]
		col++
		for {
			i := strings.IndexByte(line, '"')
			if i < 0 {
				c.rec = append(c.rec, line...)
				if len(c.rec) > MaxLineBytes {
					return unclosed(fmt.Sprintf("is not closed within %d MiB", MaxLineBytes>>20))
				}
				next, ok := c.lr.next()
				if !ok {
					return unclosed("is never closed")
				}
				if badText == nil {
					// Read checked the record's first line. The record
					// is read to its end, so that the next starts
					// where it should.
					badText = checkUTF8(c.name, c.lr.line, next)
				}
				c.rec = append(c.rec, '\n')
				line, col = next, 1
				continue
			}
			c.rec = append(c.rec, line[:i]...)
			line = line[i+1:]
			col += i + 1
			switch {
			case strings.HasPrefix(line, `"`):
				c.rec = append(c.rec, '"')
				line = line[1:]
				col++
			case strings.HasPrefix(line, ","):
				c.ends = append(c.ends, len(c.rec))
				line = line[1:]
				col++
				continue fields
			case line == "":
				c.ends = append(c.ends, len(c.rec))
				break fields
			default:
				col--
				return fail(ErrQuote)
			}
		}
	}
	if badText != nil {
		return nil, badText
	}
	s := string(c.rec)
	c.fields = c.fields[:0]
	prev := 0
	for _, e := range c.ends {
		c.fields = append(c.fields, s[prev:e])
		prev = e
	}
	return c.fields, nil
}

// All returns every URL; see Source.All.
func (c *csvSource) All() iter.Seq2[sitemap.URL, error] { return all(c) }

// Name returns the input's name.
func (c *csvSource) Name() string { return c.name }

// Line returns the line on which the record Read last returned starts.
func (c *csvSource) Line() int { return c.line }

// Err returns the error that ended the stream, or nil.
func (c *csvSource) Err() error {
	if c.err == io.EOF {
		return nil
	}
	return c.err
}
