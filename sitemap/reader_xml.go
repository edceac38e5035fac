package sitemap

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// readXML returns the next entry of an XML document.
func (r *Reader) readXML() (*URL, error) {
	s := &r.s
	for {
		if r.rootClosed {
			return nil, r.finish()
		}
		tok, err := s.next()
		if err != nil {
			return nil, err
		}
		switch tok {
		case tokEOF:
			return nil, s.eofErr()
		case tokEnd:
			if len(s.stack) == 0 {
				r.rootClosed = true
			}
			continue
		}
		u, err := r.element()
		if err != nil || u != nil {
			return u, err
		}
	}
}

// finish reads what follows the root element: white space, comments and
// processing instructions only. Reading to the end lets a compressed
// stream's checksum be verified.
func (r *Reader) finish() error {
	s := &r.s
	for warned := false; ; {
		tok, err := s.next()
		if err != nil {
			return r.junkErr(err, warned)
		}
		switch tok {
		case tokEOF:
			return io.EOF
		case tokEnd:
			continue // of junk: its elements are looked into, not skipped
		}
		msg := fmt.Sprintf("element <%s> after the root element </%s> (not read)", s.tag.qname, r.rootName)
		switch string(s.tag.local) {
		case "urlset", "sitemapindex", "url", "sitemap":
			// A second document run into the first, or entries after
			// its end: they are not read, and a reader must say the
			// document was read in part.
			return s.errorf(s.tag.off, "%s", msg)
		}
		// Anything else (a server's warning appended as HTML) holds no
		// entry; what follows it, or lies inside it, may: its elements
		// are looked at one by one, not skipped whole, for an unclosed
		// <br> would take the rest of the document with it.
		if !warned {
			r.warn(s.tag.off, RuleParseError, msg)
			warned = true
			s.quiet++ // the junk's text is the junk's: not noticed again
		}
	}
}

// junkErr is what finish returns for err, met after the root: once junk
// was noticed there (a server's appended HTML, which is often no XML: an
// unclosed <br>, a script's "a < b"), a syntax error in it is the junk's,
// and the entries were read whole. An error of the input (I/O, damaged
// compression, too large) still ends the document.
func (r *Reader) junkErr(err error, junk bool) error {
	var se *SyntaxError
	if junk && errors.As(err, &se) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrCompression) {
		return io.EOF
	}
	return err
}

// element handles the start tag s.tag met at the entry level: it returns
// an entry, or nil after skipping or descending into the element.
func (r *Reader) element() (*URL, error) {
	s := &r.s
	t := &s.tag
	depth := len(s.stack) // the element's depth, the root being 1
	if t.empty {
		depth++
	}
	local := string(t.local)
	switch r.format {
	case FormatURLSet, FormatIndex:
		want := "url"
		if r.format == FormatIndex {
			want = "sitemap"
		}
		if depth == 2 && local == want && r.core(t) {
			if t.id != r.rootID || t.uri != r.rootURI {
				r.warn(t.off, RuleIncorrectNamespace, fmt.Sprintf("<%s> is not in the namespace of <%s>", t.qname, r.rootName))
			}
			return r.entry()
		}
		if depth == 2 && r.core(t) && (local == "url" || local == "sitemap") {
			// The other kind's entry: Google reads none of them.
			other := "urlset"
			if local == "sitemap" {
				other = "sitemapindex"
			}
			r.warn(t.off, RuleUnknownTag, fmt.Sprintf("<%s> in <%s>, which lists <%s> entries: not read (is the root meant to be <%s>?)",
				t.qname, r.rootName, want, other))
			return nil, s.skip()
		}
		r.unknown(t)
		return nil, s.skip()
	case FormatRSS:
		switch {
		case local == "channel" && depth == 2 && !t.empty:
			return nil, nil // items are inside (RSS 2.0) or beside it (RSS 1.0)
		case local == "item" && (depth == 2 || depth == 3):
			return r.item()
		}
		return nil, s.skip()
	default: // FormatAtom
		if local == "entry" && depth == 2 {
			return r.atomEntry()
		}
		return nil, s.skip()
	}
}

// core reports whether t is one of the protocol's own elements: in the
// sitemaps.org namespace, in the root's (even a wrong one), or in none.
func (r *Reader) core(t *tagInfo) bool {
	return t.id == nsSitemap || t.id == nsNone || t.id == r.rootID && t.uri == r.rootURI
}

// unknown notices an element the protocol does not define where it is.
func (r *Reader) unknown(t *tagInfo) {
	if r.OnNotice == nil {
		return
	}
	where := ""
	if n := len(r.s.stack); n > 0 {
		i := n - 1
		if !t.empty {
			i--
		}
		if i >= 0 {
			where = fmt.Sprintf(" in <%s>", r.s.stack[i].qname)
		}
	}
	r.notify(t.off, RuleUnknownTag, fmt.Sprintf("unknown tag <%s>%s", t.qname, where))
}

// outOfOrder notices a child element met after one the schema puts later
// (i < *last), or repeated when it may not be (i == *last), and moves *last.
func (r *Reader) outOfOrder(t *tagInfo, i int, last *int, repeatable bool) {
	switch {
	case i < *last:
		r.warn(t.off, RuleElementOrder, fmt.Sprintf("<%s> out of order: the schema puts it earlier", t.qname))
	case i == *last && !repeatable:
		r.warn(t.off, RuleElementOrder, fmt.Sprintf("<%s> repeated", t.qname))
	default:
		*last = i
	}
}

func coreField(local []byte) int {
	switch string(local) {
	case "loc":
		return 0
	case "lastmod":
		return 1
	case "changefreq":
		return 2
	case "priority":
		return 3
	}
	return -1
}

// The priorities most sitemaps use, so that reading them allocates
// nothing (intern has the changefreqs).
var priorities = [...]string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0", "0", "1"}

func intern(f int, v []byte) string {
	if f == 2 {
		if len(v) == 0 {
			return ""
		}
		// Constants, compared a word at a time.
		switch string(v) {
		case "always":
			return "always"
		case "hourly":
			return "hourly"
		case "daily":
			return "daily"
		case "weekly":
			return "weekly"
		case "monthly":
			return "monthly"
		case "yearly":
			return "yearly"
		case "never":
			return "never"
		}
	} else if f == 3 && len(v) == 3 && v[1] == '.' && (v[0] == '0' || v[0] == '1' && v[2] == '0') && v[2] >= '0' && v[2] <= '9' {
		return priorities[int(v[0]-'0')*10+int(v[2]-'0')]
	} else if f == 3 && len(v) == 1 && (v[0] == '0' || v[0] == '1') {
		return priorities[11+int(v[0]-'0')]
	}
	return ""
}

// entry reads a <url> or, in an index, a <sitemap>. It returns nil for one
// without a <loc>, which is noticed.
func (r *Reader) entry() (*URL, error) {
	s := &r.s
	index := r.format == FormatIndex
	entryTag := "url"
	if index {
		entryTag = "sitemap"
	}
	off := s.tag.off
	s.resetMarks()
	s.mark(off)
	r.fields = [4]int{-1, -1, -1, -1}
	for k := range r.ext { // they name marks: reset with them
		r.ext[k] = r.ext[k][:0]
	}
	r.vals = r.vals[:0]
	var span [4][2]int
	var fixed [4]string
	u := r.newURL()
	defer func() {
		if r.over[overImages].n|r.over[overVideos].n|r.over[overAlternates].n == 0 {
			return // nearly every entry: three calls saved
		}
		r.sayOver(overImages, len(u.Images))
		r.sayOver(overVideos, len(u.Videos))
		r.sayOver(overAlternates, len(u.Alternates))
	}()
	if s.tag.empty {
		return r.noLoc(off, entryTag)
	}
	fast := !index && fastEntries && r.fastEntry(&span, &fixed)
	last, ext := -1, false
	for !fast {
		tok, err := s.next()
		if err != nil {
			return nil, err
		}
		if tok == tokEOF {
			return nil, s.eofErr()
		}
		if tok == tokEnd {
			break
		}
		t := &s.tag
		if r.core(t) {
			f := coreField(t.local)
			if f < 0 || index && f > 1 {
				r.unknown(t)
				if err := s.skip(); err != nil {
					return nil, err
				}
				continue
			}
			if r.fields[f] >= 0 {
				r.warn(t.off, RuleElementOrder, fmt.Sprintf("<%s> repeated (the first is read)", t.qname))
				if err := s.skip(); err != nil {
					return nil, err
				}
				continue
			}
			if f < last || ext {
				r.warn(t.off, RuleElementOrder, fmt.Sprintf("<%s> out of order: the order is loc, lastmod, changefreq, priority, then extensions", t.qname))
			}
			last = max(last, f)
			r.fields[f] = s.mark(t.off)
			a0 := len(r.vals)
			if r.vals, err = s.text(r.vals); err != nil {
				return nil, err
			}
			a, z := trim(r.vals, a0)
			if f == 1 && a == z {
				// The schema rejects it; read as absent, so that what is
				// read can be written again.
				r.warn(s.marks[r.fields[1]], RuleInvalidDate, "empty <lastmod> (not read): a date is required when the element is present")
			}
			if f >= 2 {
				if c := intern(f, r.vals[a:z]); c != "" {
					fixed[f] = c
					r.vals = r.vals[:a0]
					continue
				}
			}
			span[f] = [2]int{a, z}
			continue
		}
		ext = true
		if index {
			r.unknown(t)
			err = s.skip()
		} else {
			err = r.extension(u, t)
		}
		if err != nil {
			return nil, err
		}
	}
	if r.fields[0] < 0 || span[0][0] == span[0][1] {
		return r.noLoc(off, entryTag)
	}
	all := r.str(r.vals)
	u.Loc = all[span[0][0]:span[0][1]]
	u.LastMod = all[span[1][0]:span[1][1]]
	for f := 2; f < 4; f++ {
		v := fixed[f]
		if v == "" {
			v = all[span[f][0]:span[f][1]]
		}
		if f == 2 {
			u.ChangeFreq = v
		} else {
			u.Priority = v
		}
	}
	return u, nil
}

// fastEntries turns fastEntry on (off in tests, to compare).
var fastEntries = true

// coreNames are the core fields' element names, in their order.
var coreNames = [4]string{"loc", "lastmod", "changefreq", "priority"}

// coreTag is the core field whose start tag, unprefixed and without
// attributes, b starts with, and the tag's length; -1 for any other. The
// names are constants, compared a word at a time (a run of them per URL).
func coreTag(b []byte) (f, n int) {
	if len(b) < 12 {
		return -1, 0
	}
	switch b[1] {
	case 'l':
		if string(b[:5]) == "<loc>" {
			return 0, 5
		}
		if string(b[:9]) == "<lastmod>" {
			return 1, 9
		}
	case 'c':
		if string(b[:12]) == "<changefreq>" {
			return 2, 12
		}
	case 'p':
		if string(b[:10]) == "<priority>" {
			return 3, 10
		}
	}
	return -1, 0
}

// coreEnd reports whether b is the end tag of core field f.
func coreEnd(b []byte, f int) bool {
	switch f {
	case 0:
		return string(b) == "</loc>"
	case 1:
		return string(b) == "</lastmod>"
	case 2:
		return string(b) == "</changefreq>"
	default:
		return string(b) == "</priority>"
	}
}

// fastEntry reads the rest of a <url> written as most are, whole in the
// buffer: its core fields in order, each once, with nothing but white
// space between them, no attribute, comment, CDATA or other element, the
// <url> unprefixed. It does what the general loop of entry does for such
// an entry (marks, values, notices of their characters and entities, an
// empty <lastmod>), without a token for each tag. Any other entry (or one
// running past the buffer) it leaves as it found it, reporting false.
func (r *Reader) fastEntry(span *[4][2]int, fixed *[4]string) bool {
	s := &r.s
	t := &s.tag
	if len(t.qname) != 3 || !r.core(t) {
		return false
	}
	b := s.buf[s.r:s.w]
	type child struct{ f, at, from, to int } // at: its '<'; from, to: its text
	var cs [4]child
	n, last, i := 0, -1, 0
	for {
		for i < len(b) && isSpaceByte(b[i]) {
			i++
		}
		if i+1 >= len(b) || b[i] != '<' {
			return false
		}
		if b[i+1] == '/' {
			if len(b)-i < 6 || string(b[i:i+6]) != "</url>" {
				return false
			}
			i += 6
			break
		}
		f, from := coreTag(b[i:])
		if f <= last {
			return false // another element, one out of order or repeated
		}
		from += i
		j := bytes.IndexByte(b[from:], '<')
		if j < 0 || j > maxValue {
			return false
		}
		to := from + j
		end := to + len(coreNames[f]) + 3
		if end > len(b) || !coreEnd(b[to:end], f) {
			return false
		}
		cs[n] = child{f, i, from, to}
		n, last, i = n+1, f, end
	}
	base := s.base + int64(s.r)
	for _, c := range cs[:n] {
		r.fields[c.f] = s.mark(base + int64(c.at))
		a0 := len(r.vals)
		r.vals = s.decode(r.vals, b[c.from:c.to], base+int64(c.from))
		a, z := trim(r.vals, a0)
		if c.f == 1 && a == z {
			r.warn(s.marks[r.fields[1]], RuleInvalidDate, "empty <lastmod> (not read): a date is required when the element is present")
		}
		if c.f >= 2 {
			if v := intern(c.f, r.vals[a:z]); v != "" {
				fixed[c.f] = v
				r.vals = r.vals[:a0]
				continue
			}
		}
		span[c.f] = [2]int{a, z}
	}
	s.r += i
	s.pop(t, len(s.stack))
	return true
}

// noLoc notices an entry without a <loc>, or with an empty one, and drops it.
func (r *Reader) noLoc(off int64, tag string) (*URL, error) {
	if r.fields[0] >= 0 {
		r.warn(off, RuleMissingTag, fmt.Sprintf("<%s> with an empty <loc> (not read)", tag))
	} else {
		r.warn(off, RuleMissingTag, fmt.Sprintf("<%s> without <loc> (not read)", tag))
	}
	return nil, nil
}

// leaf reads the text of the element just started, trimmed.
func (r *Reader) leaf() (string, error) {
	var err error
	if r.scratch, err = r.s.text(r.scratch[:0]); err != nil {
		return "", err
	}
	a, z := trim(r.scratch, 0)
	return string(r.scratch[a:z]), nil
}

// attr returns the trimmed value of an attribute of the last start tag.
func (r *Reader) attr(name string) (string, bool) {
	v, ok := r.s.attr(name)
	if !ok {
		return "", false
	}
	a, z := trim([]byte(v), 0)
	if a == 0 && z == len(v) {
		return v, true
	}
	return v[a:z], true
}

// children calls fn for each child start tag of the element just started
// (s.tag); fn must read or skip the child.
func (r *Reader) children(fn func(t *tagInfo) error) error {
	s := &r.s
	if s.tag.empty {
		return nil
	}
	for {
		tok, err := s.next()
		if err != nil {
			return err
		}
		switch tok {
		case tokEOF:
			return s.eofErr()
		case tokEnd:
			return nil
		}
		if err := fn(&s.tag); err != nil {
			return err
		}
	}
}

// extension reads an element of another namespace inside <url>.
func (r *Reader) extension(u *URL, t *tagInfo) error {
	s := &r.s
	switch {
	case t.id == nsImage && string(t.local) == "image":
		if len(u.Images) >= MaxImages {
			return r.skipOver(overImages, t.off)
		}
		return r.image(u)
	case t.id == nsVideo && string(t.local) == "video":
		if len(u.Videos) >= maxVideos {
			return r.skipOver(overVideos, t.off)
		}
		return r.video(u)
	case t.id == nsNews && string(t.local) == "news":
		if u.News != nil {
			r.warn(t.off, RuleElementOrder, fmt.Sprintf("<%s> repeated (the first is read)", t.qname))
			return s.skip()
		}
		return r.news(u)
	case t.id == nsXHTML && string(t.local) == "link":
		return r.link(u)
	}
	r.unknown(t)
	return s.skip()
}

// A fieldMark is where an extension element of the entry being read
// starts: an element named name of the index-th image (video, alternate),
// at the scanner's mark. Names are the Violation.Field names; they come
// from the tables below, so recording one allocates nothing.
type fieldMark struct {
	name  string
	index int
	mark  int
}

// extKind sorts fieldMarks: each kind's marks are recorded in document
// order, so their indexes ascend and FieldPos finds an index by binary
// search.
type extKind int

const (
	extImage extKind = iota
	extVideo
	extNews
	extLink
	extKinds
)

// kindOf returns the kind of an extension field, -1 for any other name.
func kindOf(field string) extKind {
	switch {
	case strings.HasPrefix(field, "image:"):
		return extImage
	case strings.HasPrefix(field, "video:"):
		return extVideo
	case strings.HasPrefix(field, "news:"):
		return extNews
	case strings.HasPrefix(field, "xhtml:"):
		return extLink
	}
	return -1
}

// markExt records the start (at off) of the extension element name of the
// index-th image, video or alternate, for FieldPos.
func (r *Reader) markExt(k extKind, name string, index int, off int64) {
	r.ext[k] = append(r.ext[k], fieldMark{name: name, index: index, mark: r.s.mark(off)})
}

// markChild is markExt for the child f of an element: only the first child
// of each name is recorded (*seen has bit f set after it), so that an
// element with thousands of children of one name (video:tag) keeps lookups
// short.
func (r *Reader) markChild(k extKind, name string, index int, off int64, seen *uint32, f int) {
	if *seen&(1<<f) == 0 {
		*seen |= 1 << f
		r.markExt(k, name, index, off)
	}
}

// extMark returns the mark of field (an attribute's is its element's) of
// the index-th image, video or alternate, or of the element that holds
// the field when it is absent; -1 when neither was read.
func (r *Reader) extMark(field string, index int) int {
	if i := strings.IndexByte(field, '@'); i >= 0 {
		field = field[:i]
	}
	k := kindOf(field)
	if k < 0 {
		return -1
	}
	marks := r.ext[k]
	i, _ := slices.BinarySearchFunc(marks, index, func(m fieldMark, index int) int { return cmp.Compare(m.index, index) })
	marks = marks[i:]
	for field != "" {
		// At most one mark per child name: a short scan.
		for _, m := range marks {
			if m.index != index {
				break
			}
			if m.name == field {
				return m.mark
			}
		}
		field = extParent(field)
	}
	return -1
}

// extParent names the element that holds an extension field: the
// fallback when the field itself is missing.
func extParent(field string) string {
	switch field {
	case "image:image", "video:video", "news:news", "xhtml:link":
		return ""
	case "news:name", "news:language":
		return "news:publication"
	}
	prefix, _, _ := strings.Cut(field, ":")
	switch prefix {
	case "image":
		return "image:image"
	case "video":
		return "video:video"
	case "news":
		return "news:news"
	}
	return ""
}

// deprecatedMsgs are the notices for the tags and attributes Google
// deprecated on 2022-05-06 (PROTOCOL.md §3.3, §3.4, §3.8), by field name.
// The Reader reads them as it reads any field; the notice lets a checker
// warn that they do nothing.
var deprecatedMsgs = func() map[string]string {
	const tail = " is deprecated by Google and has no effect since 2022-08-06; remove it"
	m := map[string]string{}
	for _, f := range []string{"image:caption", "image:geo_location", "image:title", "image:license",
		"video:category", "video:gallery_loc", "video:price", "video:tvshow"} {
		m[f] = "<" + f + ">" + tail
	}
	for _, a := range []string{"autoplay", "allow_embed"} {
		m["video:player_loc@"+a] = "the " + a + " attribute of <video:player_loc>" + tail
	}
	return m
}()

// deprecated notices the deprecated field (a key of deprecatedMsgs) at off.
func (r *Reader) deprecated(off int64, field string) {
	if r.OnNotice != nil {
		r.notify(off, RuleDeprecatedTag, deprecatedMsgs[field])
	}
}

var imageFields = map[string]int{"loc": 0, "caption": 1, "geo_location": 2, "title": 3, "license": 4}

// imageNames are the Violation.Field names of imageFields.
var imageNames = [...]string{"image:loc", "image:caption", "image:geo_location", "image:title", "image:license"}

func (r *Reader) image(u *URL) error {
	s := &r.s
	off, qname := s.tag.off, string(s.tag.qname)
	index := len(u.Images)
	r.markExt(extImage, "image:image", index, off)
	var img Image
	last := -1
	var seen uint32
	err := r.children(func(t *tagInfo) error {
		f, ok := imageFields[string(t.local)]
		if t.id != nsImage || !ok {
			r.unknown(t)
			return s.skip()
		}
		r.outOfOrder(t, f, &last, false)
		r.markChild(extImage, imageNames[f], index, t.off, &seen, f)
		if f > 0 {
			r.deprecated(t.off, imageNames[f])
		}
		v, err := r.leaf()
		if err != nil {
			return err
		}
		switch f {
		case 0:
			img.Loc = v
		case 1:
			img.Caption = v
		case 2:
			img.GeoLocation = v
		case 3:
			img.Title = v
		case 4:
			img.License = v
		}
		return nil
	})
	if err != nil {
		return err
	}
	if img.Loc == "" {
		// An image is its URL: without one it is dropped, not returned for
		// a Writer to refuse with the whole page.
		r.dropExt(extImage, index)
		r.warn(off, RuleMissingTag, fmt.Sprintf("<%s> %s <image:loc> (not read)", qname, withoutOrEmpty(seen&1 != 0)))
		return nil
	}
	u.Images = append(u.Images, img)
	return nil
}

// dropExt forgets the marks of the index-th image or video, which is not
// returned, so that the next one, given the same index, finds its own.
func (r *Reader) dropExt(k extKind, index int) {
	marks := r.ext[k]
	for len(marks) > 0 && marks[len(marks)-1].index == index {
		marks = marks[:len(marks)-1]
	}
	r.ext[k] = marks
}

// withoutOrEmpty words a missing required child: "with an empty" when its
// element was there, "without" when not.
func withoutOrEmpty(present bool) string {
	if present {
		return "with an empty"
	}
	return "without"
}

// videoFields gives the schema's order of <video:video>'s children.
var videoFields = map[string]int{
	"thumbnail_loc": 0, "title": 1, "description": 2, "content_loc": 3, "player_loc": 4,
	"duration": 5, "expiration_date": 6, "rating": 7, "content_segment_loc": 8, "view_count": 9,
	"publication_date": 10, "tag": 11, "category": 12, "family_friendly": 13, "restriction": 14,
	"gallery_loc": 15, "price": 16, "requires_subscription": 17, "uploader": 18, "tvshow": 19,
	"platform": 20, "live": 21, "id": 22,
}

// videoNames are the Violation.Field names of videoFields.
var videoNames = [...]string{
	"video:thumbnail_loc", "video:title", "video:description", "video:content_loc", "video:player_loc",
	"video:duration", "video:expiration_date", "video:rating", "video:content_segment_loc", "video:view_count",
	"video:publication_date", "video:tag", "video:category", "video:family_friendly", "video:restriction",
	"video:gallery_loc", "video:price", "video:requires_subscription", "video:uploader", "video:tvshow",
	"video:platform", "video:live", "video:id",
}

func (r *Reader) video(u *URL) error {
	s := &r.s
	off, qname := s.tag.off, string(s.tag.qname)
	index := len(u.Videos)
	r.markExt(extVideo, "video:video", index, off)
	var v Video
	last := -1
	var seen uint32
	defer func() {
		r.sayOver(overTags, len(v.Tags))
		r.sayOver(overPrices, len(v.Prices))
	}()
	err := r.children(func(t *tagInfo) error {
		f, ok := videoFields[string(t.local)]
		if t.id != nsVideo || !ok {
			r.unknown(t)
			return s.skip()
		}
		r.outOfOrder(t, f, &last, f == 8 || f == 11 || f == 16 || f == 22)
		switch f {
		case 12, 15, 16, 19: // category, gallery_loc, price, tvshow
			r.deprecated(t.off, videoNames[f])
		}
		// Attributes first: reading the text scans past them.
		var a1, a2, a3 string
		switch {
		case f == 8 || f == 19 || f == 22: // content_segment_loc, tvshow, id: no field in Video
			return s.skip()
		case f == 11 && len(v.Tags) >= MaxVideoTags:
			return r.skipOver(overTags, t.off)
		case f == 16 && len(v.Prices) >= maxPrices:
			return r.skipOver(overPrices, t.off)
		}
		switch f {
		case 4:
			if _, ok := s.attr("autoplay"); ok {
				r.deprecated(t.off, "video:player_loc@autoplay")
			}
			if _, ok := s.attr("allow_embed"); ok {
				r.deprecated(t.off, "video:player_loc@allow_embed")
			}
		case 14, 20:
			a1, _ = r.attr("relationship")
		case 16:
			a1, _ = r.attr("currency")
			a2, _ = r.attr("type")
			a3, _ = r.attr("resolution")
		case 18:
			a1, _ = r.attr("info")
		}
		r.markChild(extVideo, videoNames[f], index, t.off, &seen, f)
		val, err := r.leaf()
		if err != nil {
			return err
		}
		switch f {
		case 0:
			v.ThumbnailLoc = val
		case 1:
			v.Title = val
		case 2:
			v.Description = val
		case 3:
			v.ContentLoc = val
		case 4:
			v.PlayerLoc = val
		case 5:
			v.Duration = val
		case 6:
			v.ExpirationDate = val
		case 7:
			v.Rating = val
		case 9:
			v.ViewCount = val
		case 10:
			v.PublicationDate = val
		case 11:
			v.Tags = append(v.Tags, val)
		case 12:
			v.Category = val
		case 13:
			v.FamilyFriendly = val
		case 14:
			v.Restriction = &Restriction{Relationship: a1, Countries: val}
		case 15:
			v.GalleryLoc = val
		case 16:
			v.Prices = append(v.Prices, Price{Value: val, Currency: a1, Type: a2, Resolution: a3})
		case 17:
			v.RequiresSubscription = val
		case 18:
			v.Uploader = &Uploader{Name: val, Info: a1}
		case 20:
			v.Platform = &Platform{Relationship: a1, Platforms: val}
		case 21:
			v.Live = val
		}
		return nil
	})
	if err != nil {
		return err
	}
	if v.ThumbnailLoc == "" && seen&1 != 0 {
		// An empty thumbnail, as an image's empty URL: the video is
		// dropped, the page is kept. A video without the element is read
		// as the file has it, as other readers do.
		at := s.marks[r.extMark("video:thumbnail_loc", index)]
		r.dropExt(extVideo, index)
		r.warn(at, RuleVideo, fmt.Sprintf("<%s> with an empty <video:thumbnail_loc> (not read): Google requires it in every <video:video>", qname))
		return nil
	}
	u.Videos = append(u.Videos, v)
	return nil
}

var newsFields = map[string]int{
	"publication": 0, "access": 1, "genres": 2, "publication_date": 3, "title": 4, "keywords": 5, "stock_tickers": 6,
}

// newsNames are the Violation.Field names of newsFields.
var newsNames = [...]string{
	"news:publication", "news:access", "news:genres", "news:publication_date", "news:title", "news:keywords", "news:stock_tickers",
}

func (r *Reader) news(u *URL) error {
	s := &r.s
	r.markExt(extNews, "news:news", 0, s.tag.off)
	n := new(News)
	last := -1
	var seen uint32 // bits 0 to 6: newsFields; 7 and 8: name and language
	err := r.children(func(t *tagInfo) error {
		f, ok := newsFields[string(t.local)]
		if t.id != nsNews || !ok {
			r.unknown(t)
			return s.skip()
		}
		r.outOfOrder(t, f, &last, false)
		r.markChild(extNews, newsNames[f], 0, t.off, &seen, f)
		if f == 0 {
			return r.publication(&n.Publication, &seen)
		}
		val, err := r.leaf()
		if err != nil {
			return err
		}
		switch f {
		case 1:
			n.Access = val
		case 2:
			n.Genres = val
		case 3:
			n.PublicationDate = val
		case 4:
			n.Title = val
		case 5:
			n.Keywords = val
		case 6:
			n.StockTickers = val
		}
		return nil
	})
	if err != nil {
		return err
	}
	u.News = n
	return nil
}

func (r *Reader) publication(p *Publication, seen *uint32) error {
	s := &r.s
	last := -1
	return r.children(func(t *tagInfo) error {
		local := string(t.local)
		if t.id != nsNews || local != "name" && local != "language" {
			r.unknown(t)
			return s.skip()
		}
		f, name := 0, "news:name"
		if local == "language" {
			f, name = 1, "news:language"
		}
		r.outOfOrder(t, f, &last, false)
		r.markChild(extNews, name, 0, t.off, seen, 7+f)
		val, err := r.leaf()
		if f == 0 {
			p.Name = val
		} else {
			p.Language = val
		}
		return err
	})
}

// link reads an <xhtml:link>: an hreflang alternate when rel="alternate"
// and hreflang is set. rel is matched as HTML matches link types, without
// regard to ASCII case ("Alternate" is an alternate too). Other links
// (rel="amphtml", app deep links without hreflang) are not part of the
// protocol's data and are skipped; but a link without rel, or one that
// carries an hreflang under another rel, is noticed: it was meant as an
// alternate, and Google does not read it as one.
func (r *Reader) link(u *URL) error {
	s := &r.s
	t := &s.tag
	rel, hasRel := r.attr("rel")
	lang, hasLang := r.attr("hreflang")
	href, _ := r.attr("href")
	alternate := rel == "alternate" || strings.EqualFold(rel, "alternate")
	switch {
	case !hasRel:
		r.warn(t.off, RuleMissingTag, fmt.Sprintf("<%s> without rel (not read): an hreflang alternate is <%s rel=\"alternate\" hreflang=\"…\" href=\"…\"/>", t.qname, t.qname))
	case hasLang && !alternate:
		r.warn(t.off, RuleHreflang, fmt.Sprintf("<%s rel=%q hreflang=%q> (not read): an hreflang alternate has rel=\"alternate\"", t.qname, rel, lang))
	}
	if alternate && hasLang {
		switch {
		case href == "":
			r.warn(t.off, RuleMissingTag, fmt.Sprintf("<%s rel=\"alternate\" hreflang=%q> without href (not read)", t.qname, lang))
		case lang == "":
			// As an image without its URL: the alternate is dropped, the
			// page is kept.
			r.warn(t.off, RuleHreflang, fmt.Sprintf("<%s rel=\"alternate\"> with an empty hreflang (not read): give a language code such as en or en-GB, or x-default", t.qname))
		case len(u.Alternates) >= maxAlternates:
			return r.skipOver(overAlternates, t.off)
		default:
			r.markExt(extLink, "xhtml:link", len(u.Alternates), t.off)
			u.Alternates = append(u.Alternates, Alternate{Hreflang: lang, Href: href})
		}
	}
	return s.skip()
}

// Caps on a repeated child of one <url> or video, past which the Reader
// counts the elements without keeping them: one <url> of a hostile file
// (600,000 images: 47 MB, 95 KB gzipped) then costs what a legal one does.
// Images and video tags have the protocol's limits (MaxImages,
// MaxVideoTags); the others have none, and these are far past any real
// page.
const (
	maxVideos     = 1000 // <video:video> per <url>
	maxAlternates = 1000 // hreflang <xhtml:link> per <url>
	maxPrices     = 100  // <video:price> per video
)

// The repeated children that have a cap, as indexes of Reader.over.
const (
	overImages = iota
	overVideos
	overAlternates
	overTags
	overPrices
	overKinds
)

// overNames name the children of each over kind, with the Rule and the cap
// of their notice.
var overNames = [overKinds]struct {
	what, rule, limit string
	max               int
}{
	{"images", RuleTooManyImages, "a <url> may carry at most 1,000", MaxImages},
	{"videos", RuleVideo, "more than sitemapkit reads in one <url>", maxVideos},
	{"hreflang alternates", RuleHreflang, "more than sitemapkit reads in one <url>", maxAlternates},
	{"tags", RuleVideo, "a video may carry at most 32", MaxVideoTags},
	{"prices", RuleVideo, "more than sitemapkit reads in one video", maxPrices},
}

// An excess counts the children of one kind skipped past its cap.
type excess struct {
	n   int   // skipped
	off int64 // the first one skipped
}

// skipOver counts the element of kind k at off and skips it unread.
func (r *Reader) skipOver(k int, off int64) error {
	e := &r.over[k]
	if e.n == 0 {
		e.off = off
	}
	e.n++
	return r.s.skip()
}

// sayOver notices the children of kind k that were skipped, once, with the
// real count, and resets the count.
func (r *Reader) sayOver(k, kept int) {
	e := &r.over[k]
	if e.n == 0 {
		return
	}
	o := overNames[k]
	r.warn(e.off, o.rule, fmt.Sprintf("%d %s; %s: the first %d are read", kept+e.n, o.what, o.limit, o.max))
	e.n = 0
}
