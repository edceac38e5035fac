package source_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/sitemapkit/sitemapkit/source"
)

const benchRows = 100000

// workload builds rows shaped like ../shared/bench's generate input.
func workload(format source.Format) []byte {
	var b bytes.Buffer
	if format == source.FormatCSV {
		b.WriteString("loc,lastmod,changefreq,priority\n")
	}
	for i := 0; i < benchRows; i++ {
		loc := fmt.Sprintf("https://www.example.com/catalog/item-%d?color=red&size=M&ref=%d", i, i%97)
		lastmod := fmt.Sprintf("2024-01-%02dT10:00:00+00:00", i%28+1)
		switch format {
		case source.FormatCSV:
			fmt.Fprintf(&b, "%s,%s,weekly,0.5\n", loc, lastmod)
		case source.FormatJSONL:
			fmt.Fprintf(&b, `{"loc":%q,"lastmod":%q,"changefreq":"weekly","priority":0.5}`+"\n", loc, lastmod)
		default:
			b.WriteString(loc + "\n")
		}
	}
	return b.Bytes()
}

func benchmark(b *testing.B, format source.Format) {
	in := workload(format)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, err := range source.New(bytes.NewReader(in), "bench", format).All() {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != benchRows {
			b.Fatalf("%d rows, want %d", n, benchRows)
		}
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(benchRows)*float64(b.N)/s, "URLs/s")
	b.ReportMetric(float64(len(in))*float64(b.N)/s, "bytes/s")
}

// BenchmarkCSV reads the benchmark's CSV workload (no quotes: the fast path).
func BenchmarkCSV(b *testing.B) { benchmark(b, source.FormatCSV) }

// BenchmarkText reads a URL list.
func BenchmarkText(b *testing.B) { benchmark(b, source.FormatText) }

// BenchmarkJSONL reads the same URLs as JSON lines.
func BenchmarkJSONL(b *testing.B) { benchmark(b, source.FormatJSONL) }
