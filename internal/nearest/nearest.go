// Package nearest finds the known word a mistyped one most likely meant:
// a config key, a CSV column ("lastmode" → "lastmod").
package nearest

import (
	"math"
	"strings"
)

// Word returns the known word nearest to k, if it is near enough to be a
// typo of it ("strip_param", "max-urls", "Base"), else "". Case and "-"
// for "_" do not count.
func Word(k string, known []string) string {
	norm := strings.ToLower(strings.ReplaceAll(k, "-", "_"))
	best, bestD := "", math.MaxInt
	for _, c := range known {
		if d := distance(norm, c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= 2 && bestD*3 <= len(norm) || bestD == 0 {
		return best
	}
	if !strings.Contains(norm, "_") {
		for _, c := range known {
			if strings.ReplaceAll(c, "_", "") == norm {
				return c
			}
		}
	}
	return ""
}

// distance is the edit distance of a and b in bytes (keys are ASCII),
// where swapping two neighbours is one edit ("pahts"); long keys are
// only compared whole.
func distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return math.MaxInt / 2
	}
	// d[i][j] is the distance of a[:i] and b[:j] (optimal string alignment).
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
