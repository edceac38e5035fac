package sitemap

import "strings"

// escapes maps each byte that must be escaped in a value to its
// replacement: the five entities the protocol names, and character
// references for the whitespace an XML parser would otherwise normalise
// (and that would break the one-entry-per-line layout).
var escapes = [256]string{
	'&':  "&amp;",
	'<':  "&lt;",
	'>':  "&gt;",
	'"':  "&quot;",
	'\'': "&apos;",
	'\t': "&#x9;",
	'\n': "&#xA;",
	'\r': "&#xD;",
}

var mustEscape = func() (t [256]bool) {
	for c, e := range escapes {
		t[c] = e != ""
	}
	return t
}()

// appendEscaped appends s escaped for both text and attribute values,
// copying the runs between special characters whole.
func appendEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		if mustEscape[s[i]] {
			b = append(b, s[last:i]...)
			b = append(b, escapes[s[i]]...)
			last = i + 1
		}
	}
	return append(b, s[last:]...)
}

// appendLoc appends a checked URI, escaped: of the special characters, a
// URI can hold only & and ', and searching for them with IndexByte is
// several times faster than a scan byte by byte.
func appendLoc(b []byte, s string) []byte {
	if strings.IndexByte(s, '\'') >= 0 {
		return appendEscaped(b, s)
	}
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			return append(b, s...)
		}
		b = append(b, s[:i]...)
		b = append(b, "&amp;"...)
		s = s[i+1:]
	}
}

// appendDateValue appends a checked W3C datetime, adding the seconds the
// schemas require to a time written as hh:mm.
func appendDateValue(b []byte, s string) []byte {
	if len(s) > 16 && s[10] == 'T' && s[16] != ':' {
		b = append(b, s[:16]...)
		b = append(b, ":00"...)
		return append(b, s[16:]...)
	}
	return append(b, s...)
}

// appendElem appends <name>value</name>, escaped, when value is not empty.
func appendElem(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, '<')
	b = append(b, name...)
	b = append(b, '>')
	b = appendEscaped(b, value)
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}

// appendDateElem is appendElem for a date.
func appendDateElem(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, '<')
	b = append(b, name...)
	b = append(b, '>')
	b = appendDateValue(b, value)
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}

// appendAttr appends ` name="value"`, escaped, when value is not empty.
func appendAttr(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = appendEscaped(b, value)
	return append(b, '"')
}

// appendURL appends one checked <url> line.
func appendURL(b []byte, u *URL) []byte {
	b = append(b, "<url><loc>"...)
	b = appendLoc(b, u.Loc)
	b = append(b, "</loc>"...)
	if u.LastMod != "" {
		b = append(b, "<lastmod>"...)
		b = appendDateValue(b, u.LastMod)
		b = append(b, "</lastmod>"...)
	}
	if u.ChangeFreq != "" { // one of seven words: nothing to escape
		b = append(b, "<changefreq>"...)
		b = append(b, u.ChangeFreq...)
		b = append(b, "</changefreq>"...)
	}
	if u.Priority != "" { // a decimal: nothing to escape
		b = append(b, "<priority>"...)
		b = append(b, u.Priority...)
		b = append(b, "</priority>"...)
	}
	for i := range u.Images {
		b = appendImage(b, &u.Images[i])
	}
	for i := range u.Videos {
		b = appendVideo(b, &u.Videos[i])
	}
	if u.News != nil {
		b = appendNews(b, u.News)
	}
	for i := range u.Alternates {
		a := &u.Alternates[i]
		b = append(b, `<xhtml:link rel="alternate"`...)
		b = appendAttr(b, "hreflang", a.Hreflang)
		b = appendAttr(b, "href", a.Href)
		b = append(b, "/>"...)
	}
	return append(b, "</url>\n"...)
}

func appendImage(b []byte, im *Image) []byte {
	b = append(b, "<image:image>"...)
	b = appendElem(b, "image:loc", im.Loc)
	b = appendElem(b, "image:caption", im.Caption)
	b = appendElem(b, "image:geo_location", im.GeoLocation)
	b = appendElem(b, "image:title", im.Title)
	b = appendElem(b, "image:license", im.License)
	return append(b, "</image:image>"...)
}

// appendVideo writes the children in the schema's sequence.
func appendVideo(b []byte, v *Video) []byte {
	b = append(b, "<video:video>"...)
	b = appendElem(b, "video:thumbnail_loc", v.ThumbnailLoc)
	b = appendElem(b, "video:title", v.Title)
	b = appendElem(b, "video:description", v.Description)
	b = appendElem(b, "video:content_loc", v.ContentLoc)
	b = appendElem(b, "video:player_loc", v.PlayerLoc)
	b = appendElem(b, "video:duration", v.Duration)
	b = appendDateElem(b, "video:expiration_date", v.ExpirationDate)
	b = appendElem(b, "video:rating", v.Rating)
	b = appendElem(b, "video:view_count", v.ViewCount)
	b = appendDateElem(b, "video:publication_date", v.PublicationDate)
	for _, t := range v.Tags {
		b = append(b, "<video:tag>"...)
		b = appendEscaped(b, t)
		b = append(b, "</video:tag>"...)
	}
	b = appendElem(b, "video:category", v.Category)
	b = appendElem(b, "video:family_friendly", v.FamilyFriendly)
	if r := v.Restriction; r != nil {
		b = append(b, "<video:restriction"...)
		b = appendAttr(b, "relationship", r.Relationship)
		b = append(b, '>')
		b = appendEscaped(b, r.Countries)
		b = append(b, "</video:restriction>"...)
	}
	b = appendElem(b, "video:gallery_loc", v.GalleryLoc)
	for i := range v.Prices {
		p := &v.Prices[i]
		b = append(b, "<video:price"...)
		b = appendAttr(b, "currency", p.Currency)
		b = appendAttr(b, "type", p.Type)
		b = appendAttr(b, "resolution", p.Resolution)
		b = append(b, '>')
		b = appendEscaped(b, p.Value)
		b = append(b, "</video:price>"...)
	}
	b = appendElem(b, "video:requires_subscription", v.RequiresSubscription)
	if up := v.Uploader; up != nil {
		b = append(b, "<video:uploader"...)
		b = appendAttr(b, "info", up.Info)
		b = append(b, '>')
		b = appendEscaped(b, up.Name)
		b = append(b, "</video:uploader>"...)
	}
	if p := v.Platform; p != nil {
		b = append(b, "<video:platform"...)
		b = appendAttr(b, "relationship", p.Relationship)
		b = append(b, '>')
		b = appendEscaped(b, p.Platforms)
		b = append(b, "</video:platform>"...)
	}
	b = appendElem(b, "video:live", v.Live)
	return append(b, "</video:video>"...)
}

// appendNews writes the children in the schema's sequence.
func appendNews(b []byte, n *News) []byte {
	b = append(b, "<news:news><news:publication>"...)
	b = appendElem(b, "news:name", n.Publication.Name)
	b = appendElem(b, "news:language", n.Publication.Language)
	b = append(b, "</news:publication>"...)
	b = appendElem(b, "news:access", n.Access)
	b = appendElem(b, "news:genres", n.Genres)
	b = appendDateElem(b, "news:publication_date", n.PublicationDate)
	b = appendElem(b, "news:title", n.Title)
	b = appendElem(b, "news:keywords", n.Keywords)
	b = appendElem(b, "news:stock_tickers", n.StockTickers)
	return append(b, "</news:news>"...)
}
