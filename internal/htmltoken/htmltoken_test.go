package htmltoken

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/net/html"
)

// tokens lists what z returns, as html.Tokenizer's Token gives it, and
// its error.
func tokens(next func() html.TokenType, token func() html.Token, errf func() error) ([]html.Token, error) {
	var out []html.Token
	for next() != html.ErrorToken {
		out = append(out, token())
	}
	return out, errf()
}

// same fails unless t's tokens of page are html.Tokenizer's.
func same(t *testing.T, page []byte) {
	t.Helper()
	want, werr := func() ([]html.Token, error) {
		z := html.NewTokenizer(bytes.NewReader(page))
		return tokens(z.Next, z.Token, z.Err)
	}()
	z := NewTokenizer(bytes.NewReader(page))
	got, err := tokens(z.Next, z.Token, z.Err)
	if !errors.Is(err, werr) {
		t.Fatalf("error %v, html.Tokenizer's %v", err, werr)
	}
	if len(got) != len(want) {
		t.Fatalf("%d tokens, html.Tokenizer's %d", len(got), len(want))
	}
	for i := range got {
		if got[i].String() != want[i].String() || got[i].Type != want[i].Type {
			t.Fatalf("token %d: %v, html.Tokenizer's %v", i, got[i], want[i])
		}
	}
}

// TestSameTokens: within the bounds, the tokens are html.Tokenizer's, for
// the pages of the crawler's and fingerprint's tests and for raw text
// near its bound.
func TestSameTokens(t *testing.T) {
	var pages []string
	for _, glob := range []string{"../../source/testdata/*/*.html", "../../examples/*/*/*.html", "../../examples/*/*/*/*.html", "../../examples/*/*/*/*/*.html", "../../examples/*/*/*/*/*/*.html"} {
		m, _ := filepath.Glob(glob)
		pages = append(pages, m...)
	}
	if len(pages) < 20 {
		t.Fatalf("only %d test pages found", len(pages))
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(p, func(t *testing.T) { same(t, b) })
	}
	big := strings.Repeat("x<y>z ", MaxTag/6*3)
	for name, page := range map[string]string{
		"script of 3 MiB":               "<p>a</p><script>" + big + "</script><a href=/b>b</a>",
		"SCRIPT self-closed":            "<SCRIPT src=x />" + big + "</script><a href=/b>b</a>",
		"textarea":                      "<textarea>" + big + "</textarea>",
		"plaintext":                     "<plaintext>" + big,
		"text of 3 MiB":                 "<pre>" + strings.Repeat("t", 3<<20) + "</pre><a href=/b>b</a>",
		"text of 3 MiB, then tags":      strings.Repeat("t ", 3<<19) + "<a href=/b>b</a>",
		"tag of 900 KiB":                "<div data-x=\"" + strings.Repeat("y", 900<<10) + "\">t</div>",
		"comment of 900 KiB":            "<!--" + strings.Repeat("c", 900<<10) + "-->",
		"empty":                         "",
		"empty script, then text":       "<script></script>" + strings.Repeat("t", 3<<20),
		"script opening with </scripts": "<script></scripts" + big + "</script>",
		"style opening with </":         "<style></" + big + "</style>",
	} {
		t.Run(name, func(t *testing.T) { same(t, []byte(page)) })
	}
	// Read a byte at a time, as a slow connection gives a page.
	for _, page := range []string{"<script></script><p>a", "<script></scrip", "<title></title", "<xmp></xmp>", "<textarea></textareax>a</textarea>", "<script>a</script>", "<plaintext></plaintext>"} {
		z := html.NewTokenizer(strings.NewReader(page))
		want, werr := tokens(z.Next, z.Token, z.Err)
		b := NewTokenizer(iotest.OneByteReader(strings.NewReader(page)))
		got, err := tokens(b.Next, b.Token, b.Err)
		if err != werr || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q a byte at a time: %v, %v; html.Tokenizer's %v, %v", page, got, err, want, werr)
		}
	}
}

// TestTooLong: a tag past MaxTag outside its quoted values, or any token
// past MaxText, fails the read with ErrTooLong, having allocated for the
// bound, not for the token: a million attributes in one tag cost 190 MB
// through html.Tokenizer.
func TestTooLong(t *testing.T) {
	var attrs strings.Builder
	for i := 0; attrs.Len() < 10<<20; i++ {
		attrs.WriteString(" a" + strconv.Itoa(i) + "=x")
	}
	for name, page := range map[string]string{
		"tag of a million attributes": "<p>ok</p><div" + attrs.String() + ">",
		"end tag":                     "</div" + attrs.String() + ">",
		"unquoted value":              "<img src=data:" + strings.Repeat("A", 2<<20) + ">",
		"attributes of a script tag":  "<script" + attrs.String() + "></script>",
		// The tokenizer reads an empty raw text and its end tag in one
		// Next: the end tag is a tag still.
		"end tag of an empty script":                       "<script></script" + attrs.String() + ">",
		"end tag of an empty TITLE, read a byte at a time": "<TITLE></Title" + attrs.String() + ">",
		"end tag of an empty self-closed style":            "<style/></STYLE\t" + attrs.String() + ">",
	} {
		t.Run(name, func(t *testing.T) {
			var r io.Reader = strings.NewReader(page)
			if strings.Contains(name, "byte at a time") {
				r = iotest.OneByteReader(r)
			}
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			err := Check(r)
			runtime.ReadMemStats(&m1)
			if !errors.Is(err, ErrTooLong) {
				t.Fatalf("error %v, want ErrTooLong", err)
			}
			if a := m1.TotalAlloc - m0.TotalAlloc; a > 64<<20 {
				t.Errorf("%d MB allocated to refuse it, want the bound's worth (under 64)", a>>20)
			}
		})
	}
	defer func(a, b int) { maxTag, maxText = a, b }(maxTag, maxText)
	maxText = 4 << 20
	for _, page := range []string{"<style>" + strings.Repeat("s", 5<<20) + "</style>", "<p>" + strings.Repeat("t", 5<<20),
		"<!--" + strings.Repeat("c", 5<<20) + "-->", `<img src="` + strings.Repeat("d", 5<<20) + `">`} {
		if err := Check(strings.NewReader(page)); !errors.Is(err, ErrTooLong) {
			t.Errorf("text over MaxText (%.20q…): %v, want ErrTooLong", page, err)
		}
	}
	// A page ending exactly at a token's bound is whole.
	maxText = 10
	if err := Check(strings.NewReader("0123456789")); err != nil {
		t.Errorf("text of exactly the bound: %v", err)
	}
}

// TestNextIsNotRawText: after NextIsNotRawText, what follows a <script>
// or a <style> is read as tags, and bounded as tags; the tokens are
// html.Tokenizer's told the same.
func TestNextIsNotRawText(t *testing.T) {
	notRaw := func(next func() html.TokenType, notRaw func()) func() html.TokenType {
		return func() html.TokenType {
			tt := next()
			if tt == html.StartTagToken {
				notRaw()
			}
			return tt
		}
	}
	page := "<svg><style><p a=1>x</p></style><title><b c=d></title><script></script></svg>"
	w := html.NewTokenizer(strings.NewReader(page))
	want, werr := tokens(notRaw(w.Next, w.NextIsNotRawText), w.Token, w.Err)
	z := NewTokenizer(strings.NewReader(page))
	got, err := tokens(notRaw(z.Next, z.NextIsNotRawText), z.Token, z.Err)
	if err != werr || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%v, %v; html.Tokenizer's %v, %v", got, err, want, werr)
	}

	var attrs strings.Builder
	for i := 0; attrs.Len() < 10<<20; i++ {
		attrs.WriteString(" a" + strconv.Itoa(i))
	}
	for _, page := range []string{"<style><div" + attrs.String() + ">", "<script></script" + attrs.String() + ">"} {
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		z := NewTokenizer(strings.NewReader(page))
		_, err := tokens(notRaw(z.Next, z.NextIsNotRawText), z.Token, z.Err)
		runtime.ReadMemStats(&m1)
		if !errors.Is(err, ErrTooLong) {
			t.Errorf("%.20q…: error %v, want ErrTooLong", page, err)
		}
		if a := m1.TotalAlloc - m0.TotalAlloc; a > 64<<20 {
			t.Errorf("%.20q…: %d MB allocated to refuse it, want the bound's worth (under 64)", page, a>>20)
		}
	}
}

// TestTokenOfTheBound: a token of MaxText bytes is read, however far the
// tokenizer reads past it to find its end ("<a" after text, "</noframes>"
// after raw text), and however the page comes, a byte at a time or whole.
func TestTokenOfTheBound(t *testing.T) {
	defer func(a, b int) { maxTag, maxText = a, b }(maxTag, maxText)
	maxText = 100
	text := strings.Repeat("t", 100)
	for _, page := range []string{
		text + "<a>",
		text + "</a>",
		"<textarea>" + text + "</textarea>",
		"<noframes>" + text + "</NOFRAMES>",
		"<script>" + text + "</script\n>",
		"<p>" + text + "<!---->",
	} {
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(page)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			if err := Check(r); err != nil {
				t.Errorf("%.14q… (a byte at a time: %v): %v", page, oneByte, err)
			}
		}
	}
}

// TestCheckForeign: past an <svg> or a <math>, html.Parse reads as tags a
// <style>'s text, and what the tokenizer alone reads as a quoted value
// after a "<![CDATA[": Check bounds those tags too (a page of 4 MB made
// html.Parse allocate 600 MB and keep 280). What the parser reads as text
// is no tag: the pages of the tests, an <svg> of CSS, a page without
// <svg> of a script that "<" opens, are read.
func TestCheckForeign(t *testing.T) {
	var attrs strings.Builder
	for i := 0; attrs.Len() < 4<<20; i++ {
		attrs.WriteString(" a" + strconv.Itoa(i))
	}
	for _, page := range []string{
		"<p>a</p><svg><style><div" + attrs.String() + "></style></svg>",
		"<MATH><title>x<b" + attrs.String() + "></title>",
		`<Svg><![CDATA[><x y="]]><div` + attrs.String() + `">`,
	} {
		if err := Check(strings.NewReader(page)); !errors.Is(err, ErrTooLong) {
			t.Errorf("%.30q…: %v, want ErrTooLong", page, err)
		}
	}
	for _, page := range []string{
		"<svg><style>" + strings.Repeat("a { fill: red } ", 3<<16) + "</style></svg>",
		"<script>if (a<b" + attrs.String() + ") {}</script><svg></svg>",
		`<svg><path d="M0 0L1 1"/></svg><script>` + strings.Repeat("for(i=0;i<n;i++)x=a>b;", 1<<17) + "</script>",
		"<svg><![CDATA[" + strings.Repeat("x ", 1<<20) + "]]></svg><div class=\"" + attrs.String() + "\">",
	} {
		if err := Check(strings.NewReader(page)); err != nil {
			t.Errorf("%.30q…: %v", page, err)
		}
	}
	pages, _ := filepath.Glob("../../source/testdata/*/*.html")
	for _, glob := range []string{"../../examples/*/*/*.html", "../../examples/*/*/*/*.html", "../../examples/*/*/*/*/*.html"} {
		m, _ := filepath.Glob(glob)
		pages = append(pages, m...)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestReadError: the page's own read error is the Tokenizer's.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	err := Check(io.MultiReader(strings.NewReader("<p>a"), errReader{boom}))
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want the reader's", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// splitReader serves s in reads of 1 to 17 bytes, their sizes from s's
// own bytes: a page as a network gives it, cut anywhere.
type splitReader struct {
	s string
	i int
}

func (r *splitReader) Read(p []byte) (int, error) {
	if r.i >= len(r.s) {
		return 0, io.EOF
	}
	n := min(len(p), len(r.s)-r.i, 1+int(r.s[r.i*7%len(r.s)])%17)
	copy(p, r.s[r.i:r.i+n])
	r.i += n
	return n, nil
}

// FuzzTokenizer: whatever the page, within the bounds (small here, so that
// the fuzzer reaches them) the tokens are html.Tokenizer's; past them, the
// error is ErrTooLong, and only past them.
func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{"<p a=1 b='2'>x</p>", "<script>a<b>c</script>d", "<!-- x --><title>t</title>", "<SCRIPT/>x</script >", "<plaintext><p>", "<style a=\">\">x</style>", "</x y=z>", "<!DOCTYPE html><textarea></textarea>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		defer func(a, b int) { maxTag, maxText = a, b }(maxTag, maxText)
		// Bounds from the page's length: most pages are past the
		// smallest, few past the largest.
		maxTag, maxText = 1<<10, 4<<10
		if k := len(page) % 3; k > 0 {
			maxTag, maxText = 8*k, 32*k
		}
		var r io.Reader = strings.NewReader(page)
		if len(page)%2 == 1 {
			r = &splitReader{s: page}
		}
		z := NewTokenizer(r)
		got, err := tokens(z.Next, z.Token, z.Err)
		w := html.NewTokenizer(strings.NewReader(page))
		want, werr := tokens(w.Next, w.Token, w.Err)
		if errors.Is(err, ErrTooLong) {
			if len(page) <= maxTag {
				t.Fatalf("ErrTooLong for a page of %d bytes", len(page))
			}
			if len(got) > len(want) {
				t.Fatalf("%d tokens before ErrTooLong, html.Tokenizer's all %d", len(got), len(want))
			}
			// The text, comment or doctype being read when the bound is
			// reached is returned as far as it went (a '<' or an entity
			// cut short included), as at the end of any read that fails:
			// not compared. A tag cut short is no token.
			if n := len(got); n > 0 && (got[n-1].Type == html.TextToken || got[n-1].Type == html.CommentToken || got[n-1].Type == html.DoctypeToken) {
				got = got[:n-1]
			}
			want = want[:len(got)]
		} else if err != werr {
			t.Fatalf("error %v, html.Tokenizer's %v", err, werr)
		}
		for i := range got {
			if got[i].String() != want[i].String() || got[i].Type != want[i].Type {
				t.Fatalf("token %d: %v, html.Tokenizer's %v", i, got[i], want[i])
			}
		}
		// A tagScan reads each tag as the tokenizer does: it is done at
		// the tag's last byte, not before, and counts at least its
		// attributes' names. And a page of no token over maxText, no tag
		// over maxTag, is read whole.
		over := false
		w = html.NewTokenizer(strings.NewReader(page))
		for tt := w.Next(); tt != html.ErrorToken; tt = w.Next() {
			raw := string(w.Raw())
			over = over || len(raw) > maxText
			if tt != html.StartTagToken && tt != html.EndTagToken && tt != html.SelfClosingTagToken {
				continue
			}
			var sc tagScan
			for k := range len(raw) {
				if sc.state == sDone {
					t.Fatalf("tag %q: the scan ended at byte %d of %d", raw, k, len(raw))
				}
				sc.feed([]byte{raw[k]})
			}
			if sc.state != sDone && raw[len(raw)-1] == '>' {
				t.Fatalf("tag %q: the scan did not end at its '>' (state %d)", raw, sc.state)
			}
			over = over || sc.counted > maxTag
			names := 0
			for more := true; more; {
				var k []byte
				k, _, more = w.TagAttr()
				// A NUL is read as one byte, given as three (U+FFFD).
				names += len(k) - 2*bytes.Count(k, []byte("\ufffd"))
			}
			if sc.counted < names {
				t.Fatalf("tag %q: %d bytes counted, its attributes' names take %d", raw, sc.counted, names)
			}
		}
		// What the page's end cut short (a tag without its ">").
		var sc tagScan
		sc.feed(w.Raw())
		if errors.Is(err, ErrTooLong) && !over && len(w.Raw()) <= maxText && sc.counted <= maxTag {
			t.Fatalf("ErrTooLong, but no token is over %d bytes, no tag over %d", maxText, maxTag)
		}
	})
}
