//go:build unix

package publish

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// The crash test re-runs this test binary as a helper process that
// publishes a new set into a folder holding an old one, and kills it with
// SIGKILL at chosen points: by itself at a step of Publish (through hook),
// after some Adds, or from the parent after a random delay. Whatever the
// point, the folder must then hold the old set byte for byte, or the new
// set complete; and the next run must leave no temp file and no orphan.

const crashEnv = "SITEMAPKIT_BUILD_CRASH_HELPER"

var crashOpts = Options{Base: base, MaxURLs: 1000, Gzip: true}

func oldURLs() []sitemap.URL { return items(0, 5000) }

func newURLs(n int) []sitemap.URL {
	us := items(2500, 2500+n)
	for i := range us {
		if i%7 == 0 {
			us[i].LastMod = "2025-02-03"
		}
	}
	return us
}

// TestCrashHelper is the helper process; it does nothing in a normal run.
func TestCrashHelper(t *testing.T) {
	spec := os.Getenv(crashEnv)
	if spec == "" {
		t.Skip("helper process of TestCrash")
	}
	// spec: DIR;N;STEP;K — publish newURLs(N) into DIR, killing this
	// process at the K-th STEP ("add" counts Adds).
	f := strings.Split(spec, ";")
	n, _ := strconv.Atoi(f[1])
	step := f[2]
	k, _ := strconv.Atoi(f[3])
	die := func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) }
	opts := crashOpts
	opts.Dir = f[0]
	b, err := New(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	seen := 0
	b.hook = func(s string) {
		if s == step {
			if seen++; seen == k {
				die()
			}
		}
	}
	ctx := context.Background()
	for i, u := range newURLs(n) {
		if step == "add" && i == k {
			die()
		}
		if err := b.Add(ctx, &u); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
	if _, err := b.Publish(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	os.Exit(0)
}

func TestCrash(t *testing.T) {
	if os.Getenv(crashEnv) != "" {
		t.Skip("in the helper")
	}
	type point struct {
		step  string
		k     int
		delay time.Duration // kill from outside after this long instead
	}
	points := []point{
		{"add", 1, 0},              // before anything is written
		{"add", 2500, 0},           // children half written
		{"temps-written", 1, 0},    // every temp file complete
		{"pending-written", 1, 0},  // the manifest names what is coming
		{"child-renamed", 1, 0},    // some children in place
		{"child-renamed", 5, 0},    //
		{"child-renamed", 9, 0},    // every child in place
		{"index-renamed", 1, 0},    // the new index is live
		{"manifest-written", 1, 0}, // old files not yet removed
		{"none", 0, 0},             // not killed
	}
	r := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	for range 4 {
		points = append(points, point{"none", 0, time.Duration(r.Int64N(int64(150 * time.Millisecond)))})
	}
	const n = 8500
	for _, p := range points {
		t.Run(fmt.Sprintf("%s-%d-%v", p.step, p.k, p.delay), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("site"), 0o644); err != nil {
				t.Fatal(err)
			}
			opts := crashOpts
			opts.Dir = dir
			oldRes := build(t, opts, oldURLs())
			before := snapshot(t, dir)

			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s;%d;%s;%d", crashEnv, dir, n, p.step, p.k))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if p.delay > 0 {
				time.Sleep(p.delay)
				cmd.Process.Signal(syscall.SIGKILL)
			}
			err := cmd.Wait()
			killed := false
			if ee, ok := err.(*exec.ExitError); ok {
				if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					killed = true
				} else {
					t.Fatalf("helper failed: %v\n%s", err, stderr.String())
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if p.step != "none" && !killed {
				t.Fatalf("helper was not killed at %s #%d", p.step, p.k)
			}

			// The live set: the old one, byte for byte, or the new one, complete.
			after := snapshot(t, dir)
			if after["sitemap.xml"].sum == before["sitemap.xml"].sum {
				for name, st := range before {
					if strings.HasPrefix(name, ".sitemapkit-manifest-") {
						continue // may list pending files
					}
					if after[name] != st {
						t.Errorf("old set: %s changed or gone while the old index is live", name)
					}
				}
				if got := locs(readSet(t, dir, base, oldRes)); !slices.Equal(got, locs(oldURLs())) {
					t.Error("old set does not read back")
				}
			} else {
				res := &Result{Indexes: []string{base + "sitemap.xml"}}
				if got := locs(readSet(t, dir, base, res)); !slices.Equal(got, locs(newURLs(n))) {
					t.Errorf("the new index is live but its set reads back as %d URLs, want %d", len(got), n)
				}
			}

			// The next run tidies up: no temp files, no orphans.
			final := build(t, opts, newURLs(n))
			want := append(names(final.Files), "index.html", manifestName("sitemap"))
			slices.Sort(want)
			if got := listDir(t, dir); !slices.Equal(got, want) {
				t.Errorf("after the next run the folder holds\n%v\nwant\n%v", got, want)
			}
		})
	}
}
