package publish

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// workload appends the loc of URL i of the shared benchmark's workload
// (../shared/bench/README.md) to dst: the raw loc, with a bare &.
func workloadLoc(dst []byte, i int) []byte {
	dst = append(dst, "https://www.example.com/catalog/item-"...)
	dst = strconv.AppendInt(dst, int64(i), 10)
	dst = append(dst, "?color=red&size=M&ref="...)
	return strconv.AppendInt(dst, int64(i%97), 10)
}

var workloadLastmods = func() (s [28]string) {
	for d := range s {
		s[d] = "2024-01-" + string(rune('0'+(d+1)/10)) + string(rune('0'+(d+1)%10)) + "T10:00:00+00:00"
	}
	return s
}()

// BenchmarkBuild publishes the shared benchmark's workload, 1,000,000 URLs,
// into a fresh folder per run: the whole library pipeline, from URLs (as a
// source would yield them, one string per loc) to files + index on disk.
func BenchmarkBuild(b *testing.B) {
	const n = 1_000_000
	for _, bc := range []struct {
		name string
		opts Options
	}{
		{"gzip", Options{Gzip: true, NoDedupe: true}},
		{"gzip+dedupe", Options{Gzip: true}},
		{"plain", Options{NoDedupe: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var raw int64
			var elapsed time.Duration
			cpu0 := cpuTime()
			for b.Loop() {
				opts := bc.opts
				opts.Dir, opts.Base = b.TempDir(), "https://www.example.com/"
				start := time.Now()
				bl, err := New(opts)
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				var buf []byte
				u := sitemap.URL{ChangeFreq: "weekly", Priority: "0.5"}
				for i := range n {
					buf = workloadLoc(buf[:0], i)
					u.Loc = string(buf)
					u.LastMod = workloadLastmods[i%28]
					if err := bl.Add(ctx, &u); err != nil {
						b.Fatal(err)
					}
				}
				res, err := bl.Publish(ctx)
				if err != nil {
					b.Fatal(err)
				}
				elapsed += time.Since(start)
				raw = 0
				for _, f := range res.Files {
					raw += f.Bytes
				}
				if res.URLs != n {
					b.Fatalf("%d URLs written", res.URLs)
				}
			}
			// The machine is shared: CPU time per URL (both goroutines)
			// says what the code costs when the wall clock is noisy.
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(n)/float64(b.N), "cpu-ns/URL")
			b.ReportMetric(float64(n)*float64(b.N)/elapsed.Seconds(), "URLs/s")
			b.ReportMetric(float64(raw)*float64(b.N)/elapsed.Seconds(), "bytes/s")
		})
	}
}
