package source_test

import (
	"fmt"
	"strings"

	"github.com/sitemapkit/sitemapkit/source"
)

func ExampleNewLog() {
	const log = `192.0.2.1 - - [10/Oct/2023:13:55:36 +0000] "GET /about?utm_source=x HTTP/1.1" 200 2048 "-" "Mozilla/5.0"
192.0.2.2 - - [10/Oct/2023:13:55:37 +0000] "GET /css/site.css HTTP/1.1" 200 900 "-" "Mozilla/5.0"
2001:db8::3 - - [10/Oct/2023:13:55:38 +0000] "GET /about HTTP/1.1" 304 0 "-" "Mozilla/5.0"
192.0.2.4 - - [10/Oct/2023:13:55:39 +0000] "POST /contact HTTP/1.1" 200 312 "-" "Mozilla/5.0"
192.0.2.5 - - [10/Oct/2023:13:55:40 +0000] "GET /blog/ HTTP/1.1" 200 4096 "-" "Mozilla/5.0"
garbage
`
	l, err := source.NewLog(strings.NewReader(log), "access.log", source.LogOptions{Base: "https://www.example.com"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for u, err := range l.All() {
		if err != nil {
			fmt.Println(err) // I/O or a damaged gzip stream; never a log line
			return
		}
		fmt.Println(l.Line(), u.Loc)
	}
	s := l.Stats()
	fmt.Printf("%d lines: %d URLs, %d repeats, skipped %v, %d malformed\n", s.Lines, s.URLs, s.Repeats, s.Skipped, s.Malformed)
	fmt.Println(s.Samples[0])
	// Output:
	// 1 https://www.example.com/about
	// 5 https://www.example.com/blog/
	// 6 lines: 2 URLs, 1 repeats, skipped map[asset:1 method:1], 1 malformed
	// access.log:6:1: not a Common or Combined Log Format line: no [time] field
}
