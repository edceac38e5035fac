package main

import (
	"context"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// stuckReader is a standard input whose writer never writes nor closes
// ("sleep 100 | sitemapkit generate -"): a Read waits for ever.
type stuckReader struct {
	once    sync.Once
	reading chan struct{} // closed at the first Read
}

func (s *stuckReader) Read([]byte) (int, error) {
	s.once.Do(func() { close(s.reading) })
	select {}
}

// TestGenerateStdinInterrupted: one signal ends a run waiting on a
// standard input that never answers, with exit 130 and nothing published.
// It waited for ever (a second signal ended it): a CI runner sends one
// SIGTERM, then kills.
func TestGenerateStdinInterrupted(t *testing.T) {
	in := &stuckReader{reading: make(chan struct{})}
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"generate", "-q", "--base", genBase, "--out", out, "-"}, in, io.Discard, io.Discard)
	}()
	<-in.reading
	cancel() // the signal
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Errorf("exit %d, want %d", code, exitInterrupted)
		}
	case <-time.After(20 * time.Second): // a hang guard, not a timing
		t.Fatal("the run still waits on its standard input after the signal")
	}
	if m, _ := filepath.Glob(filepath.Join(out, "sitemap*")); len(m) > 0 {
		t.Errorf("published %v", m)
	}
}
