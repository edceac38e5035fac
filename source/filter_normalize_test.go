package source_test

import (
	"reflect"
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
