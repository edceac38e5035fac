package source_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// TestFilterMatchesNormalizedPath: patterns used to match the loc as
// written, so "/blog/../admin/secret" went past --exclude '/admin/**' and
// was then published as /admin/secret. The Filter now normalises first.
func TestFilterMatchesNormalizedPath(t *testing.T) {
	src := jsonl(
		`{"loc":"https://www.example.com/blog/../admin/secret"}`,
		`{"loc":"https://www.example.com/blog/%2E%2E/admin/x"}`,
		`{"loc":"https://WWW.Example.com:443/blog/./a"}`,
		`{"loc":"https://www.example.com/admin"}`,
		`{"loc":"https://www.example.com/caf\u00e9/../shop/b?q=/../admin/"}`,
		`{"loc":"https://www.example.com/blog/b","alternates":[{"hreflang":"de","href":"https://www.example.com/de/./b"}],"images":[{"loc":"https://IMG.example.com/a b.jpg"}]}`,
	)
	f, err := source.NewFilter(src, source.FilterOptions{Exclude: []string{"/admin/**"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []sitemap.URL
	for u, err := range f.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u)
	}
	want := []sitemap.URL{
		{Loc: "https://www.example.com/blog/a"},
		{Loc: "https://www.example.com/shop/b?q=/../admin/"},
		{Loc: "https://www.example.com/blog/b",
			Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/b"}},
			Images:     []sitemap.Image{{Loc: "https://img.example.com/a%20b.jpg"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kept\n%+v\nwant\n%+v", got, want)
	}
	if f.Dropped() != 3 {
		t.Errorf("Dropped() = %d, want 3", f.Dropped())
	}
}

// TestFilterKeepsWhatCannotBeNormalized: a URL Normalize refuses is
// returned as written, at its place, whatever the patterns say, so that
// the Builder refuses it with its rule rather than a pattern hiding it.
func TestFilterKeepsWhatCannotBeNormalized(t *testing.T) {
	src := jsonl(
		`{"loc":"https://www.example.com/admin/a"}`,
		`{"loc":"/admin/relative"}`,
		`{"loc":"https://www.example.com:99999/admin/b"}`,
		`{"loc":"https://www.example.com/admin/c","images":[{"loc":"https://[::1/x.jpg"}]}`,
	)
	f, err := source.NewFilter(src, source.FilterOptions{Exclude: []string{"/admin/**"}})
	if err != nil {
		t.Fatal(err)
	}
	var got, places []string
	for u, err := range f.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.Loc)
		places = append(places, source.Place(f))
	}
	want := []string{"/admin/relative", "https://www.example.com:99999/admin/b", "https://www.example.com/admin/c"}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(places, []string{"in.jsonl:2", "in.jsonl:3", "in.jsonl:4"}) {
		t.Errorf("kept %q at %q, want %q at lines 2 to 4", got, places, want)
	}
}

// TestFilterTrimsFields: a CSV written with a space after each comma (as
// spreadsheets and hand-written files often are), or JSON values with
// white space around them, lost their lastmod, changefreq and priority,
// refused by the Writer. The Filter reads them as an XML reader does,
// trimmed of XML white space, and leaves the rest of the value as it is.
func TestFilterTrimsFields(t *testing.T) {
	csv := source.New(strings.NewReader("loc, lastmod, changefreq, priority\n"+
		"https://www.example.com/a, 2024-05-02 , weekly, 0.5\n"+
		"https://www.example.com/b,\t2024-05-02T10:00:00+02:00\t,\"daily \r\n\",1.0\n"+
		"https://www.example.com/c, , ,  \n"+
		"https://www.example.com/d,2024-05-02 10:00:00 ,monthly,0.3\n"+
		"https://www.example.com/e,\u00a02024-05-02, Weekly ,0.5\n"), "in.csv", source.FormatCSV)
	js := jsonl(`{"loc":"https://www.example.com/f","lastmod":" 2024-05-02\n","changefreq":"\tnever","priority":"0.8 "}`)
	var got []sitemap.URL
	for _, src := range []source.Source{csv, js} {
		f, err := source.NewFilter(src, source.FilterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for u, err := range f.All() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, u)
		}
	}
	want := []sitemap.URL{
		{Loc: "https://www.example.com/a", LastMod: "2024-05-02", ChangeFreq: "weekly", Priority: "0.5"},
		{Loc: "https://www.example.com/b", LastMod: "2024-05-02T10:00:00+02:00", ChangeFreq: "daily", Priority: "1.0"},
		{Loc: "https://www.example.com/c"},
		// A database's spelling, trimmed first, is then rewritten.
		{Loc: "https://www.example.com/d", LastMod: "2024-05-02T10:00:00+00:00", ChangeFreq: "monthly", Priority: "0.3"},
		// Not XML white space (a no-break space), nor a case: left for the
		// Writer to refuse, as written.
		{Loc: "https://www.example.com/e", LastMod: "\u00a02024-05-02", ChangeFreq: "Weekly", Priority: "0.5"},
		{Loc: "https://www.example.com/f", LastMod: "2024-05-02", ChangeFreq: "never", Priority: "0.8"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}
