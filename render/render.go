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
	"sync"
	"time"

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
// it, serialised as HTML.
func (c *Chromium) Render(ctx context.Context, url string) ([]byte, error) {
	c.once.Do(c.start)
	if c.err != nil {
		return nil, c.err
	}
	select {
	case c.tabs <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.tabs }()
	tab, cancelTab := chromedp.NewContext(c.browser)
	defer cancelTab()
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tctx, cancel := context.WithTimeout(tab, timeout)
	defer cancel()
	// The crawl's own context ends the rendering too.
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		return nil, fmt.Errorf("render %s: %w", url, err)
	}
	html, err := chromedp.Run(tctx, chromedp.OuterHTML("html"))
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", url, err)
	}
	return []byte(html), nil
}

// Close stops the browser.
func (c *Chromium) Close() error {
	for _, stop := range c.stop {
		stop()
	}
	return nil
}
