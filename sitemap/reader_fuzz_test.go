package sitemap_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// FuzzReader reads anything: the Reader must not panic, must end, must
// place every entry after the one before, and must stay within its cap.
// Seeds: the table tests, testdata/reader and the shared corpus (when
// present), each also gzipped and zstd-compressed.
func FuzzReader(f *testing.F) {
	var seeds [][]byte
	for _, c := range rdCases {
		seeds = append(seeds, []byte(c.in))
	}
	for _, pattern := range []string{"testdata/reader/*", "../../shared/corpus/*/*/*", "../../shared/corpus/*/*/*/*"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Size() > 64<<10 {
				continue
			}
			if b, err := os.ReadFile(p); err == nil {
				seeds = append(seeds, b)
			}
		}
	}
	for _, b := range seeds {
		f.Add(b)
	}
	f.Add(gzipBytes(f, []byte(smallSitemap)))
	f.Add(zstdBytes(f, []byte(smallSitemap)))
	f.Fuzz(func(t *testing.T, data []byte) {
		const max = 1 << 20
		for _, src := range []io.Reader{bytes.NewReader(data)} {
			r := sitemap.NewReader(src)
			r.MaxBytes = max
			var last sitemap.Position
			notices := 0
			r.OnNotice = func(n sitemap.Notice) {
				notices++
				if n.Pos.Line < 1 || n.Pos.Col < 1 || n.Rule == "" || n.Msg == "" {
					t.Fatalf("notice %+v", n)
				}
			}
			// Each entry's loc, placed by PosAt once the Reader is about
			// to let go of its text, is where FieldPos placed it.
			var held []sitemap.Position
			discarded := false
			resolve := func() {
				for _, want := range held {
					if got := r.PosAt(want.Offset); got != want {
						t.Fatalf("PosAt(%d) = %+v, FieldPos said %+v", want.Offset, got, want)
					}
				}
				held = held[:0]
			}
			r.OnDiscard = func() { resolve(); discarded = true }
			defer resolve()
			for i := 0; ; i++ {
				if i > len(data)+1 {
					t.Fatalf("%d entries from %d bytes", i, len(data))
				}
				u, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					var se *sitemap.SyntaxError
					if ok := asSyntax(err, &se); !ok || se.Line < 1 || se.Col < 1 {
						t.Fatalf("error %v (%T) without a position", err, err)
					}
					if sitemap.ErrorRule(err) == "" {
						t.Fatalf("error %v without a rule", err)
					}
					if _, again := r.Read(); again != err {
						t.Fatalf("error not sticky: %v then %v", err, again)
					}
					break
				}
				if u.Loc == "" {
					t.Fatalf("entry without loc: %+v", u)
				}
				p := r.Pos()
				if p.Line < 1 || p.Col < 1 || p.Offset <= last.Offset && i > 0 || p.Line < last.Line {
					t.Fatalf("entry %d at %+v after %+v", i, p, last)
				}
				for _, f := range []string{"loc", "lastmod", "changefreq", "priority"} {
					if fp := r.FieldPos(f, 0); fp.Line < p.Line || fp.Offset < p.Offset {
						t.Fatalf("field %s at %+v before its entry at %+v", f, fp, p)
					}
				}
				if lp := r.FieldPos("loc", 0); r.FieldOffset("loc", 0) != lp.Offset {
					t.Fatalf("FieldOffset(loc) = %d, FieldPos %+v", r.FieldOffset("loc", 0), lp)
				} else if !discarded {
					held = append(held, lp)
				}
				discarded = false
				// Extension fields lie within their entry, after the
				// element that holds them.
				end := r.InputOffset()
				within := func(field string, i int, after sitemap.Position) sitemap.Position {
					fp := r.FieldPos(field, i)
					if fp.Line < after.Line || fp.Offset < after.Offset || fp.Offset >= end || fp.Col < 1 {
						t.Fatalf("%s[%d] at %+v: not within %+v..%d", field, i, fp, after, end)
					}
					return fp
				}
				for j := range u.Images {
					within("image:loc", j, within("image:image", j, p))
				}
				for j := range u.Videos {
					vp := within("video:video", j, p)
					for _, f := range []string{"video:thumbnail_loc", "video:title", "video:content_loc", "video:tag", "video:restriction@relationship"} {
						within(f, j, vp)
					}
				}
				if u.News != nil {
					within("news:name", 0, within("news:news", 0, p))
				}
				for j := range u.Alternates {
					within("xhtml:link", j, p)
				}
				last = p
			}
			if r.InputOffset() > max {
				t.Fatalf("read %d bytes past the cap", r.InputOffset())
			}
		}
	})
}

func asSyntax(err error, se **sitemap.SyntaxError) bool {
	return errors.As(err, se)
}
