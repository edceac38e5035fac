package sitemap

import (
	"strings"
	"testing"
)

// plainAmpSlow is plainAmp a byte at a time.
func plainAmpSlow(b []byte) int {
	amp := 0
	for _, c := range b {
		if c < 0x20 || c >= 0x80 {
			return 2
		}
		if c == '&' {
			amp = 1
		}
	}
	return amp
}

// TestPlainAmp puts each kind of byte at each place of values of every
// length to 24, so that the word at a time meets it in each lane, in the
// overlapping last word, and in a value shorter than a word.
func TestPlainAmp(t *testing.T) {
	for n := range 25 {
		for at := range n {
			for _, c := range []byte{'&', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff, 0x01, '%', '<'} {
				b := []byte(strings.Repeat("a", n))
				b[at] = c
				if got, want := plainAmp(b), plainAmpSlow(b); got != want {
					t.Errorf("plainAmp(%q) = %d, want %d", b, got, want)
				}
			}
		}
	}
}

// FuzzPlainAmp holds plainAmp to the byte at a time.
func FuzzPlainAmp(f *testing.F) {
	for _, s := range []string{"", "weekly", "https://www.example.com/a?b=1&amp;c=2", "2024-01-02T10:00:00+00:00", "\x00&&\x01", "é&"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := plainAmp(b), plainAmpSlow(b); got != want {
			t.Fatalf("plainAmp(%q) = %d, want %d", b, got, want)
		}
	})
}
