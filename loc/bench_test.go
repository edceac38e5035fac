package loc

import (
	"github.com/sitemapkit/sitemapkit/sitemap"
	"strconv"
	"testing"
)

// workload returns n URLs of the benchmark workload (as ../shared/bench's):
// normalised ASCII URLs in scope, with a query.
func workload(n int, iri bool) []string {
	urls := make([]string, n)
	for i := range urls {
		path := "item-"
		if iri {
			path = "größe-ü-"
		}
		urls[i] = "https://www.example.com/catalog/" + path + strconv.Itoa(i) + "?color=red&size=M&ref=" + strconv.Itoa(i%97)
	}
	return urls
}

func benchScope(b *testing.B, urls []string, f func(*Scope, string) error) {
	s, err := NewScope("https://www.example.com/catalog/sitemap.xml")
	if err != nil {
		b.Fatal(err)
	}
	bytes := 0
	for _, u := range urls {
		bytes += len(u)
	}
	b.SetBytes(int64(bytes / len(urls)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := f(s, urls[i%len(urls)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
}

func apply(s *Scope, u string) error { _, err := s.Apply(u); return err }

// BenchmarkApply is the builder's case: normalised URLs, the fast path.
func BenchmarkApply(b *testing.B) { benchScope(b, workload(1024, false), apply) }

// BenchmarkApplyIRI has every URL escaped: the slow path.
func BenchmarkApplyIRI(b *testing.B) { benchScope(b, workload(1024, true), apply) }

// BenchmarkCheck is the checker's case on valid URLs.
func BenchmarkCheck(b *testing.B) { benchScope(b, workload(1024, false), (*Scope).Check) }

// BenchmarkNormalize is the check a second stage pays: Normalize on URLs
// that are normal already returns them as they are.
func BenchmarkNormalize(b *testing.B) {
	benchScope(b, workload(1024, false), func(_ *Scope, u string) error { _, err := Normalize(u); return err })
}

// BenchmarkRuleOutside is validate's case of a set published in the wrong
// folder: every URL is outside the sitemap's directory.
func BenchmarkRuleOutside(b *testing.B) {
	s, err := NewScope("https://www.example.com/sitemaps/sitemap.xml")
	if err != nil {
		b.Fatal(err)
	}
	urls := workload(1024, false)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if s.Rule(urls[i%len(urls)]) != sitemap.RuleOutsideDirectory {
			b.Fatal("not outside")
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
}
