package sitemap

import (
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// repeated streams a urlset of one <url> holding n copies of child, then
// a second <url>, without building the document in memory.
func repeated(child string, n int) io.Reader {
	head := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://www.example.com/a</loc>`
	tail := "</url>\n<url><loc>https://www.example.com/b</loc></url>\n</urlset>\n"
	pr, pw := io.Pipe()
	go func() {
		io.WriteString(pw, head)
		per := max(1, min(1000, 64<<10/len(child)))
		chunk := strings.Repeat(child, per)
		for i := 0; i < n; i += per {
			if _, err := io.WriteString(pw, chunk[:len(child)*min(per, n-i)]); err != nil {
				return
			}
		}
		io.WriteString(pw, tail)
		pw.Close()
	}()
	return pr
}

// TestRepeatedChildrenCapped: one <url> with 600,000 images (47 MB, 95 KB
// gzipped) held them all: 385 MB. Past each cap the Reader counts the
// children without keeping them, says so once with the real count, and
// reads on.
func TestRepeatedChildrenCapped(t *testing.T) {
	video := func(inner string) string {
		return "<video:video><video:thumbnail_loc>https://www.example.com/t.jpg</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description><video:content_loc>https://www.example.com/v.mp4</video:content_loc>" + inner + "</video:video>"
	}
	for _, tc := range []struct {
		name     string
		doc      io.Reader
		kept     func(u *URL) int
		max      int
		rule     string
		wantText string
	}{
		{"images", repeated("<image:image><image:loc>https://www.example.com/i.jpg</image:loc></image:image>", 600_000),
			func(u *URL) int { return len(u.Images) }, MaxImages, RuleTooManyImages, "600000 images"},
		{"videos", repeated(video(""), 100_000),
			func(u *URL) int { return len(u.Videos) }, maxVideos, RuleVideo, "100000 videos"},
		{"alternates", repeated(`<xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/a"/>`, 600_000),
			func(u *URL) int { return len(u.Alternates) }, maxAlternates, RuleHreflang, "600000 hreflang alternates"},
		{"video tags", repeated(video(strings.Repeat("<video:tag>t</video:tag>", 600_000)), 1),
			func(u *URL) int { return len(u.Videos[0].Tags) }, MaxVideoTags, RuleVideo, "600000 tags"},
		{"video prices", repeated(video(strings.Repeat(`<video:price currency="EUR">1</video:price>`, 300_000)), 1),
			func(u *URL) int { return len(u.Videos[0].Prices) }, maxPrices, RuleVideo, "300000 prices"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var notices []Notice
			r := NewReader(tc.doc)
			r.OnNotice = func(n Notice) { notices = append(notices, n) }
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			u, err := r.Read()
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			if got := tc.kept(u); got != tc.max {
				t.Errorf("kept %d, want the first %d", got, tc.max)
			}
			// What the <url> holds stays small; what reading it churned
			// is garbage, bounded too.
			if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > 16<<20 {
				t.Errorf("one <url> holds %d MB", held>>20)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
				t.Errorf("allocated %d MB for one <url>", alloc>>20)
			}
			var said []string
			for _, n := range notices {
				if n.Rule == tc.rule && strings.Contains(n.Msg, tc.wantText) {
					said = append(said, n.Msg)
				}
			}
			if len(said) != 1 {
				t.Errorf("notices %v, want one %s saying %q", notices[:min(len(notices), 5)], tc.rule, tc.wantText)
			}
			if u, err := r.Read(); err != nil || u.Loc != "https://www.example.com/b" {
				t.Errorf("the next <url>: %v, %v", u, err)
			}
		})
	}
}

// TestNoticesOnceBounded: the notices given once a document (an attribute
// given twice, an undeclared prefix) remembered every name: a document of
// a million distinct ones (12 MB) held them all, 500 MB for 50 MB. The
// first 1,024 are noticed; memory stays flat.
func TestNoticesOnceBounded(t *testing.T) {
	const n = 1_000_000
	for _, tc := range []struct {
		name string
		elem func(i int) string
	}{
		{"undeclared prefixes", func(i int) string { return "<p" + strconv.Itoa(i) + ":x/>" }},
		{"attributes given twice", func(i int) string { a := "a" + strconv.Itoa(i); return "<x " + a + `="" ` + a + `=""/>` }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			go func() {
				io.WriteString(pw, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url>`)
				var b strings.Builder
				for i := range n {
					b.WriteString(tc.elem(i))
					if b.Len() > 32<<10 || i == n-1 {
						if _, err := io.WriteString(pw, b.String()); err != nil {
							return
						}
						b.Reset()
					}
				}
				io.WriteString(pw, "<url><loc>https://www.example.com/b</loc></url></urlset>")
				pw.Close()
			}()
			r := NewReader(pr)
			notices := 0
			r.OnNotice = func(n Notice) {
				if n.Rule == RuleParseError {
					notices++
				}
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for _, want := range []string{"https://www.example.com/a", "https://www.example.com/b"} {
				if u, err := r.Read(); err != nil || u.Loc != want {
					t.Fatalf("got %v, %v; want %s", u, err, want)
				}
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(r)
			if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > 16<<20 {
				t.Errorf("the Reader holds %d MB", held>>20)
			}
			if notices != maxWarned {
				t.Errorf("%d parse-error notices, want the first %d", notices, maxWarned)
			}
		})
	}
}
