package robots

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const ua = "sitemapkit/1.0 (+https://github.com/sitemapkit/sitemapkit)"

// Google's documented path-matching examples
// (developers.google.com/search/docs/crawling-indexing/robots/robots_txt,
// "URL matching based on path values").
func TestGooglePathExamples(t *testing.T) {
	cases := []struct {
		pattern  string
		match    []string
		notMatch []string
	}{
		{"/", []string{"/", "/fish", "/a/b?c=d"}, nil},
		{"/*", []string{"/", "/fish", "/a/b?c=d"}, nil},
		{"/$", []string{"/"}, []string{"/fish", "/?a=b"}},
		{"/fish", []string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			[]string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"}},
		{"/fish*", []string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			[]string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"}},
		{"/fish/", []string{"/fish/", "/fish/?id=anything", "/fish/salmon.htm"},
			[]string{"/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"}},
		{"/*.php", []string{"/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "/folder/any.php.file.html", "/filename.php/"},
			[]string{"/", "/windows.PHP"}},
		{"/*.php$", []string{"/filename.php", "/folder/filename.php"},
			[]string{"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"}},
		{"/fish*.php", []string{"/fish.php", "/fishheads/catfish.php?parameters"}, []string{"/Fish.PHP"}},
	}
	for _, tc := range cases {
		for _, p := range tc.match {
			if !match(normalise(tc.pattern), normalise(p)) {
				t.Errorf("%q should match %q", tc.pattern, p)
			}
		}
		for _, p := range tc.notMatch {
			if match(normalise(tc.pattern), normalise(p)) {
				t.Errorf("%q should not match %q", tc.pattern, p)
			}
		}
	}
}

// Google's "Order of precedence for rules" examples.
func TestGooglePrecedenceExamples(t *testing.T) {
	cases := []struct {
		robots string
		url    string
		allow  bool
	}{
		{"allow: /p\ndisallow: /", "https://example.com/page", true},
		{"allow: /folder\ndisallow: /folder", "https://example.com/folder/page", true},
		{"allow: /page\ndisallow: /*.htm", "https://example.com/page.htm", false},
		{"allow: /page\ndisallow: /*.ph", "https://example.com/page.php", true},
		{"allow: /$\ndisallow: /", "https://example.com/", true},
		{"allow: /$\ndisallow: /", "https://example.com/page.htm", false},
	}
	for _, tc := range cases {
		r := Parse([]byte("user-agent: *\n"+tc.robots), nil)
		if got := r.Allowed(ua, tc.url); got != tc.allow {
			t.Errorf("%q with\n%s\n= %v, want %v", tc.url, tc.robots, got, tc.allow)
		}
	}
}

func TestGroupSelection(t *testing.T) {
	// Google's example: the most specific matching group only.
	src := "user-agent: googlebot-news\ndisallow: /news\n\nuser-agent: *\ndisallow: /star\n\nuser-agent: googlebot\ndisallow: /bot\n"
	r := Parse([]byte(src), nil)
	for _, tc := range []struct {
		agent, path string
		allow       bool
	}{
		{"Googlebot-News", "/news", false},
		{"Googlebot-News", "/bot", true},
		{"Googlebot/2.1 (+http://www.google.com/bot.html)", "/bot", false},
		{"Googlebot/2.1", "/star", true},
		{"Storebot-Google", "/star", false},
		{ua, "/star", false},
		{ua, "/news", true},
	} {
		if got := r.Allowed(tc.agent, tc.path); got != tc.allow {
			t.Errorf("%s %s = %v, want %v", tc.agent, tc.path, got, tc.allow)
		}
	}
}

func TestGroupingOfAgentLinesAndSitemapLines(t *testing.T) {
	// e and f share a group; h has an empty group of its own (allowed,
	// and it does not fall back to *). A Sitemap line ends no group.
	src := `user-agent: e
user-agent: f
disallow: /g

user-agent: a
sitemap: https://example.com/sitemap.xml
user-agent: b
disallow: /

user-agent: *
disallow: /
user-agent: h
`
	r := Parse([]byte(src), nil)
	check := func(agent, path string, want bool) {
		t.Helper()
		if got := r.Allowed(agent, path); got != want {
			t.Errorf("%s %s = %v, want %v", agent, path, got, want)
		}
	}
	check("e", "/g", false)
	check("f", "/g", false)
	check("f", "/x", true)
	check("h", "/g", true)
	check("a", "/x", false)
	check("b", "/x", false)
	check("sitemapkit", "/x", false)
	check("sitemapkit", "/robots.txt", true)
	if len(r.Sitemaps) != 1 || r.Sitemaps[0].URL != "https://example.com/sitemap.xml" || r.Sitemaps[0].Line != 6 {
		t.Errorf("Sitemaps = %+v", r.Sitemaps)
	}
}

func TestMergedGroupsAndOurAgent(t *testing.T) {
	src := "User-Agent: SitemapKit\nDisallow: /private/\n\nuser-agent: other\nDisallow: /\n\nUSER-AGENT: sitemapkit\nAllow: /private/ok\n"
	r := Parse([]byte(src), nil)
	if r.Allowed(ua, "https://x.test/private/no") || !r.Allowed(ua, "https://x.test/private/ok.xml") || !r.Allowed(ua, "/public") {
		t.Error("merged sitemapkit groups not applied")
	}
}

// TestEmptyPathIsSlash: a URL with no path ("http://host?q") has the
// path "/" (RFC 3986 §6.2.3), which "Disallow: /" covers.
func TestEmptyPathIsSlash(t *testing.T) {
	r := Parse([]byte("user-agent: *\ndisallow: /\nallow: /$\n"), nil)
	for _, u := range []string{"http://example.com?q=1", "https://example.com?", "?q=1"} {
		if r.Allowed(ua, u) {
			t.Errorf("%s allowed, want disallowed (its path is /?...)", u)
		}
	}
	for _, u := range []string{"http://example.com", "http://example.com/"} {
		if !r.Allowed(ua, u) {
			t.Errorf("%s disallowed, want allowed (allow: /$)", u)
		}
	}
}

func TestPercentEncodingNormalised(t *testing.T) {
	r := Parse([]byte("user-agent: *\ndisallow: /%7Euser/\ndisallow: /ümlaut\ndisallow: /a%2fb\n"), nil)
	for _, p := range []string{"/~user/x", "/%7euser/x", "/%C3%BCmlaut.html", "/a%2Fb"} {
		if r.Allowed(ua, p) {
			t.Errorf("%s should be disallowed", p)
		}
	}
	// %2F is a reserved character: it is not the same as "/".
	if !r.Allowed(ua, "/a/b") {
		t.Error("/a/b should be allowed: %2F is not /")
	}
}

func TestStatusDefaults(t *testing.T) {
	if !AllowAll().Allowed(ua, "/x") || DisallowAll().Allowed(ua, "/x") {
		t.Fatal("AllowAll/DisallowAll")
	}
	if !Parse(nil, nil).Allowed(ua, "/x") {
		t.Fatal("an empty robots.txt allows everything")
	}
}

func TestSitemapLines(t *testing.T) {
	base, _ := url.Parse("http://www.example.com/robots.txt")
	src := "# Sitemap: http://commented.example/\nSITEMAP:http://example.com/a.xml\nsitemap: /rel.xml\nSitemap: ftp://example.com/x\nSitemap: http://example.com/\xff.xml\nSitemap:\nuser-agent: *\nSitemap: https://cdn.example.net/s.xml.gz # trailing comment\n"
	r := Parse([]byte(src), base)
	want := []Sitemap{
		{Line: 2, Value: "http://example.com/a.xml", URL: "http://example.com/a.xml"},
		{Line: 3, Value: "/rel.xml", URL: "http://www.example.com/rel.xml", Problem: "relative URL: the protocol wants a full URL (resolved against robots.txt's)"},
		{Line: 4, Value: "ftp://example.com/x", Problem: "not an http or https URL"},
		{Line: 5, Value: "http://example.com/\xff.xml", Problem: "not valid UTF-8"},
		{Line: 6, Value: "", Problem: "empty"},
		{Line: 8, Value: "https://cdn.example.net/s.xml.gz", URL: "https://cdn.example.net/s.xml.gz"},
	}
	if len(r.Sitemaps) != len(want) {
		t.Fatalf("got %d sitemaps: %+v", len(r.Sitemaps), r.Sitemaps)
	}
	for i := range want {
		if r.Sitemaps[i] != want[i] {
			t.Errorf("sitemap %d = %+v, want %+v", i, r.Sitemaps[i], want[i])
		}
	}
}

func TestSizeLimit(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("user-agent: *\ndisallow: /early\n")
	for b.Len() < MaxBytes {
		b.WriteString("# padding padding padding padding padding padding padding\n")
	}
	b.WriteString("disallow: /late\nsitemap: https://example.com/late.xml\n")
	r := Parse(b.Bytes(), nil)
	if !r.Truncated || len(r.Sitemaps) != 0 || !r.Allowed(ua, "/late") || r.Allowed(ua, "/early") {
		t.Fatalf("Truncated=%v sitemaps=%v", r.Truncated, r.Sitemaps)
	}
}

// The corpus' robots.txt files, with what upstream asserts.
func TestCorpusRobots(t *testing.T) {
	dir := "../../../shared/corpus/"
	cases := []struct {
		file, base string
		want       []string
	}{
		{"scrapy/inline/test_spider_sitemap/robots.txt", "http://www.example.com/robots.txt",
			[]string{"http://example.com/sitemap.xml", "http://example.com/sitemap-product-index.xml", "http://example.com/sitemap-uppercase.xml", "http://www.example.com/sitemap-relative-url.xml"}},
		{"scrapy/inline/test_utils_sitemap/robots.txt", "http://example.com",
			[]string{"http://example.com/sitemap.xml", "http://example.com/sitemap-product-index.xml", "http://example.com/sitemap-uppercase.xml", "http://example.com/sitemap-relative-url.xml"}},
		{"scrapy/inline/test_spider_sitemap/robots-invalid-utf8.txt", "http://www.example.com/robots.txt",
			[]string{"http://example.com/ok.xml"}},
		{"advertools/sitemap_testing/robots.txt", "https://advertools.readthedocs.io/robots.txt",
			[]string{"https://advertools.readthedocs.io/sitemap.xml"}},
	}
	for _, tc := range cases {
		data, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Skipf("corpus: %v", err)
		}
		base, _ := url.Parse(tc.base)
		var got []string
		for _, s := range Parse(data, base).Sitemaps {
			if s.URL != "" {
				got = append(got, s.URL)
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: got %q, want %q", tc.file, got, tc.want)
		}
	}
	// advertools: "Disallow:/dont_crawl" without a space, and $ anchors.
	data, err := os.ReadFile(filepath.Join(dir, "advertools/sitemap_testing/robots.txt"))
	if err == nil {
		r := Parse(data, nil)
		if r.Allowed("Googlebot", "/dont_crawl/x") || r.Allowed("Googlebot", "/a.php") || !r.Allowed("Googlebot", "/a.js") {
			t.Error("advertools robots.txt: Googlebot group misapplied")
		}
		if !r.Allowed(ua, "/help/x") || !r.Allowed(ua, "/dont_crawl") {
			t.Error("advertools robots.txt: * group misapplied")
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, p := range []string{
		"../../../shared/corpus/scrapy/inline/test_spider_sitemap/robots.txt",
		"../../../shared/corpus/scrapy/inline/test_spider_sitemap/robots-invalid-utf8.txt",
		"../../../shared/corpus/scrapy/inline/test_utils_sitemap/robots.txt",
		"../../../shared/corpus/advertools/sitemap_testing/robots.txt",
	} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, "/a/b.php?x=1")
		}
	}
	f.Add([]byte("user-agent: *\nallow: /$\ndisallow: /\n"), "/")
	f.Add([]byte("user-agent: e\nuser-agent: f\ndisallow: /g\nuser-agent: h\n"), "/g")
	f.Add([]byte("User-agent: *\nDisallow: /fish*.php\nSitemap: /s.xml\n"), "/fishheads/catfish.php?p")
	f.Add([]byte("user-agent: *\ndisallow: /%7e%zz%\xff*$*$\n"), "/%7E%ZZ")
	base, _ := url.Parse("https://example.com/robots.txt")
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		r := Parse(data, base)
		r.Allowed(ua, path)
		r.Allowed("*", path)
		for _, s := range r.Sitemaps {
			if s.URL != "" {
				u, err := url.Parse(s.URL)
				if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") {
					t.Fatalf("Sitemap URL %q is not absolute http(s)", s.URL)
				}
			}
		}
	})
}

// TestCrawlDelay: the Crawl-delay of the group a crawler obeys, its own
// over "*", capped at a minute: a delay too long for a Duration (10¹⁰
// seconds, "inf") too, which wrapped negative, and no delay was kept.
func TestCrawlDelay(t *testing.T) {
	r := Parse([]byte("User-agent: *\nCrawl-delay: 2\nDisallow: /x\n\nUser-agent: sitemapkit\nCrawl-delay: 0.5\nDisallow: /y\n\nUser-agent: slow\nCrawl-delay: 3600\n"+
		"\nUser-agent: slower\nCrawl-delay: 10000000000\n\nUser-agent: endless\nCrawl-delay: inf\n"), nil)
	for ua, want := range map[string]time.Duration{
		"sitemapkit/1.0 (+https://x)": 500 * time.Millisecond,
		"Googlebot":                   2 * time.Second,
		"slow":                        time.Minute,
		"slower":                      time.Minute,
		"endless":                     time.Minute,
	} {
		if got := r.CrawlDelay(ua); got != want {
			t.Errorf("CrawlDelay(%q) = %v, want %v", ua, got, want)
		}
	}
	if d := Parse([]byte("User-agent: *\nDisallow: /\n"), nil).CrawlDelay("x"); d != 0 {
		t.Errorf("no Crawl-delay: %v", d)
	}
}

// TestSizeLimitCutsNoLine: the line the 500 KiB cap cuts is dropped, not
// read as its first half: a Sitemap: URL cut short would be fetched, and a
// rule cut short obeyed. The lines before it are read.
func TestSizeLimitCutsNoLine(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("user-agent: *\n")
	for b.Len() < MaxBytes-100 {
		b.WriteString("# padding\n")
	}
	b.WriteString("disallow: /early\n")
	for b.Len() < MaxBytes-20 {
		b.WriteString("#\n")
	}
	b.WriteString("sitemap: https://example.com/cut-here-by-the-cap.xml\n")
	r := Parse(b.Bytes(), nil)
	if !r.Truncated || r.Allowed(ua, "/early") {
		t.Fatalf("Truncated=%v, /early allowed %v: the lines before the cut are read", r.Truncated, r.Allowed(ua, "/early"))
	}
	if len(r.Sitemaps) != 0 {
		t.Errorf("a Sitemap: line cut by the cap was read: %q", r.Sitemaps[0].Value)
	}
}

// TestSitemapLine: one line reads as Parse reads it in a file.
func TestSitemapLine(t *testing.T) {
	base, _ := url.Parse("https://www.example.com/robots.txt")
	for _, line := range []string{
		"Sitemap: https://www.example.com/s.xml\r\n", "site-map:/rel.xml # c\n", "SITEMAP : ftp://x/\n",
		"Sitemap:\n", "User-agent: *\n", "Disallow: /\n", "# Sitemap: https://www.example.com/c.xml\n", "no record\n", "",
	} {
		s, ok := SitemapLine([]byte(line), base)
		in := Parse([]byte(line), base).Sitemaps
		if ok != (len(in) == 1) || ok && (s.Value != in[0].Value || s.URL != in[0].URL || s.Problem != in[0].Problem) {
			t.Errorf("%q: SitemapLine %+v %v, Parse %+v", line, s, ok, in)
		}
	}
}

// TestGroupNamingStarAndUs: a group whose user-agent lines name both "*"
// and the crawler is the crawler's group, whatever the order of those
// lines: its rules are merged with the crawler's other groups. Read "*"
// first, it was taken for a "*" group only, and its rules (and its
// Crawl-delay) were dropped once another group named the crawler.
func TestGroupNamingStarAndUs(t *testing.T) {
	src := "User-agent: *\nUser-agent: sitemapkit\nDisallow: /private/\nCrawl-delay: 2\n\nUser-agent: sitemapkit\nDisallow: /tmp/\n"
	r := Parse([]byte(src), nil)
	if r.Allowed(ua, "/private/x") {
		t.Error("/private/x allowed: the group naming * and sitemapkit was not sitemapkit's")
	}
	if r.Allowed(ua, "/tmp/x") {
		t.Error("/tmp/x allowed: sitemapkit's own group was not applied")
	}
	if !r.Allowed("otherbot", "/tmp/x") || r.Allowed("otherbot", "/private/x") {
		t.Error("another crawler does not get the * group alone")
	}
	if d := r.CrawlDelay(ua); d != 2*time.Second {
		t.Errorf("CrawlDelay = %v, want 2s (the group naming * and sitemapkit)", d)
	}
}
