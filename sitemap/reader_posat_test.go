package sitemap_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// xmlPositions returns the position of each offset in offs (ascending) of
// doc, counting lines as XML does (LF, CR LF, a CR alone): the oracle
// PosAt is held to.
func xmlPositions(doc string, offs []int64) []sitemap.Position {
	var out []sitemap.Position
	line, start, i := 1, 0, 0
	for _, off := range offs {
		for ; i < int(off); i++ {
			switch {
			case doc[i] == '\r' && i+1 < len(doc) && doc[i+1] == '\n':
				// The LF ends the line.
			case doc[i] == '\r' || doc[i] == '\n':
				line++
				start = i + 1
			}
		}
		out = append(out, sitemap.Position{Line: line, Col: int(off) - start + 1, Offset: off})
	}
	return out
}

// posAtDoc returns a urlset of n URLs laid out by style, some with locs
// long enough that the Reader lets go of its text in the middle of an
// entry, and the offset of each <loc>.
func posAtDoc(rng *rand.Rand, style string, n int) (string, []int64) {
	eol := map[string]string{"lf": "\n", "crlf": "\r\n", "cr": "\r", "one": "", "mixed": ""}[style]
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + eol + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + eol)
	var offs []int64
	for i := range n {
		e := eol
		if style == "mixed" {
			e = []string{"", "\n", "\r\n", "\r", "\n\n", " "}[rng.IntN(6)]
		}
		b.WriteString("<url>" + e + " ")
		offs = append(offs, int64(b.Len()))
		path := fmt.Sprintf("p%d", i)
		if rng.IntN(50) == 0 {
			path += strings.Repeat("x", 1000+rng.IntN(9000))
		}
		fmt.Fprintf(&b, "<loc>https://www.example.com/%s</loc>%s<lastmod>2024-01-02</lastmod></url>%s", path, e, e)
	}
	b.WriteString("</urlset>" + eol)
	return b.String(), offs
}

// TestPosAtAfterDiscard holds each entry's FieldOffset until the Reader
// says it lets go of text (OnDiscard), and only then turns the offsets
// into positions: they must be where the document has them, whatever its
// line ends, however it is read, and also for a line that began before
// the text the Reader still holds.
func TestPosAtAfterDiscard(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, style := range []string{"lf", "crlf", "cr", "one", "mixed"} {
		for _, reader := range []string{"whole", "half", "byte"} {
			t.Run(style+"/"+reader, func(t *testing.T) {
				n := 3000
				if reader == "byte" {
					n = 400
				}
				doc, offs := posAtDoc(rng, style, n)
				want := xmlPositions(doc, offs)
				var src io.Reader = strings.NewReader(doc)
				switch reader {
				case "half":
					src = iotest.HalfReader(src)
				case "byte":
					src = iotest.OneByteReader(src)
				}
				r := sitemap.NewReader(src)
				var held []int // indexes of entries whose offsets wait
				discards := 0
				resolve := func() {
					for _, i := range held {
						if got := r.PosAt(offs[i]); got != want[i] {
							t.Fatalf("entry %d: PosAt(%d) = %+v, want %+v", i, offs[i], got, want[i])
						}
					}
					held = held[:0]
				}
				discarded := false
				r.OnDiscard = func() {
					discards++
					discarded = true
					resolve()
				}
				for i := 0; ; i++ {
					u, err := r.Read()
					if err == io.EOF {
						if i != n {
							t.Fatalf("read %d entries, want %d", i, n)
						}
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					if u.Loc == "" {
						t.Fatalf("entry %d: no loc", i)
					}
					if off := r.FieldOffset("loc", 0); off != offs[i] {
						t.Fatalf("entry %d: FieldOffset = %d, want %d", i, off, offs[i])
					}
					switch {
					case discarded || rng.IntN(7) == 0:
						// The entry last returned: exact, even when the
						// start of its text is gone.
						if got := r.PosAt(offs[i]); got != want[i] {
							t.Fatalf("entry %d (discarded %v): PosAt = %+v, want %+v", i, discarded, got, want[i])
						}
						if !discarded && rng.IntN(2) == 0 {
							held = append(held, i) // and again later, going back
						}
					default:
						held = append(held, i)
					}
					if rng.IntN(11) == 0 {
						// Counting forward meanwhile, as a notice or
						// another field's position does.
						if got, w := r.FieldPos("lastmod", 0), r.PosAt(r.FieldOffset("lastmod", 0)); got != w || got.Line == 0 {
							t.Fatalf("entry %d: FieldPos(lastmod) = %+v, PosAt = %+v", i, got, w)
						}
					}
					discarded = false
				}
				if discards < 3 {
					t.Fatalf("OnDiscard ran %d times: the document does not exercise it", discards)
				}
				resolve()
				// Text the Reader no longer holds has no line.
				if p := r.PosAt(offs[0]); p.Line != 0 && style != "one" {
					t.Errorf("PosAt of the first entry after the end = %+v, want no line", p)
				}
			})
		}
	}
}

// TestPosAtCRLF: the LF of a CR LF has one position, whether lines are
// counted back to it or forward.
func TestPosAtCRLF(t *testing.T) {
	doc := "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\r\n<url><loc>https://www.example.com/a</loc></url></urlset>"
	r := sitemap.NewReader(strings.NewReader(doc))
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	lf := int64(strings.Index(doc, "\n"))
	want := sitemap.Position{Line: 2, Col: 1, Offset: lf}
	if p := r.PosAt(r.FieldOffset("loc", 0)); p.Line != 2 || p.Col != 6 {
		t.Errorf("loc at %+v, want 2:6", p)
	}
	if p := r.PosAt(lf); p != want {
		t.Errorf("counted back: %+v, want %+v", p, want)
	}
	if p := r.PosAt(lf); p != want {
		t.Errorf("again: %+v, want %+v", p, want)
	}
}
