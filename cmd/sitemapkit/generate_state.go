package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/config"
	"github.com/sitemapkit/sitemapkit/feed"
	"github.com/sitemapkit/sitemapkit/fingerprint"
	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
	"github.com/sitemapkit/sitemapkit/state"
)

// killAt is the step at which the command kills itself with SIGKILL,
// named by SITEMAPKIT_TEST_KILL_AT: the kill test's way to stop a real
// process exactly between two writes of the state/set pair, where a timer
// would only hit them by chance. Unset, as it always is outside that test,
// it does nothing.
func killAt(step string) {
	if os.Getenv("SITEMAPKIT_TEST_KILL_AT") == step {
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			p.Kill()
			select {} // the signal is on its way
		}
	}
}

// runTime is the time of the run: SOURCE_DATE_EPOCH (seconds since
// 1970, the reproducible-builds convention) when set, else now.
func runTime(getenv func(string) string) (time.Time, error) {
	s := getenv("SOURCE_DATE_EPOCH")
	if s == "" {
		return time.Now().UTC().Truncate(time.Second), nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q is not a number of seconds since 1970-01-01", s)
	}
	return time.Unix(n, 0).UTC(), nil
}

// tracker is a run against the state: the command's side of package
// state (nil without --state).
type tracker struct {
	store   *state.Store
	run     *state.Run
	failed  []string // canonical locs of the current input whose read failed
	partial bool     // a read failed without naming its URL
	kept    int
	buf     []byte       // add's scratch
	url     sitemap.URL  // the URL add adds
	place   state.Placer // the Builder's Place, for add
}

// openTracker opens the state of cfg and begins a run; with dryRun, on a
// throwaway copy of it.
func openTracker(ctx context.Context, cfg *config.Config, dryRun bool, now time.Time) (*tracker, error) {
	open := state.Open
	if dryRun {
		open = state.OpenCopy
	}
	s, err := open(ctx, cfg.State)
	if err != nil {
		return nil, err
	}
	r, err := s.Begin(ctx, state.Options{Now: now, Content: cfg.Lastmod == "content", Site: siteOf(cfg.Base)})
	if err != nil {
		s.Close()
		return nil, err
	}
	return &tracker{store: s, run: r}, nil
}

// siteOf is the base URL as the state keeps it: normalised, and a
// folder's, so that "https://Example.com" and "https://example.com/" are
// one site.
func siteOf(base string) string {
	if n, err := loc.Normalize(base); err == nil {
		base = n
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base
}

func (t *tracker) close() {
	if t != nil && t.store != nil {
		t.run.Close()
		t.store.Close()
		t.store = nil
	}
}

// add adds one URL of the input src through the state, which decides its
// lastmod and file.
func (t *tracker) add(ctx context.Context, b *publish.Builder, src source.Source, group string, url sitemap.URL) error {
	// A copy in the tracker: the caller's stays on its stack.
	t.url = url
	u := &t.url
	fp, fromContent := source.FingerprintOf(src)
	if !fromContent {
		// The entry's own fields, its source's date included: the
		// source's word on change.
		t.buf = source.AppendJSONL(t.buf[:0], u, "")
		fp = fingerprint.Bytes(t.buf)
	}
	if t.place == nil {
		t.place = func(u *sitemap.URL, file int) (int, error) { return b.Place(ctx, u, file) }
	}
	err := t.run.Add(u, fp, fromContent, group, t.place)
	t.url = sitemap.URL{} // not retained: its strings may pin a source's buffer
	return err
}

// failedRead notes a record that could not be read: one whose URL is
// known (a page of a folder) keeps its previous entry (see restore); one
// whose URL is not (a folder that could not be listed) makes the run
// partial: no URL is removed from the set, since it may be among those.
func (t *tracker) failedRead(pe *source.ParseError) {
	if t == nil {
		return
	}
	if l, err := loc.Normalize(pe.Loc); pe.Loc != "" && err == nil {
		t.failed = append(t.failed, l)
	} else {
		t.partial = true
	}
}

// restore keeps the previous entries of the URLs of the input just read
// whose read failed; with all (after the last input of a partial run), of
// every URL no input gave. The Builder is back in group when it returns.
func (t *tracker) restore(ctx context.Context, b *publish.Builder, out, group string, all bool) error {
	if t == nil {
		return nil
	}
	var locs []string
	switch {
	case all && t.partial:
	case len(t.failed) > 0:
		locs = t.failed
	default:
		return nil
	}
	placeIn := func(g string) (state.Placer, error) {
		if err := b.Group(ctx, g); err != nil {
			return nil, err
		}
		return func(u *sitemap.URL, file int) (int, error) { return b.Place(ctx, u, file) }, nil
	}
	n, err := t.run.Restore(ctx, out, b.Published(), locs, placeIn)
	t.kept += n
	t.failed = t.failed[:0]
	if err != nil {
		return err
	}
	return b.Group(ctx, group)
}

// writeFeed publishes feed.xml beside the index: the latest changes the
// state knows. It returns what to say about it.
func (t *tracker) writeFeed(ctx context.Context, cfg *config.Config, o publish.Options) (string, error) {
	n := cfg.FeedEntries
	if n <= 0 {
		n = feed.DefaultEntries
	}
	latest, err := t.run.Latest(ctx, n)
	if err != nil {
		return "", err
	}
	public := o.PublicURL
	if public == "" {
		public = o.Base
	}
	f := feed.Feed{Self: public + "feed.xml", Site: o.Base, Hub: cfg.Hub}
	for _, c := range latest {
		f.Entries = append(f.Entries, feed.Entry{Loc: c.Loc, LastMod: c.LastMod})
	}
	data, err := f.Encode(n)
	if errors.Is(err, feed.ErrNoEntries) {
		return "Feed: not written, as no URL has a lastmod yet (none is made up).", nil
	}
	if err != nil {
		return "", err
	}
	wrote, err := publish.WriteFile(o.Dir, "feed.xml", data)
	if err != nil {
		return "", err
	}
	if !wrote {
		return "Feed: " + f.Self + " (unchanged).", nil
	}
	return "Feed: " + f.Self + ".", nil
}

// changeLines says what the run changed, URL by URL and file by file.
func (t *tracker) changeLines(res *publish.Result, dryRun bool, dir string) []string {
	n := t.run.Counts()
	n.Removed = t.run.Removed()
	lines := []string{fmt.Sprintf("URLs: %s added, %s changed, %s removed, %s unchanged.",
		group(n.Added), group(n.Changed), group(n.Removed), group(n.Unchanged))}
	if n.Kept > 0 {
		lines = append(lines, fmt.Sprintf("Kept as they were, after a read error: %s (previous entry and lastmod).", countOf(n.Kept, "URL")))
	}
	if t.partial {
		lines = append(lines, "An input could not be read in full: no URL was removed; a run that reads every input will remove those gone.")
	}
	var written, kept int
	for _, f := range res.Files {
		if f.Index {
			continue
		}
		if f.Kept {
			kept++
		} else {
			written++
		}
	}
	lines = append(lines, fmt.Sprintf("Files: %s written, %s kept, %s merged, %s removed.",
		group(written), group(kept), group(len(res.Moves)), group(len(res.Removed))))
	if t.run.Recovered > 0 {
		lines = append(lines, fmt.Sprintf("Run %d recorded its changes but was stopped before it recorded its set as published: this run publishes them.", t.run.Recovered))
	}
	if unchanged(res) {
		verb := "was"
		if dryRun {
			verb = "would be"
		}
		lines = append(lines, "No change: nothing "+verb+" written into "+dir+".")
	}
	return lines
}

// unchanged reports whether res left every file of the set as it was.
func unchanged(res *publish.Result) bool {
	for _, f := range res.Files {
		if !f.Kept {
			return false
		}
	}
	return len(res.Removed) == 0
}

// stateError words an error of the state for the command line.
func stateError(err error) error {
	if _, ok := errors.AsType[*state.Error](err); ok {
		return &exitError{code: exitUsage, err: err}
	}
	return &exitError{code: exitUsage, err: fmt.Errorf("%w; the published set is left as it was", err)}
}
