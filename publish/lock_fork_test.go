//go:build unix

package publish

import (
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLockReleasedWhileForking: a folder unlocked can be locked again at
// once, even while the process starts other programs. A child forked and
// not yet past its exec holds a copy of every descriptor, the lock's too,
// and a lock only closed lives as long as any copy: the next run in the
// folder was refused as busy (seen in TestCrash, whose parallel subtests
// start helpers; here within a few hundred rounds).
func TestLockReleasedWhileForking(t *testing.T) {
	if _, err := exec.LookPath("true"); err != nil {
		t.Skip("no true(1)")
	}
	dir := t.TempDir()
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				exec.Command("true").Run()
			}
		}()
	}
	defer func() { stop.Store(true); wg.Wait() }()
	deadline := time.Now().Add(300 * time.Millisecond)
	for i := 0; time.Now().Before(deadline); i++ {
		unlock, err := lockDir(dir)
		if err != nil {
			t.Fatalf("lock %d, right after the last was unlocked: %v", i, err)
		}
		unlock()
	}
}
