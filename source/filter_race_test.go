//go:build race

package source_test

// raceEnabled: the race detector makes sync.Pool drop items, so that
// allocation counts mean nothing.
const raceEnabled = true
