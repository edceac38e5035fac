package state

import (
	"testing"
	"time"
)

// FuzzLastmod: any string packs or is refused, never panics; what packs
// is written back in a form that packs to the same value, the property
// that keeps an unchanged URL's entry byte for byte the same from run to
// run.
func FuzzLastmod(f *testing.F) {
	for _, s := range []string{"2024-05-01", "2024-05-01T10:00:00Z", "2024-05-01T23:59:59-05:00",
		"2024-05-01T10:00+02:00", "2024-05-01T10:00:00.123456+14:00", "0001-01-01", "2024-13-01", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lm, ok := packLastmod(s)
		if !ok {
			if lm != 0 {
				t.Fatalf("%q: refused, but packed as %x", s, lm)
			}
			return
		}
		back := lm.String()
		again, ok := packLastmod(back)
		if !ok || again != lm || again.String() != back {
			t.Fatalf("%q: packed %x, written %q, packed again %x (%v)", s, lm, back, again, ok)
		}
		// A run's time (a full time, in UTC) dated after lm: later than
		// it, a second past it at most when not already later (unless lm
		// is a day ahead or more: the run's time), and written in a form
		// that packs back to itself.
		for _, now := range []lastmod{timeLastmod(time.Unix(0, 0)), timeLastmod(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))} {
			a := now.after(lm)
			switch {
			case lm.instant()+1 >= 1<<lmShift || lm.instant() > now.instant()+maxClockLag:
				if a != now {
					t.Fatalf("%q: after, at the end of time or more than a day ahead, gave %q, want the run's time", s, a)
				}
			case a.instant() <= lm.instant():
				t.Fatalf("%q: %q dated after it is not later", s, a)
			case now.instant() <= lm.instant() && a.instant() != lm.instant()+1:
				t.Fatalf("%q: %q dated after it is more than a second past", s, a)
			}
			if b, ok := packLastmod(a.String()); !ok || b != a {
				t.Fatalf("%q: %q dated after it does not pack back (%x, %v)", s, a, b, ok)
			}
		}
	})
}
