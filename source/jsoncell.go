package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// maxCellItems is how many images, videos or alternates one JSON column
// may hold: as many as the sitemap reader takes from one <url>, and
// Google's limit of images. A cell with more is refused as it is decoded,
// before they are all held: decoded whole, a 16 MiB cell of "[1,1,…]"
// took 2.3 GB.
const maxCellItems = 1000

// maxJSONValues is how many values (commas, outside strings) one JSONL
// record or JSON cell may hold: lists inside a list (a video's tags and
// prices) are not counted by maxCellItems, and 5 million empty prices in
// a line of 15 MB took 1.2 GB to decode. It is above the most the sitemap
// reader returns for one <url> (1,000 videos of 32 tags and 100 prices,
// about 450,000), so that read's output is always generate's input; a
// real record holds a few hundred.
const maxJSONValues = 500_000

var errTooManyValues = fmt.Errorf("%w: more than %d in one record, past any real entry", ErrTooMany, maxJSONValues)

// setJSON adds to u what text, the JSON value of an images, alternates,
// videos or news column, holds: the values of JSONL's fields of those
// names. An image may also be a bare URL. buf is scratch space.
func (col *column) setJSON(u *sitemap.URL, text string, buf *[]byte) error {
	// What is decoded is gathered apart and set in u after: u handed to
	// encoding/json would move every caller's URL to the heap, an
	// allocation for each row of every CSV file.
	switch col.kind {
	case colImages:
		elems, err := decodeArray[json.RawMessage](buf, text, "image", "an array of image URLs or objects", "a URL or an image object")
		var obj []byte // an image object's scratch: buf is the array's
		for k, e := range elems {
			var img sitemap.Image
			if len(e) > 0 && e[0] == '"' {
				if err := json.Unmarshal(e, &img.Loc); err != nil {
					return fmt.Errorf("image %d: %w: %v", k+1, ErrJSON, err)
				}
			} else if err := decodeJSON(&obj, string(e), &img, "a URL or an image object"); err != nil {
				return fmt.Errorf("image %d: %w", k+1, err)
			}
			if img.Loc != "" {
				u.Images = append(u.Images, img)
			}
		}
		return err
	case colAlternates:
		alts, err := decodeArray[sitemap.Alternate](buf, text, "alternate", `an array of {"hreflang", "href"} objects`, `a {"hreflang", "href"} object`)
		u.Alternates = append(u.Alternates, alts...)
		return err
	case colVideos:
		videos, err := decodeArray[sitemap.Video](buf, text, "video", "an array of video objects", "a video object")
		for i := range videos {
			v := &videos[i]
			v.Duration, v.ViewCount = wholeNumber(v.Duration), wholeNumber(v.ViewCount)
		}
		u.Videos = append(u.Videos, videos...)
		return err
	case colNews:
		var n *sitemap.News
		err := decodeJSON(buf, text, &n, "a news object")
		u.News = n
		return err
	}
	return nil
}

// wholeNumber is s, a count the schema wants whole (a video's duration
// and view count), without a fraction of zeros: an exporter whose numbers
// are floats writes 600 as 600.0, a number JSONL takes where it is
// natural. Any other s is returned as it is, for the Writer to judge.
func wholeNumber(s string) string {
	i := strings.IndexByte(s, '.')
	if i <= 0 || i == len(s)-1 || strings.Trim(s[i+1:], "0") != "" || strings.Trim(s[:i], "0123456789") != "" {
		return s
	}
	return s[:i]
}

// decodeArray decodes text, a JSON array (or null), an element at a time,
// and returns its elements; more than maxCellItems is an error, met before
// they are all held. Unknown fields are refused, and a number is taken
// wherever a string is wanted, as JSONL does; buf is scratch space. For
// errors, what names an element, want says what the whole should be and
// elemWant an element. On an error, the elements before it are returned.
func decodeArray[T any](buf *[]byte, text, what, want, elemWant string) ([]T, error) {
	dec, err := strictDecoder(buf, text)
	if err != nil {
		return nil, err
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonError(err, want)
	}
	var out []T
	switch tok {
	case nil: // null: none
	case json.Delim('['):
		for dec.More() {
			if len(out) == maxCellItems {
				return out, fmt.Errorf("%w: more than %d %ss, the most sitemapkit takes for one URL", ErrTooMany, maxCellItems, what)
			}
			var v T
			if err := dec.Decode(&v); err != nil {
				return out, fmt.Errorf("%s %d: %w", what, len(out)+1, jsonError(err, elemWant))
			}
			out = append(out, v)
		}
		if _, err := dec.Token(); err != nil { // the closing ]
			return out, jsonError(err, want)
		}
	default:
		return nil, fmt.Errorf("%w: a JSON %s, want %s", ErrJSON, tokenKind(tok), want)
	}
	return out, onlyValue(dec, *buf)
}

// tokenKind names the kind of a JSON token that starts a value, as
// encoding/json's errors name them.
func tokenKind(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		return "object"
	case string:
		return "string"
	case bool:
		return "bool"
	}
	return "number"
}

// decodeJSON decodes one JSON value into v, refusing unknown fields and
// accepting a number wherever a string is wanted, as JSONL does; buf is
// scratch space. want says what the value should be, for errors.
func decodeJSON(buf *[]byte, text string, v any, want string) error {
	dec, err := strictDecoder(buf, text)
	if err != nil {
		return err
	}
	if err := dec.Decode(v); err != nil {
		return jsonError(err, want)
	}
	return onlyValue(dec, *buf)
}

// strictDecoder returns a decoder of text, rewritten into buf by
// quoteNumbers (which may refuse it), that refuses unknown fields.
func strictDecoder(buf *[]byte, text string) (*json.Decoder, error) {
	var err error
	if *buf, _, err = quoteNumbers((*buf)[:0], text); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(*buf))
	dec.DisallowUnknownFields()
	return dec, nil
}

// onlyValue refuses what follows the value dec decoded from b.
func onlyValue(dec *json.Decoder, b []byte) error {
	if off := dec.InputOffset(); len(bytes.TrimSpace(b[off:])) > 0 {
		return fmt.Errorf("%w: more than one JSON value", ErrJSON)
	}
	return nil
}

// jsonError words an error of encoding/json's decoder; want says what the
// value should have been.
func jsonError(err error, want string) error {
	var (
		se *json.SyntaxError
		te *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("%w: %s", ErrJSON, strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &te) && te.Field == "":
		return fmt.Errorf("%w: a JSON %s, want %s", ErrJSON, te.Value, want)
	case errors.As(err, &te):
		return fmt.Errorf("%w: field %q is a JSON %s, want %s", ErrJSON, te.Field, te.Value, kindName(te.Type))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		if uq, e := strconv.Unquote(name); e == nil {
			name = uq
		}
		return fmt.Errorf("%w %q (want %s)", ErrUnknownField, name, want)
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return fmt.Errorf("%w: unexpected end of JSON", ErrJSON)
	}
	return fmt.Errorf("%w: %s", ErrJSON, strings.TrimPrefix(err.Error(), "json: "))
}
