package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"modernc.org/sqlite"

	"github.com/sitemapkit/sitemapkit/internal/longtest"
)

// TestStateKilled kills a real `sitemapkit generate --state` with SIGKILL
// at every step where the state and the published set are written (after
// reading, before and after the state's commit, after the swap, after the
// feed), after the edits of examples/lastmod/edit.sh. Each time the folder
// holds a complete set, and the next run reconciles: the edited, added
// and removed pages are recorded once, each edited or added page has a
// lastmod (the killed run's, when it committed, else the next run's), no
// other page has one, and a further run changes nothing.
func TestStateKilled(t *testing.T) {
	longtest.Skip(t, "builds the command and kills it")
	bin := filepath.Join(t.TempDir(), "sitemapkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const killedAt, nextAt = "1768464000", "1768550400" // 2026-01-15, 2026-01-16
	generate := func(t *testing.T, work, epoch, kill string) (string, error) {
		cmd := exec.Command(bin, "generate", "--config", filepath.Join(work, "sitemapkit.toml"))
		cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+epoch, "SITEMAPKIT_TEST_KILL_AT="+kill)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, step := range []string{"read", "before-commit", "committed", "swapped", "feed-written"} {
		t.Run(step, func(t *testing.T) {
			work := t.TempDir()
			copyTree(t, "../../examples/lastmod", work)
			out := filepath.Join(work, "out")
			if msg, err := generate(t, work, "1767225600", ""); err != nil {
				t.Fatalf("first run: %v\n%s", err, msg)
			}
			before := fileStates(t, out)
			if msg, err := exec.Command("sh", filepath.Join(work, "edit.sh"), filepath.Join(work, "site")).CombinedOutput(); err != nil {
				t.Fatalf("edit.sh: %v\n%s", err, msg)
			}
			msg, err := generate(t, work, killedAt, step)
			if ws, ok := err.(*exec.ExitError); !ok || ws.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("killed run: %v, want killed by SIGKILL\n%s", err, msg)
			}
			// A complete set: the old one, or the new one, whole.
			killed := genPublished(t, out, "sitemap.xml")
			if len(killed) != 12 {
				t.Errorf("after the kill: %d URLs, want 12 (the old set or the new)", len(killed))
			}
			swapped := step == "swapped" || step == "feed-written"
			if same := fileStates(t, out)["sitemap.xml"].data == before["sitemap.xml"].data; same == swapped {
				t.Errorf("after a kill at %s: index changed %v", step, !same)
			}

			msg, err = generate(t, work, nextAt, "")
			if err != nil {
				t.Fatalf("run after the kill: %v\n%s", err, msg)
			}
			committed := step != "read" && step != "before-commit"
			if committed && !swapped && !strings.Contains(msg, "stopped before it recorded its set as published") {
				t.Errorf("the run after a kill at %s does not say it recovered:\n%s", step, msg)
			}
			want := "2026-01-16T08:00:00+00:00"
			if committed {
				want = "2026-01-15T08:00:00+00:00"
			}
			const page = genBase + "blog/post-"
			edited := []string{page + "02.html", page + "10.html", page + "12.html"}
			for loc, lm := range lastmods(genPublished(t, out, "sitemap.xml")) {
				if slices.Contains(edited, loc) != (lm != "") || lm != "" && lm != want {
					t.Errorf("after a kill at %s: %s lastmod %q (want %q for the edited pages, none for the others)", step, loc, lm, want)
				}
			}
			// Each change recorded once, in the state's history.
			c, err := sqlite.NewConnector("file:" + filepath.Join(work, ".sitemapkit", "state.db") + "?mode=ro")
			if err != nil {
				t.Fatal(err)
			}
			db := sql.OpenDB(c)
			defer db.Close()
			var changes, unpublished int
			db.QueryRow(`SELECT count(*) FROM changes WHERE run > 1`).Scan(&changes)
			db.QueryRow(`SELECT count(*) FROM runs WHERE published = 0`).Scan(&unpublished)
			if changes != 4 || unpublished != 0 {
				t.Errorf("after a kill at %s: %d changes recorded after the first run (want 4: 2 changed, 1 added, 1 removed), %d runs left unpublished", step, changes, unpublished)
			}
			settled := fileStates(t, out)
			if msg, err := generate(t, work, "1768636800", ""); err != nil {
				t.Fatalf("last run: %v\n%s", err, msg)
			}
			sameStates(t, "the run after", settled, fileStates(t, out))
		})
	}
}

// TestStateMemory runs the command on 1,000,000 CSV rows with a state,
// then again without a change: the rerun's peak RSS stays within the
// issue's bound (64 MiB plus 40 bytes a URL), and it writes nothing into
// --out.
func TestStateMemory(t *testing.T) {
	longtest.Skip(t, "builds the command and runs it on a million URLs")
	const n = 1000000
	bin := filepath.Join(t.TempDir(), "sitemapkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	in := filepath.Join(work, "in.csv")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("loc,lastmod\n")
	for i := range n {
		fmt.Fprintf(w, "https://www.example.com/catalog/item-%d.html,2024-01-%02d\n", i, i%28+1)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := filepath.Join(work, "out")
	gen := func() int64 {
		return peakRSS(t, exec.Command(bin, "generate", "-q", "--base", genBase, "--out", out, "--gzip", "--state", filepath.Join(work, "state.db"), in))
	}
	gen()
	before := fileStates(t, out)
	rss := gen()
	sameStates(t, "a rerun without change", before, fileStates(t, out))
	limit := int64(64<<20) + 40*n
	t.Logf("rerun of %d URLs: peak RSS %.1f MiB (bound %.1f MiB)", n, float64(rss)/(1<<20), float64(limit)/(1<<20))
	if rss > limit {
		t.Errorf("peak RSS %d bytes, over 64 MiB + 40 bytes a URL (%d)", rss, limit)
	}
}

// TestSubmitKilled kills a real `sitemapkit submit` with SIGKILL after
// IndexNow accepted a request and before the outbox marked it done: the
// next submit sends it again (it cannot know it was accepted), and the
// one after sends nothing: nothing lost, and repeated only across a kill.
func TestSubmitKilled(t *testing.T) {
	longtest.Skip(t, "builds the command and kills it")
	bin := filepath.Join(t.TempDir(), "sitemapkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	copyTree(t, "../../examples/lastmod", work)
	n := newNotifyServers(t)
	run := func(kill, epoch string, args ...string) error {
		cmd := exec.Command(bin, append(args, "--config", filepath.Join(work, "sitemapkit.toml"))...)
		cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+epoch, "SITEMAPKIT_TEST_KILL_AT="+kill)
		_, err := cmd.CombinedOutput()
		return err
	}
	submitArgs := []string{"submit", "--robots", "none", "--indexnow-endpoint", n.in.URL}
	if err := run("", "1767225600", "generate"); err != nil {
		t.Fatal(err)
	}
	if err := run("", "1767225600", submitArgs...); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(work, "site", "blog", "post-03.html"), []byte("<main>new</main>"), 0o644)
	if err := run("", "1768464000", "generate"); err != nil {
		t.Fatal(err)
	}
	err := run("sent", "1768464000", submitArgs...)
	if ws, ok := err.(*exec.ExitError); !ok || ws.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("killed submit: %v", err)
	}
	if urls, _ := n.take(); len(urls) != 1 {
		t.Fatalf("before the kill IndexNow got %v, want post 03", urls)
	}
	if err := run("", "1768464000", submitArgs...); err != nil {
		t.Fatal(err)
	}
	if urls, _ := n.take(); !slices.Equal(urls, []string{genBase + "blog/post-03.html"}) {
		t.Errorf("after the kill IndexNow got %v, want post 03 again", urls)
	}
	if err := run("", "1768464000", submitArgs...); err != nil {
		t.Fatal(err)
	}
	if urls, _ := n.take(); len(urls) != 0 {
		t.Errorf("a third submit sent %v", urls)
	}
}

// peakRSS runs cmd to its end and returns its peak resident size, read
// from its own /proc/PID/status (VmHWM) as it runs, not from rusage: a
// child's ru_maxrss starts from this process's RSS at the fork, which
// earlier tests of the package have grown. It fails t if cmd fails.
func peakRSS(t *testing.T, cmd *exec.Cmd) (hwm int64) {
	t.Helper()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc to read a process's peak memory from")
	}
	var msg bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &msg
	}
	cmd.Stderr = &msg
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v\n%s", cmd.Args[1], err, msg.String())
			}
			return hwm
		case <-time.After(5 * time.Millisecond):
		}
		if b, err := os.ReadFile(status); err == nil {
			for line := range strings.Lines(string(b)) {
				if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					v, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
					hwm = max(hwm, v*1024)
				}
			}
		}
	}
}
