package sitemap

import (
	"bytes"
	"fmt"
	"io"
)

// readText returns the next URL of a text sitemap: one URL per line, blank
// lines skipped, white space around a URL trimmed. The first non-blank line
// must be a URL, or the document is not a text sitemap; a later line that
// is not a URL is noticed (RuleInvalidURL) and skipped.
func (r *Reader) readText() (*URL, error) {
	s := &r.s
	for {
		i := bytes.IndexByte(s.buf[s.r:s.w], '\n')
		next := s.r + i + 1
		// A CR alone ends a line too (files of classic Mac OS): the URLs
		// of such a file would otherwise run into one. A CR last of what
		// is read may be a CR LF's: more is read first.
		lim := s.buf[s.r:s.w]
		if i >= 0 {
			lim = lim[:i]
		}
		if j := bytes.IndexByte(lim, '\r'); j >= 0 && j+1 < len(lim) {
			i, next = j, s.r+j+1
		}
		if i < 0 {
			if s.more() {
				continue
			}
			if s.rerr != nil {
				return nil, s.readErr()
			}
			if s.r == s.w {
				if r.format == FormatUnknown {
					return nil, s.syntaxErr(s.base+int64(s.r), fmt.Errorf("%w: the document is empty", ErrUnsupportedFormat))
				}
				return nil, io.EOF
			}
			i = s.w - s.r
			next = s.w
		}
		line := s.buf[s.r : s.r+i]
		off := s.base + int64(s.r)
		a, z := trim(line, 0)
		if a == z {
			s.r = next
			continue
		}
		v := line[a:z]
		if !looksLikeURL(v) {
			if r.format == FormatUnknown {
				return nil, s.syntaxErr(off+int64(a), fmt.Errorf("%w: neither XML nor a list of URLs", ErrUnsupportedFormat))
			}
			r.warn(off+int64(a), RuleInvalidURL, fmt.Sprintf("line is not a URL (not read): %q", shorten(string(v), 80)))
			s.r = next
			continue
		}
		r.format = FormatText
		if !plain(v) {
			s.checkChars(v, off+int64(a))
		}
		s.resetMarks()
		r.fields = [4]int{-1, -1, -1, -1}
		r.fields[0] = s.mark(off + int64(a))
		u := r.newURL()
		u.Loc = string(v)
		s.r = next
		return u, nil
	}
}

// looksLikeURL reports whether b starts with a URI scheme and "://".
func looksLikeURL(b []byte) bool {
	i := bytes.Index(b, []byte("://"))
	if i < 1 {
		return false
	}
	for j, c := range b[:i] {
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alpha && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}
