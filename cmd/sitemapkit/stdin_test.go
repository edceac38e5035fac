package main

import (
	"context"
	"fmt"
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

// endlessStdin is a standard input that never ends (a producer that
// keeps writing); its WriteTo, which io.Copy uses, returns (closing done)
// once a write to it fails.
type endlessStdin struct{ done chan struct{} }

func (e *endlessStdin) Read(p []byte) (int, error) { panic("read through WriteTo") }

func (e *endlessStdin) WriteTo(w io.Writer) (int64, error) {
	defer close(e.done)
	var n int64
	for i := 0; ; i++ {
		k, err := fmt.Fprintf(w, "https://www.example.com/p%d\n", i)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
}

// TestGenerateStdinReleased: a run that ends before its standard input
// does (here --index never, past the one file's URLs) leaves no goroutine
// copying it. The copy waited for ever on a pipe nobody read, holding the
// input, in every in-process run (tests, a process that embeds run) whose
// context is never cancelled.
func TestGenerateStdinReleased(t *testing.T) {
	in := &endlessStdin{done: make(chan struct{})}
	out := filepath.Join(t.TempDir(), "out")
	code := run(context.Background(), []string{"generate", "-q", "--base", genBase, "--out", out, "--index", "never", "--max-urls", "1", "-"}, in, io.Discard, io.Discard)
	if code != exitInputErrors {
		t.Fatalf("exit %d, want %d", code, exitInputErrors)
	}
	select {
	case <-in.done:
	case <-time.After(20 * time.Second): // a hang guard, not a timing
		t.Fatal("the standard input is still copied after the run")
	}
}
