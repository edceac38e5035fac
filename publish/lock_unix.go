//go:build unix

package publish

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// busyWait is how long lockDir tries a lock held by another descriptor
// before it reports ErrBusy.
const busyWait = 100 * time.Millisecond

// lockDir takes an exclusive advisory lock on dir, so that two runs never
// publish into one folder at once (each would take the other's temp files
// for leftovers). The lock dies with the process: a killed run leaves none.
func lockDir(dir string) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	// A child this process is starting holds a copy of every descriptor
	// until it has executed its program, and a lock lives as long as any
	// copy of its descriptor: a folder unlocked a moment before may still
	// be locked by such a copy. The kernel closes them right after the
	// child's exec, so the lock is tried again for a while (busyWait)
	// before the folder is called busy.
	for wait, waited := time.Millisecond, time.Duration(0); ; {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || waited >= busyWait {
			break
		}
		time.Sleep(wait)
		waited += wait
		wait *= 2
	}
	if err != nil {
		d.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("publish: %s: %w", dir, ErrBusy)
		}
		return nil, fmt.Errorf("publish: locking %s: %w", dir, err)
	}
	return func() { d.Close() }, nil
}
