package sitemap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readTrace reads data and writes down all a caller can see of it: each
// entry, its position and its fields' positions, every notice, the end.
func readTrace(data []byte, fast bool) string {
	defer func(f bool) { fastEntries = f }(fastEntries)
	fastEntries = fast
	r := NewReader(bytes.NewReader(data))
	r.MaxBytes = 1 << 20
	var b strings.Builder
	r.OnNotice = func(n Notice) { fmt.Fprintf(&b, "notice %+v\n", n) }
	for range len(data) + 2 {
		u, err := r.Read()
		if err != nil {
			fmt.Fprintf(&b, "end %v\n", err)
			break
		}
		j, _ := json.Marshal(u) // values, not the addresses %v shows
		fmt.Fprintf(&b, "url %s at %+v", j, r.Pos())
		for _, f := range coreNames {
			fmt.Fprintf(&b, " %s=%+v", f, r.FieldPos(f, 0))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// fastSeeds are the reader's test files and the shared corpus (when
// present), and generated sitemaps (see genEntries).
func fastSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, pattern := range []string{"testdata/reader/*", "../../shared/corpus/*/*/*", "../../shared/corpus/*/*/*/*"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Size() > 1<<20 {
				continue
			}
			if b, err := os.ReadFile(p); err == nil {
				seeds = append(seeds, b)
			}
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 300 {
		seeds = append(seeds, genEntries(r, 1+r.IntN(40)))
	}
	return seeds
}

// genEntries writes a urlset of n entries, most as sitemaps write them,
// others each with something the fast path leaves to the general one:
// fields out of order or repeated, attributes, comments, CDATA, another
// element, a prefix, spaces in tags, entities, empty or blank values.
func genEntries(r *rand.Rand, n int) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	if r.IntN(8) == 0 {
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	} else {
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	}
	sep := []string{"", "\n", "\r\n", " ", "\n  ", "\t"}
	vals := map[string][]string{
		"loc":        {"https://www.example.com/a?x=1&amp;y=2", " https://www.example.com/b ", "", "  ", "https://www.example.com/&#233;t&#xE9;", "https://www.example.com/&bogus;", "https://www.example.com/a & b", "https://www.example.com/\x01"},
		"lastmod":    {"2024-01-01", "2024-01-01T10:00:00+00:00", "", " ", "&#32;", "yesterday"},
		"changefreq": {"daily", "weekly", " monthly ", "Daily", "sometimes", ""},
		"priority":   {"0.5", "1.0", " 0.8 ", "1.5", ""},
	}
	for i := range n {
		b.WriteString(sep[r.IntN(len(sep))])
		tag := "url"
		if r.IntN(20) == 0 {
			tag = "s:url"
		}
		b.WriteString("<" + tag)
		if r.IntN(25) == 0 {
			b.WriteString(` id="x"`)
		}
		b.WriteString(">")
		order := []string{"loc", "lastmod", "changefreq", "priority"}
		switch r.IntN(12) {
		case 0:
			order[0], order[1] = order[1], order[0]
		case 1:
			order = append(order, "loc")
		case 2:
			order = order[:1+r.IntN(3)]
		case 3:
			order = order[1:]
		}
		for k, f := range order {
			b.WriteString(sep[r.IntN(len(sep))])
			v := vals[f][r.IntN(len(vals[f]))]
			if f == "loc" && r.IntN(2) == 0 {
				v = fmt.Sprintf("https://www.example.com/p%d?q=%d&amp;r=%d", i, k, r.IntN(9))
			}
			open, closing := "<"+f+">", "</"+f+">"
			switch r.IntN(40) {
			case 0:
				open = "<" + f + " >"
			case 1:
				closing = "</" + f + " >"
			case 2:
				v = "<![CDATA[" + v + "]]>"
			case 3:
				v += "<!-- c -->"
			case 4:
				open, closing = "<"+f+"/>", ""
				v = ""
			case 5:
				closing = "</" + f + "x>"
			}
			b.WriteString(open + v + closing)
		}
		switch r.IntN(15) {
		case 0:
			b.WriteString(`<image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://www.example.com/i.png</image:loc></image:image>`)
		case 1:
			b.WriteString("<!-- end -->")
		case 2:
			b.WriteString("text")
		}
		b.WriteString(sep[r.IntN(len(sep))] + "</" + tag + ">")
	}
	b.WriteString("\n</urlset>\n")
	out := []byte(b.String())
	if r.IntN(10) == 0 {
		out = out[:r.IntN(len(out))] // cut short
	}
	return out
}

// firstDiff returns the first line where a and b differ, from each.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, x, y)
		}
	}
	return ""
}

// TestFastEntrySame: with its fast path or without, the Reader gives the
// same entries, positions, notices and end, on the test files, the
// corpus, and sitemaps made to hit each case the fast path leaves alone.
func TestFastEntrySame(t *testing.T) {
	fast := 0
	for i, data := range fastSeeds(t) {
		want, got := readTrace(data, false), readTrace(data, true)
		if got != want {
			t.Fatalf("seed %d (%d bytes): with the fast path and without, the first difference:\n%s\ninput:\n%.2000s", i, len(data), firstDiff(got, want), data)
		}
		if strings.Contains(want, "url {") {
			fast++
		}
	}
	if fast < 200 {
		t.Errorf("only %d seeds with entries", fast)
	}
}

// FuzzFastEntry: the Reader with its fast path is the Reader without it,
// on any input. Seeds: testdata/reader, the corpus, generated sitemaps.
func FuzzFastEntry(f *testing.F) {
	for _, s := range fastSeeds(f) {
		if len(s) <= 64<<10 {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if want, got := readTrace(data, false), readTrace(data, true); got != want {
			t.Fatalf("with the fast path and without, the first difference:\n%s", firstDiff(got, want))
		}
	})
}

// TestIntern: the common values come back as the shared strings, the
// others as "".
func TestIntern(t *testing.T) {
	for _, c := range []string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"} {
		if got := intern(2, []byte(c)); got != c {
			t.Errorf("intern(changefreq %q) = %q", c, got)
		}
	}
	for _, p := range priorities {
		if got := intern(3, []byte(p)); got != p {
			t.Errorf("intern(priority %q) = %q", p, got)
		}
	}
	for _, v := range []string{"1.5", "0.55", "2", " 1", "1.", ".5", "0,5", "a.0", "Daily", "dailyy", ""} {
		if intern(2, []byte(v)) != "" || intern(3, []byte(v)) != "" {
			t.Errorf("intern(%q) is not empty", v)
		}
	}
}
