package source_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// patternCase is one line of testdata/filter/patterns.txt.
type patternCase struct {
	pattern, path string
	want          bool
}

func patternCases(t testing.TB) []patternCase {
	f, err := os.Open(filepath.Join("testdata", "filter", "patterns.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []patternCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 3 {
			t.Fatalf("patterns.txt: bad line %q", sc.Text())
		}
		out = append(out, patternCase{fs[0], fs[1], fs[2] == "1"})
	}
	return out
}

func badPatterns(t testing.TB) []string {
	b, err := os.ReadFile(filepath.Join("testdata", "filter", "bad.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{""}
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// jsonl is a JSONL Source over lines.
func jsonl(lines ...string) source.Source {
	return source.New(strings.NewReader(strings.Join(lines, "\n")+"\n"), "in.jsonl", source.FormatJSONL)
}

// kept returns the locs f returns, failing on errors.
func kept(t *testing.T, f *source.Filter) []string {
	t.Helper()
	var out []string
	for u, err := range f.All() {
		if err != nil {
			t.Fatalf("error %v", err)
		}
		out = append(out, u.Loc)
	}
	return out
}

// TestFilterPatterns runs every pattern of the table as Include, and as
// Exclude, on a URL with that path (and a query, which never matters).
func TestFilterPatterns(t *testing.T) {
	for _, c := range patternCases(t) {
		loc := "https://www.example.com" + c.path + "?q=/blog/x#frag"
		for _, include := range []bool{true, false} {
			o := source.FilterOptions{Exclude: []string{c.pattern}}
			if include {
				o = source.FilterOptions{Include: []string{c.pattern}}
			}
			f, err := source.NewFilter(jsonl(fmt.Sprintf(`{"loc":%q}`, loc)), o)
			if err != nil {
				t.Fatalf("%q: %v", c.pattern, err)
			}
			got := len(kept(t, f)) == 1
			if got != (c.want == include) {
				t.Errorf("pattern %q on %s (include %v): kept %v, want %v", c.pattern, c.path, include, got, c.want == include)
			}
			if f.Dropped() != map[bool]int{true: 0, false: 1}[got] {
				t.Errorf("pattern %q: Dropped() = %d with kept %v", c.pattern, f.Dropped(), got)
			}
		}
	}
}

func TestFilterBadPatterns(t *testing.T) {
	for _, p := range badPatterns(t) {
		for _, o := range []source.FilterOptions{{Include: []string{"/ok/*", p}}, {Exclude: []string{p}}} {
			_, err := source.NewFilter(jsonl(), o)
			if err == nil {
				t.Errorf("pattern %q: no error", p)
				continue
			}
			if !errors.Is(err, source.ErrPattern) || !strings.Contains(err.Error(), fmt.Sprintf("%q", p)) {
				t.Errorf("pattern %q: error %q, want ErrPattern naming the pattern", p, err)
			}
		}
	}
}

// TestFilterIncludeExclude: a URL is kept when it matches an Include (any)
// and no Exclude; errors pass through with their places.
func TestFilterIncludeExclude(t *testing.T) {
	src := jsonl(
		`{"loc":"https://www.example.com/"}`,
		`{"loc":"https://www.example.com/blog/a"}`,
		`{"loc":"https://www.example.com/blog/drafts/b"}`,
		`{"nope":1}`,
		`{"loc":"https://www.example.com/docs/c.pdf"}`,
		`{"loc":"https://www.example.com/shop/p/12"}`,
		`{"loc":"https://www.example.com/shop/p/x"}`,
		`{"loc":"https://www.example.com"}`,
	)
	f, err := source.NewFilter(src, source.FilterOptions{
		Include: []string{"/blog/**", "*.pdf", "re:^/shop/p/[0-9]+$", "/"},
		Exclude: []string{"/blog/drafts/**"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got, places []string
	for u, err := range f.All() {
		if err != nil {
			var pe *source.ParseError
			if !errors.As(err, &pe) || pe.Line != 4 {
				t.Errorf("error %v, want the JSONL reader's ParseError at line 4", err)
			}
		} else {
			got = append(got, strings.TrimPrefix(u.Loc, "https://www.example.com"))
		}
		places = append(places, source.Place(f))
	}
	want := []string{"/", "/blog/a", "/docs/c.pdf", "/shop/p/12", "/"} // normalised: an empty path is "/"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
	wantPlaces := []string{"in.jsonl:1", "in.jsonl:2", "in.jsonl:4", "in.jsonl:5", "in.jsonl:6", "in.jsonl:8"}
	if !reflect.DeepEqual(places, wantPlaces) {
		t.Errorf("places %q, want %q", places, wantPlaces)
	}
	if f.Dropped() != 2 {
		t.Errorf("Dropped() = %d, want 2", f.Dropped())
	}
	if f.Name() != "in.jsonl" || f.Err() != nil {
		t.Errorf("Name %q Err %v", f.Name(), f.Err())
	}
}

// TestFilterStripParams: session IDs go by default, a list replaces them,
// an empty list keeps everything; alternates are stripped too.
func TestFilterStripParams(t *testing.T) {
	in := []string{
		`{"loc":"https://www.example.com/a?PHPSESSID=1&x=2","alternates":[{"hreflang":"de","href":"https://www.example.com/de/a?sid=9"},{"hreflang":"en","href":"https://www.example.com/a?x=2"}]}`,
		`{"loc":"https://www.example.com/b;jsessionid=ABC?utm_source=x&page=2"}`,
		`{"loc":"https://www.example.com/c?ASPSESSIONIDQQ=1"}`,
		`{"loc":"https://www.example.com/d?sid=1","images":[{"loc":"https://www.example.com/d.jpg?sid=1"}]}`,
	}
	for _, c := range []struct {
		name  string
		strip []string
		want  []string // loc, then hrefs
	}{
		{"default", nil, []string{
			"https://www.example.com/a?x=2", "https://www.example.com/de/a", "https://www.example.com/a?x=2",
			"https://www.example.com/b?utm_source=x&page=2",
			"https://www.example.com/c",
			"https://www.example.com/d",
		}},
		{"custom", []string{"utm_*", "X"}, []string{
			"https://www.example.com/a?PHPSESSID=1", "https://www.example.com/de/a?sid=9", "https://www.example.com/a",
			"https://www.example.com/b;jsessionid=ABC?page=2",
			"https://www.example.com/c?ASPSESSIONIDQQ=1",
			"https://www.example.com/d?sid=1",
		}},
		{"none", []string{}, []string{
			"https://www.example.com/a?PHPSESSID=1&x=2", "https://www.example.com/de/a?sid=9", "https://www.example.com/a?x=2",
			"https://www.example.com/b;jsessionid=ABC?utm_source=x&page=2",
			"https://www.example.com/c?ASPSESSIONIDQQ=1",
			"https://www.example.com/d?sid=1",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := source.NewFilter(jsonl(in...), source.FilterOptions{StripParams: c.strip})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for u, err := range f.All() {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, u.Loc)
				for _, a := range u.Alternates {
					got = append(got, a.Href)
				}
				if len(u.Images) > 0 && u.Images[0].Loc != "https://www.example.com/d.jpg?sid=1" {
					t.Errorf("image loc changed: %s", u.Images[0].Loc)
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
	// Patterns see the loc once stripped: ";jsessionid" is gone from the path.
	f, err := source.NewFilter(jsonl(in[1]), source.FilterOptions{Include: []string{"/b"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := kept(t, f); len(got) != 1 {
		t.Errorf("include /b on a loc with ;jsessionid: kept %q", got)
	}
}

// TestFilterStripSharedAlternates: stripping must not write into the
// Source's memory, which may be shared by the URLs it returns.
func TestFilterStripSharedAlternates(t *testing.T) {
	alts := []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de?sid=1"}}
	src := &sliceSource{urls: []sitemap.URL{{Loc: "https://www.example.com/", Alternates: alts}}}
	f, _ := source.NewFilter(src, source.FilterOptions{})
	u, err := f.Read()
	if err != nil {
		t.Fatal(err)
	}
	if u.Alternates[0].Href != "https://www.example.com/de" || alts[0].Href != "https://www.example.com/de?sid=1" {
		t.Errorf("returned %q, source's own %q", u.Alternates[0].Href, alts[0].Href)
	}
}

// TestFilterSitemaps filters an existing sitemap: places stay the
// sitemap's, and its fatal errors end the filtered stream too.
func TestFilterSitemaps(t *testing.T) {
	p := filepath.Join("testdata", "sitemaps", "list.txt")
	s := openSitemaps(t, source.SitemapsOptions{}, p)
	f, err := source.NewFilter(s, source.FilterOptions{Exclude: []string{"/t/2"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for u, err := range f.All() {
		got = append(got, fmt.Sprintf("%s %v @%s", u.Loc, err != nil, source.Place(f)))
	}
	want := []string{
		"https://www.example.com/t/1 false @" + p + ":1:1",
		" true @" + p + ":3:1",
		"https://www.example.com/t/3 false @" + p + ":4:1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestFilterNoAlloc: a URL with nothing to strip costs no allocation.
func TestFilterNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	urls := benchURLs(1000)
	src := &sliceSource{urls: urls}
	f, err := source.NewFilter(src, source.FilterOptions{
		Include: []string{"/catalog/**", "*.pdf"},
		Exclude: []string{"/catalog/drafts/**", "re:^/catalog/item-9+$"},
	})
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(10, func() {
		src.reset()
		for {
			if _, err := f.Read(); err == io.EOF {
				break
			}
		}
	})
	if allocs > 0 {
		t.Errorf("%.0f allocations per 1000 URLs, want 0", allocs)
	}
}

// sliceSource is a Source over URLs in memory, so that benchmarks measure
// the Filter alone.
type sliceSource struct {
	urls []sitemap.URL
	i    int
}

func (s *sliceSource) reset() { s.i = 0 }
func (s *sliceSource) Read() (sitemap.URL, error) {
	if s.i == len(s.urls) {
		return sitemap.URL{}, io.EOF
	}
	s.i++
	return s.urls[s.i-1], nil
}
func (s *sliceSource) All() iter.Seq2[sitemap.URL, error] {
	return func(yield func(sitemap.URL, error) bool) {
		for {
			u, err := s.Read()
			if err == io.EOF || !yield(u, err) {
				return
			}
		}
	}
}
func (s *sliceSource) Name() string { return "memory" }
func (s *sliceSource) Line() int    { return s.i }
func (s *sliceSource) Err() error   { return nil }

// benchURLs are shaped like bench_test.go's workload, with a path that
// some patterns match and no session ID.
func benchURLs(n int) []sitemap.URL {
	out := make([]sitemap.URL, n)
	for i := range out {
		out[i].Loc = fmt.Sprintf("https://www.example.com/catalog/item-%d?color=red&size=M&ref=%d", i, i%97)
	}
	return out
}

func BenchmarkFilter(b *testing.B) {
	for _, c := range []struct {
		name string
		o    source.FilterOptions
	}{
		{"strip", source.FilterOptions{}},
		{"globs", source.FilterOptions{Include: []string{"/catalog/**", "*.pdf"}, Exclude: []string{"/catalog/drafts/**", "/tag/*"}, StripParams: []string{}}},
		{"regexp", source.FilterOptions{Exclude: []string{"re:^/catalog/item-[0-9]*7$"}, StripParams: []string{}}},
		{"all", source.FilterOptions{Include: []string{"/catalog/**"}, Exclude: []string{"re:^/catalog/item-[0-9]*7$"}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			src := &sliceSource{urls: benchURLs(100000)}
			f, err := source.NewFilter(src, c.o)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				src.reset()
				for {
					_, err := f.Read()
					if err == io.EOF {
						break
					}
					n++
				}
			}
			b.ReportMetric(float64(n+f.Dropped())/b.Elapsed().Seconds(), "URLs/s")
		})
	}
}

// refMatch is a reference glob matcher, written plainly (recursion over
// segments, path.Match within them) from the documented semantics.
func refMatch(pattern, p string) bool {
	if !strings.HasPrefix(pattern, "/") {
		pattern = "/**/" + pattern
	}
	var rec func(g, s []string) bool
	rec = func(g, s []string) bool {
		if len(g) == 0 {
			return len(s) == 0
		}
		if g[0] == "**" {
			for i := 0; i <= len(s); i++ {
				if rec(g[1:], s[i:]) {
					return true
				}
			}
			return false
		}
		if len(s) == 0 {
			return false
		}
		ok, _ := path.Match(g[0], s[0])
		return ok && rec(g[1:], s[1:])
	}
	return rec(strings.Split(pattern[1:], "/"), strings.Split(p[1:], "/"))
}

// FuzzFilterPattern: compiling never panics, an error names the pattern,
// and a glob matches exactly as the reference matcher does.
func FuzzFilterPattern(f *testing.F) {
	for _, c := range patternCases(f) {
		f.Add(c.pattern, c.path)
	}
	for _, p := range badPatterns(f) {
		f.Add(p, "/x")
	}
	f.Fuzz(func(t *testing.T, pattern, p string) {
		if strings.ContainsAny(p, "?#") || strings.ContainsAny(pattern, "\n") {
			return // the path of a loc has neither
		}
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		flt, err := source.NewFilter(&sliceSource{urls: []sitemap.URL{{Loc: "https://h" + p}}}, source.FilterOptions{Include: []string{pattern}, StripParams: []string{}})
		if err != nil {
			if !errors.Is(err, source.ErrPattern) || !strings.Contains(err.Error(), fmt.Sprintf("%q", pattern)) {
				t.Fatalf("error %q: want ErrPattern naming the pattern", err)
			}
			return
		}
		_, err = flt.Read()
		if err != nil && err != io.EOF {
			t.Fatal(err)
		}
		got := err == nil
		if strings.HasPrefix(pattern, "re:") || strings.Count(pattern, "**") > 6 || len(p) > 200 {
			return // the reference is exponential
		}
		// The filter matches the normalised path (the canonical stage:
		// spaces trimmed, escapes in one spelling…); so does the reference.
		n, nerr := loc.Normalize("https://h" + p)
		if nerr != nil {
			return
		}
		np := strings.TrimPrefix(n, "https://h")
		if want := refMatch(pattern, np); got != want {
			t.Errorf("pattern %q on %q (normalised %q): match %v, reference %v", pattern, p, np, got, want)
		}
	})
}
