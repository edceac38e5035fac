package state

import "testing"

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
	})
}
