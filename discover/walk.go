package discover

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"

	"github.com/sitemapkit/sitemapkit/internal/zstdwin"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Walk returns the documents reachable from starts (paths of files or
// folders, site roots, robots.txt URLs, sitemap URLs), in walk order: a
// start, then what it lists (a robots.txt's sitemaps, an index's children
// in index order, a folder's indexes then the files no index there
// lists), depth first, whatever order they were fetched in. Up to
// o.Concurrency documents are opened ahead of the one yielded, and their
// bodies wait for the consumer, which may read them concurrently.
//
// The walk stops when ctx is done or the loop breaks: documents opened
// ahead and not yielded are closed, no further request is made, and Walk
// returns once the fetches under way are over (at once when ctx is done:
// they are cancelled).
func Walk(ctx context.Context, starts []string, o Options) iter.Seq[*Document] {
	return NewFetcher(o).Walk(ctx, starts)
}

// Walk is the package's Walk with f's options, sharing f's robots.txt
// files with the caller: a checker that judges the URLs it reads by the
// site's robots.txt asks f (Allowed) and fetches none again.
func (f *Fetcher) Walk(ctx context.Context, starts []string) iter.Seq[*Document] {
	return func(yield func(*Document) bool) {
		w := newWalker(ctx, f)
		defer w.end()
		if d := w.robotsFile(); d != nil && !yield(d) {
			return
		}
		var src startList
		for _, st := range starts {
			src = append(src, w.startItems(st)...)
		}
		w.list(&src, yield)
		w.workers.Wait()
	}
}

type walker struct {
	o Options
	// ctx is the caller's, bounded by Options.Budget; parent is the
	// caller's alone, to tell the budget spent from the walk cancelled.
	ctx     context.Context
	parent  context.Context
	cancel  context.CancelFunc
	read    int  // documents yielded but listings, for Options.MaxDocuments
	limited bool // the Limit finding was yielded
	f       *Fetcher
	sem     chan struct{}
	workers sync.WaitGroup
	stopped atomic.Bool // the consumer broke the loop

	mu sync.Mutex
	// seen marks the documents the walk reads, by the hash of their
	// absolute path or URL (mark): the one thing kept of each document
	// the walk ends up reading, which can be 100,000 (MaxDocuments). One
	// marked by an index on another host than its own holds that index's
	// URL: the cross-host rule may refuse it there (see take).
	seen   map[uint64]*url.URL
	bodies int  // bodies opened and not closed, which ctx streams
	ended  bool // the walk is over: ctx goes with the last body
}

// end ends the walk: its context is released, at once or, while bodies
// the consumer may still be reading are open, when the last is closed.
// The consumer reads the last documents after the loop, concurrently: a
// context cancelled at the loop's end cut every body not yet received.
func (w *walker) end() {
	w.mu.Lock()
	w.ended = true
	last := w.bodies == 0
	w.mu.Unlock()
	if last {
		w.cancel()
	}
}

// track counts a streamed body open until its Close; see end.
func (w *walker) track(body io.ReadCloser) io.ReadCloser {
	w.mu.Lock()
	w.bodies++
	w.mu.Unlock()
	return &tracked{ReadCloser: body, w: w}
}

// tracked is a body counted by its walker.
type tracked struct {
	io.ReadCloser
	w      *walker
	closed atomic.Bool
}

// Read reads the body; a read the time budget cut says so, as a Limit
// finding: the consumer reads the last documents after the walk, which can
// yield no finding of its own then.
func (t *tracked) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if err != nil && err != io.EOF && t.w.ctx.Err() == context.DeadlineExceeded && t.w.parent.Err() == nil {
		err = problem(Limit, err, "the walk's time budget of %v was spent while this document was read (--time-budget): the rest of it is not read", t.w.o.Budget)
	}
	return n, err
}

func (t *tracked) Close() error {
	err := t.ReadCloser.Close()
	if t.closed.Swap(true) {
		return err
	}
	w := t.w
	w.mu.Lock()
	w.bodies--
	last := w.ended && w.bodies == 0
	w.mu.Unlock()
	if last {
		w.cancel()
	}
	return err
}

func newWalker(ctx context.Context, f *Fetcher) *walker {
	o := f.o
	bounded, cancel := ctx, context.CancelFunc(func() {})
	if o.Budget > 0 {
		bounded, cancel = context.WithTimeout(ctx, o.Budget)
	}
	return &walker{
		o:      o,
		ctx:    bounded,
		parent: ctx,
		cancel: cancel,
		f:      f,
		sem:    make(chan struct{}, o.Concurrency),
		seen:   map[uint64]*url.URL{},
	}
}

// An item is a node of the walk: a document, a robots.txt or a folder.
// It lives from its turn to be fetched to its turn to be yielded, and is
// then dropped, the Document the consumer's (see itemSource).
type item struct {
	doc    *Document
	robots bool       // a robots.txt to fetch
	lines  []child    // a robots.txt's Sitemap: lines, found by its run
	locs   []childLoc // an index's <loc>s
	done   chan struct{}

	parent *ancestor // the index that listed it; nil for a start
	start  bool      // a start, or a file of a folder given: listed by nobody
	// judgeOnly: a child read already, on another host: its run only
	// applies the cross-host rule to this listing, and silent says it
	// passed, so that the document is not yielded twice.
	judgeOnly, silent bool
	crossFrom         *url.URL // the index's public URL, for a child on another host
	note              string   // why the document was tried, for its failures
}

func newItem(d *Document) *item { return &item{doc: d, done: make(chan struct{})} }

// An ancestor is an index whose children the walk is in: what the loop
// guard needs of it, not its Document, which holds the index's whole body
// until the consumer drops it.
type ancestor struct {
	name string // the base name of its Document's
	key  string // its Document's key
	// final is the URL its redirects ended at, as redirectedTo.
	final string
	up    *ancestor
}

// loopTo returns the chain of indexes from the ancestor of a whose key
// is key down to a and back ("a.xml → b.xml → a.xml"), or "" when key is
// no ancestor's: a document listed twice is no loop.
func (a *ancestor) loopTo(key string) string {
	names := []string{}
	for ; a != nil; a = a.up {
		names = append(names, a.name)
		// An index reached through redirects is its final URL too.
		if a.key == key || a.final == key {
			slices.Reverse(names)
			return strings.Join(append(names, names[0]), " → ")
		}
	}
	return ""
}

// An itemSource makes the items of a listing one at a time, as the walk
// reaches them: made at once, with their Documents, the items of an index
// of 30,000 children were all held, bodies closed or not, until the last
// was read.
type itemSource interface {
	// next returns the next item; nil after the last. It is called on
	// one goroutine, the scheduler's.
	next() *item
}

// itemList is a source of items made already: a start's.
type itemList []*item

func (l *itemList) next() *item {
	if len(*l) == 0 {
		return nil
	}
	it := (*l)[0]
	(*l)[0], *l = nil, (*l)[1:]
	return it
}

// startList is the starts' sources in turn: each item it makes is a start.
type startList []itemSource

func (l *startList) next() *item {
	for len(*l) > 0 {
		if it := (*l)[0].next(); it != nil {
			it.start = true
			return it
		}
		(*l)[0], *l = nil, (*l)[1:]
	}
	return nil
}

// A child is a document a listing names, as kept until the walk reaches
// it: a few words, where its item and Document are hundreds of bytes.
type child struct {
	name string // its Document's Name
	url  string // its Document's URL
	line int32  // its Document's ParentLine
	// local: a file beside its local index; cross: on another host than
	// its index, whose robots.txt must vouch for it; judgeOnly: see item.
	local, cross, judgeOnly bool
}

// childList makes the items of a listing's children with makeItem. The
// children wait in chunks, each dropped once its items are made: what an
// index of 100,000 children holds shrinks as the walk goes through them.
type childList struct {
	chunks   [][]child
	makeItem func(child) *item
}

// childChunk is how many children a chunk of a childList holds (10 KiB).
const childChunk = 256

func (l *childList) add(c child) {
	if k := len(l.chunks); k == 0 || len(l.chunks[k-1]) == childChunk {
		l.chunks = append(l.chunks, make([]child, 0, childChunk))
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, c)
}

// source returns l, its items made by makeItem, or nil when it has no
// children.
func (l *childList) source(makeItem func(child) *item) itemSource {
	if len(l.chunks) == 0 {
		return nil
	}
	l.makeItem = makeItem
	return l
}

func (l *childList) next() *item {
	if len(l.chunks) == 0 {
		return nil
	}
	first := &l.chunks[0]
	c := (*first)[0]
	(*first)[0], *first = child{}, (*first)[1:] // its strings go with its item
	if len(*first) == 0 {
		l.chunks[0], l.chunks = nil, l.chunks[1:]
	}
	return l.makeItem(c)
}

// ready returns an item that needs no run.
func ready(d *Document) *item {
	it := newItem(d)
	close(it.done)
	return it
}

func problem(kind Kind, err error, format string, args ...any) *Error {
	return &Error{Kind: kind, Err: err, msg: fmt.Sprintf(format, args...)}
}

// lineProblem is a finding about the line of a listing: a Sitemap: line,
// an index's <loc>.
func lineProblem(line int, kind Kind, format string, args ...any) *Error {
	p := problem(kind, nil, format, args...)
	p.Line = line
	return p
}

// A childLoc is an index's <loc>, and the line it is on.
type childLoc struct {
	loc  string
	line int
}

func (d *Document) add(e *Error) { d.Problems = append(d.Problems, e) }

// MissingFrom returns where a finding p about d is fixed when d could not
// be read: Parent and the line of it that names d, which d is missing
// from. It returns "" and 0 for a document read, a start or a Listing, a
// line unknown, and a finding about one of d's own lines (p.Line).
func (d *Document) MissingFrom(p *Error) (parent string, line int) {
	if d.Body != nil || d.Listing || d.Parent == "" || d.ParentLine == 0 || p.Line > 0 {
		return "", 0
	}
	return d.Parent, d.ParentLine
}

// key is d's mark in the walk: its absolute path, or its URL.
func (d *Document) key() string { return keyOf(d.Name, d.Local) }

// keyOf is the key of a Document of that Name and Local.
func keyOf(name string, local bool) string {
	if local {
		return mustAbs(name)
	}
	return name
}

// mark is what seen keeps of a key: its hash. Two keys of the walk's
// 100,000 at most share one with a chance of about 1 in 4·10⁹, which
// would make a document a repeat of another.
func mark(key string) uint64 { return xxhash.Sum64String(key) }

// redirectedTo is the URL the redirects followed to fetch d ended at; ""
// when there were none.
func (d *Document) redirectedTo() string {
	if len(d.Redirects) == 0 {
		return ""
	}
	return d.Redirects[len(d.Redirects)-1].To
}

// startItems classifies one start.
func (w *walker) startItems(start string) []itemSource {
	one := func(it *item) []itemSource { return []itemSource{&itemList{it}} }
	if u, err := url.Parse(start); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		if u.Path == "" || u.Path == "/" {
			u.Path, u.RawQuery, u.Fragment = "/robots.txt", "", ""
		}
		if u.Path == "/robots.txt" {
			it := newItem(&Document{Name: u.String(), URL: u.String(), Listing: true})
			it.robots = true
			return one(it)
		}
		return one(newItem(&Document{Name: start, URL: start}))
	}
	fi, err := os.Stat(start)
	if err != nil {
		d := &Document{Name: start, Local: true}
		d.add(problem(FetchFailed, err, "cannot read: %v", unwrapPathErr(err)))
		return one(ready(d))
	}
	if !fi.IsDir() {
		return one(newItem(&Document{Name: start, URL: w.publicURL(filepath.Base(start)), Local: true}))
	}
	return w.folderItems(start)
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (w *walker) publicURL(rel string) string {
	if w.o.Base == "" {
		return ""
	}
	b, err := url.Parse(w.o.Base)
	if err != nil {
		return ""
	}
	if !strings.HasSuffix(b.Path, "/") {
		b.Path += "/"
	}
	r, err := url.Parse((&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath())
	if err != nil {
		return ""
	}
	return b.ResolveReference(r).String()
}

// folderItems lists the sitemaps in a folder (recursively, hidden folders
// skipped), detected by content: indexes first, then the files that no
// index there lists (those are read as the index's children). The folder
// itself comes first, as a Listing; its files' items are made as the walk
// reaches them.
func (w *walker) folderItems(dir string) []itemSource {
	var indexes, others []string
	children := map[string][]childLoc{}
	// WalkDir does not follow a symbolic link, even as its root: a start
	// that is a link to a folder is walked through it (a trailing
	// separator), as "link/" would be.
	root := dir
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		root = dir + string(filepath.Separator)
	}
	var unread []*Error // folders that could not be listed
	filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if err != nil {
			// A folder that cannot be listed may hold sitemaps: say
			// so, rather than that there are none.
			if p == root {
				unread = append(unread, problem(FetchFailed, err, "cannot read: %v", unwrapPathErr(err)))
			} else {
				unread = append(unread, problem(FetchFailed, err, "cannot read %s: %v", p, unwrapPathErr(err)))
			}
			return nil
		}
		if de.IsDir() {
			if p != root && strings.HasPrefix(de.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !de.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			// It may be a sitemap: it is read as one, for its error
			// to name it (once, where an index lists it). A hidden
			// file (.htpasswd, .env) is none, as hidden folders are
			// not looked into; nor is a file no sitemap is named as
			// (a docroot's wp-config.php, kept from the deploying
			// user), whose content cannot say otherwise.
			if !strings.HasPrefix(de.Name(), ".") && sitemapName(de.Name()) {
				others = append(others, p)
			}
			return nil
		}
		defer f.Close()
		format, locs, err := readHead(f)
		switch {
		case format == sitemap.FormatIndex:
			indexes = append(indexes, p)
			children[p] = locs
		case format != sitemap.FormatUnknown, errors.Is(err, zstdwin.ErrWindow):
			// A zstd sitemap refused for its window is read all the
			// same, for its error to say why, not left out unnamed.
			others = append(others, p)
		}
		return nil
	})
	listed := map[string]bool{}
	for _, ix := range indexes {
		for _, c := range children[ix] {
			if p, ok := besideFile(ix, c.loc); ok && p != ix {
				listed[p] = true
			}
		}
	}
	// An index listed only from inside a loop (two indexes listing each
	// other, or longer cycles) has no parent to be read under: the first
	// of each such loop is a start, so that the loop is walked, and named.
	reached := map[string]bool{}
	var reach func(ix string)
	reach = func(ix string) {
		if reached[ix] {
			return
		}
		reached[ix] = true
		for _, c := range children[ix] {
			if p, ok := besideFile(ix, c.loc); ok {
				reach(p)
			}
		}
	}
	for _, ix := range indexes {
		if !listed[ix] {
			reach(ix)
		}
	}
	for _, ix := range indexes {
		if !reached[ix] {
			listed[ix] = false
			reach(ix)
		}
	}
	folder := &Document{Name: dir, Local: true, Listing: true}
	for _, p := range unread {
		folder.add(p)
	}
	var files childList
	for _, p := range indexes {
		if !listed[p] { // a nested index is read as its parent's child
			files.add(child{name: p})
		}
	}
	for _, p := range others {
		if !listed[p] {
			files.add(child{name: p})
		}
	}
	srcs := []itemSource{&itemList{ready(folder)}}
	src := files.source(func(c child) *item {
		rel, err := filepath.Rel(dir, c.name)
		if err != nil {
			rel = filepath.Base(c.name)
		}
		return newItem(&Document{Name: c.name, URL: w.publicURL(rel), Local: true})
	})
	if src == nil {
		if len(unread) == 0 {
			folder.add(problem(FetchFailed, nil, "no sitemap files in this folder"))
		}
		return srcs
	}
	return append(srcs, src)
}

// readHead detects r's format and, for an index, reads its <loc>s: the
// one place an index's children are collected. err is what stopped the
// reading of an index (nil at its end), or of another document's first
// entry.
func readHead(r io.Reader) (sitemap.Format, []childLoc, error) {
	rd := sitemap.NewReader(r)
	u, err := rd.Read()
	if rd.Format() != sitemap.FormatIndex {
		return rd.Format(), nil, err
	}
	var locs []childLoc
	for ; err == nil; u, err = rd.Read() {
		locs = append(locs, childLoc{u.Loc, rd.FieldPos("loc", 0).Line})
	}
	if err == io.EOF {
		err = nil
	}
	return sitemap.FormatIndex, locs, err
}

// besideFile finds the file a local index's child names: the child's base
// name in the index's folder.
func besideFile(indexPath, childLoc string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(childLoc))
	if err != nil {
		return "", false
	}
	name := path.Base(u.Path)
	if name == "" || name == "/" || name == "." {
		return "", false
	}
	p := filepath.Join(filepath.Dir(indexPath), name)
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		return p, true
	}
	return "", false
}

// list runs src's items with a window of Concurrency items ahead of the
// one being yielded, and recurses into each item's children in order. It
// returns false when the walk stops early. An item is made when its turn
// to run comes and dropped once yielded: what the walk holds of a listing
// is its window, whatever its length.
func (w *walker) list(src itemSource, yield func(*Document) bool) bool {
	window := cap(w.sem)
	// ahead holds a token for each item made and not yet yielded (or
	// skipped): the window. queue passes the items made to the consumer,
	// in order, with room for the window: sending never waits.
	ahead := make(chan struct{}, window)
	queue := make(chan *item, window)
	stop := make(chan struct{})
	w.workers.Add(1)
	go func() {
		defer w.workers.Done()
		defer close(queue)
		for {
			select {
			case ahead <- struct{}{}:
			case <-stop:
				return
			}
			it := src.next()
			if it == nil {
				return
			}
			select {
			case <-it.done: // nothing to run
			default:
				select {
				case w.sem <- struct{}{}:
				case <-stop:
					return
				}
				w.workers.Add(1)
				go func() {
					defer w.workers.Done()
					defer func() { <-w.sem; close(it.done) }()
					w.run(it)
				}()
			}
			queue <- it
		}
	}()
	giveUp := func(cur *item) bool {
		w.stopped.Store(true)
		close(stop)
		w.abandon(queue, cur)
		return false
	}
	for it := range queue {
		if w.read >= w.o.MaxDocuments {
			w.limit(it, yield, fmt.Sprintf("%d documents read, the most one walk reads (--max-documents)", w.read))
			return giveUp(it)
		}
		select {
		case <-it.done:
		case <-w.ctx.Done():
		}
		if w.ctx.Err() != nil {
			if w.parent.Err() == nil {
				w.limit(it, yield, fmt.Sprintf("the walk's time budget of %v is spent (--time-budget)", w.o.Budget))
			}
			return giveUp(it)
		}
		if it.silent {
			<-ahead
			continue
		}
		w.settle(it)
		kids := w.childItems(it)
		if !it.doc.Listing {
			w.read++
		}
		if !yield(it.doc) {
			return giveUp(nil)
		}
		<-ahead
		if kids != nil && !w.list(kids, yield) {
			return giveUp(nil)
		}
	}
	return true
}

// settle makes a document the walk reads already one not read again, a
// Repeated finding: a start given twice, or reached through redirects too,
// or a document reached through redirects to a sitemap the walk reads
// already (listed as well, or reached by another redirect or start). It
// runs on the walk's goroutine, in walk order, so that which of two copies
// is read does not depend on which answered first. A redirect to an index
// above it, or to a robots.txt, is read as before: its findings (a loop,
// not a sitemap) are errors of their own.
func (w *walker) settle(it *item) {
	d := it.doc
	if d.Body == nil {
		return
	}
	final := d.redirectedTo()
	var repeat *Error
	switch {
	case it.start && !w.take(d.key(), nil):
		// Listed by nobody: taken at its turn, as a listing is when
		// its index's children are.
		repeat = problem(Repeated, nil, "the walk reads it already (another start, or a redirect, reaches it); not read again")
	case final == "" || w.take(final, nil) || !repeatOf(it, final):
		return
	default:
		repeat = repeatProblem(final)
	}
	d.Body.Close()
	d.Body, d.Format, it.locs = nil, 0, nil
	// What reading it found (an index's damage) is the other copy's.
	d.Problems = slices.DeleteFunc(d.Problems, func(p *Error) bool { return p.Kind != Redirected })
	d.add(repeat)
}

func repeatProblem(final string) *Error {
	return problem(Repeated, nil, "redirects to %s, which the walk reads already; not read again", final)
}

// repeatOf reports whether final, a URL the walk reads already, makes it
// a repeat: not an index above it (a loop) nor a robots.txt (not a
// sitemap), which are read for their own errors.
func repeatOf(it *item, final string) bool {
	if it.parent != nil && it.parent.loopTo(final) != "" {
		return false
	}
	u, err := url.Parse(final)
	return err != nil || u.Path != "/robots.txt"
}

// limit yields, once, a document in it.doc's place with the Limit finding
// why, and no body: the walk ends there.
func (w *walker) limit(it *item, yield func(*Document) bool, why string) {
	if w.limited {
		return
	}
	w.limited = true
	// The fields a worker still running the item does not write.
	d := Document{Name: it.doc.Name, URL: it.doc.URL, Parent: it.doc.Parent, Local: it.doc.Local,
		Problems: []*Error{problem(Limit, nil, "%s: this document and those after it are not read", why)}}
	yield(&d)
}

// abandon closes the bodies of items that will not be yielded, cur (if
// not nil) and those the scheduler made, once their runs are over: every
// item queued runs, or had nothing to run.
func (w *walker) abandon(queue <-chan *item, cur *item) {
	w.workers.Add(1)
	go func() {
		defer w.workers.Done()
		if cur != nil {
			discard(cur)
		}
		for it := range queue {
			discard(it)
		}
	}()
}

// discard closes the item's body once its run is over.
func discard(it *item) {
	<-it.done
	if it.doc.Body != nil {
		it.doc.Body.Close()
		it.doc.Body = nil
	}
}

// run does one item's work in a worker. The scheduler that started it
// stops starting runs once the walk is given up, but one started just
// before still ends, promptly: ctx is done.
func (w *walker) run(it *item) {
	if it.robots {
		w.runRobots(it)
		return
	}
	d := it.doc
	if w.ctx.Err() != nil || w.stopped.Load() {
		return
	}
	if it.judgeOnly {
		it.silent = w.crossHostAllowed(it)
		return
	}
	body := w.open(it)
	if body == nil {
		return
	}
	if final := d.redirectedTo(); final != "" && w.readsAlready(final) && repeatOf(it, final) {
		// What the walk reads stays read: settle would find it
		// a repeat, in walk order as well. Not read.
		body.Close()
		d.add(repeatProblem(final))
		return
	}
	// Detect the format from the head, which the Body then replays; an
	// index is read here, for its children, and kept for the consumer.
	var head bytes.Buffer
	format, _ := sitemap.Detect(io.TeeReader(body, &head))
	d.Format = format
	if format != sitemap.FormatIndex {
		t := w.track(body)
		d.Body = &replay{Reader: io.MultiReader(&head, t), c: t}
		return
	}
	_, locs, err := readHead(io.MultiReader(bytes.NewReader(head.Bytes()), io.TeeReader(body, &head)))
	body.Close()
	it.locs = locs
	var rest io.Reader = eofReader{}
	if err != nil {
		d.add(problem(Damaged, err, "%v", err))
		var se *sitemap.SyntaxError
		if !errors.As(err, &se) {
			rest = errReader{err} // an I/O error: the consumer meets it too
		}
	}
	d.Body = &replay{Reader: io.MultiReader(bytes.NewReader(head.Bytes()), rest), c: io.NopCloser(nil)}
}

// replay is a body read again from its beginning.
type replay struct {
	io.Reader
	c io.Closer
}

func (r *replay) Close() error { return r.c.Close() }

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// runRobots fetches a robots.txt given as a start and turns its Sitemap:
// lines into documents.
func (w *walker) runRobots(it *item) {
	d := it.doc
	if w.o.Offline {
		d.add(problem(FetchFailed, nil, "not fetched: --offline"))
		return
	}
	ru, _ := url.Parse(d.Name)
	w.markSeen(d.Name)
	e := w.f.robotsFor(w.ctx, ru)
	if w.o.Robots != "" {
		// The file stands for the site's robots.txt: its Sitemap: lines
		// are its lines, and its own findings were said (robotsFile).
		d.Name, d.Local = w.o.Robots, true
		if e.why != "" {
			return
		}
	}
	if e.why != "" {
		d.add(problem(FetchFailed, e.err, "%s", e.why))
		return
	}
	if e.r.Truncated && w.o.Robots == "" {
		d.add(e.truncated())
	}
	site := ru.Scheme + "://" + ru.Host + "/"
	for _, sm := range e.r.Sitemaps {
		switch {
		case sm.URL == "":
			p := problem(InvalidURL, nil, "Sitemap: %q skipped: %s", sm.Value, sm.Problem)
			p.Line = sm.Line
			d.add(p)
			continue
		case sm.Problem != "":
			p := problem(RelativeURL, nil, "Sitemap: %q is %s", sm.Value, sm.Problem)
			p.Line = sm.Line
			d.add(p)
		}
		c := child{name: sm.URL, url: sm.URL, line: int32(sm.Line)}
		if cu, err := url.Parse(sm.URL); err == nil && cu.Host != ru.Host {
			// Cross-submission: the robots.txt of the site vouches for a
			// sitemap hosted elsewhere; its URLs must be the site's.
			c.url = site + path.Base(cu.Path)
		}
		it.lines = append(it.lines, c)
	}
	if len(it.lines) == 0 {
		// No Sitemap: lines: try the conventional location, as crawlers do.
		u := site + "sitemap.xml"
		it.lines = append(it.lines, child{name: u, url: u})
		it.note = " (tried because " + d.Name + " has no Sitemap: lines)"
	}
}

// robotsFile returns Options.Robots as a Listing with what is wrong with
// it (unreadable, or truncated), before anything it judges; nil when there
// is none, or nothing wrong with it.
func (w *walker) robotsFile() *Document {
	if w.o.Robots == "" {
		return nil
	}
	e := w.f.robotsFor(w.ctx, &url.URL{})
	d := &Document{Name: w.o.Robots, Local: true, Listing: true}
	switch {
	case e.why != "":
		d.add(problem(FetchFailed, e.err, "%s", e.why))
	case e.r.Truncated:
		d.add(e.truncated())
	default:
		return nil
	}
	return d
}

// readsAlready reports whether the walk reads key: it is marked, and not
// only by a listing that the cross-host rule refuses, where it is not read.
func (w *walker) readsAlready(key string) bool {
	w.mu.Lock()
	index, ok := w.seen[mark(key)]
	w.mu.Unlock()
	if !ok || index == nil {
		return ok
	}
	_, allowed := w.crossHostOK(key, index)
	return allowed
}

// take reports whether the caller, a listing of key or a redirect to it,
// is the one that reads it, and marks it so: key was not read already
// (readsAlready). index is the caller's index when that is on another
// host than key, for the cross-host rule, or nil. It runs on the walk's
// goroutine, in walk order, so that which copy is read is deterministic;
// the cross-host verdict it may wait for is too.
func (w *walker) take(key string, index *url.URL) bool {
	m := mark(key)
	w.mu.Lock()
	_, marked := w.seen[m]
	if !marked {
		w.seen[m] = index
	}
	w.mu.Unlock()
	if !marked {
		return true
	}
	if w.readsAlready(key) {
		return false
	}
	w.mu.Lock()
	w.seen[m] = index
	w.mu.Unlock()
	return true
}

// markSeen marks key read, unless it is marked already.
func (w *walker) markSeen(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := mark(key)
	if _, ok := w.seen[m]; !ok {
		w.seen[m] = nil
	}
}

// childItems takes the children found by an item's run, on the walk's
// goroutine so that the loop guard is deterministic: local index children
// beside the index, depth limit, already-seen documents, cross-host
// children. Its findings go to the item's document; the children it keeps
// are made items as the walk reaches them. nil: none.
func (w *walker) childItems(it *item) itemSource {
	d := it.doc
	if it.robots {
		lines := it.lines
		it.lines = nil
		var kept childList
		for _, c := range lines {
			if !w.take(c.name, nil) {
				p := problem(Repeated, nil, "robots.txt lists %s again (or another start does); it is read once", c.name)
				if c.name == d.Name {
					p = problem(Relisted, nil, "robots.txt lists %s, itself, which was read already; not read as a sitemap", c.name)
				}
				p.Line = int(c.line)
				d.add(p)
				continue
			}
			kept.add(c)
		}
		parent, note := d.Name, it.note
		return kept.source(func(c child) *item {
			ci := newItem(&Document{Name: c.name, URL: c.url, Parent: parent, ParentLine: int(c.line)})
			ci.note = note
			return ci
		})
	}
	locs := it.locs
	it.locs = nil
	if d.Listing || len(locs) == 0 {
		return nil
	}
	if d.Depth+1 > w.o.MaxDepth {
		d.add(problem(TooDeep, nil, "index %d levels below the start; its %d children are not read", d.Depth, len(locs)))
		return nil
	}
	// Children on another host need their robots.txt's word, even when a
	// copy lies beside a local index; offline, nobody can ask.
	var index *url.URL
	if d.URL != "" && !w.o.Offline {
		if u, err := url.Parse(d.URL); err == nil && u.Host != "" {
			index = u
		}
	}
	self := &ancestor{name: filepath.Base(d.Name), key: d.key(), final: d.redirectedTo(), up: it.parent}
	var kept childList
	offline, firstOffline, offlineLine := 0, "", 0
	for _, c := range locs {
		loc := strings.TrimSpace(c.loc)
		ch := child{name: loc, line: int32(c.line)}
		if u, err := url.Parse(loc); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			ch.url = loc
		}
		if d.Local {
			if p, ok := besideFile(d.Name, loc); ok {
				ch.name, ch.local = p, true
			} else if w.o.Offline {
				// One finding for all of them: an index of 50,000 remote
				// children read offline must not give 50,000 lines.
				if offline++; offline == 1 {
					firstOffline, offlineLine = loc, c.line
					if len(loc) > 100 {
						firstOffline = loc[:100] + "…"
					}
				}
				continue
			}
		} else if cu, err := url.Parse(loc); err == nil && !cu.IsAbs() {
			// A relative child is an error (lint reports it); a crawler
			// would not follow it.
			continue
		}
		key := keyOf(ch.name, ch.local)
		ch.cross = index != nil && ch.url != "" && otherHost(index, ch.url)
		var refusable *url.URL
		if ch.cross && !ch.local { // a file: no redirect reaches it, and local indexes share one host
			refusable = index
		}
		if !w.take(key, refusable) {
			if key == self.key || key == self.final {
				d.add(lineProblem(c.line, Loop, "the index lists itself; not read again"))
			} else if chain := self.loopTo(key); chain != "" {
				d.add(lineProblem(c.line, Loop, "the index lists %s, an index above it (a loop: %s); not read again", loc, chain))
			} else if ch.cross {
				// Read already (through a redirect, or another list),
				// but this index's listing of it is judged all the same:
				// the verdict must not depend on the walk's order.
				ch.judgeOnly = true
				kept.add(ch)
			}
			continue
		}
		kept.add(ch)
	}
	if offline > 0 {
		d.add(lineProblem(offlineLine, FetchFailed, "%d of its %d children are not in its folder and were not fetched (--offline), e.g. %s", offline, len(locs), firstOffline))
	}
	parent, depth := d.Name, d.Depth+1
	return kept.source(func(c child) *item {
		ci := newItem(&Document{Name: c.name, URL: c.url, Parent: parent, ParentLine: int(c.line), Depth: depth, Local: c.local})
		ci.parent, ci.judgeOnly = self, c.judgeOnly
		if c.cross {
			ci.crossFrom = index
		}
		return ci
	})
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// sitemapName reports whether a file named name may be a sitemap, for a
// file whose content cannot be read to tell: "sitemap" in its name, or an
// extension a sitemap, a text sitemap or a feed has (.xml, .txt, .rss,
// .atom, compressed or not).
func sitemapName(name string) bool {
	name = strings.ToLower(name)
	if strings.Contains(name, "sitemap") {
		return true
	}
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".zst")
	switch filepath.Ext(name) {
	case ".xml", ".txt", ".rss", ".atom":
		return true
	}
	return false
}
