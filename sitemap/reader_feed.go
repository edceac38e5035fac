package sitemap

import (
	"net/url"
	"strings"
	"time"
)

// item reads an RSS <item>: the URL is its <link>, the date its <pubDate>
// (RSS 2.0, converted to a W3C datetime when it parses) or <dc:date>
// (RSS 1.0, kept as written). An item without a link is noticed and
// dropped. RSS 2.0 has no namespace and RSS 1.0 its own, but some feeds
// put their elements in another (RSS 2.0 drafts' default namespace
// http://backend.userland.com/rss2, RSS 0.9's
// http://my.netscape.com/rdf/simple/0.9/): a <link> or <pubDate> in the
// namespace of its <item> is the item's too, as the <item> itself was
// read whatever its namespace.
func (r *Reader) item() (*URL, error) {
	s := &r.s
	off := s.tag.off
	own := func(t *tagInfo) bool { return t.id == nsNone || t.id == nsRSS1 }
	if id, uri := s.tag.id, s.tag.uri; !own(&s.tag) {
		own = func(t *tagInfo) bool { return t.id == nsNone || t.id == nsRSS1 || t.id == id && t.uri == uri }
	}
	s.resetMarks()
	s.mark(off)
	r.fields = [4]int{-1, -1, -1, -1}
	u := r.newURL()
	err := r.children(func(t *tagInfo) error {
		local := string(t.local)
		switch {
		case local == "link" && own(t) && r.fields[0] < 0:
			r.fields[0] = s.mark(t.off)
			v, err := r.leaf()
			u.Loc = v
			return err
		case (local == "pubDate" && own(t) && t.id != nsRSS1 || local == "date" && t.id == nsDC) && r.fields[1] < 0:
			r.fields[1] = s.mark(t.off)
			v, err := r.leaf()
			if local == "pubDate" {
				v = rfc822ToW3C(v)
			}
			u.LastMod = v
			return err
		}
		return s.skip()
	})
	if err != nil {
		return nil, err
	}
	if u.Loc == "" {
		r.warn(off, RuleMissingTag, "<item> without <link> (not read)")
		return nil, nil
	}
	return u, nil
}

// atomEntry reads an Atom <entry>: the URL is the href of its first <link>
// with rel="alternate" or no rel, the date its <updated> (1.0) or
// <modified> (0.3), else its <published> or <issued>. An entry without
// such a link is noticed and dropped. Its children are Atom's, or in the
// namespace of the <entry> (a <feed> without Atom's namespace is read
// as Atom all the same). A relative href is resolved against the xml:base
// of the feed, the entry and the link (RFC 4287 §4.2.7.1, XML Base), as
// every feed reader does: the link the feed gives is the resolved one. A
// relative href without an absolute base is kept as written, for a
// checker to report.
func (r *Reader) atomEntry() (*URL, error) {
	s := &r.s
	off := s.tag.off
	id, uri := s.tag.id, s.tag.uri
	base := r.feedBase
	if b, ok := r.attr("xml:base"); ok {
		base = resolveRef(base, b)
	}
	s.resetMarks()
	s.mark(off)
	r.fields = [4]int{-1, -1, -1, -1}
	u := r.newURL()
	rank := 0
	err := r.children(func(t *tagInfo) error {
		if t.id != nsAtom && t.id != nsAtom03 && (t.id != id || t.uri != uri) {
			return s.skip()
		}
		switch local := string(t.local); local {
		case "link":
			rel, _ := r.attr("rel")
			href, _ := r.attr("href")
			if (rel == "" || rel == "alternate") && u.Loc == "" && href != "" {
				r.fields[0] = s.mark(t.off)
				if b, ok := r.attr("xml:base"); ok {
					u.Loc = resolveRef(resolveRef(base, b), href)
				} else {
					u.Loc = resolveRef(base, href)
				}
			}
		case "updated", "modified", "published", "issued":
			k := 1
			if local == "updated" || local == "modified" {
				k = 2
			}
			if k <= rank {
				break
			}
			i := s.mark(t.off)
			v, err := r.leaf()
			if err != nil {
				return err
			}
			rank, r.fields[1], u.LastMod = k, i, v
			return nil
		}
		return s.skip()
	})
	if err != nil {
		return nil, err
	}
	if u.Loc == "" {
		r.warn(off, RuleMissingTag, "<entry> without <link href> (not read)")
		return nil, nil
	}
	return u, nil
}

// rfc822Zones are the named zones of RFC 822 §5.1 (military ones aside).
var rfc822Zones = map[string]string{
	"UT": "+0000", "GMT": "+0000", "Z": "+0000", "UTC": "+0000",
	"EST": "-0500", "EDT": "-0400", "CST": "-0600", "CDT": "-0500",
	"MST": "-0700", "MDT": "-0600", "PST": "-0800", "PDT": "-0700",
}

var rfc822Layouts = []string{
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04 -0700",
	"2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04 -0700",
	"Mon, 2 Jan 06 15:04:05 -0700",
	"Mon, 2 Jan 06 15:04 -0700",
	"2 Jan 06 15:04:05 -0700",
	"2 Jan 06 15:04 -0700",
}

// rfc822ToW3C converts an RSS date (RFC 822, or RFC 1123 with a four-digit
// year) to a W3C datetime, e.g. "Tue, 10 Jun 2003 04:00:00 GMT" to
// "2003-06-10T04:00:00+00:00". A date it cannot parse is returned as it
// is, for a checker to report.
func rfc822ToW3C(v string) string {
	f := strings.Fields(v)
	if len(f) < 4 {
		return v
	}
	if z, ok := rfc822Zones[strings.ToUpper(f[len(f)-1])]; ok {
		f[len(f)-1] = z
	}
	norm := strings.Join(f, " ")
	for _, l := range rfc822Layouts {
		if t, err := time.Parse(l, norm); err == nil {
			return t.Format("2006-01-02T15:04:05-07:00")
		}
	}
	return v
}

// resolveRef resolves the reference ref against base, when base is an
// absolute URL and ref a relative reference; otherwise (no base, an
// absolute ref, either unparsable) it returns ref as it is. An empty ref
// is base itself (RFC 3986 §5.2.2): xml:base="" keeps the base in force.
func resolveRef(base, ref string) string {
	if ref == "" {
		return base
	}
	if base == "" {
		return ref
	}
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return ref
	}
	u, err := url.Parse(ref)
	if err != nil || u.IsAbs() {
		return ref
	}
	return b.ResolveReference(u).String()
}
