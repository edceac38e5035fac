package discover

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/fetch"
	"github.com/sitemapkit/sitemapkit/internal/robots"
)

// A Fetcher fetches URLs for a User-Agent under robots.txt, with the
// settings of Options: the policy of the walk, for a crawler to share. It
// is safe for concurrent use; each robots.txt is fetched once.
type Fetcher struct {
	client *fetch.Client // robots.txt: the whole fetch within Timeout
	docs   *fetch.Client // documents, opened ahead of their reader: see Options.Timeout
	ua     string
	o      Options // defaults applied

	mu     sync.Mutex
	robots map[string]*robotsEntry // by scheme://host
}

type robotsEntry struct {
	once      sync.Once
	cancelled bool // its fetch was given up: not kept for the next URL
	r         *robots.Robots
	why       string // why everything is disallowed, when it is
	err       error
	// ignored and ignoredLines measure what followed the first
	// robots.MaxBytes of a truncated robots.txt; ignoredMore says there
	// was more than robotsCountMax of it, not counted.
	ignored      int64
	ignoredLines int
	ignoredMore  bool
}

// robotsCountMax bounds how much of a robots.txt past its cap is read to
// be counted: /dev/zero, or a server that never ends, has no size.
const robotsCountMax = 16 << 20

// countIgnored measures, for the Truncated finding, what follows the
// first robots.MaxBytes of a robots.txt: the rest of data (read to a byte
// past them), then what rest holds, up to robotsCountMax.
func (e *robotsEntry) countIgnored(data []byte, rest io.Reader) {
	var c lineCounter
	io.Copy(&c, io.LimitReader(rest, robotsCountMax+1))
	e.ignored, e.ignoredLines = int64(len(data)-robots.MaxBytes)+min(c.bytes, robotsCountMax), c.lines
	e.ignoredMore = c.bytes > robotsCountMax
}

// NewFetcher returns a Fetcher with o's settings (o.WithDefaults()).
func NewFetcher(o Options) *Fetcher {
	o = o.WithDefaults()
	client := &fetch.Client{UserAgent: o.UserAgent, Timeout: o.Timeout, MaxBytes: o.MaxBytes, Transport: o.Transport}
	// Documents are opened ahead of their reader: a body's time runs while
	// it is read, not while it waits its turn.
	docs := *client
	docs.TimeoutPerRead = true
	f := &Fetcher{
		client: client,
		docs:   &docs,
		ua:     o.UserAgent,
		o:      o,
		robots: map[string]*robotsEntry{},
	}
	// A redirect leads to a URL robots.txt must allow as well, on its own
	// host or another: the first URL alone was asked, and a redirect to a
	// disallowed path was fetched.
	docs.CheckHop = func(ctx context.Context, to *url.URL) error {
		if p := f.allowed(ctx, to, to.String()); p != nil {
			return p
		}
		return nil
	}
	return f
}

// robotsFor fetches (once) the robots.txt of u's scheme and host: once
// for every spelling of the host (capitals, the default port), or a
// sitemap listing the site in as many spellings would fetch it as often.
func (f *Fetcher) robotsFor(ctx context.Context, u *url.URL) *robotsEntry {
	key := Site(u)
	if f.o.Robots != "" {
		key = "" // one file stands for every host's
	}
	f.mu.Lock()
	e := f.robots[key]
	if e == nil {
		e = &robotsEntry{}
		f.robots[key] = e
	}
	f.mu.Unlock()
	e.once.Do(func() {
		if f.o.Robots != "" {
			f.robotsFile(e)
			return
		}
		ru := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/robots.txt"}
		resp, err := f.client.Get(ctx, ru.String())
		if err != nil {
			e.cancelled = ctx.Err() != nil
			// RFC 9309 §2.3.1.4: unreachable means complete disallow.
			e.r, e.err = robots.DisallowAll(), err
			e.why = fmt.Sprintf("robots.txt unreachable (%v): crawlers assume everything is disallowed", err)
			return
		}
		defer resp.Body.Close()
		switch {
		case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
			// A 429 asks for fewer requests; it does not say there
			// are no rules: Google takes it for a 5xx.
			e.r, e.why = robots.DisallowAll(), fmt.Sprintf("robots.txt answered %s: crawlers assume everything is disallowed", resp.Status)
		case resp.StatusCode >= 300: // 4xx is "unavailable": everything allowed
			e.r = robots.AllowAll()
		default:
			data, err := io.ReadAll(io.LimitReader(resp.Body, robots.MaxBytes+1))
			if err != nil {
				// Cut off (a timeout, a reset, a body shorter than its
				// Content-Length): what came is not the file, and a
				// Disallow may be in what did not.
				e.cancelled = ctx.Err() != nil
				e.r, e.err = robots.DisallowAll(), err
				e.why = fmt.Sprintf("robots.txt could not be read (%v): crawlers assume everything is disallowed", err)
				return
			}
			final, _ := url.Parse(resp.URL)
			e.r = robots.Parse(data, final)
			if e.r.Truncated {
				// What is past the cap is not read, but counted, for
				// the finding (the body is capped at MaxBytes).
				e.countIgnored(data, resp.Body)
			}
		}
	})
	if e.cancelled {
		// A walk stopped while the file loaded says nothing of the site.
		f.mu.Lock()
		if f.robots[key] == e {
			delete(f.robots, key)
		}
		f.mu.Unlock()
		if ctx.Err() == nil {
			// Another caller's fetch, given up: this one's goes on.
			return f.robotsFor(ctx, u)
		}
	}
	return e
}

// Site names the site of u, whose robots.txt is one: its scheme and its
// host, in lower case and without the scheme's default port
// ("HTTPS://WWW.Example.com:443/x" is "https://www.example.com").
func Site(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if port == "" || scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	} else {
		port = ":" + port
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + port
}

// robotsFile reads Options.Robots into e: a file that cannot be read is
// an unreachable robots.txt.
func (f *Fetcher) robotsFile(e *robotsEntry) {
	file, err := os.Open(f.o.Robots)
	if err == nil {
		defer file.Close()
		var data []byte
		if data, err = io.ReadAll(io.LimitReader(file, robots.MaxBytes+1)); err == nil {
			e.r = robots.Parse(data, nil)
			if e.r.Truncated {
				e.countIgnored(data, file)
			}
			return
		}
	}
	e.r, e.err = robots.DisallowAll(), err
	e.why = fmt.Sprintf("robots.txt %s could not be read (%v): crawlers assume everything is disallowed", f.o.Robots, unwrapPathErr(err))
}

// Allowed reports whether robots.txt lets a crawler whose User-Agent is
// agent fetch rawURL, under the walk's policy: the robots.txt of the
// URL's host (fetched once, or Options.Robots), an unreachable one
// disallowing everything. When it does not, why says so.
func (f *Fetcher) Allowed(ctx context.Context, rawURL, agent string) (ok bool, why string) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return true, ""
	}
	e := f.robotsFor(ctx, u)
	if e.r.Allowed(agent, rawURL) {
		return true, ""
	}
	if e.why != "" {
		return false, e.why
	}
	where := u.Scheme + "://" + u.Host + "/robots.txt"
	if f.o.Robots != "" {
		where = f.o.Robots
	}
	return false, "disallowed for " + productName(agent) + " by " + where
}

// truncated is the finding of a robots.txt past robots.MaxBytes.
func (e *robotsEntry) truncated() *Error {
	size := fmt.Sprintf("%d bytes (%d lines)", e.ignored, e.ignoredLines)
	if e.ignoredMore {
		size = fmt.Sprintf("more than %d bytes (%d lines in them)", e.ignored, e.ignoredLines)
	}
	return problem(Truncated, nil, "robots.txt is %s past the %d KiB that RFC 9309 asks crawlers to read: Google ignores them, with any Sitemap: lines in them", size, robotsMaxKiB)
}

// CrawlDelay returns the Crawl-delay the robots.txt of rawURL's host asks
// of a crawler whose User-Agent is agent (at most a minute); 0 when none.
func (f *Fetcher) CrawlDelay(ctx context.Context, rawURL, agent string) time.Duration {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return 0
	}
	return f.robotsFor(ctx, u).r.CrawlDelay(agent)
}

// lineCounter counts the bytes and line ends written to it.
type lineCounter struct {
	bytes int64
	lines int
}

func (c *lineCounter) Write(p []byte) (int, error) {
	c.bytes += int64(len(p))
	c.lines += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

// allowed returns nil when robots.txt lets the User-Agent fetch rawURL,
// or the finding that it does not.
func (f *Fetcher) allowed(ctx context.Context, u *url.URL, rawURL string) *Error {
	ok, why := f.Allowed(ctx, rawURL, f.ua)
	if ok {
		return nil
	}
	return problem(BlockedByRobots, f.robotsFor(ctx, u).err, "%s; not fetched", why)
}

func productName(ua string) string {
	name, _, _ := strings.Cut(ua, "/")
	return name
}

// Open fetches rawURL when robots.txt lets the User-Agent, following
// redirects: the body of a 200 answer (the caller closes it), with the
// redirects followed, also when there is an error. The error is an *Error:
// InvalidURL, BlockedByRobots, HTTPStatus or FetchFailed.
func (f *Fetcher) Open(ctx context.Context, rawURL string) (io.ReadCloser, []Redirect, error) {
	body, rs, err := f.open(ctx, rawURL)
	if err != nil {
		return nil, rs, err
	}
	return body, rs, nil
}

func (f *Fetcher) open(ctx context.Context, rawURL string) (io.ReadCloser, []Redirect, *Error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, nil, problem(InvalidURL, err, "not an absolute http(s) URL; not fetched")
	}
	if p := f.allowed(ctx, u, rawURL); p != nil {
		return nil, nil, p
	}
	resp, err := f.docs.Get(ctx, rawURL)
	if err != nil {
		var fe *fetch.Error
		if errors.As(err, &fe) {
			if errors.Is(err, fetch.ErrRedirectLoop) {
				chain := []string{rawURL}
				for _, h := range fe.Redirects {
					chain = append(chain, h.To)
				}
				return nil, redirects(fe.Redirects), problem(FetchFailed, err, "redirect loop: %s", strings.Join(chain, " → "))
			}
			if p, ok := fe.Err.(*Error); ok { // a hop robots.txt disallows
				return nil, redirects(fe.Redirects), problem(p.Kind, p.Err, "redirected to %s: %s", fe.Redirects[len(fe.Redirects)-1].To, p.msg)
			}
			return nil, redirects(fe.Redirects), problem(FetchFailed, err, "%v", fe.Err)
		}
		return nil, nil, problem(FetchFailed, err, "%v", err)
	}
	rs := redirects(resp.Redirects)
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, rs, problem(HTTPStatus, nil, "HTTP %s", resp.Status)
	}
	return resp.Body, rs, nil
}

// open returns a document's body, or nil after adding to its Problems why
// there is none.
func (w *walker) open(it *item) io.ReadCloser {
	d := it.doc
	if it.crossFrom != nil && !w.crossHostAllowed(it) {
		return nil
	}
	if d.Local {
		f, err := os.Open(d.Name)
		if err != nil {
			d.add(problem(FetchFailed, err, "cannot read: %v", unwrapPathErr(err)))
			return nil
		}
		return f
	}
	if w.o.Offline {
		d.add(problem(FetchFailed, nil, "not fetched: --offline"))
		return nil
	}
	if w.ctx.Err() != nil || w.stopped.Load() {
		return nil // no request once the walk is given up
	}
	body, rs, p := w.f.open(w.ctx, d.Name)
	if p != nil && w.ctx.Err() != nil {
		return nil
	}
	if body != nil || p.Kind == HTTPStatus {
		d.Redirects = rs
		for _, h := range rs {
			d.add(problem(Redirected, nil, "%d redirect from %s to %s", h.StatusCode, h.From, h.To))
		}
	}
	if p != nil {
		if p.Kind == HTTPStatus || p.Kind == FetchFailed && !errors.Is(p.Err, fetch.ErrRedirectLoop) {
			p.msg += it.note
		}
		d.add(p)
		return nil
	}
	return body
}

func redirects(hops []fetch.Hop) []Redirect {
	var rs []Redirect
	for _, h := range hops {
		rs = append(rs, Redirect{From: h.From, To: h.To, StatusCode: h.StatusCode})
	}
	return rs
}

// crossHostAllowed applies the cross-host rule to a child on another host
// than its index: it sets the child's scope URL, or adds the CrossHost
// finding and returns false.
func (w *walker) crossHostAllowed(it *item) bool {
	d := it.doc
	scope, ok := w.crossHostOK(d.URL, it.crossFrom)
	if !ok {
		d.add(problem(CrossHost, nil, "listed by %s on another host, and neither host's robots.txt has a Sitemap: line naming it; not read", d.Parent))
		return false
	}
	d.URL = scope
	return true
}

// otherHost reports whether the child's URL is on another scheme or host
// than the index's, for the cross-host rule (false when it cannot be
// parsed).
func otherHost(index *url.URL, child string) bool {
	cu, err := url.Parse(child)
	return err == nil && !(strings.EqualFold(index.Host, cu.Host) && index.Scheme == cu.Scheme)
}

// crossHostOK decides whether child, a sitemap on another host than the
// index at pu that lists it, may be read: when the robots.txt of the
// child's host or of the index's host names it (cross-submission). It
// then returns the scope URL for the child's entries: the index's site,
// whose URLs they must be.
func (w *walker) crossHostOK(child string, pu *url.URL) (scope string, ok bool) {
	cu, err := url.Parse(child)
	if err != nil {
		return child, true
	}
	for _, host := range []*url.URL{cu, pu} {
		e := w.f.robotsFor(w.ctx, host)
		for _, sm := range e.r.Sitemaps {
			if sm.URL == child {
				return pu.Scheme + "://" + pu.Host + "/" + path.Base(cu.Path), true
			}
		}
	}
	return "", false
}

// robotsMaxKiB is the part of a robots.txt that is read, for messages.
const robotsMaxKiB = robots.MaxBytes >> 10
