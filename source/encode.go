package source

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// AppendText appends u's loc as a line that New reads back in FormatText.
// A control character in the loc (a newline written &#10; in a sitemap,
// an escape sequence) is percent-encoded, as a URL parser encodes it, so
// that a hostile sitemap can neither add lines of its own to a listing
// nor drive a terminal. Such a loc is no valid URL either way.
func AppendText(b []byte, u *sitemap.URL) []byte {
	return append(appendTextLoc(b, u.Loc), '\n')
}

func appendTextLoc(b []byte, loc string) []byte {
	if !hasControl(loc) {
		return append(b, loc...)
	}
	for j := 0; j < len(loc); j++ {
		if c := loc[j]; c < 0x20 || c == 0x7f {
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return b
}

// hasControl reports whether b holds a byte below 0x20 or 0x7f (DEL): a
// row's worth, DEL by IndexByte's vector search and the rest eight bytes
// at a time, with no branch until the end (a row is short, and nearly
// never has one), the last word overlapping the one before it. x-0x20
// borrows into the high bit of a byte below 0x20 that had it clear ("Bit
// Twiddling Hacks", hasless, exact as to whether there is one).
func hasControl[T string | []byte](b T) bool {
	if len(b) < 8 {
		for i := range len(b) {
			if c := b[i]; c < 0x20 || c == 0x7f {
				return true
			}
		}
		return false
	}
	var del int
	switch v := any(b).(type) {
	case string:
		del = strings.IndexByte(v, 0x7f)
	case []byte:
		del = bytes.IndexByte(v, 0x7f)
	}
	if del >= 0 {
		return true
	}
	var acc uint64
	for i := 0; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(b[i : i+8]))
		acc |= (x - ones*0x20) &^ x
	}
	x := binary.LittleEndian.Uint64([]byte(b[len(b)-8:]))
	return (acc|(x-ones*0x20)&^x)&high != 0
}

// zeroByte has the high bit of a byte set where v has a zero byte, and
// maybe (after one) where it has 0x01; zero when v has none.
func zeroByte(v uint64) uint64 {
	return (v - ones) & ^v & high
}

// CSVHeader returns the header row of the rows AppendCSV writes, its line
// end included: loc, lastmod, changefreq, priority; sitemap, when
// withDoc; then images, videos, news and alternates, which hold the JSON
// values of JSONL's fields of those names. The columns are the same
// whatever the entries carry, so that rows can be written as they come:
// a header that depended on the entries (a column per image, one per
// hreflang) needed every row kept until the last was read.
func CSVHeader(withDoc bool) string {
	if withDoc {
		return "loc,lastmod,changefreq,priority,sitemap,images,videos,news,alternates\n"
	}
	return "loc,lastmod,changefreq,priority,images,videos,news,alternates\n"
}

// AppendCSV appends u as a row under CSVHeader(withDoc), which New reads
// back in FormatCSV as u, save what CSV and JSONL change: a control
// character in loc, lastmod, changefreq, priority or doc (a line end, an
// escape sequence) is percent-encoded, as AppendText encodes it, so that
// a row is one line and drives no terminal (the JSON cells escape them);
// a byte that is not UTF-8 reads as U+FFFD, and an image without a loc
// is left out. doc is the sitemap column's value. A row is written as
// encoding/csv's Writer writes it, quoting and all.
func AppendCSV(b []byte, u *sitemap.URL, doc string, withDoc bool) []byte {
	fields := []string{u.Loc, u.LastMod, u.ChangeFreq, u.Priority, doc}
	if !withDoc {
		fields = fields[:4]
	}
	start := len(b)
	b = appendCSVFields(b, fields)
	if hasControl(b[start:]) {
		// A line end or an escape sequence in a loc (written &#10; or
		// &#27; in a hostile sitemap) would break the row over lines or
		// drive the terminal the CSV is printed on: percent-encoded, as
		// AppendText writes it (and as generate writes such a loc).
		for i, f := range fields {
			fields[i] = string(appendTextLoc(nil, f))
		}
		b = appendCSVFields(b[:start], fields)
	}
	if !utf8.Valid(b[start:]) {
		// The CSV reader refuses a line that is not UTF-8: each byte
		// that is not is U+FFFD, as in JSONL's strings.
		for i, f := range fields {
			fields[i] = validUTF8(f)
		}
		b = appendCSVFields(b[:start], fields)
	}
	if len(u.Images)+len(u.Videos)+len(u.Alternates) == 0 && u.News == nil {
		return append(b, ",,,,\n"...)
	}
	var j []byte // the JSON of a cell, quoted as it is appended
	b = append(b, ',')
	if len(u.Images) > 0 {
		b = appendJSONCell(b, appendImagesJSON(j[:0], u.Images))
	}
	b = append(b, ',')
	if len(u.Videos) > 0 {
		b = appendJSONCell(b, appendMarshal(j[:0], u.Videos))
	}
	b = append(b, ',')
	if u.News != nil {
		b = appendJSONCell(b, appendMarshal(j[:0], u.News))
	}
	b = append(b, ',')
	if len(u.Alternates) > 0 {
		b = appendJSONCell(b, appendAlternatesJSON(j[:0], u.Alternates))
	}
	return append(b, '\n')
}

// validUTF8 returns s with each byte that is not part of a UTF-8
// sequence replaced by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// appendJSONCell appends j, a JSON array or object, as a CSV field: it
// holds quotes, so it is always quoted.
func appendJSONCell(b, j []byte) []byte {
	b = append(b, '"')
	for {
		i := bytes.IndexByte(j, '"')
		if i < 0 {
			break
		}
		b = append(append(b, j[:i+1]...), '"')
		j = j[i+1:]
	}
	return append(append(b, j...), '"')
}

// appendCSVFields appends fields, separated by commas, without the line
// end, as encoding/csv's Writer writes them: quoted when a field has a
// comma, quote, CR or LF, starts with a space, or is \. A row is written
// as it is and then tested whole, by the system's vector loops
// (bytes.Count, IndexByte): a row of plain fields holds no special byte
// but the commas between them. Only a row with another, or a field that
// starts with a space or is \., is written again a field at a time. A
// test a field at a time cost twice as much (BenchmarkCSVRow): lastmod,
// changefreq and priority are too short for a word at a time.
func appendCSVFields(b []byte, fields []string) []byte {
	start := len(b)
	plain := true
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		if f != "" && (f[0] <= ' ' || f[0] >= utf8.RuneSelf || f == `\.`) {
			plain = false // maybe a leading space, or \.: told apart below
		}
		b = append(b, f...)
	}
	if row := b[start:]; plain && bytes.Count(row, comma) == max(len(fields)-1, 0) &&
		bytes.IndexByte(row, '"') < 0 && bytes.IndexByte(row, '\n') < 0 && bytes.IndexByte(row, '\r') < 0 {
		return b
	}
	b = b[:start]
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, f)
	}
	return b
}

// comma is what separates two fields.
var comma = []byte{','}

// appendCSVField appends one field, quoted if it needs to be.
func appendCSVField(b []byte, f string) []byte {
	if !csvNeedsQuotes(f) {
		return append(b, f...)
	}
	b = append(b, '"')
	for {
		j := strings.IndexByte(f, '"')
		if j < 0 {
			break
		}
		b = append(b, f[:j+1]...)
		b = append(b, '"')
		f = f[j+1:]
	}
	b = append(b, f...)
	return append(b, '"')
}

// csvNeedsQuotes reports whether f is quoted as encoding/csv quotes it.
func csvNeedsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` {
		return true
	}
	// Eight bytes at a time, then a table, not strings.ContainsAny: this
	// runs for every field of a million rows.
	i := 0
	for ; i+8 <= len(f); i += 8 {
		if csvSpecial8(binary.LittleEndian.Uint64([]byte(f[i : i+8]))) { // one load: the conversion is not made
			return true
		}
	}
	for ; i < len(f); i++ {
		if csvSpecial[f[i]] {
			return true
		}
	}
	if f[0] < utf8.RuneSelf {
		return f[0] == ' ' || f[0] >= '\t' && f[0] <= '\r'
	}
	r, _ := utf8.DecodeRuneInString(f)
	return unicode.IsSpace(r)
}

// csvSpecial8 reports whether one of the eight bytes of x is one that
// makes a field quoted (",", `"`, CR, LF): x^c has a zero byte where x has
// c, found by the zero-byte trick of "Bit Twiddling Hacks" (exact as to
// whether there is one).
func csvSpecial8(x uint64) bool {
	return zeroByte(x^(ones*','))|zeroByte(x^(ones*'"'))|zeroByte(x^(ones*'\r'))|zeroByte(x^(ones*'\n')) != 0
}

// csvSpecial marks the bytes that make a field quoted.
var csvSpecial = [256]bool{',': true, '"': true, '\r': true, '\n': true}
