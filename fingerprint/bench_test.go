package fingerprint

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// benchPage is a page of about 10 KB: head, chrome, an article of
// paragraphs and images, scripts.
func benchPage() []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A post about widgets</title>
<meta name="description" content="Widgets, and why they matter"><link rel="canonical" href="https://www.example.com/p/1">
<link rel="stylesheet" href="/css/site.3f2a.css"><script src="/js/app.9c1d.js" defer></script></head><body>
<header><nav><a href="/">Home</a> <a href="/blog/">Blog</a> <a href="/about/">About</a></nav></header><main><article>`)
	for i := range 30 {
		b.WriteString(`<p class="para">Paragraph ` + strconv.Itoa(i) + ` of a post: widgets are small devices that do one thing well, and we sell <a href="/w">many of them</a> &amp; more.</p>`)
		if i%10 == 0 {
			b.WriteString(`<img src="/img/w` + strconv.Itoa(i) + `.jpg" alt="A widget" loading="lazy">`)
		}
	}
	b.WriteString(`</article></main><footer>© 2026 Example <span>built 2026-11-24T10:00:00Z</span></footer><script>window.dataLayer=[];</script></body></html>`)
	return []byte(b.String())
}

func BenchmarkHTML(b *testing.B) {
	page := benchPage()
	for _, bc := range []struct {
		name string
		o    Options
	}{{"stream", Options{}}, {"selectors", Options{Ignore: ".ad"}}} {
		b.Run(bc.name, func(b *testing.B) {
			h, _ := New(bc.o)
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := h.HTML(bytes.NewReader(page)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}
