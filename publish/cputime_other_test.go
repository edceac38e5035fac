//go:build !unix

package publish

import "time"

// cpuTime is not measured here: the benchmark's cpu-ns/URL reads 0.
func cpuTime() time.Duration { return 0 }
