// Package fetch gets documents over HTTP the way a careful crawler must:
// with a per-fetch timeout, a User-Agent, redirects followed by hand (each
// hop recorded, loops caught) and a size cap that applies to the decoded
// body, so that a compression bomb of any Content-Encoding stops with
// "file too large" instead of filling memory.
package fetch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zlib"

	"github.com/sitemapkit/sitemapkit/internal/gunzip"
	"github.com/sitemapkit/sitemapkit/internal/zstdwin"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Defaults of a zero Client.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRedirects = 10 // RFC 9309 asks crawlers to follow at least 5
	// DefaultMaxBytes is the protocol's limit plus room for a server's
	// trailing whitespace: a sitemap larger than this is an error anyway.
	DefaultMaxBytes = sitemap.MaxBytes + 1<<20
	// MaxCodings caps the Content-Encoding codings a response may stack.
	// Each is a decoder with its own state; real servers send one, and a
	// chain of a million ("gzip, gzip, …" in a 5 MB header) would cost a
	// million decoders. Two is already unusual; four leaves room.
	MaxCodings = 4
	// MaxHeaderBytes caps a response's header, when the Client makes its
	// own transport (net/http's default allows 10 MB).
	MaxHeaderBytes = 1 << 20
)

// transport is the Client's default: http.DefaultTransport's settings,
// with the header capped at MaxHeaderBytes. One for all clients, so that
// connections are reused. Of the connections idle, any number up to the
// total (100) may be one host's: a site walk holds a few bodies of a host
// open at once, a crawl as many as its concurrency, and net/http's two a
// host closed the others as they came back, to dial them again for the
// next documents.
var transport = func() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxResponseHeaderBytes = MaxHeaderBytes
	t.MaxIdleConnsPerHost = t.MaxIdleConns
	return t
}()

// A body left unread is read at its Close, up to drainBytes and for
// drainWait at most, and a redirect's up to redirectDrainBytes (as
// net/http's Client does), so that its connection serves the next
// request: net/http closes the connection of a body closed before its
// end. Past them, it is closed.
const (
	drainBytes         = 64 << 10
	drainWait          = 50 * time.Millisecond
	redirectDrainBytes = 2 << 10
)

// UserAgent returns sitemapkit's User-Agent for a version, e.g.
// "sitemapkit/1.2.0 (+https://github.com/sitemapkit/sitemapkit)". Its
// product token, "sitemapkit", is what robots.txt groups name.
func UserAgent(version string) string {
	if version == "" {
		version = "dev"
	}
	return "sitemapkit/" + version + " (+https://github.com/sitemapkit/sitemapkit)"
}

// Errors a fetch can fail with, besides network errors. Get wraps them in
// an *Error; a Body's Read returns ErrTooLarge and ErrCompression from
// package sitemap, so that readers and checkers classify them as they do
// for local files.
var (
	ErrTooManyRedirects    = errors.New("too many redirects")
	ErrRedirectLoop        = errors.New("redirect loop")
	ErrTimeout             = errors.New("timed out")
	ErrUnsupportedEncoding = errors.New("unsupported Content-Encoding")
	ErrTooManyCodings      = fmt.Errorf("Content-Encoding header: more than %d codings", MaxCodings)
	ErrNotHTTP             = errors.New("not an http or https URL")
)

// A Client fetches documents. Set the fields before the first Get; a zero
// Client is ready to use. It is safe for concurrent use.
type Client struct {
	// UserAgent is sent with every request. Default: UserAgent("dev").
	UserAgent string
	// Timeout bounds one fetch, redirects and reading the body included.
	// Default (0): DefaultTimeout. Negative: no timeout.
	Timeout time.Duration
	// TimeoutPerRead makes Timeout bound the request up to its answer's
	// header, then each read of the body on its own, not the whole: a
	// body opened ahead and read when its turn comes (the site walk's)
	// does not run out of time while it waits; one that stalls for
	// Timeout still fails.
	TimeoutPerRead bool
	// MaxBytes caps the decoded body; reading past it fails with
	// sitemap.ErrTooLarge. Default (0): DefaultMaxBytes.
	MaxBytes int64
	// MaxRedirects is how many redirects one Get follows. Default (0):
	// DefaultMaxRedirects. Negative: none.
	MaxRedirects int
	// KeepRedirects returns a redirect as the Response (its status, and
	// its Location header) instead of following it: for a caller that
	// judges each hop itself before taking it (a crawler: scope and
	// robots.txt).
	KeepRedirects bool
	// CheckHop, when set, is asked before each redirect is followed, with
	// the URL it leads to: an error stops the Get, which returns it (in
	// an *Error, with the hops taken). For robots.txt: the first URL is
	// the caller's to check, each hop's is another fetch of its own.
	CheckHop func(ctx context.Context, to *url.URL) error
	// Transport makes the requests. Default (nil): http.DefaultTransport's
	// settings, with a response header capped at MaxHeaderBytes.
	Transport http.RoundTripper
}

// A Hop is one redirect that was followed.
type Hop struct {
	From       string // the URL that answered with a redirect
	To         string // where its Location header pointed, resolved
	StatusCode int    // 301, 302, 303, 307 or 308
}

// A Response is the final answer of a Get, after redirects.
type Response struct {
	URL        string // the final URL, after redirects
	StatusCode int
	Status     string // e.g. "404 Not Found"
	Header     http.Header
	Redirects  []Hop    // the redirects followed, in order
	Encodings  []string // the Content-Encoding codings that were decoded, as sent
	// Body is the decoded body, capped at the Client's MaxBytes. The caller
	// must close it; closing ends the fetch's timeout, after reading a
	// little of what is left unread, if anything (see drainBytes).
	Body io.ReadCloser
}

// An Error is a fetch that failed before a response could be returned.
type Error struct {
	URL       string // the URL asked for
	Redirects []Hop  // the redirects followed before the failure
	Err       error
}

func (e *Error) Error() string {
	if len(e.Redirects) > 0 {
		return e.URL + ": " + e.Err.Error() + " (after " + fmt.Sprint(len(e.Redirects)) + " redirects)"
	}
	return e.URL + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Get fetches rawURL, following redirects. Any HTTP status is returned as
// a Response (the caller decides what a 404 means); an error is returned
// only when no final response arrived: network errors, timeouts, too many
// redirects, redirect loops, an unsupported Content-Encoding.
func (c *Client) Get(ctx context.Context, rawURL string) (*Response, error) {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	fctx, cancel := context.WithCancel(ctx)
	t := &fetchTimer{timeout: timeout, cancel: cancel}
	t.start()
	resp, err := c.get(fctx, rawURL, t)
	if err != nil {
		cancel()
		if t.expired() && ctx.Err() == nil {
			err.Err = fmt.Errorf("%w after %v", ErrTimeout, timeout)
		}
		return nil, err
	}
	var network io.ReadCloser = resp.Body
	if c.TimeoutPerRead {
		// Timed read by read of the network, under the decoders: one
		// read of a gzip body may wait on many, each of which progresses.
		t.stop()
		network = &timedBody{ReadCloser: resp.Body, t: t}
	}
	body, encodings, closers, derr := c.decode(network, resp.Header)
	if derr != nil {
		resp.Body.Close()
		cancel()
		return nil, &Error{URL: rawURL, Redirects: resp.hops, Err: derr}
	}
	return &Response{
		URL:        resp.Request.URL.String(),
		StatusCode: resp.StatusCode,
		Status:     resp.Status,
		Header:     resp.Header,
		Redirects:  resp.hops,
		Encodings:  encodings,
		Body:       &fetchBody{r: body, network: network, closers: append(closers, resp.Body), cancel: cancel, ctx: ctx, t: t},
	}, nil
}

type hopResponse struct {
	*http.Response
	hops []Hop
}

func (c *Client) get(ctx context.Context, rawURL string, t *fetchTimer) (*hopResponse, *Error) {
	maxRedirects := c.MaxRedirects
	if maxRedirects == 0 {
		maxRedirects = DefaultMaxRedirects
	}
	rt := c.Transport
	if rt == nil {
		rt = transport
	}
	client := &http.Client{
		Transport: rt,
		// Redirects are followed below, so that each hop is recorded.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	ua := c.UserAgent
	if ua == "" {
		ua = UserAgent("")
	}
	var hops []Hop
	seen := map[string]bool{}
	cur := rawURL
	for {
		u, err := url.Parse(cur)
		if err != nil {
			return nil, &Error{URL: rawURL, Redirects: hops, Err: err}
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			return nil, &Error{URL: rawURL, Redirects: hops, Err: fmt.Errorf("%w: %q", ErrNotHTTP, cur)}
		}
		seen[u.String()] = true
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, &Error{URL: rawURL, Redirects: hops, Err: err}
		}
		req.Header.Set("User-Agent", ua)
		// Asking for the codings ourselves turns off net/http's transparent
		// gzip, so every coding goes through the same size cap.
		req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
		resp, err := client.Do(req)
		if err != nil {
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return nil, &Error{URL: rawURL, Redirects: hops, Err: err}
		}
		loc := resp.Header.Get("Location")
		if !isRedirect(resp.StatusCode) || loc == "" || c.KeepRedirects {
			return &hopResponse{resp, hops}, nil
		}
		io.CopyN(io.Discard, resp.Body, redirectDrainBytes)
		resp.Body.Close()
		next, err := u.Parse(loc)
		if err != nil {
			return nil, &Error{URL: rawURL, Redirects: hops, Err: fmt.Errorf("bad Location %q: %w", loc, err)}
		}
		next.Fragment = ""
		hops = append(hops, Hop{From: u.String(), To: next.String(), StatusCode: resp.StatusCode})
		if seen[next.String()] {
			return nil, &Error{URL: rawURL, Redirects: hops, Err: ErrRedirectLoop}
		}
		if len(hops) > maxRedirects || maxRedirects < 0 {
			return nil, &Error{URL: rawURL, Redirects: hops, Err: fmt.Errorf("%w (more than %d)", ErrTooManyRedirects, max(maxRedirects, 0))}
		}
		if c.CheckHop != nil && (next.Scheme == "http" || next.Scheme == "https") && next.Host != "" {
			// Not on the fetch's clock, which is paused, not restarted:
			// the check may fetch a robots.txt of its own, under its own
			// timeout. Another scheme is refused at the top of the loop,
			// not asked about.
			t.pause()
			err := c.CheckHop(ctx, next)
			if err != nil {
				return nil, &Error{URL: rawURL, Redirects: hops, Err: err}
			}
			t.resume()
		}
		cur = next.String()
	}
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// codings lists the Content-Encoding codings in the order they were
// applied, from every Content-Encoding header line; more than MaxCodings
// is ErrTooManyCodings, found without reading the rest of the header.
func codings(h http.Header) ([]string, error) {
	var out []string
	for _, v := range h.Values("Content-Encoding") {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if c != "" && c != "identity" {
				if len(out) == MaxCodings {
					return nil, ErrTooManyCodings
				}
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// decode undoes the codings, last applied first, each layer capped so that
// neither the final body nor an intermediate layer can balloon.
func (c *Client) decode(r io.Reader, h http.Header) (io.Reader, []string, []io.Closer, error) {
	limit := c.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	r = &capReader{r: r, left: limit, limit: limit}
	cs, err := codings(h)
	if err != nil {
		return nil, nil, nil, err
	}
	var closers []io.Closer
	for i := len(cs) - 1; i >= 0; i-- {
		d, err := decoder(cs[i], r)
		if err != nil {
			return nil, nil, nil, err
		}
		if c, ok := d.(io.Closer); ok {
			closers = append(closers, c)
		}
		r = &capReader{r: &codingReader{r: d, coding: cs[i]}, left: limit, limit: limit}
	}
	return r, cs, closers, nil
}

func decoder(coding string, r io.Reader) (io.Reader, error) {
	switch coding {
	case "gzip", "x-gzip":
		return &lazy{open: func() (io.Reader, error) { return gunzip.NewReader(r) }}, nil
	case "deflate":
		// RFC 9110 says zlib, but servers often send raw DEFLATE.
		br := bufio.NewReader(r)
		return &lazy{open: func() (io.Reader, error) {
			if h, err := br.Peek(2); err == nil && isZlibHeader(h) {
				return zlib.NewReader(br)
			}
			return flate.NewReader(br), nil
		}}, nil
	case "br":
		return brotli.NewReader(r), nil
	case "zstd":
		// The window is RFC 9659's most, which a server must not pass.
		br := bufio.NewReader(r)
		return &lazy{open: func() (io.Reader, error) { return zstdwin.NewReader(br, zstdwin.MaxWindow) }}, nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnsupportedEncoding, coding)
}

func isZlibHeader(h []byte) bool {
	return h[0]&0x0f == 8 && h[0]>>4 <= 7 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0
}

// lazy opens a decoder on first Read, so that a damaged header is a Read
// error (with the place in the body) rather than a failed Get. A failed
// open is the answer of every later Read too: opened again, the decoder
// would start from wherever the failed one left the body (gzip's header
// read from the middle of it, or at its end: "not gzip" read on as an
// empty document, once a reader had sniffed its head and read on).
type lazy struct {
	open func() (io.Reader, error)
	r    io.Reader
	err  error // the open's, when it failed
}

// Close releases the decoder's resources (zstd's goroutines).
func (l *lazy) Close() error {
	if c, ok := l.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func (l *lazy) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if l.r == nil {
		r, err := l.open()
		if err != nil {
			l.err = err
			return 0, err
		}
		l.r = r
	}
	return l.r.Read(p)
}

// codingReader marks a decoder's own failures as compression errors.
type codingReader struct {
	r      io.Reader
	coding string
}

func (c *codingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF && !errors.Is(err, sitemap.ErrTooLarge) && !isCtxErr(err) {
		err = fmt.Errorf("%w: Content-Encoding %s: %w", sitemap.ErrCompression, c.coding, err)
	}
	return n, err
}

func isCtxErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// capReader fails with sitemap.ErrTooLarge once more than limit bytes
// have come through.
type capReader struct {
	r     io.Reader
	left  int64
	limit int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, fmt.Errorf("%w: more than %d bytes after decoding", sitemap.ErrTooLarge, c.limit)
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		n += int(c.left)
		return n, fmt.Errorf("%w: more than %d bytes after decoding", sitemap.ErrTooLarge, c.limit)
	}
	return n, err
}

// A fetchTimer cancels a fetch when its time is up: the whole fetch's, or
// with Client.TimeoutPerRead that of each read of the network (timedBody).
type fetchTimer struct {
	timeout time.Duration // <= 0: none
	cancel  context.CancelFunc
	t       *time.Timer
	fired   atomic.Bool
	// deadline of the running timer, and what pause left of it
	deadline time.Time
	left     time.Duration
}

// start starts the timer: made once, when the fetch starts, and reset for
// each read with TimeoutPerRead (Reset and Stop may be called
// concurrently: a Close while a read waits).
func (t *fetchTimer) start() { t.run(t.timeout) }

func (t *fetchTimer) run(d time.Duration) {
	switch {
	case t.timeout <= 0:
		return
	case t.t == nil:
		t.t = time.AfterFunc(d, func() {
			t.fired.Store(true)
			t.cancel()
		})
	default:
		t.t.Reset(d)
	}
	t.deadline = time.Now().Add(d)
}

// pause stops the timer, keeping what is left of its time for resume:
// the time a fetch waits on something else (a redirect hop's robots.txt)
// is not the fetch's, nor does it give the fetch a new timeout.
func (t *fetchTimer) pause() {
	if t.t != nil {
		t.t.Stop()
		t.left = max(time.Until(t.deadline), 0)
	}
}

func (t *fetchTimer) resume() {
	if t.t != nil {
		t.run(t.left)
	}
}

func (t *fetchTimer) stop() {
	if t.t != nil {
		t.t.Stop()
	}
}

// expired reports whether the timer cancelled the fetch.
func (t *fetchTimer) expired() bool { return t.fired.Load() }

// fetchBody is a Response's Body: it ends the fetch's timeout on Close and
// names a timeout as one.
type fetchBody struct {
	r       io.Reader
	network io.Reader   // what r decodes, read to its end at Close
	closers []io.Closer // decoders first, the network body last
	cancel  context.CancelFunc
	ctx     context.Context
	t       *fetchTimer
}

// timedBody is the network's body under TimeoutPerRead: each read has
// the timeout.
type timedBody struct {
	io.ReadCloser
	t *fetchTimer
}

func (b *timedBody) Read(p []byte) (int, error) {
	if !b.t.expired() {
		b.t.start()
		defer b.t.stop()
	}
	return b.ReadCloser.Read(p)
}

func (b *fetchBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF && b.t.expired() && b.ctx.Err() == nil {
		err = fmt.Errorf("%w after %v reading the body", ErrTimeout, b.t.timeout)
	}
	return n, err
}

func (b *fetchBody) Close() error {
	if b.ctx.Err() == nil && !b.t.expired() {
		// cancel ends the fetch, and the read, past drainWait.
		t := time.AfterFunc(drainWait, b.cancel)
		io.CopyN(io.Discard, b.network, drainBytes)
		t.Stop()
	}
	var err error
	for _, c := range b.closers {
		err = c.Close()
	}
	b.t.stop()
	b.cancel()
	return err
}
