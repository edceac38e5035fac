package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkGenerateCSV times the whole command on the benchmark harness's
// workload (../shared/bench): 1,000,000 CSV rows to gzipped children and an
// index, without de-duplication, as `generate --gzip --no-dedupe` does.
func BenchmarkGenerateCSV(b *testing.B) {
	const n = 1000000
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
	st, _ := f.Stat()
	f.Close()
	b.SetBytes(st.Size())
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		out := filepath.Join(b.TempDir(), fmt.Sprint(i))
		code := run(context.Background(), []string{"generate", "-q", "--base", genBase, "--out", out, "--gzip", "--no-dedupe", in},
			nil, io.Discard, io.Discard)
		if code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
}
