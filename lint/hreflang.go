package lint

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"runtime"
)

// A link is one hreflang alternate: page from lists page to.
type link struct {
	from, to uint64
	file     uint32
	line     uint32
}

// The parts a link plays in the reciprocity check, in the order they sort
// in within a page's records.
const (
	linkHas uint8 = iota // the page (key) has alternates; other is 0
	linkOut              // the page lists other
	linkIn               // other lists the page, at file:line
)

// A linkRecord is a page's part in a link, keyed by the page: sorted, a
// page's records come together, its having alternates first, then by the
// other page, its own link to it before the other's link to it.
type linkRecord struct {
	key, other uint64
	kind       uint8
	file, line uint32
}

var linkCodec = codec[linkRecord]{
	size: 25,
	key:  func(r linkRecord) uint64 { return r.key },
	cmp: func(x, y linkRecord) int {
		return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.other, y.other), cmp.Compare(x.kind, y.kind),
			cmp.Compare(x.file, y.file), cmp.Compare(x.line, y.line))
	},
	put: func(b []byte, r linkRecord) {
		binary.LittleEndian.PutUint64(b, r.key)
		binary.LittleEndian.PutUint64(b[8:], r.other)
		b[16] = r.kind
		binary.LittleEndian.PutUint32(b[17:], r.file)
		binary.LittleEndian.PutUint32(b[21:], r.line)
	},
	get: func(b []byte) linkRecord {
		return linkRecord{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]), b[16],
			binary.LittleEndian.Uint32(b[17:]), binary.LittleEndian.Uint32(b[21:])}
	},
}

// placeCodec orders places (file<<32 | line).
var placeCodec = codec[uint64]{
	size: 8,
	key:  func(p uint64) uint64 { return p },
	cmp:  cmp.Compare[uint64],
	put:  func(b []byte, p uint64) { binary.LittleEndian.PutUint64(b, p) },
	get:  func(b []byte) uint64 { return binary.LittleEndian.Uint64(b) },
}

// addLinks adds a document's links (an entry's consecutive) to the set's;
// c.mu is held.
func (c *Checker) addLinks(links []link) {
	if len(links) == 0 {
		return
	}
	if c.links == nil {
		c.links = &spill[linkRecord]{dir: c.TempDir, c: &linkCodec}
		// A Checker dropped without Finish must not leave its runs.
		runtime.AddCleanup(c, (*spill[linkRecord]).remove, c.links)
	}
	for i, l := range links {
		if i == 0 || l.from != links[i-1].from || l.line != links[i-1].line {
			c.links.add(linkRecord{key: l.from, kind: linkHas})
		}
		if l.from == l.to {
			continue // the page itself: it has alternates, which linkHas says
		}
		c.links.add(linkRecord{key: l.from, other: l.to, kind: linkOut})
		c.links.add(linkRecord{key: l.to, other: l.from, kind: linkIn, file: l.file, line: l.line})
	}
}

// reciprocity reports every link a→b (a ≠ b) where b is a page of the set
// that has alternates of its own but none back to a. A b that is not in
// the set, or has no alternates in it, may carry its hreflang in its HTML
// or in another site's sitemap: it is not reported. A link listed more
// than once is judged at its first place.
//
// The links go through sorted runs on disk (see spill), which keep memory
// flat: a million pages of five alternates each are 25 million records'
// bytes, 250 MB, too many to hold. Sorted by page, each page's records say
// whether it has alternates and, next to each link to it, whether it links
// back; the places of the links not returned are sorted again, to be
// reported by place, those of one line together.
func (c *Checker) reciprocity() {
	if c.links == nil {
		return
	}
	bad := &spill[uint64]{dir: c.TempDir, c: &placeCodec}
	defer bad.remove()
	var (
		key, other              uint64
		started, has, sub, back bool
		judged                  bool // the first link from other to key was judged
	)
	for r := range c.links.merged() {
		if !started || r.key != key {
			key, started, has, sub = r.key, true, r.kind == linkHas, false
		}
		if r.kind == linkHas {
			continue
		}
		if !sub || r.other != other {
			other, sub, back, judged = r.other, true, false, false
		}
		switch r.kind {
		case linkOut:
			back = true
		case linkIn:
			if has && !back && !judged {
				bad.add(uint64(r.file)<<32 | uint64(r.line))
			}
			judged = true
		}
	}
	if err := cmp.Or(c.links.err, bad.err); err != nil {
		c.report(Diagnostic{Rule: HreflangNotReciprocal.Name, Severity: HreflangNotReciprocal.Severity,
			Message: fmt.Sprintf("hreflang reciprocity not checked: %v", err)})
		return
	}
	var (
		at   uint64
		n    int
		have bool
	)
	flush := func() {
		if !have {
			return
		}
		msg := "an hreflang alternate of this URL has alternates of its own in this set, but none back to this URL; Google ignores links that are not returned"
		if n > 1 {
			msg = fmt.Sprintf("%d hreflang alternates of this URL have alternates of their own in this set, but none back to this URL; Google ignores links that are not returned", n)
		}
		c.reportLate(Diagnostic{File: c.files[at>>32], Line: int(uint32(at)), Rule: HreflangNotReciprocal.Name, Severity: HreflangNotReciprocal.Severity, Message: msg})
	}
	for p := range bad.merged() {
		if have && p == at {
			n++
			continue
		}
		flush()
		at, n, have = p, 1, true
	}
	flush()
}
