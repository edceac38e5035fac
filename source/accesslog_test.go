package source_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

const logBase = "https://www.example.com"

// logHit is a URL a Log returned, with the line of its first hit.
type logHit struct {
	Line int
	Loc  string
}

// readLog reads every URL of a Log; an error other than io.EOF fails the test.
func readLog(t *testing.T, l *source.Log) []logHit {
	t.Helper()
	var hits []logHit
	for u, err := range l.All() {
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if u.LastMod != "" || u.ChangeFreq != "" || u.Priority != "" {
			t.Errorf("%s: a log must not set lastmod, changefreq or priority: %+v", u.Loc, u)
		}
		hits = append(hits, logHit{l.Line(), u.Loc})
	}
	if err := l.Err(); err != nil {
		t.Fatalf("Err: %v", err)
	}
	return hits
}

func logFixture(t *testing.T, name string, o source.LogOptions) (*source.Log, []logHit) {
	t.Helper()
	if o.Base == "" {
		o.Base = logBase
	}
	l, err := source.OpenLog(filepath.Join("testdata", "accesslog", name), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, readLog(t, l)
}

// checkBalance checks that every line is counted exactly once.
func checkBalance(t *testing.T, s source.LogStats) {
	t.Helper()
	sum := s.URLs + s.Repeats + s.Malformed
	for _, n := range s.Skipped {
		sum += n
	}
	if sum != s.Lines {
		t.Errorf("URLs %d + repeats %d + malformed %d + skipped %v = %d, want the %d lines", s.URLs, s.Repeats, s.Malformed, s.Skipped, sum, s.Lines)
	}
}

// rulesWant is what testdata/accesslog/rules.log gives with the default
// options, worked out by hand line by line (see the comments there: each
// line's number is in its client address, 192.0.2.N).
var rulesWant = []logHit{
	{1, logBase + "/"},
	{2, logBase + "/about"},            // 3: the same page, 304: a repeat
	{4, logBase + "/contact"},          // HEAD counts
	{17, logBase + "/docs/manual.pdf"}, // documents are pages
	{18, logBase + "/products"},        // query dropped; 19 and 20 repeat it
	{21, logBase + "/blog/post-1"},     // "/blog/./2023/../post-1"; 22 repeats it
	{23, logBase + "/pricing"},         // absolute-form, our host
	{27, logBase + "/ipv6-page"},       // IPv6 client
	{28, logBase + "/say-%22hi%22"},    // \" in the request and the user agent
	{29, logBase + "/caf%C3%A9"},       // \xC3\xA9; 30 (raw UTF-8) and 31 (%C3%A9) repeat it
	{32, logBase + "/two%20words"},     // a raw space in the path
	{33, logBase + "/legacy"},          // HTTP/0.9: no version
	{34, logBase + "/a%22b"},           // an unescaped quote inside the request
	{38, logBase + "/short"},           // truncated after the status
	{42, logBase + "/latin"},           // a raw 0xFF in the user agent
	{43, logBase + "/caf%E9"},          // a raw Latin-1 byte in the path
	{45, logBase + "/custom-date"},     // a time in another format
	{48, logBase + "/timed"},           // extra fields after the user agent
	{49, logBase + "/Case"},            // "HTTP://WWW.EXAMPLE.COM:443/Case"
}

func TestLogRules(t *testing.T) {
	l, hits := logFixture(t, "rules.log", source.LogOptions{})
	if !reflect.DeepEqual(hits, rulesWant) {
		t.Errorf("got\n%v\nwant\n%v", hits, rulesWant)
	}
	s := l.Stats()
	want := source.LogStats{
		Lines:   52,
		URLs:    len(rulesWant),
		Repeats: 7, // lines 3, 19, 20, 22, 30, 31, 47
		Skipped: map[string]int{
			"blank":      1, // 35
			"method":     5, // 5 POST, 6 OPTIONS *, 25 CONNECT, 26 "-", 44 lower-case "get"
			"status":     4, // 7 404, 8 301, 9 500, 46 206
			"asset":      8, // 10 css, 11 js?v=3, 12 .PNG, 13 favicon.ico, 14 robots.txt, 15 sitemap.xml, 16 /.well-known/, 52 /.git/config
			"other host": 1, // 24 an open-proxy probe
			"other":      2, // 50 "www.google.com:443", 51 "../../etc/passwd"
		},
		Malformed: 5,
	}
	if s.Lines != want.Lines || s.URLs != want.URLs || s.Repeats != want.Repeats || s.Malformed != want.Malformed || !maps.Equal(s.Skipped, want.Skipped) {
		t.Errorf("stats %+v\nwant  %+v", s, want)
	}
	checkBalance(t, s)

	// The malformed lines, with the column where each goes wrong.
	wantSamples := []struct{ line, col int }{
		{36, 1},  // "Error line 1": no [time]
		{37, 45}, // the request's quote is never closed
		{39, 1},  // no identity and user
		{40, 44}, // no ` "` after the [time]: the request is not quoted
		{41, 16}, // the [time] is not closed
	}
	if len(s.Samples) != len(wantSamples) {
		t.Fatalf("%d samples, want %d: %v", len(s.Samples), len(wantSamples), s.Samples)
	}
	for i, w := range wantSamples {
		e := s.Samples[i]
		if e.File != filepath.Join("testdata", "accesslog", "rules.log") || e.Line != w.line || e.Column != w.col || !errors.Is(e, source.ErrLogLine) {
			t.Errorf("sample %d: %v (line %d, column %d), want line %d, column %d wrapping ErrLogLine", i, e, e.Line, e.Column, w.line, w.col)
		}
	}
}

func TestLogKeepParams(t *testing.T) {
	products := func(hits []logHit) []logHit {
		var out []logHit
		for _, h := range hits {
			if strings.HasPrefix(h.Loc, logBase+"/products") {
				out = append(out, h)
			}
		}
		return out
	}
	for _, tc := range []struct {
		keep    []string
		want    []logHit
		repeats int
	}{
		{nil, []logHit{{18, logBase + "/products"}}, 7},
		{[]string{}, []logHit{{18, logBase + "/products"}}, 7},
		{[]string{"id"}, []logHit{{18, logBase + "/products?id=7"}, {19, logBase + "/products"}}, 6},
		{[]string{"sort", "id"}, []logHit{{18, logBase + "/products?id=7&sort=asc"}, {19, logBase + "/products"}, {20, logBase + "/products?id=7"}}, 5},
		{[]string{"ID"}, []logHit{{18, logBase + "/products"}}, 7}, // names are case-sensitive
		{[]string{"*"}, []logHit{
			{18, logBase + "/products?id=7&utm_source=news&sort=asc"},
			{19, logBase + "/products?utm_source=mail"},
			{20, logBase + "/products?id=7"},
		}, 5},
	} {
		l, hits := logFixture(t, "rules.log", source.LogOptions{KeepParams: tc.keep})
		if got := products(hits); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("KeepParams %q: got %v, want %v", tc.keep, got, tc.want)
		}
		s := l.Stats()
		if s.Repeats != tc.repeats || s.URLs != len(rulesWant)-1+len(tc.want) {
			t.Errorf("KeepParams %q: %d URLs, %d repeats; want %d, %d", tc.keep, s.URLs, s.Repeats, len(rulesWant)-1+len(tc.want), tc.repeats)
		}
		checkBalance(t, s)
	}
}

func TestLogOptions(t *testing.T) {
	// Methods and Statuses replace the defaults; SkipExtensions too, and an
	// empty one skips nothing by extension.
	l, hits := logFixture(t, "rules.log", source.LogOptions{
		Methods:        []string{"GET"},
		Statuses:       []int{200, 404},
		SkipExtensions: []string{".PDF", "css"},
	})
	var got []string
	for _, h := range hits {
		got = append(got, strings.TrimPrefix(h.Loc, logBase))
	}
	for _, p := range []string{"/missing", "/js/app.min.js", "/img/Logo.PNG", "/robots.txt", "/sitemap.xml"} {
		if !slices.Contains(got, p) {
			t.Errorf("%s missing from %v", p, got)
		}
	}
	for _, p := range []string{"/contact", "/docs/manual.pdf", "/css/site.css"} {
		if slices.Contains(got, p) {
			t.Errorf("%s should be skipped: %v", p, got)
		}
	}
	if s := l.Stats(); s.Skipped["asset"] != 4 { // site.css, manual.pdf and the hidden /.well-known/ and /.git/ paths
		t.Errorf("assets skipped: %d, want 4", s.Skipped["asset"])
	}

	l, _ = logFixture(t, "rules.log", source.LogOptions{SkipExtensions: []string{}})
	if s := l.Stats(); s.Skipped["asset"] != 2 {
		t.Errorf("with no extensions, assets skipped: %d, want 2 (the hidden paths)", s.Skipped["asset"])
	}

	for _, o := range []source.LogOptions{
		{},
		{Base: "www.example.com"},
		{Base: "ftp://www.example.com/"},
		{Base: "https://user:pw@www.example.com/"},
		{Base: logBase, Statuses: []int{99}},
		{Base: logBase, Statuses: []int{600}},
		{Base: logBase, Methods: []string{""}},
		{Base: logBase, Methods: []string{"GET /"}},
	} {
		if _, err := source.NewLog(strings.NewReader(""), "x.log", o); err == nil {
			t.Errorf("NewLog(%+v): no error", o)
		}
	}
	if _, err := source.OpenLog(filepath.Join("testdata", "accesslog", "missing.log"), source.LogOptions{Base: logBase}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenLog of a missing file: %v", err)
	}
}

func TestLogCommonCRLFAndGzip(t *testing.T) {
	want := []logHit{
		{1, logBase + "/apache_pb.html"},
		{2, logBase + "/index.html"},
		{5, logBase + "/news/"},
	}
	for _, name := range []string{"common-crlf.log", "common-crlf.log.gz"} {
		l, hits := logFixture(t, name, source.LogOptions{})
		if !reflect.DeepEqual(hits, want) {
			t.Errorf("%s: got %v, want %v", name, hits, want)
		}
		s := l.Stats()
		if s.Lines != 5 || s.Repeats != 1 || s.Skipped["asset"] != 1 || s.Malformed != 0 {
			t.Errorf("%s: stats %+v", name, s)
		}
		checkBalance(t, s)
	}

	// A damaged gzip stream ends the stream with an error, after the URLs
	// before the damage.
	b, err := os.ReadFile(filepath.Join("testdata", "accesslog", "common-crlf.log.gz"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := source.NewLog(bytes.NewReader(b[:len(b)-6]), "cut.log.gz", source.LogOptions{Base: logBase})
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for _, err := range l.All() {
		last = err
	}
	if !errors.Is(last, source.ErrGzip) || !errors.Is(l.Err(), source.ErrGzip) {
		t.Errorf("damaged gzip: last error %v, Err %v; want ErrGzip", last, l.Err())
	}
	if _, err := l.Read(); !errors.Is(err, source.ErrGzip) {
		t.Errorf("Read after the end: %v", err)
	}
}

func TestLogVhost(t *testing.T) {
	l, hits := logFixture(t, "vhost.log", source.LogOptions{})
	want := []logHit{
		{1, logBase + "/v1"},
		{2, logBase + "/v2"},
		{4, logBase + "/v4"}, // a combined line among vhost_combined ones
	}
	if !reflect.DeepEqual(hits, want) {
		t.Errorf("got %v, want %v", hits, want)
	}
	if s := l.Stats(); s.Skipped["other host"] != 1 || s.Repeats != 1 {
		t.Errorf("stats %+v", s)
	}
}

func TestLogStdin(t *testing.T) {
	// Stats returns copies: what a caller does with them does not change the Log's.
	l, err := source.NewLog(strings.NewReader("bad\n"), "stdin", source.LogOptions{Base: logBase + "/blog/"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Read(); err != io.EOF {
		t.Fatalf("Read: %v, want io.EOF", err)
	}
	s := l.Stats()
	s.Skipped["x"] = 1
	s.Samples[0] = nil
	if s2 := l.Stats(); s2.Skipped["x"] != 0 || s2.Samples[0] == nil || l.Name() != "stdin" {
		t.Errorf("Stats shares its map or slice: %+v", s2)
	}
	if err := l.Close(); err != nil {
		t.Errorf("Close of a NewLog: %v", err)
	}
}

// TestLogSampleLimit checks that samples stop at 10 while the count goes on.
func TestLogSampleLimit(t *testing.T) {
	in := strings.Repeat("junk\n", 25) + `192.0.2.1 - - [10/Oct/2023:13:55:01 +0000] "GET /p HTTP/1.1" 200 1` + "\n"
	l, err := source.NewLog(strings.NewReader(in), "junk.log", source.LogOptions{Base: logBase})
	if err != nil {
		t.Fatal(err)
	}
	var urls []sitemap.URL
	for u, err := range l.All() {
		if err != nil {
			t.Fatal(err)
		}
		urls = append(urls, u)
	}
	s := l.Stats()
	if len(urls) != 1 || s.Malformed != 25 || len(s.Samples) != 10 || s.Samples[9].Line != 10 || l.Line() != 26 {
		t.Errorf("%d URLs, %d malformed, %d samples, line %d", len(urls), s.Malformed, len(s.Samples), l.Line())
	}
}

// TestLogEscapes: clients spell one URL with escapes in several ways
// (RFC 3986 §6.2.2: hex in either case, unreserved characters escaped or
// not); each URL counts once, in one spelling, and the asset and hidden
// rules see through escaped dots.
func TestLogEscapes(t *testing.T) {
	var in strings.Builder
	for i, target := range []string{
		"/caf%C3%A9", "/caf%c3%a9", "/caf%c3%A9", // one URL
		"/~user", "/%7Euser", "/%7euser", // one URL
		"/%61bout", "/about", // one URL
		"/a%2fb", "/a%2Fb", // one URL, not /a/b: "/" escaped is not a separator
		"/a/b",
		"/q?%61=1&b=2", "/q?a=1", // KeepParams a: one URL
		"/%2Eenv", "/%2egit/config", "/x/%2e%2E/.htpasswd", // hidden
		"/style%2Ecss", "/LOGO%2epng", // assets
		"/100%", "/100%25", // a lone "%" is "%25"
	} {
		fmt.Fprintf(&in, "192.0.2.%d - - [10/Oct/2000:13:55:36 -0700] \"GET %s HTTP/1.1\" 200 1\n", i+1, target)
	}
	l, err := source.NewLog(strings.NewReader(in.String()), "esc.log", source.LogOptions{Base: logBase, KeepParams: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	hits := readLog(t, l)
	want := []logHit{
		{1, logBase + "/caf%C3%A9"},
		{4, logBase + "/~user"},
		{7, logBase + "/about"},
		{9, logBase + "/a%2Fb"},
		{11, logBase + "/a/b"},
		{12, logBase + "/q?a=1"},
		{19, logBase + "/100%25"},
	}
	if !reflect.DeepEqual(hits, want) {
		t.Errorf("got\n%v\nwant\n%v", hits, want)
	}
	s := l.Stats()
	if s.Repeats != 8 || s.Skipped["asset"] != 5 {
		t.Errorf("%d repeats (want 8), %d assets (want 5): %+v", s.Repeats, s.Skipped["asset"], s)
	}
	checkBalance(t, s)
}
