// Package render renders pages in headless Chromium, for a crawl of a site
// whose links or canonicals are written by JavaScript: source.Crawl asks a
// source.Renderer for the pages that look so (scripts, and no link), and
// this package is one, linked by the command that offers --render, so
// that the library does not carry a browser's driver.
package render

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// DefaultTimeout bounds one page's rendering: loading it, its scripts
// and their requests.
const DefaultTimeout = 30 * time.Second

// Chromium renders pages in one headless Chromium, started on the first
// page and driven through the DevTools protocol (chromedp). It is safe
// for concurrent use; Close stops the browser.
type Chromium struct {
	// ExecPath is the browser to run. Default: the first of chromium,
	// chromium-browser, google-chrome found on $PATH (Debian's package
	// is chromium).
	ExecPath string
	// UserAgent is the browser's User-Agent: the crawl's, so that the
	// site sees one crawler.
	UserAgent string
	// Timeout bounds one page. Default DefaultTimeout.
	Timeout time.Duration
	// Tabs is how many pages render at once. Default 2.
	Tabs int

	once    sync.Once
	err     error
	browser context.Context
	stop    []context.CancelFunc
	tabs    chan struct{}
}

// ErrNoBrowser is the error when no Chromium can be found.
var ErrNoBrowser = errors.New("render: no Chromium found (install Debian's chromium package, or give its path)")

func (c *Chromium) start() {
	path := c.ExecPath
	if path == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		c.err = ErrNoBrowser
		return
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		// As root (a CI container), Chromium refuses to start sandboxed.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		// Frames run in the page's process, so that their requests are
		// the page's, held to the crawl's rules (see Render).
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"),
	)
	if c.UserAgent != "" {
		opts = append(opts, chromedp.UserAgent(c.UserAgent))
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	c.stop = []context.CancelFunc{cancelBrowser, cancelAlloc}
	// Starts the browser now, so that a failure is the first page's.
	if err := chromedp.Do(browser); err != nil {
		c.err = fmt.Errorf("render: starting %s: %w", path, err)
		return
	}
	c.browser = browser
	n := c.Tabs
	if n <= 0 {
		n = 2
	}
	c.tabs = make(chan struct{}, n)
}

// Render loads url in a tab and returns the document as its scripts left
// it, serialised as HTML, and the URL the page's scripts navigated to ("",
// when they did not: a script's redirect).
//
// Every request the page makes goes through allow first, which may wait
// (a rate) and says whether it is made: document is true for the page's
// own navigations. Images, fonts and media are never requested: what a
// crawl reads from a page needs none of them. A request to a scheme other
// than http, https, data or blob is refused.
func (c *Chromium) Render(ctx context.Context, url string, allow func(ctx context.Context, url string, document bool) bool) ([]byte, string, error) {
	c.once.Do(c.start)
	if c.err != nil {
		return nil, "", c.err
	}
	select {
	case c.tabs <- struct{}{}:
	case <-ctx.Done():
		return nil, "", ctx.Err()
	}
	defer func() { <-c.tabs }()
	tab, cancelTab := chromedp.NewContext(c.browser)
	defer cancelTab()
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tctx, cancel := context.WithTimeout(tab, timeout)
	// The crawl's own context ends the rendering too.
	stop := context.AfterFunc(ctx, cancel)
	defer stop()

	var (
		mu       sync.Mutex
		loaded   bool   // the page's own document was asked for
		moved    string // where its scripts navigated to
		over     bool   // the tab is done: no more requests answered
		requests sync.WaitGroup
	)
	defer func() {
		cancel() // first: the requests waiting give up
		mu.Lock()
		over = true
		mu.Unlock()
		requests.Wait()
	}()
	err := chromedp.Listen(tctx, func(ev any) {
		e, ok := ev.(*fetch.EventRequestPaused)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if over {
			return
		}
		requests.Add(1)
		go func() { // allow may wait; the listener must not
			defer requests.Done()
			ok := false
			switch scheme, _, _ := strings.Cut(e.Request.URL, ":"); {
			case e.ResourceType == network.ResourceTypeImage, e.ResourceType == network.ResourceTypeMedia, e.ResourceType == network.ResourceTypeFont:
			case scheme == "data" || scheme == "blob":
				ok = true
			case scheme != "http" && scheme != "https":
			default:
				doc := e.ResourceType == network.ResourceTypeDocument && string(e.FrameID) == string(chromedp.FromContext(tctx).Target.TargetID)
				mu.Lock()
				if doc && loaded && moved == "" {
					moved = e.Request.URL
				}
				first := doc && !loaded
				loaded = loaded || doc
				mu.Unlock()
				ok = first || allow(tctx, e.Request.URL, doc)
			}
			if ok {
				chromedp.Call(tctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
			} else {
				chromedp.Call(tctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
			}
		}()
	})
	if err != nil {
		return nil, "", fmt.Errorf("render %s: %w", url, err)
	}
	// The page's own document was fetched by the crawl already, and
	// allowed: its request is not asked of allow again.
	if _, err := chromedp.Call(tctx, fetch.Enable, fetch.EnableParams{}); err != nil {
		return nil, "", fmt.Errorf("render %s: %w", url, err)
	}
	// A popup would be a tab of its own, whose requests this one does not
	// see: the page opens none.
	if _, err := chromedp.Call(tctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: "window.open = function() { return null; };"}); err != nil {
		return nil, "", fmt.Errorf("render %s: %w", url, err)
	}
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		return nil, "", fmt.Errorf("render %s: %w", url, err)
	}
	html, err := chromedp.Run(tctx, chromedp.OuterHTML("html"))
	if err != nil {
		return nil, "", fmt.Errorf("render %s: %w", url, err)
	}
	mu.Lock()
	defer mu.Unlock()
	return []byte(html), moved, nil
}

// Close stops the browser.
func (c *Chromium) Close() error {
	for _, stop := range c.stop {
		stop()
	}
	return nil
}
