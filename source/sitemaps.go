package source

import (
	"context"
	"errors"
	"io"
	"iter"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/sitemapkit/sitemapkit/lint"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// SitemapsOptions configure OpenSitemaps. The zero value is usable.
type SitemapsOptions struct {
	// SiteOptions configure the walk as they configure lint.Site: Offline,
	// Timeout (each fetch, body included, also while the body waits for
	// the entries before it to be read), UserAgent, MaxDepth, MaxBytes and
	// Transport have the defaults documented there. Base is not used:
	// entries are read, not checked (package publish checks their scope).
	// Concurrency is how many documents are fetched and read ahead of the
	// one whose entries Read returns; its default here is 2 (the current
	// document, and the next one fetched meanwhile). Entries come out in
	// walk order whatever it is.
	lint.SiteOptions
}

// Sitemaps is a Source of the entries of existing sitemaps: every file,
// folder or URL lint.Site.Walk understands (a urlset, an index and its
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
// naming it: a fetch that fails (network error, timeout, redirect loop, a
// body over MaxBytes), an HTTP status other than 200, a sitemap that
// robots.txt disallows, an index child on another host that no robots.txt
// vouches for, a child that is not an absolute URL, a robots.txt that
// cannot be fetched (a 404 is not a failure: it means no Sitemap: lines,
// and /sitemap.xml is tried), an index nested deeper than MaxDepth, a file
// or folder that does not exist or holds no sitemap, and any document the
// reader refuses or finds damaged (not well-formed, HTML, a DOCTYPE, a
// damaged gzip stream, over the size limit). An input that cannot be read
// must stop the build: publishing without it would drop its URLs from the
// live set. The walk's other findings are harmless here and ignored:
// redirects that end in a sitemap, a relative Sitemap: line resolved
// against robots.txt, a document listed twice (read once), an index
// listing itself.
//
// Close stops the walk; it must be called when done with the Sitemaps.
type Sitemaps struct {
	name     string
	ctx      context.Context
	maxDepth int
	msgs     chan smMsg
	stopCtx  context.Context
	stop     context.CancelCauseFunc
	unhook   func() bool
	walkDone chan struct{}
	once     sync.Once

	mu      sync.Mutex
	diags   []lint.Diagnostic // fatal findings of the walk not yet delivered
	docErrs map[string]error  // errors visit found, by document name

	// The consumer's state.
	r       *sitemap.Reader
	fr      frameReader
	doc     string
	notices []sitemap.Notice // notices of the document since the last entry
	pending []smItem         // what Read returns next, in order, from next on
	next    int
	line    int
	col     int
	place   string
	end     error // io.EOF, or the error that ended the stream
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
// error that ends the stream.
type smItem struct {
	u     sitemap.URL
	err   error
	doc   string
	line  int
	col   int
	final bool
}

// smMsg is what the walk hands the consumer, in walk order.
type smMsg struct {
	kind smKind
	doc  string
	data []byte // smData: a chunk from smChunkPool, frame byte included
	err  error
}

type smKind uint8

const (
	smStart smKind = iota // a document's bytes follow
	smData                // bytes of the current document
	smFail                // the document could not be read through
	smDone                // the document is over (err: fatal findings)
	smEnd                 // the walk is over (err: fatal findings left)
)

// Frames are what visit emits through lint.Document.Emit, whose queues
// keep documents in walk order whatever order they are fetched in: the
// first byte says what follows.
const (
	frameStart = 'S' // then the document's name
	frameData  = 'D' // then raw bytes of the document, as fetched or read
	frameFail  = 'E' // then the document's name; the error is in docErrs
)

// smChunkLen is how many bytes of a document travel together.
const smChunkLen = 64 << 10

var smChunkPool = sync.Pool{New: func() any { b := make([]byte, 0, smChunkLen+1); return &b }}

func smChunk() []byte { return (*smChunkPool.Get().(*[]byte))[:0] }

func smRecycle(b []byte) {
	if cap(b) == smChunkLen+1 {
		b = b[:0]
		smChunkPool.Put(&b)
	}
}

// OpenSitemaps starts walking starts (paths of files or folders, sitemap
// or robots.txt URLs, site roots) and returns the Sitemaps that reads their
// entries. The walk runs on a goroutine of its own until its entries have
// been read, ctx is done (Read then returns ctx's error), or Close.
func OpenSitemaps(ctx context.Context, starts []string, o SitemapsOptions) *Sitemaps {
	s := &Sitemaps{
		name:     strings.Join(starts, ", "),
		ctx:      ctx,
		maxDepth: o.MaxDepth,
		msgs:     make(chan smMsg, 16),
		walkDone: make(chan struct{}),
		docErrs:  map[string]error{},
	}
	if s.maxDepth <= 0 {
		s.maxDepth = 2 // lint.SiteOptions' default
	}
	s.fr.s = s
	s.stopCtx, s.stop = context.WithCancelCause(context.Background())
	s.unhook = context.AfterFunc(ctx, func() { s.stop(ctx.Err()) })

	opts := o.SiteOptions
	if opts.Concurrency <= 0 {
		opts.Concurrency = 2
	}
	rt := opts.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	opts.Transport = &stopTransport{rt: rt, stop: s.stopCtx}
	site := &lint.Site{SiteOptions: opts, Report: s.report, Output: smOutput{s}, Done: s.done}
	go func() {
		defer close(s.walkDone)
		// The walk's own context is never cancelled: a cancelled walk
		// stops draining the documents it has started, and a visit
		// waiting for room in its queue would wait forever. Stopping
		// instead makes every fetch fail (stopTransport), every visit
		// return and every hand-over give up, so that the walk runs to
		// its end at once.
		_, err := site.Walk(context.WithoutCancel(ctx), starts, s.visit)
		s.send(smMsg{kind: smEnd, err: s.takeDiags("", err)})
	}()
	return s
}

// stopped reports whether Close was called, ctx is done or the stream over.
func (s *Sitemaps) stopped() bool { return s.stopCtx.Err() != nil }

// send hands m to the consumer, unless the stream is stopped.
func (s *Sitemaps) send(m smMsg) {
	select {
	case s.msgs <- m:
	case <-s.stopCtx.Done():
		smRecycle(m.data)
	}
}

// recv returns the next message of the walk, or the reason it stopped.
func (s *Sitemaps) recv() (smMsg, error) {
	if s.stopped() { // before a message that may be ready too
		return smMsg{}, context.Cause(s.stopCtx)
	}
	select {
	case m := <-s.msgs:
		return m, nil
	case <-s.stopCtx.Done():
		return smMsg{}, context.Cause(s.stopCtx)
	}
}

// fatalRules are the walk's findings that mean a document was not read.
var fatalRules = map[string]bool{
	lint.FetchError.Name:       true,
	lint.HTTPError.Name:        true,
	lint.BlockedByRobots.Name:  true,
	lint.CrossHostSitemap.Name: true,
	lint.InvalidURL.Name:       true,
}

// report keeps the walk's fatal findings until their document's turn.
func (s *Sitemaps) report(d lint.Diagnostic) {
	if !fatalRules[d.Rule] || s.stopped() {
		return
	}
	s.mu.Lock()
	s.diags = append(s.diags, d)
	s.mu.Unlock()
}

// takeDiags removes the fatal findings about file ("" for all of them)
// and returns them as one error, or err when there are none.
func (s *Sitemaps) takeDiags(file string, err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first *lint.Diagnostic
	var msgs []string
	kept := s.diags[:0]
	for i := range s.diags {
		d := s.diags[i]
		if file != "" && d.File != file {
			kept = append(kept, d)
			continue
		}
		if first == nil {
			first = &s.diags[i]
		}
		if d.Line > 0 {
			d.Message = "line " + strconv.Itoa(d.Line) + ": " + d.Message
		}
		msgs = append(msgs, d.Message)
	}
	if first == nil {
		return err
	}
	e := &SitemapError{Sitemap: first.File, Rule: first.Rule, Err: errors.New(strings.Join(msgs, "; "))}
	clear(s.diags[len(kept):])
	s.diags = kept
	return e
}

// done runs on the walk's goroutine after each document's output.
func (s *Sitemaps) done(d *lint.Document) {
	err := s.takeDiags(d.Name, nil)
	if err == nil && !d.Read && !s.stopped() {
		err = &SitemapError{Sitemap: d.Name, Rule: lint.FetchError.Name, Err: errors.New("could not be read")}
	}
	s.send(smMsg{kind: smDone, doc: d.Name, err: err})
}

// smOutput is the walk's Output: it turns the frames visit emitted into
// messages, on the walk's goroutine, in walk order.
type smOutput struct{ s *Sitemaps }

func (o smOutput) Write(p []byte) (int, error) {
	s := o.s
	if len(p) == 0 || s.stopped() {
		smRecycle(p)
		return len(p), nil
	}
	switch p[0] {
	case frameStart:
		s.send(smMsg{kind: smStart, doc: string(p[1:])})
	case frameData:
		s.send(smMsg{kind: smData, data: p})
		return len(p), nil
	case frameFail:
		name := string(p[1:])
		s.mu.Lock()
		err := s.docErrs[name]
		delete(s.docErrs, name)
		s.mu.Unlock()
		s.send(smMsg{kind: smFail, doc: name, err: err})
	}
	smRecycle(p)
	return len(p), nil
}

// fail records why d cannot be read, for its turn.
func (s *Sitemaps) fail(d *lint.Document, rule string, err error) {
	s.mu.Lock()
	s.docErrs[d.Name] = &SitemapError{Sitemap: d.Name, Rule: rule, Err: err}
	s.mu.Unlock()
	p := append(smChunk(), frameFail)
	d.Emit(append(p, d.Name...))
}

// visit reads a document in a worker of the walk. An index is read here,
// for its children; any other document is handed on as it is, bytes and
// all, to be read by Read: one parse, on the consumer's side.
func (s *Sitemaps) visit(ctx context.Context, d *lint.Document) ([]string, error) {
	if s.stopped() {
		return nil, nil
	}
	head := &headReader{r: d.Body}
	r := sitemap.NewReader(head)
	r.Name = d.Name
	u, err := r.Read()
	if r.Format() == sitemap.FormatIndex {
		head.release()
		var children []string
		for ; err == nil; u, err = r.Read() {
			children = append(children, u.Loc)
			if len(children)%1024 == 0 && s.stopped() {
				return nil, nil
			}
		}
		switch {
		case err != io.EOF:
			s.fail(d, ruleOf(err), err)
		case len(children) > 0 && d.Depth+1 > s.maxDepth:
			s.fail(d, lint.NestedIndex.Name, errors.New("an index "+strconv.Itoa(d.Depth)+" levels below a start: its "+
				strconv.Itoa(len(children))+" children are not read (MaxDepth "+strconv.Itoa(s.maxDepth)+")"))
		}
		return children, nil
	}
	if err != nil && err != io.EOF {
		head.release()
		s.fail(d, ruleOf(err), err)
		return nil, nil
	}
	d.Emit(append(append(smChunk(), frameStart), d.Name...))
	for _, c := range head.chunks {
		d.Emit(c)
	}
	head.chunks = nil
	for !s.stopped() {
		c := append(smChunk(), frameData)
		n, err := io.ReadFull(d.Body, c[1:smChunkLen+1])
		if n > 0 {
			d.Emit(c[:1+n])
		} else {
			smRecycle(c)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			if !s.stopped() {
				s.fail(d, ruleOf(err), err)
			}
			break
		}
	}
	return nil, nil
}

// ruleOf is the rule a document's read error breaks.
func ruleOf(err error) string {
	if r := sitemap.ErrorRule(err); r != "" {
		return r
	}
	return lint.FetchError.Name
}

// headReader keeps, in data frames, the bytes read through it: the head of
// a document, read to learn its format.
type headReader struct {
	r      io.Reader
	chunks [][]byte
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	for b := p[:n]; len(b) > 0; {
		if len(h.chunks) == 0 || len(h.chunks[len(h.chunks)-1]) == smChunkLen+1 {
			h.chunks = append(h.chunks, append(smChunk(), frameData))
		}
		c := h.chunks[len(h.chunks)-1]
		k := min(len(b), smChunkLen+1-len(c))
		h.chunks[len(h.chunks)-1] = append(c, b[:k]...)
		b = b[k:]
	}
	return n, err
}

func (h *headReader) release() {
	for _, c := range h.chunks {
		smRecycle(c)
	}
	h.chunks = nil
}

// stopTransport makes every request fail once the Sitemaps is stopped,
// body reads under way included.
type stopTransport struct {
	rt   http.RoundTripper
	stop context.Context
}

func (t *stopTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.stop.Err() != nil {
		// Stopped already: AfterFunc would cancel the request only once
		// it is on its way, and a server would see it.
		return nil, context.Cause(t.stop)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	unhook := context.AfterFunc(t.stop, func() { cancel(context.Cause(t.stop)) })
	resp, err := t.rt.RoundTrip(req.WithContext(ctx))
	if err != nil {
		unhook()
		cancel(nil)
		return nil, err
	}
	resp.Body = &stopBody{ReadCloser: resp.Body, release: func() { unhook(); cancel(nil) }}
	return resp, nil
}

type stopBody struct {
	io.ReadCloser
	release func()
}

func (b *stopBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// frameReader is the current document's bytes, taken from the walk's
// messages: io.EOF at the document's end.
type frameReader struct {
	s       *Sitemaps
	chunk   []byte // the chunk cur is in, to recycle
	cur     []byte
	over    bool  // the document's smDone or smFail was received
	doneErr error // the smDone's error, or the smFail's
}

func (f *frameReader) reset() {
	smRecycle(f.chunk)
	*f = frameReader{s: f.s}
}

func (f *frameReader) Read(p []byte) (int, error) {
	for len(f.cur) == 0 {
		if f.over {
			if f.doneErr != nil {
				return 0, f.doneErr
			}
			return 0, io.EOF
		}
		m, err := f.s.recv()
		if err != nil {
			return 0, err
		}
		smRecycle(f.chunk)
		f.chunk, f.cur = nil, nil
		switch m.kind {
		case smData:
			f.chunk, f.cur = m.data, m.data[1:]
		case smDone, smFail:
			f.over, f.doneErr = true, m.err
			if m.kind == smFail {
				return 0, m.err
			}
		default:
			// A document's frames always end with its smDone.
			return 0, errors.New("sitemaps: internal error: document not closed")
		}
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	return n, nil
}

// Read returns the next entry, with the contract of Source.Read.
func (s *Sitemaps) Read() (sitemap.URL, error) {
	if s.end == nil {
		if err := s.ctx.Err(); err != nil {
			s.pending, s.next = s.pending[:0], 0
			s.finish(err)
		}
	}
	for {
		if s.next < len(s.pending) {
			it := s.pending[s.next]
			s.pending[s.next] = smItem{}
			if s.next++; s.next == len(s.pending) {
				s.pending, s.next = s.pending[:0], 0
			}
			s.line, s.col, s.place = it.line, it.col, it.doc
			if it.final {
				s.finish(it.err)
				return sitemap.URL{}, s.end
			}
			return it.u, it.err
		}
		if s.end != nil {
			return sitemap.URL{}, s.end
		}
		if s.r == nil {
			s.nextDoc()
			continue
		}
		u, err := s.r.Read()
		switch {
		case err == nil:
			pos := s.r.Pos()
			s.flushNotices(pos.Offset)
			s.pending = append(s.pending, smItem{u: *u, doc: s.doc, line: pos.Line, col: pos.Col})
		case err == io.EOF:
			s.flushNotices(math.MaxInt64)
			s.r = nil
			if err := s.drainDoc(); err != nil {
				s.pending = append(s.pending, smItem{err: err, doc: s.doc, final: true})
			}
		default:
			s.flushNotices(math.MaxInt64)
			s.r = nil
			var se *sitemap.SyntaxError
			if errors.As(err, &se) {
				err = &SitemapError{Sitemap: s.doc, Rule: sitemap.ErrorRule(err), Err: err}
			}
			line := 0
			if se != nil {
				line = se.Line
			}
			s.pending = append(s.pending, smItem{err: err, doc: s.doc, line: line, final: true})
		}
	}
}

// nextDoc takes the walk's next message between documents.
func (s *Sitemaps) nextDoc() {
	m, err := s.recv()
	if err != nil {
		s.finish(err)
		return
	}
	switch m.kind {
	case smStart:
		s.doc = m.doc
		s.fr.reset()
		s.r = sitemap.NewReader(&s.fr)
		s.r.Name = m.doc
		s.r.OnNotice = s.notice
	case smData:
		smRecycle(m.data)
	case smFail, smDone:
		if m.err != nil {
			s.doc = m.doc
			s.pending = append(s.pending, smItem{err: m.err, doc: m.doc, final: true})
		}
	case smEnd:
		if m.err != nil {
			s.pending = append(s.pending, smItem{err: m.err, final: true})
		} else {
			s.finish(io.EOF)
		}
	}
}

// drainDoc skips what is left of the current document after its reader's
// end, and returns the error its end carries.
func (s *Sitemaps) drainDoc() error {
	var buf [512]byte
	for {
		_, err := s.fr.Read(buf[:])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// notice keeps the reader's notices that mean an entry was skipped.
func (s *Sitemaps) notice(n sitemap.Notice) {
	if n.Rule == sitemap.RuleMissingTag || n.Rule == sitemap.RuleInvalidURL {
		s.notices = append(s.notices, n)
	}
}

// flushNotices turns the notices before offset off (the start of the
// entry just read) into ParseErrors: an entry-level notice there is an
// entry the reader skipped. The notices from off on are about the entry
// itself (an image without image:loc), which was read; they are dropped.
func (s *Sitemaps) flushNotices(off int64) {
	for _, n := range s.notices {
		if n.Pos.Offset >= off {
			break
		}
		var err error = errors.New(n.Msg)
		if n.Rule == sitemap.RuleMissingTag {
			err = &noticeError{msg: n.Msg, err: ErrMissingLoc}
		}
		s.pending = append(s.pending, smItem{
			err:  &ParseError{File: s.doc, Line: n.Pos.Line, Column: n.Pos.Col, Err: err},
			doc:  s.doc,
			line: n.Pos.Line,
			col:  n.Pos.Col,
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

// Close stops the walk and waits for its goroutine to end: every fetch
// under way is cancelled. A later Read returns io.ErrClosedPipe, unless the
// stream had ended before.
func (s *Sitemaps) Close() error {
	s.once.Do(func() {
		s.stop(io.ErrClosedPipe)
		s.unhook()
		<-s.walkDone
		// Drop what the walk handed over but no one will read.
		for {
			select {
			case m := <-s.msgs:
				smRecycle(m.data)
				continue
			default:
			}
			break
		}
		s.fr.reset()
		s.r = nil
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
