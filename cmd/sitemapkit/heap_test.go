package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// TestHeapLimitLifted: the heap limit of read and validate stays while
// little is live, and is lifted once more than three quarters of it is (a
// run that holds a million findings would otherwise be collected without
// end); GOGC is then 100, or the user's own percent, never off (nothing
// would collect the heap).
func TestHeapLimitLifted(t *testing.T) {
	heapLimitTest(t)
	gcPercent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	collect := func() { collectChecked(t) }
	const limit = 256 << 20
	for _, tc := range []struct {
		gogc          string // the environment's GOGC, set as the runtime would
		under, lifted int    // GOGC under the limit and once it is lifted
	}{
		{"", -1, 100},
		{"off", -1, 100},
		{"50", 50, 50},
	} {
		t.Run("GOGC="+tc.gogc, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			switch tc.gogc {
			case "off":
				debug.SetGCPercent(-1)
			case "50":
				debug.SetGCPercent(50)
			}
			limitHeap(limit)
			collect()
			if got := debug.SetMemoryLimit(-1); got != limit || gcPercent() != tc.under {
				t.Fatalf("little live: limit %d, GOGC %d; want %d, %d", got, gcPercent(), limit, tc.under)
			}
			held := make([]byte, limit*7/8)
			for i := range held {
				held[i] = byte(i)
			}
			collect()
			if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 || gcPercent() != tc.lifted {
				t.Errorf("%d MiB live of a %d MiB limit: limit %d, GOGC %d; want lifted, %d", len(held)>>20, limit>>20, got, gcPercent(), tc.lifted)
			}
			runtime.KeepAlive(held)
			debug.SetGCPercent(100)
		})
	}
}

// TestHeapLimitLiftedNearItsGoal: a run that holds nearly the heap's
// goal under the limit, and less than three quarters of the limit, has
// it lifted: the goal is the limit less what the runtime holds outside
// the heap, and such a run (generate --state with hundreds of files) was
// collected back to back, never lifted.
func TestHeapLimitLiftedNearItsGoal(t *testing.T) {
	heapLimitTest(t)
	const limit = 32 << 20
	debug.FreeOSMemory() // what earlier tests held would count against the limit
	limitHeap(limit)
	runtime.GC()
	goal := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(goal)
	g := int(goal[0].Value.Uint64())
	if g-limit/16 < limit/4 || g-limit/32 > limit/4*3 {
		t.Skipf("the heap's goal, %d MiB, leaves no room under the limit's three quarters", g>>20)
	}
	held := make([]byte, g-limit/32) // within a sixteenth of the goal, under ¾ of the limit
	for i := range held {
		held[i] = byte(i)
	}
	for range crowdedRuns {
		collectChecked(t)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("%d MiB live, the goal %d MiB, the limit %d MiB: not lifted", len(held)>>20, g>>20, limit>>20)
	}
	runtime.KeepAlive(held)
}

// heapLimitTest skips a test of the heap limit when the environment sets
// its own, and leaves the runtime as Go's default after it.
func heapLimitTest(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		t.Skip("GOMEMLIMIT or GOGC set: the cases set their own")
	}
	t.Cleanup(func() {
		heapLimit.n.Store(0)
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(100)
	})
}

// collectChecked runs collections until liftHeapLimit has looked after
// two more of them.
func collectChecked(t *testing.T) {
	t.Helper()
	want := heapLimit.checks.Load() + 2
	for deadline := time.Now().Add(10 * time.Second); heapLimit.checks.Load() < want; {
		if time.Now().After(deadline) {
			t.Fatal("liftHeapLimit not called after collections")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}
