package publish

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// A stable set (Options.Stable) keeps each URL in the file it was first
// written to, so that a change to a few pages rewrites the few files that
// hold them and leaves the others as they are: same name, same bytes, same
// mtime, and an index whose <lastmod> for them does not move.
//
// The file of a URL is a place in its group: the number N of
// stem-N-XXXXXXXX.ext, which stays while the checksum part follows the
// content. Place puts a URL in the file its caller remembers it in (package
// state keeps that), new URLs in the group's last file while it has room,
// then in a new file. Each file is encoded as its URLs arrive, into a spool
// of its own beside the set (a temp file: memory does not grow with the
// set), so that the URLs of one file may arrive in any order among the
// others'. At Publish, a file whose complete document has the checksum and
// size the manifest records for that place is kept; the others are
// written. Files left less than a quarter full (of both limits) are merged
// into an earlier one of their group that has room, so the set stays
// compact as URLs go; Result.Moves says which, for the caller to remember.

// mergeBelow: a file holding less than 1/mergeBelow of both limits is
// merged into another when one has room.
const mergeBelow = 4

// A Move says that the URLs of file From of Group were merged into file To
// of the same group, when it fell below the fill threshold (see
// Options.Stable). The caller records the URLs' new place.
type Move struct {
	Group    string
	From, To int
}

// place names a file of a stable set: its group and number.
type place struct {
	group string
	n     int
}

// stableSet is a Builder's state with Options.Stable.
type stableSet struct {
	slots map[place]*slot
	order []string       // groups, in the order they first received a URL
	last  map[string]int // the highest file number of each group, in the last set or this one
	prev  map[place]manifestFile
	// header and closing frame every document of the set's format, as an
	// empty document shows them: the entries lie between the two.
	header, closing string
	moves           []Move
}

// A slot is one file of a stable set while its URLs arrive.
type slot struct {
	at     place
	w      *sitemap.Writer
	sink   spool
	news   int
	latest child   // the latest lastmod of its URLs (see noteLastmod)
	merged []*slot // files merged into this one, in order
	size   int64   // the complete document's size, once closed
}

// spool is the temp file a slot's document is encoded into. It is opened
// for each write, so that a set of many files does not hold as many
// descriptors; the Writer's own buffer makes writes large.
type spool struct {
	path string
	sum  checksum
	// digest is the sum of the hashes of the document's lines: one entry
	// per line, so it says which entries the file holds, whatever their
	// order (a source that lists the same pages in another order has not
	// changed them). line hashes the line begun.
	digest uint64
	line   xxhash.Digest
}

// hashLines adds b's complete lines to the digest, and keeps the line it
// ends inside of. xxHash64, stable from run to run (the manifest keeps
// the digest), and its bits uniform, so that a sum of them has no
// structure two different sets of lines could share by accident.
func (s *spool) hashLines(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			s.line.Write(b)
			return
		}
		s.line.Write(b[:i])
		s.digest += s.line.Sum64()
		s.line.Reset()
		b = b[i+1:]
	}
}

func (s *spool) Write(b []byte) (int, error) {
	f, err := os.OpenFile(s.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return 0, fmt.Errorf("publish: %w", err)
	}
	n, err := f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	s.sum.write(b[:n])
	s.hashLines(b[:n])
	if err != nil {
		return n, fmt.Errorf("publish: writing %s: %w", s.path, err)
	}
	return n, nil
}

// newStableSet prepares a stable set over the one old records.
func newStableSet(opts Options, old *manifest) *stableSet {
	st := &stableSet{slots: map[place]*slot{}, last: map[string]int{}, prev: map[place]manifestFile{}}
	var empty strings.Builder
	w := sitemap.NewWriter(&empty, opts.Format)
	_ = w.Close() // to a strings.Builder: cannot fail
	doc := empty.String()
	// The closing tag is the document's last line (none for text).
	if i := strings.LastIndexByte(strings.TrimSuffix(doc, "\n"), '\n'); i >= 0 {
		st.header, st.closing = doc[:i+1], doc[i+1:]
	}
	for _, f := range old.Files {
		if f.Index {
			continue
		}
		at, ok := placeOf(opts.Name, f)
		if !ok {
			continue
		}
		st.prev[at] = f
		st.last[at.group] = max(st.last[at.group], at.n)
	}
	return st
}

// placeOf returns the place of a child the manifest records: its group and
// number, read from its name (the single file is file 1).
func placeOf(name string, f manifestFile) (place, bool) {
	stem := name
	if f.Group != "" {
		stem = f.Group
	}
	if f.Group == "" && (f.Name == name+".xml" || f.Name == name+".txt" || f.Name == name+".xml.gz" || f.Name == name+".txt.gz") {
		return place{n: 1}, true
	}
	if !ownChild(stem, f.Name) {
		return place{}, false
	}
	num, _, _ := strings.Cut(strings.TrimPrefix(f.Name, stem+"-"), "-")
	n, err := strconv.Atoi(num)
	return place{group: f.Group, n: n}, err == nil && n > 0
}

// placeStable writes v into file want of the current group if it has
// room, else into the group's last file, else into a new one, and returns
// the number of the file that took it.
func (b *Builder) placeStable(v *sitemap.URL, want int) (int, error) {
	st, g := b.stable, b.group
	if b.opts.Index == IndexNever {
		// The set is one file: a URL an earlier set (with an index) kept
		// in file 2 goes to file 1 like the others, rather than start a
		// second file that fails the run for URLs that all fit in one.
		want = 1
	}
	tried := 0
	for _, n := range []int{want, st.last[g], st.last[g] + 1} {
		if n <= 0 || n == tried {
			continue
		}
		tried = n
		s, err := b.slot(place{g, n})
		if err != nil {
			return 0, b.fail(err)
		}
		err = s.w.WriteURL(v)
		if errors.Is(err, sitemap.ErrFull) {
			continue
		}
		if err != nil {
			if s.w.Count() == 0 {
				b.dropSlot(s)
			}
			if _, ok := errors.AsType[*sitemap.Violation](err); ok {
				return 0, err // counted by Place, once it is final
			}
			return 0, b.refuse(err, "")
		}
		if v.News != nil {
			s.news++
		}
		if b.opts.Format == sitemap.FormatURLSet {
			s.latest.noteLastmod(v.LastMod)
		}
		st.last[g] = max(st.last[g], n)
		return n, nil
	}
	// Unreachable: an entry that no empty document holds is a Violation.
	return 0, b.fail(errors.New("publish: no file could take " + v.Loc))
}

// Published returns the names of the children of the set published in
// Options.Dir, as its manifest records them, in order of group and
// number; nil without Options.Stable. The caller's own record of which file
// holds a URL may name a file that never went live (a run killed after it
// recorded the set and before the swap): these are the files that did.
func (b *Builder) Published() []string {
	if b.stable == nil {
		return nil
	}
	ats := slices.SortedFunc(maps.Keys(b.stable.prev), func(x, y place) int {
		return cmp.Or(cmp.Compare(x.group, y.group), cmp.Compare(x.n, y.n))
	})
	names := make([]string, len(ats))
	for i, at := range ats {
		names[i] = b.stable.prev[at].Name
	}
	return names
}

// slot returns the slot at p, starting it (and its spool) if needed.
func (b *Builder) slot(p place) (*slot, error) {
	st := b.stable
	if s := st.slots[p]; s != nil {
		return s, nil
	}
	if b.opts.Index == IndexNever && (p.group != "" || len(st.slots) > 0) {
		return nil, ErrNeedsIndex
	}
	f, err := b.pipe.createTemp()
	if err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	s := &slot{at: p, sink: spool{path: f.Name()}}
	s.sink.line.Reset()
	s.w = sitemap.NewWriter(&s.sink, b.opts.Format)
	s.w.MaxURLs, s.w.MaxBytes = b.opts.MaxURLs, b.opts.MaxBytes
	s.w.LocsChecked = true // Place applied the scope
	st.slots[p] = s
	if !slices.Contains(st.order, p.group) {
		st.order = append(st.order, p.group)
	}
	return s, nil
}

// dropSlot forgets a slot started for a URL that was then refused.
func (b *Builder) dropSlot(s *slot) {
	delete(b.stable.slots, s.at)
	os.Remove(s.sink.path)
}

// finishStable closes every file of the stable set, merges the files left
// too empty, and turns each into a child: kept, when the published file at
// its place holds this very document, or written through the pipeline.
func (b *Builder) finishStable(ctx context.Context) error {
	st := b.stable
	byGroup := map[string][]*slot{}
	for _, s := range st.slots {
		if err := s.w.Close(); err != nil {
			return err
		}
		s.size = s.w.Len()
		byGroup[s.at.group] = append(byGroup[s.at.group], s)
	}
	var final []*slot
	for _, g := range st.order {
		slots := byGroup[g]
		slices.SortFunc(slots, func(a, b *slot) int { return cmp.Compare(a.at.n, b.at.n) })
		final = append(final, b.merge(slots)...)
	}
	// The one file of a set without groups is published alone, as the
	// set (see layout.single); with IndexAuto, plain even with Gzip.
	alone := len(final) == 1 && final[0].at.group == "" && b.opts.Index != IndexAlways
	changedAt := ""
	if !b.opts.ChangedAt.IsZero() {
		changedAt = sitemap.FormatDate(b.opts.ChangedAt)
	}
	l := b.layout()
	for _, s := range final {
		c := &child{n: len(b.children) + 1, group: s.at.group, gn: s.at.n}
		c.entries = s.w.Count()
		c.gzip = b.opts.Gzip && !(alone && b.opts.Index == IndexAuto)
		c.raw = s.size
		c.noteLastmod(s.latest.latest)
		for _, m := range s.merged {
			c.entries += m.w.Count()
			c.raw += m.size - int64(len(st.header)+len(st.closing))
			c.noteLastmod(m.latest.latest)
		}
		b.children = append(b.children, c)
		if len(s.merged) == 0 && b.keepSlot(l, s, c, alone) {
			continue
		}
		if old, existed := st.prev[s.at]; existed && changedAt != "" && b.opts.Format == sitemap.FormatURLSet {
			if len(s.merged) == 0 && sameEntries(old, s, c) {
				// Written again only under another name (alone then and
				// a child now, gzipped now and not then): its content
				// did not change, nor does its date.
				c.noteLastmod(old.LastMod)
			} else {
				c.noteLastmod(changedAt)
			}
		}
		c.digest = digestText(s.digest(st))
		c.raw = 0 // counted again by the pipeline, as it writes
		if err := b.compose(ctx, s, c); err != nil {
			return err
		}
	}
	return nil
}

// keepSlot reports whether the published file at s's place holds the
// entries s encoded (in any order: see spool.digest), in the form this set
// writes (gzipped or not, alone or a child), and if so makes c that file:
// same name, bytes and index lastmod.
func (b *Builder) keepSlot(l layout, s *slot, c *child, alone bool) bool {
	old, ok := b.stable.prev[s.at]
	if !ok || !sameEntries(old, s, c) {
		return false
	}
	sum, err := strconv.ParseUint(old.Sum, 16, 32)
	if err != nil {
		return false
	}
	c.sum = uint32(sum)
	if l.nameChild(c, alone).Name != old.Name {
		return false // gzipped now and not then, or alone then and not now
	}
	if st := lstatIn(b.opts.Dir)(old.Name); !st.regular || st.size != old.Disk {
		return false
	}
	c.raw, c.disk, c.digest = old.Bytes, old.Disk, old.Digest
	if b.opts.Format == sitemap.FormatURLSet {
		c.latest, c.latestOK = old.LastMod, false
	}
	os.Remove(s.sink.path)
	return true
}

// sameEntries reports whether the file old recorded at s's place held the
// very entries s encoded (in any order), as c counts them.
func sameEntries(old manifestFile, s *slot, c *child) bool {
	return old.Digest != "" && old.Digest == digestText(s.sink.digest) && old.Entries == c.entries
}

// digestText is a digest as the manifest keeps it: 16 hex digits.
func digestText(d uint64) string { return fmt.Sprintf("%016x", d) }

// digest is the digest of the document s and the files merged into it
// make: each part's, less the frame's lines that only the first keeps.
func (s *slot) digest(st *stableSet) uint64 {
	var frame spool
	frame.line.Reset()
	frame.hashLines([]byte(st.header + st.closing))
	d := s.sink.digest
	for _, m := range s.merged {
		d += m.sink.digest - frame.digest
	}
	return d
}

// merge returns the slots of one group, sorted by number, with each file
// below the fill threshold merged into the first earlier one below it that
// has room for it.
func (b *Builder) merge(slots []*slot) []*slot {
	st := b.stable
	frame := int64(len(st.header) + len(st.closing))
	sparse := func(s *slot) bool {
		return s.w.Count()*mergeBelow < b.opts.MaxURLs && s.size*mergeBelow < b.opts.MaxBytes
	}
	var out []*slot
	type room struct {
		s           *slot
		count, news int
		size        int64
	}
	var open []*room
	for _, s := range slots {
		if !sparse(s) {
			out = append(out, s)
			continue
		}
		i := slices.IndexFunc(open, func(r *room) bool {
			return r.count+s.w.Count() <= b.opts.MaxURLs && r.size+s.size-frame <= b.opts.MaxBytes &&
				r.news+s.news <= sitemap.MaxNews
		})
		if i < 0 {
			open = append(open, &room{s: s, count: s.w.Count(), news: s.news, size: s.size})
			out = append(out, s)
			continue
		}
		r := open[i]
		r.count, r.news, r.size = r.count+s.w.Count(), r.news+s.news, r.size+s.size-frame
		r.s.merged = append(r.s.merged, s)
		st.moves = append(st.moves, Move{Group: s.at.group, From: s.at.n, To: r.s.at.n})
	}
	return out
}

// compose writes the document of s (with the files merged into it) as
// child c, through the pipeline, which gzips, checksums and fsyncs it.
func (b *Builder) compose(ctx context.Context, s *slot, c *child) error {
	st := b.stable
	b.cw.ctx, b.cw.c, b.cw.gz = ctx, c, c.gzip
	parts := append([]*slot{s}, s.merged...)
	if _, err := io.WriteString(&b.cw, st.header); err != nil {
		return err
	}
	for _, p := range parts {
		if err := b.copyEntries(p); err != nil {
			return err
		}
		os.Remove(p.sink.path)
	}
	if _, err := io.WriteString(&b.cw, st.closing); err != nil {
		return err
	}
	return b.cw.end()
}

// copyEntries copies the entries of slot p's spool, without its frame, to
// the current child.
func (b *Builder) copyEntries(p *slot) error {
	st := b.stable
	f, err := os.Open(p.sink.path)
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	defer f.Close()
	body := p.size - int64(len(st.header)+len(st.closing))
	if _, err := f.Seek(int64(len(st.header)), io.SeekStart); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	if n, err := io.CopyN(&b.cw, f, body); err != nil {
		return fmt.Errorf("publish: reading %s back (%d of %d bytes): %w", filepath.Base(p.sink.path), n, body, err)
	}
	return nil
}
