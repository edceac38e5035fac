package main

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// appendJSONL appends u as one JSON object and a newline, with the field
// names of sitemap.URL's JSON tags (generate's JSONL input), in that
// order, empty fields left out; source, when not "", is added as
// "sitemap". Written by hand: encoding/json per entry costs more than
// reading the sitemap does.
func appendJSONL(b []byte, u *sitemap.URL, source string) []byte {
	b = append(b, `{"loc":`...)
	b = appendString(b, u.Loc)
	b = appendField(b, "lastmod", u.LastMod)
	b = appendField(b, "changefreq", u.ChangeFreq)
	b = appendField(b, "priority", u.Priority)
	if len(u.Images) > 0 {
		b = append(b, `,"images":[`...)
		for i := range u.Images {
			im := &u.Images[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"loc":`...)
			b = appendString(b, im.Loc)
			b = appendField(b, "caption", im.Caption)
			b = appendField(b, "geo_location", im.GeoLocation)
			b = appendField(b, "title", im.Title)
			b = appendField(b, "license", im.License)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(u.Videos) > 0 {
		// Rare and deep: encoding/json writes them, with the same tags.
		b = append(b, `,"videos":`...)
		b = appendMarshal(b, u.Videos)
	}
	if u.News != nil {
		b = append(b, `,"news":`...)
		b = appendMarshal(b, u.News)
	}
	if len(u.Alternates) > 0 {
		b = append(b, `,"alternates":[`...)
		for i := range u.Alternates {
			a := &u.Alternates[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"hreflang":`...)
			b = appendString(b, a.Hreflang)
			b = append(b, `,"href":`...)
			b = appendString(b, a.Href)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendField(b, "sitemap", source)
	return append(b, '}', '\n')
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

const hexDigits = "0123456789abcdef"

const (
	ones = 0x0101010101010101
	high = 0x8080808080808080
)

// plain8 reports whether the 8 bytes of s need no escape in a JSON string:
// none is a control character (< 0x20), '"', '\\' or a byte of a multi-byte
// UTF-8 sequence. It tests all eight at once (the zero-byte trick of "Bit
// Twiddling Hacks": x-ones & ^x & high is nonzero iff a byte of x is 0).
func plain8(s string) bool {
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
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
// that <, > and & are kept: the output is not for HTML.
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
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
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
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
