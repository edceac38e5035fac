// Package fingerprint tells whether a page's significant content changed:
// a 64-bit fingerprint of what a reader and a search engine see of the
// page, and none of what a build changes on every page at each deploy.
//
// What counts, with the default Options:
//
//   - the main text: the text of <main> if the page has one (all of them),
//     else of <article>, else of the whole body but for <header>, <nav>,
//     <footer> and <aside>; with the <img> (src and alt) inside it;
//   - the title, <meta name="description">, <meta name="robots"> and
//     <meta name="googlebot">, <link rel="canonical">, the hreflang
//     alternates (<link rel="alternate" hreflang href>), and the JSON-LD
//     (<script type="application/ld+json">).
//
// Text has its whitespace normalised: any run of spaces, and every tag
// boundary, is one space. Never counted: <script> (but JSON-LD), <style>,
// <noscript>, <template>, <svg>, comments, and every other attribute, so
// that a cache-busting asset name (app.3f2a.js), a nonce, a CSRF token, a
// generator's timestamp, class names and indentation change nothing; nor,
// outside <main> or <article>, a footer's year or a counter in the header.
//
// A site tunes this with CSS selectors (Options): Content names the
// elements whose text is the main content, Ignore elements that never
// count (a view counter, an advertisement).
package fingerprint

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/andybalholm/cascadia"
	"github.com/cespare/xxhash/v2"
	"github.com/sitemapkit/sitemapkit/internal/htmltoken"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxPage is the largest page HTML reads: a page is read whole, and the
// cap keeps one hostile page from taking the memory of a run.
const MaxPage = 16 << 20

// ErrTooLarge is the error of a page longer than MaxPage.
var ErrTooLarge = fmt.Errorf("page larger than %d MiB", MaxPage>>20)

// Options tunes what counts. The zero value is the rules of the package
// doc.
type Options struct {
	// Content is a CSS selector: when set, the text of the elements it
	// matches is the main content, instead of <main>'s. A page it matches
	// nothing in falls back to <article>, then the body.
	Content string
	// Ignore is a CSS selector: the elements it matches, with everything
	// inside them, never count, wherever they are (the head included).
	Ignore string
}

// A Hasher fingerprints pages with one set of Options, whose selectors it
// compiled once. It is safe for concurrent use.
type Hasher struct {
	content, ignore cascadia.Matcher
}

// New compiles o's selectors; a bad one is an error that names it.
func New(o Options) (*Hasher, error) {
	h := &Hasher{}
	var err error
	if o.Content != "" {
		if h.content, err = cascadia.ParseGroup(o.Content); err != nil {
			return nil, fmt.Errorf("content selector %q: %w", o.Content, err)
		}
	}
	if o.Ignore != "" {
		if h.ignore, err = cascadia.ParseGroup(o.Ignore); err != nil {
			return nil, fmt.Errorf("ignore selector %q: %w", o.Ignore, err)
		}
	}
	return h, nil
}

// HTML returns the fingerprint of the page r holds, read to its end (at
// most MaxPage bytes: a longer page is ErrTooLarge). Any bytes are a page:
// HTML parses as browsers do, so only reading can fail.
func (h *Hasher) HTML(r io.Reader) (uint64, error) {
	lr := &io.LimitedReader{R: skipBOM(r), N: MaxPage + 1}
	var c collector
	c.init()
	c.selected = h.content != nil
	if h.content == nil && h.ignore == nil {
		// No selector: a streaming pass, no tree.
		z := htmltoken.NewTokenizer(lr)
		for {
			tt := z.Next()
			if tt == html.ErrorToken {
				break
			}
			c.token(z.Tokenizer, tt)
		}
		if err := z.Err(); err != io.EOF {
			return 0, fmt.Errorf("fingerprint: %w", err)
		}
	} else {
		// html.Parse has no bound on a tag (see htmltoken): the page is
		// tokenized within the bounds first, and past an <svg> or a
		// <math> (whose <style> the parser reads as tags, the tokenizer
		// alone as text) every "<" is taken for a tag's (htmltoken.Check).
		// A tree costs some 20 times its page anyway (10 MB of <br> is
		// 280 MB of nodes), so this path is bounded by MaxPage above all.
		page, err := io.ReadAll(lr)
		if err == nil {
			err = htmltoken.Check(bytes.NewReader(page))
		}
		if err != nil {
			return 0, fmt.Errorf("fingerprint: %w", err)
		}
		doc, err := html.Parse(bytes.NewReader(page))
		if err != nil {
			return 0, fmt.Errorf("fingerprint: %w", err)
		}
		h.walk(&c, doc, false)
	}
	if lr.N <= 0 {
		return 0, ErrTooLarge
	}
	return c.sum(), nil
}

// walk feeds the tree under n to c, as the tokenizer would, leaving out
// what Ignore matches and making what Content matches the main content.
func (h *Hasher) walk(c *collector, n *html.Node, inContent bool) {
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		switch k.Type {
		case html.TextNode:
			c.text([]byte(k.Data))
		case html.ElementNode:
			if h.ignore != nil && h.ignore.Match(k) {
				continue
			}
			selected := !inContent && h.content != nil && h.content.Match(k)
			if selected {
				c.streams[streamMain].depth++
				c.sawMain = true
			}
			c.start(k.Data, k.Attr)
			h.walk(c, k, inContent || selected)
			c.end(k.Data)
			if selected {
				c.streams[streamMain].depth--
			}
		case html.DocumentNode:
			h.walk(c, k, inContent)
		}
	}
}

// The candidate main contents, hashed side by side in one pass; the end
// of the page says which counts.
const (
	streamMain = iota
	streamArticle
	streamBody
	streams
)

// A stream is one candidate main content.
type stream struct {
	depth int // inside its element (main, article; for body: outside the head)
	text  fnv
	imgs  fnv
	space bool // a space is due before the next character
	start bool // a character was written
}

// collector turns a page's tokens into its fingerprint.
type collector struct {
	streams  [streams]stream
	sawMain  bool
	sawArt   bool
	selected bool // Content chose the main content: <main> is not special
	chrome   int  // inside header, nav, footer, aside
	skip     int  // inside script, style, noscript, template, svg
	head     int  // inside <head>
	title    int  // inside <title>
	ld       bool // inside a JSON-LD script
	meta     fnv  // title, metas, links, JSON-LD, in document order
	buf      strings.Builder
}

func (c *collector) init() {
	c.meta.reset()
	for i := range c.streams {
		c.streams[i].text.reset()
		c.streams[i].imgs.reset()
	}
}

// token feeds the tokenizer's current token.
func (c *collector) token(z *html.Tokenizer, tt html.TokenType) {
	switch tt {
	case html.TextToken:
		c.text(z.Text())
	case html.StartTagToken, html.SelfClosingTagToken:
		tag := rawTag(z.Raw())
		var attrs []html.Attribute
		if attrsMatter(tag) {
			for more := true; more; {
				var k, v []byte
				if k, v, more = z.TagAttr(); k == nil {
					break
				}
				attrs = append(attrs, html.Attribute{Key: string(k), Val: string(v)})
			}
		}
		c.start(tag, attrs)
		// "/>" closes a void element, or one of SVG; <script/>, <style/>,
		// <noscript/> and <template/> stay open to their end tag, as the
		// tokenizer reads what follows them (and browsers hide it).
		if isVoid(tag) || tt == html.SelfClosingTagToken && (tag == "svg" || !skipped(tag)) {
			c.end(tag)
		}
	case html.EndTagToken:
		c.end(rawTag(z.Raw()))
	}
}

// rawTag returns the name of the tag whose source is raw ("<DIV class=x>",
// "</p>"), lower-cased, when it is one the rules name (an atom), else "".
// The tokenizer's TagName copies the name on every call: this reads it in
// place.
func rawTag(raw []byte) string {
	i := 1
	if len(raw) > 1 && raw[1] == '/' {
		i = 2
	}
	var buf [16]byte
	n := 0
	for ; i < len(raw) && n < len(buf); i++ {
		c := raw[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '/' || c == '>':
			return atom.Lookup(buf[:n]).String()
		}
		buf[n] = c
		n++
	}
	if i == len(raw) {
		return atom.Lookup(buf[:n]).String()
	}
	return "" // longer than any name a rule looks at
}

func attrsMatter(tag string) bool {
	switch tag {
	case "meta", "link", "img", "script":
		return true
	}
	return false
}

func isVoid(tag string) bool {
	switch tag {
	case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr":
		return true
	}
	return false
}

func attr(attrs []html.Attribute, key string) (string, bool) {
	for _, a := range attrs {
		if strings.EqualFold(a.Key, key) {
			return a.Val, true
		}
	}
	return "", false
}

// start opens an element.
func (c *collector) start(tag string, attrs []html.Attribute) {
	if c.skip > 0 {
		if skipped(tag) {
			c.skip++
		}
		return
	}
	c.boundary()
	if c.head > 0 && !inHead(tag) {
		// </head> and <body> may be left out: any other element ends the
		// head, as browsers (and the tree pass's parser) read it.
		c.head = 0
	}
	switch tag {
	case "main":
		if !c.selected {
			c.streams[streamMain].depth++
			c.sawMain = true
		}
	case "article":
		c.streams[streamArticle].depth++
		c.sawArt = true
	case "head":
		c.head++
	case "title":
		c.title++
		c.buf.Reset()
	case "header", "nav", "footer", "aside":
		c.chrome++
	case "script":
		if t, _ := attr(attrs, "type"); strings.EqualFold(strings.TrimSpace(t), "application/ld+json") {
			c.ld = true
			c.buf.Reset()
			return
		}
		c.skip++
	case "style", "noscript", "template", "svg":
		c.skip++
	case "meta":
		name, _ := attr(attrs, "name")
		switch name = strings.ToLower(strings.TrimSpace(name)); name {
		case "description", "robots", "googlebot":
			content, _ := attr(attrs, "content")
			c.meta.part('m', name, normalise(content))
		}
	case "link":
		rel, _ := attr(attrs, "rel")
		href, _ := attr(attrs, "href")
		for _, r := range strings.Fields(strings.ToLower(rel)) {
			switch r {
			case "canonical":
				c.meta.part('c', strings.TrimSpace(href))
			case "alternate":
				if lang, ok := attr(attrs, "hreflang"); ok {
					c.meta.part('a', strings.ToLower(strings.TrimSpace(lang)), strings.TrimSpace(href))
				}
			}
		}
	case "img":
		src, _ := attr(attrs, "src")
		alt, _ := attr(attrs, "alt")
		for i := range c.streams {
			if c.counts(i) {
				c.streams[i].imgs.part('i', strings.TrimSpace(src), normalise(alt))
			}
		}
	}
}

// inHead reports whether tag is one a <head> holds; any other ends it.
func inHead(tag string) bool {
	switch tag {
	case "head", "html", "title", "meta", "link", "base", "basefont", "bgsound",
		"script", "style", "noscript", "noframes", "template":
		return true
	}
	return false
}

func skipped(tag string) bool {
	switch tag {
	case "script", "style", "noscript", "template", "svg":
		return true
	}
	return false
}

// end closes an element; an end tag with no start is ignored.
func (c *collector) end(tag string) {
	if c.skip > 0 {
		if skipped(tag) {
			c.skip--
		}
		return
	}
	c.boundary()
	dec := func(n *int) {
		if *n > 0 {
			*n--
		}
	}
	switch tag {
	case "main":
		if !c.selected {
			dec(&c.streams[streamMain].depth)
		}
	case "article":
		dec(&c.streams[streamArticle].depth)
	case "head":
		dec(&c.head)
	case "title":
		if c.title > 0 {
			c.title--
			c.meta.part('t', normalise(c.buf.String()))
		}
	case "header", "nav", "footer", "aside":
		dec(&c.chrome)
	case "script":
		if c.ld {
			c.ld = false
			c.meta.part('j', normalise(c.buf.String()))
		}
	}
}

// counts reports whether text now belongs to stream i.
func (c *collector) counts(i int) bool {
	switch i {
	case streamMain:
		return c.streams[i].depth > 0
	case streamArticle:
		return c.streams[i].depth > 0
	}
	return c.head == 0 && c.chrome == 0 && c.title == 0
}

// text takes a text token.
func (c *collector) text(s []byte) {
	switch {
	case c.skip > 0:
		return
	case c.ld || c.title > 0:
		if c.buf.Len() < MaxPage {
			c.buf.Write(s)
		}
		return
	}
	for i := range c.streams {
		if c.counts(i) {
			c.streams[i].write(s)
		}
	}
}

// boundary marks a tag: words on either side of it are apart.
func (c *collector) boundary() {
	for i := range c.streams {
		c.streams[i].space = c.streams[i].start
	}
}

// write adds text to the stream, its whitespace normalised.
func (s *stream) write(t []byte) {
	h := s.text.h
	for i := 0; i < len(t); {
		c := t[i]
		if c < utf8.RuneSelf {
			i++
			if c == ' ' || '\t' <= c && c <= '\r' {
				s.space = s.start
				continue
			}
			if s.space {
				h = (h ^ ' ') * fnvPrime
				s.space = false
			}
			h = (h ^ uint64(c)) * fnvPrime
			s.start = true
			continue
		}
		r, n := utf8.DecodeRune(t[i:])
		if unicode.IsSpace(r) {
			s.space = s.start
		} else {
			if s.space {
				h = (h ^ ' ') * fnvPrime
				s.space = false
			}
			for _, b := range t[i : i+n] {
				h = (h ^ uint64(b)) * fnvPrime
			}
			s.start = true
		}
		i += n
	}
	s.text.h = h
}

// sum ends the page: the meta parts, then the chosen main content.
func (c *collector) sum() uint64 {
	i := streamBody
	switch {
	case c.sawMain:
		i = streamMain
	case c.sawArt:
		i = streamArticle
	}
	f := c.meta
	f.part('T', u64(c.streams[i].text.h))
	f.part('I', u64(c.streams[i].imgs.h))
	return mix(f.h)
}

// normalise collapses runs of whitespace into one space, and trims.
func normalise(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func u64(x uint64) string {
	var b [8]byte
	for i := range b {
		b[i] = byte(x >> (8 * i))
	}
	return string(b[:])
}

// Fields returns the fingerprint of an entry's own fields, for sources
// without pages. It is unambiguous: ("ab", "c") and ("a", "bc") differ.
func Fields(fields ...string) uint64 {
	var f fnv
	f.reset()
	f.part('F', fields...)
	return mix(f.h)
}

// Bytes returns the fingerprint of an entry's encoding (its JSON Lines
// form, say), for sources without pages: the fields as one string, at
// several gigabytes a second where Fields' byte-at-a-time hash takes a
// nanosecond a byte.
func Bytes(b []byte) uint64 { return xxhash.Sum64(b) }

// fnv is FNV-1a, 64 bits: stable across runs, processes and versions, as
// fingerprints are kept from one run to the next.
type fnv struct{ h uint64 }

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func (f *fnv) reset() { f.h = fnvOffset }

func (f *fnv) byte(b byte) { f.h = (f.h ^ uint64(b)) * fnvPrime }

func (f *fnv) bytes(s string) {
	h := f.h
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	f.h = h
}

// part adds a tagged, length-prefixed record, so that parts cannot be
// confused with one another.
func (f *fnv) part(tag byte, values ...string) {
	f.byte(tag)
	for _, v := range values {
		n := len(v)
		for n >= 0x80 {
			f.byte(byte(n) | 0x80)
			n >>= 7
		}
		f.byte(byte(n))
		f.bytes(v)
	}
}

// mix is splitmix64's finaliser, so that every bit of a fingerprint is
// uniform.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// skipBOM returns r without a UTF-8 byte order mark at its start: an
// editor that adds or drops one does not change the page, whose first
// text the mark would otherwise join. An error met in the first bytes is
// kept as r returned it, after them (io.ReadFull would drop one returned
// with the third byte, and make an io.ErrUnexpectedEOF of r's an end:
// a page cut short would be fingerprinted as whole), and a reader that
// returns nothing, again and again, is io.ErrNoProgress, as the
// tokenizer's.
func skipBOM(r io.Reader) io.Reader {
	var b [3]byte
	n := 0
	var err error
	for tries := 0; n < len(b) && err == nil; tries++ {
		if tries == 100 {
			err = io.ErrNoProgress
			break
		}
		var k int
		k, err = r.Read(b[n:])
		n += k
	}
	rest := r
	if err != nil {
		rest = errReader{err}
	}
	if n == len(b) && string(b[:]) == "\ufeff" {
		return rest
	}
	return io.MultiReader(bytes.NewReader(b[:n]), rest)
}

// errReader is a reader that fails with its error.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
