package source

import (
	"bytes"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sitemapkit/sitemapkit/internal/htmltoken"
	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/idna"
)

// pageHead is what a page says about itself.
type pageHead struct {
	noindex bool
	// canonical is the page's <link rel="canonical">, resolved and
	// normalised; "" when there is none, or when several disagree (Google
	// then ignores them all).
	canonical string
	// canonicalsDisagree: several canonicals named different URLs, and
	// canonical is "" for it (a canonical in a Link header then adds
	// nothing).
	canonicalsDisagree bool
	// alternates are the hreflang alternates, maxCellItems at most.
	alternates []sitemap.Alternate
	images     []sitemap.Image
	// With headWant.links: the pages it links to (<a href>, <area href>,
	// <link rel=next|prev>), resolved and normalised, in order, once each;
	// and how many <script> elements it has, to tell a page its scripts
	// write (no link, but scripts).
	links   []pageLink
	scripts int
	// linksCut counts the links past MaxCrawlLinks, left out.
	linksCut int
	// refresh is where a <meta http-equiv="refresh"> sends the reader at
	// once, resolved: a redirect, to search engines. A refresh after a
	// delay (a session's timeout) leaves the page what it is; its target
	// is a link (with want.links).
	refresh string
}

// A pageLink is a link of a page, and whether it says rel="nofollow".
type pageLink struct {
	url      string
	nofollow bool
}

// headWant says what parseHead reads past the head: the <img> sources,
// the links.
type headWant struct{ images, links bool }

// parseHead reads the page at pageURL from r. It reads the head only (up to
// </head>, <body> or the first element that cannot be in a head, as the
// HTML parser's "in head" mode does) unless images is set, in which case it
// goes on through the body collecting <img src>. What the body says about
// robots, canonicals and alternates is ignored either way, as Google
// ignores it, so that the images option never changes which pages are
// listed.
func parseHead(r io.Reader, pageURL *url.URL, want headWant) (pageHead, error) {
	var h pageHead
	images := want.images || want.links // reading the body
	z := htmltoken.NewTokenizer(r)
	base := pageURL
	baseSet, inHead := false, true
	canonicals := 0
	var seenAlt, seenImg, seenLink map[string]bool
	link := func(ref string, nofollow bool) {
		abs, ok := resolve(base, ref)
		if !ok {
			return
		}
		abs, _, _ = strings.Cut(abs, "#")
		if seenLink[abs] {
			return
		}
		if len(h.links) >= MaxCrawlLinks {
			h.linksCut++
			return
		}
		if seenLink == nil {
			seenLink = map[string]bool{}
		}
		seenLink[abs] = true
		h.links = append(h.links, pageLink{abs, nofollow})
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return h, err
			}
			return h.done(canonicals), nil
		case html.EndTagToken:
			if !inHead {
				continue
			}
			name, _ := z.TagName()
			if atom.Lookup(name) == atom.Head {
				if !images {
					return h.done(canonicals), nil
				}
				inHead = false
			}
			continue
		case html.StartTagToken, html.SelfClosingTagToken:
		default:
			continue
		}
		name, hasAttr := z.TagName()
		a := atom.Lookup(name)
		if a == atom.Script && want.links {
			h.scripts++
		}
		if inHead {
			switch a {
			case atom.Html, atom.Head, atom.Title, atom.Script, atom.Style,
				atom.Noscript, atom.Template, atom.Meta, atom.Link, atom.Base:
			default:
				// Anything else starts the body.
				if !images {
					return h.done(canonicals), nil
				}
				inHead = false
			}
		}
		if !hasAttr {
			continue
		}
		switch {
		case inHead && a == atom.Meta:
			attrs := readAttrs(z.Tokenizer, "name", "content", "http-equiv")
			if n := strings.ToLower(strings.TrimSpace(attrs[0])); n == "robots" || n == "googlebot" {
				if robotsNoindex(attrs[1]) {
					h.noindex = true
				}
			}
			if strings.EqualFold(strings.TrimSpace(attrs[2]), "refresh") && h.refresh == "" {
				if delay, ref := refreshURL(attrs[1]); delay > 0 && want.links {
					link(ref, false)
				} else if abs, ok := resolve(base, ref); ok && delay == 0 {
					h.refresh, _, _ = strings.Cut(abs, "#")
				}
			}
		case inHead && a == atom.Base:
			if baseSet {
				continue
			}
			attrs := readAttrs(z.Tokenizer, "href")
			if attrs[0] == "" {
				continue
			}
			baseSet = true
			if u, err := pageURL.Parse(cleanHref(attrs[0])); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
				base = u
			}
		case inHead && a == atom.Link:
			attrs := readAttrs(z.Tokenizer, "rel", "href", "hreflang")
			switch rel := relTokens(attrs[0]); {
			case want.links && (rel.has("next") || rel.has("prev")):
				link(attrs[1], false)
			case rel.has("canonical"):
				if abs, ok := resolve(base, attrs[1]); ok {
					// Google ignores a canonical's fragment: "page.html#main"
					// is the page itself.
					abs, _, _ = strings.Cut(abs, "#")
					if canonicals == 0 {
						h.canonical = abs
						canonicals = 1
					} else if abs != h.canonical {
						canonicals = 2
					}
				}
			case rel.has("alternate"):
				lang := strings.TrimSpace(attrs[2])
				if lang == "" {
					continue
				}
				if abs, ok := resolve(base, attrs[1]); ok {
					key := lang + " " + abs
					if seenAlt[key] || !validAlternate(lang, abs) {
						continue
					}
					if len(h.alternates) >= maxCellItems {
						// As many as generate reads back, and the
						// sitemap reader from a <url>; the rest
						// are links.
						if want.links {
							link(attrs[1], false)
						}
						continue
					}
					if seenAlt == nil {
						seenAlt = map[string]bool{}
					}
					seenAlt[key] = true
					h.alternates = append(h.alternates, sitemap.Alternate{Hreflang: lang, Href: abs})
				}
			}
		case want.links && !inHead && (a == atom.A || a == atom.Area):
			attrs := readAttrs(z.Tokenizer, "href", "rel")
			link(attrs[0], relTokens(attrs[1]).has("nofollow"))
		case want.images && !inHead && a == atom.Img:
			if len(h.images) >= sitemap.MaxImages {
				continue
			}
			attrs := readAttrs(z.Tokenizer, "src")
			abs, ok := resolve(base, attrs[0])
			if !ok || seenImg[abs] {
				continue
			}
			if seenImg == nil {
				seenImg = map[string]bool{}
			}
			seenImg[abs] = true
			h.images = append(h.images, sitemap.Image{Loc: abs})
		}
	}
}

// done ends the head: canonicals that disagree cancel each other out.
func (h pageHead) done(canonicals int) pageHead {
	if canonicals > 1 {
		h.canonical, h.canonicalsDisagree = "", true
	}
	return h
}

// refreshURL is the delay in seconds and the URL of a refresh meta's
// content ("0; url=/next", "5;URL='/next'"); the URL is "" when it has
// none (a page that reloads itself), the delay -1 when it is not a number.
func refreshURL(content string) (delay float64, ref string) {
	d, rest, ok := strings.Cut(content, ";")
	if !ok {
		d, rest, ok = strings.Cut(content, ",")
	}
	delay, err := strconv.ParseFloat(strings.TrimSpace(d), 64)
	if err != nil || delay < 0 {
		delay = -1
	}
	if !ok {
		return delay, ""
	}
	rest = strings.TrimSpace(rest)
	if len(rest) >= 3 && strings.EqualFold(rest[:3], "url") {
		if r := strings.TrimSpace(rest[3:]); strings.HasPrefix(r, "=") {
			rest = strings.TrimSpace(r[1:])
		}
	}
	return delay, strings.Trim(rest, `'"`)
}

// readAttrs returns the values of the named attributes (lower-case names),
// the first of each, "" for those the tag lacks.
func readAttrs(z *html.Tokenizer, names ...string) [4]string {
	var out [4]string
	var found [4]bool
	for {
		k, v, more := z.TagAttr()
		for i, n := range names {
			if !found[i] && bytes.EqualFold(k, []byte(n)) {
				out[i], found[i] = string(v), true
			}
		}
		if !more {
			return out
		}
	}
}

// relTokens is a rel attribute's space-separated, case-insensitive list.
type relTokens string

func (r relTokens) has(tok string) bool {
	for _, f := range strings.Fields(string(r)) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// robotsNoindex reports whether a robots meta content ("noindex, follow",
// "NONE", "noindex nofollow") keeps the page out of the index. Rules are
// separated by commas, or by spaces as many sites write them: a page that
// asks not to be indexed in either spelling does not belong in a sitemap.
func robotsNoindex(content string) bool {
	for d := range strings.FieldsFuncSeq(content, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		if strings.EqualFold(d, "noindex") || strings.EqualFold(d, "none") {
			return true
		}
	}
	return false
}

// cleanHref trims href and drops its tabs and line ends: a browser drops
// them anywhere in a URL (the WHATWG URL standard), so an href broken over
// lines in the HTML is the URL on one line, where url.Parse would refuse
// it.
func cleanHref(href string) string {
	href = strings.TrimSpace(href)
	if strings.ContainsAny(href, "\t\n\r") {
		href = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, href)
	}
	return href
}

// resolve makes ref absolute against base and normalises it, refusing what
// cannot be a page or image in a sitemap: empty, data:, javascript:,
// mailto: and other non-HTTP references, and what loc.Normalize refuses.
func resolve(base *url.URL, ref string) (string, bool) {
	ref = cleanHref(ref)
	if ref == "" {
		return "", false
	}
	u, err := base.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	if strings.ContainsFunc(u.Host, func(r rune) bool { return r >= utf8.RuneSelf }) {
		// URL.String would percent-encode the host, which is no host
		// name: in the ASCII form, it is the same host.
		h, err := idna.Lookup.ToASCII(u.Hostname())
		if err != nil {
			return "", false
		}
		if p := u.Port(); p != "" {
			h += ":" + p
		}
		u.Host = h
	}
	n, err := loc.Normalize(u.String())
	if err != nil {
		return "", false
	}
	return n, true
}

// validAlternate reports whether the protocol accepts an alternate
// (hreflang "en_US" or "english" it does not). The writer refuses a whole
// URL for one bad alternate: a typo in one <link> must not take the page
// out of the sitemap.
func validAlternate(lang, href string) bool {
	ok := true
	u := sitemap.URL{Loc: href, Alternates: []sitemap.Alternate{{Hreflang: lang, Href: href}}}
	u.Check(func(v *sitemap.Violation) {
		if strings.HasPrefix(v.Field, "xhtml:link") {
			ok = false
		}
	})
	return ok
}
