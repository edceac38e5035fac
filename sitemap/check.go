package sitemap

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"
)

// Check reports, through report, every way u breaks the protocol: each
// field with a problem gives one *Violation, and checking goes on after it,
// so that a checker reading someone else's file sees every problem at once.
// It checks values (URLs, dates, enumerations, ranges, required extension
// tags, characters XML does not allow), not the scope of the URLs: whether
// Loc belongs in a given sitemap is package loc's business.
//
// Check accepts every W3C Datetime form in LastMod, as the protocol does;
// the Writer is stricter (see [Writer]).
func (u *URL) Check(report func(*Violation)) {
	u.check(report, false)
}

// Check reports, through report, every way e breaks the protocol, as
// [URL.Check] does.
func (e *IndexEntry) Check(report func(*Violation)) {
	e.check(report, false)
}

// check is Check; strict adds the rules the Writer keeps so that what it
// writes passes the schemas: lastmod needs at least a full date.
func (u *URL) check(report func(*Violation), strict bool) {
	checkSitemapLoc(report, "loc", u.Loc)
	u.checkFields(report, strict)
}

// CheckFields is Check but for Loc, for a caller that checks locs its own
// way (against a sitemap's scope: loc.Scope.Check reports all Check would
// of a loc, and more), so that a loc is parsed once.
func (u *URL) CheckFields(report func(*Violation)) {
	u.checkFields(report, false)
}

// checkFields is check but for the loc.
func (u *URL) checkFields(report func(*Violation), strict bool) {
	checkLastMod(report, u.LastMod, strict)
	if u.ChangeFreq != "" {
		switch u.ChangeFreq {
		case "always", "hourly", "daily", "weekly", "monthly", "yearly", "never":
		default:
			bad(report, RuleInvalidChangefreq, "changefreq", u.ChangeFreq,
				"not one of always, hourly, daily, weekly, monthly, yearly, never (lowercase)")
		}
	}
	if p := u.Priority; p != "" && !(len(p) == 3 && p[1] == '.' && (p[0] == '0' && p[2]-'0' <= 9 || p == "1.0")) {
		if !decimalIn(p, 1) {
			bad(report, RuleInvalidPriority, "priority", p, "not a decimal from 0.0 to 1.0")
		} else if tooManyDigits(p) {
			bad(report, RuleInvalidPriority, "priority", p, digitsMsg)
		}
	}
	if len(u.Images) == 0 && len(u.Videos) == 0 && u.News == nil && len(u.Alternates) == 0 {
		return
	}
	// Extension violations say which image, video or alternate they are
	// about (Violation.Index); the closure does not escape.
	index := 0
	indexed := func(v *Violation) {
		v.Index = index
		report(v)
	}
	if len(u.Images) > MaxImages {
		index = MaxImages // the first one too many
		bad(indexed, RuleTooManyImages, "image:image", "",
			strconv.Itoa(len(u.Images))+" images; a <url> may carry at most 1,000: keep the most important")
	}
	for index = range u.Images {
		checkImage(indexed, &u.Images[index])
	}
	for index = range u.Videos {
		checkVideo(indexed, &u.Videos[index], u.Loc)
	}
	if u.News != nil {
		checkNews(report, u.News)
	}
	for index = range u.Alternates {
		checkAlternate(indexed, &u.Alternates[index])
	}
}

func (e *IndexEntry) check(report func(*Violation), strict bool) {
	checkSitemapLoc(report, "loc", e.Loc)
	checkLastMod(report, e.LastMod, strict)
}

// bad reports one violation.
func bad(report func(*Violation), rule, field, value, msg string) {
	report(&Violation{Rule: rule, Field: field, Value: value, Msg: msg})
}

// minLocLen is the sitemap schemas' minLength for <loc>.
const minLocLen = 12

func checkSitemapLoc(report func(*Violation), field, s string) {
	if s == "" {
		bad(report, RuleMissingTag, field, "", "missing; every entry needs the absolute URL of its page")
		return
	}
	checkURI(report, "", field, s)
}

func checkLastMod(report func(*Violation), s string, strict bool) {
	if s == "" {
		return
	}
	min := formYear
	if strict {
		min = formDay
	}
	checkDate(report, "lastmod", s, min)
}

// checkDate reports a value that is not a W3C Datetime, or one less
// precise than min: the schemas (xsd:date | xsd:dateTime) need a full date.
func checkDate(report func(*Violation), field, s string, min dateForm) {
	if f := quickForm(s); f >= min {
		return
	}
	d := parseW3C(s)
	switch {
	case d.form == 0:
		bad(report, d.rule, field, s, d.msg)
	case d.form < min:
		bad(report, RuleInvalidDate, field, s,
			"only a year or a month; the sitemap schemas need at least a full date: write YYYY-MM-DD")
	}
}

func checkImage(report func(*Violation), im *Image) {
	if im.Loc == "" {
		bad(report, RuleImage, "image:loc", "", "missing; every <image:image> needs the image's URL")
	} else {
		checkURI(report, RuleImage, "image:loc", im.Loc)
	}
	checkText(report, "image:caption", im.Caption)
	checkText(report, "image:geo_location", im.GeoLocation)
	checkText(report, "image:title", im.Title)
	if im.License != "" {
		checkURI(report, RuleImage, "image:license", im.License)
	}
}

func checkVideo(report func(*Violation), v *Video, pageLoc string) {
	required := func(field, value string) bool {
		if value == "" {
			bad(report, RuleVideo, field, "", "missing; Google requires it in every <video:video>")
			return false
		}
		return true
	}
	if required("video:thumbnail_loc", v.ThumbnailLoc) {
		checkURI(report, RuleVideo, "video:thumbnail_loc", v.ThumbnailLoc)
	}
	if required("video:title", v.Title) {
		checkTextMax(report, RuleVideo, "video:title", v.Title, MaxVideoTitle)
	}
	if required("video:description", v.Description) {
		checkTextMax(report, RuleVideo, "video:description", v.Description, MaxVideoDescription)
	}
	if v.ContentLoc == "" && v.PlayerLoc == "" {
		bad(report, RuleVideo, "video:content_loc", "",
			"missing, and so is player_loc; Google requires one of them (content_loc, the video file, is preferred)")
	}
	for _, f := range [...]struct{ field, value string }{
		{"video:content_loc", v.ContentLoc},
		{"video:player_loc", v.PlayerLoc},
	} {
		if f.value == "" {
			continue
		}
		if f.value == pageLoc {
			bad(report, RuleVideo, f.field, f.value,
				"the same as the page's <loc>; it must be the video file or the player, not the page")
		} else {
			checkURI(report, RuleVideo, f.field, f.value)
		}
	}
	if v.Duration != "" {
		d, ok := nonNegativeDigits(v.Duration)
		if n, small := smallUint(d); !ok || !small || n < 1 || n > MaxVideoDuration {
			bad(report, RuleVideo, "video:duration", v.Duration, "not a whole number of seconds from 1 to 28800")
		}
	}
	if v.ExpirationDate != "" {
		checkDate(report, "video:expiration_date", v.ExpirationDate, formDay)
	}
	if v.Rating != "" {
		if !decimalIn(v.Rating, 5) {
			bad(report, RuleVideo, "video:rating", v.Rating, "not a decimal from 0.0 to 5.0")
		} else if tooManyDigits(v.Rating) {
			bad(report, RuleVideo, "video:rating", v.Rating, digitsMsg)
		}
	}
	if _, ok := nonNegativeDigits(v.ViewCount); v.ViewCount != "" && !ok {
		bad(report, RuleVideo, "video:view_count", v.ViewCount, "not a whole number")
	} else if tooManyDigits(v.ViewCount) {
		bad(report, RuleVideo, "video:view_count", v.ViewCount, digitsMsg)
	}
	if v.PublicationDate != "" {
		checkDate(report, "video:publication_date", v.PublicationDate, formDay)
	}
	if len(v.Tags) > MaxVideoTags {
		bad(report, RuleVideo, "video:tag", "", strconv.Itoa(len(v.Tags))+" tags; a video may carry at most 32")
	}
	for _, t := range v.Tags {
		checkText(report, "video:tag", t)
	}
	checkTextMax(report, RuleVideo, "video:category", v.Category, 256)
	checkYesNo(report, "video:family_friendly", v.FamilyFriendly)
	if r := v.Restriction; r != nil {
		checkRelationship(report, "video:restriction@relationship", r.Relationship)
		if !countryList(r.Countries) {
			bad(report, RuleVideo, "video:restriction", r.Countries,
				"not a list of uppercase ISO 3166 country codes separated by spaces, e.g. \"IE GB US\"")
		}
	}
	if v.GalleryLoc != "" {
		checkURI(report, RuleVideo, "video:gallery_loc", v.GalleryLoc)
	}
	for i := range v.Prices {
		checkPrice(report, &v.Prices[i])
	}
	checkYesNo(report, "video:requires_subscription", v.RequiresSubscription)
	if up := v.Uploader; up != nil {
		if up.Name == "" {
			bad(report, RuleVideo, "video:uploader", "", "empty; give the uploader's name, or leave Uploader nil")
		}
		checkTextMax(report, RuleVideo, "video:uploader", up.Name, MaxUploaderLen)
		if up.Info != "" {
			checkURI(report, RuleVideo, "video:uploader@info", up.Info)
			if !sameDomain(up.Info, pageLoc) {
				bad(report, RuleVideo, "video:uploader@info", up.Info,
					"not on the domain of the page's <loc>; Google wants the uploader's page on the same domain")
			}
		}
	}
	if p := v.Platform; p != nil {
		checkRelationship(report, "video:platform@relationship", p.Relationship)
		if !platformList(p.Platforms) {
			bad(report, RuleVideo, "video:platform", p.Platforms,
				"not a list of web, mobile and tv separated by single spaces")
		}
	}
	checkYesNo(report, "video:live", v.Live)
}

func checkPrice(report func(*Violation), p *Price) {
	if p.Value != "" && !decimalIn(p.Value, -1) {
		bad(report, RuleVideo, "video:price", p.Value, "not a non-negative decimal")
	} else if tooManyDigits(p.Value) {
		bad(report, RuleVideo, "video:price", p.Value, digitsMsg)
	}
	switch {
	case p.Currency != "":
		if len(p.Currency) != 3 || !upper(p.Currency) {
			bad(report, RuleVideo, "video:price@currency", p.Currency, "not an ISO 4217 code of three uppercase letters, e.g. EUR")
		}
	case p.Value != "":
		bad(report, RuleVideo, "video:price@currency", "", "missing; a price with a value needs its currency")
	}
	switch p.Type {
	case "purchase", "PURCHASE", "rent", "RENT":
	case "":
		if p.Value == "" {
			bad(report, RuleVideo, "video:price@type", "", "missing; a price without a value needs its type (purchase or rent)")
		}
	default:
		bad(report, RuleVideo, "video:price@type", p.Type, "not purchase or rent")
	}
	switch p.Resolution {
	case "", "sd", "SD", "hd", "HD":
	default:
		bad(report, RuleVideo, "video:price@resolution", p.Resolution, "not sd or hd")
	}
}

func checkYesNo(report func(*Violation), field, s string) {
	switch s {
	case "", "yes", "Yes", "YES", "no", "No", "NO":
	default:
		bad(report, RuleVideo, field, s, "not yes or no")
	}
}

func checkRelationship(report func(*Violation), field, s string) {
	if s != "allow" && s != "deny" {
		bad(report, RuleVideo, field, s, "not allow or deny (lowercase); the attribute is required")
	}
}

func checkNews(report func(*Violation), n *News) {
	if n.Publication.Name == "" {
		bad(report, RuleNews, "news:name", "", "missing; give the publication's name as on news.google.com")
	} else {
		checkText(report, "news:name", n.Publication.Name)
	}
	switch l := n.Publication.Language; {
	case l == "":
		bad(report, RuleNews, "news:language", "", "missing; give the ISO 639 code of the article's language, e.g. en")
	case l == "zh-cn" || l == "zh-tw" || (len(l) >= 2 && len(l) <= 3 && lower(l)):
	default:
		bad(report, RuleNews, "news:language", l, "not an ISO 639 code of 2 or 3 lowercase letters, or zh-cn or zh-tw")
	}
	if n.PublicationDate == "" {
		bad(report, RuleNews, "news:publication_date", "", "missing; give the article's publication date")
	} else {
		checkDate(report, "news:publication_date", n.PublicationDate, formDay)
	}
	if n.Title == "" {
		bad(report, RuleNews, "news:title", "", "missing; give the article's title")
	} else {
		checkText(report, "news:title", n.Title)
	}
	switch n.Access {
	case "", "Subscription", "Registration":
	default:
		bad(report, RuleNews, "news:access", n.Access, "not Subscription or Registration")
	}
	if n.Genres != "" && !genreList(n.Genres) {
		bad(report, RuleNews, "news:genres", n.Genres,
			"not a comma-separated list of PressRelease, Satire, Blog, OpEd, Opinion, UserGenerated")
	}
	checkText(report, "news:keywords", n.Keywords)
	if n.StockTickers != "" && !tickerList(n.StockTickers) {
		bad(report, RuleNews, "news:stock_tickers", n.StockTickers,
			"not a comma-separated list of at most 5 EXCHANGE:SYMBOL tickers, e.g. \"NASDAQ:AMAT, BOM:500325\"")
	}
}

func checkAlternate(report func(*Violation), a *Alternate) {
	if msg := hreflangProblem(a.Hreflang); msg != "" {
		bad(report, RuleHreflang, "xhtml:link@hreflang", a.Hreflang, msg)
	}
	if a.Href == "" {
		bad(report, RuleHreflang, "xhtml:link@href", "", "missing; give the absolute URL of the alternate page")
	} else {
		checkURI(report, RuleHreflang, "xhtml:link@href", a.Href)
	}
}

// uriClass sorts the bytes of a URI's path, query and fragment: 0 is
// allowed as is (RFC 3986 unreserved characters, sub-delims and ":@/?"),
// anything else needs a closer look.
var uriClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c == '%':
			t[c] = 1
		case c < 0x20 || c == 0x7f:
			t[c] = 2
		case c == ' ':
			t[c] = 3
		case c >= 0x80:
			t[c] = 4
		case strings.IndexByte(`"#<>[\]^`+"`"+`{|}`, byte(c)) >= 0:
			t[c] = 5
		}
	}
	return t
}()

// firstBadByte returns the index of the first byte of s that a URI's
// path, query or fragment may not hold as it is (a "%" that does not
// start an escape included), or -1.
func firstBadByte(s string) int {
	// Eight bytes at a time while all are plain: most URLs are, and one
	// branch per eight bytes is what keeps the writer fast.
	for i := 0; i < len(s); {
		end := i + 8
		if end <= len(s) {
			b := s[i:end]
			if uriClass[b[0]]|uriClass[b[1]]|uriClass[b[2]]|uriClass[b[3]]|
				uriClass[b[4]]|uriClass[b[5]]|uriClass[b[6]]|uriClass[b[7]] == 0 {
				i = end
				continue
			}
		} else {
			end = len(s)
		}
		for ; i < end; i++ {
			switch uriClass[s[i]] {
			case 0:
			case 1:
				if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
					return i
				}
				i += 2
			default:
				return i
			}
		}
	}
	return -1
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// checkURI reports a value that is not an absolute http(s) URI of
// printable ASCII. It is a cheap check, meant to catch what would make a
// search engine drop the URL; package loc turns IRIs into URIs. rule is
// the rule to report under; "" means a sitemap's own <loc>, whose problems
// have rules of their own and whose length is limited.
func checkURI(report func(*Violation), rule, field, s string) {
	ruleFor := func(r string) string {
		if rule == "" {
			return r
		}
		return rule
	}
	u, err := ParseURI(s)
	if err != nil {
		v := err.(*Violation)
		v.Field, v.Rule = field, ruleFor(v.Rule)
		report(v)
		return
	}
	if !ascii(u.Host) {
		bad(report, ruleFor(RuleInvalidURL), field, s, "has a non-ASCII host; write it in punycode (loc.Normalize does)")
		return
	}
	for _, part := range [...]string{u.Path, u.Query, u.Fragment} {
		if i := firstBadByte(part); i >= 0 {
			uriCharProblem(report, ruleFor(RuleInvalidURL), field, s, part[i])
			return
		}
	}
	if rule == "" {
		switch {
		case len(s) > MaxLocLen:
			bad(report, RuleURLTooLong, field, s, strconv.Itoa(len(s))+" characters; the protocol allows at most 2,047")
		case len(s) < minLocLen:
			bad(report, RuleInvalidURL, field, s, "shorter than the 12 characters the sitemap schema requires")
		}
	}
}

// uriCharProblem reports byte c of s, which a URI's path, query or
// fragment may not hold as it is.
func uriCharProblem(report func(*Violation), rule, field, s string, c byte) {
	switch uriClass[c] {
	case 1:
		bad(report, rule, field, s, "contains a % that does not start a %XX escape; write it as %25")
	case 2:
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			bad(report, RuleInvalidCharacter, field, s, "contains a control character XML 1.0 does not allow; remove it")
		} else {
			bad(report, rule, field, s, "contains a control character (tab, newline or DEL); remove it")
		}
	case 3:
		bad(report, rule, field, s, "contains a space; percent-encode it as %20 (loc.Normalize does)")
	case 4:
		bad(report, rule, field, s, "contains a non-ASCII character; percent-encode it (loc.Normalize does)")
	default:
		bad(report, rule, field, s,
			"contains "+strconv.QuoteRune(rune(c))+", which a URI may not hold; percent-encode it as %"+hexByte(c))
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexByte(c byte) string {
	const hex = "0123456789ABCDEF"
	return string([]byte{hex[c>>4], hex[c&15]})
}

func asciiEqualFold(s, lowerT string) bool {
	if len(s) != len(lowerT) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lowerT[i] {
			return false
		}
	}
	return true
}

// checkText reports a value that is not UTF-8 or holds a character XML 1.0
// does not allow (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
// [#x10000-#x10FFFF]): no escaping can write those.
func checkText(report func(*Violation), field, s string) {
	if msg := textProblem(s); msg != "" {
		bad(report, RuleInvalidCharacter, field, s, msg)
	}
}

// checkTextMax is checkText plus a length limit in characters.
func checkTextMax(report func(*Violation), rule, field, s string, max int) {
	checkText(report, field, s)
	if len(s) > max {
		if n := utf8.RuneCountInString(s); n > max {
			bad(report, rule, field, s, strconv.Itoa(n)+" characters; at most "+strconv.Itoa(max)+" are allowed")
		}
	}
}

func textProblem(s string) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x80 {
			i++
			continue
		}
		if c < 0x20 {
			if c != '\t' && c != '\n' && c != '\r' {
				return "contains a control character XML 1.0 does not allow; remove it"
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return "not valid UTF-8; sitemaps must be UTF-8"
		}
		if r == 0xFFFE || r == 0xFFFF {
			return "contains a noncharacter (U+FFFE or U+FFFF) XML 1.0 does not allow; remove it"
		}
		i += size
	}
	return ""
}

// decimalIn reports whether s is an xsd:decimal from 0 to max, or any
// non-negative decimal when max is negative.
func decimalIn(s string, max int) bool {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	intStart := i
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	intPart := s[intStart:i]
	frac := ""
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		frac = s[i+1 : j]
		i = j
	}
	if i != len(s) || intPart == "" && frac == "" {
		return false
	}
	for len(intPart) > 1 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	zero := (intPart == "" || intPart == "0") && allZero(frac)
	if neg {
		return zero
	}
	if max < 0 {
		return true
	}
	if len(intPart) > 1 {
		return false
	}
	n := 0
	if intPart != "" {
		n = int(intPart[0] - '0')
	}
	return n < max || n == max && allZero(frac)
}

// maxDigits is the most digits a number (priority, video:rating,
// video:view_count, video:price) may have. The schemas' types (xsd:decimal,
// xsd:nonNegativeInteger) are unbounded on paper, but XML Schema lets a
// validator stop at 18 digits (§3.2.3, totalDigits), and libxml2, behind
// xmllint and the many parsers built on it, refuses a number of more than
// 24: a longer value fails the schemas in practice. No real priority,
// rating, count or price comes near (a float printed in full has 17).
const maxDigits = 24

const digitsMsg = "more than 24 digits, which xmllint (libxml2) and the validators built on it refuse; round it"

// tooManyDigits reports whether the number s has more than maxDigits
// digits, counted as libxml2 counts them: the integer part's leading zeros
// aside, the fraction's trailing zeros included.
func tooManyDigits(s string) bool {
	if len(s) <= maxDigits {
		return false
	}
	n := 0
	leading := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			leading = false
		case c == '0' && leading:
		case '0' <= c && c <= '9':
			leading = false
			n++
		}
	}
	return n > maxDigits
}

func allZero(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '0' {
			return false
		}
	}
	return true
}

// smallUint parses a string of at most 9 digits.
func smallUint(s string) (int, bool) {
	if s == "" || len(s) > 9 || !digits(s) {
		return 0, false
	}
	return atoi(s), true
}

// nonNegativeDigits returns the digits of s, an xsd:nonNegativeInteger
// (the schema's type of video:duration and video:view_count: an optional
// "+", or "-" before a zero, then digits), without its sign and leading
// zeros; false when s is not one.
func nonNegativeDigits(s string) (string, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if s == "" || !digits(s) {
		return "", false
	}
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s, !neg || s == "0"
}

func upper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

func lower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// countryList matches the schema's ([A-Z]{2}( +[A-Z]{2})*)?.
func countryList(s string) bool {
	for i := 0; i < len(s); {
		if i > 0 {
			if s[i] != ' ' {
				return false
			}
			for i < len(s) && s[i] == ' ' {
				i++
			}
		}
		if i+2 > len(s) || !upper(s[i:i+2]) {
			return false
		}
		i += 2
	}
	return true
}

// platformList matches the schema's ((web|mobile|tv)( (web|mobile|tv))*)?.
func platformList(s string) bool {
	if s == "" {
		return true
	}
	for {
		word, rest, more := cut(s, ' ')
		switch word {
		case "web", "mobile", "tv":
		default:
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// genreList matches the schema's (G)(, *(G))* for the six genres.
func genreList(s string) bool {
	for {
		word, rest, more := cut(s, ',')
		switch word {
		case "PressRelease", "Satire", "Blog", "OpEd", "Opinion", "UserGenerated":
		default:
			return false
		}
		if !more {
			return true
		}
		for len(rest) > 0 && rest[0] == ' ' {
			rest = rest[1:]
		}
		s = rest
	}
}

// tickerList matches the schema's (\w+:\w+(, *\w+:\w+){0,4})?.
func tickerList(s string) bool {
	for n := 1; ; n++ {
		if n > 5 {
			return false
		}
		item, rest, more := cut(s, ',')
		exchange, symbol, ok := cut(item, ':')
		if !ok || !xsdWord(exchange) || !xsdWord(symbol) {
			return false
		}
		if !more {
			return true
		}
		for len(rest) > 0 && rest[0] == ' ' {
			rest = rest[1:]
		}
		s = rest
	}
}

// xsdWord matches \w+ in XML Schema's regular expressions: characters
// that are not punctuation, separators or "other" (so not '_').
func xsdWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if unicode.In(r, unicode.P, unicode.Z, unicode.C) {
			return false
		}
	}
	return true
}

func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// sameDomain reports whether the URLs a and b are on one registrable
// domain (www.example.com and video.example.com are; example.co.uk and
// other.co.uk are not: the public suffix list says where a domain
// starts; www.example.com. is www.example.com). A URL that does not parse, or has no such domain (an IP
// address, a bare public suffix), is compared by its host alone; one that
// does not parse at all is reported elsewhere, and passes here.
func sameDomain(a, b string) bool {
	ua, err1 := ParseURI(a)
	ub, err2 := ParseURI(b)
	if err1 != nil || err2 != nil {
		return true
	}
	// A fully qualified name's final dot names the same domain, and the
	// public suffix list has no empty label.
	ha := strings.ToLower(strings.TrimSuffix(ua.Host, "."))
	hb := strings.ToLower(strings.TrimSuffix(ub.Host, "."))
	if ha == hb {
		return true
	}
	da, err1 := publicsuffix.EffectiveTLDPlusOne(ha)
	db, err2 := publicsuffix.EffectiveTLDPlusOne(hb)
	return err1 == nil && err2 == nil && da == db
}
