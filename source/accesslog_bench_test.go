package source_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/sitemapkit/sitemapkit/source"
)

const benchLogLines = 200000

// logWorkload builds a combined log shaped like a real site's: most hits
// are repeats of a few thousand pages, a quarter are assets, and the rest
// are errors, redirects, POSTs and bots' probes, from IPv4 and IPv6 clients
// with real user agents. It returns the log and its number of distinct
// page URLs.
func logWorkload() ([]byte, int) {
	agents := []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
	}
	assets := []string{"/css/site.css?v=12", "/js/app.js", "/img/logo.png", "/favicon.ico", "/fonts/inter.woff2", "/robots.txt"}
	var b bytes.Buffer
	pages := map[string]bool{}
	for i := 0; i < benchLogLines; i++ {
		client := fmt.Sprintf("203.0.%d.%d", i%200, i%251)
		if i%7 == 0 {
			client = fmt.Sprintf("2001:db8::%x", i%4099)
		}
		method, status, target := "GET", 200, ""
		switch r := (i * 7919) % 100; {
		case r < 60:
			p := (i * 31) % 5000
			target = fmt.Sprintf("/catalog/category-%d/item-%d", p%40, p)
			pages[target] = true
			if r%5 == 0 {
				target += "?utm_source=newsletter&utm_medium=email"
			}
			if r%3 == 0 {
				status = 304
			}
		case r < 85:
			target = assets[i%len(assets)]
		case r < 93:
			target, status = fmt.Sprintf("/old/%d", i%900), 301
		case r < 97:
			target, status = "/wp-login.php", 404
		default:
			method, target = "POST", "/cart/add"
		}
		fmt.Fprintf(&b, "%s - - [%02d/Nov/2023:%02d:%02d:%02d +0000] \"%s %s HTTP/1.1\" %d %d \"https://www.example.com/\" \"%s\"\n",
			client, i%28+1, i%24, i%60, (i*7)%60, method, target, status, 512+i%40000, agents[i%len(agents)])
	}
	return b.Bytes(), len(pages)
}

func benchmarkLog(b *testing.B, in []byte, pages int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		l, err := source.NewLog(bytes.NewReader(in), "bench.log", source.LogOptions{Base: logBase})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, err := range l.All() {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if s := l.Stats(); n != pages || s.Lines != benchLogLines {
			b.Fatalf("%d URLs from %d lines, want %d from %d", n, s.Lines, pages, benchLogLines)
		}
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(benchLogLines)*float64(b.N)/s, "lines/s")
	b.ReportMetric(float64(len(in))*float64(b.N)/s, "bytes/s")
}

// BenchmarkAccessLog reads a 200,000-line combined log (about 45 MB).
func BenchmarkAccessLog(b *testing.B) {
	in, pages := logWorkload()
	benchmarkLog(b, in, pages)
}

// BenchmarkAccessLogGzip reads the same log gzipped, as rotated logs are;
// its bytes/s counts compressed bytes.
func BenchmarkAccessLogGzip(b *testing.B) {
	in, pages := logWorkload()
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := io.Copy(zw, bytes.NewReader(in)); err != nil {
		b.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	benchmarkLog(b, z.Bytes(), pages)
}
