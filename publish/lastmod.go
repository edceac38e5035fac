package publish

import (
	"strings"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// noteLastmod keeps s if it is later than the child's latest lastmod. s
// was accepted by the Writer, so it is a valid W3C datetime. Instants are
// compared, not strings ("2024-05-01T23:00:00-05:00" is later than
// "2024-05-02"), but the string is what the index writes: the child's own
// value, never a time of our making. The value kept is a copy: s may be a
// slice of a source's read buffer, which keeping would pin in memory.
func (c *child) noteLastmod(s string) {
	if s == "" || s == c.latest {
		return
	}
	if c.latest == "" {
		c.latest, c.latestOK = strings.Clone(s), false
		return
	}
	if later, ok := laterSameLayout(s, c.latest); ok {
		if later {
			c.latest, c.latestOK = strings.Clone(s), false
		}
		return
	}
	t, err := sitemap.ParseDate(s)
	if err != nil {
		return
	}
	if !c.latestOK {
		lt, err := sitemap.ParseDate(c.latest)
		if err != nil {
			c.latest, c.latestOK, c.latestAt = strings.Clone(s), true, t.UnixNano()
			return
		}
		c.latestOK, c.latestAt = true, lt.UnixNano()
	}
	if t.UnixNano() > c.latestAt {
		c.latest, c.latestAt = strings.Clone(s), t.UnixNano()
	}
}

// laterSameLayout compares two valid W3C datetimes without parsing them
// when they have the same form and the same zone, where the order of the
// strings is the order of the instants: every field is fixed-width and
// most significant first. Equal length and equal zone imply the same form
// (and the same number of fraction digits). ok is false otherwise.
func laterSameLayout(a, b string) (later, ok bool) {
	if len(a) != len(b) || zone(a) != zone(b) {
		return false, false
	}
	return a > b, true
}

// zone returns a W3C datetime's zone designator: "" for a date without a
// time, "Z" or "±hh:mm".
func zone(s string) string {
	switch {
	case len(s) <= 10:
		return ""
	case s[len(s)-1] == 'Z':
		return "Z"
	case len(s) >= 6:
		return s[len(s)-6:]
	}
	return s
}
