package source

import (
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// dbLayouts are the date-times databases and their exports write, that
// W3C's datetime (and so a sitemap) does not take as they are: a space
// for the "T", no seconds, a zone without its colon, or no zone at all.
var dbLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999 Z07:00",
	"2006-01-02 15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999 Z0700",
	"2006-01-02 15:04:05.999999999Z07",
	// A zone named, not numbered, only as UTC or GMT: time.Parse reads
	// another abbreviation ("PST", "CEST") at +00:00 unless it is the
	// machine's own zone's, which would move the time by hours, or not,
	// depending on the machine. Left as it is, the Writer refuses it.
	"2006-01-02 15:04:05.999999999 UTC",
	"2006-01-02 15:04:05.999999999 GMT",
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02T15:04:05.999999999Z07",
	"2006-01-02 15:04Z07:00",
}

// zonelessLayouts are those without a zone: their wall clock is read in
// the zone the user says (FilterOptions.Timezone), UTC by default.
var zonelessLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
}

// dbDate rewrites a date-time as a database spells it (SQLite's
// CURRENT_TIMESTAMP "2024-05-02 10:00:00", PostgreSQL's text
// "2024-05-02 10:00:00+02") into the W3C form a sitemap takes, reading a
// value without a zone in tz. ok is false for a value that is W3C already,
// or that no layout reads (the Writer then refuses it, saying why);
// zoneless says tz was used.
func dbDate(s string, tz *time.Location) (w3c string, zoneless, ok bool) {
	// A W3C value has a "T" at 10 and ends with its zone: most values,
	// which must cost no parse.
	if len(s) < 16 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') {
		return "", false, false
	}
	if s[10] == 'T' {
		// Ending in Z or ±hh:mm, it is W3C or nothing a database writes
		// (theirs have no colon in the zone, or none): the Writer checks
		// it. Most values stop here, unparsed.
		if n := len(s); s[n-1] == 'Z' || (s[n-6] == '+' || s[n-6] == '-') && s[n-3] == ':' {
			return "", false, false
		}
		if _, err := sitemap.ParseDate(s); err == nil {
			return "", false, false
		}
	}
	s = strings.TrimSpace(s)
	for _, l := range dbLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return sitemap.FormatDate(t), false, true
		}
	}
	if tz == nil {
		tz = time.UTC
	}
	for _, l := range zonelessLayouts {
		if t, err := time.ParseInLocation(l, s, tz); err == nil {
			return sitemap.FormatDate(t), true, true
		}
	}
	return "", false, false
}
