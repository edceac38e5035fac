// Package longtest marks the tests that take long: the kill sweep, the
// soak and memory tests over millions of rows or hashes, the 50 MB limits,
// the corpus and compression-bomb sweeps. A plain `go test ./...` skips
// them, to stay under a minute; `go test -tags long ./...` runs them, as
// .ci/run does.
package longtest

import "testing"

// Enabled reports whether the long tests run: built with -tags long, and
// not run with -short.
func Enabled() bool { return long && !testing.Short() }

// Skip skips tb, saying why it is long, unless the long tests run.
func Skip(tb testing.TB, why string) {
	tb.Helper()
	if !Enabled() {
		tb.Skip(why + ": a long test, run by go test -tags long")
	}
}
