package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// cancelOnWrite cancels the walk at the first output it receives.
type cancelOnWrite struct{ cancel context.CancelFunc }

func (w cancelOnWrite) Write(p []byte) (int, error) { w.cancel(); return len(p), nil }

// A walk given up (its ctx cancelled) leaves no worker behind, even one
// whose document has more output waiting than the walk lets pile up: once
// nobody drains it, its Emits return instead of waiting forever.
func TestWalkCancelledFreesWorkers(t *testing.T) {
	dir := t.TempDir()
	var starts []string
	for i := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("s%d.xml", i))
		if err := os.WriteFile(p, []byte("<urlset/>"), 0o644); err != nil {
			t.Fatal(err)
		}
		starts = append(starts, p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var running atomic.Int64
	s := &Site{Output: cancelOnWrite{cancel}, SiteOptions: SiteOptions{Concurrency: 4}}
	chunk := make([]byte, 1<<20)
	_, err := s.Walk(ctx, starts, func(ctx context.Context, d *Document) ([]string, error) {
		running.Add(1)
		defer running.Add(-1)
		// Far more than queueLimit, whatever ctx says.
		for range 4 * queueLimit / len(chunk) {
			d.Emit(chunk)
		}
		return nil, nil
	})
	if err == nil {
		t.Fatal("Walk returned no error after its ctx was cancelled")
	}
	for deadline := time.Now().Add(time.Minute); running.Load() > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) { // a liveness bound, not a speed one
			t.Fatalf("%d workers still blocked on output nobody will read", running.Load())
		}
	}
}
