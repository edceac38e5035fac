package source

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// TestFrontierSpills: past its bound in memory, the frontier spills to its
// file and gives every item back in the order it was pushed, however
// pushes and pops interleave; drain gives the rest.
func TestFrontierSpills(t *testing.T) {
	defer func(n int) { frontierMem = n }(frontierMem)
	frontierMem = 7
	q := &frontier{path: filepath.Join(t.TempDir(), queueFile)}
	defer q.close()
	next, want := 0, 0
	push := func(n int) {
		for range n {
			if err := q.push(crawlItem{url: fmt.Sprint("u", next), depth: next % 5, chain: next % 3}); err != nil {
				t.Fatal(err)
			}
			next++
		}
	}
	pop := func(n int) {
		for range n {
			it, ok, err := q.pop()
			if err != nil || !ok || it.url != fmt.Sprint("u", want) || it.depth != want%5 || it.chain != want%3 {
				t.Fatalf("pop %d: %+v, %v, %v", want, it, ok, err)
			}
			want++
		}
	}
	push(20)
	if q.onDisk == 0 || len(q.head) > frontierMem {
		t.Fatalf("20 items, bound 7: %d in memory, %d on disk", len(q.head), q.onDisk)
	}
	pop(3)
	push(11)
	pop(17)
	push(4)
	if q.len() != 15 {
		t.Fatalf("len %d, want 15", q.len())
	}
	rest, err := q.drain()
	if err != nil || len(rest) != 15 || rest[0].url != fmt.Sprint("u", want) || rest[14].url != "u34" {
		t.Fatalf("drain: %d items, %v", len(rest), err)
	}
}

// TestFoundRoundTrip: a page recorded for a resume comes back as it was,
// its fingerprint included.
func TestFoundRoundTrip(t *testing.T) {
	for _, r := range []crawlResult{
		{u: sitemap.URL{Loc: "https://x.example/a", Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://x.example/de/a"}},
			Images: []sitemap.Image{{Loc: "https://x.example/i.png"}}}, fp: 0xdeadbeefcafe, hasFP: true},
		{u: sitemap.URL{Loc: "https://x.example/b"}},
	} {
		line := appendFound(nil, r)
		got, err := readFound(line[:len(line)-1])
		if err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("%s came back as %+v, %v; want %+v", line, got, err, r)
		}
	}
}
