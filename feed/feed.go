// Package feed writes the Atom 1.0 feed (RFC 4287) of a site's latest
// changes: the URLs most recently added or changed, each dated by its
// lastmod. Google reads a sitemap and such a feed together: the sitemap
// for every URL, the feed, fetched more often, for what is new. The feed
// is built only from what it is given, in a fixed order, so that it
// changes only when a URL does.
package feed

import (
	"bytes"
	"cmp"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// DefaultEntries is how many URLs a feed lists by default.
const DefaultEntries = 100

// A Feed is the feed of one site.
type Feed struct {
	// Self is the feed's own URL (its id and rel="self" link).
	Self string
	// Site is the site's URL: the feed's title and author name are made
	// from it.
	Site string
	// Hub is the URL of a WebSub hub (rel="hub"), or "".
	Hub string
	// Entries are the URLs the feed lists: Write lists the latest first.
	Entries []Entry
}

// An Entry is one URL of the feed.
type Entry struct {
	Loc     string
	LastMod string // a W3C date: the entry's <updated>
}

// ErrNoEntries: a feed needs an <updated>, and no entry has a date to
// give it; none is made up.
var ErrNoEntries = errors.New("feed: no URL has a lastmod: a feed needs dates, and none is made up")

// Encode returns the feed's document: its entries sorted latest first
// (then by loc), at most max of them (DefaultEntries when max ≤ 0); the
// feed's <updated> is the latest entry's. Entries without a valid date
// are left out.
func (f *Feed) Encode(max int) ([]byte, error) {
	if max <= 0 {
		max = DefaultEntries
	}
	type dated struct {
		e Entry
		t time.Time
	}
	var es []dated
	for _, e := range f.Entries {
		t, err := sitemap.ParseDate(e.LastMod)
		if err != nil || e.Loc == "" {
			continue
		}
		es = append(es, dated{e, t})
	}
	if len(es) == 0 {
		return nil, ErrNoEntries
	}
	slices.SortFunc(es, func(a, b dated) int {
		if c := b.t.Compare(a.t); c != 0 {
			return c
		}
		return cmp.Compare(a.e.Loc, b.e.Loc)
	})
	es = es[:min(len(es), max)]
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom">` + "\n")
	element(&b, "  ", "id", f.Self)
	element(&b, "  ", "title", "Latest changes to "+f.Site)
	element(&b, "  ", "updated", rfc3339(es[0].t))
	b.WriteString("  <author><name>")
	escape(&b, f.Site)
	b.WriteString("</name></author>\n")
	link(&b, "self", f.Self)
	if f.Hub != "" {
		link(&b, "hub", f.Hub)
	}
	for _, d := range es {
		b.WriteString("  <entry>\n")
		element(&b, "    ", "id", d.e.Loc)
		element(&b, "    ", "title", d.e.Loc)
		b.WriteString(`    <link href="`)
		escape(&b, d.e.Loc)
		b.WriteString(`"/>` + "\n")
		element(&b, "    ", "updated", rfc3339(d.t))
		b.WriteString("  </entry>\n")
	}
	b.WriteString("</feed>\n")
	return b.Bytes(), nil
}

// rfc3339 writes t as Atom's date construct wants it: a full date-time
// (a day alone is its midnight UTC, as ParseDate reads it).
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func element(b *bytes.Buffer, indent, name, value string) {
	b.WriteString(indent + "<" + name + ">")
	escape(b, value)
	b.WriteString("</" + name + ">\n")
}

func link(b *bytes.Buffer, rel, href string) {
	b.WriteString(`  <link rel="` + rel + `" href="`)
	escape(b, href)
	b.WriteString(`"/>` + "\n")
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

func escape(b *bytes.Buffer, s string) { escaper.WriteString(b, s) }
