//go:build unix

package publish

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive advisory lock on dir, so that two runs never
// publish into one folder at once (each would take the other's temp files
// for leftovers). The lock dies with the process: a killed run leaves none.
func lockDir(dir string) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	for {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		d.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("publish: %s: %w", dir, ErrBusy)
		}
		return nil, fmt.Errorf("publish: locking %s: %w", dir, err)
	}
	return func() {
		// Released, then closed: a child this process is starting holds
		// a copy of every descriptor until its exec, and a lock only
		// closed lives as long as any copy, so the folder stayed locked
		// a moment after the run (the next Builder in it failed with
		// ErrBusy). LOCK_UN releases it whatever copies remain.
		syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
		d.Close()
	}, nil
}
