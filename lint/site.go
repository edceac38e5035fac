package lint

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/sitemapkit/sitemapkit/internal/fetch"
	"github.com/sitemapkit/sitemapkit/internal/robots"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// SiteOptions configure a Site. The zero value is usable: every field's
// default is given in its comment.
type SiteOptions struct {
	// Base is the public URL of local starts, for the scope rules: a file
	// given as a start is at Base + its base name, a file found in a folder
	// at Base + its path relative to the folder. "" leaves local files'
	// public URLs unknown (the scope rules are then skipped for them,
	// except for children named by an index, whose <loc> is their URL).
	Base string
	// Offline forbids the network: URLs given as starts, and index
	// children that are not beside their local index, are reported as
	// not fetched.
	Offline bool
	// Timeout bounds each fetch, body included. Default: 30s.
	Timeout time.Duration
	// UserAgent is sent with every request and is the agent robots.txt
	// rules are matched against. Default: fetch.UserAgent("dev").
	UserAgent string
	// MaxDepth is how many levels of index are followed below a start or
	// a robots.txt Sitemap: line. Default (0): 2, so that an index listed
	// by an index (a nested index, itself an error) is still read one
	// level down; deeper indexes are reported and not followed.
	MaxDepth int
	// Concurrency is how many documents are fetched and read at once.
	// Default: 4.
	Concurrency int
	// MaxBytes caps a fetched body after HTTP content decoding. Default:
	// fetch.DefaultMaxBytes (just over sitemap.MaxBytes).
	MaxBytes int64
	// Transport makes the HTTP requests. Default: http.DefaultTransport.
	Transport http.RoundTripper
}

// A Document is one sitemap (or index, or feed) the site driver found.
type Document struct {
	// Name names the document in diagnostics: the local path, or the URL
	// fetched.
	Name string
	// URL is the document's public URL for the scope rules: the <loc> or
	// Sitemap: line that named it, the URL fetched, or Base + path for a
	// local file. A sitemap on another host submitted through a site's
	// robots.txt gets that site's root directory, since its URLs must be
	// the site's. "" when unknown.
	URL string
	// Parent names the index or robots.txt that listed the document; ""
	// for a start.
	Parent string
	// Depth is 0 for a start or a robots.txt Sitemap: line, and one more
	// for each index above the document.
	Depth int
	// Local reports that the document was read from a file.
	Local bool
	// Body is the document's content: a file, or an HTTP body with its
	// Content-Encoding undone (a sitemap's own gzip is left to the
	// reader). It is set while the visit function runs.
	Body io.Reader
	// Read reports that the document could be opened and was visited.
	Read bool

	out       *chunkQueue
	crossFrom *url.URL // the index's public URL, for a child on another host
	note      string   // why the document was tried, for reports
}

// Emit hands p to the Site's Output, where it appears after the output of
// every document before this one in the walk's order (a start, its
// robots.txt sitemaps, an index's children in index order), however the
// documents were scheduled. p must not be modified afterwards.
func (d *Document) Emit(p []byte) {
	if d.out != nil && len(p) > 0 {
		d.out.push(p)
	}
}

// A VisitFunc reads one document and returns the <loc>s of its children
// when it is an index (nil otherwise). It is called from several
// goroutines at once. An error other than a context error is reported as
// a fetch-error on the document.
type VisitFunc func(ctx context.Context, d *Document) (children []string, err error)

// A Site finds the sitemaps of a site, or of local files and folders, and
// visits each: robots.txt Sitemap: lines, index children, local indexes'
// children beside them. It guards against loops (a sitemap listing
// itself, robots.txt listing itself, redirect cycles), limits depth and
// concurrency, honours robots.txt for its User-Agent, and reports what
// happens over HTTP: errors, redirects, blocked and cross-host sitemaps.
type Site struct {
	SiteOptions
	// Report receives the driver's findings (HTTP errors, redirects,
	// robots.txt problems…), one at a time. Nil discards them.
	Report func(Diagnostic)
	// Output receives what visits Emit, in walk order. Nil discards it.
	Output io.Writer
	// Done, if set, is called for every document, read or not, in walk
	// order, after its output has gone to Output.
	Done func(d *Document)

	client   *fetch.Client
	ua       string // UserAgent or its default
	maxDepth int    // MaxDepth or its default
	sem      chan struct{}
	mu       sync.Mutex
	reportMu sync.Mutex
	seen     map[string]bool // documents visited: absolute paths and URLs
	robots   map[string]*robotsEntry
}

type robotsEntry struct {
	once sync.Once
	r    *robots.Robots
	why  string // why everything is disallowed, when it is
}

// Walk visits every document reachable from starts (local paths, site
// roots, robots.txt URLs, sitemap URLs) with visit, and returns the
// documents in walk order. It returns an error only when ctx is done.
func (s *Site) Walk(ctx context.Context, starts []string, visit VisitFunc) ([]*Document, error) {
	s.init()
	var items []*item
	for _, st := range starts {
		items = append(items, s.startItems(st)...)
	}
	var docs []*Document
	err := s.walkList(ctx, items, visit, &docs)
	return docs, err
}

func (s *Site) init() {
	conc := s.Concurrency
	if conc <= 0 {
		conc = 4
	}
	s.sem = make(chan struct{}, conc)
	s.seen = map[string]bool{}
	s.robots = map[string]*robotsEntry{}
	ua := s.UserAgent
	if ua == "" {
		ua = fetch.UserAgent("")
	}
	s.ua = ua
	s.maxDepth = s.MaxDepth
	if s.maxDepth <= 0 {
		s.maxDepth = 2
	}
	s.client = &fetch.Client{UserAgent: ua, Timeout: s.Timeout, MaxBytes: s.MaxBytes, Transport: s.Transport}
}

func (s *Site) report(rule *Rule, file string, line int, format string, args ...any) {
	if s.Report == nil {
		return
	}
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	s.Report(Diagnostic{File: file, Line: line, Rule: rule.Name, Severity: rule.Severity, Message: fmt.Sprintf(format, args...)})
}

// An item is a node of the walk: a document, a robots.txt, or a folder.
type item struct {
	kind     itemKind
	doc      *Document
	path     string // robots.txt URL, or folder path
	children []*item
	done     chan struct{}
}

type itemKind int

const (
	kindDoc itemKind = iota
	kindRobots
)

func newDoc(d *Document) *item {
	d.out = newChunkQueue()
	return &item{kind: kindDoc, doc: d, done: make(chan struct{})}
}

// startItems classifies one start.
func (s *Site) startItems(start string) []*item {
	if u, err := url.Parse(start); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		if u.Path == "" || u.Path == "/" {
			u.Path, u.RawQuery, u.Fragment = "/robots.txt", "", ""
			return []*item{{kind: kindRobots, path: u.String(), done: make(chan struct{})}}
		}
		if u.Path == "/robots.txt" {
			return []*item{{kind: kindRobots, path: u.String(), done: make(chan struct{})}}
		}
		return []*item{newDoc(&Document{Name: start, URL: start})}
	}
	fi, err := os.Stat(start)
	if err != nil {
		d := &Document{Name: start, Local: true}
		s.report(FetchError, start, 0, "cannot read: %v", unwrapPathErr(err))
		return []*item{{kind: kindDoc, doc: d, done: closedChan()}}
	}
	if !fi.IsDir() {
		return []*item{newDoc(&Document{Name: start, URL: s.publicURL(filepath.Base(start)), Local: true})}
	}
	return s.folderItems(start)
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (s *Site) publicURL(rel string) string {
	if s.Base == "" {
		return ""
	}
	b, err := url.Parse(s.Base)
	if err != nil {
		return ""
	}
	if !strings.HasSuffix(b.Path, "/") {
		b.Path += "/"
	}
	r, err := url.Parse(escapePath(filepath.ToSlash(rel)))
	if err != nil {
		return ""
	}
	return b.ResolveReference(r).String()
}

func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

// folderItems lists the sitemaps in a folder (recursively, hidden folders
// skipped), detected by content: indexes first, then the files that no
// index there lists (those are read as the index's children).
func (s *Site) folderItems(dir string) []*item {
	var indexes, others []string
	filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if de.IsDir() {
			if p != dir && strings.HasPrefix(de.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !de.Type().IsRegular() {
			return nil
		}
		switch sniffFile(p) {
		case sitemap.FormatIndex:
			indexes = append(indexes, p)
		case sitemap.FormatUnknown:
		default:
			others = append(others, p)
		}
		return nil
	})
	listed := map[string]bool{}
	for _, ix := range indexes {
		for _, c := range indexChildren(ix) {
			if p, ok := besideFile(ix, c); ok {
				listed[p] = true
			}
		}
	}
	var items []*item
	add := func(p string) {
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			rel = filepath.Base(p)
		}
		items = append(items, newDoc(&Document{Name: p, URL: s.publicURL(rel), Local: true}))
	}
	for _, p := range indexes {
		if !listed[p] { // a nested index is read as its parent's child
			add(p)
		}
	}
	for _, p := range others {
		if !listed[p] {
			add(p)
		}
	}
	if len(items) == 0 {
		s.report(FetchError, dir, 0, "no sitemap files in this folder")
	}
	return items
}

// indexChildren returns the <loc>s of a local index, for the folder scan.
func indexChildren(p string) []string {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	r := sitemap.NewReader(f)
	var locs []string
	for {
		u, err := r.Read()
		if err != nil {
			return locs
		}
		locs = append(locs, u.Loc)
	}
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

// sniffFile tells a sitemap file from other files by its first bytes.
func sniffFile(p string) sitemap.Format {
	f, err := os.Open(p)
	if err != nil {
		return sitemap.FormatUnknown
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 4096)
	if b, _ := r.(*bufio.Reader).Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return sitemap.FormatUnknown
		}
		r = zr
	}
	head := make([]byte, 4096)
	n, _ := io.ReadFull(r, head)
	return sniff(head[:n])
}

// sniff recognises a sitemap format from a document's beginning.
func sniff(b []byte) sitemap.Format {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return sitemap.FormatUnknown
	}
	if b[0] != '<' {
		line, _, _ := bytes.Cut(b, []byte("\n"))
		line = bytes.ToLower(bytes.TrimSpace(line))
		if bytes.HasPrefix(line, []byte("http://")) || bytes.HasPrefix(line, []byte("https://")) {
			return sitemap.FormatText
		}
		return sitemap.FormatUnknown
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '<')
		if i < 0 || i+1 >= len(b) {
			return sitemap.FormatUnknown
		}
		b = b[i+1:]
		switch b[0] {
		case '?', '!':
			continue // declaration, comment, DOCTYPE
		}
		end := bytes.IndexAny(b, " \t\r\n/>")
		if end < 0 {
			return sitemap.FormatUnknown
		}
		name := string(b[:end])
		if _, local, ok := strings.Cut(name, ":"); ok {
			name = local
		}
		switch name {
		case "urlset":
			return sitemap.FormatURLSet
		case "sitemapindex":
			return sitemap.FormatIndex
		case "rss", "RDF":
			return sitemap.FormatRSS
		case "feed":
			return sitemap.FormatAtom
		}
		return sitemap.FormatUnknown
	}
	return sitemap.FormatUnknown
}

// walkList runs items with a window of Concurrency items ahead of the one
// whose output is being written, and recurses into each item's children
// in order.
func (s *Site) walkList(ctx context.Context, items []*item, visit VisitFunc, docs *[]*Document) (err error) {
	defer func() {
		if err != nil {
			// Nobody will drain these documents' output: a worker blocked
			// on a full queue must not wait for it forever.
			for _, it := range items {
				if it.kind == kindDoc {
					it.doc.out.close()
				}
			}
		}
	}()
	window := cap(s.sem)
	drained := make([]chan struct{}, len(items))
	for i := range drained {
		drained[i] = make(chan struct{})
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i, it := range items {
			if i >= window {
				select {
				case <-drained[i-window]:
				case <-stop:
					return
				}
			}
			select {
			case <-it.done:
				continue // nothing to run: reported already
			default:
			}
			select {
			case s.sem <- struct{}{}:
			case <-stop:
				return
			}
			go func() {
				defer func() { <-s.sem; close(it.done) }()
				s.run(ctx, it, visit)
			}()
		}
	}()
	for i, it := range items {
		if err := s.drain(ctx, it); err != nil {
			return err
		}
		close(drained[i])
		if it.kind == kindDoc {
			*docs = append(*docs, it.doc)
			if s.Done != nil {
				s.Done(it.doc)
			}
		}
		if err := s.walkList(ctx, s.childItems(it), visit, docs); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// drain copies an item's output to Output until the item is done.
func (s *Site) drain(ctx context.Context, it *item) error {
	if it.kind == kindDoc && it.doc.out != nil {
		for {
			chunks, closed := it.doc.out.wait()
			s.write(chunks)
			if closed {
				break
			}
		}
	}
	select {
	case <-it.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Site) write(chunks [][]byte) {
	if s.Output == nil {
		return
	}
	for _, c := range chunks {
		s.Output.Write(c)
	}
}

// run does one item's work in a worker.
func (s *Site) run(ctx context.Context, it *item, visit VisitFunc) {
	switch it.kind {
	case kindRobots:
		s.runRobots(ctx, it)
	case kindDoc:
		it.doc.out.sem = s.sem
		defer it.doc.out.close()
		s.runDoc(ctx, it, visit)
	}
}

// runRobots fetches a robots.txt given as a start and turns its Sitemap:
// lines into documents.
func (s *Site) runRobots(ctx context.Context, it *item) {
	ru, _ := url.Parse(it.path)
	if s.Offline {
		s.report(FetchError, it.path, 0, "not fetched: --offline")
		return
	}
	s.markSeen(it.path)
	e := s.robotsFor(ctx, ru)
	if e.why != "" {
		s.report(FetchError, it.path, 0, "%s", e.why)
		return
	}
	site := ru.Scheme + "://" + ru.Host + "/"
	var kids []*item
	for _, sm := range e.r.Sitemaps {
		switch {
		case sm.URL == "":
			s.report(InvalidURL, it.path, sm.Line, "Sitemap: %q skipped: %s", sm.Value, sm.Problem)
			continue
		case sm.Problem != "":
			s.report(RelativeURL, it.path, sm.Line, "Sitemap: %q is %s", sm.Value, sm.Problem)
		}
		d := &Document{Name: sm.URL, URL: sm.URL, Parent: it.path}
		if cu, err := url.Parse(sm.URL); err == nil && cu.Host != ru.Host {
			// Cross-submission: the robots.txt of the site vouches for a
			// sitemap hosted elsewhere; its URLs must be the site's.
			d.URL = site + path.Base(cu.Path)
		}
		kids = append(kids, newDoc(d))
	}
	if len(kids) == 0 {
		// No Sitemap: lines: try the conventional location, as crawlers do.
		u := site + "sitemap.xml"
		kids = append(kids, newDoc(&Document{Name: u, URL: u, Parent: it.path,
			note: " (tried because " + it.path + " has no Sitemap: lines)"}))
	}
	it.children = kids
}

// robotsFor fetches (once) the robots.txt of u's scheme and host.
func (s *Site) robotsFor(ctx context.Context, u *url.URL) *robotsEntry {
	key := u.Scheme + "://" + u.Host
	s.mu.Lock()
	e := s.robots[key]
	if e == nil {
		e = &robotsEntry{}
		s.robots[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() {
		ru := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/robots.txt"}
		resp, err := s.client.Get(ctx, ru.String())
		if err != nil {
			// RFC 9309 §2.3.1.4: unreachable means complete disallow.
			e.r, e.why = robots.DisallowAll(), fmt.Sprintf("robots.txt unreachable (%v): crawlers assume everything is disallowed", err)
			return
		}
		defer resp.Body.Close()
		switch {
		case resp.StatusCode >= 500:
			e.r, e.why = robots.DisallowAll(), fmt.Sprintf("robots.txt answered %s: crawlers assume everything is disallowed", resp.Status)
		case resp.StatusCode >= 400:
			e.r = robots.AllowAll() // "unavailable": everything allowed
		case resp.StatusCode >= 300:
			e.r = robots.AllowAll()
		default:
			data, err := io.ReadAll(io.LimitReader(resp.Body, robots.MaxBytes+1))
			if err != nil && len(data) == 0 {
				e.r, e.why = robots.DisallowAll(), fmt.Sprintf("robots.txt could not be read (%v): crawlers assume everything is disallowed", err)
				return
			}
			final, _ := url.Parse(resp.URL)
			e.r = robots.Parse(data, final)
		}
	})
	return e
}

func (s *Site) markSeen(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[key] {
		return false
	}
	s.seen[key] = true
	return true
}

// runDoc opens and visits one document.
func (s *Site) runDoc(ctx context.Context, it *item, visit VisitFunc) {
	d := it.doc
	if d.crossFrom != nil {
		scope, ok := s.crossHostOK(ctx, d)
		if !ok {
			s.report(CrossHostSitemap, d.Name, 0, "listed by %s on another host, and neither host's robots.txt has a Sitemap: line naming it; not read", d.Parent)
			return
		}
		d.URL = scope
	}
	body, err := s.open(ctx, d)
	if err != nil || body == nil {
		return
	}
	defer body.Close()
	d.Body = body
	d.Read = true
	children, err := visit(ctx, d)
	d.Body = nil
	if err != nil && ctx.Err() == nil {
		s.report(FetchError, d.Name, 0, "%v", err)
	}
	for _, c := range children {
		it.children = append(it.children, newDoc(&Document{Name: c, URL: c, Parent: d.Name, Depth: d.Depth + 1}))
	}
}

// open returns a document's body, or nil after reporting why there is
// none.
func (s *Site) open(ctx context.Context, d *Document) (io.ReadCloser, error) {
	if d.Local {
		f, err := os.Open(d.Name)
		if err != nil {
			s.report(FetchError, d.Name, 0, "cannot read: %v", unwrapPathErr(err))
			return nil, err
		}
		return f, nil
	}
	if s.Offline {
		s.report(FetchError, d.Name, 0, "not fetched: --offline")
		return nil, nil
	}
	u, err := url.Parse(d.Name)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		s.report(InvalidURL, d.Name, 0, "not an absolute http(s) URL; not fetched")
		return nil, nil
	}
	e := s.robotsFor(ctx, u)
	if !e.r.Allowed(s.ua, d.Name) {
		why := "disallowed for " + productName(s.ua) + " by " + u.Scheme + "://" + u.Host + "/robots.txt"
		if e.why != "" {
			why = e.why
		}
		s.report(BlockedByRobots, d.Name, 0, "%s; not fetched", why)
		return nil, nil
	}
	resp, err := s.client.Get(ctx, d.Name)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		var fe *fetch.Error
		if errors.As(err, &fe) && errors.Is(err, fetch.ErrRedirectLoop) {
			chain := []string{d.Name}
			for _, h := range fe.Redirects {
				chain = append(chain, h.To)
			}
			s.report(FetchError, d.Name, 0, "redirect loop: %s", strings.Join(chain, " → "))
			return nil, nil
		}
		if errors.As(err, &fe) {
			err = fe.Err
		}
		s.report(FetchError, d.Name, 0, "%v%s", err, d.note)
		return nil, nil
	}
	for _, h := range resp.Redirects {
		s.report(Redirect, d.Name, 0, "%d redirect from %s to %s", h.StatusCode, h.From, h.To)
	}
	if len(resp.Redirects) > 0 {
		// The final URL must not be read twice when another line names it.
		s.markSeen(resp.URL)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		s.report(HTTPError, d.Name, 0, "HTTP %s%s", resp.Status, d.note)
		return nil, nil
	}
	return resp.Body, nil
}

func productName(ua string) string {
	name, _, _ := strings.Cut(ua, "/")
	return name
}

// childItems turns the children found by an item's run into items, on
// the walk's goroutine so that the loop guard is deterministic: local
// index children beside the index, depth limit, already-seen documents,
// cross-host children.
func (s *Site) childItems(it *item) []*item {
	if it.kind == kindRobots {
		var out []*item
		for _, c := range it.children {
			if !s.markSeen(c.doc.Name) {
				s.report(UnsupportedFormat, it.path, 0, "robots.txt lists %s, which was read already (robots.txt listing itself, or a loop); not read again", c.doc.Name)
				continue
			}
			out = append(out, c)
		}
		return out
	}
	d := it.doc
	if d.Name != "" && !d.Local {
		s.markSeen(d.Name)
	} else if d.Local {
		if abs, err := filepath.Abs(d.Name); err == nil {
			s.markSeen(abs)
		}
	}
	if len(it.children) == 0 {
		return nil
	}
	if d.Depth+1 > s.maxDepth {
		s.report(NestedIndex, d.Name, 0, "index %d levels below the start; its %d children are not read", d.Depth, len(it.children))
		return nil
	}
	parentURL, _ := url.Parse(d.Name)
	if d.Local {
		parentURL = nil
	}
	var out []*item
	offline, firstOffline := 0, ""
	for _, c := range it.children {
		cd := c.doc
		loc := strings.TrimSpace(cd.Name)
		cd.Name, cd.URL = loc, ""
		if u, err := url.Parse(loc); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			cd.URL = loc
		}
		if d.Local {
			if p, ok := besideFile(d.Name, loc); ok {
				cd.Name, cd.Local = p, true
			} else if s.Offline {
				// One finding for all of them: an index of 50,000 remote
				// children read offline must not give 50,000 lines.
				if offline++; offline == 1 {
					firstOffline = loc
					if len(loc) > 100 {
						firstOffline = loc[:100] + "…"
					}
				}
				continue
			}
		} else if parentURL != nil {
			if cu, err := url.Parse(loc); err == nil && !cu.IsAbs() {
				// A relative child is an error (lint reports it); a crawler
				// would not follow it.
				continue
			}
		}
		key := cd.Name
		if cd.Local {
			key, _ = filepath.Abs(cd.Name)
		}
		if !s.markSeen(key) {
			if key == d.Name || (d.Local && key == mustAbs(d.Name)) {
				s.report(NestedIndex, d.Name, 0, "the index lists itself; not read again")
			}
			continue
		}
		// Children on another host need their robots.txt's word, even
		// when a copy lies beside a local index; offline, lint reports
		// them instead (Checker.CrossSubmission is off).
		if d.URL != "" && cd.URL != "" && !s.Offline {
			if pu, err := url.Parse(d.URL); err == nil && pu.Host != "" {
				cd.crossFrom = pu
			}
		}
		out = append(out, c)
	}
	if offline > 0 {
		s.report(FetchError, d.Name, 0, "%d of its %d children are not in its folder and were not fetched (--offline), e.g. %s", offline, len(it.children), firstOffline)
	}
	return out
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// crossHostOK decides whether a child on another host than its index
// may be read: when the robots.txt of the child's host or of the index's
// host names it (cross-submission). It then returns the scope URL for the
// child's entries: the index's site, whose URLs they must be.
func (s *Site) crossHostOK(ctx context.Context, d *Document) (scope string, ok bool) {
	cu, err := url.Parse(d.URL)
	pu := d.crossFrom
	if err != nil || strings.EqualFold(pu.Host, cu.Host) && pu.Scheme == cu.Scheme {
		return d.URL, true
	}
	for _, host := range []*url.URL{cu, pu} {
		e := s.robotsFor(ctx, host)
		for _, sm := range e.r.Sitemaps {
			if sm.URL == d.URL {
				return pu.Scheme + "://" + pu.Host + "/" + path.Base(cu.Path), true
			}
		}
	}
	return "", false
}

// chunkQueue is the ordered output of one document: the worker pushes,
// the walk drains. Past queueLimit bytes waiting, the worker waits for the
// walk, and gives its concurrency slot to another document meanwhile, so
// that memory stays bounded (window × queueLimit) without a document that
// waits for the walk ever keeping the walk's current one from running.
type chunkQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	chunks [][]byte
	size   int
	closed bool
	sem    chan struct{} // the Site's slots; the worker holds one
}

// queueLimit is how much output one document may run ahead of the walk.
// With a window of several documents each getting this far ahead, a
// second core stays busy while the walk writes the current one.
const queueLimit = 4 << 20

func newChunkQueue() *chunkQueue {
	q := &chunkQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *chunkQueue) push(p []byte) {
	q.mu.Lock()
	for q.size >= queueLimit && !q.closed && q.sem != nil {
		<-q.sem // let another document run while this one waits
		q.cond.Wait()
		q.mu.Unlock()
		q.sem <- struct{}{}
		q.mu.Lock()
	}
	if q.closed {
		// The walk was abandoned (its ctx is done): nobody reads this.
		q.mu.Unlock()
		return
	}
	q.chunks = append(q.chunks, p)
	q.size += len(p)
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *chunkQueue) close() {
	if q == nil {
		return
	}
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// wait returns the chunks pushed so far (waiting for at least one, or for
// the close) and whether the queue is closed.
func (q *chunkQueue) wait() ([][]byte, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.chunks) == 0 && !q.closed {
		q.cond.Wait()
	}
	c := q.chunks
	q.chunks, q.size = nil, 0
	closed := q.closed
	q.cond.Broadcast() // a worker may wait for room
	return c, closed
}

// A FileResult is what checking one document of a site found.
type FileResult struct {
	Name       string `json:"name"`       // as in diagnostics: a path or the URL fetched
	URL        string `json:"url"`        // public URL used for the scope rules; "" when unknown
	Parent     string `json:"parent"`     // the index or robots.txt that listed it
	Read       bool   `json:"read"`       // false when it could not be fetched or opened
	Format     string `json:"format"`     // "urlset", "sitemapindex", "text", "rss", "atom" or "unknown"
	URLs       int    `json:"urls"`       // entries: <url>s, or <sitemap>s for an index
	Bytes      int64  `json:"bytes"`      // uncompressed size read
	Compressed string `json:"compressed"` // "gzip"… or ""
	Errors     int    `json:"errors"`
	Warnings   int    `json:"warnings"`
	Infos      int    `json:"infos"`
}

// CheckSite checks every document reachable from starts (see Site) with
// c, then calls c.Finish for the set-wide rules. Diagnostics go to
// c.Report; the driver's own findings (HTTP errors, redirects, blocked
// and cross-host sitemaps, robots.txt lines) too, through c.Reportf. The
// results are in walk order. opts.MaxBytes caps HTTP bodies after their
// Content-Encoding is undone; a gzipped sitemap's own decompression is
// capped by c.MaxBytes. It returns an error only when ctx is done.
func CheckSite(ctx context.Context, starts []string, opts SiteOptions, c *Checker) ([]FileResult, error) {
	s := &Site{SiteOptions: opts}
	// Online, the walk checks an index's children on other hosts against
	// their robots.txt (cross-submission), so the checker leaves them be.
	c.CrossSubmission = !opts.Offline
	s.Report = func(d Diagnostic) {
		if r := Lookup(d.Rule); r != nil {
			c.Reportf(r, d.File, d.Line, d.Col, "%s", d.Message)
		}
	}
	var mu sync.Mutex
	results := map[*Document]*DocResult{}
	docs, err := s.Walk(ctx, starts, func(ctx context.Context, d *Document) ([]string, error) {
		res, err := c.CheckDocument(ctx, d.Name, d.URL, d.Body)
		if res != nil {
			mu.Lock()
			results[d] = res
			mu.Unlock()
		}
		if err != nil {
			return nil, err
		}
		return res.Children, nil
	})
	if err != nil {
		return nil, err
	}
	c.Finish()
	out := make([]FileResult, 0, len(docs))
	for _, d := range docs {
		fr := FileResult{Name: d.Name, URL: d.URL, Parent: d.Parent, Read: d.Read, Format: sitemap.FormatUnknown.String()}
		if r := results[d]; r != nil {
			fr.Format = r.Format.String()
			fr.URLs, fr.Bytes, fr.Compressed = r.Entries, r.Bytes, r.Compressed
			fr.Errors, fr.Warnings, fr.Infos = r.Errors, r.Warnings, r.Infos
		}
		out = append(out, fr)
	}
	return out, nil
}
