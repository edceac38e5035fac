package submit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/state"
)

// Options say what Submit announces and where.
type Options struct {
	// Dir, Name and PublicURL locate the published set (publish.Options'
	// fields of the same names, defaults applied); Base is the site.
	Dir, Name, PublicURL, Base string
	// Manifest is publish.Options.Manifest: where the set's manifest is
	// kept, when not in Dir.
	Manifest string
	// Outbox is the state's (state.Store.Outbox): the changes to send and
	// the notifications pending.
	Outbox *state.Outbox
	// Robots is the robots.txt file to keep the set's Sitemap: lines in;
	// "" for none.
	Robots string
	// IndexNow, when set, is told the URLs each run added, changed and
	// removed. Its Key, when empty, is the one the state keeps (made on
	// first use); its key file is published in Dir, and each request
	// names it at PublicURL (unless KeyLocation is set).
	IndexNow *IndexNow
	// WebSub and Hubs: each hub is told when the feed (feed.xml in Dir)
	// changed since it was last told (a hub given later is told once).
	WebSub *WebSub
	Hubs   []string
	// SearchConsole, when set, is asked to read each index whose bytes
	// changed since it was last submitted to its property (or is new).
	SearchConsole *SearchConsole
	// Pings are URL templates of engines that still take a ping, with
	// {sitemap} for the escaped URL of the index: called (GET) when an
	// index changed since that ping was last called for it, like Search
	// Console. Never a default: Google's and
	// Bing's are gone.
	Pings  []string
	Client *http.Client // for pings
	// Force submits every index to Search Console and the pings, and the
	// feed to each hub, changed or not.
	Force bool
	// DryRun sends nothing and writes nothing (robots.txt, the key
	// file): Report.Requests says what would be sent. Give it an Outbox of
	// a throwaway copy of the state (state.OpenCopy): it is queued into
	// as a run would.
	DryRun bool
	// Sent, when set, is called after each attempt, before the outbox
	// records it: progress for a long run.
	Sent func(it state.Item, err error)
}

// A Report says what Submit did.
type Report struct {
	Robots   string       // what became of robots.txt ("" when not kept)
	Sent     []state.Item // accepted
	Pending  []state.Item // still pending: LastError says why
	Held     []state.Item // pending for a channel this run does not use: kept for when it does
	Requests []string     // with DryRun: each request that would be sent
}

// feedFile is the feed's name in Dir (see package feed).
const feedFile = "feed.xml"

// Submit keeps robots.txt, queues what the state's published runs
// changed, and sends every notification pending, marking each done as it
// is accepted. Requests that fail are left pending (Report.Pending), for
// the next call; so are, unsent, the others for a server that still
// refused after the retries (429, 5xx, no answer).
func Submit(ctx context.Context, o Options) (*Report, error) {
	rep := &Report{}
	files, err := publish.Published(publish.Options{Dir: o.Dir, Name: o.Name, PublicURL: o.PublicURL, Base: o.Base, Manifest: o.Manifest})
	if err != nil {
		return nil, err
	}
	var tops []publish.File
	for _, f := range files {
		if f.Index {
			tops = append(tops, f)
		}
	}
	if len(tops) == 0 && len(files) == 1 {
		tops = files // a lone sitemap is its own index
	}
	if len(tops) == 0 {
		where := "its manifest is not in " + o.Dir + ": run generate first, or give the manifest's place (generate --manifest) to submit too"
		if o.Manifest != "" {
			where = o.Manifest + " records none: run generate first"
		}
		return nil, fmt.Errorf("no sitemap set %q is published in %s (%s)", o.Name, o.Dir, where)
	}
	if sc := o.SearchConsole; sc != nil {
		// Google refuses a sitemap outside the property, every time: each
		// run would send it, fail, and keep it pending.
		for _, f := range tops {
			if !sc.Contains(f.URL) {
				return nil, fmt.Errorf("search console property %s does not contain the sitemap %s, and Search Console takes none outside it: give the property of the sitemap's site (a URL prefix it starts with, or sc-domain: with its domain)", sc.Property, f.URL)
			}
		}
	}
	if err := o.keepRobots(tops, rep); err != nil {
		return nil, err
	}
	if o.IndexNow != nil && o.IndexNow.Key == "" {
		key, err := o.Outbox.Setting(ctx, "indexnow-key")
		if err != nil {
			return nil, err
		}
		if key == "" {
			key = NewKey()
			if !o.DryRun {
				if err := o.Outbox.SetSetting(ctx, "indexnow-key", key); err != nil {
					return nil, err
				}
			}
		}
		o.IndexNow.Key = key
	}
	if in := o.IndexNow; in != nil && in.KeyLocation == nil && o.PublicURL != "" {
		// The key file is published with the set, at PublicURL: the
		// request names it there. IndexNow then takes URLs under that
		// folder alone, and the set's are (the protocol's scope rule).
		// PublicURL may be Base, and Base a folder below the root.
		if pu, err := url.Parse(o.PublicURL); err == nil {
			c := *in // the caller's is left as it was
			c.KeyLocation = func(scheme, host string) string {
				if host == pu.Host {
					return o.PublicURL + c.Key + ".txt"
				}
				return scheme + "://" + host + "/" + c.Key + ".txt"
			}
			o.IndexNow = &c
		}
	}
	// A dry run works on a copy of the state (state.OpenCopy): it queues
	// as a run would, and sends nothing.
	if err := o.queue(ctx, tops); err != nil {
		return nil, err
	}
	pending, err := o.Outbox.Pending(ctx)
	if err != nil {
		return nil, err
	}
	if o.DryRun {
		for _, it := range pending {
			if o.enabled(it.Channel) {
				rep.Requests = append(rep.Requests, o.describe(it))
			} else {
				rep.Held = append(rep.Held, it)
			}
		}
		return rep, nil
	}
	if o.IndexNow != nil {
		// Published with the set, every time: a deploy folder built
		// afresh must not lose it (the file is left alone when it holds
		// the key already).
		if _, err := publish.WriteFile(o.Dir, o.IndexNow.Key+".txt", []byte(o.IndexNow.Key)); err != nil {
			return nil, err
		}
	}
	// A server still refusing after the retries (429, 5xx, no answer) is
	// sent nothing more this run: each of its other notifications would be
	// refused the same way, after retries of its own.
	busy := map[string]string{} // destination → why
	// A URL that changed in several runs whose notifications were left
	// pending is in each: IndexNow asks for one URL not to be sent again
	// within minutes, so a run sends it once.
	told := map[string]bool{}
	for _, it := range pending {
		if !o.enabled(it.Channel) {
			// Queued when the channel was on: kept for when it is again,
			// and not an error of this run.
			rep.Held = append(rep.Held, it)
			continue
		}
		if why, ok := busy[destination(it)]; ok {
			it.LastError = it.Channel + ": not sent: " + why
			rep.Pending = append(rep.Pending, it)
			continue
		}
		if it.URLs, err = o.Outbox.URLs(ctx, it.ID); err != nil {
			return rep, err
		}
		if it.Channel == "indexnow" {
			it.URLs = slices.DeleteFunc(it.URLs, func(u string) bool { return told[u] })
			if it.Count = len(it.URLs); it.Count == 0 {
				// Each of its URLs was accepted in an earlier request of
				// this run.
				if err := o.Outbox.Done(ctx, it.ID); err != nil {
					return rep, err
				}
				continue
			}
		}
		err := o.send(ctx, it)
		if err == nil && it.Channel == "indexnow" {
			for _, u := range it.URLs {
				told[u] = true
			}
		}
		if o.Sent != nil {
			o.Sent(it, err)
		}
		it.URLs = nil // not kept: a backlog may be millions
		switch {
		case err == nil:
			if err := o.Outbox.Done(ctx, it.ID); err != nil {
				return rep, err
			}
			rep.Sent = append(rep.Sent, it)
		case ctx.Err() != nil:
			return rep, ctx.Err()
		default:
			var e *Error
			if errors.As(err, &e) && e.Retry {
				why := e.Msg
				if e.Status != 0 {
					why = fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
				}
				busy[destination(it)] = "the server refused an earlier request of this run after retries (" + why + ")"
			}
			it.LastError = err.Error()
			if err := o.Outbox.Failed(ctx, it.ID, err); err != nil {
				return rep, err
			}
			rep.Pending = append(rep.Pending, it)
		}
	}
	return rep, nil
}

// keepRobots keeps the Sitemap: lines of robots.txt.
func (o *Options) keepRobots(tops []publish.File, rep *Report) error {
	if o.Robots == "" {
		return nil
	}
	var urls []string
	for _, f := range tops {
		urls = append(urls, f.URL)
	}
	robotsURL, err := url.Parse(o.Base + "robots.txt")
	if err != nil {
		return err
	}
	ours := SetSitemaps(o.PublicURL, o.Name)
	if o.DryRun {
		old, _ := os.ReadFile(o.Robots)
		if _, changed := Robots(old, robotsURL, urls, ours); changed {
			rep.Robots = o.Robots + " would be updated"
		} else {
			rep.Robots = o.Robots + " lists the set already"
		}
		return nil
	}
	wrote, err := WriteRobots(o.Robots, robotsURL, urls, ours)
	switch {
	case err != nil:
		return err
	case wrote:
		rep.Robots = o.Robots + " updated"
	default:
		rep.Robots = o.Robots + " lists the set already"
	}
	return nil
}

// due reports whether the destination whose record is key is to be told
// of now (a content's sum): it was told of something else, or of nothing,
// or Force is set; settings then takes the record's new value.
func (o *Options) due(ctx context.Context, settings map[string]string, key, now string) (bool, error) {
	last, err := o.Outbox.Setting(ctx, key)
	if err != nil {
		return false, err
	}
	if last == now && !o.Force {
		return false, nil
	}
	settings[key] = now
	return true, nil
}

// queue writes to the outbox what changed since the last call: the runs'
// URLs for IndexNow, the changed indexes for Search Console and the pings,
// the changed feed for WebSub.
func (o *Options) queue(ctx context.Context, tops []publish.File) error {
	var items []state.Item
	settings := map[string]string{}
	// A request to Search Console, a ping or a hub names the file, not its
	// version: one still pending tells of the file as it is when it is
	// sent. Another for the same target would be the same request again,
	// sent right after it.
	pending, err := o.Outbox.Pending(ctx)
	if err != nil {
		return err
	}
	queued := map[string]bool{}
	for _, it := range pending {
		if it.Channel != "indexnow" {
			queued[it.Channel+" "+it.Target] = true
		}
	}
	add := func(it state.Item) {
		if !queued[it.Channel+" "+it.Target] {
			queued[it.Channel+" "+it.Target] = true
			items = append(items, it)
		}
	}
	// Each destination keeps its own record of what it was last told: one
	// added later (a Search Console property, a ping, a hub) is told of
	// every index, or of the feed, once, not only of those that change
	// after.
	for _, f := range tops {
		now := f.Sum + " " + fmt.Sprint(f.Bytes)
		if sc := o.SearchConsole; sc != nil {
			if due, err := o.due(ctx, settings, "submitted search-console "+sc.Property+" "+f.URL, now); err != nil {
				return err
			} else if due {
				add(state.Item{Channel: "search-console", Target: f.URL})
			}
		}
		for _, p := range o.Pings {
			if due, err := o.due(ctx, settings, "submitted ping "+p+" "+f.URL, now); err != nil {
				return err
			} else if due {
				add(state.Item{Channel: "ping", Target: strings.ReplaceAll(p, "{sitemap}", url.QueryEscape(f.URL))})
			}
		}
	}
	if len(o.Hubs) > 0 {
		if data, err := os.ReadFile(filepath.Join(o.Dir, feedFile)); err == nil {
			sum := sha256.Sum256(data)
			now := hex.EncodeToString(sum[:])
			for _, h := range o.Hubs {
				if due, err := o.due(ctx, settings, "published feed "+h, now); err != nil {
					return err
				} else if due {
					add(state.Item{Channel: "websub", Target: h, URLs: []string{o.PublicURL + feedFile}})
				}
			}
		}
	}
	var b state.Batching
	if o.IndexNow != nil {
		b = state.Batching{Max: MaxIndexNowURLs, Host: func(u string) string {
			p, err := url.Parse(u)
			if err != nil {
				return ""
			}
			return p.Host
		}}
	}
	return o.Outbox.Queue(ctx, items, settings, b)
}

// enabled reports whether the channel is configured in this run.
func (o *Options) enabled(channel string) bool {
	switch channel {
	case "indexnow":
		return o.IndexNow != nil
	case "search-console":
		return o.SearchConsole != nil
	case "websub":
		return len(o.Hubs) > 0
	case "ping":
		return len(o.Pings) > 0
	}
	return false
}

// send sends one item through its channel.
func (o *Options) send(ctx context.Context, it state.Item) error {
	switch it.Channel {
	case "indexnow":
		if o.IndexNow == nil {
			return errors.New("indexnow is off now")
		}
		return o.IndexNow.Send(ctx, Batch{Host: it.Target, URLs: it.URLs})
	case "websub":
		ws := o.WebSub
		if ws == nil {
			ws = &WebSub{}
		}
		return ws.Publish(ctx, it.Target, it.URLs[0])
	case "search-console":
		if o.SearchConsole == nil {
			return errors.New("the search console property is no longer configured")
		}
		return o.SearchConsole.Submit(ctx, it.Target)
	case "ping":
		status, body, err := send(ctx, o.Client, Retry{}, postBody(ctx, http.MethodGet, it.Target, "", nil))
		if err == nil && status >= 200 && status < 300 {
			return nil
		}
		return answerError("ping", it.Target, status, body, err, nil)
	}
	return fmt.Errorf("unknown channel %q", it.Channel)
}

// destination names the server an item is sent to.
func destination(it state.Item) string {
	switch it.Channel {
	case "websub":
		return "websub " + it.Target
	case "ping":
		if u, err := url.Parse(it.Target); err == nil {
			return "ping " + u.Host
		}
		return "ping " + it.Target
	}
	return it.Channel // one endpoint for all its items
}

// describe says what request an item is, without its secrets.
func (o *Options) describe(it state.Item) string {
	switch it.Channel {
	case "indexnow":
		endpoint := DefaultIndexNow
		if o.IndexNow != nil && o.IndexNow.Endpoint != "" {
			endpoint = o.IndexNow.Endpoint
		}
		n := fmt.Sprintf("%d URLs", it.Count)
		if it.Count == 1 {
			n = "1 URL"
		}
		return fmt.Sprintf("POST %s  IndexNow: %s of %s", redact(endpoint), n, it.Target)
	case "websub":
		return fmt.Sprintf("POST %s  hub.mode=publish&hub.url=%s", redact(it.Target), o.PublicURL+feedFile)
	case "search-console":
		return fmt.Sprintf("PUT  Search Console sitemaps.submit %s", it.Target)
	}
	return "GET  " + redact(it.Target)
}
