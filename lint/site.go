package lint

import (
	"context"
	"errors"
	"math"
	"net/url"
	"strings"
	"sync"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

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
	// Omitted counts, by rule name, the findings counted in Errors,
	// Warnings and Infos but not reported (Checker.MaxPerRule), for the
	// Collector's Report.
	Omitted map[string]int `json:"-"`
}

// CheckSite checks every document reachable from starts (see
// discover.Walk) with c, o.Concurrency at a time, then calls c.Finish for
// the set-wide rules. Diagnostics go to c.Report; the walk's findings
// (HTTP errors, redirects, blocked and cross-host sitemaps, robots.txt
// lines) too, as the rules of the "Fetching" group. The results are in
// walk order. o.MaxBytes caps HTTP bodies after their Content-Encoding is
// undone; a compressed sitemap's own decompression is capped by
// c.MaxBytes. It returns an error only when ctx is done.
func CheckSite(ctx context.Context, starts []string, o discover.Options, c *Checker) ([]FileResult, error) {
	o = o.WithDefaults()
	// Online, the walk checks an index's children on other hosts against
	// their robots.txt (cross-submission), so the checker leaves them be.
	c.CrossSubmission = !o.Offline
	f := discover.NewFetcher(o)
	// A document's URLs are judged by the robots.txt the walk uses: its
	// host's when it was fetched, or the file given.
	var blocked func(string) string
	if c.RobotsAgent != "" {
		blocked = func(u string) string {
			_, why := f.Allowed(ctx, u, c.RobotsAgent)
			return why
		}
	}
	var (
		files   fileResults
		wg      sync.WaitGroup
		workers = make(chan struct{}, o.Concurrency)
	)
	for d := range f.Walk(ctx, starts) {
		reportWalk(c, d)
		if d.Listing {
			continue
		}
		fr := files.add(fileRecord{name: d.Name, url: d.URL, parent: d.Parent, read: d.Body != nil})
		if d.Body == nil {
			continue
		}
		check := func() {
			defer d.Body.Close()
			var judge func(string) string
			switch {
			case blocked == nil:
			case o.Robots != "":
				judge = blocked
			case !d.Local:
				// The document's own site only: a hostile sitemap of
				// 50,000 hosts must not make 50,000 robots.txt fetches
				// (URLs on other hosts are errors of their own).
				judge = sameSite(d.URL, blocked)
			}
			res, err := c.checkDocument(ctx, d.Name, d.URL, d.Body, judge)
			if res != nil {
				fr.set(res)
			}
			var limit *discover.Error
			switch {
			case err == nil || ctx.Err() != nil:
			case errors.As(err, &limit) && limit.Kind == discover.Limit:
				c.reportf(WalkLimit, d.Name, 0, 0, "%v", limit)
			default:
				// The diagnostic names the document: its cause alone, not
				// the error's "lint: reading NAME: ".
				if cause := errors.Unwrap(err); cause != nil {
					err = cause
				}
				c.reportf(FetchError, d.Name, 0, 0, "%v", err)
			}
		}
		if d.Format == sitemap.FormatIndex {
			// Indexes are checked one at a time, in walk order, each before
			// the documents after it start: whether an index is nested
			// (listed by an index read before it) must not depend on which
			// of two concurrent checks ends first. They are small; their
			// children, read meanwhile by the walk, are the bulk.
			check()
			continue
		}
		select {
		case workers <- struct{}{}:
		case <-ctx.Done():
			d.Body.Close()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-workers }()
			check()
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		c.mu.Lock()
		c.release()
		c.mu.Unlock()
		return nil, err
	}
	c.Finish()
	out := files.all()
	for i := range out {
		if n := c.late[out[i].Name]; n != nil {
			// Found at Finish (duplicates on disk, hreflang reciprocity):
			// counted with the file's own.
			out[i].Errors += n[0]
			out[i].Warnings += n[1]
			out[i].Infos += n[2]
		}
	}
	c.late = nil
	return out, nil
}

// fileRecord is a FileResult as CheckSite keeps it until the walk is
// over: 104 bytes where a FileResult is 136 (and 144 allocated on its own,
// with a pointer to it). A walk reaches up to 100,000 documents, and what
// it keeps of each is mostly this.
type fileRecord struct {
	name, url, parent, compressed string
	omitted                       map[string]int
	bytes                         int64
	urls, errors, warnings, infos int32
	format                        uint8 // a sitemap.Format
	read                          bool
}

// set records what checking the document found.
func (r *fileRecord) set(res *DocResult) {
	r.format, r.bytes, r.compressed, r.omitted = uint8(res.Format), res.Bytes, res.Compressed, res.Omitted
	r.urls, r.errors, r.warnings, r.infos = count32(res.Entries), count32(res.Errors), count32(res.Warnings), count32(res.Infos)
}

// count32 is n in a record's count: no document holds two billion entries
// or findings, but a check does not overflow when one does.
func count32(n int) int32 { return int32(min(n, math.MaxInt32)) }

func (r *fileRecord) result() FileResult {
	return FileResult{Name: r.name, URL: r.url, Parent: r.parent, Read: r.read, Format: sitemap.Format(r.format).String(),
		URLs: int(r.urls), Bytes: r.bytes, Compressed: r.compressed,
		Errors: int(r.errors), Warnings: int(r.warnings), Infos: int(r.infos), Omitted: r.omitted}
}

// fileResults holds a walk's records in chunks, so that a record stays
// where its check fills it in without an allocation and a pointer of its
// own.
type fileResults struct {
	chunks [][]fileRecord
	n      int
}

// fileChunk is how many records a chunk holds (104 KiB).
const fileChunk = 1024

// add keeps r and returns where it is kept.
func (f *fileResults) add(r fileRecord) *fileRecord {
	if k := len(f.chunks); k == 0 || len(f.chunks[k-1]) == fileChunk {
		f.chunks = append(f.chunks, make([]fileRecord, 0, fileChunk))
	}
	last := &f.chunks[len(f.chunks)-1]
	*last = append(*last, r)
	f.n++
	return &(*last)[len(*last)-1]
}

// all returns the results in one slice, each chunk dropped once copied:
// the results are not held twice.
func (f *fileResults) all() []FileResult {
	out := make([]FileResult, 0, f.n)
	for i, c := range f.chunks {
		for j := range c {
			out = append(out, c[j].result())
		}
		f.chunks[i] = nil
	}
	return out
}

// reportWalk turns the walk's findings about d into diagnostics: each
// Kind names its rule, but a damaged index, which the checker reports
// reading its Body. A listed document that could not be read is missing
// from the line that listed it (an index's <loc>, a Sitemap: line): its
// findings are reported there, which is where it is fixed, and where CI
// annotations can show it.
func reportWalk(c *Checker, d *discover.Document) {
	for _, p := range d.Problems {
		if r := Lookup(p.Kind.String()); r != nil && p.Kind != discover.Damaged {
			if parent, line := d.MissingFrom(p); parent != "" {
				c.reportf(r, parent, line, 0, "%s: %s", d.Name, p.Error())
			} else {
				c.reportf(r, d.Name, p.Line, 0, "%s", p.Error())
			}
		}
	}
}

// sameSite returns judge for the URLs on site's scheme and host, and
// passes the others.
func sameSite(site string, judge func(string) string) func(string) string {
	u, err := url.Parse(site)
	if err != nil || u.Host == "" {
		return nil
	}
	origin, key := u.Scheme+"://"+u.Host, discover.Site(u)
	return func(loc string) string {
		if strings.HasPrefix(loc, origin) && (len(loc) == len(origin) || loc[len(origin)] == '/') {
			return judge(loc)
		}
		// The site spelled otherwise ("HTTPS://WWW.EXAMPLE.COM/", the
		// default port, a query without a path) is the site still.
		if v, err := url.Parse(loc); err != nil || discover.Site(v) != key {
			return ""
		}
		return judge(loc)
	}
}
