// Package publish turns a stream of URLs into a published set of sitemap
// files: split at the protocol's limits, gzipped, indexed, and swapped into
// place atomically.
//
// # The set
//
// A Builder checks each URL (scope, normalisation, duplicates), encodes it
// with a [sitemap.Writer] and starts a new file whenever the next URL would
// take the current one past MaxURLs, MaxBytes or 1,000 news URLs. Files are
// named after their content:
//
//	sitemap.xml                      the index (the file to submit)
//	sitemap-1-3fa2c19b.xml.gz        child 1; 3fa2c19b is its content's CRC-32C
//	sitemap-2-88d01e7a.xml.gz        child 2
//	sitemap-index-2.xml              a second index, only past 50,000 children
//
// With IndexAuto (the default), a set that fits in one file is that file
// alone, published as sitemap.xml (sitemap.txt for text sitemaps): a plain
// urlset, uncompressed even with Gzip, because it is the file users submit
// and its name must not depend on the set's size. When a second file is
// needed, the first becomes child 1 (and is gzipped then). IndexNever
// publishes the one file as sitemap.xml (sitemap.xml.gz with Gzip) and fails
// when a second is needed. Text children (FormatText) are indexed by an XML
// index, as the protocol allows; their index entries have no <lastmod>, as
// a text file says nothing of dates.
//
// An index's <lastmod> for a child is the latest lastmod among the child's
// URLs, written as the input spelled it (instants are compared, so
// "2024-05-01T23:00:00-05:00" beats "2024-05-02"); a child with no lastmod
// gets none. The time of the run is never written anywhere.
//
// # Groups
//
// Builder.Group splits a set into named parts under the one index: after
// Group(ctx, "products"), URLs go into products-1-XXXXXXXX.xml.gz,
// products-2-…; after Group(ctx, "blog"), into blog-1-…. Each group is
// numbered on its own, so a change in one group never renames another's
// files. A set with a group that received URLs always has an index; a
// group that received none has no file.
//
// # Publishing
//
// A reader of the folder, at any moment, and a folder left by a run that
// failed or was killed at any moment, see a complete set: the old one or the
// new one, never an index that names a missing or half-written file.
//
// While URLs are added, each child is written under a temporary name
// (".sitemapkit-tmp-…") beside the live files and fsynced. Publish then
// swaps the set in, in four steps around a manifest
// (".sitemapkit-manifest-sitemap.json"), which records each file of the
// published set: its name, group, entries, sizes and content checksum.
//
//  1. Plan: name each file, encode the index files, and decide, from the
//     previous manifest and the folder, what becomes of each file. A
//     child's name is never that of a live file with other content: the
//     content checksum in the name sees to that, so no published child is
//     ever overwritten. A file whose content has not changed (same name,
//     and the manifest's checksum and sizes) is kept as it is (not
//     rewritten: same bytes, same mtime). Nothing is written.
//  2. Stage: the index files that changed are written under temporary
//     names and fsynced.
//  3. Swap: the manifest first records the names about to appear, so that
//     a later run can remove them if this one dies. The new children are
//     renamed to their names, then the index files over the old ones
//     (rename is atomic; the folder is fsynced after each). With several
//     index files (past 50,000 children), each is swapped atomically, one
//     after the other: a run killed between two renames leaves every index
//     complete and naming only complete files, but some old and some new
//     until the next run, since no file system renames several files at
//     once.
//  4. Retire: the manifest is rewritten to list the new set, with the
//     files it no longer uses as pending removal; only then are those
//     removed, and the manifest rewritten without them. Only files a
//     manifest lists and whose names have the shapes above are ever
//     removed, never any other file (the folder often holds a whole site).
//     A removal that fails is a warning in the Result, not an error, and is
//     tried again next run.
//
// A run killed at any step leaves the old index live with every file it
// names (steps 1-3), or the new one with every file it names (3-4); the
// files it wrote but did not publish are named in the manifest or carry
// the temp prefix, and the next run removes them.
//
// A run removes the temp files a killed run left, and holds an advisory lock
// on the folder (flock) so that two runs never publish into it at once.
//
// # Speed
//
// The caller's goroutine checks and encodes; another gzips, checksums and
// writes, fed with 256 KiB chunks from a pool of four, so file k+1 is
// encoded while file k is compressed and memory does not grow with the set.
// De-duplication keeps 64-bit hashes of the locs in a flat table, behind a
// Bloom filter that stays in cache; Options.NoDedupe says what it costs.
package publish

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// IndexMode says when a set gets an index file.
type IndexMode int

const (
	// IndexAuto writes one plain sitemap while everything fits in one file,
	// and an index over several otherwise.
	IndexAuto IndexMode = iota
	// IndexAlways always writes an index, even over a single file.
	IndexAlways
	// IndexNever never writes an index: a set that does not fit in one file is an error.
	IndexNever
)

// Errors a Builder returns.
var (
	// ErrNeedsIndex: with IndexNever, the URLs do not fit in one file.
	ErrNeedsIndex = errors.New("publish: the URLs do not fit in one sitemap and no index may be written")
	// ErrEmpty: Publish found no URL to publish (none added, or all
	// refused); the published set is left as it was rather than replaced by
	// an empty one, which the protocol does not allow anyway.
	ErrEmpty = errors.New("publish: no URL to publish")
	// ErrBusy: another run is publishing into the same folder.
	ErrBusy = errors.New("another run is publishing into this folder")
	// ErrDone: the Builder has already published or been aborted.
	ErrDone = errors.New("publish: the set was already published or aborted")
)

// Result says what Publish did.
type Result struct {
	URLs       int            // URLs written
	Refused    map[string]int // URLs refused, by rule ID
	Duplicates int            // duplicate URLs dropped
	Files      []File         // every file of the published set, index files first
	Indexes    []string       // public URLs of the files to submit (index files, or the single sitemap)
	Warnings   []string       // problems that did not stop the publication (a stale file not removed)
	Dropped    map[string]int // fields left out of URLs that were kept, by rule ID (see FieldsDropped)
	Removed    []string       // files of the previous set whose place this one no longer has (not those it rewrote)
	Moves      []Move         // with Options.Stable: files merged into others
	Elapsed    time.Duration  // from New to the end of Publish
}

// File is one file of a published set.
type File struct {
	Name      string // file name inside Dir
	URL       string // public URL
	Entries   int    // URLs, or sitemaps for an index
	Bytes     int64  // uncompressed size
	GzipBytes int64  // size on disk when gzipped, else 0
	Index     bool   // an index file, listing sitemaps, not URLs
	Group     string // the group of a child (see Builder.Group); "" for the main set and index files
	N         int    // a child's number in its group (see Builder.Place); 0 for index files
	LastMod   string // a child's <lastmod> in the index
	Sum       string // the CRC-32C of its content, 8 hex digits: a file whose Sum and Bytes did not change did not change
	Kept      bool   // the published file had this content already and was left as it was
}

// A Builder writes a stream of URLs into a new set beside the published
// one, and Publish swaps it in. Every Builder must end with Publish or
// Abort, which stop its goroutines, remove its temp files and release the
// folder. A Builder is not safe for concurrent use.
type Builder struct {
	opts      Options // defaults applied
	publicURL string
	scope     *loc.Scope
	seen      *seenSet   // nil with NoDedupe
	stable    *stableSet // nil unless Options.Stable
	start     time.Time
	unlock    func()

	pipe     *pipeline
	cw       chunkWriter
	w        *sitemap.Writer // the current child's encoder
	cur      *child
	children []*child
	group    string         // the current group (see Group); "" for the main set
	groups   map[string]int // children per group, by name ("" for the main set)
	// created is the topmost folder New made for Dir ("" when Dir was
	// there): a run that publishes nothing removes what it made.
	created string
	// others maps the names other sets in the folder write files under
	// (their own and their groups') to the set's name.
	others map[string]string
	// firstPlain: the first child is being written, or was, uncompressed
	// with Gzip, in case it stays the set's only file.
	firstPlain bool

	res     Result
	adds    int
	err     error // fatal: the Builder can only be aborted
	done    bool
	scratch sitemap.URL

	hook       func(step string) // tests: called at each step of Publish
	beforeSwap func(*Result) error
}

// BeforeSwap makes Publish call f with the set about to be swapped in
// (Result without Elapsed), once every file is written and fsynced and
// before any is put in place: a caller records the set there (package
// state commits its run), so that what it records is never behind what is
// published. An error from f stops the publication and is Publish's; the
// published set is left as it was.
func (b *Builder) BeforeSwap(f func(*Result) error) { b.beforeSwap = f }

// at calls the test hook, if any, at a step of Publish.
func (b *Builder) at(step string) {
	if b.hook != nil {
		b.hook(step)
	}
}

// New returns a Builder for opts, or an error naming the bad option. It
// creates Dir if needed, locks it and removes the temp files a killed run
// left there.
func New(opts Options) (*Builder, error) {
	start := time.Now()
	if err := opts.Check(); err != nil {
		return nil, err
	}
	opts = opts.WithDefaults()
	baseScope, public, err := opts.scopes()
	if err != nil {
		return nil, err
	}
	scope := public
	if origin(public.String()) != origin(baseScope.String()) {
		scope = baseScope
	}
	created := missingTop(opts.Dir)
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, dirError(opts.Dir, err)
	}
	unlock, err := lockDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	if err := removeLeftovers(opts.Dir, tempPrefix+opts.Name+".", time.Time{}); err != nil {
		unlock()
		return nil, err
	}
	if opts.Manifest != "" {
		if _, _, err := loadManifest(opts); errors.Is(err, errOtherSet) {
			unlock()
			return nil, err
		}
		if _, err := os.Stat(filepath.Dir(opts.Manifest)); err == nil {
			if err := removeLeftovers(filepath.Dir(opts.Manifest), tempPrefix+opts.Name+".", time.Time{}); err != nil {
				unlock()
				return nil, err
			}
		}
	}
	others := otherStems(opts.Dir, opts.Name)
	if set, ok := others[opts.Name]; ok {
		unlock()
		return nil, stemTaken(opts.Dir, "set", opts.Name, set)
	}
	b := &Builder{
		created:   created,
		others:    others,
		opts:      opts,
		publicURL: public.String(),
		scope:     scope,
		start:     start,
		unlock:    unlock,
		res:       Result{Refused: map[string]int{}, Dropped: map[string]int{}},
	}
	if !opts.NoDedupe {
		b.seen = newSeenSet()
	}
	if opts.Stable {
		old, _, _ := loadManifest(opts) // a damaged one is reported by Publish
		b.stable = newStableSet(opts, old)
	}
	b.pipe = newPipeline(opts.Dir, b.tempPrefix())
	b.cw.p = b.pipe
	return b, nil
}

func (b *Builder) tempPrefix() string { return tempPrefix + b.opts.Name + "." }

func origin(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Scheme + "://" + p.Host
}

// Add adds one URL. It returns a *sitemap.Violation, and adds nothing, for
// a URL the protocol forbids (the rule ID says which, and Result.Refused
// counts it); it returns nil for a duplicate, which is dropped and counted.
// Any other error (ctx cancelled, a disk error, ErrNeedsIndex) is fatal:
// the Builder can only be Aborted, and Publish returns the same error.
//
// The loc is normalised and checked against the scope (see
// [loc.Scope.Apply]); the URLs of images, videos and alternates are
// normalised (see [loc.NormalizeExtensions]) but may be on other hosts.
// URLs normalised already, as package source's Filter gives them, are only
// checked: normalising is done once. u itself is not modified, and not
// retained once Add returns.
func (b *Builder) Add(ctx context.Context, u *sitemap.URL) error {
	_, err := b.Place(ctx, u, 0)
	return err
}

// Place is Add for a set whose files are stable (Options.Stable): it puts
// u in file number file of the current group (the N of stem-N-XXXXXXXX.ext,
// where u was last time) if that file has room, else in the group's last
// file, else in a new one; file 0 is a URL seen for the first time. It
// returns the number of the file that holds u, which the caller remembers
// for the next run, or 0 when u was not added (refused, or a duplicate).
// Without Options.Stable, file is ignored and the URL goes where Add puts
// it.
func (b *Builder) Place(ctx context.Context, u *sitemap.URL, file int) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.done {
		return 0, ErrDone
	}
	if b.adds++; b.adds&1023 == 0 {
		if err := ctx.Err(); err != nil {
			return 0, b.fail(err)
		}
	}
	norm, err := b.scope.Apply(u.Loc)
	if err != nil {
		return 0, b.refuse(err, "loc")
	}
	var h uint64
	if b.seen != nil {
		h = b.seen.hash(norm)
		if b.seen.contains(h) {
			b.res.Duplicates++
			return 0, nil
		}
	}
	v := &b.scratch
	*v = *u
	v.Loc = norm
	if err := loc.NormalizeExtensions(v); err != nil {
		*v = sitemap.URL{}
		return 0, b.refuse(err, "")
	}
	n := 0
	var dropped []*sitemap.Violation
	for {
		if b.stable != nil {
			n, err = b.placeStable(v, file)
		} else if err = b.write(ctx, v); err == nil {
			n = b.cur.gn
		}
		// A bad optional field (lastmod, changefreq, priority) is left
		// out, and the URL kept: Google ignores two of them, and a page
		// is worth more than its date.
		viol, ok := errors.AsType[*sitemap.Violation](err)
		if !ok || b.err != nil || !dropField(v, viol.Field) {
			break
		}
		dropped = append(dropped, viol)
	}
	*v = sitemap.URL{}
	if err != nil {
		if _, ok := errors.AsType[*sitemap.Violation](err); ok && b.err == nil {
			return 0, b.refuse(err, "")
		}
		return 0, err
	}
	if b.seen != nil {
		b.seen.add(h)
	}
	b.res.URLs++
	if dropped != nil {
		for _, d := range dropped {
			b.res.Dropped[d.Rule]++
		}
		return n, &FieldsDropped{Loc: u.Loc, Violations: dropped}
	}
	return n, nil
}

// dropField clears field of v if it is one a URL is kept without, and
// reports whether it did.
func dropField(v *sitemap.URL, field string) bool {
	switch {
	case field == "lastmod" && v.LastMod != "":
		v.LastMod = ""
	case field == "changefreq" && v.ChangeFreq != "":
		v.ChangeFreq = ""
	case field == "priority" && v.Priority != "":
		v.Priority = ""
	default:
		return false
	}
	return true
}

// FieldsDropped is what Add and Place return for a URL they added without
// fields the protocol refuses the values of (a lastmod that is not a date,
// a changefreq of "Daily", a priority of 1.5): a warning, not a refusal.
// A caller that must publish nothing short of perfect (--strict) treats it
// as a refusal.
type FieldsDropped struct {
	Loc        string
	Violations []*sitemap.Violation // one per field left out
}

func (e *FieldsDropped) Error() string {
	var b strings.Builder
	for i, v := range e.Violations {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(v.Error())
	}
	return b.String() + ": left out, the URL kept"
}

// AddAll adds every URL of seq, calling onError for each error the
// sequence yields, each URL refused (a *sitemap.Violation) and each added
// without a field (a *FieldsDropped); onError
// returns nil to go on or an error to stop, and AddAll then returns it. A
// nil onError goes on after refusals and stops at the first error of seq.
// Fatal errors (see Add) stop AddAll at once.
func (b *Builder) AddAll(ctx context.Context, seq iter.Seq2[sitemap.URL, error], onError func(error) error) error {
	if onError == nil {
		onError = func(err error) error {
			if _, ok := errors.AsType[*sitemap.Violation](err); ok {
				return nil
			}
			if _, ok := errors.AsType[*FieldsDropped](err); ok {
				return nil
			}
			return err
		}
	}
	for u, err := range seq {
		if err != nil {
			if err := onError(err); err != nil {
				return err
			}
			continue
		}
		if err := b.Add(ctx, &u); err != nil {
			if b.err != nil {
				return err
			}
			if err := onError(err); err != nil {
				return err
			}
		}
	}
	return b.err
}

// Err returns the error that made the Builder fail (see Add), or nil: a
// caller adding URLs itself tells a refusal from the end with it.
func (b *Builder) Err() error { return b.err }

// refuse counts a refusal, or makes any other error fatal. field names the
// element of a violation that does not say.
func (b *Builder) refuse(err error, field string) error {
	v, ok := errors.AsType[*sitemap.Violation](err)
	if !ok {
		return b.fail(err)
	}
	b.res.Refused[v.Rule]++
	if v.Field == "" && field != "" {
		c := *v
		c.Field = field
		return &c
	}
	return err
}

func (b *Builder) fail(err error) error {
	if b.err == nil {
		b.err = err
	}
	return b.err
}

// write encodes v into the current child, starting the next one when it
// is full.
func (b *Builder) write(ctx context.Context, v *sitemap.URL) error {
	b.cw.ctx = ctx
	if b.w == nil {
		b.startChild()
	}
	err := b.w.WriteURL(v)
	if errors.Is(err, sitemap.ErrFull) && b.w.Count() > 0 {
		if b.opts.Index == IndexNever {
			return b.fail(ErrNeedsIndex)
		}
		if err := b.nextChild(ctx); err != nil {
			return b.fail(err)
		}
		b.startChild()
		err = b.w.WriteURL(v)
	}
	switch {
	case err == nil:
	case errors.Is(err, sitemap.ErrFull):
		// Alone in an empty document, and still too large.
		b.res.Refused[sitemap.RuleFileTooLarge]++
		return &sitemap.Violation{Rule: sitemap.RuleFileTooLarge, Field: "url", Value: v.Loc,
			Msg: "this entry alone is larger than a sitemap may be (MaxBytes " + strconv.FormatInt(b.opts.MaxBytes, 10) + ")"}
	default:
		if _, ok := errors.AsType[*sitemap.Violation](err); ok {
			return err // counted by Place, once it is final
		}
		return b.refuse(err, "")
	}
	c := b.cur
	c.entries++
	if b.opts.Format == sitemap.FormatURLSet {
		c.noteLastmod(v.LastMod)
	}
	return nil
}

// nextChild ends the current child, which has entries, because another
// must follow it.
func (b *Builder) nextChild(ctx context.Context) error {
	if err := b.endChild(); err != nil {
		return err
	}
	if b.firstPlain {
		// The first child was written plain, in case it stayed
		// alone; it is now a child like the others.
		b.firstPlain = false
		return b.pipe.send(ctx, job{kind: jobCompress, c: b.children[0]})
	}
	return nil
}

// dropChild discards the current child, opened for a URL that was then
// refused.
func (b *Builder) dropChild() {
	b.cw.discard()
	b.w = nil
	b.children = b.children[:len(b.children)-1]
	b.groups[b.group]--
}

// alone reports whether the first child may yet be published alone, as
// the set's only file, and so is written plain.
func (b *Builder) alone() bool {
	return len(b.children) == 1 && b.opts.Index == IndexAuto && b.group == "" && len(b.groups) == 1
}

func (b *Builder) startChild() {
	if b.groups == nil {
		b.groups = map[string]int{}
	}
	b.groups[b.group]++
	c := &child{n: len(b.children) + 1, group: b.group, gn: b.groups[b.group]}
	b.children = append(b.children, c)
	b.cur = c
	b.cw.c = c
	b.cw.gz = b.opts.Gzip && !b.alone()
	b.firstPlain = b.opts.Gzip && !b.cw.gz
	b.w = sitemap.NewWriter(&b.cw, b.opts.Format)
	b.w.MaxURLs = b.opts.MaxURLs
	b.w.MaxBytes = b.opts.MaxBytes
	b.w.LocsChecked = true // Place applied the scope
}

// endChild closes the current child's document and queues its end.
func (b *Builder) endChild() error {
	if err := b.w.Close(); err != nil {
		return err
	}
	b.w = nil
	return b.cw.end()
}

// Group starts a group: the URLs added after it, until the next Group,
// go into files of their own, named after the group (name-1-XXXXXXXX.xml,
// name-2-…), which the set's index lists after the files before them.
// A site uses groups to keep its products, posts and news in separate
// files: a change in one group rewrites only that group's files, and each
// can be watched on its own in Search Console. A set with a group that
// received URLs always has an index (a group that received none has no
// file), so Group fails with IndexNever.
//
// The name is made of letters, digits, "_" and "-", and differs from
// Options.Name and from every group before it. Group("") returns to the
// main set, whose files are named after Options.Name.
func (b *Builder) Group(ctx context.Context, name string) error {
	switch {
	case b.err != nil:
		return b.err
	case b.done:
		return ErrDone
	case name == b.group:
		return nil
	case b.opts.Index == IndexNever:
		return fmt.Errorf("publish: group %q: a set with groups needs an index, and Options.Index is IndexNever", name)
	case name != "" && !ValidName(name):
		return fmt.Errorf("publish: group %q: use letters, digits, _ and - only", name)
	case name == b.opts.Name:
		return fmt.Errorf("publish: group %q: the set's own name (Options.Name) cannot name a group", name)
	case b.groups[name] > 0:
		return fmt.Errorf("publish: group %q was already used: a group's URLs must be added together", name)
	}
	if set, ok := b.others[name]; ok && name != "" {
		return b.fail(stemTaken(b.opts.Dir, "group", name, set))
	}
	if b.w != nil {
		b.cw.ctx = ctx
		if b.w.Count() == 0 {
			b.dropChild()
		} else if err := b.nextChild(ctx); err != nil {
			return b.fail(err)
		}
	}
	b.group = name
	return nil
}

// Abort discards the unpublished set: it waits for the writing goroutines
// and removes every temp file. The published set is left as it was. Abort
// is safe to call after Publish, and more than once.
func (b *Builder) Abort() error {
	if b.done {
		return nil
	}
	b.done = true
	b.seen.release()
	defer b.unlock()
	b.cw.discard()
	b.pipe.finish()
	err := b.pipe.removeTemps()
	b.unmake()
	return err
}

// unmake removes the folders New made, when they are empty: a run that
// fails must not leave a new, empty --out behind.
func (b *Builder) unmake() {
	if b.created == "" {
		return
	}
	for dir := filepath.Clean(b.opts.Dir); ; dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil || dir == b.created {
			return
		}
	}
}

// dirError words a failure to make Dir plainly: the raw error of mkdir
// names a system call, not the mistake.
func dirError(dir string, err error) error {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if st, serr := os.Stat(d); serr == nil && !st.IsDir() {
			return fmt.Errorf("publish: %s is a file, not a folder: the sitemaps cannot be written into it", d)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("publish: %s cannot be created or written: permission denied", dir)
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		// The OS's words, without its system call: "mkdir /proc/x: no
		// such file or directory" says less than where and why.
		return fmt.Errorf("publish: %s cannot be created or written: %w", dir, pe.Err)
	}
	return fmt.Errorf("publish: %w", err)
}

// missingTop returns the topmost folder of dir's path that does not exist,
// or "" when dir does.
func missingTop(dir string) string {
	top := ""
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			return top
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "" // unknown: leave everything as it is
		}
		top = d
		if filepath.Dir(d) == d {
			return top
		}
	}
}

// Publish finishes the new set and swaps it in (see the package doc): the
// children first, under names no published file with other content has,
// then the index, by rename; files of older sets are removed only after
// that. If Publish fails, or the process dies at any point, the previously
// published set is left as it was, and Publish removes its temp files.
func (b *Builder) Publish(ctx context.Context) (*Result, error) {
	if b.done {
		return nil, ErrDone
	}
	if b.err == nil && b.stable != nil {
		if err := b.finishStable(ctx); err != nil {
			b.fail(err)
		}
	}
	if b.err == nil {
		b.cw.ctx = ctx
		if b.w != nil {
			if b.w.Count() > 0 {
				if err := b.endChild(); err != nil {
					b.fail(err)
				}
			} else {
				b.dropChild()
			}
		}
	}
	if err := b.pipe.finish(); err != nil {
		b.fail(err)
	}
	if b.err == nil && b.res.URLs == 0 {
		b.fail(ErrEmpty)
	}
	if b.err == nil {
		if err := ctx.Err(); err != nil {
			b.fail(err)
		}
	}
	if b.err == nil {
		if err := b.publish(ctx); err != nil {
			b.fail(err)
		}
	}
	b.done = true
	b.seen.release()
	defer b.unlock()
	if rerr := b.pipe.removeTemps(); rerr != nil && b.err == nil {
		b.res.Warnings = append(b.res.Warnings, rerr.Error())
	}
	if b.err != nil {
		b.unmake()
		return nil, b.err
	}
	b.res.Elapsed = time.Since(b.start)
	res := b.res
	return &res, nil
}
