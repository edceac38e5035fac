package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestHeapLimitLifted: the heap limit of read and validate stays while
// little is live, and is lifted, GOGC back on, once more than three
// quarters of it is (a run that holds a million findings would otherwise
// be collected without end).
func TestHeapLimitLifted(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		t.Skip("GOMEMLIMIT or GOGC set: limitHeap leaves the heap alone")
	}
	defer func() {
		heapLimit.n.Store(0)
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(100)
	}()
	gcPercent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	// collect runs collections until liftHeapLimit has looked after
	// two more of them.
	collect := func() {
		want := heapLimit.checks.Load() + 2
		for deadline := time.Now().Add(10 * time.Second); heapLimit.checks.Load() < want; {
			if time.Now().After(deadline) {
				t.Fatal("liftHeapLimit not called after collections")
			}
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}

	const limit = 256 << 20
	limitHeap(limit)
	collect()
	if got := debug.SetMemoryLimit(-1); got != limit || gcPercent() != -1 {
		t.Fatalf("little live: limit %d, GOGC %d; want %d, off", got, gcPercent(), limit)
	}

	held := make([]byte, limit*7/8)
	for i := range held {
		held[i] = byte(i)
	}
	collect()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 || gcPercent() != 100 {
		t.Errorf("%d MiB live of a %d MiB limit: limit %d, GOGC %d; want lifted, 100", len(held)>>20, limit>>20, got, gcPercent())
	}
	runtime.KeepAlive(held)
}
