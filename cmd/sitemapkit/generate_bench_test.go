package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkGenerateCSV times the whole command on the benchmark harness's
// workload (../shared/bench): 1,000,000 CSV rows to gzipped children and an
// index, as `generate --gzip` does (default) and with --no-dedupe.
func BenchmarkGenerateCSV(b *testing.B) {
	const n = 1000000
	in := benchWorkload(b, n)
	st, _ := os.Stat(in)
	// "default" is what users run (de-duplication on); "no-dedupe" the
	// least the command does.
	for _, bc := range []struct {
		name  string
		flags []string
	}{{"default", nil}, {"no-dedupe", []string{"--no-dedupe"}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(st.Size())
			for i := 0; b.Loop(); i++ {
				out := filepath.Join(b.TempDir(), fmt.Sprint(i))
				args := append([]string{"generate", "-q", "--base", genBase, "--out", out, "--gzip", in}, bc.flags...)
				if code := run(context.Background(), args, nil, io.Discard, io.Discard); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
		})
	}
}

// benchCSV writes n rows of a CSV of URLs and dates, edit's suffix to
// each row's date, to a file and returns it.
func benchCSV(b *testing.B, n int, edit func(i int) string) string {
	in := filepath.Join(b.TempDir(), "in.csv")
	f, err := os.Create(in)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("loc,lastmod\n")
	for i := range n {
		fmt.Fprintf(w, "https://www.example.com/catalog/item-%d.html,2024-01-%02d%s\n", i, i%28+1, edit(i))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return in
}

// BenchmarkGenerateState times generate against the state of 1,000,000
// URLs from a CSV: "nostate" is the same generate without state, the
// figure a rerun without change is held to (within 2×); "nochange" a
// rerun that must write nothing into --out; "changed" reruns that each
// change 1,000 URLs of one file (of 20), which must rewrite that file
// alone. It reports the state's size per URL.
func BenchmarkGenerateState(b *testing.B) {
	const n = 1000000
	same := benchCSV(b, n, func(int) string { return "" })
	// Rows 120,000 to 120,999 are in file 3.
	changed := benchCSV(b, n, func(i int) string {
		if i >= 120000 && i < 121000 {
			return "T10:00:00Z"
		}
		return ""
	})
	work := b.TempDir()
	gen := func(b *testing.B, out string, args ...string) string {
		var stdout strings.Builder
		code := run(context.Background(), append([]string{"generate", "--base", genBase, "--out", out, "--gzip"}, args...),
			nil, &stdout, io.Discard)
		if code != exitOK {
			b.Fatalf("exit %d", code)
		}
		return stdout.String()
	}
	perURL := func(b *testing.B) {
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
	}
	b.Run("nostate", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			gen(b, filepath.Join(work, fmt.Sprint("n", i)), same)
		}
		perURL(b)
	})
	st := filepath.Join(work, "state.db")
	out := filepath.Join(work, "out")
	gen(b, out, "--state", st, same)
	info, err := os.Stat(st)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("nochange", func(b *testing.B) {
		for b.Loop() {
			if s := gen(b, out, "--state", st, same); !strings.Contains(s, "No change: nothing was written") {
				b.Fatalf("a rerun without change wrote:\n%s", s)
			}
		}
		perURL(b)
		b.ReportMetric(float64(info.Size())/n, "state-bytes/URL")
	})
	b.Run("changed", func(b *testing.B) {
		inputs := []string{changed, same}
		for i := 0; b.Loop(); i++ {
			s := gen(b, out, "--state", st, inputs[i%2])
			if !strings.Contains(s, "1,000 changed") || !strings.Contains(s, "Files: 1 written, 19 kept") {
				b.Fatalf("1,000 URLs of one file changed:\n%s", s)
			}
		}
		perURL(b)
	})
}

// benchWorkload writes the benchmark harness's workload (../shared/bench):
// n CSV rows of loc (with a bare &), lastmod, changefreq and priority.
func benchWorkload(b testing.TB, n int) string {
	in := filepath.Join(b.TempDir(), "in.csv")
	f, err := os.Create(in)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("loc,lastmod,changefreq,priority\n")
	for i := range n {
		fmt.Fprintf(w, "https://www.example.com/catalog/item-%d?color=red&size=M&ref=%d,2024-01-%02dT10:00:00+00:00,weekly,0.5\n", i, i%97, i%28+1)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return in
}

// BenchmarkReadValidate times read (each --format) and validate of the
// set generate makes of the harness's workload: an index and 20 gzipped
// children of 50,000 URLs, the corpus of ../shared/bench's parse rows.
func BenchmarkReadValidate(b *testing.B) {
	const n = 1000000
	in := benchWorkload(b, n)
	out := filepath.Join(b.TempDir(), "set")
	if code := run(context.Background(), []string{"generate", "-q", "--base", genBase, "--out", out, "--gzip", "--no-dedupe", in},
		nil, io.Discard, io.Discard); code != exitOK {
		b.Fatalf("generate: exit %d", code)
	}
	index := filepath.Join(out, "sitemap.xml")
	for _, bc := range []struct {
		name string
		args []string
		code int
	}{
		{"read-jsonl", []string{"read", "--format", "jsonl", index}, exitOK},
		{"read-csv", []string{"read", "--format", "csv", index}, exitOK},
		{"read-text", []string{"read", "--format", "text", index}, exitOK},
		{"validate", []string{"validate", "-q", "--base", genBase, index}, exitOK},
		// The harness's corpus: children in /sitemaps/, URLs at the root,
		// a url-outside-directory error on every URL.
		{"validate-outside", []string{"validate", "-q", "--base", genBase + "sitemaps/", index}, exitInputErrors},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if code := run(context.Background(), bc.args, nil, io.Discard, io.Discard); code != bc.code {
					b.Fatalf("exit %d, want %d", code, bc.code)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
		})
	}
}
