package loc

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// normalizeTests are the cases of TestNormalize; FuzzNormalize seeds from
// them too.
var normalizeTests = []struct {
	raw, want string
	rule      string // when Normalize must refuse raw
	msg       string // a part of the refusal's message
}{
	// The protocol's example, and an IDN host with a non-ASCII path.
	{raw: "http://www.example.com/ümlat.html&q=name", want: "http://www.example.com/%C3%BCmlat.html&q=name"},
	{raw: "http://www.Bücher.example/straße", want: "http://www.xn--bcher-kva.example/stra%C3%9Fe"},
	// Already normalised: unchanged.
	{raw: "https://www.example.com/catalog/item-1?color=red&size=M&ref=1", want: "https://www.example.com/catalog/item-1?color=red&size=M&ref=1"},
	{raw: "https://example.com/a;b=c/d:e@f!$&'()*+,=~_-.", want: "https://example.com/a;b=c/d:e@f!$&'()*+,=~_-."},
	// IRIs: path, query, fragment.
	{raw: "https://example.com/日本/?q=é#à", want: "https://example.com/%E6%97%A5%E6%9C%AC/?q=%C3%A9#%C3%A0"},
	{raw: "https://example.com/?q=a b&r=\"<>\\^`{|}", want: "https://example.com/?q=a%20b&r=%22%3C%3E%5C%5E%60%7B%7C%7D"},
	{raw: "https://example.com/a[1]?b[]=2", want: "https://example.com/a%5B1%5D?b%5B%5D=2"},
	{raw: "https://example.com/p?q=/x?y#f/r?s#t", want: "https://example.com/p?q=/x?y#f/r?s%23t"},
	{raw: "https://example.com/\x00\x1f\x7f", want: "https://example.com/%00%1F%7F"},
	// Invalid UTF-8 is escaped byte by byte.
	{raw: "https://example.com/\xff\xc3(", want: "https://example.com/%FF%C3("},
	// Percent-escapes: valid ones kept as written, lone "%" escaped.
	{raw: "https://example.com/%c3%bc%41?x=%2F", want: "https://example.com/%C3%BCA?x=%2F"},
	{raw: "https://example.com/100%?x=%zz&y=%4#%", want: "https://example.com/100%25?x=%25zz&y=%254#%25"},
	{raw: "https://example.com/%25", want: "https://example.com/%25"},
	// Whitespace around is trimmed, inside is escaped.
	{raw: " \t\r\nhttps://example.com/a b\n\v\f ", want: "https://example.com/a%20b"},
	// Case, ports, empty path.
	{raw: "HTTPS://WWW.Example.COM", want: "https://www.example.com/"},
	{raw: "http://example.com:80/a", want: "http://example.com/a"},
	{raw: "https://example.com:443", want: "https://example.com/"},
	{raw: "https://example.com:80/", want: "https://example.com:80/"},
	{raw: "http://example.com:/", want: "http://example.com/"},
	{raw: "http://example.com:0080/", want: "http://example.com/"},
	{raw: "http://example.com:08080?x", want: "http://example.com:8080/?x"},
	{raw: "http://example.com?", want: "http://example.com/?"},
	{raw: "http://example.com#", want: "http://example.com/#"},
	// Hosts.
	{raw: "http://example.com./", want: "http://example.com./"},
	{raw: "http://my_host.example.com/", want: "http://my_host.example.com/"},
	{raw: "http://r3---sn-apo.example.com/", want: "http://r3---sn-apo.example.com/"},
	{raw: "http://XN--BCHER-KVA.example/", want: "http://xn--bcher-kva.example/"},
	{raw: "http://ＥＸＡＭＰＬＥ．com/", want: "http://example.com/"},
	{raw: "http://faß.de/", want: "http://xn--fa-hia.de/"},
	{raw: "http://192.168.0.1:8080/", want: "http://192.168.0.1:8080/"},
	{raw: "http://[2001:DB8:0:0::1]/", want: "http://[2001:db8::1]/"},
	{raw: "https://[::1]:443", want: "https://[::1]/"},
	{raw: "https://[::1]:8443/x", want: "https://[::1]:8443/x"},
	{raw: "http://a..b/", rule: sitemap.RuleInvalidURL, msg: "empty label"},
	{raw: "http://.example.com/", rule: sitemap.RuleInvalidURL, msg: "empty label"},
	{raw: "http://ex ample.com/", rule: sitemap.RuleInvalidURL, msg: `" " is not allowed`},
	{raw: "http://ex%41mple.com/", rule: sitemap.RuleInvalidURL, msg: `"%" is not allowed`},
	{raw: "http://xn--a.example/", rule: sitemap.RuleInvalidURL, msg: "invalid host"},
	{raw: "http://a／b.example/", rule: sitemap.RuleInvalidURL, msg: `not a host name once in punycode ("a/b.example")`},
	{raw: "http://ａ＠b.example/", rule: sitemap.RuleInvalidURL, msg: "not a host name once in punycode"},
	{raw: "http://xn--abc.example/", rule: sitemap.RuleInvalidURL, msg: "invalid host"},
	{raw: "http://a\u200db.example/", rule: sitemap.RuleInvalidURL, msg: "invalid host"},
	{raw: "http://\xff.example/", rule: sitemap.RuleInvalidURL, msg: "invalid host"},
	{raw: "http://[1.2.3.4]/", rule: sitemap.RuleInvalidURL, msg: "invalid IPv6 host"},
	{raw: "http://[fe80::1%25eth0]/", rule: sitemap.RuleInvalidURL, msg: "invalid IPv6 host"},
	{raw: "http://[::1/", rule: sitemap.RuleInvalidURL, msg: "without closing ]"},
	{raw: "http://[::1]x/", rule: sitemap.RuleInvalidURL, msg: `unexpected "x"`},
	{raw: "http://example.com:8o/", rule: sitemap.RuleInvalidURL, msg: `port "8o" is not a number`},
	{raw: "http://example.com:65536/", rule: sitemap.RuleInvalidURL, msg: "over 65535"},
	{raw: "http://example.com:65535/", want: "http://example.com:65535/"},
	// Dot segments, plain and escaped.
	{raw: "https://example.com/a/./b/../c", want: "https://example.com/a/c"},
	{raw: "https://example.com/a/%2e/b/%2E%2e/c/.%2E/d?x=/../", want: "https://example.com/a/d?x=/../"},
	{raw: "https://example.com/a/b/..", want: "https://example.com/a/"},
	{raw: "https://example.com/a/b/.", want: "https://example.com/a/b/"},
	{raw: "https://example.com/../../a", want: "https://example.com/a"},
	{raw: "https://example.com/a//../b", want: "https://example.com/a/b"},
	{raw: "https://example.com/.well-known/..a/a../%2e%2e%2e", want: "https://example.com/.well-known/..a/a../..."},
	// Refusals.
	{raw: "", rule: sitemap.RuleRelativeURL, msg: "no scheme"},
	{raw: "/catalog/x", rule: sitemap.RuleRelativeURL, msg: "no scheme"},
	{raw: "www.example.com/x", rule: sitemap.RuleRelativeURL, msg: "no scheme"},
	{raw: "//www.example.com/x", rule: sitemap.RuleRelativeURL, msg: "no scheme"},
	{raw: "http:/x", rule: sitemap.RuleRelativeURL, msg: "no host"},
	{raw: "http:x", rule: sitemap.RuleRelativeURL, msg: "no host"},
	{raw: "https://", rule: sitemap.RuleRelativeURL, msg: "no host"},
	{raw: "https:///x", rule: sitemap.RuleRelativeURL, msg: "no host"},
	{raw: "http://:80/x", rule: sitemap.RuleRelativeURL, msg: "no host"},
	{raw: "ftp://example.com/x", rule: sitemap.RuleInvalidURL, msg: `scheme "ftp" is not http or https`},
	{raw: "mailto:a@example.com", rule: sitemap.RuleInvalidURL, msg: `scheme "mailto"`},
	{raw: "javascript:alert(1)", rule: sitemap.RuleInvalidURL, msg: `scheme "javascript"`},
	{raw: "https://user:secret@example.com/", rule: sitemap.RuleInvalidURL, msg: "user name or password"},
	{raw: "https://@example.com/", rule: sitemap.RuleInvalidURL, msg: "user name or password"},
}

func TestNormalize(t *testing.T) {
	for _, tt := range normalizeTests {
		got, err := Normalize(tt.raw)
		if tt.rule != "" {
			checkViolation(t, "Normalize", tt.raw, err, tt.rule, tt.msg)
			if got != "" {
				t.Errorf("Normalize(%q) = %q with an error, want \"\"", tt.raw, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.raw, got, err, tt.want)
		}
	}
}

// checkViolation fails unless err is a *sitemap.Violation of rule for
// the loc raw whose message contains msg.
func checkViolation(t *testing.T, fn, raw string, err error, rule, msg string) {
	t.Helper()
	var v *sitemap.Violation
	if !errors.As(err, &v) {
		t.Errorf("%s(%q) error = %v, want a *sitemap.Violation [%s]", fn, raw, err, rule)
		return
	}
	if v.Rule != rule || v.Field != "loc" || v.Value != raw || !strings.Contains(v.Msg, msg) {
		t.Errorf("%s(%q) = %+v; want rule %s, field loc, value %q, message containing %q", fn, raw, *v, rule, raw, msg)
	}
}

// TestLatin1: sitemaps.org's example, both encodings of the same URL: UTF-8
// by default, ISO-8859-1 when asked, which Normalize then keeps.
func TestLatin1(t *testing.T) {
	const raw = "http://www.example.com/ümlat.php&q=name"
	if n, err := Normalize(raw); err != nil || n != "http://www.example.com/%C3%BCmlat.php&q=name" {
		t.Errorf("Normalize(%q) = %q, %v; want UTF-8", raw, n, err)
	}
	for in, want := range map[string]string{
		raw:                                 "http://www.example.com/%FCmlat.php&q=name",
		"https://bücher.example/café?q=é#à": "https://bücher.example/caf%E9?q=%E9#%E0",
		"https://www.example.com/a%20b":     "https://www.example.com/a%20b",
		"https://www.example.com/plain":     "https://www.example.com/plain",
	} {
		got, err := Latin1(in)
		if err != nil || got != want {
			t.Errorf("Latin1(%q) = %q, %v; want %q", in, got, err, want)
			continue
		}
		n, err := Normalize(got)
		if err != nil || !strings.HasSuffix(n, strings.TrimPrefix(want, "https://bücher.example")) {
			t.Errorf("Normalize(Latin1(%q)) = %q, %v: the Latin-1 escapes must stay", in, n, err)
		}
	}
	for _, in := range []string{"https://www.example.com/€uro", "https://www.example.com/\xff"} {
		_, err := Latin1(in)
		var v *sitemap.Violation
		if !errors.As(err, &v) || v.Rule != sitemap.RuleInvalidURL || !strings.Contains(v.Msg, "ISO-8859-1") {
			t.Errorf("Latin1(%q): %v, want an invalid-url violation", in, err)
		}
	}
}

// TestNormalizeTooLong: a URI past MaxRewrite is refused as too long
// without being rewritten, so that a 16 MiB field of bytes to escape costs
// no more than itself; one just under is rewritten, dot segments and all.
func TestNormalizeTooLong(t *testing.T) {
	long := "https://www.example.com/" + strings.Repeat("\x01", MaxRewrite)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Normalize(long)
	runtime.ReadMemStats(&after)
	if v, ok := errors.AsType[*sitemap.Violation](err); !ok || v.Rule != sitemap.RuleURLTooLong || strings.Contains(v.Msg, "2,048") {
		t.Fatalf("Normalize of %d bytes: %v, want %s, not the loc's 2,048", len(long), err, sitemap.RuleURLTooLong)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 4<<10 {
		t.Errorf("refusing it allocated %d bytes", n)
	}
	dots := "https://www.example.com/a" + strings.Repeat("/b/..", (MaxRewrite-30)/5) + "/c"
	if len(dots) > MaxRewrite {
		t.Fatalf("test URL of %d bytes", len(dots))
	}
	if n, err := Normalize(" " + dots + " "); err != nil || n != "https://www.example.com/a/c" {
		t.Errorf("Normalize of %d bytes of dot segments = %q, %v", len(dots), n, err)
	}
	// As a loc (Apply), in the loc's words; as an image's URL, which has
	// no other cap, in the rewriter's, named for its field.
	s, err := NewScope("https://www.example.com/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(long); err == nil || !strings.Contains(err.Error(), "a URL must be shorter than 2,048 characters") {
		t.Errorf("Apply: %v", err)
	}
	u := sitemap.URL{Loc: "https://www.example.com/", Images: []sitemap.Image{{Loc: "https://CDN.example.com/" + strings.Repeat("a", MaxRewrite)}}}
	if v, ok := errors.AsType[*sitemap.Violation](NormalizeExtensions(&u)); !ok || v.Rule != sitemap.RuleURLTooLong || v.Field != "image:loc" || strings.Contains(v.Msg, "2,048") {
		t.Errorf("NormalizeExtensions: %v", v)
	}
	// A URI that needs no rewriting is capped as well: Normalize's fast
	// path returned it, and an image's URL of 10 MB was published, in a
	// sitemap that the reader refuses (its token is 256 KiB at most).
	plain := "https://cdn.example.com/" + strings.Repeat("a", 10<<20)
	_, err = Normalize(plain)
	if v, ok := errors.AsType[*sitemap.Violation](err); !ok || v.Rule != sitemap.RuleURLTooLong {
		t.Errorf("Normalize of a plain URI of %d bytes: %v, want %s", len(plain), v, sitemap.RuleURLTooLong)
	}
	if Canonical(plain) {
		t.Errorf("Canonical of a URI of %d bytes, which Normalize refuses", len(plain))
	}
	u = sitemap.URL{Loc: "https://www.example.com/", Alternates: []sitemap.Alternate{{Hreflang: "de", Href: plain}}}
	if v, ok := errors.AsType[*sitemap.Violation](NormalizeExtensions(&u)); !ok || v.Rule != sitemap.RuleURLTooLong || v.Field != "xhtml:link" {
		t.Errorf("NormalizeExtensions of a plain alternate of %d bytes: %v", len(plain), v)
	}
	// So is one that escaping makes longer than MaxRewrite (three times
	// as long at most): what Normalize returns, it returns again.
	iri := "https://cdn.example.com/" + strings.Repeat("é", MaxRewrite/4)
	_, err = Normalize(iri)
	if v, ok := errors.AsType[*sitemap.Violation](err); !ok || v.Rule != sitemap.RuleURLTooLong || v.Value != iri {
		t.Errorf("Normalize of an IRI of %d bytes that escapes to %d: %v", len(iri), len(iri)*3-48, v)
	}
	if n, err := Normalize(plain[:MaxRewrite]); err != nil || n != plain[:MaxRewrite] {
		t.Errorf("Normalize of a plain URI of MaxRewrite bytes: %.40q…, %v", n, err)
	}
	// Check rewrites nothing, and is not capped: validate reports a long
	// loc's first problem, as before.
	if v, ok := errors.AsType[*sitemap.Violation](s.Check("ftp://www.example.com/" + strings.Repeat("a", MaxRewrite))); !ok || v.Rule != sitemap.RuleInvalidURL {
		t.Errorf("Check of a long ftp: URL: %v, want %s", v, sitemap.RuleInvalidURL)
	}
}
