package source

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// A headerLink is one link of an HTTP Link header (RFC 8288): its target,
// as written, and its rel and hreflang parameters.
type headerLink struct {
	ref, rel, hreflang string
}

// headerLinks parses the Link headers of an answer. Google reads a page's
// canonical (rel="canonical") and its hreflang alternates (rel="alternate"
// hreflang="…") there as in its head, and they are the only way a PDF or
// another file can say them. A link it cannot parse ends its header
// value's parse: what follows may not be what it seems.
func headerLinks(h http.Header) []headerLink {
	var out []headerLink
	for _, v := range h.Values("Link") {
		for {
			v = strings.TrimLeft(v, " \t,")
			if !strings.HasPrefix(v, "<") {
				break
			}
			end := strings.IndexByte(v, '>')
			if end < 0 {
				break
			}
			l := headerLink{ref: v[1:end]}
			v = v[end+1:]
			// Parameters: ; name[=value | ="quoted"], up to the next
			// comma outside quotes.
			for {
				v = strings.TrimLeft(v, " \t")
				if !strings.HasPrefix(v, ";") {
					break
				}
				v = strings.TrimLeft(v[1:], " \t")
				i := strings.IndexAny(v, "=;,")
				name := strings.ToLower(strings.TrimSpace(v[:max(i, 0)]))
				if i < 0 {
					name, v = strings.ToLower(strings.TrimSpace(v)), ""
				}
				var val string
				if i >= 0 && v[i] == '=' {
					v = strings.TrimLeft(v[i+1:], " \t")
					if strings.HasPrefix(v, `"`) {
						var b strings.Builder
						j := 1
						for ; j < len(v) && v[j] != '"'; j++ {
							if v[j] == '\\' && j+1 < len(v) {
								j++
							}
							b.WriteByte(v[j])
						}
						val, v = b.String(), v[min(j+1, len(v)):]
					} else {
						k := strings.IndexAny(v, ";,")
						if k < 0 {
							k = len(v)
						}
						val, v = strings.TrimSpace(v[:k]), v[k:]
					}
				} else if i >= 0 {
					v = v[i:]
				}
				// The first of each parameter counts (RFC 8288 §3).
				switch {
				case name == "rel" && l.rel == "":
					l.rel = val
				case name == "hreflang" && l.hreflang == "":
					l.hreflang = val
				}
			}
			out = append(out, l)
		}
	}
	return out
}

// addHeaderLinks adds to h, the head of the page at pageURL, the canonical
// and hreflang alternates of its answer's Link headers, resolved against
// the page's URL (not its <base>: RFC 8288 §3.2). A canonical in the
// header that disagrees with another, there or in the head, cancels them
// all, as several in the head do: Google then ignores them.
func addHeaderLinks(h *pageHead, hdr http.Header, pageURL *url.URL) {
	var seenAlt map[string]bool
	for _, l := range headerLinks(hdr) {
		rel := relTokens(l.rel)
		switch {
		case rel.has("canonical"):
			abs, ok := resolve(pageURL, l.ref)
			if !ok {
				continue
			}
			abs, _, _ = strings.Cut(abs, "#")
			switch {
			case h.canonicalsDisagree:
			case h.canonical == "":
				h.canonical = abs
			case h.canonical != abs:
				h.canonical, h.canonicalsDisagree = "", true
			}
		case rel.has("alternate"):
			lang := strings.TrimSpace(l.hreflang)
			abs, ok := resolve(pageURL, l.ref)
			if lang == "" || !ok || !validAlternate(lang, abs) || len(h.alternates) >= maxCellItems {
				continue
			}
			if seenAlt == nil {
				seenAlt = map[string]bool{}
				for _, a := range h.alternates {
					seenAlt[a.Hreflang+" "+a.Href] = true
				}
			}
			if key := lang + " " + abs; !seenAlt[key] {
				seenAlt[key] = true
				h.alternates = append(h.alternates, sitemap.Alternate{Hreflang: lang, Href: abs})
			}
		}
	}
}
