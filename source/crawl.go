package source

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"maps"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html/charset"
	"golang.org/x/net/idna"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/fingerprint"
	"github.com/sitemapkit/sitemapkit/internal/fetch"
	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// CrawlOptions configure OpenCrawl. The zero value of each field is its
// default (see CrawlOptions.WithDefaults).
type CrawlOptions struct {
	// Starts are the URLs the crawl begins at (required), taken as links
	// are: without their fragment and session IDs. Each gives the
	// crawl a scope: its scheme, host and directory, the sitemap scope
	// rule (https://www.example.com/blog/ is crawled under /blog/ only).
	Starts []string
	// Hosts are more hosts whose pages are in scope, whole.
	Hosts []string
	// Fetch are the fetch settings: User-Agent (matched against
	// robots.txt groups), Timeout, MaxBytes (a page's cap, after its
	// Content-Encoding is undone) and Transport. robots.txt is honoured
	// with discover's policy (an unreachable one disallows everything).
	Fetch discover.Options
	// Concurrency is how many pages are fetched at once from one host
	// (a start's or one of Hosts); the crawl fetches as many from each.
	// Default DefaultCrawlConcurrency.
	Concurrency int
	// Rate is the most requests a second to one host. Default
	// DefaultCrawlRate; negative: no limit.
	Rate float64
	// MaxPages is the most pages fetched (every answer counts). Default
	// DefaultCrawlMaxPages.
	MaxPages int
	// MaxDepth is how many links from a start a page may be. Default
	// DefaultCrawlMaxDepth.
	MaxDepth int
	// Budget bounds the whole crawl's time. Default DefaultCrawlBudget;
	// negative: no limit.
	Budget time.Duration
	// Files are patterns (as the Filter's: "/docs/**", "**/*.pdf",
	// "re:…") of the paths of files other than HTML pages to list when
	// they answer 200, such as PDFs. Default: HTML pages only.
	Files []string
	// SkipNofollow leaves out the links marked rel="nofollow".
	SkipNofollow bool
	// Render, when set, renders the pages that look written by their
	// scripts (scripts, and no link), and reads what they leave: links,
	// canonical, robots meta, alternates, images. Nil: such pages are
	// counted (CrawlStats.ClientRendered), not rendered.
	Render Renderer
	// Fingerprint, when set, fingerprints each page's significant content
	// (see package fingerprint), which Fingerprint returns for the page
	// Read last returned: what --lastmod content compares.
	Fingerprint *fingerprint.Hasher
	// Dir is the folder the crawl keeps what does not fit in memory in
	// (the frontier past 10,000 URLs, the pages listed) and, when it is
	// stopped (its context done, its Budget spent), what Resume needs;
	// created if missing. Default: a temporary folder, removed at Close:
	// such a crawl cannot be resumed.
	Dir string
	// Resume carries on the crawl stopped in Dir: the pages it listed are
	// listed again, then the URLs it had queued are visited, none met
	// before visited twice. The starts must be the stopped crawl's.
	Resume bool
	// Checkpoint is how often a running crawl records in Dir where it is,
	// so that one killed (SIGKILL, a crash, the machine gone) resumes from
	// there, the pages fetched since visited again. Default a minute;
	// negative: only when stopped.
	Checkpoint time.Duration
	// Log, when set, is told of every URL met, once it is decided
	// (CrawlEntry). It is called from the crawl's goroutines, one at a
	// time.
	Log func(CrawlEntry)
}

// A Renderer renders a page as a browser does, running its scripts, and
// returns the document they leave and, when they navigate away, the URL
// they go to (package render's Chromium). It asks allow of every request
// the page makes (its scripts, their fetches; document is true for a
// navigation of the page) and makes only those allowed: allow checks the
// request against robots.txt, a navigation against the crawl's scope,
// and waits for the host's rate.
type Renderer interface {
	Render(ctx context.Context, url string, allow func(ctx context.Context, url string, document bool) bool) (doc []byte, moved string, err error)
}

// Defaults of CrawlOptions.
const (
	DefaultCrawlConcurrency = 8
	DefaultCrawlRate        = 5
	DefaultCrawlMaxPages    = 100_000
	DefaultCrawlMaxDepth    = 100
	DefaultCrawlBudget      = time.Hour
	// DefaultCrawlMaxBytes caps a page at 15 MiB: Google's crawler reads
	// the first 15 MB of a page, and a sitemap lists nothing past them.
	DefaultCrawlMaxBytes = 15 << 20
)

// Trap caps: what a site that generates pages without end (a calendar, a
// query that grows with each click) cannot make the crawl exceed.
const (
	// MaxCrawlQueryParams is the most query parameters a URL followed
	// may have.
	MaxCrawlQueryParams = 8
	// MaxCrawlSegmentRepeats is how often one path segment may repeat
	// (/a/b/a/b/a/b/… is a relative link gone wrong).
	MaxCrawlSegmentRepeats = 3
	// MaxCrawlPerPattern is how many URLs of one shape may follow each
	// other, each found on the one before (a calendar's next month, a
	// listing's next page): the shape is the host and path with every
	// run of digits taken as one digit, the query aside
	// (/calendar/2024/05?view=day is /calendar/0/0). URLs of a shape
	// found on pages of another (a catalogue's products) are not counted.
	MaxCrawlPerPattern = 1000
	// MaxCrawlHops is how many redirects and canonicals in a row the
	// crawl follows (a chain of redirects to ever new URLs, a canonical
	// that names the next page's).
	MaxCrawlHops = 10
	// MaxCrawlLinks is how many links of one page are followed: past
	// it a page is a list without end, and its links would hold memory
	// the crawl must keep flat.
	MaxCrawlLinks = 5000
)

// WithDefaults returns o with each zero field set to its default.
func (o CrawlOptions) WithDefaults() CrawlOptions {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultCrawlConcurrency
	}
	if o.Rate == 0 {
		o.Rate = DefaultCrawlRate
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultCrawlMaxPages
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultCrawlMaxDepth
	}
	if o.Budget == 0 {
		o.Budget = DefaultCrawlBudget
	}
	if o.Checkpoint == 0 {
		o.Checkpoint = time.Minute
	}
	if o.Fetch.MaxBytes <= 0 {
		o.Fetch.MaxBytes = DefaultCrawlMaxBytes
	}
	o.Fetch = o.Fetch.WithDefaults()
	return o
}

// A CrawlEntry is what became of one URL the crawl met: listed (Reason
// ""), or left out, and why.
type CrawlEntry struct {
	URL    string        `json:"url"`
	Status int           `json:"status,omitempty"` // the HTTP status; 0 when not fetched
	Depth  int           `json:"depth"`
	From   string        `json:"from,omitempty"` // the page that linked to it; "" for a start
	Time   time.Duration `json:"time_ns,omitempty"`
	// Reason is why the URL is not listed: "robots" (disallowed), "noindex",
	// "canonical-elsewhere", "redirect", "not-html", "trap", "error"
	// (a status other than 200, a failed fetch), "out-of-scope", "limit"
	// (MaxPages, MaxDepth or Budget reached); "" for a URL listed.
	Reason string `json:"reason,omitempty"`
	// Target is where a redirect or a canonical points.
	Target string `json:"target,omitempty"`
	// Detail says more: the error, the trap.
	Detail string `json:"detail,omitempty"`
}

// CrawlStats counts what a crawl did.
type CrawlStats struct {
	Fetched int            // requests answered
	Listed  int            // URLs returned
	Reasons map[string]int // URLs left out, by CrawlEntry.Reason
	// Examples are the first URL left out for each reason, as logged.
	Examples map[string]CrawlEntry
	// Queued is how many URLs wait to be visited.
	Queued int
	// ClientRendered counts pages with scripts and no link: their links
	// are likely written by JavaScript. Rendered counts those rendered
	// (CrawlOptions.Render), RenderErrors those it failed on.
	ClientRendered, Rendered, RenderErrors int
	// RenderError is the first rendering's failure.
	RenderError string
	// Resumed counts the pages a resumed crawl had listed before.
	Resumed int
	// LinksCut counts the pages with more than MaxCrawlLinks links: the
	// rest of their links were not followed.
	LinksCut int
	// Unlogged counts the URLs left out (out of scope, traps, past a
	// limit) once the crawl met more URLs than it remembers (four times
	// MaxPages): not logged, as one may be met many times.
	Unlogged int
}

// Crawl is a Source of the pages of a live site that belong in its
// sitemap: reached by links from the starts, inside the scope, allowed by
// robots.txt, answering 200 with HTML (or a file Files names), indexable
// (no noindex in a robots or googlebot meta, nor in X-Robots-Tag) and
// canonical (a page whose canonical, in its head or its Link header,
// names another URL is left out, and that URL followed). Redirects are
// followed, each hop judged by scope and robots.txt, and only their target
// listed. Each page's hreflang alternates (head or Link header) and images
// come with it, read as a static folder's pages are.
// Pages come in the order they are fetched.
//
// Close stops the crawl; it must be called when done with it.
type Crawl struct {
	o       CrawlOptions
	f       *discover.Fetcher
	client  *fetch.Client
	scopes  []*url.URL // the starts' directories
	files   []matcher
	ctx     context.Context
	cancel  context.CancelFunc
	results chan crawlResult
	done    chan struct{}

	dir     string
	tempDir bool // dir is the crawl's own, removed at Close
	// made is the outermost folder, absolute, the crawl made for dir
	// (itself, or the one above it that it made with it: .sitemapkit);
	// "" when dir was there. An ended crawl removes them.
	made string

	mu       sync.Mutex
	cond     *sync.Cond
	queue    frontier
	seen     crawlSeen
	inflight map[*crawlItem]bool      // popped: true until its page is recorded (see recorded)
	hosts    map[string]time.Time     // next request allowed, by host
	slots    map[string]chan struct{} // pages being fetched, by host (hostSlot)
	busy     int
	fetched  int
	found    *os.File // found.jsonl, the pages listed
	foundBuf []byte
	stats    CrawlStats
	gen      int // checkpoints saved
	// The fate of each URL decided (while there are fewer than
	// maxCrawlSeen*MaxPages), and the pages whose canonical names a URL
	// not yet decided, by the URL's hash: a page is left out for its
	// canonical only when that URL is one to list (see await).
	fates map[uint64]fate
	// enqueuing holds the URLs met whose enqueue has not queued or
	// logged them yet.
	enqueuing map[uint64]int
	waiting   map[uint64][]waiter
	waitSize  int // the bytes the waiting pages hold, about
	logMu     sync.Mutex
	fail      error // a failure of the crawl's own files, which ends it

	line  int
	err   error
	fp    uint64 // the fingerprint of the page Read last returned
	hasFP bool
}

type crawlItem struct {
	url   string
	depth int
	from  string
	// shape is the URL's (see trap), and chain how many URLs of that
	// shape led to it, each found on the one before.
	shape string
	chain int
	// hops is how many redirects and canonicals in a row led to it.
	hops int
	// allowed: robots.txt was asked when it was queued (see enqueue),
	// and need not be again. Not kept on disk: a resumed crawl, whose
	// robots.txt is fetched anew, asks again.
	allowed bool
}

type crawlResult struct {
	u     sitemap.URL
	err   error
	fp    uint64
	hasFP bool
}

// OpenCrawl starts crawling with o, on goroutines of its own, and returns
// the Crawl whose Read returns what it finds. It fails at once on a start
// that is not an absolute http(s) URL or on a bad Files pattern.
func OpenCrawl(ctx context.Context, o CrawlOptions) (*Crawl, error) {
	o = o.WithDefaults()
	if len(o.Starts) == 0 {
		return nil, errors.New("crawl: no start URL")
	}
	// Hosts as the URLs met spell theirs: ASCII, lower case, no default
	// port.
	hosts := make([]string, 0, len(o.Hosts))
	for _, h := range o.Hosts {
		h = strings.TrimSuffix(strings.TrimSuffix(h, ":80"), ":443")
		name, port, err := net.SplitHostPort(h)
		if err != nil {
			name, port = h, ""
		}
		if a, err := idna.Lookup.ToASCII(name); err == nil {
			name = a
		}
		if port != "" {
			name = net.JoinHostPort(name, port)
		}
		hosts = append(hosts, strings.ToLower(name))
	}
	o.Hosts = hosts
	files, err := compilePatterns("files", o.Files)
	if err != nil {
		return nil, fmt.Errorf("crawl: %w", err)
	}
	c := &Crawl{
		o:         o,
		f:         discover.NewFetcher(o.Fetch),
		client:    &fetch.Client{UserAgent: o.Fetch.UserAgent, Timeout: o.Fetch.Timeout, MaxBytes: o.Fetch.MaxBytes, Transport: o.Fetch.Transport, KeepRedirects: true},
		files:     files,
		results:   make(chan crawlResult, 64),
		done:      make(chan struct{}),
		seen:      crawlSeen{salt: strconv.FormatUint(rand.Uint64(), 36), m: map[uint64]struct{}{}},
		inflight:  map[*crawlItem]bool{},
		fates:     map[uint64]fate{},
		enqueuing: map[uint64]int{},
		waiting:   map[uint64][]waiter{},
		hosts:     map[string]time.Time{},
		slots:     map[string]chan struct{}{},
		stats:     CrawlStats{Reasons: map[string]int{}, Examples: map[string]CrawlEntry{}},
	}
	c.cond = sync.NewCond(&c.mu)
	if err := c.openDir(); err != nil {
		return nil, err
	}
	var previous int64 // the bytes of found.jsonl a resumed crawl had listed
	if o.Resume {
		var err error
		if previous, err = c.resume(); err != nil {
			c.closeFiles()
			return nil, err
		}
	}
	for _, s := range o.Starts {
		n, err := loc.Normalize(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("crawl: start %q: %w", s, err)
		}
		// Known as a link to it is: without its fragment and session
		// IDs, or the page would be fetched and listed twice.
		n = crawlURL(n)
		u, _ := url.Parse(n)
		dir := *u
		dir.RawQuery, dir.Fragment = "", ""
		dir.Path = dir.Path[:strings.LastIndexByte(dir.Path, '/')+1]
		c.scopes = append(c.scopes, &dir)
		if h := c.seen.hash(crawlKey(n)); !o.Resume {
			if _, ok := c.seen.m[h]; !ok {
				c.seen.m[h] = struct{}{}
				c.queue.push(crawlItem{url: n, shape: shape(u)})
			}
		}
	}
	c.ctx, c.cancel = context.WithCancel(ctx)
	if o.Budget > 0 {
		c.ctx, c.cancel = context.WithTimeout(ctx, o.Budget)
	}
	var wg sync.WaitGroup
	if previous > 0 {
		// The pages listed before the stop come first, read from the
		// file as they go out, not held.
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := os.Open(c.found.Name())
			if err != nil {
				return
			}
			defer f.Close()
			sc := bufio.NewScanner(io.LimitReader(f, previous))
			sc.Buffer(nil, MaxLineBytes)
			for sc.Scan() {
				r, err := readFound(sc.Bytes())
				if err != nil {
					return
				}
				c.mu.Lock()
				c.stats.Resumed++
				c.mu.Unlock()
				select {
				case c.results <- r:
				case <-c.ctx.Done():
					return
				}
			}
		}()
	}
	// As many workers as every host may keep busy (each at most
	// Concurrency at once, see visit), within a bound.
	scopeHosts := map[string]bool{}
	for _, s := range c.scopes {
		scopeHosts[strings.ToLower(s.Host)] = true
	}
	for _, h := range o.Hosts {
		scopeHosts[h] = true
	}
	for range min(o.Concurrency*len(scopeHosts), maxCrawlWorkers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.work()
		}()
	}
	stopSaving, saverDone := make(chan struct{}), make(chan struct{})
	if !c.tempDir && o.Checkpoint > 0 {
		go func() {
			defer close(saverDone)
			c.saveEvery(o.Checkpoint, stopSaving)
		}()
	} else {
		close(saverDone)
	}
	go func() {
		wg.Wait()
		// No record after finish's: it would outlive the crawl's end.
		close(stopSaving)
		<-saverDone
		if c.ctx.Err() == nil {
			c.settleAll()
		}
		c.finish()
		close(c.results)
		close(c.done)
	}()
	// The workers wait on the queue's condition: a cancelled crawl must
	// wake them.
	context.AfterFunc(c.ctx, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	return c, nil
}

// work takes URLs from the queue until it is empty and no page being
// fetched can add to it, or the crawl ends.
func (c *Crawl) work() {
	for {
		c.mu.Lock()
		for c.queue.len() == 0 && c.busy > 0 && c.ctx.Err() == nil {
			c.cond.Wait()
		}
		if c.queue.len() == 0 || c.ctx.Err() != nil {
			c.cond.Broadcast()
			c.mu.Unlock()
			return
		}
		it, _, err := c.queue.pop()
		if err != nil {
			c.fail = err
			c.cancel()
			c.mu.Unlock()
			return
		}
		if c.fetched >= c.o.MaxPages {
			c.mu.Unlock()
			c.log(CrawlEntry{URL: it.url, Depth: it.depth, From: it.from, Reason: "limit", Detail: fmt.Sprintf("max pages (%d) reached", c.o.MaxPages)})
			continue
		}
		c.fetched++
		c.busy++
		c.inflight[&it] = true
		c.mu.Unlock()

		done := c.visit(it)

		c.mu.Lock()
		c.busy--
		if done {
			delete(c.inflight, &it)
		} else {
			c.fetched-- // stopped before it was decided: a resume visits it
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

// visit fetches one URL and decides what it is; false when the crawl
// stopped before it could, for a resume to visit it again.
func (c *Crawl) visit(it crawlItem) bool {
	e := CrawlEntry{URL: it.url, Depth: it.depth, From: it.from}
	ok, why := it.allowed, ""
	if !ok {
		ok, why = c.f.Allowed(c.ctx, it.url, c.o.Fetch.UserAgent)
	}
	if !ok {
		if c.ctx.Err() != nil {
			return false // stopped while robots.txt loaded: says nothing
		}
		c.mu.Lock()
		c.fetched-- // not fetched: MaxPages counts requests
		c.mu.Unlock()
		e.Reason, e.Detail = "robots", why
		c.log(e)
		return true
	}
	release, err := c.hostSlot(it.url)
	if err != nil {
		return false // the crawl ended
	}
	defer release()
	if err := c.wait(c.ctx, it.url); err != nil {
		return false // the crawl ended
	}
	start := time.Now()
	resp, err := c.get(it.url)
	for hop := 0; err == nil && hop < MaxCrawlHops; hop++ {
		// A redirect to this very page as the crawl knows it (its
		// parameters in another order, a session ID added: a URL the
		// crawl has met, so never queued again) is followed at once:
		// the page is at its end, listed as the target spells it.
		raw, same := c.sameRedirect(it.url, resp)
		if !same {
			break
		}
		if ok, _ := c.f.Allowed(c.ctx, raw, c.o.Fetch.UserAgent); !ok {
			break
		}
		resp.Body.Close()
		c.mu.Lock()
		c.stats.Fetched++
		c.mu.Unlock()
		if err = c.wait(c.ctx, raw); err != nil {
			return false // the crawl ended
		}
		target := crawlURL(raw)
		c.respell(it.url, target)
		it.url, e.URL = target, target
		resp, err = c.get(raw)
	}
	if err != nil {
		e.Time = time.Since(start)
		return c.failed(e, err)
	}
	defer resp.Body.Close()
	// The time is the whole answer's, its body read.
	timed := &timedBody{r: resp.Body, start: start, e: &e}
	timed.took()
	e.Status = resp.StatusCode
	c.mu.Lock()
	c.stats.Fetched++
	c.mu.Unlock()
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "":
		target, ok := c.canon(it.url, resp.Header.Get("Location"))
		e.Reason, e.Target = "redirect", target
		c.log(e)
		if ok {
			// A hop is the same page: the same depth.
			c.enqueue(target, &it, false)
		}
		return true
	case resp.StatusCode != http.StatusOK:
		e.Reason, e.Detail = "error", resp.Status
		c.log(e)
		return true
	}
	if noindexHeader(resp.Header) {
		e.Reason, e.Detail = "noindex", "X-Robots-Tag"
		c.log(e)
		return true
	}
	var body io.Reader = timed
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		// No type said: the body tells, as a browser sniffs it.
		br := bufio.NewReader(timed)
		head, _ := br.Peek(512)
		ct, body = http.DetectContentType(head), br
	}
	pageURL, _ := url.Parse(it.url)
	mt, _, _ := mime.ParseMediaType(ct)
	if mt != "text/html" && mt != "application/xhtml+xml" {
		if c.isFile(it.url) {
			// A file says its canonical and alternates in its Link
			// header, where Google reads them.
			var h pageHead
			addHeaderLinks(&h, resp.Header, pageURL)
			for _, a := range h.alternates {
				c.enqueue(a.Href, &it, true)
			}
			c.decide(it, e, crawlResult{u: sitemap.URL{Loc: it.url, Alternates: h.alternates}}, h)
			return true
		}
		e.Reason, e.Detail = "not-html", mt
		c.log(e)
		return true
	}
	if r, err := charset.NewReader(body, ct); err == nil {
		body = r
	}
	var res crawlResult
	if c.o.Fingerprint != nil {
		// Read once, for both passes.
		data, err := io.ReadAll(body)
		if err == nil {
			res.fp, err = c.o.Fingerprint.HTML(bytes.NewReader(data))
			res.hasFP = err == nil
		}
		if err != nil {
			return c.failed(e, err)
		}
		body = bytes.NewReader(data)
	}
	h, err := parseHead(body, pageURL, headWant{images: true, links: true})
	if err == nil {
		_, err = io.Copy(io.Discard, timed) // to its end, for the time
	}
	if err != nil {
		return c.failed(e, err)
	}
	if h.linksCut > 0 {
		c.mu.Lock()
		c.stats.LinksCut++
		c.mu.Unlock()
	}
	if target := crawlURL(h.refresh); h.refresh != "" && crawlKey(target) != crawlKey(it.url) {
		// An instant refresh is a redirect to search engines (a delayed
		// one's target is one of the page's links).
		e.Reason, e.Target, e.Detail = "redirect", target, "meta refresh"
		c.log(e)
		c.enqueue(target, &it, false)
		return true
	}
	if h.scripts > 0 && len(h.links) == 0 && !h.noindex {
		// (A page noindex as served is not rendered: search engines do
		// not render it, whatever its scripts would change.)
		c.mu.Lock()
		c.stats.ClientRendered++
		c.mu.Unlock()
		if c.o.Render != nil {
			var moved string
			h, moved = c.render(it.url, pageURL, h)
			if c.ctx.Err() != nil {
				return false // stopped while it rendered: the resume renders it
			}
			if moved != "" {
				// A script's redirect is a redirect.
				if target, ok := c.canon(it.url, moved); ok && crawlKey(target) != crawlKey(it.url) {
					e.Reason, e.Target, e.Detail = "redirect", target, "by a script"
					c.log(e)
					c.enqueue(target, &it, false)
					return true
				}
			}
		}
	}
	// The answer's Link header says a canonical and alternates as the
	// head does (after a rendering too: the header is the answer's).
	addHeaderLinks(&h, resp.Header, pageURL)
	for _, l := range h.links {
		if l.nofollow && c.o.SkipNofollow {
			continue
		}
		c.enqueue(l.url, &it, true)
	}
	for _, a := range h.alternates {
		c.enqueue(a.Href, &it, true)
	}
	res.u = sitemap.URL{Loc: it.url, Alternates: h.alternates, Images: h.images}
	c.decide(it, e, res, h)
	return true
}

// decide lists the page of it, fetched (res), or leaves it out for what
// h, its head and Link header, say: noindex, or a canonical naming
// another URL, whose fate it then awaits.
func (c *Crawl) decide(it crawlItem, e CrawlEntry, res crawlResult, h pageHead) {
	canonical := crawlURL(h.canonical)
	switch {
	case h.noindex:
		e.Reason, e.Detail = "noindex", "meta robots"
		c.log(e)
	case h.canonical != "" && crawlKey(canonical) != crawlKey(it.url):
		e.Target = canonical
		c.enqueue(canonical, &it, false)
		c.await(canonical, waiter{it: it, e: e, r: res})
	default:
		c.listResult(e, res)
	}
}

// sameRedirect reports whether resp, an answer for the page the crawl
// knows as page, redirects to that page again (the same crawlKey,
// spelled otherwise: another order of parameters, a session ID, a
// fragment), and returns the URL to fetch, the Location resolved, its
// session ID kept (the server wants it), its fragment dropped.
func (c *Crawl) sameRedirect(page string, resp *fetch.Response) (raw string, same bool) {
	loc := resp.Header.Get("Location")
	if resp.StatusCode < 300 || resp.StatusCode >= 400 || loc == "" {
		return "", false
	}
	base, err := url.Parse(resp.URL)
	if err != nil || resp.URL == "" {
		base, err = url.Parse(page)
	}
	if err != nil {
		return "", false
	}
	abs, ok := resolve(base, loc)
	if !ok {
		return "", false
	}
	abs, _, _ = strings.Cut(abs, "#")
	from := resp.URL
	if from == "" {
		from = page
	}
	if abs == from || crawlKey(crawlURL(abs)) != crawlKey(page) {
		return "", false
	}
	return abs, true
}

// respell renames the page in flight known as old, whose redirect gave it
// the spelling now: a checkpoint finds it recorded under its new name.
func (c *Crawl) respell(old, now string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for it, pending := range c.inflight {
		if pending && it.url == old {
			it.url = now
			return
		}
	}
}

// timedBody is a response's body that sets its entry's Time as it is
// read.
type timedBody struct {
	r     io.Reader
	start time.Time
	e     *CrawlEntry
}

func (t *timedBody) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.took()
	return n, err
}

func (t *timedBody) took() { t.e.Time = time.Since(t.start) }

// failed decides the page of e, whose fetch or read failed with err: as an
// error, logged; or, when the crawl stopped, not at all (false), for a
// resume to visit it again.
func (c *Crawl) failed(e CrawlEntry, err error) bool {
	if c.ctx.Err() != nil {
		return false
	}
	e.Reason, e.Detail = "error", err.Error()
	c.log(e)
	return true
}

// render renders the page at rawURL and reads it again, as its scripts
// left it; h, what the page said before, when rendering fails. moved is
// where its scripts navigated to, if they did.
func (c *Crawl) render(rawURL string, pageURL *url.URL, h pageHead) (_ pageHead, moved string) {
	doc, moved, err := c.o.Render.Render(c.ctx, rawURL, c.allowRendered)
	var r pageHead
	if err == nil {
		r, err = parseHead(bytes.NewReader(doc), pageURL, headWant{images: true, links: true})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil && c.ctx.Err() != nil {
		return h, "" // stopped, not failed
	}
	if err != nil {
		if c.stats.RenderErrors++; c.stats.RenderError == "" {
			c.stats.RenderError = err.Error()
		}
		return h, ""
	}
	c.stats.Rendered++
	return r, moved
}

// allowRendered is asked of each request of a page being rendered: a
// navigation must be in scope, every request allowed by robots.txt, and
// the host's rate holds.
func (c *Crawl) allowRendered(ctx context.Context, rawURL string, document bool) bool {
	if document && !c.inScope(rawURL) {
		return false
	}
	// robots.txt is fetched for the crawl, not for this tab: a tab that
	// closes must not make its answer "unreachable".
	if ok, _ := c.f.Allowed(c.ctx, rawURL, c.o.Fetch.UserAgent); !ok {
		return false
	}
	return c.wait(ctx, rawURL) == nil
}

// get fetches rawURL, again after the wait a 429 or 503 asks for
// (Retry-After, at most a minute; twice at most), at a turn of the host's
// rate.
func (c *Crawl) get(rawURL string) (*fetch.Response, error) {
	for try := 0; ; try++ {
		resp, err := c.client.Get(c.ctx, rawURL)
		if err != nil {
			return nil, err
		}
		if (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable) || try == 2 {
			return resp, nil
		}
		resp.Body.Close()
		wait := time.Duration(1<<try) * time.Second
		ra := strings.TrimSpace(resp.Header.Get("Retry-After"))
		if s, err := strconv.Atoi(ra); err == nil {
			// Capped before it is made a Duration: past 292 years of
			// seconds it wrapped round, to no wait at all (a server
			// asking for the longest wait was asked again at once).
			wait = time.Duration(min(s, int(time.Minute/time.Second))) * time.Second
		} else if t, err := http.ParseTime(ra); err == nil {
			wait = time.Until(t)
		}
		wait = min(max(wait, 0), time.Minute)
		// The whole host is given the time it asked for, not this URL
		// alone; and this URL waits for what another's answer asked,
		// then for its turn at the host's rate: answers that came
		// together are not retried together, in a burst.
		if u, err := url.Parse(rawURL); err == nil {
			c.mu.Lock()
			if at := time.Now().Add(wait); at.After(c.hosts[u.Host]) {
				c.hosts[u.Host] = at
			}
			c.mu.Unlock()
		}
		if err := c.wait(c.ctx, rawURL); err != nil {
			return nil, err
		}
	}
}

// hostSlot waits for one of the Concurrency places of rawURL's host and
// returns what gives it back.
func (c *Crawl) hostSlot(rawURL string) (release func(), err error) {
	host := ""
	if u, err := url.Parse(rawURL); err == nil {
		host = strings.ToLower(u.Host)
	}
	c.mu.Lock()
	slots := c.slots[host]
	if slots == nil {
		slots = make(chan struct{}, c.o.Concurrency)
		c.slots[host] = slots
	}
	c.mu.Unlock()
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, nil
	case <-c.ctx.Done():
		return nil, c.ctx.Err()
	}
}

// wait holds a request to rawURL's host until Rate and the host's
// Crawl-delay allow it, or ctx is done. A turn is taken when it comes,
// not booked ahead: a request given up (a rendering's timeout) holds no
// later request back.
func (c *Crawl) wait(ctx context.Context, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil
	}
	gap := c.f.CrawlDelay(ctx, rawURL, c.o.Fetch.UserAgent)
	if c.o.Rate > 0 {
		gap = max(gap, time.Duration(float64(time.Second)/c.o.Rate))
	}
	for {
		c.mu.Lock()
		now := time.Now()
		next := c.hosts[u.Host] // the host's next turn, or its Retry-After
		if !now.Before(next) {
			if gap > 0 {
				c.hosts[u.Host] = now.Add(gap)
			}
			c.mu.Unlock()
			return ctx.Err()
		}
		c.mu.Unlock()
		select {
		case <-time.After(next.Sub(now)):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// canon resolves ref against page and normalises it as the sitemap would
// list it (session IDs stripped, no fragment); ok is false for what
// cannot be a page.
func (c *Crawl) canon(page, ref string) (string, bool) {
	base, err := url.Parse(page)
	if err != nil {
		return "", false
	}
	abs, ok := resolve(base, ref)
	if !ok {
		return "", false
	}
	return crawlURL(abs), true
}

// crawlURL is an absolute URL as the crawl knows a page: without its
// fragment and session IDs.
func crawlURL(abs string) string {
	abs, _, _ = strings.Cut(abs, "#")
	return loc.StripSessionIDs(abs, nil)
}

// enqueue queues a URL found on the page of from (a link one deeper, a
// redirect or canonical at its depth), unless it was met before, is out
// of scope, or is a trap; what is left out says why in the log.
func (c *Crawl) enqueue(raw string, from *crawlItem, link bool) {
	depth, hops := from.depth, from.hops+1
	if link {
		depth, hops = depth+1, 0
	}
	n := crawlURL(raw)
	h := c.seen.hash(crawlKey(n))
	c.mu.Lock()
	if _, ok := c.seen.m[h]; ok {
		c.mu.Unlock()
		return
	}
	c.seen.m[h] = struct{}{}
	// Met, not yet queued nor logged: a checkpoint meanwhile leaves it out
	// of the URLs met, so that the page that links to it, visited again
	// after a resume, meets it again.
	c.enqueuing[h]++
	full := c.fetched+c.queue.len() >= c.o.MaxPages
	c.mu.Unlock()
	e := CrawlEntry{URL: n, Depth: depth, From: from.url}
	it := crawlItem{url: n, depth: depth, from: from.url, hops: hops}
	scoped := c.inScope(n)
	trap := ""
	if scoped {
		trap = c.trap(&it, from)
	}
	var allowed bool
	var why string
	if scoped && trap == "" {
		// Asked now, not when its turn comes: a URL robots.txt keeps the
		// crawl from takes no place in the queue nor in MaxPages. (A stop
		// while robots.txt loads says nothing: the URL is queued.)
		allowed, why = c.f.Allowed(c.ctx, n, c.o.Fetch.UserAgent)
		it.allowed = allowed // asked once, not again by visit
		allowed = allowed || c.ctx.Err() != nil
	}
	switch {
	case !scoped:
		e.Reason = "out-of-scope"
	case trap != "":
		e.Reason, e.Detail = "trap", trap
	case !allowed:
		e.Reason, e.Detail = "robots", why
	case depth > c.o.MaxDepth:
		e.Reason, e.Detail = "limit", fmt.Sprintf("max depth (%d) reached", c.o.MaxDepth)
	case full:
		e.Reason, e.Detail = "limit", fmt.Sprintf("max pages (%d) reached", c.o.MaxPages)
	default:
		c.mu.Lock()
		if err := c.queue.push(it); err != nil && c.fail == nil {
			c.fail = err
			c.cancel()
		}
		c.enqueued(h)
		c.cond.Signal()
		c.mu.Unlock()
		return
	}
	// The URLs queued are remembered (MaxPages at most); the others only
	// while the set is small, so that a site of endless links cannot
	// grow it without bound. Past that, a URL left out is counted, not
	// logged: it would be logged each time it is met.
	c.mu.Lock()
	c.enqueued(h)
	if len(c.seen.m) > maxCrawlSeen*c.o.MaxPages {
		delete(c.seen.m, h)
		c.stats.Unlogged++
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	c.log(e)
}

// enqueued ends enqueue's hold on h (see enqueuing); c.mu held.
func (c *Crawl) enqueued(h uint64) {
	if c.enqueuing[h]--; c.enqueuing[h] <= 0 {
		delete(c.enqueuing, h)
	}
}

// maxCrawlWorkers bounds the pages a crawl fetches at once, in all.
const maxCrawlWorkers = 256

// maxCrawlSeen bounds the URLs a crawl remembers to this many times
// MaxPages.
const maxCrawlSeen = 4

// crawlKey is a URL as the crawl remembers it: its query's parameters in
// one order, so that links differing only in that order are one page.
func crawlKey(u string) string {
	q := strings.IndexByte(u, '?')
	if q < 0 || !strings.Contains(u[q:], "&") {
		return u
	}
	params := strings.Split(u[q+1:], "&")
	slices.Sort(params)
	return u[:q+1] + strings.Join(params, "&")
}

// inScope reports whether u is under a start's directory or on a host of
// Hosts.
func (c *Crawl) inScope(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	if slices.ContainsFunc(c.o.Hosts, func(h string) bool { return strings.EqualFold(h, u.Host) }) {
		return true
	}
	for _, s := range c.scopes {
		if u.Scheme == s.Scheme && strings.EqualFold(u.Host, s.Host) && strings.HasPrefix(u.EscapedPath(), s.EscapedPath()) {
			return true
		}
	}
	return false
}

// trap says why the URL of it, found on from, looks generated without end
// ("" when it does not), and sets its shape and chain.
func (c *Crawl) trap(it, from *crawlItem) string {
	u, err := url.Parse(it.url)
	if err != nil {
		return "unparsable"
	}
	if it.hops > MaxCrawlHops {
		return fmt.Sprintf("more than %d redirects and canonicals in a row", MaxCrawlHops)
	}
	if n := len(strings.Split(u.RawQuery, "&")); u.RawQuery != "" && n > MaxCrawlQueryParams {
		return fmt.Sprintf("%d query parameters, more than %d", n, MaxCrawlQueryParams)
	}
	counts := map[string]int{}
	for seg := range strings.SplitSeq(u.Path, "/") {
		if seg == "" {
			continue
		}
		if counts[seg]++; counts[seg] > MaxCrawlSegmentRepeats {
			return fmt.Sprintf("path segment %q repeated more than %d times", seg, MaxCrawlSegmentRepeats)
		}
	}
	it.shape = shape(u)
	if it.shape == from.shape {
		it.chain = from.chain + 1
	}
	if it.chain >= MaxCrawlPerPattern {
		return fmt.Sprintf("%d URLs of the shape %s, each found on the one before", it.chain+1, it.shape)
	}
	return ""
}

// shape is u's host and path with each run of digits as one 0:
// /cal/2024/05?view=day is /cal/0/0. The query is left out, so that a
// parameter that comes and goes on each click does not make a new shape.
func shape(u *url.URL) string {
	return u.Host + digitRuns(u.Path)
}

// digitRuns writes each run of digits of s as one 0.
func digitRuns(s string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' {
			if !in {
				b.WriteByte('0')
			}
			in = true
			continue
		}
		in = false
		b.WriteByte(s[i])
	}
	return b.String()
}

// isFile reports whether Files names the path of rawURL.
func (c *Crawl) isFile(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	p := path.Clean("/" + u.Path)
	for i := range c.files {
		if c.files[i].match(p) {
			return true
		}
	}
	return false
}

// noindexHeader reports an X-Robots-Tag that keeps the page out of the
// index, for every crawler or for Googlebot. A value is a comma-separated
// list of rules, each group of them addressed to a crawler when it starts
// with its name and a colon ("googlebot: noindex, otherbot: nofollow"); a
// rule that takes a value ("max-snippet: 20") is not a crawler's name.
func noindexHeader(h http.Header) bool {
	for _, v := range h.Values("X-Robots-Tag") {
		ours := true // rules before any crawler's name are for all
		for tok := range strings.SplitSeq(v, ",") {
			tok = strings.TrimSpace(tok)
			if name, rest, ok := strings.Cut(tok, ":"); ok && !strings.ContainsAny(strings.TrimSpace(name), " \t") {
				name = strings.ToLower(strings.TrimSpace(name))
				if !robotsValueRules[name] {
					ours = name == "googlebot" || name == "*"
					tok = rest
				}
			}
			if ours && robotsNoindex(tok) {
				return true
			}
		}
	}
	return false
}

// robotsValueRules are the robots rules written "rule: value".
var robotsValueRules = map[string]bool{
	"max-snippet": true, "max-image-preview": true, "max-video-preview": true, "unavailable_after": true,
}

// listResult returns r, a page found to belong in the sitemap.
func (c *Crawl) listResult(e CrawlEntry, r crawlResult) {
	c.mu.Lock()
	c.recordFound(e.URL, r)
	c.mu.Unlock()
	c.emit(e, r)
}

// recordFound records r in found.jsonl, for a resume to list it again,
// and notes its page as recorded; c.mu held.
func (c *Crawl) recordFound(url string, r crawlResult) {
	c.recorded(url)
	c.foundBuf = appendFound(c.foundBuf[:0], r)
	if _, err := c.found.Write(c.foundBuf); err != nil && c.fail == nil {
		c.fail = fmt.Errorf("crawl: %w", err)
		c.cancel()
	}
}

// emit logs e and returns r, recorded.
func (c *Crawl) emit(e CrawlEntry, r crawlResult) {
	c.log(e)
	select {
	case c.results <- r:
	case <-c.ctx.Done():
	}
}

// log records e and counts it, and decides the pages whose canonical is
// e's URL.
func (c *Crawl) log(e CrawlEntry) {
	c.logMu.Lock()
	c.mu.Lock()
	if e.Reason == "" {
		c.stats.Listed++
	} else {
		if c.stats.Reasons[e.Reason]++; c.stats.Reasons[e.Reason] == 1 {
			c.stats.Examples[e.Reason] = e
		}
	}
	c.mu.Unlock()
	if c.o.Log != nil {
		c.o.Log(e)
	}
	c.logMu.Unlock()

	f := fateOf(e.Reason)
	h := c.seen.hash(crawlKey(e.URL))
	c.mu.Lock()
	// A broken URL's fate is kept whatever the count (they were fetched:
	// MaxPages at most); the others while there are few.
	if f == fateBroken || len(c.fates) < maxCrawlSeen*c.o.MaxPages {
		c.fates[h] = f
	}
	ws := c.waiting[h]
	delete(c.waiting, h)
	for _, w := range ws {
		c.waitSize -= w.size()
		if f == fateBroken {
			// Recorded as found as it stops waiting, under the same
			// lock: a checkpoint meanwhile finds it in one or the other.
			c.recordFound(w.e.URL, w.r)
		}
	}
	c.mu.Unlock()
	for _, w := range ws {
		c.settle(w, f, e.Reason, true)
	}
}

// fate is what became of a URL, for the pages whose canonical names it.
type fate uint8

const (
	fateUnknown fate = iota
	// fateKept: listed, or left out for a reason that keeps a canonical
	// naming it right (robots, scope, another canonical): the page
	// naming it is left out.
	fateKept
	// fateBroken: an error, a redirect, noindex, not HTML. A canonical
	// naming it is a mistake search engines ignore: the page naming it
	// is listed.
	fateBroken
)

func fateOf(reason string) fate {
	switch reason {
	case "error", "redirect", "noindex", "not-html":
		return fateBroken
	}
	return fateKept
}

// A waiter is a page whose canonical names a URL not yet decided.
type waiter struct {
	it crawlItem
	e  CrawlEntry
	r  crawlResult
}

// size is about the bytes w holds.
func (w *waiter) size() int {
	n := 256 + len(w.it.url) + len(w.it.from) + len(w.e.Target)
	for _, a := range w.r.u.Alternates {
		n += 32 + len(a.Href) + len(a.Hreflang)
	}
	for _, im := range w.r.u.Images {
		n += 64 + len(im.Loc)
	}
	return n
}

// maxCrawlWaiting bounds the bytes the pages waiting on their canonical
// hold; past it a page whose canonical names another URL is left out at
// once, its canonical trusted.
const maxCrawlWaiting = 16 << 20

// await decides the page of w, whose canonical names target: left out
// when target is a page to list (or left out for robots, scope, a trap,
// its own canonical), listed when target is broken (an error, a
// redirect, noindex), as search engines ignore such a canonical. Until
// target is decided, w waits.
func (c *Crawl) await(target string, w waiter) {
	h := c.seen.hash(crawlKey(target))
	c.mu.Lock()
	f := c.fates[h]
	if n := w.size(); f == fateUnknown && c.waitSize+n <= maxCrawlWaiting {
		c.waiting[h] = append(c.waiting[h], w)
		c.waitSize += n
		c.recorded(w.it.url)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	c.settle(w, f, "", false)
}

// settle decides w, its canonical's fate f known (why is the reason it
// was left out, when known).
func (c *Crawl) settle(w waiter, f fate, why string, recorded bool) {
	if f == fateBroken {
		w.e.Detail = "its canonical " + w.e.Target + " cannot be listed"
		if why != "" {
			w.e.Detail += " (" + why + ")"
		}
		w.e.Target = ""
		if !recorded {
			c.mu.Lock()
			c.recordFound(w.e.URL, w.r)
			c.mu.Unlock()
		}
		c.emit(w.e, w.r)
		return
	}
	w.e.Reason = "canonical-elsewhere"
	c.log(w.e)
}

// settleAll decides the pages still waiting when the crawl is over: their
// canonicals were never fetched (MaxPages), and are trusted.
func (c *Crawl) settleAll() {
	c.mu.Lock()
	var ws []waiter
	for _, w := range c.waiting {
		ws = append(ws, w...)
	}
	clear(c.waiting)
	c.waitSize = 0
	c.mu.Unlock()
	cycle := inCycle(ws)
	for i, w := range ws {
		if cycle[i] {
			w.e.Detail = "its canonical " + w.e.Target + " names, in a cycle, pages that name it back: one of them is listed, as search engines pick one"
			w.e.Target = ""
			c.listResult(w.e, w.r)
			continue
		}
		c.settle(w, fateKept, "", false)
	}
}

// inCycle marks, of pages whose canonicals name each other in a cycle (a
// names b, b names a), the one of each cycle to list: the first URL in
// byte order, so that every crawl picks the same.
func inCycle(ws []waiter) []bool {
	at := make(map[string]int, len(ws))
	for i, w := range ws {
		at[crawlKey(w.it.url)] = i
	}
	next := func(i int) int {
		if j, ok := at[crawlKey(ws[i].e.Target)]; ok {
			return j
		}
		return -1
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(ws))
	pick := make([]bool, len(ws))
	for i := range ws {
		var path []int
		j := i
		for j >= 0 && state[j] == unseen {
			state[j] = onPath
			path = append(path, j)
			j = next(j)
		}
		if j >= 0 && state[j] == onPath {
			cyc := path[slices.Index(path, j):]
			pick[slices.MinFunc(cyc, func(a, b int) int { return strings.Compare(ws[a].it.url, ws[b].it.url) })] = true
		}
		for _, p := range path {
			state[p] = done
		}
	}
	return pick
}

// Read returns the next page found, with the contract of Source.Read. The
// stream ends when the crawl is over; a crawl stopped by its Budget or its
// context ends with that error.
func (c *Crawl) Read() (sitemap.URL, error) {
	if c.err != nil {
		return sitemap.URL{}, c.err
	}
	r, ok := <-c.results
	if !ok {
		c.err = io.EOF
		resume := "resume it with --resume"
		if c.tempDir {
			resume = "give it a folder (Dir) to resume from"
		}
		switch err := c.ctx.Err(); {
		case c.fail != nil:
			c.err = c.fail
		case errors.Is(err, context.DeadlineExceeded):
			c.err = &StoppedError{Err: fmt.Errorf("stopped at its time budget (%v)", c.o.Budget), Resume: resume}
		case err != nil:
			c.err = &StoppedError{Err: err, Resume: resume}
		}
		return sitemap.URL{}, c.err
	}
	c.line++
	c.fp, c.hasFP = r.fp, r.hasFP
	return r.u, r.err
}

// A StoppedError ends a crawl stopped before its end, by its context or
// its Budget; Resume says how to carry it on.
type StoppedError struct {
	Err    error
	Resume string
}

func (e *StoppedError) Error() string { return "crawl: " + e.Err.Error() + "; " + e.Resume }

func (e *StoppedError) Unwrap() error { return e.Err }

// Fingerprint returns the fingerprint of the page Read last returned,
// with CrawlOptions.Fingerprint (a page a resumed crawl lists again keeps
// the one it had); false without it.
func (c *Crawl) Fingerprint() (uint64, bool) { return c.fp, c.hasFP }

// All returns every page; see Source.All.
func (c *Crawl) All() iter.Seq2[sitemap.URL, error] { return all(c) }

// Name is the first start.
func (c *Crawl) Name() string { return c.o.Starts[0] }

// Line is the number of pages returned so far.
func (c *Crawl) Line() int { return c.line }

// Err returns the error that ended the stream, or nil.
func (c *Crawl) Err() error {
	if c.err == io.EOF {
		return nil
	}
	return c.err
}

// Stats returns what the crawl did so far; final once Read returned the
// end of the stream.
func (c *Crawl) Stats() CrawlStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Reasons = maps.Clone(c.stats.Reasons)
	s.Examples = maps.Clone(c.stats.Examples)
	s.Queued = c.queue.len()
	return s
}

// Close stops the crawl and waits for its goroutines.
func (c *Crawl) Close() error {
	c.cancel()
	for range c.results {
	}
	<-c.done
	c.closeFiles()
	if c.tempDir {
		return os.RemoveAll(c.dir)
	}
	return nil
}

// openDir makes the crawl's folder, and clears what a finished or
// abandoned crawl left there unless the crawl resumes it.
func (c *Crawl) openDir() error {
	c.dir = c.o.Dir
	if c.dir == "" {
		if c.o.Resume {
			return fmt.Errorf("crawl: %w: no folder (Dir) to resume from", ErrNoCheckpoint)
		}
		d, err := os.MkdirTemp("", "sitemapkit-crawl-*")
		if err != nil {
			return fmt.Errorf("crawl: %w", err)
		}
		c.dir, c.tempDir = d, true
	} else if _, err := os.Stat(filepath.Join(c.dir, checkpointFile)); c.o.Resume && errors.Is(err, fs.ErrNotExist) {
		return noCheckpoint(c.dir) // and no folder made
	} else {
		made := outermostMissing(c.dir)
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			return fmt.Errorf("crawl: %w", err)
		}
		c.made = made
	}
	if !c.o.Resume {
		for _, name := range crawlFiles(c.dir) {
			if err := os.Remove(filepath.Join(c.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("crawl: %w", err)
			}
		}
	}
	c.queue.path = filepath.Join(c.dir, queueFile)
	f, err := os.OpenFile(filepath.Join(c.dir, foundFile), os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("crawl: %w", err)
	}
	c.found = f
	return nil
}

// resume loads the checkpoint of the crawl stopped in the folder, and
// returns the length of the record of the pages it had listed (a line cut
// by a kill is dropped from it).
func (c *Crawl) resume() (int64, error) {
	cp, seen, fates, err := loadCheckpoint(c.dir)
	if err != nil {
		return 0, err
	}
	if !slices.Equal(cp.Starts, c.o.Starts) {
		return 0, fmt.Errorf("crawl: the crawl stopped in %s started at %s, not %s", c.dir, strings.Join(cp.Starts, ", "), strings.Join(c.o.Starts, ", "))
	}
	c.seen, c.fates, c.gen = crawlSeen{salt: cp.Salt, m: seen}, fates, cp.Gen
	c.made = cp.Made // the run that made the folder
	c.fetched = cp.Fetched
	// The queue comes back from the checkpoint, then from the part of
	// the old spill it names (a checkpoint taken while the crawl ran);
	// the rest of that file is stale.
	old := c.queue.path + ".old"
	if _, err := os.Stat(old); err == nil {
		// A resume killed before it saved: the old file is the one the
		// checkpoint names, the queue file a partial copy.
		os.Remove(c.queue.path)
	} else if err := os.Rename(c.queue.path, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("crawl: %w", err)
	}
	for _, r := range cp.Queue {
		if err := c.queue.push(r.item()); err != nil {
			return 0, err
		}
	}
	if cp.Spill[1] > cp.Spill[0] {
		if err := c.pushSpill(old, cp.Spill[0], cp.Spill[1]); err != nil {
			return 0, err
		}
	}
	if fi, err := c.found.Stat(); err == nil && fi.Size() > cp.Found {
		if err := c.found.Truncate(cp.Found); err != nil {
			return 0, fmt.Errorf("crawl: %w", err)
		}
	}
	n, err := wholeLines(c.found)
	if err != nil {
		return 0, err
	}
	// Recorded again at once, naming the new queue file: only then is the
	// old one, which the previous record names, of no use.
	if err := c.save(); err != nil {
		return 0, fmt.Errorf("crawl: %w", err)
	}
	os.Remove(old)
	return n, nil
}

// crawlFiles names the files a crawl keeps in dir, those a kill left
// half-written included.
func crawlFiles(dir string) []string {
	names := []string{checkpointFile, foundFile, queueFile, queueFile + ".old"}
	for _, pattern := range []string{seenFiles, seenFiles + ".tmp*", checkpointFile + ".tmp*"} {
		found, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, p := range found {
			names = append(names, filepath.Base(p))
		}
	}
	return names
}

// pushSpill queues the items of the old spill's bytes [off, end).
func (c *Crawl) pushSpill(name string, off, end int64) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("crawl: the checkpoint's queue: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(io.NewSectionReader(f, off, end-off))
	sc.Buffer(nil, MaxLineBytes)
	for sc.Scan() {
		var r itemRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("crawl: the checkpoint's queue is damaged: %w", err)
		}
		if err := c.queue.push(r.item()); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("crawl: the checkpoint's queue: %w", err)
	}
	return nil
}

// wholeLines cuts f after its last line end (a line cut by a kill goes),
// and returns its length.
func wholeLines(f *os.File) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("crawl: %w", err)
	}
	end := fi.Size()
	buf := make([]byte, 4096)
	for end > 0 {
		n := min(end, int64(len(buf)))
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return 0, fmt.Errorf("crawl: %w", err)
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			end = end - n + int64(i) + 1
			break
		}
		end -= n
	}
	if end != fi.Size() {
		if err := f.Truncate(end); err != nil {
			return 0, fmt.Errorf("crawl: %w", err)
		}
	}
	return end, nil
}

// outermostMissing returns, absolute, the outermost of dir and the folders
// above it that do not exist, which MkdirAll(dir) makes; "" if dir exists
// or its path cannot be made absolute.
func outermostMissing(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	missing := ""
	for {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			return missing
		}
		missing = d
		up := filepath.Dir(d)
		if up == d {
			return missing
		}
		d = up
	}
}

// removeMade removes dir, then the folders above it up to made (see
// Crawl.made), each only when it is empty: an ended crawl leaves nothing
// behind, not even the .sitemapkit folder it made for its own, and never
// removes a folder that was there before it.
func removeMade(dir, made string) {
	os.Remove(dir) // when empty
	d, err := filepath.Abs(dir)
	if err != nil || made == "" || d != made && !strings.HasPrefix(d, made+string(filepath.Separator)) {
		return // made is not dir nor above it: a resume from elsewhere
	}
	for d != made {
		d = filepath.Dir(d)
		if os.Remove(d) != nil {
			return
		}
	}
}

// finish ends the crawl's files: a crawl stopped before its end leaves a
// checkpoint to resume from (the URLs in flight first, then its queue); a
// crawl that ended leaves nothing to resume.
func (c *Crawl) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx.Err() == nil || c.fail != nil {
		if c.fail == nil {
			// Ended: nothing to resume, nothing to keep.
			for _, name := range crawlFiles(c.dir) {
				os.Remove(filepath.Join(c.dir, name))
			}
			removeMade(c.dir, c.made)
		}
		return
	}
	cp := c.checkpoint(false)
	rest, err := c.queue.drain()
	for _, it := range rest {
		cp.Queue = append(cp.Queue, it.record())
	}
	if err == nil {
		err = c.found.Sync()
	}
	if err == nil {
		c.gen++
		err = saveCheckpoint(c.dir, c.gen, cp, c.seen.m, c.enqueuing, c.fates)
	}
	if err != nil {
		c.fail = fmt.Errorf("crawl: saving where it stopped: %w", err)
	}
}

// recorded notes, with c.mu held, that the page at url, in flight, is
// recorded as found or as waiting: a checkpoint taken before its visit
// ends does not queue it again, which would list it twice.
func (c *Crawl) recorded(url string) {
	for it, pending := range c.inflight { // Concurrency of them at most
		if pending && it.url == url {
			c.inflight[it] = false
			return
		}
	}
}

// checkpoint is where the crawl is, the queue aside: with c.mu held. Its
// count of pages fetched leaves out those it queues again, which a resume
// fetches again: the pages in flight (when the crawl runs: a stopped
// crawl's have been taken out already) and those waiting.
func (c *Crawl) checkpoint(running bool) *checkpoint {
	cp := &checkpoint{Starts: c.o.Starts, Salt: c.seen.salt, Fetched: c.fetched, Made: c.made}
	if fi, err := c.found.Stat(); err == nil {
		cp.Found = fi.Size()
	}
	for it, pending := range c.inflight {
		if pending {
			cp.Queue = append(cp.Queue, it.record())
			if running {
				cp.Fetched--
			}
		}
	}
	for _, ws := range c.waiting { // visited again, their canonicals too
		for _, w := range ws {
			cp.Queue = append(cp.Queue, w.it.record())
			cp.Fetched--
		}
	}
	cp.Fetched = max(cp.Fetched, 0)
	return cp
}

// save records where the running crawl is, the queue left as it is (its
// items in memory, the part of its file not read back); c.mu held.
func (c *Crawl) save() error {
	cp := c.checkpoint(true)
	head, off, end, err := c.queue.snapshot()
	if err != nil {
		return err
	}
	for _, it := range head {
		cp.Queue = append(cp.Queue, it.record())
	}
	cp.Spill = [2]int64{off, end}
	if err := c.found.Sync(); err != nil {
		return err
	}
	c.gen++
	return saveCheckpoint(c.dir, c.gen, cp, c.seen.m, c.enqueuing, c.fates)
}

// saveEvery records where the crawl is every period until stop is
// closed.
func (c *Crawl) saveEvery(period time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		c.mu.Lock()
		if c.ctx.Err() == nil && c.fail == nil {
			if err := c.save(); err != nil {
				c.fail = fmt.Errorf("crawl: saving where it is: %w", err)
				c.cancel()
			}
		}
		c.mu.Unlock()
	}
}

// closeFiles closes the crawl's open files.
func (c *Crawl) closeFiles() {
	c.queue.close()
	if c.found != nil {
		c.found.Close()
	}
}
