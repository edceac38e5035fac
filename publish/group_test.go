package publish

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// group is a named slice of a test set, for buildGroups.
type group struct {
	name string
	urls []sitemap.URL
}

// buildGroups publishes each group's URLs after Group(name).
func buildGroups(t *testing.T, opts Options, groups []group) *Result {
	t.Helper()
	if opts.Base == "" {
		opts.Base = base
	}
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abort()
	ctx := context.Background()
	for _, g := range groups {
		if err := b.Group(ctx, g.name); err != nil {
			t.Fatal(err)
		}
		for i := range g.urls {
			if err := b.Add(ctx, &g.urls[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	res, err := b.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	assertNoTemps(t, opts.Dir)
	return res
}

func TestGroups(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, Gzip: true, MaxURLs: 10}
	groups := []group{
		{"", items(0, 3)},            // the main set: one plain-then-gzipped child
		{"products", items(3, 25)},   // three children
		{"blog", items(25, 26)},      // one
		{"news_2024", items(26, 30)}, // one
	}
	res := buildGroups(t, opts, groups)

	want := []struct{ prefix, group string }{
		{"sitemap.xml", ""}, {"sitemap-1-", ""},
		{"products-1-", "products"}, {"products-2-", "products"}, {"products-3-", "products"},
		{"blog-1-", "blog"}, {"news_2024-1-", "news_2024"},
	}
	if len(res.Files) != len(want) {
		t.Fatalf("files %v, want %v", names(res.Files), want)
	}
	for i, f := range res.Files {
		if !strings.HasPrefix(f.Name, want[i].prefix) || f.Group != want[i].group {
			t.Errorf("file %d is %s in group %q, want %s… in %q", i, f.Name, f.Group, want[i].prefix, want[i].group)
		}
		if i > 0 && !strings.HasSuffix(f.Name, ".xml.gz") {
			t.Errorf("child %s not gzipped", f.Name)
		}
	}
	var all []sitemap.URL
	for _, g := range groups {
		all = append(all, g.urls...)
	}
	if got := locs(readSet(t, dir, base, res)); !slices.Equal(got, wantLocs(all)) {
		t.Errorf("the index does not list the groups' URLs in order:\n%v", got)
	}
	if !slices.Equal(res.Indexes, []string{base + "sitemap.xml"}) {
		t.Errorf("Indexes %v", res.Indexes)
	}
	xsdtest.Check(t, dir)
	before := snapshot(t, dir)
	time.Sleep(20 * time.Millisecond) // so that a rewrite would show in mtimes

	// A change in one group rewrites that group's file only, even when the
	// group before it grew: each group is numbered on its own.
	groups[1].urls = append(groups[1].urls, item(100))
	groups[2].urls[0].LastMod = "2025-02-01"
	res2 := buildGroups(t, opts, groups)
	after := snapshot(t, dir)
	for _, f := range res2.Files {
		changed := f.Index || strings.HasPrefix(f.Name, "products-3-") || strings.HasPrefix(f.Name, "blog-")
		if changed == f.Kept {
			t.Errorf("%s: kept %v", f.Name, f.Kept)
		}
		if f.Kept && before[f.Name] != after[f.Name] {
			t.Errorf("%s kept but rewritten", f.Name)
		}
	}

	// Dropping a group removes its files; the others stay.
	res3 := buildGroups(t, opts, []group{groups[0], groups[1]})
	for _, n := range listDir(t, dir) {
		if strings.HasPrefix(n, "blog-") || strings.HasPrefix(n, "news_2024-") {
			t.Errorf("%s of a dropped group left in the folder", n)
		}
	}
	if got := len(res3.Files); got != 1+1+3 {
		t.Errorf("%d files after dropping two groups: %v", got, names(res3.Files))
	}
	xsdtest.Check(t, dir)
}

// A set made of one group only is still an index with that group's file,
// and nothing is written plain.
func TestGroupAlone(t *testing.T) {
	dir := t.TempDir()
	res := buildGroups(t, Options{Dir: dir, Gzip: true}, []group{{"blog", items(0, 2)}})
	if got := names(res.Files); len(got) != 2 || got[0] != "sitemap.xml" || !strings.HasPrefix(got[1], "blog-1-") || !strings.HasSuffix(got[1], ".xml.gz") {
		t.Fatalf("files %v, want sitemap.xml over blog-1-….xml.gz", got)
	}
	xsdtest.Check(t, filepath.Join(dir, "sitemap.xml"), filepath.Join(dir, res.Files[1].Name))
}

func TestGroupErrors(t *testing.T) {
	ctx := context.Background()
	b, err := New(Options{Dir: t.TempDir(), Base: base})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abort()
	for _, name := range []string{"bad name", "../x", "sitemap"} {
		if err := b.Group(ctx, name); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("Group(%q) = %v, want an error naming it", name, err)
		}
	}
	if err := b.Group(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	u := item(1)
	if err := b.Add(ctx, &u); err != nil {
		t.Fatal(err)
	}
	if err := b.Group(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if err := b.Group(ctx, "a"); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("going back to group a: %v, want an error", err)
	}
	// A group that received nothing (its URL refused) may be left for
	// another and leaves no file behind.
	if err := b.Group(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	bad := sitemap.URL{Loc: "https://elsewhere.example.org/x"}
	if err := b.Add(ctx, &bad); err == nil {
		t.Fatal("a URL of another host was accepted")
	}
	if err := b.Group(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	v := item(2)
	if err := b.Add(ctx, &v); err != nil {
		t.Fatal(err)
	}
	res, err := b.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if strings.HasPrefix(f.Name, "b-") || strings.HasPrefix(f.Name, "c-") {
			t.Errorf("an empty group has a file: %s", f.Name)
		}
	}

	never, err := New(Options{Dir: t.TempDir(), Base: base, Index: IndexNever})
	if err != nil {
		t.Fatal(err)
	}
	defer never.Abort()
	if err := never.Group(ctx, "a"); err == nil || !strings.Contains(err.Error(), "IndexNever") {
		t.Errorf("Group with IndexNever: %v", err)
	}
	if err := never.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := never.Group(ctx, "a"); !errors.Is(err, ErrDone) {
		t.Errorf("Group after Abort: %v, want ErrDone", err)
	}
}

// Two sets in one folder must not share a stem: the set "sitemap" with a
// group "products" writes products-N-XXXXXXXX.xml, as does the set
// "products". Had both been allowed, one set adopted the other's child and
// later removed it, leaving an index that names a missing file. Whichever
// comes second is refused, and the first is left whole.
func TestSetAndGroupNamesCannotCollide(t *testing.T) {
	for _, order := range []string{"group first", "set first"} {
		dir := t.TempDir()
		withGroup := func() error {
			b, err := New(Options{Dir: dir, Base: base, MaxURLs: 10})
			if err != nil {
				return err
			}
			defer b.Abort()
			ctx := context.Background()
			if err := b.Group(ctx, "products"); err != nil {
				return err
			}
			for _, u := range items(0, 25) {
				if err := b.Add(ctx, &u); err != nil {
					return err
				}
			}
			_, err = b.Publish(ctx)
			return err
		}
		asSet := func() error {
			_, err := tryBuild(t, Options{Dir: dir, Name: "products", MaxURLs: 10}, items(0, 25))
			return err
		}
		first, second := withGroup, asSet
		if order == "set first" {
			first, second = asSet, withGroup
		}
		if err := first(); err != nil {
			t.Fatalf("%s: %v", order, err)
		}
		before := snapshot(t, dir)
		err := second()
		if err == nil || !strings.Contains(err.Error(), `"products"`) || !strings.Contains(err.Error(), "set") {
			t.Fatalf("%s: second set: %v, want an error naming the shared name", order, err)
		}
		assertSame(t, before, snapshot(t, dir))
		xsdtest.Check(t, dir)
	}
}
