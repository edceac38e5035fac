package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// SitemapsOptions configure OpenSitemaps. The zero value is usable.
type SitemapsOptions struct {
	// Options configure the walk; Base is unused (entries are read, not
	// checked). Entries come in walk order whatever the Concurrency.
	discover.Options
	// KeepGoing returns a document that cannot be read, and each finding
	// of the walk, as a *SitemapError record, and goes on.
	KeepGoing bool
	// OnNotice, if set, receives every notice of the documents' readers
	// (sitemap.Reader.OnNotice) with the document's name: an entry read
	// with a change (invalid UTF-8 made U+FFFD, a NUL kept) is otherwise
	// silent. It is called from the goroutines that read, at once.
	OnNotice func(doc string, n sitemap.Notice)
	// RefuseAltered returns an entry the reader read with a change (a
	// character XML does not allow: a byte that is not UTF-8 read as
	// U+FFFD, a NUL kept) as a *ParseError naming the change, not as the
	// entry: a set built from sitemaps must not publish a URL its source
	// did not hold, as a file input refuses a line that is not UTF-8.
	RefuseAltered bool
}

// Sitemaps is a Source of the entries of existing sitemaps: every file,
// folder or URL discover.Walk understands (a urlset, an index and its
// children, a text sitemap, an RSS or Atom feed, gzipped or not, a
// robots.txt and the sitemaps its Sitemap: lines name, a site root, a
// folder of sitemap files). Every entry is returned with all it carries
// (lastmod, changefreq, priority, images, videos, news, alternates) as
// sitemap.Reader reads it, so that a set can be merged, re-split or
// migrated to other limits without losing anything. Index entries are not
// URLs: an index's children are read in its place.
//
// Entries come in walk order: each document's in document order, an
// index's children in index order, starts in the order given. Place names
// an entry's document, line and column
// ("https://www.example.com/sitemap-2.xml:40:3").
//
// # Errors
//
// An entry the reader cannot read and skips (a <url> without <loc>, an RSS
// <item> without <link>, a line of a text sitemap that is not a URL) is a
// *ParseError with its document, line and column; the stream goes on.
// Departures the reader tolerates and reads past (unknown elements, a
// wrong namespace, elements out of order, an image without image:loc) are
// not errors here: `sitemapkit validate` reports them.
//
// A document that cannot be read ends the stream with a *SitemapError
// naming it: a failure the walk found (see discover.Kind: a failed fetch,
// an HTTP status other than 200, robots.txt, a cross-host child, an index
// nested deeper than MaxDepth, a file or folder that does not exist or
// holds no sitemap; a robots.txt answering 404 is none: /sitemap.xml is
// tried), or a document the reader refuses or finds damaged. An input that
// cannot be read must stop the build: publishing without it would drop
// its URLs from the live set. The walk's other findings are harmless here
// and ignored: a redirect that ends in a sitemap, a relative Sitemap:
// line, a document listed twice (read once), an index listing itself.
//
// Close stops the walk; it must be called when done with the Sitemaps.
type Sitemaps struct {
	name string
	wctx context.Context // the walk's: done at Close, the end, or ctx's end
	stop context.CancelCauseFunc
	docs chan *smDoc // the documents with entries, in walk order
	wg   sync.WaitGroup
	once sync.Once

	// ahead holds back the readers of documents ahead of the consumer:
	// under mu, each smDoc's unread batches against its limit (aheadLimit).
	mu     sync.Mutex
	ahead  *sync.Cond
	free   chan []smItem // emptied batches, for newBatch
	curSeq int           // the walk position of the document the consumer takes
	unhook func() bool

	// The consumer's state.
	cur     *smDoc
	pending []smItem // what Read returns next, in order, from next on
	pendDoc string   // the document of pending
	next    int
	line    int
	col     int
	place   string
	end     error // io.EOF, or the error that ended the stream

	onNotice      func(doc string, n sitemap.Notice) // SitemapsOptions.OnNotice
	refuseAltered bool                               // SitemapsOptions.RefuseAltered
}

// A SitemapError is a sitemap (or robots.txt, file or folder) that could
// not be read, which ends the stream of a Sitemaps.
type SitemapError struct {
	// Sitemap is the document's path or URL, as the walk names it.
	Sitemap string
	// Rule is the ID of the lint rule the failure breaks ("http-error",
	// "fetch-error", "blocked-by-robots", "parse-error"…), so that it can be
	// shown as `sitemapkit validate` shows it.
	Rule string
	// Err is the cause: a *sitemap.SyntaxError for a damaged document.
	Err error
	// Parent and ParentLine are, with KeepGoing, the index or robots.txt
	// that lists a sitemap the walk could not read and the line that
	// does: where it is fixed, and where `sitemapkit validate` reports
	// it (discover.Document.MissingFrom). "" and 0 otherwise.
	Parent     string
	ParentLine int
}

// Error returns "sitemap: cause", or the cause alone when it names the
// sitemap with its line and column already (a *sitemap.SyntaxError).
func (e *SitemapError) Error() string {
	var se *sitemap.SyntaxError
	if errors.As(e.Err, &se) && se.File == e.Sitemap {
		return e.Err.Error()
	}
	return e.Sitemap + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *SitemapError) Unwrap() error { return e.Err }

// smItem is a record waiting to be returned: an entry, a ParseError, or the
// error that ends the stream. It is kept small (its document is its
// smDoc's): the more records fit in the memory read ahead, the more of the
// next documents is read on the other cores.
type smItem struct {
	u     sitemap.URL
	err   error
	line  int32
	col   int32
	final bool
}

// smDoc is a document's records, read on a goroutine of its own and taken
// in walk order: batches until the channel closes.
type smDoc struct {
	doc     string
	seq     int // its position in the walk
	unread  int // batches sent and not yet taken, under Sitemaps.mu
	batches chan []smItem
}

// aheadLimit is how many unread batches sd may hold.
func (s *Sitemaps) aheadLimit(sd *smDoc) int {
	if sd.seq == s.curSeq+1 {
		return smAheadNext
	}
	return smAhead
}

// smBatch is how many records travel together.
const smBatch = 512

// smAhead is how many batches the current document, and those more than
// one ahead of it, may hold: enough to keep their readers busy between
// the consumer's takes (about 0.7 MB each; the overlap that matters is
// the next document's).
const smAhead = 8

// smAheadNext is how many batches the document right after the consumer's
// may hold: most of a 50,000-entry sitemap, so that on two cores it is
// read while the current one is taken (about 6 MB), where as much for
// every document ahead would cost Concurrency times that.
const smAheadNext = 64

// newBatch returns an empty batch, one the consumer has emptied when there
// is one: a million entries would otherwise be 200 MB of garbage. The
// batches are kept by the Sitemaps, not a sync.Pool, which every garbage
// collection empties: its batches were made again, and cleared, each time.
func (s *Sitemaps) newBatch() []smItem {
	select {
	case b := <-s.free:
		return b
	default:
		return make([]smItem, 0, smBatch)
	}
}

// recycleBatch keeps b for newBatch.
func (s *Sitemaps) recycleBatch(b []smItem) {
	if cap(b) != smBatch {
		return
	}
	select {
	case s.free <- b[:0]:
	default:
	}
}

// OpenSitemaps starts walking starts (paths of files or folders, sitemap
// or robots.txt URLs, site roots) and returns the Sitemaps that reads their
// entries. The walk runs on goroutines of its own until its entries have
// been read, ctx is done (Read then returns the records read before, and
// ctx's error), or Close.
func OpenSitemaps(ctx context.Context, starts []string, o SitemapsOptions) *Sitemaps {
	o.Options = o.Options.WithDefaults()
	s := &Sitemaps{
		name: strings.Join(starts, ", "),
		docs: make(chan *smDoc, o.Concurrency),

		onNotice:      o.OnNotice,
		refuseAltered: o.RefuseAltered,
	}
	s.wctx, s.stop = context.WithCancelCause(context.Background())
	s.ahead = sync.NewCond(&s.mu)
	s.free = make(chan []smItem, smAheadNext+smAhead*o.Concurrency)
	s.curSeq = -1
	context.AfterFunc(s.wctx, func() { // wakes the readers held back
		s.mu.Lock()
		s.ahead.Broadcast()
		s.mu.Unlock()
	})
	s.unhook = context.AfterFunc(ctx, func() { s.stop(ctx.Err()) })
	s.wg.Add(1)
	go s.walk(starts, o)
	return s
}

// walk hands the consumer each document in walk order, reading up to
// Concurrency of them at once.
func (s *Sitemaps) walk(starts []string, o SitemapsOptions) {
	defer s.wg.Done()
	defer close(s.docs)
	opts := o.Options
	readers := make(chan struct{}, opts.Concurrency)
	var later []walkProblem // findings about listings and indexes' children: after every entry
	seq := 0
	for d := range discover.Walk(s.wctx, starts, opts) {
		var head []smItem // the records before the entries
		if o.KeepGoing {
			head = findings(d)
		} else {
			var err error
			switch {
			case d.Listing:
				later = appendFatal(later, d, false)
			case d.Body == nil && repeated(d):
				// Read through its other listing.
			case d.Body == nil:
				if err = joinFatal(appendFatal(nil, d, true)); err == nil {
					err = &SitemapError{Sitemap: d.Name, Rule: discover.FetchFailed.String(), Err: errors.New("could not be read")}
				}
			case d.Format == sitemap.FormatIndex:
				err = joinFatal(appendFatal(nil, d, true))
				later = appendFatal(later, d, false)
			}
			if err != nil {
				head = []smItem{{err: err, final: true}}
			}
		}
		entries := d.Body != nil && d.Format != sitemap.FormatIndex && (len(head) == 0 || !head[len(head)-1].final)
		if !entries && d.Body != nil {
			d.Body.Close()
		}
		if !entries && len(head) == 0 {
			continue
		}
		sd := &smDoc{doc: d.Name, seq: seq, batches: make(chan []smItem, smAheadNext+1)}
		seq++
		if len(head) > 0 {
			sd.batches <- head
			sd.unread = 1
		}
		if !entries {
			close(sd.batches)
		} else {
			select {
			case readers <- struct{}{}:
			case <-s.wctx.Done():
				d.Body.Close()
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer func() { <-readers }()
				s.read(sd, d, !o.KeepGoing)
			}()
		}
		select {
		case s.docs <- sd:
		case <-s.wctx.Done():
			return
		}
	}
	if err := joinFatal(later); err != nil {
		sd := &smDoc{seq: seq, unread: 1, batches: make(chan []smItem, 1)}
		sd.batches <- []smItem{{err: err, final: true}}
		close(sd.batches)
		select {
		case s.docs <- sd:
		case <-s.wctx.Done():
		}
	}
}

// findings returns every finding of the walk about d as a record.
func findings(d *discover.Document) []smItem {
	var out []smItem
	for _, p := range d.Problems {
		e := &SitemapError{Sitemap: d.Name, Rule: p.Kind.String(), Err: p}
		e.Parent, e.ParentLine = d.MissingFrom(p)
		if p.Kind == discover.Damaged {
			e.Rule, e.Err = ruleOf(p.Err), p.Err
		}
		out = append(out, smItem{err: e, line: int32(p.Line)})
	}
	return out
}

// repeated reports a document the walk does not read again: it reads the
// same sitemap through another listing.
func repeated(d *discover.Document) bool {
	return slices.ContainsFunc(d.Problems, func(p *discover.Error) bool { return p.Kind == discover.Repeated })
}

// A walkProblem is a finding of the walk that fails the stream.
type walkProblem struct {
	doc string
	e   *discover.Error
}

// appendFatal appends d's findings that mean a document was not read: at
// its turn (now: its own failure, a damaged or too deep index), or those
// about what it lists, which wait for the end of the stream. A redirect,
// a relative Sitemap: line, a document listed twice are harmless.
func appendFatal(ps []walkProblem, d *discover.Document, now bool) []walkProblem {
	for _, p := range d.Problems {
		var fatal bool
		switch p.Kind {
		case discover.Damaged, discover.TooDeep:
			fatal = now
		case discover.FetchFailed, discover.HTTPStatus, discover.BlockedByRobots, discover.CrossHost, discover.InvalidURL:
			fatal = now == (d.Body == nil && !d.Listing)
		}
		if fatal {
			ps = append(ps, walkProblem{d.Name, p})
		}
	}
	return ps
}

// joinFatal returns the findings as one *SitemapError naming the first's
// document and rule, or nil.
func joinFatal(ps []walkProblem) error {
	if len(ps) == 0 {
		return nil
	}
	first := ps[0]
	if len(ps) == 1 && first.e.Line == 0 {
		if first.e.Kind == discover.Damaged {
			return &SitemapError{Sitemap: first.doc, Rule: ruleOf(first.e.Err), Err: first.e.Err}
		}
		return &SitemapError{Sitemap: first.doc, Rule: first.e.Kind.String(), Err: first.e}
	}
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.e.Error()
		if p.e.Line > 0 {
			msgs[i] = "line " + strconv.Itoa(p.e.Line) + ": " + msgs[i]
		}
	}
	rule := first.e.Kind.String()
	if first.e.Kind == discover.Damaged {
		rule = ruleOf(first.e.Err)
	}
	return &SitemapError{Sitemap: first.doc, Rule: rule, Err: errors.New(strings.Join(msgs, "; "))}
}

// ruleOf is the rule a document's read error breaks.
func ruleOf(err error) string {
	if r := sitemap.ErrorRule(err); r != "" {
		return r
	}
	var limit *discover.Error
	if errors.As(err, &limit) && limit.Kind == discover.Limit {
		return limit.Kind.String() // the time budget, spent while it was read
	}
	return discover.FetchFailed.String()
}

// smReader reads one document's records on a goroutine of its own.
type smReader struct {
	doc     string
	r       *sitemap.Reader
	notices []sitemap.Notice // notices of the document since the last entry
	batch   []smItem
	also    func(doc string, n sitemap.Notice) // SitemapsOptions.OnNotice
	refuse  bool                               // SitemapsOptions.RefuseAltered
}

// read reads d's records into sd's batches. A damaged document ends the
// stream when final.
func (s *Sitemaps) read(sd *smDoc, d *discover.Document, final bool) {
	defer close(sd.batches)
	defer d.Body.Close()
	rd := &smReader{doc: d.Name, r: sitemap.NewReader(d.Body), batch: s.newBatch(), also: s.onNotice, refuse: s.refuseAltered}
	rd.r.Name = d.Name
	rd.r.OnNotice = rd.notice
	rd.r.ReuseURL = true // copied into the batch, slices cloned
	send := func() bool {
		s.mu.Lock()
		for sd.unread >= s.aheadLimit(sd) && s.wctx.Err() == nil {
			s.ahead.Wait()
		}
		stopped := s.wctx.Err() != nil
		sd.unread++
		s.mu.Unlock()
		// Sent when stopped too, the last: an interrupted stream ends
		// with what was read before it (recv).
		sd.batches <- rd.batch // never blocks: unread <= smAheadNext, and one last
		if stopped {
			return false
		}
		rd.batch = s.newBatch()
		return true
	}
	for {
		u, err := rd.r.Read()
		switch {
		case err == nil:
			pos := rd.r.Pos()
			altered := rd.altered(pos.Offset)
			rd.flushNotices(pos.Offset)
			if altered != nil {
				rd.batch = append(rd.batch, smItem{
					err:  &ParseError{File: rd.doc, Line: altered.Pos.Line, Column: altered.Pos.Col, Err: fmt.Errorf("%s: the entry is left out", altered.Msg)},
					line: int32(pos.Line), col: int32(pos.Col),
				})
				if len(rd.batch) >= smBatch && !send() {
					return
				}
				continue
			}
			// Filled in place: a record is copied once, not built and
			// then copied.
			if n := len(rd.batch); n < cap(rd.batch) {
				rd.batch = rd.batch[:n+1]
			} else { // notices filled it
				rd.batch = append(rd.batch, smItem{})
			}
			it := &rd.batch[len(rd.batch)-1]
			it.u = *u
			it.u.Images, it.u.Videos, it.u.Alternates = clone(u.Images), clone(u.Videos), clone(u.Alternates)
			it.err, it.line, it.col, it.final = nil, int32(pos.Line), int32(pos.Col), false
			if len(rd.batch) >= smBatch && !send() {
				return
			}
			continue
		case err == io.EOF:
			rd.flushNotices(math.MaxInt64)
		default:
			rd.flushNotices(math.MaxInt64)
			if s.wctx.Err() != nil {
				break // the stop's error, not the document's: the stream ends with its cause
			}
			var se *sitemap.SyntaxError
			line := 0
			if errors.As(err, &se) {
				line = se.Line
			}
			err = &SitemapError{Sitemap: rd.doc, Rule: ruleOf(err), Err: err}
			rd.batch = append(rd.batch, smItem{err: err, line: int32(line), final: final})
		}
		if len(rd.batch) > 0 {
			send()
		} else {
			s.recycleBatch(rd.batch)
		}
		return
	}
}

// clone copies s, nil when empty (as the Reader leaves an absent field).
func clone[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// recv returns the next batch of records and their document, or the reason
// the stream stopped. Stopped by ctx, it returns what the current
// document's reader had read (the readers end at once, closing their
// channels), then ctx's error: an interrupted command prints all it can
// of the beginning of the stream, and nothing past a gap.
func (s *Sitemaps) recv() ([]smItem, string, error) {
	for {
		if s.cur == nil {
			if s.wctx.Err() != nil {
				// Stopped: a document read ahead would follow the
				// current one's part with a gap between, where what is
				// printed must be the beginning of the whole.
				return nil, "", context.Cause(s.wctx)
			}
			sd, ok := <-s.docs
			if !ok {
				if s.wctx.Err() != nil {
					return nil, "", context.Cause(s.wctx)
				}
				return nil, "", io.EOF
			}
			s.cur = sd
			s.mu.Lock()
			s.curSeq = sd.seq
			s.ahead.Broadcast()
			s.mu.Unlock()
		}
		b, ok := <-s.cur.batches
		if ok {
			s.mu.Lock()
			s.cur.unread--
			s.ahead.Broadcast() // sd's reader may wait on another's turn
			s.mu.Unlock()
			return b, s.cur.doc, nil
		}
		s.cur = nil
	}
}

// Read returns the next entry, with the contract of Source.Read.
func (s *Sitemaps) Read() (sitemap.URL, error) {
	for {
		if s.next < len(s.pending) {
			// Not cleared: the batch is recycled, and overwritten, next.
			it := &s.pending[s.next]
			s.next++
			s.line, s.col, s.place = int(it.line), int(it.col), s.pendDoc
			if it.final {
				s.finish(it.err)
				return sitemap.URL{}, s.end
			}
			return it.u, it.err
		}
		if s.end != nil {
			return sitemap.URL{}, s.end
		}
		b, doc, err := s.recv()
		if err != nil {
			s.finish(err)
			continue
		}
		s.recycleBatch(s.pending) // every item read
		s.pending, s.pendDoc, s.next = b, doc, 0
	}
}

// notice keeps the reader's notices that mean an entry was skipped.
func (s *smReader) notice(n sitemap.Notice) {
	if s.also != nil {
		s.also(s.doc, n)
	}
	if n.Rule == sitemap.RuleMissingTag || n.Rule == sitemap.RuleInvalidURL || s.refuse && n.Rule == sitemap.RuleInvalidCharacter {
		s.notices = append(s.notices, n)
	}
}

// altered returns the first notice of a character read with a change in
// the entry that starts at off, when such entries are refused.
func (s *smReader) altered(off int64) *sitemap.Notice {
	for i := range s.notices {
		if n := &s.notices[i]; n.Rule == sitemap.RuleInvalidCharacter && n.Pos.Offset >= off {
			c := *n
			return &c
		}
	}
	return nil
}

// flushNotices turns the notices before offset off (the start of the
// entry just read) into ParseErrors: an entry-level notice there is an
// entry the reader skipped. The notices from off on are about the entry
// itself (an image without image:loc), which was read; they are dropped.
func (s *smReader) flushNotices(off int64) {
	for _, n := range s.notices {
		if n.Pos.Offset >= off {
			break
		}
		if n.Rule == sitemap.RuleInvalidCharacter {
			continue // not an entry skipped: see altered
		}
		var err error = errors.New(n.Msg)
		if n.Rule == sitemap.RuleMissingTag {
			err = &noticeError{msg: n.Msg, err: ErrMissingLoc}
		}
		s.batch = append(s.batch, smItem{
			err:  &ParseError{File: s.doc, Line: n.Pos.Line, Column: n.Pos.Col, Err: err},
			line: int32(n.Pos.Line),
			col:  int32(n.Pos.Col),
		})
	}
	s.notices = s.notices[:0]
}

// noticeError is an error with its own message that unwraps to a sentinel.
type noticeError struct {
	msg string
	err error
}

func (w *noticeError) Error() string { return w.msg }
func (w *noticeError) Unwrap() error { return w.err }

// finish ends the stream with err (io.EOF at a clean end) and stops the walk.
func (s *Sitemaps) finish(err error) {
	if s.end == nil {
		s.end = err
	}
	s.stop(io.ErrClosedPipe)
}

// All returns every entry and error, with the contract of Source.All.
func (s *Sitemaps) All() iter.Seq2[sitemap.URL, error] { return all(s) }

// Name returns the starts, joined by ", ".
func (s *Sitemaps) Name() string { return s.name }

// Line returns the line, in its document, of the entry (or error) Read
// last returned; 0 when unknown.
func (s *Sitemaps) Line() int { return s.line }

// Column returns the column, in its line, of the entry (or error) Read
// last returned; 0 when unknown.
func (s *Sitemaps) Column() int { return s.col }

// Document returns the document of the entry Read last returned.
func (s *Sitemaps) Document() string { return s.place }

// Place returns "DOC:LINE" for the entry (or error) Read last returned,
// DOC being the path or URL of the document it is in.
func (s *Sitemaps) Place() string {
	if s.place == "" {
		return s.name
	}
	if s.line > 0 && s.col > 0 {
		// Many sitemaps are one long line: the column finds the entry.
		return s.place + ":" + strconv.Itoa(s.line) + ":" + strconv.Itoa(s.col)
	}
	return linePlace(s.place, s.line)
}

// Err returns the error that ended the stream, or nil.
func (s *Sitemaps) Err() error {
	if s.end == io.EOF {
		return nil
	}
	return s.end
}

// Close stops the walk and waits for its goroutines to end: every fetch
// under way is cancelled. A later Read returns io.ErrClosedPipe, unless the
// stream had ended before.
func (s *Sitemaps) Close() error {
	s.once.Do(func() {
		s.stop(io.ErrClosedPipe)
		s.unhook()
		s.wg.Wait()
		s.cur = nil
		s.pending, s.next = nil, 0
		if s.end == nil {
			s.end = io.ErrClosedPipe
		}
	})
	return nil
}

var (
	_ Source    = (*Sitemaps)(nil)
	_ Placer    = (*Sitemaps)(nil)
	_ io.Closer = (*Sitemaps)(nil)
)
