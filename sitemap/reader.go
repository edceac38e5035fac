package sitemap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"unsafe"
)

// A Position is a place in a document: 1-based line and column (in bytes),
// and the byte offset from the start of the decompressed document.
type Position struct {
	Line   int
	Col    int
	Offset int64
}

// A Notice is a departure from the protocol that a Reader tolerated and
// read past: the entries around it are still returned. Rule is one of the
// Rule… IDs: RuleLeadingWhitespace, RuleIncorrectNamespace, RuleUnknownTag,
// RuleElementOrder, RuleMissingTag (also for an image without image:loc,
// and an <xhtml:link> without rel, which are not returned),
// RuleInvalidCharacter; RuleInvalidURL for a line
// of a text sitemap that is not a URL; RuleInvalidDate for an empty
// <lastmod> (read as absent); RuleVideo for a video with an empty
// video:thumbnail_loc (not returned); RuleHreflang for an hreflang
// alternate with an empty hreflang, or an hreflang under a rel other than
// "alternate" (not returned); RuleDeprecatedTag for
// each tag or attribute Google deprecated in 2022 (image:caption,
// image:geo_location, image:title, image:license, video:category,
// video:gallery_loc, video:price, video:tvshow, and video:player_loc's
// autoplay and allow_embed), which is read all the same where the URL type
// has a field for it; RuleParseError for damage the Reader recovers from:
// an undefined entity, a bare '&', an undeclared namespace prefix, text
// where only elements belong, an element after the root element (a
// server's warning appended as HTML). A second urlset or sitemapindex,
// or a url or sitemap entry, after the root is an error: its entries are
// not read.
type Notice struct {
	Pos  Position
	Rule string
	Msg  string
}

// A Reader reads the entries of one sitemap document of any format (urlset,
// sitemapindex, text, RSS 2.0 and 1.0, Atom 1.0 and 0.3; gzip- or
// zstd-compressed or not), detected from the content, never from a name or
// a Content-Type. It streams: memory does not grow with the document.
//
// A Reader is tolerant, as crawlers are. It reads past, and reports to
// OnNotice: anything before the root element (a UTF-8 byte order mark
// excepted, which XML allows and is read silently; text before the XML
// declaration, such as a warning a script printed, when a sitemap's root
// element follows within 8 KiB), a missing or wrong
// namespace (the https:// variant, Google's old 0.84 one, none at all),
// unknown elements (skipped), elements out of the schema's order, entries
// without <loc> (not returned); images without <image:loc>, videos with an
// empty <video:thumbnail_loc>, hreflang alternates with an empty hreflang
// (not returned, their entry is: what a Reader returns, a Writer takes,
// save invalid values); an empty <lastmod> (read as absent); undefined
// entities and bare '&' (kept as written), characters XML does not allow.
// It resolves an Atom link's relative href against its xml:base, as
// Atom says. It reads silently: CDATA,
// comments and processing instructions, the five predefined entities and
// character references, white space around values (ASCII and Unicode
// spaces such as U+00A0, trimmed), any namespace prefixes.
//
// A Reader refuses, with a *SyntaxError: a DOCTYPE or entity declaration
// (ErrDoctype: XXE and "billion laughs"), an HTML page (ErrHTML), any other
// document (ErrUnsupportedFormat), a document over MaxBytes uncompressed
// (ErrTooLarge, found while streaming: a gzip or zstd bomb stops there), a
// damaged compressed stream (ErrCompression), XML that is not well-formed
// (an unclosed or mismatched element, a '<' in text, a truncated file).
// Entries before the damage have been returned.
//
// Set the exported fields before the first Read.
type Reader struct {
	// Name names the document in errors (a file name or URL).
	Name string
	// MaxBytes caps the decompressed size; past it Read fails with
	// ErrTooLarge. Default (0 or less): DefaultMaxBytes, the protocol's
	// limit plus 64 KiB.
	MaxBytes int64
	// OnNotice, if set, is called for each departure from the protocol the
	// Reader tolerates, in document order, from within Read.
	OnNotice func(Notice)
	// ReuseURL makes Read return the same *URL at every call, overwritten,
	// and reuse the backing arrays of its slices, which saves an allocation
	// per entry. The strings are never reused, but those of many entries
	// share blocks of memory (8 KiB): a caller that keeps a few strings of
	// many entries keeps their blocks, unless it clones them.
	ReuseURL bool
	// OnDiscard, if set, is called from within Read before the Reader lets
	// go of text it has read: until then PosAt counts the lines up to any
	// offset read since the last call. A caller that keeps entries'
	// offsets (FieldOffset), to report a few of them later, turns those
	// few into positions there, rather than counting every entry's lines
	// as it is read (a tenth of validate's time).
	OnDiscard func()

	src     io.Reader
	s       scanner
	started bool
	format  Format
	comp    string
	err     error // sticky: io.EOF or the error that stopped reading
	u       *URL
	have    bool                  // an entry was returned and its marks are current
	fields  [4]int                // mark of loc, lastmod, changefreq, priority; -1 when absent
	ext     [extKinds][]fieldMark // marks of the entry's images, videos, news and alternates
	over    [overKinds]excess     // repeated children skipped past their caps
	vals    []byte
	scratch []byte
	block   []byte // where strings are carved with ReuseURL (see str)

	rootID     nsID
	rootURI    string
	rootName   string
	rootClosed bool
	feedBase   string // an Atom feed's xml:base, against which its links resolve
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader {
	return &Reader{src: r}
}

// Read returns the next entry. For an index the entry's Loc and LastMod
// are the child sitemap's; for a feed, the item's link and date.
//
// At the end of the document Read returns nil, io.EOF. When the document
// is refused or damaged it returns nil and a *SyntaxError wrapping
// ErrUnsupportedFormat, ErrHTML, ErrDoctype, ErrTooLarge, ErrCompression,
// io.ErrUnexpectedEOF (a truncated document) or a description of the
// damage; entries before the damage have been returned. An error of the
// underlying io.Reader is returned as it is. After an error or io.EOF,
// every later call returns the same.
//
// The URL is the caller's, unless ReuseURL is set.
func (r *Reader) Read() (*URL, error) {
	if r.err != nil {
		return nil, r.err
	}
	r.have = false
	if !r.started {
		r.started = true
		if err := r.start(); err != nil {
			r.err = err
			return nil, err
		}
	}
	var u *URL
	var err error
	if r.format == FormatText || r.format == FormatUnknown {
		u, err = r.readText()
	} else {
		u, err = r.readXML()
	}
	if err != nil {
		r.err = err
		return nil, err
	}
	r.have = true
	return u, nil
}

// Format returns the document's format, known after the first Read (and
// FormatUnknown when the document was refused).
func (r *Reader) Format() Format {
	return r.format
}

// Compressed returns the compression the document came in, found from its
// magic bytes at the first Read: "gzip", "zstd", or "" when none.
func (r *Reader) Compressed() string {
	return r.comp
}

// InputOffset returns how many bytes of the decompressed document have been
// consumed: the end of the entry last returned, or where reading stopped.
func (r *Reader) InputOffset() int64 {
	if r.s.buf == nil {
		return 0
	}
	return r.s.base + int64(r.s.r)
}

// Pos returns the position of the start of the entry last returned by Read:
// its <url>, <sitemap>, <item> or <entry> tag, or the first character of a
// text sitemap's line. It returns the zero Position when the last Read
// returned no entry.
func (r *Reader) Pos() Position {
	if !r.have {
		return Position{}
	}
	return r.s.markPos(0)
}

// FieldPos returns the position of a field of the entry last returned by
// Read, like encoding/csv's FieldPos: the start of the field's element.
// Fields are named as [Violation.Field] names them, and index says which
// image, video or alternate of the entry, as [Violation.Index] does (0 for
// the first, and for fields that do not repeat):
//
//   - "loc", "lastmod", "changefreq" and "priority" (for a feed, its
//     <link> and date; for a text sitemap, the URL on its line);
//   - "image:image" and its children ("image:loc", "image:caption", …);
//   - "video:video" and its children ("video:thumbnail_loc",
//     "video:duration", …; for one that repeats, "video:tag" or
//     "video:price", the first of that video);
//   - "news:news", "news:publication" and their children ("news:name",
//     "news:publication_date", "news:title", …);
//   - "xhtml:link", the index-th hreflang alternate read into
//     URL.Alternates.
//
// An attribute's position is its element's: "video:player_loc@autoplay"
// is at <video:player_loc>. For a field the entry does not carry (say, a
// missing "video:title"), FieldPos returns the position of the element that
// should hold it (the <video:video>), and for any other name, or a field
// with nothing to hold it, the entry's position, as Pos. It returns the
// zero Position when the last Read returned no entry.
//
// The Reader records only byte offsets while reading; lines and columns are
// counted when asked for.
func (r *Reader) FieldPos(field string, index int) Position {
	if !r.have {
		return Position{}
	}
	return r.s.markPos(r.fieldMark(field, index))
}

// FieldOffset returns the byte offset of FieldPos's position, without
// counting lines: PosAt resolves it later, while the Reader holds its text
// (see OnDiscard). It returns 0 when the last Read returned no entry.
func (r *Reader) FieldOffset(field string, index int) int64 {
	if !r.have {
		return 0
	}
	return r.s.marks[r.fieldMark(field, index)]
}

// PosAt returns the position of byte offset off of the decompressed
// document. Lines are counted in the text the Reader holds, so it is
// exact for the fields of the entry last returned and for any offset read
// since OnDiscard last ran; for another it returns a Position with the
// offset alone (Line 0).
func (r *Reader) PosAt(off int64) Position {
	if r.s.buf == nil {
		return Position{Offset: off}
	}
	return r.s.position(off)
}

// fieldMark returns the mark of a field of the entry last returned: the
// entry's own (0) for a field it does not have.
func (r *Reader) fieldMark(field string, index int) int {
	i := -1
	switch field {
	case "loc":
		i = r.fields[0]
	case "lastmod":
		i = r.fields[1]
	case "changefreq":
		i = r.fields[2]
	case "priority":
		i = r.fields[3]
	default:
		i = r.extMark(field, index)
	}
	return max(i, 0)
}

// All returns the entries as an iterator. It stops after the first error,
// which it yields with a zero URL; io.EOF is not yielded.
func (r *Reader) All() iter.Seq2[URL, error] {
	return func(yield func(URL, error) bool) {
		for {
			u, err := r.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(URL{}, err)
				return
			}
			if !yield(*u, nil) {
				return
			}
		}
	}
}

// ErrorRule returns the Rule… ID a Read error breaks: RuleFileTooLarge,
// RuleCompressionError, RuleDoctype, RuleSitemapIsHTML,
// RuleUnsupportedFormat, or RuleParseError for any other *SyntaxError. It
// returns "" for an error that is not about the document (an I/O error).
func ErrorRule(err error) string {
	var se *SyntaxError
	switch {
	case errors.Is(err, ErrTooLarge):
		return RuleFileTooLarge
	case errors.Is(err, ErrCompression):
		return RuleCompressionError
	case errors.Is(err, ErrDoctype):
		return RuleDoctype
	case errors.Is(err, ErrHTML):
		return RuleSitemapIsHTML
	case errors.Is(err, ErrUnsupportedFormat):
		return RuleUnsupportedFormat
	case errors.As(err, &se):
		return RuleParseError
	}
	return ""
}

func (r *Reader) notify(off int64, rule, msg string) {
	r.OnNotice(Notice{Pos: r.s.position(off), Rule: rule, Msg: msg})
}

func (r *Reader) warn(off int64, rule, msg string) {
	if r.OnNotice != nil {
		r.notify(off, rule, msg)
	}
}

// blockSize is the size of the blocks ReuseURL's strings share.
const blockSize = 8 << 10

// str returns b as a string. With ReuseURL, entries' strings are carved
// from shared blocks, appended to and never rewritten, so that a URL costs
// no allocation of its own (a twentieth of validate's time). A string kept
// keeps its block.
func (r *Reader) str(b []byte) string {
	if !r.ReuseURL || len(b) == 0 || len(b) > blockSize/8 {
		return string(b)
	}
	if cap(r.block)-len(r.block) < len(b) {
		r.block = make([]byte, 0, blockSize)
	}
	n := len(r.block)
	r.block = append(r.block, b...)
	return unsafe.String(&r.block[n], len(b))
}

// newURL returns the URL to fill: a new one, or the reused one.
func (r *Reader) newURL() *URL {
	if !r.ReuseURL {
		return new(URL)
	}
	if r.u == nil {
		r.u = new(URL)
	} else {
		*r.u = URL{Images: r.u.Images[:0], Videos: r.u.Videos[:0], Alternates: r.u.Alternates[:0]}
	}
	return r.u
}

// start opens the document: decompression, byte order mark, leading white
// space, and for XML the prolog up to the root element.
func (r *Reader) start() error {
	limit := r.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	dec, comp, err := openDecoder(r.src, limit)
	r.comp = comp
	if err != nil {
		if errors.Is(err, ErrCompression) {
			return &SyntaxError{File: r.Name, Line: 1, Col: 1, Err: err}
		}
		return err
	}
	s := &r.s
	s.init(dec, r.Name)
	if r.OnNotice != nil {
		s.notice = r.notify
	}
	s.discard = r.OnDiscard
	r.fields = [4]int{-1, -1, -1, -1}
	s.ensure(4)
	b := s.buf[s.r:s.w]
	switch {
	case bytes.HasPrefix(b, []byte("\xef\xbb\xbf")):
		s.r += 3
	case bytes.HasPrefix(b, []byte("\xff\xfe")), bytes.HasPrefix(b, []byte("\xfe\xff")):
		return s.syntaxErr(0, fmt.Errorf("%w: UTF-16 (sitemaps must be UTF-8)", ErrUnsupportedFormat))
	}
	ws := s.base + int64(s.r)
	for {
		for s.r < s.w && isSpaceByte(s.buf[s.r]) {
			s.r++
		}
		if s.r < s.w {
			break
		}
		if !s.more() {
			if s.rerr != nil {
				return s.readErr()
			}
			return s.syntaxErr(s.base+int64(s.w), fmt.Errorf("%w: the document is empty", ErrUnsupportedFormat))
		}
	}
	if n := r.textBeforeDecl(); n > 0 {
		head := s.buf[s.r : s.r+min(n, 60)]
		r.warn(ws, RuleLeadingWhitespace, fmt.Sprintf("%d bytes before the XML declaration, starting %q (a warning the site's code printed?); the declaration must come first",
			s.base+int64(s.r+n)-ws, head))
		s.r += n
		return r.startXML()
	}
	if s.buf[s.r] != '<' {
		return nil // a text sitemap, or nothing: readText decides
	}
	if off := s.base + int64(s.r); off > ws {
		r.warn(ws, RuleLeadingWhitespace, fmt.Sprintf("%d bytes of white space before the XML declaration", off-ws))
	}
	return r.startXML()
}

// maxTextBeforeDecl is how far into a document an XML declaration is
// looked for, after text that is neither XML nor a list of URLs.
const maxTextBeforeDecl = 8 << 10

// textBeforeDecl returns the length of the text before a sitemap's XML
// declaration, or 0. A server-side script often prints a warning before
// the sitemap it was writing ("Warning: Cannot modify header information",
// or "<br />\n<b>Warning</b>: …" as HTML): the file is no longer XML,
// and was refused as a text sitemap gone wrong, or as an HTML page. It is
// read past when the text starts as neither XML nor a URL could (not '<',
// or an HTML tag), a declaration follows within maxTextBeforeDecl bytes,
// and a sitemap's root element after it.
func (r *Reader) textBeforeDecl() int {
	s := &r.s
	b := s.buf[s.r:s.w]
	switch {
	case len(b) > 0 && b[0] == '<' && !htmlTag(b[1:]):
		return 0 // XML: a declaration later on is another matter
	case bytes.HasPrefix(b, []byte("http://")), bytes.HasPrefix(b, []byte("https://")):
		return 0 // a text sitemap
	}
	s.ensure(maxTextBeforeDecl)
	b = s.buf[s.r:s.w]
	i := bytes.Index(b[:min(len(b), maxTextBeforeDecl)], []byte("<?xml"))
	if i <= 0 || i+5 >= len(b) || !isSpaceByte(b[i+5]) {
		return 0
	}
	if sitemapRootNext(b[i:]) {
		return i
	}
	return 0
}

// sitemapRootNext reports whether the first element after the XML
// declaration at the start of b is a sitemap's root (urlset,
// sitemapindex, or a feed's rss, feed or RDF), past white space,
// comments and processing instructions (an xml-stylesheet). A page that
// holds a declaration and some other element after it (an SVG pasted in
// with its declaration and its rdf:RDF metadata) is not a sitemap.
func sitemapRootNext(b []byte) bool {
	for {
		for len(b) > 0 && isSpaceByte(b[0]) {
			b = b[1:]
		}
		var end string
		switch {
		case bytes.HasPrefix(b, []byte("<?")):
			end = "?>"
		case bytes.HasPrefix(b, []byte("<!--")):
			end = "-->"
		case len(b) > 1 && b[0] == '<':
			n := 1
			for n < len(b) && isNameByte(b[n]) {
				n++
			}
			name := b[1:n]
			if c := bytes.LastIndexByte(name, ':'); c >= 0 {
				name = name[c+1:]
			}
			switch string(name) {
			case "urlset", "sitemapindex", "rss", "feed", "RDF":
				return true
			}
			return false
		default:
			return false
		}
		j := bytes.Index(b, []byte(end))
		if j < 0 {
			return false
		}
		b = b[j+len(end):]
	}
}

// startXML reads the prolog and the root element.
func (r *Reader) startXML() error {
	s := &r.s
	if s.ensure(6) && bytes.HasPrefix(s.buf[s.r:s.w], []byte("<?xml")) && isSpaceByte(s.buf[s.r+5]) {
		s.declAt = s.base + int64(s.r)
		r.declaration()
	}
	tok, err := s.next()
	if err != nil {
		if s.r < s.w && s.buf[s.r] == '<' && htmlTag(s.buf[s.r+1:s.w]) {
			return s.syntaxErr(s.base+int64(s.r), ErrHTML)
		}
		return err
	}
	if tok == tokEOF {
		return s.syntaxErr(s.base+int64(s.r), fmt.Errorf("%w: no root element", ErrUnsupportedFormat))
	}
	t := &s.tag
	r.rootID, r.rootURI, r.rootName = t.id, t.uri, string(t.qname)
	r.rootClosed = t.empty
	switch local := string(t.local); {
	case local == "urlset":
		r.format = FormatURLSet
	case local == "sitemapindex":
		r.format = FormatIndex
	case local == "rss" || local == "RDF" && t.id == nsRDF:
		r.format = FormatRSS
	case local == "feed":
		r.format = FormatAtom
		r.feedBase, _ = r.attr("xml:base")
	case htmlTag(t.qname):
		return s.syntaxErr(t.off, ErrHTML)
	default:
		return s.syntaxErr(t.off, fmt.Errorf("%w: root element <%s>", ErrUnsupportedFormat, t.qname))
	}
	if (r.format == FormatURLSet || r.format == FormatIndex) && t.id != nsSitemap {
		var msg string
		switch {
		case t.uri == "":
			msg = fmt.Sprintf("<%s> has no namespace; it must be %s", t.qname, NamespaceSitemap)
		case t.uri == "https://www.sitemaps.org/schemas/sitemap/0.9":
			msg = fmt.Sprintf("<%s> is in namespace %s; the namespace is %s, with http://", t.qname, t.uri, NamespaceSitemap)
		default:
			msg = fmt.Sprintf("<%s> is in namespace %s; it must be %s", t.qname, t.uri, NamespaceSitemap)
		}
		r.warn(t.off, RuleIncorrectNamespace, msg)
	}
	return nil
}

// declaration notices an XML declaration naming another encoding than UTF-8.
func (r *Reader) declaration() {
	s := &r.s
	s.ensure(256)
	b := s.buf[s.r:s.w]
	end := bytes.Index(b, []byte("?>"))
	if end < 0 {
		return
	}
	i := bytes.Index(b[:end], []byte("encoding"))
	if i < 0 {
		return
	}
	v := bytes.TrimLeft(b[i+8:end], " \t\r\n=")
	if len(v) < 2 || v[0] != '"' && v[0] != '\'' {
		return
	}
	j := bytes.IndexByte(v[1:], v[0])
	if j < 0 {
		return
	}
	enc := v[1 : 1+j]
	if !bytes.EqualFold(enc, []byte("utf-8")) && !bytes.EqualFold(enc, []byte("utf8")) && !bytes.EqualFold(enc, []byte("us-ascii")) {
		r.warn(s.base+int64(s.r+i), RuleInvalidCharacter, fmt.Sprintf("the XML declaration names encoding %q; sitemaps must be UTF-8, and are read as UTF-8", enc))
	}
}

// htmlTag reports whether b (after a '<') starts an element that only HTML has.
func htmlTag(b []byte) bool {
	i := 0
	for i < len(b) && isNameByte(b[i]) {
		i++
	}
	name := b[:i]
	for _, h := range []string{"html", "head", "body", "meta", "title", "script", "style", "div", "p", "br", "a"} {
		if bytes.EqualFold(name, []byte(h)) {
			return true
		}
	}
	return false
}
