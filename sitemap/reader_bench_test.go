package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"strconv"
	"sync"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// The benchmark workload of ../shared/bench (internal/workload): URL i has
// loc https://www.example.com/catalog/item-<i>?color=red&size=M&ref=<i%97>,
// lastmod 2024-01-<DD>T10:00:00+00:00 with DD = i%28+1, weekly, 0.5, written
// byte for byte as the harness's baseline writes it, 50,000 URLs per file,
// gzip files compressed by the standard library as in its corpus.
const (
	rdBenchURLs    = 1000000
	rdBenchPerFile = 50000
)

func rdAppendBenchURL(dst []byte, i int) []byte {
	dst = append(dst, "<url><loc>https://www.example.com/catalog/item-"...)
	dst = strconv.AppendInt(dst, int64(i), 10)
	dst = append(dst, "?color=red&amp;size=M&amp;ref="...)
	dst = strconv.AppendInt(dst, int64(i%97), 10)
	dst = append(dst, "</loc><lastmod>2024-01-"...)
	d := i%28 + 1
	dst = append(dst, byte('0'+d/10), byte('0'+d%10))
	dst = append(dst, "T10:00:00+00:00</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>\n"...)
	return dst
}

func rdBenchFile(start, end int) []byte {
	b := []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := start; i < end; i++ {
		b = rdAppendBenchURL(b, i)
	}
	return append(b, "</urlset>\n"...)
}

var rdBenchCorpus = sync.OnceValues(func() (plain, gz [][]byte) {
	for start := 0; start < rdBenchURLs; start += rdBenchPerFile {
		p := rdBenchFile(start, start+rdBenchPerFile)
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(p)
		w.Close()
		plain = append(plain, p)
		gz = append(gz, z.Bytes())
	}
	return plain, gz
})

func rdBenchRead(b *testing.B, files [][]byte, reuse bool) {
	var raw int64
	plain, _ := rdBenchCorpus()
	for _, f := range plain {
		raw += int64(len(f))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		for k, f := range files {
			r := sitemap.NewReader(bytes.NewReader(f))
			r.ReuseURL = reuse
			for {
				u, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				if n%99991 == 0 && (u.Priority != "0.5" || u.ChangeFreq != "weekly" || len(u.LastMod) != 25) {
					b.Fatalf("file %d: wrong entry %+v", k, u)
				}
				n++
			}
		}
		if n != rdBenchURLs {
			b.Fatalf("read %d URLs, want %d", n, rdBenchURLs)
		}
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(rdBenchURLs/sec, "URLs/s")
	b.ReportMetric(float64(raw)/sec, "bytes/s")
	b.ReportMetric(sec, "s/1M-URLs")
}

// BenchmarkReadGzip reads the bench harness's corpus: 1,000,000 URLs in 20
// gzipped files.
func BenchmarkReadGzip(b *testing.B) {
	_, gz := rdBenchCorpus()
	rdBenchRead(b, gz, false)
}

// BenchmarkReadPlain reads the same files uncompressed.
func BenchmarkReadPlain(b *testing.B) {
	plain, _ := rdBenchCorpus()
	rdBenchRead(b, plain, false)
}

// BenchmarkReadGzipReuse is BenchmarkReadGzip with Reader.ReuseURL.
func BenchmarkReadGzipReuse(b *testing.B) {
	_, gz := rdBenchCorpus()
	rdBenchRead(b, gz, true)
}

// BenchmarkReadExtensions reads 100,000 URLs that each carry two images
// and two hreflang alternates: the cost of extensions, and of recording
// where each one starts (for FieldPos).
func BenchmarkReadExtensions(b *testing.B) {
	const n = 100000
	doc := []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
	for i := range n {
		s := strconv.Itoa(i)
		doc = append(doc, "<url><loc>https://www.example.com/en/p-"+s+"</loc>"+
			"<image:image><image:loc>https://cdn.example.com/"+s+"-1.jpg</image:loc></image:image>"+
			"<image:image><image:loc>https://cdn.example.com/"+s+"-2.jpg</image:loc></image:image>"+
			`<xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/p-`+s+`"/>`+
			`<xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/p-`+s+`"/></url>`+"\n"...)
	}
	doc = append(doc, "</urlset>\n"...)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		r := sitemap.NewReader(bytes.NewReader(doc))
		r.ReuseURL = true
		k := 0
		for {
			u, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if len(u.Images) != 2 || len(u.Alternates) != 2 {
				b.Fatalf("entry %d: %+v", k, u)
			}
			k++
		}
		if k != n {
			b.Fatalf("read %d URLs, want %d", k, n)
		}
	}
	b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
}
