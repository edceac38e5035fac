package sitemap

import (
	"errors"
	"strconv"
)

// Rule IDs name the protocol rules a value can break. They are stable: the
// writer's refusals and package lint's diagnostics use the same IDs, named
// after the Search Console errors they predict.
const (
	RuleInvalidURL        = "invalid-url"           // not an absolute http(s) URI
	RuleRelativeURL       = "relative-url"          // no scheme or host
	RuleURLNotAllowed     = "url-not-allowed"       // other scheme, host or port than the sitemap ("path mismatch")
	RuleOutsideDirectory  = "url-outside-directory" // not under the sitemap's directory
	RuleURLTooLong        = "url-too-long"          // 2,048 characters or more once escaped
	RuleSessionID         = "session-id"            // carries a session ID
	RuleInvalidDate       = "invalid-date"          // not a W3C datetime
	RuleTimeWithoutZone   = "time-without-timezone"
	RuleInvalidChangefreq = "invalid-changefreq"
	RuleInvalidPriority   = "invalid-priority"
	RuleTooManyImages     = "too-many-images"
	RuleImage             = "invalid-image"    // missing or invalid image:loc
	RuleVideo             = "invalid-video"    // a required video tag missing, or a value out of range
	RuleNews              = "invalid-news"     // a required news tag missing, or a value out of range
	RuleHreflang          = "invalid-hreflang" // invalid hreflang code or href
	RuleDuplicateURL      = "duplicate-url"
	RuleInvalidCharacter  = "invalid-character" // a character XML 1.0 does not allow

	// Reported by the Reader (through Reader.OnNotice or as errors).
	RuleParseError         = "parse-error"         // not well-formed XML, or damaged
	RuleUnsupportedFormat  = "unsupported-format"  // not urlset, sitemapindex, text, RSS or Atom
	RuleSitemapIsHTML      = "sitemap-is-html"     // an HTML page served in place of a sitemap
	RuleFileTooLarge       = "file-too-large"      // over MaxBytes uncompressed
	RuleCompressionError   = "compression-error"   // damaged gzip
	RuleLeadingWhitespace  = "leading-whitespace"  // anything before the XML declaration
	RuleIncorrectNamespace = "incorrect-namespace" // root element not in the sitemaps.org namespace
	RuleUnknownTag         = "unknown-tag"         // an element the protocol and its extensions do not define there
	RuleElementOrder       = "element-order"       // elements not in the order the schema demands
	RuleMissingTag         = "missing-tag"         // a required element is missing (e.g. <url> without <loc>)
	RuleDoctype            = "doctype-not-allowed" // DOCTYPE or entity declarations (XXE, billion laughs)
	RuleDeprecatedTag      = "deprecated-tag"      // a tag or attribute Google deprecated in 2022 (read, but it has no effect)
)

// A Violation is a value that breaks a protocol rule. The Writer returns one
// (and writes nothing) for an entry it refuses.
type Violation struct {
	Rule  string // one of the Rule… IDs
	Field string // the element or attribute, e.g. "lastmod", "image:loc", "video:duration"
	// Index says which of the URL's images, videos or alternates the field
	// belongs to (0 for the first, and for fields of the URL itself or of
	// its news), so that a checker can place the problem with
	// Reader.FieldPos(Field, Index).
	Index int
	Value string // the offending value, possibly shortened
	Msg   string // what is wrong, for people
}

func (v *Violation) Error() string {
	s := v.Msg
	if v.Field != "" {
		s = v.Field + ": " + s
	}
	if v.Value != "" {
		s += " (" + strconv.Quote(shorten(v.Value, 120)) + ")"
	}
	return s + " [" + v.Rule + "]"
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ErrFull is returned by Writer.WriteURL and Writer.WriteIndex when the
// entry would take the document past one of its limits. Nothing was written;
// the caller starts a new document and writes the entry there.
var ErrFull = errors.New("sitemap: document full")

// Errors a Reader returns, wrapped in a *SyntaxError that says where.
var (
	ErrTooLarge          = errors.New("file too large")                                  // decompressed size over the Reader's MaxBytes
	ErrDoctype           = errors.New("DOCTYPE and entity declarations are not allowed") // XXE, billion laughs
	ErrHTML              = errors.New("sitemap is HTML")
	ErrUnsupportedFormat = errors.New("unsupported format")
	ErrCompression       = errors.New("compression error")
)

// A SyntaxError is a problem in a document being read, with its place.
// Line and Col are 1-based; Col counts bytes.
type SyntaxError struct {
	File   string // the Reader's Name, if set
	Line   int
	Col    int
	Offset int64 // bytes from the start of the (decompressed) document
	Err    error
}

func (e *SyntaxError) Error() string {
	s := ""
	if e.File != "" {
		s = e.File + ":"
	}
	if e.Line > 0 {
		s += strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ":"
	}
	if s != "" {
		s += " "
	}
	return s + e.Err.Error()
}

func (e *SyntaxError) Unwrap() error { return e.Err }
