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

// setJSON adds to u what text, the JSON value of an images, alternates,
// videos or news column, holds: the values of JSONL's fields of those
// names. An image may also be a bare URL. buf is scratch space.
func (col *column) setJSON(u *sitemap.URL, text string, buf *[]byte) error {
	switch col.kind {
	case colImages:
		var elems []json.RawMessage
		if err := decodeJSON(buf, text, &elems, "an array of image URLs or objects"); err != nil {
			return err
		}
		for k, e := range elems {
			var img sitemap.Image
			if len(e) > 0 && e[0] == '"' {
				if err := json.Unmarshal(e, &img.Loc); err != nil {
					return fmt.Errorf("%w: image %d: %v", ErrJSON, k+1, err)
				}
			} else if err := decodeJSON(buf, string(e), &img, "a URL or an image object"); err != nil {
				return fmt.Errorf("image %d: %w", k+1, err)
			}
			if img.Loc != "" {
				u.Images = append(u.Images, img)
			}
		}
	case colAlternates:
		var alts []sitemap.Alternate
		if err := decodeJSON(buf, text, &alts, `an array of {"hreflang", "href"} objects`); err != nil {
			return err
		}
		u.Alternates = append(u.Alternates, alts...)
	case colVideos:
		var videos []sitemap.Video
		if err := decodeJSON(buf, text, &videos, "an array of video objects"); err != nil {
			return err
		}
		u.Videos = append(u.Videos, videos...)
	case colNews:
		return decodeJSON(buf, text, &u.News, "a news object")
	}
	return nil
}

// decodeJSON decodes one JSON value into v, refusing unknown fields and
// accepting a number wherever a string is wanted, as JSONL does; buf is
// scratch space. want says what the value should be, for errors.
func decodeJSON(buf *[]byte, text string, v any, want string) error {
	*buf, _ = quoteNumbers((*buf)[:0], text)
	b := *buf
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if off := dec.InputOffset(); len(bytes.TrimSpace(b[off:])) > 0 {
			return fmt.Errorf("%w: more than one JSON value", ErrJSON)
		}
		return nil
	}
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
