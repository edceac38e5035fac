package lint

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDuplicatePlaces: a duplicate is reported at its <loc>, line and
// column counted as XML counts them, though the checker counts only the
// duplicates' lines, and only before the Reader lets go of their text.
// The documents are long (the Reader's buffer is refilled many times,
// sometimes in the middle of an entry, past a long loc), laid out with
// each kind of line end or on one line, and checked with the set in
// memory and spilled to runs (every URL's place is then kept).
func TestDuplicatePlaces(t *testing.T) {
	const base = "https://www.example.com/"
	for _, style := range []string{"lf", "crlf", "cr", "one", "mixed", "txt"} {
		for _, spilled := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/spilled=%v", style, spilled), func(t *testing.T) {
				if spilled {
					defer func(m int) { setMemURLs = m }(setMemURLs)
					setMemURLs = 500
				}
				rng := rand.New(rand.NewPCG(3, 4))
				// want: "file:line:col" of each loc listed before, here
				// or in the earlier document.
				want := map[string]bool{}
				var docs [][]byte
				var listed []string
				inSet := map[string]bool{}
				for f := range 2 {
					name := docName(style, f)
					var b bytes.Buffer
					line, lineStart := 1, 0
					write := func(s string) {
						for i := 0; i < len(s); i++ {
							c := s[i]
							if c == '\n' && b.Len() > 0 && b.Bytes()[b.Len()-1] == '\r' {
								lineStart = b.Len() + 1 // the CR ended the line
							} else if c == '\n' || c == '\r' {
								line++
								lineStart = b.Len() + 1
							}
							b.WriteByte(c)
						}
					}
					if style != "txt" {
						write(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
					}
					for i := range 2000 {
						eol := map[string]string{"lf": "\n", "crlf": "\r\n", "cr": "\r", "one": ""}[style]
						if style == "mixed" {
							eol = []string{"", "\n", "\r\n", "\r", " "}[rng.IntN(5)]
						}
						loc := base + fmt.Sprintf("f%d-%d", f, i)
						switch {
						case len(listed) > 0 && rng.IntN(6) == 0:
							loc = listed[rng.IntN(len(listed))]
						case rng.IntN(40) == 0:
							loc += strings.Repeat("x", 500+rng.IntN(6000))
						}
						if style != "txt" {
							write("<url>" + eol + "  ")
						}
						if inSet[loc] {
							want[fmt.Sprintf("%s:%d:%d", name, line, b.Len()-lineStart+1)] = true
						}
						if style == "txt" {
							write(loc + "\n")
						} else {
							write("<loc>" + loc + "</loc>" + eol + "</url>" + eol)
						}
						if !inSet[loc] {
							inSet[loc] = true
							listed = append(listed, loc)
						}
					}
					if style != "txt" {
						write("</urlset>")
					}
					docs = append(docs, b.Bytes())
				}
				got := map[string]bool{}
				c := &Checker{Now: testNow, MaxPerRule: 1 << 20, TempDir: t.TempDir(), Report: func(d Diagnostic) {
					if d.Rule == DuplicateURL.Name {
						got[fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Col)] = true
					}
				}}
				for f, doc := range docs {
					name := docName(style, f)
					if _, err := c.CheckDocument(context.Background(), name, base+name, bytes.NewReader(doc)); err != nil {
						t.Fatal(err)
					}
				}
				c.Finish()
				if len(want) < 300 {
					t.Fatalf("only %d duplicates: the test does not exercise the check", len(want))
				}
				for k := range want {
					if !got[k] {
						t.Errorf("no duplicate-url at %s", k)
					}
				}
				for k := range got {
					if !want[k] {
						t.Errorf("duplicate-url at %s, where no duplicate is", k)
					}
				}
			})
		}
	}
}

func docName(style string, i int) string {
	if style == "txt" {
		return fmt.Sprintf("s%d.txt", i)
	}
	return fmt.Sprintf("s%d.xml", i)
}
