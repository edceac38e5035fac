package sitemap

// ISO 639-1 language codes (the 184 two-letter codes, as Debian's iso-codes lists them), which Google
// reads in hreflang.
const iso639_1 = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy " +
	"da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz " +
	"ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo " +
	"lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps " +
	"pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn " +
	"to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu"

// ISO 3166-1 alpha-2 country codes (the 249 officially assigned codes).
const iso3166_1 = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ " +
	"BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ " +
	"EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY " +
	"HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA " +
	"LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY " +
	"MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS " +
	"RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM " +
	"TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"

// codeSet is a set of two-letter codes, case-insensitive.
type codeSet [26 * 26]bool

func newCodeSet(list string) *codeSet {
	var s codeSet
	for i := 0; i+2 <= len(list); i += 3 {
		s[index2(list[i], list[i+1])] = true
	}
	return &s
}

func index2(a, b byte) int { return int(a|0x20-'a')*26 + int(b|0x20-'a') }

func (s *codeSet) has(code string) bool {
	return len(code) == 2 && letters(code) && s[index2(code[0], code[1])]
}

var (
	languages = newCodeSet(iso639_1)
	countries = newCodeSet(iso3166_1)
)

func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// hreflangProblem says what is wrong with an hreflang value, or "" when
// Google accepts it: x-default, or an ISO 639-1 language, optionally
// followed by an ISO 15924 script and an ISO 3166-1 alpha-2 region (case
// does not matter).
func hreflangProblem(s string) string {
	if asciiEqualFold(s, "x-default") {
		return ""
	}
	if s == "" {
		return "missing; give a language code such as en or en-GB, or x-default"
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			return "subtags are separated by a hyphen, not an underscore (en-GB, not en_GB)"
		}
	}
	lang, rest, more := cut(s, '-')
	switch {
	case languages.has(lang):
	case countries.has(lang):
		return "is a country code, not a language; give the language first, e.g. en-" + upperASCII(lang)
	case len(lang) == 3 && letters(lang):
		return "is a three-letter language code; Google reads ISO 639-1 two-letter codes"
	default:
		return "not an ISO 639-1 language code"
	}
	if !more {
		return ""
	}
	sub, rest, more := cut(rest, '-')
	if len(sub) == 4 && letters(sub) { // ISO 15924 script, e.g. zh-Hant
		if !more {
			return ""
		}
		sub, rest, more = cut(rest, '-')
	}
	switch {
	case countries.has(sub):
	case asciiEqualFold(sub, "uk"):
		return "UK is not an ISO 3166-1 code; the United Kingdom is GB (en-GB)"
	case len(sub) == 3 && digits(sub):
		return "Google does not support UN M.49 region codes such as 419; give a country code"
	case len(sub) == 2 && letters(sub):
		return "not an ISO 3166-1 alpha-2 country code"
	default:
		return "not a language, optionally followed by a script and a region, e.g. en-GB or zh-Hant-TW"
	}
	if more || rest != "" {
		return "only a language, a script and a region are supported, e.g. zh-Hant-TW"
	}
	return ""
}

func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
