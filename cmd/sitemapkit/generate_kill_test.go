package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/longtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// TestGenerateKilled kills a real `sitemapkit generate` with SIGKILL at
// several moments (before any file, while children are being written,
// around the index swap) and checks, each time, that the folder holds a
// complete set: the previous one byte for byte, or (once the swap is done)
// the new one whole, every index naming existing, complete files. A last
// normal run then succeeds and leaves no temp file behind, and the site's
// own files are never touched.
func TestGenerateKilled(t *testing.T) {
	longtest.Skip(t, "builds the command and kills it")
	start := time.Now()
	defer func() { t.Logf("took %v", time.Since(start)) }()
	bin := filepath.Join(t.TempDir(), "sitemapkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Logf("built in %v", time.Since(start))
	dir := t.TempDir()
	site := map[string]string{"index.html": "<h1>home</h1>", "sitemap-notes.txt": "ours, not sitemapkit's", "robots.txt": "Sitemap: " + genBase + "sitemap.xml\n"}
	for name, content := range site {
		genWrite(t, dir, name, content)
	}
	args := []string{"generate", "--base", genBase, "--out", dir, "--gzip", "--max-urls", "200"}

	// The first set: 2,000 URLs in 10 children.
	first := genWrite(t, t.TempDir(), "first.txt", genNumbered(2000, "first"))
	if out, err := exec.Command(bin, append(args, first)...).CombinedOutput(); err != nil {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	live := genCheckSet(t, dir, nil, 2000)

	// Each run reads 40,000 new URLs (200 children, one index: publishing
	// them takes about a second, mostly fsync) from a pipe we feed.
	const n = 40000
	lines := genNumbered(n, "second")
	type kill struct {
		name  string
		lines int           // lines written before the kill
		eof   bool          // close the pipe (the run then publishes) before the kill
		delay time.Duration // wait before the kill
	}
	kills := []kill{
		{name: "before any file", lines: 0, delay: 20 * time.Millisecond},
		{name: "mid-children", lines: n / 2, delay: 300 * time.Millisecond},
		{name: "all read, at once", lines: n, eof: true, delay: 0},
	}
	for _, d := range []time.Duration{100, 300, 700} {
		kills = append(kills, kill{name: fmt.Sprintf("publishing, after %v", d*time.Millisecond), lines: n, eof: true, delay: d * time.Millisecond})
	}
	sawNew := false
	for _, k := range kills {
		cmd := exec.Command(bin, append(args, "-")...)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cut := 0
		for i := 0; i < k.lines; i++ {
			cut = strings.IndexByte(lines[cut:], '\n') + cut + 1
		}
		if _, err := io.WriteString(stdin, lines[:cut]); err != nil {
			t.Fatalf("%s: writing to the run: %v (stderr: %s)", k.name, err, stderr.String())
		}
		if k.eof {
			stdin.Close()
		}
		time.Sleep(k.delay)
		cmd.Process.Signal(syscall.SIGKILL)
		err = cmd.Wait()
		stdin.Close()
		exited := cmd.ProcessState.Exited() // it finished before the kill
		if exited && err != nil {
			t.Fatalf("%s: the run failed before the kill: %v\n%s", k.name, err, stderr.String())
		}
		if bytes.Contains(stderr.Bytes(), []byte("goroutine ")) {
			t.Fatalf("%s: stack trace:\n%s", k.name, stderr.String())
		}
		now := genCheckSet(t, dir, live, n)
		if now == nil {
			t.Logf("%s: the previous set is intact", k.name)
			continue
		}
		t.Logf("%s: the new set is published whole (exited=%v)", k.name, exited)
		if k.lines < n {
			t.Fatalf("%s: a new set appeared before all its input was read", k.name)
		}
		sawNew = true
		live = now
	}
	// Which kills land after the swap depends on the machine's speed.
	t.Logf("a kill came after the swap: %v", sawNew)

	// A normal run succeeds, removes the leftovers of the killed runs and
	// the files of older sets, and touches nothing else.
	out, err := exec.Command(bin, append(args, genWrite(t, t.TempDir(), "third.txt", genNumbered(120, "third")))...).CombinedOutput()
	if err != nil {
		t.Fatalf("last run: %v\n%s", err, out)
	}
	set := genCheckSet(t, dir, nil, 120)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	leftovers := false
	for _, e := range ents {
		name := e.Name()
		if _, ok := set[name]; ok {
			continue
		}
		if want, ok := site[name]; ok {
			if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
				t.Errorf("the site's %s was changed", name)
			}
			continue
		}
		if strings.HasPrefix(name, ".sitemapkit-manifest") {
			continue
		}
		t.Errorf("%s left in the folder (temp file, or a file of an older set)", name)
		leftovers = true
	}
	if leftovers {
		m, _ := os.ReadFile(filepath.Join(dir, ".sitemapkit-manifest-sitemap.json"))
		t.Logf("manifest:\n%s", m)
	}
	for name := range site {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the site's %s: %v", name, err)
		}
	}
}

// genCheckSet reads the set genPublished in dir from sitemap.xml down, failing t
// if any file it names is missing or incomplete. When the set is the one
// in prev (same sitemap.xml), every file of prev must be byte-identical and
// genCheckSet returns nil; otherwise the set must hold want URLs, and genCheckSet
// returns its files.
func genCheckSet(t *testing.T, dir string, prev map[string][]byte, want int) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("the published set names %s: %v", name, err)
		}
		files[name] = b
		return b
	}
	idx := read("sitemap.xml")
	if prev != nil && bytes.Equal(idx, prev["sitemap.xml"]) {
		for name, b := range prev {
			if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(got, b) {
				t.Fatalf("%s of the previous set changed or vanished (%v)", name, err)
			}
		}
		return nil
	}
	count := 0
	r := sitemap.NewReader(bytes.NewReader(idx))
	for {
		e, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("sitemap.xml: %v", err)
		}
		if r.Format() == sitemap.FormatURLSet {
			count++
			continue
		}
		name := path.Base(e.Loc)
		cr := sitemap.NewReader(bytes.NewReader(read(name)))
		for {
			_, err := cr.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			count++
		}
	}
	if count != want {
		t.Fatalf("the published set has %d URLs, want %d", count, want)
	}
	return files
}
