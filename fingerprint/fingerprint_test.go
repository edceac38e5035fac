package fingerprint

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sitemapkit/sitemapkit/internal/htmltoken"
)

// page is a built page of a test site: the parts a build fills in.
type page struct {
	title, text, footer, script, csrf, nonce, indent, extra string
}

func (p page) html() string {
	if p.title == "" {
		p.title = "Widgets"
	}
	if p.text == "" {
		p.text = "Our widgets are the best."
	}
	if p.footer == "" {
		p.footer = "© 2025 Example"
	}
	if p.script == "" {
		p.script = "app.3f2a.js"
	}
	if p.csrf == "" {
		p.csrf = "tok-1"
	}
	if p.nonce == "" {
		p.nonce = "n0nce"
	}
	return `<!DOCTYPE html><html><head><title>` + p.title + `</title>
<meta name="generator" content="Hugo 0.1 built 2025-01-01T10:00:00Z">
<meta name="csrf-token" content="` + p.csrf + `">
<meta name="description" content="All about widgets">
<link rel="stylesheet" href="/css/site.` + p.script + `.css">
<script nonce="` + p.nonce + `" src="/js/` + p.script + `"></script>
</head><body class="page">
<header><a href="/"><img src="/logo.png" alt="Example"></a><span>Visitors: 1234</span></header>
<nav><a href="/a">A</a></nav>
<main>` + p.indent + `<h1>Widgets</h1>` + p.indent + `<p>` + p.text + `</p>
<img src="/w.jpg" alt="A widget">` + p.extra + `
<form><input type="hidden" name="csrf" value="` + p.csrf + `"></form>
</main>
<!-- built at 10:00 -->
<footer>` + p.footer + `</footer>
<script>window.x = "` + p.nonce + `"</script>
</body></html>`
}

func sum(t testing.TB, h *Hasher, s string) uint64 {
	t.Helper()
	v, err := h.HTML(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestNoiseDoesNotCount(t *testing.T) {
	h, _ := New(Options{})
	ref := sum(t, h, page{}.html())
	for name, p := range map[string]page{
		"footer year":    {footer: "© 2026 Example"},
		"script name":    {script: "app.9c1d.js"},
		"CSRF token":     {csrf: "tok-2"},
		"nonce":          {nonce: "other"},
		"indentation":    {indent: "\n\t\t  "},
		"visitor count?": {}, // header text is chrome; changed below
	} {
		s := p.html()
		if name == "visitor count?" {
			s = strings.Replace(s, "Visitors: 1234", "Visitors: 1235", 1)
		}
		if got := sum(t, h, s); got != ref {
			t.Errorf("%s changed the fingerprint", name)
		}
	}
	s := strings.Replace(page{}.html(), "<!-- built at 10:00 -->", "<!-- built at 11:00 -->", 1)
	s = strings.Replace(s, `class="page"`, `class="page dark"`, 1)
	if sum(t, h, s) != ref {
		t.Error("a comment or a class changed the fingerprint")
	}
}

func TestContentCounts(t *testing.T) {
	h, _ := New(Options{})
	ref := sum(t, h, page{}.html())
	for name, s := range map[string]string{
		"main text":   page{text: "Our widgets are the very best."}.html(),
		"title":       page{title: "Widgets!"}.html(),
		"description": strings.Replace(page{}.html(), "All about widgets", "All about gadgets", 1),
		"image":       strings.Replace(page{}.html(), "/w.jpg", "/w2.jpg", 1),
		"image alt":   strings.Replace(page{}.html(), `alt="A widget"`, `alt="Two widgets"`, 1),
		"robots":      strings.Replace(page{}.html(), "</head>", `<meta name="robots" content="noindex"></head>`, 1),
		"canonical":   strings.Replace(page{}.html(), "</head>", `<link rel="canonical" href="https://www.example.com/w">`+"</head>", 1),
		"hreflang":    strings.Replace(page{}.html(), "</head>", `<link rel="alternate" hreflang="de" href="https://www.example.com/de/w">`+"</head>", 1),
		"JSON-LD":     page{extra: `<script type="application/ld+json">{"@type":"Product","offers":{"price":"9.99"}}</script>`}.html(),
	} {
		if sum(t, h, s) == ref {
			t.Errorf("a change of the %s left the fingerprint as it was", name)
		}
	}
	// A script written <script src=… /> stays open to </script>, as
	// browsers read it: what it swallows is not shown, and does not count.
	sc := `<main><p>text</p><script src="/a.js" />window.n = "%s";</script></main>`
	if sum(t, h, strings.Replace(sc, "%s", "n1", 1)) != sum(t, h, strings.Replace(sc, "%s", "n2", 1)) {
		t.Error("the text of a <script/> changed the fingerprint")
	}
	// Whitespace inside JSON-LD is not content.
	a := page{extra: `<script type="application/ld+json">{"a": 1}</script>`}.html()
	if sum(t, h, a) != sum(t, h, strings.Replace(a, `{"a": 1}`, "\n {\"a\":\n 1}", 1)) {
		t.Error("whitespace inside JSON-LD changed the fingerprint")
	}
}

func TestMainArticleBody(t *testing.T) {
	h, _ := New(Options{})
	withMain := `<body><p>outside</p><main>inside</main></body>`
	if sum(t, h, withMain) != sum(t, h, `<body><p>elsewhere</p><main>inside</main></body>`) {
		t.Error("with <main>, text outside it counted")
	}
	article := `<body><div>sidebar 1</div><article>story</article></body>`
	if sum(t, h, article) != sum(t, h, `<body><div>sidebar 2</div><article>story</article></body>`) {
		t.Error("with <article> and no <main>, text outside it counted")
	}
	if sum(t, h, article) == sum(t, h, `<body><div>sidebar 1</div><article>story 2</article></body>`) {
		t.Error("the article's text did not count")
	}
	body := `<body><header>h1</header><p>text</p><aside>a1</aside><footer>f1</footer></body>`
	if sum(t, h, body) != sum(t, h, `<body><header>h2</header><p>text</p><aside>a2</aside><footer>f2</footer></body>`) {
		t.Error("without <main> or <article>, header, aside or footer counted")
	}
	if sum(t, h, body) == sum(t, h, `<body><header>h1</header><p>text!</p><aside>a1</aside><footer>f1</footer></body>`) {
		t.Error("the body's text did not count")
	}
	// </head> is optional: <body>, or any element a head does not hold,
	// ends it, and the body's text counts.
	for _, p := range []string{
		`<html><head><title>t</title><body><p>%s</p></body></html>`,
		`<head><title>t</title><meta name="description" content="d"><p>%s</p>`,
	} {
		if sum(t, h, strings.Replace(p, "%s", "one", 1)) == sum(t, h, strings.Replace(p, "%s", "two", 1)) {
			t.Errorf("%s: without </head>, the body's text did not count", p)
		}
	}
	if sum(t, h, "<p>a b</p>") != sum(t, h, "<p>a\n\t b</p>") || sum(t, h, "<p>a</p><p>b</p>") == sum(t, h, "<p>ab</p>") {
		t.Error("whitespace is not normalised, or a tag does not separate words")
	}
}

func TestSelectors(t *testing.T) {
	h, err := New(Options{Content: "#post"})
	if err != nil {
		t.Fatal(err)
	}
	a := `<body><main><div id="post">the post</div><div>related: x</div></main></body>`
	if sum(t, h, a) != sum(t, h, strings.Replace(a, "related: x", "related: y", 1)) {
		t.Error("Content #post: text outside it counted")
	}
	if sum(t, h, a) == sum(t, h, strings.Replace(a, "the post", "the new post", 1)) {
		t.Error("Content #post: its text did not count")
	}
	h, err = New(Options{Ignore: ".ad, .counter"})
	if err != nil {
		t.Fatal(err)
	}
	b := `<main><p>text</p><span class="counter">12 views</span><div class="ad">buy</div></main>`
	if sum(t, h, b) != sum(t, h, strings.NewReplacer("12", "13", "buy", "sell").Replace(b)) {
		t.Error("Ignore .ad, .counter: they counted")
	}
	if sum(t, h, b) == sum(t, h, strings.Replace(b, "text", "text 2", 1)) {
		t.Error("Ignore: the rest did not count")
	}
	if _, err := New(Options{Content: "div["}); err == nil || !strings.Contains(err.Error(), `content selector "div["`) {
		t.Errorf("bad selector: %v", err)
	}
	if _, err := New(Options{Ignore: ":nope("}); err == nil || !strings.Contains(err.Error(), "ignore selector") {
		t.Errorf("bad selector: %v", err)
	}
}

// samePages are pages both passes read alike: the tree's and the stream's
// fingerprints of them must agree, since Options without a selector and
// with one that matches nothing mean the same.
var samePages = []string{
	page{}.html(),
	page{text: "other"}.html(),
	`<html><head><title>t</title></head><body><article><p>a</p><img src="x.png"></article></body></html>`,
	`<html><head><meta name="robots" content="noindex"><link rel="canonical" href="/c"></head><body><p>x</p><footer>f</footer></body></html>`,
	`<html><head></head><body><main><p>one</p></main><main><p>two</p></main></body></html>`,
	`<html><head><script type="application/ld+json">{"x":1}</script></head><body><nav>n</nav><p>y &amp; z</p></body></html>`,
	`<html><head></head><body><p>caf&eacute; na&iuml;ve</p><svg><title>icon</title></svg></body></html>`,
	`<html><head></head><body><template><p>t</p></template><noscript>ns</noscript><p>kept</p></body></html>`,
	`<html><head><title>t</title><body><p>no end of head</p></body></html>`,
	`<html><head></head><body><p>a</p><script src="/a.js"/>hidden</script><svg/><p>b</p></body></html>`,
	`<head><title>t</title><link rel="canonical" href="/c"><div>no body tag</div><img src="i.png" alt="i">`,
}

func TestPassesAgree(t *testing.T) {
	stream, _ := New(Options{})
	tree, _ := New(Options{Ignore: ".no-such-class"})
	for i, p := range samePages {
		if a, b := sum(t, stream, p), sum(t, tree, p); a != b {
			t.Errorf("page %d: stream %x, tree %x", i, a, b)
		}
	}
}

// TestBOM: a byte order mark added or dropped (by an editor, a build
// tool) is no change of the page, in either pass; it joined the page's
// first text.
func TestBOM(t *testing.T) {
	stream, _ := New(Options{})
	tree, _ := New(Options{Ignore: ".no-such-class"})
	for _, p := range []string{"<!DOCTYPE html><p>one</p>", "one", page{}.html(), ""} {
		for _, h := range []*Hasher{stream, tree} {
			if a, b := sum(t, h, p), sum(t, h, "\ufeff"+p); a != b {
				t.Errorf("%q: %x without a BOM, %x with one", p, a, b)
			}
		}
	}
	if sum(t, stream, "\ufeff<p>one</p>") == sum(t, stream, "\ufeff<p>two</p>") {
		t.Error("a change after the BOM is not seen")
	}
}

// script is a reader that returns its reads in turn, then io.EOF.
type script []struct {
	data string
	err  error
}

func (s *script) Read(p []byte) (int, error) {
	if len(*s) == 0 {
		return 0, io.EOF
	}
	r := (*s)[0]
	*s = (*s)[1:]
	return copy(p, r.data), r.err
}

// TestBOMReads: the mark is looked for in reads of any size, and an error
// in the first bytes is the page's, as it was before the mark was looked
// for. io.ReadFull dropped an error returned with the third byte, and took
// a reader's io.ErrUnexpectedEOF (a body cut short) for the end: the next
// read's io.EOF made the cut page a whole one; a reader that returns
// nothing for ever hung instead of failing.
func TestBOMReads(t *testing.T) {
	stream, _ := New(Options{})
	tree, _ := New(Options{Ignore: ".no-such-class"})
	cut := errors.New("connection reset")
	for _, h := range []*Hasher{stream, tree} {
		for _, p := range []string{"", "a", "ab", "\xef\xbb", "\ufeff", "\ufeff<p>one</p>", "<p>one</p>"} {
			want := sum(t, h, strings.TrimPrefix(p, "\ufeff"))
			if got, err := h.HTML(iotest.OneByteReader(strings.NewReader(p))); err != nil || got != want {
				t.Errorf("%q a byte at a time: %x, %v; want %x", p, got, err, want)
			}
			if got, err := h.HTML(iotest.DataErrReader(strings.NewReader(p))); err != nil || got != want {
				t.Errorf("%q with its io.EOF: %x, %v; want %x", p, got, err, want)
			}
		}
		for _, s := range []script{
			{{"<p>one</p>", cut}},
			{{"\ufeff<p>one</p>", cut}},
			{{"ab", io.ErrUnexpectedEOF}},
			{{"", io.ErrUnexpectedEOF}},
			{{"\xef", nil}, {"", cut}},
		} {
			first := s[0].data
			if _, err := h.HTML(&s); err == nil {
				t.Errorf("%q then an error: no error", first)
			}
		}
		if _, err := h.HTML(iotest.ErrReader(nil)); !errors.Is(err, io.ErrNoProgress) {
			t.Errorf("a reader that returns nothing: %v, want io.ErrNoProgress", err)
		}
	}
}

// endless is a reader of n bytes of text.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), e.n)
	for i := range k {
		p[i] = 'a' + byte(i%26)
	}
	e.n -= k
	return int(k), nil
}

func TestTooLarge(t *testing.T) {
	for _, o := range []Options{{}, {Ignore: ".x"}} {
		h, _ := New(o)
		if _, err := h.HTML(&endless{n: MaxPage + 10}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%+v: %v, want ErrTooLarge", o, err)
		}
		if _, err := h.HTML(&endless{n: MaxPage}); err != nil {
			t.Errorf("%+v: a page of exactly MaxPage: %v", o, err)
		}
	}
}

// TestHostileTag: a page of one tag with a million attributes cost the
// tokenizer 190 MB (and html.Parse as much, and a tree); both passes now
// refuse it at its tag's 1 MiB (see htmltoken).
func TestHostileTag(t *testing.T) {
	var page strings.Builder
	page.WriteString("<main>text</main><div")
	for i := 0; page.Len() < 10<<20; i++ {
		page.WriteString(" a" + strconv.Itoa(i) + "=x")
	}
	page.WriteString(">")
	for _, o := range []Options{{}, {Content: "main"}} {
		h, _ := New(o)
		if _, err := h.HTML(strings.NewReader(page.String())); !errors.Is(err, htmltoken.ErrTooLong) {
			t.Errorf("%+v: %v, want htmltoken.ErrTooLong", o, err)
		}
	}
	// In an <svg>, html.Parse reads a <style>'s text as tags (4 MB of
	// them cost it 600 MB); the streaming pass reads it as text.
	svg := "<main>text</main><svg><style>" + strings.TrimPrefix(page.String()[:4<<20], "<main>text</main>") + "></style></svg>"
	h, _ := New(Options{Content: "main"})
	if _, err := h.HTML(strings.NewReader(svg)); !errors.Is(err, htmltoken.ErrTooLong) {
		t.Errorf("a tag in an <svg>'s <style>: %v, want htmltoken.ErrTooLong", err)
	}
}

func TestFields(t *testing.T) {
	if Fields("ab", "c") == Fields("a", "bc") || Fields("a") == Fields("a", "") {
		t.Error("Fields is ambiguous")
	}
	// Fingerprints are kept from run to run: the function must not change.
	if got := Fields("x"); got != 0x3f59b69cbd0e49d8 {
		t.Errorf(`Fields("x") = %#x; a change makes every state see every URL as changed`, got)
	}
}
