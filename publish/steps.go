package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Publish swaps a finished set in, in four steps (see the package doc):
//
//	plan    decide each file's name and what becomes of it, from the
//	        finished children, the previous manifest and what the folder
//	        holds; nothing is written
//	stage   write the index files that changed to temp files, fsynced; drop
//	        the temps of files left as they are
//	swap    record the names about to appear; rename the new children into
//	        place, then the index files (or the single file) over the old
//	        ones
//	retire  record the new set, then remove the old files it no longer names
//
// The steps share one publication: the plan, which stage and swap fill in
// with temp file names.

// An action is what swap does with one file of the new set.
type action uint8

const (
	keep    action = iota // the published file already holds this content: it is left as it is
	create                // a child, under a name no file has: its temp is renamed to it
	replace               // an index file, or the single file: its temp is renamed over the old one
)

// planned is one file of the new set.
type planned struct {
	File
	sum    string // CRC-32C of the uncompressed content, 8 hex digits
	disk   int64  // size on disk
	digest string // a stable set's child: see child.digest
	tmp    string // its complete temp file: a child's from the pipeline, an index file's once staged
	doc    []byte // an index file's content, until staged
	action action
	// verify: kept, but no manifest vouches for the file under its name
	// (a set whose manifest was lost, or a file someone put there): stage
	// keeps it only if it holds the temp file's very bytes.
	verify bool
}

func (p *planned) record() manifestFile {
	return manifestFile{Name: p.Name, Bytes: p.Bytes, Disk: p.disk, Sum: p.sum, Entries: p.Entries, Index: p.Index, Group: p.Group, LastMod: p.LastMod, Digest: p.digest}
}

// A publication is the plan of one run: the new set file by file, and the
// manifests that record it.
type publication struct {
	single   bool       // the one child is published alone, as the set, without an index
	children []*planned // in the order they were written
	indexes  []*planned // the index files; none when single
	// announce is the old manifest with the files about to appear added as
	// pending, written before any of them does; nil when none is new.
	announce *manifest
	// next is the new set, with the old files it no longer names, and only
	// files of the set's name shapes, pending removal.
	next    *manifest
	rewrite bool // next differs from the old manifest: it must be written
	// movedFrom is the manifest in Dir that Options.Manifest replaces,
	// removed once the manifest is written at its new place.
	movedFrom string
}

// files returns every file of the new set, index files first.
func (p *publication) files() []*planned { return slices.Concat(p.indexes, p.children) }

// tops returns the files a reader starts from: the index files, or the
// single file.
func (p *publication) tops() []*planned {
	if p.single {
		return p.children
	}
	return p.indexes
}

// inner returns the files the index files name (none when single).
func (p *publication) inner() []*planned {
	if p.single {
		return nil
	}
	return p.children
}

// A layout is what the names and index files of a set depend on.
type layout struct {
	dir       string // where the set is published (for error messages)
	name      string // Options.Name
	ext       string // ".xml" or ".txt"
	publicURL string
	index     IndexMode
	maxURLs   int
	maxBytes  int64
}

func (b *Builder) layout() layout {
	l := layout{dir: b.opts.Dir, name: b.opts.Name, ext: ".xml", publicURL: b.publicURL,
		index: b.opts.Index, maxURLs: b.opts.MaxURLs, maxBytes: b.opts.MaxBytes}
	if b.opts.Format == sitemap.FormatText {
		l.ext = ".txt"
	}
	return l
}

// An onDisk is what the folder holds under a name, as plan needs it.
type onDisk struct {
	exists  bool
	regular bool
	size    int64
	err     error // Lstat failed, other than for a missing file
}

// lstatIn returns the state of the files in dir, for plan.
func lstatIn(dir string) func(name string) onDisk {
	return func(name string) onDisk {
		st, err := os.Lstat(filepath.Join(dir, name))
		switch {
		case err == nil:
			return onDisk{exists: true, regular: st.Mode().IsRegular(), size: st.Size()}
		case errors.Is(err, fs.ErrNotExist):
			return onDisk{}
		default:
			return onDisk{err: err}
		}
	}
}

// plan decides the publication of children, complete in their temp files,
// over the set old records, given the state of the folder's files by name:
// each file's name, the index files' content, which files are kept as they
// are, and which old files are retired. It writes nothing. It fails when a
// child's name is taken by a file with other content.
func plan(l layout, children []*child, old *manifest, state func(name string) onDisk) (*publication, error) {
	p := &publication{single: l.single(children)}
	for _, c := range children {
		p.children = append(p.children, l.nameChild(c, p.single))
	}
	if !p.single {
		var err error
		if p.indexes, err = l.indexFiles(children, p.children); err != nil {
			return nil, err
		}
	}
	if err := p.decide(l.dir, old, state); err != nil {
		return nil, err
	}
	p.account(l.name, old)
	return p, nil
}

// decide sets what becomes of each file, from what the folder holds under
// its name and what old says that is. A child is created under its name,
// or kept when the file there holds its content; a file with other content
// under a child's name is an error (a published child is never
// overwritten). An index file or the single file replaces the old one,
// unless old says it holds this content already.
func (p *publication) decide(dir string, old *manifest, state func(name string) onDisk) error {
	for _, f := range p.inner() {
		st := state(f.Name)
		switch {
		case st.err != nil:
			return fmt.Errorf("publish: %w", st.err)
		case !st.exists:
			f.action = create
		case !sameFile(old, f, st):
			return errTaken(filepath.Join(dir, f.Name))
		default:
			f.action = keep
			_, known := old.find(f.Name)
			f.verify = !known
		}
	}
	for _, f := range p.tops() {
		f.action = replace
		if st := state(f.Name); st.regular && old.holds(f.Name, f.sum, f.Bytes, st.size) {
			f.action = keep
		}
	}
	for _, f := range p.files() {
		f.Kept = f.action == keep
	}
	return nil
}

// single reports whether the one child is published alone, as the set:
// not with IndexAlways, nor for a group; nor with IndexAuto when it was
// gzipped already because a second child was begun (for a URL then
// refused): it then gets an index like any child.
func (l layout) single(children []*child) bool {
	if len(children) != 1 || l.index == IndexAlways || children[0].group != "" {
		return false
	}
	return !(l.index == IndexAuto && children[0].gzip)
}

// nameChild plans child c: stem-N-XXXXXXXX.ext, named after its group (or
// the set) and its content, or the set's own name when it is single.
func (l layout) nameChild(c *child, single bool) *planned {
	p := &planned{sum: hexSum(c.sum), disk: c.disk, tmp: c.tmp, digest: c.digest}
	p.Entries, p.Bytes, p.Group, p.N, p.LastMod, p.File.Sum = c.entries, c.raw, c.group, c.gn, c.latest, p.sum
	ext := l.ext
	if c.gzip {
		ext += ".gz"
		p.GzipBytes = c.disk
	}
	stem := l.name
	if c.group != "" {
		stem = c.group
	}
	if single {
		p.Name = l.name + ext
	} else {
		p.Name = stem + "-" + strconv.Itoa(c.gn) + "-" + p.sum + ext
	}
	p.URL = l.publicURL + p.Name
	return p
}

// indexFiles encodes the index files over the named children: name.xml,
// then name-index-2.xml and on past the limits of one.
func (l layout) indexFiles(children []*child, named []*planned) ([]*planned, error) {
	docs, counts, err := l.encodeIndexes(children, named)
	if err != nil {
		return nil, err
	}
	var indexes []*planned
	for k, doc := range docs {
		p := &planned{doc: doc, disk: int64(len(doc))}
		p.Name = l.name + ".xml"
		if k > 0 {
			p.Name = l.name + "-index-" + strconv.Itoa(k+1) + ".xml"
		}
		var s checksum
		s.write(doc)
		p.sum = hexSum(s.sum())
		p.URL, p.Entries, p.Bytes, p.Index, p.File.Sum = l.publicURL+p.Name, counts[k], int64(len(doc)), true, p.sum
		indexes = append(indexes, p)
	}
	return indexes, nil
}

// encodeIndexes writes the index documents over children, as many as the
// limits require, and returns them with their entry counts.
func (l layout) encodeIndexes(children []*child, named []*planned) (docs [][]byte, counts []int, err error) {
	var buf bytes.Buffer
	w := l.newIndexWriter(&buf)
	for i, p := range named {
		e := sitemap.IndexEntry{Loc: p.URL, LastMod: children[i].latest}
		err := w.WriteIndex(&e)
		if errors.Is(err, sitemap.ErrFull) && w.Count() > 0 {
			if err := w.Close(); err != nil {
				return nil, nil, err
			}
			docs, counts = append(docs, bytes.Clone(buf.Bytes())), append(counts, w.Count())
			buf.Reset()
			w = l.newIndexWriter(&buf)
			err = w.WriteIndex(&e)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("publish: index entry for %s: %w", p.Name, err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, nil, err
	}
	return append(docs, buf.Bytes()), append(counts, w.Count()), nil
}

func (l layout) newIndexWriter(buf *bytes.Buffer) *sitemap.Writer {
	w := sitemap.NewWriter(buf, sitemap.FormatIndex)
	w.MaxURLs = l.maxURLs
	w.MaxBytes = l.maxBytes
	return w
}

// sameFile reports whether the existing file st, named like child p, holds
// p's content: the manifest says so, or (a file it does not know, such as
// one whose manifest was lost) its size is p's. The name already carries
// the content's CRC-32C and the child's number.
func sameFile(old *manifest, p *planned, st onDisk) bool {
	if !st.regular {
		return false
	}
	if _, ok := old.find(p.Name); ok {
		return old.holds(p.Name, p.sum, p.Bytes, st.size)
	}
	return st.size == p.disk
}

// account records the plan in manifests: next, the new set, with the old
// files it no longer names pending removal (only names of the set's
// shapes: see ownName); and announce, the old manifest naming the files
// about to appear as pending, so that a run killed after renaming them
// leaves them known.
func (p *publication) account(name string, old *manifest) {
	next := &manifest{Version: manifestVersion, Name: name}
	used := map[string]bool{}
	var arriving []manifestFile
	for _, f := range p.files() {
		r := f.record()
		next.Files = append(next.Files, r)
		used[r.Name] = true
		if _, ok := old.find(r.Name); !ok {
			arriving = append(arriving, r)
		}
	}
	for _, f := range slices.Concat(old.Files, old.Pending) {
		if !used[f.Name] && ownName(name, f) {
			used[f.Name] = true // once
			next.Pending = append(next.Pending, f)
		}
	}
	p.next = next
	p.rewrite = len(next.Pending) > 0 || len(old.Pending) > 0 || !slices.Equal(old.Files, next.Files)
	if len(arriving) > 0 {
		p.announce = &manifest{Version: manifestVersion, Name: name, Files: old.Files, Pending: slices.Concat(old.Pending, arriving)}
	}
}

// stage makes the temp files what swap renames: it writes each index file
// to replace to a temp file, fsynced, and removes the temps of the files
// kept as they are.
func (b *Builder) stage(ctx context.Context, p *publication) error {
	for _, f := range p.inner() {
		if !f.verify {
			continue
		}
		path := filepath.Join(b.opts.Dir, f.Name)
		same, err := sameBytes(path, f.tmp)
		if err != nil {
			return fmt.Errorf("publish: %w", err)
		}
		if !same {
			return errTaken(path)
		}
	}
	for _, f := range p.files() {
		switch {
		case f.action == keep && f.tmp != "":
			if err := os.Remove(f.tmp); err != nil {
				return fmt.Errorf("publish: %w", err)
			}
			f.tmp = ""
		case f.action != keep && f.Index:
			tmp, err := b.pipe.createTemp()
			if err != nil {
				return err
			}
			if err := writeAndSync(tmp, f.doc); err != nil {
				return err
			}
			f.tmp = tmp.Name()
		}
		f.doc = nil
	}
	return ctx.Err()
}

func writeAndSync(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("publish: writing %s: %w", f.Name(), err)
	}
	return nil
}

// swap puts the new set in place, in the order that keeps every index
// naming complete files: it records the names about to appear, renames the
// new children to them (a name is never that of a live file: see plan),
// then renames the index files, or the single file, over the old ones.
func (b *Builder) swap(p *publication) error {
	dir := b.opts.Dir
	if err := b.announce(p); err != nil {
		return err
	}
	b.at("pending-written")
	for _, f := range p.inner() {
		if f.action == create {
			if err := putNew(f.tmp, dir, f.Name); err != nil {
				return err
			}
		}
		b.at("child-renamed")
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	for _, f := range p.tops() {
		if f.action == replace {
			if err := commit(f.tmp, dir, f.Name); err != nil {
				return err
			}
		}
		b.at("index-renamed")
	}
	return nil
}

// announce writes the manifest naming the files about to appear, if any.
func (b *Builder) announce(p *publication) error {
	if p.announce == nil {
		return nil
	}
	return writeManifest(b.opts.manifestPath(), b.tempPrefix(), p.announce)
}

// putNew renames tmp to dir/name, a name plan found free; a file that
// took it since is not overwritten.
func putNew(tmp, dir, name string) error {
	target := filepath.Join(dir, name)
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		if err == nil {
			return errTaken(target)
		}
		return fmt.Errorf("publish: %w", err)
	}
	if err := os.Rename(tmp, target); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	return nil
}

// errTaken says that a child's name is taken by a file with other content.
func errTaken(path string) error {
	return fmt.Errorf("publish: %s exists with other content; remove it and run again", path)
}

// retire records the new set, then removes the old files it no longer
// names. A run killed in between leaves them named in the manifest, for the
// next run to remove; a removal that fails is a warning, and the file stays
// pending, to be tried again.
func (b *Builder) retire(p *publication) {
	dir, next := b.opts.Dir, p.next
	stale := next.Pending
	if p.rewrite || p.movedFrom != "" {
		if err := writeManifest(b.opts.manifestPath(), b.tempPrefix(), next); err != nil {
			// The new set is live, and the old manifest still names every
			// file: the next run will tidy up.
			b.res.Warnings = append(b.res.Warnings, err.Error())
			stale = nil
		} else if p.movedFrom != "" {
			// The manifest's new place holds it: the old one goes, not to
			// be deployed with the site any more.
			if err := os.Remove(p.movedFrom); err != nil && !errors.Is(err, fs.ErrNotExist) {
				b.res.Warnings = append(b.res.Warnings, fmt.Sprintf("publish: the manifest was moved to %s, but its old copy stays: %v", b.opts.Manifest, err))
			}
		}
	}
	b.at("manifest-written")
	if len(stale) == 0 {
		return
	}
	var left []manifestFile
	for _, f := range stale {
		path := filepath.Join(dir, f.Name)
		if ok, err := f.unchanged(path); err != nil {
			b.res.Warnings = append(b.res.Warnings, fmt.Sprintf("publish: stale file not removed: %v", err))
			left = append(left, f)
			continue
		} else if !ok {
			// Someone's file now, not the set's: left alone, and forgotten.
			b.res.Warnings = append(b.res.Warnings, fmt.Sprintf("publish: %s changed since it was published; left in place, no longer part of the set", path))
			continue
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			b.res.Warnings = append(b.res.Warnings, fmt.Sprintf("publish: stale file not removed: %v", err))
			left = append(left, f)
		}
	}
	next.Pending = left
	if err := writeManifest(b.opts.manifestPath(), b.tempPrefix(), next); err != nil {
		b.res.Warnings = append(b.res.Warnings, err.Error())
	}
}

// publish swaps the finished set in: plan, stage, swap, retire.
func (b *Builder) publish(ctx context.Context) error {
	old, from, err := loadManifest(b.opts)
	if err != nil {
		b.res.Warnings = append(b.res.Warnings, err.Error())
	}
	p, err := plan(b.layout(), b.children, old, lstatIn(b.opts.Dir))
	if err != nil {
		return err
	}
	p.movedFrom = from
	if err := b.stage(ctx, p); err != nil {
		return err
	}
	b.at("temps-written")
	used := map[string]bool{}
	taken := map[place]bool{}
	for _, f := range p.files() {
		b.res.Files = append(b.res.Files, f.File)
		used[f.Name] = true
		if !f.Index {
			taken[place{f.Group, f.N}] = true
		}
	}
	for _, f := range p.tops() {
		b.res.Indexes = append(b.res.Indexes, f.URL)
	}
	for _, f := range old.Files {
		// A file replaced by a new version of itself (the same place) is
		// rewritten, not removed.
		if at, ok := placeOf(b.opts.Name, f); !used[f.Name] && !(ok && !f.Index && taken[at]) {
			b.res.Removed = append(b.res.Removed, f.Name)
		}
	}
	if b.stable != nil {
		b.res.Moves = b.stable.moves
	}
	if b.beforeSwap != nil {
		res := b.res
		if err := b.beforeSwap(&res); err != nil {
			return err
		}
	}
	if err := b.swap(p); err != nil {
		return err
	}
	b.retire(p)
	return nil
}
