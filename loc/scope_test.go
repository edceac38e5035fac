package loc

import (
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

func TestNewScope(t *testing.T) {
	tests := []struct{ sitemapURL, want string }{
		{"https://example.com/catalog/sitemap.xml", "https://example.com/catalog/"},
		{"https://example.com/catalog/", "https://example.com/catalog/"},
		{"https://example.com/catalog", "https://example.com/"},
		{"https://example.com", "https://example.com/"},
		{"HTTPS://Example.COM:443/a/b/../sitemap.xml.gz?x=/y/#/z/", "https://example.com/a/"},
		{"http://www.Bücher.example:8080/kataloge/sitemap.xml", "http://www.xn--bcher-kva.example:8080/kataloge/"},
		{"https://[::1]/s.xml", "https://[::1]/"},
	}
	for _, tt := range tests {
		s, err := NewScope(tt.sitemapURL)
		if err != nil || s.String() != tt.want {
			t.Errorf("NewScope(%q) = %v, %v; want %q", tt.sitemapURL, s, err, tt.want)
		}
	}
	for _, bad := range []string{"sitemap.xml", "/catalog/sitemap.xml", "ftp://example.com/s.xml", "https://u@example.com/"} {
		if s, err := NewScope(bad); err == nil {
			t.Errorf("NewScope(%q) = %v, want an error", bad, s)
		}
	}
}

// applyTests run against the scope of https://www.example.com/catalog/sitemap.xml.
var applyTests = []struct {
	raw, want string
	rule, msg string // when Apply must refuse raw
}{
	{raw: "https://www.example.com/catalog/", want: "https://www.example.com/catalog/"},
	{raw: "https://www.example.com/catalog/item-1?color=red&size=M&ref=1", want: "https://www.example.com/catalog/item-1?color=red&size=M&ref=1"},
	{raw: "https://www.example.com/catalog/ümlat.html&q=name", want: "https://www.example.com/catalog/%C3%BCmlat.html&q=name"},
	{raw: " HTTPS://WWW.EXAMPLE.COM:443/catalog/a b#top", want: "https://www.example.com/catalog/a%20b#top"},
	{raw: "https://www.example.com/catalog/./a/../b", want: "https://www.example.com/catalog/b"},
	{raw: "https://www.example.com/catalog/.well-known", want: "https://www.example.com/catalog/.well-known"},
	{raw: "https://www.example.com/catalog/?sidebar=1&session=2&sids=3&xsid=4", want: "https://www.example.com/catalog/?sidebar=1&session=2&sids=3&xsid=4"},
	{raw: "https://www.example.com/catalog/a;v=1?a=sid#sid=1", want: "https://www.example.com/catalog/a;v=1?a=sid#sid=1"},

	// Directory boundaries.
	{raw: "https://www.example.com/catalog", rule: sitemap.RuleOutsideDirectory, msg: "only URLs starting with https://www.example.com/catalog/ are allowed"},
	{raw: "https://www.example.com/catalogue/x", rule: sitemap.RuleOutsideDirectory, msg: "outside the sitemap's directory"},
	{raw: "https://www.example.com/images/x.png", rule: sitemap.RuleOutsideDirectory, msg: "outside"},
	{raw: "https://www.example.com/", rule: sitemap.RuleOutsideDirectory, msg: "outside"},
	{raw: "https://www.example.com/catalog/../admin/", rule: sitemap.RuleOutsideDirectory, msg: "outside"},
	{raw: "https://www.example.com/catalog/%2E%2e/admin/", rule: sitemap.RuleOutsideDirectory, msg: "outside"},
	{raw: "https://www.example.com/Catalog/x", rule: sitemap.RuleOutsideDirectory, msg: "outside"},

	// Scheme, host, port.
	{raw: "http://www.example.com/catalog/x", rule: sitemap.RuleURLNotAllowed, msg: "scheme http, sitemap is on https"},
	{raw: "https://www.other.com/catalog/x", rule: sitemap.RuleURLNotAllowed, msg: "host www.other.com, sitemap is on www.example.com"},
	{raw: "https://shop.example.com/catalog/x", rule: sitemap.RuleURLNotAllowed, msg: "host shop.example.com, sitemap is on www.example.com"},
	{raw: "https://example.com/catalog/x", rule: sitemap.RuleURLNotAllowed, msg: "path mismatch: missing www"},
	{raw: "https://www.example.com./catalog/x", rule: sitemap.RuleURLNotAllowed, msg: "host www.example.com., sitemap is on www.example.com"},
	{raw: "https://www.example.com.evil.org/catalog/x", rule: sitemap.RuleURLNotAllowed, msg: "host www.example.com.evil.org"},
	{raw: "https://www.example.com:8443/catalog/x", rule: sitemap.RuleURLNotAllowed, msg: "port 8443, sitemap is on port 443"},

	// Session IDs, in the query or as a path parameter.
	{raw: "https://www.example.com/catalog/?sid=1", rule: sitemap.RuleSessionID, msg: "carries a session ID (sid)"},
	{raw: "https://www.example.com/catalog/?a=1&PHPSESSID=abc&b=2", rule: sitemap.RuleSessionID, msg: "(PHPSESSID)"},
	{raw: "https://www.example.com/catalog/x;jsessionid=ABC?a=1", rule: sitemap.RuleSessionID, msg: "(jsessionid)"},
	{raw: "https://www.example.com/catalog/?JSESSIONID=1", rule: sitemap.RuleSessionID, msg: "(JSESSIONID)"},
	{raw: "https://www.example.com/catalog/?sessionid=1", rule: sitemap.RuleSessionID, msg: "sessionid"},
	{raw: "https://www.example.com/catalog/?Session_ID=1", rule: sitemap.RuleSessionID, msg: "Session_ID"},
	{raw: "https://www.example.com/catalog/?ASPSESSIONIDQQGGQGPA=1", rule: sitemap.RuleSessionID, msg: "ASPSESSIONIDQQGGQGPA"},
	{raw: "https://www.example.com/catalog/?x=1&CFID=2&CFTOKEN=3", rule: sitemap.RuleSessionID, msg: "(CFID)"},
	{raw: "https://www.example.com/catalog/?cftoken=3#x", rule: sitemap.RuleSessionID, msg: "(cftoken)"},
	{raw: "https://www.example.com/catalog/?sid", rule: sitemap.RuleSessionID, msg: "(sid)"},
	{raw: "https://www.example.com/catalog/ü?sid=ü", rule: sitemap.RuleSessionID, msg: "(sid)"},

	// What Normalize refuses.
	{raw: "/catalog/x", rule: sitemap.RuleRelativeURL, msg: "relative URL"},
	{raw: "https://user@www.example.com/catalog/x", rule: sitemap.RuleInvalidURL, msg: "user name"},
}

func TestApply(t *testing.T) {
	s, err := NewScope("https://www.example.com/catalog/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range applyTests {
		got, err := s.Apply(tt.raw)
		if tt.rule != "" {
			checkViolation(t, "Apply", tt.raw, err, tt.rule, tt.msg)
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Apply(%q) = %q, %v; want %q", tt.raw, got, err, tt.want)
		}
	}
}

func TestApplyIncludesWWW(t *testing.T) {
	s, err := NewScope("https://example.com/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Apply("https://www.example.com/x")
	checkViolation(t, "Apply", "https://www.example.com/x", err, sitemap.RuleURLNotAllowed,
		"path mismatch: includes www (host www.example.com, sitemap is on example.com)")
	// A sitemap on another port: URLs must carry it.
	s, err = NewScope("http://example.com:8080/")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Apply("http://example.com/x")
	checkViolation(t, "Apply", "http://example.com/x", err, sitemap.RuleURLNotAllowed, "port 80, sitemap is on port 8080")
	if got, err := s.Apply("http://example.com:8080/x"); err != nil || got != "http://example.com:8080/x" {
		t.Errorf("Apply on port 8080 = %q, %v", got, err)
	}
}

// TestLength puts a URL at exactly 2,047 and 2,048 characters, escaped or not.
func TestLength(t *testing.T) {
	s, err := NewScope("https://www.example.com/")
	if err != nil {
		t.Fatal(err)
	}
	base := "https://www.example.com/"
	at := func(n int) string { return base + strings.Repeat("a", n-len(base)) }
	if got, err := s.Apply(at(2047)); err != nil || got != at(2047) {
		t.Errorf("Apply(2,047 characters) = %d characters, %v; want it as it is", len(got), err)
	}
	if err := s.Check(at(2047)); err != nil {
		t.Errorf("Check(2,047 characters) = %v", err)
	}
	for _, raw := range []string{at(2048), at(2045) + "é"} { // "é" is 2 bytes and 6 once escaped
		_, err := s.Apply(raw)
		checkViolation(t, "Apply", raw, err, sitemap.RuleURLTooLong, "must be shorter than 2,048")
	}
	_, err = s.Apply(at(2045) + "é")
	if err == nil || !strings.Contains(err.Error(), "2051 characters") {
		t.Errorf("Apply of an IRI escaped to 2,051 characters: %v", err)
	}
	err = Check(at(2048))
	checkViolation(t, "Check", at(2048), err, sitemap.RuleURLTooLong, "2048 characters")
}

// checkTests run against the scope of https://www.example.com/catalog/sitemap.xml.
var checkTests = []struct {
	uri       string
	rule, msg string // "" when the URI is fine
}{
	{uri: "https://www.example.com/catalog/item-1?color=red&size=M&ref=1"},
	{uri: "HTTPS://WWW.example.com:443/catalog/%c3%bc"},
	{uri: "https://www.example.com/catalog/a/../b"},
	{uri: "https://www.example.com/catalog/a?b=/c?d#e/f?g"},
	{uri: "https://www.example.com/catalog/ümlat", rule: sitemap.RuleInvalidURL, msg: "not escaped: non-ASCII byte 0xC3 in the path (write %C3)"},
	{uri: "https://www.example.com/catalog/a b", rule: sitemap.RuleInvalidURL, msg: `not escaped: " " in the path (write %20)`},
	{uri: "https://www.example.com/catalog/?a[]=1", rule: sitemap.RuleInvalidURL, msg: `not escaped: "[" in the query (write %5B)`},
	{uri: "https://www.example.com/catalog/#a#b", rule: sitemap.RuleInvalidURL, msg: `not escaped: "#" in the fragment (write %23)`},
	{uri: "https://www.example.com/catalog/100%", rule: sitemap.RuleInvalidURL, msg: `"%" not followed by two hex digits in the path (write %25)`},
	{uri: "https://www.bücher.example/catalog/", rule: sitemap.RuleInvalidURL, msg: "the host must be in punycode"},
	{uri: " https://www.example.com/catalog/", rule: sitemap.RuleInvalidURL, msg: "whitespace around"},
	{uri: "https://www.example.com/catalog/\n", rule: sitemap.RuleInvalidURL, msg: "whitespace around"},
	{uri: "catalog/x", rule: sitemap.RuleRelativeURL, msg: "relative URL"},
	{uri: "https://example.com/catalog/", rule: sitemap.RuleURLNotAllowed, msg: "path mismatch: missing www"},
	{uri: "https://www.example.com/catalogue/", rule: sitemap.RuleOutsideDirectory, msg: "outside"},
	{uri: "https://www.example.com/catalog/..", rule: sitemap.RuleOutsideDirectory, msg: "outside"},
	{uri: "https://www.example.com/catalog/;jsessionid=1", rule: sitemap.RuleSessionID, msg: "jsessionid"},
}

func TestCheck(t *testing.T) {
	s, err := NewScope("https://www.example.com/catalog/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range checkTests {
		err := s.Check(tt.uri)
		if tt.rule == "" {
			if err != nil {
				t.Errorf("Check(%q) = %v, want nil", tt.uri, err)
			}
			continue
		}
		checkViolation(t, "Check", tt.uri, err, tt.rule, tt.msg)
	}
	// Without a scope, only the scope rules go.
	if err := Check("https://other.example/x"); err != nil {
		t.Errorf("Check(other host) without a scope = %v", err)
	}
	checkViolation(t, "Check", "https://other.example/é", Check("https://other.example/é"), sitemap.RuleInvalidURL, "not escaped")
	checkViolation(t, "Check", "https://o.example/?sid=1", Check("https://o.example/?sid=1"), sitemap.RuleSessionID, "sid")
}

// TestFastPathAllocs holds Apply and Check to no allocation for a
// normalised URL in scope, and to returning the very string given.
func TestFastPathAllocs(t *testing.T) {
	s, err := NewScope("https://www.example.com/catalog/")
	if err != nil {
		t.Fatal(err)
	}
	raw := strings.Clone("https://www.example.com/catalog/item-42?color=red&size=M&ref=42#top")
	var got string
	if n := testing.AllocsPerRun(100, func() { got, err = s.Apply(raw) }); n != 0 || err != nil {
		t.Errorf("Apply allocates %v times (err %v), want 0", n, err)
	}
	if got != raw {
		t.Errorf("Apply = %q, want %q", got, raw)
	}
	if unsafeData(got) != unsafeData(raw) {
		t.Error("Apply returned a copy, want the input string itself")
	}
	if n := testing.AllocsPerRun(100, func() { err = s.Check(raw) }); n != 0 || err != nil {
		t.Errorf("Check allocates %v times (err %v), want 0", n, err)
	}
	// And that the fast path is taken for the workload's URLs at all, not a
	// slow path that happens not to allocate.
	for _, u := range []string{raw, "https://www.example.com/catalog/", "https://www.example.com/catalog/a;v=1/%C3%BC?q=a/b?c&d#e?f/g"} {
		if !s.fast(u) {
			t.Errorf("fast(%q) = false", u)
		}
	}
}

// TestOutsideFast holds Check to its quick answer for a normalised URL
// outside the directory (a set published in the wrong folder breaks it
// on every URL): the slow path's violation, made without normalising.
func TestOutsideFast(t *testing.T) {
	s, err := NewScope("https://www.example.com/sitemaps/sitemap-1.xml.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		uri  string
		fast bool
		rule string
	}{
		{"https://www.example.com/catalog/item-1?color=red&size=M&ref=1", true, sitemap.RuleOutsideDirectory},
		{"https://www.example.com/sitemaps", true, sitemap.RuleOutsideDirectory},
		{"https://www.example.com/", true, sitemap.RuleOutsideDirectory},
		{"https://www.example.com/a/../sitemaps/x", false, ""},                     // in scope once normalised
		{"https://www.example.com/a%2e%2e/x", false, sitemap.RuleOutsideDirectory}, // %2e is left to the slow path
		{"https://www.example.com/a b", false, sitemap.RuleInvalidURL},
		{"https://www.example.com:443/x", false, sitemap.RuleOutsideDirectory},
		{"https://www.example.com.evil/x", false, sitemap.RuleURLNotAllowed},
		{"https://www.example.com/sitemaps/x", false, ""},
	} {
		if got := s.fastOutside(tc.uri); got != tc.fast {
			t.Errorf("fastOutside(%q) = %v, want %v", tc.uri, got, tc.fast)
		}
		err := s.Check(tc.uri)
		if tc.rule == "" {
			if err != nil {
				t.Errorf("Check(%q) = %v, want nil", tc.uri, err)
			}
			continue
		}
		if !isRule(err, tc.rule) {
			t.Errorf("Check(%q) = %v, want %s", tc.uri, err, tc.rule)
		}
		if want := s.checkWritten(tc.uri); err.Error() != want.Error() {
			t.Errorf("Check(%q) = %v, the slow path %v", tc.uri, err, want)
		}
	}
}

func TestSessionIDNames(t *testing.T) {
	a := SessionIDNames()
	a[0] = "changed"
	a = append(a, "zenid")
	if b := SessionIDNames(); b[0] != "sid" || len(b) != len(a)-1 {
		t.Errorf("SessionIDNames() = %q after a caller changed its copy", b)
	}
}

func TestStripSessionIDs(t *testing.T) {
	tests := []struct {
		uri   string
		names []string
		want  string
	}{
		{"https://example.com/a?b=1&sid=2&c=3", nil, "https://example.com/a?b=1&c=3"},
		{"https://example.com/a?sid=2&b=1&PHPSESSID=x&c=3&CFID=1&cftoken=2", nil, "https://example.com/a?b=1&c=3"},
		{"https://example.com/a?sid=2", nil, "https://example.com/a"},
		{"https://example.com/a?sid=2#frag", nil, "https://example.com/a#frag"},
		{"https://example.com/a?b=1&sid=2#f?sid=3", nil, "https://example.com/a?b=1#f?sid=3"},
		{"https://example.com/a;jsessionid=ABC?b=1", nil, "https://example.com/a?b=1"},
		{"https://example.com/a;v=1;JSESSIONID=ABC;w=2/b?x=1&jsessionid=Q", nil, "https://example.com/a;v=1;w=2/b?x=1"},
		{"https://example.com/a;jsessionid=ABC", nil, "https://example.com/a"},
		{"https://example.com/?ASPSESSIONIDAB=1&aspsession=2", nil, "https://example.com/?aspsession=2"},
		{"https://example.com/a?sidebar=1&sids=2&xsid=3", nil, "https://example.com/a?sidebar=1&sids=2&xsid=3"},
		{"https://example.com/a?", nil, "https://example.com/a?"},
		{"https://example.com/a?&sid=1&", nil, "https://example.com/a?&"},
		{"https://example.com/a?b=1&sid=1", []string{}, "https://example.com/a?b=1&sid=1"},
		{"https://example.com/a?b=1&zenid=1&sid=1", append(SessionIDNames(), "zenid"), "https://example.com/a?b=1"},
		{"https://example.com/a?b=1&token=1&tok=2", []string{"tok*"}, "https://example.com/a?b=1"},
		{"https://example.com?sid=1", nil, "https://example.com"},
		{"https://example.com", nil, "https://example.com"},
		{"/relative;jsessionid=1?a=1&sid=2", nil, "/relative?a=1"},
		{"https://example.com/a#f?sid=3", nil, "https://example.com/a#f?sid=3"},
		{"https://example.com/a?b=1;sid=2", nil, "https://example.com/a?b=1;sid=2"},
		{"https://example.com/a?b=1#x;jsessionid=2", nil, "https://example.com/a?b=1#x;jsessionid=2"},
		{"https://example.com/a#x;jsessionid=2", nil, "https://example.com/a#x;jsessionid=2"},
		{"https://example.com/a?b=1&SID=2", []string{"sid"}, "https://example.com/a?b=1"},
	}
	for _, tt := range tests {
		if got := StripSessionIDs(tt.uri, tt.names); got != tt.want {
			t.Errorf("StripSessionIDs(%q, %q) = %q, want %q", tt.uri, tt.names, got, tt.want)
		}
		// What it leaves, Apply does not call a session ID.
		if tt.names == nil && sessionID(StripSessionIDs(tt.uri, nil)) != "" {
			t.Errorf("StripSessionIDs(%q) left a session ID", tt.uri)
		}
	}
	uri := strings.Clone("https://example.com/a?b=1")
	if got := StripSessionIDs(uri, nil); unsafeData(got) != unsafeData(uri) {
		t.Error("StripSessionIDs copied a URI without session IDs")
	}
}

func unsafeData(s string) *byte { return unsafe.StringData(s) }

// TestIsSessionName holds the fast path's spelled-out matcher to the list.
func TestIsSessionName(t *testing.T) {
	var names []string
	for _, n := range sessionIDNames {
		n = strings.TrimSuffix(n, "*")
		names = append(names, n, strings.ToUpper(n), n+"x", n[:len(n)-1], "x"+n, n[:len(n)-1]+"_", strings.ToUpper(n)+"QQ")
	}
	names = append(names, "", "s", "si", "sidebar", "SID", "sId", "sjd", "session", "aspsessioni", "sid\x00", "s\u0130d", "\u017fid", "session?id", "SESSION?ID", "SID"[:2]+"\x84")
	for _, n := range names {
		if got, want := isSessionName(n), matchName(n, sessionIDNames[:]); got != want {
			t.Errorf("isSessionName(%q) = %v, matchName says %v", n, got, want)
		}
	}
}

// TestZeroScope holds the zero Scope to the rules without scope.
func TestZeroScope(t *testing.T) {
	var s Scope
	for _, raw := range []string{"foo", "/a/b", "https://x.example/a?sid=1", "ftp://x.example/"} {
		_, applyErr := s.Apply(raw)
		checkErr := s.Check(raw)
		if applyErr == nil || checkErr == nil || !isRule(checkErr, ruleOf(Check(raw))) {
			t.Errorf("zero Scope on %q: Apply %v, Check %v; want errors as Check's %v", raw, applyErr, checkErr, Check(raw))
		}
	}
	if got, err := s.Apply("https://other.example/é"); err != nil || got != "https://other.example/%C3%A9" {
		t.Errorf("zero Scope Apply = %q, %v", got, err)
	}
}

func ruleOf(err error) string {
	var v *sitemap.Violation
	if errors.As(err, &v) {
		return v.Rule
	}
	return ""
}
