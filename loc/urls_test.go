package loc_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// urlTests give one expected result per URL for every caller of the one
// parser (sitemap.ParseURI): loc.Normalize and Scope.Apply (want, or rule
// when they refuse), loc.Check, Scope.Check and the Writer's checks
// (sitemap.URL.Check), which take the URL as written (rule when refused,
// invalid-url when it is not escaped, nothing when written says so), and a
// source.Filter, whose patterns match want's path and which returns a URL
// it cannot normalise as written, whatever its patterns say.
var urlTests = []struct {
	in      string
	want    string // Normalize's result; "" when it refuses in with rule
	rule    string
	written bool // the checkers accept in as it is written
}{
	// Scheme, host and port.
	{in: "https://www.example.com/", want: "https://www.example.com/", written: true},
	{in: "https://www.example.com", want: "https://www.example.com/", written: true},
	{in: "HTTPS://WWW.EXAMPLE.COM/A", want: "https://www.example.com/A", written: true},
	{in: "HTTP://www.example.com/", want: "http://www.example.com/", written: true},
	{in: "http://www.example.com:80/a", want: "http://www.example.com/a", written: true},
	{in: "https://www.example.com:443/a", want: "https://www.example.com/a", written: true},
	{in: "https://www.example.com:8443/a", want: "https://www.example.com:8443/a", written: true},
	{in: "https://www.example.com:08443/a", want: "https://www.example.com:8443/a", written: true},
	{in: "https://www.example.com:/a", want: "https://www.example.com/a", written: true},
	{in: "https://www.example.com:65535/", want: "https://www.example.com:65535/", written: true},
	{in: "https://www.example.com:65536/", rule: sitemap.RuleInvalidURL},
	{in: "https://www.example.com:99999/", rule: sitemap.RuleInvalidURL},
	{in: "https://www.example.com:8o/", rule: sitemap.RuleInvalidURL},
	{in: "https://www.example.com:-1/", rule: sitemap.RuleInvalidURL},
	{in: "https://www.example.com./", want: "https://www.example.com./", written: true},
	{in: "https://my_host.example.com/", want: "https://my_host.example.com/", written: true},
	{in: "https://192.168.0.1:8080/", want: "https://192.168.0.1:8080/", written: true},
	{in: "https://www.exa mple.com/", rule: sitemap.RuleInvalidURL},
	{in: "https://www..example.com/", rule: sitemap.RuleInvalidURL},
	{in: "https://.example.com/", rule: sitemap.RuleInvalidURL},
	{in: "https://ex%41mple.com/", rule: sitemap.RuleInvalidURL},
	// IPv6 literals.
	{in: "https://[2001:DB8::1]/a", want: "https://[2001:db8::1]/a", written: true},
	{in: "https://[::1]:8443/", want: "https://[::1]:8443/", written: true},
	{in: "https://[::1/", rule: sitemap.RuleInvalidURL},
	{in: "https://[::1]x/", rule: sitemap.RuleInvalidURL},
	{in: "https://[1.2.3.4]/", rule: sitemap.RuleInvalidURL},
	{in: "https://[fe80::1%25eth0]/", rule: sitemap.RuleInvalidURL},
	{in: "https://[zz]/", rule: sitemap.RuleInvalidURL},
	// IDN.
	{in: "https://bücher.example/a", want: "https://xn--bcher-kva.example/a"},
	{in: "https://xn--bcher-kva.example/a", want: "https://xn--bcher-kva.example/a", written: true},
	{in: "https://XN--BCHER-KVA.example/", want: "https://xn--bcher-kva.example/", written: true},
	{in: "https://ＥＸＡＭＰＬＥ．com/", want: "https://example.com/"},
	// User info, empty hosts, relative references, other schemes.
	{in: "https://user:pw@www.example.com/", rule: sitemap.RuleInvalidURL},
	{in: "https://@www.example.com/", rule: sitemap.RuleInvalidURL},
	{in: "https:///a", rule: sitemap.RuleRelativeURL},
	{in: "https://", rule: sitemap.RuleRelativeURL},
	{in: "https://:443/", rule: sitemap.RuleRelativeURL},
	{in: "https:/www.example.com/", rule: sitemap.RuleRelativeURL},
	{in: "//www.example.com/a", rule: sitemap.RuleRelativeURL},
	{in: "/a/b", rule: sitemap.RuleRelativeURL},
	{in: "a/b.html", rule: sitemap.RuleRelativeURL},
	{in: "www.example.com/a", rule: sitemap.RuleRelativeURL},
	{in: "javascript:alert(1)", rule: sitemap.RuleInvalidURL},
	{in: "mailto:a@example.com", rule: sitemap.RuleInvalidURL},
	{in: "ftp://www.example.com/a", rule: sitemap.RuleInvalidURL},
	// Queries and fragments.
	{in: "https://www.example.com/a#frag", want: "https://www.example.com/a#frag", written: true},
	{in: "https://www.example.com/a#", want: "https://www.example.com/a#", written: true},
	{in: "https://www.example.com/a?", want: "https://www.example.com/a?", written: true},
	{in: "https://www.example.com/a#b#c", want: "https://www.example.com/a#b%23c"},
	{in: "https://www.example.com/a?x=/../b", want: "https://www.example.com/a?x=/../b", written: true},
	{in: "https://www.example.com/?q=a b", want: "https://www.example.com/?q=a%20b"},
	{in: "https://www.example.com/a;b=c,d?e=f&g", want: "https://www.example.com/a;b=c,d?e=f&g", written: true},
	// Dot segments.
	{in: "https://www.example.com/a/./b/../c", want: "https://www.example.com/a/c", written: true},
	{in: "https://www.example.com/blog/../admin/secret", want: "https://www.example.com/admin/secret", written: true},
	{in: "https://www.example.com/a/%2e%2E/b", want: "https://www.example.com/b", written: true},
	{in: "https://www.example.com/../../a", want: "https://www.example.com/a", written: true},
	{in: "https://www.example.com/a/..?x", want: "https://www.example.com/?x", written: true},
	{in: "https://www.example.com/a/b/..", want: "https://www.example.com/a/", written: true},
	{in: "https://www.example.com/.well-known/a..b", want: "https://www.example.com/.well-known/a..b", written: true},
	// Percent-encoding and characters to escape.
	// Escapes take one spelling (RFC 3986 §6.2.2), so that one URL has one
	// form: hex upper-cased, unreserved characters decoded, reserved kept.
	{in: "https://www.example.com/%c3%bc", want: "https://www.example.com/%C3%BC", written: true},
	{in: "https://www.example.com/%41", want: "https://www.example.com/A", written: true},
	{in: "https://www.example.com/%7Euser", want: "https://www.example.com/~user", written: true},
	{in: "https://www.example.com/a%2fb?c=%2f&d=%2D", want: "https://www.example.com/a%2Fb?c=%2F&d=-", written: true},
	{in: "https://www.example.com/a%2Fb?x=%3d#%7e", want: "https://www.example.com/a%2Fb?x=%3D#~", written: true},
	{in: "https://www.example.com/100%", want: "https://www.example.com/100%25"},
	{in: "https://www.example.com/%zz", want: "https://www.example.com/%25zz"},
	{in: "https://www.example.com/a b", want: "https://www.example.com/a%20b"},
	{in: " https://www.example.com/a ", want: "https://www.example.com/a"},
	{in: "https://www.example.com/ümlaut", want: "https://www.example.com/%C3%BCmlaut"},
	{in: "https://www.example.com/é?é#é", want: "https://www.example.com/%C3%A9?%C3%A9#%C3%A9"},
	{in: "https://www.example.com/a|b", want: "https://www.example.com/a%7Cb"},
	{in: "https://www.example.com/a[1]", want: "https://www.example.com/a%5B1%5D"},
	{in: "https://www.example.com/a\tb", want: "https://www.example.com/a%09b"},
	{in: "https://www.example.com/a<b>\"c\"", want: "https://www.example.com/a%3Cb%3E%22c%22"},
}

// ruleOf returns the rule of a *sitemap.Violation, "" for nil, or fails.
func ruleOf(t *testing.T, what string, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var v *sitemap.Violation
	if !errors.As(err, &v) {
		t.Errorf("%s: %v is not a *sitemap.Violation", what, err)
		return "?"
	}
	return v.Rule
}

// writerRule returns the rule URL.Check reports for a loc, "" for none.
func writerRule(loc string) string {
	var rules []string
	u := sitemap.URL{Loc: loc}
	u.Check(func(v *sitemap.Violation) { rules = append(rules, v.Rule) })
	return strings.Join(rules, ",")
}

// filtered returns what a Filter with o returns for a source of one URL.
func filtered(t *testing.T, in string, o source.FilterOptions) (string, bool) {
	t.Helper()
	line := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`).Replace(in)
	f, err := source.NewFilter(source.New(strings.NewReader(`{"loc":"`+line+`"}`+"\n"), "t.jsonl", source.FormatJSONL), o)
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.Read()
	if err != nil {
		return "", false
	}
	return u.Loc, true
}

func TestOneParserForEveryCaller(t *testing.T) {
	if len(urlTests) < 50 {
		t.Fatalf("%d URLs; the table promises at least 50", len(urlTests))
	}
	var zero loc.Scope
	for _, tt := range urlTests {
		checked := tt.rule // what the checkers say of tt.in as written
		if tt.rule == "" && !tt.written {
			checked = sitemap.RuleInvalidURL
		}

		got, err := loc.Normalize(tt.in)
		if got != tt.want || ruleOf(t, "Normalize", err) != tt.rule {
			t.Errorf("Normalize(%q) = %q, %v; want %q [%s]", tt.in, got, err, tt.want, tt.rule)
		}
		got, err = zero.Apply(tt.in)
		if got != tt.want || ruleOf(t, "Apply", err) != tt.rule {
			t.Errorf("Scope.Apply(%q) = %q, %v; want %q [%s]", tt.in, got, err, tt.want, tt.rule)
		}
		if r := ruleOf(t, "Check", loc.Check(tt.in)); r != checked {
			t.Errorf("Check(%q) = [%s]; want [%s]", tt.in, r, checked)
		}
		if r := ruleOf(t, "Scope.Check", zero.Check(tt.in)); r != checked {
			t.Errorf("Scope.Check(%q) = [%s]; want [%s]", tt.in, r, checked)
		}
		if r := writerRule(tt.in); r != checked {
			t.Errorf("URL.Check(loc %q) = [%s]; want [%s]", tt.in, r, checked)
		}

		if tt.want == "" {
			// Not normalised: returned as written, for the Builder to
			// refuse, even by a Filter that excludes every path.
			if got, ok := filtered(t, tt.in, source.FilterOptions{Exclude: []string{"/**"}}); !ok || got != tt.in {
				t.Errorf("Filter(%q) = %q, %v; want it as written", tt.in, got, ok)
			}
			continue
		}
		// What Normalize gives is final for every caller.
		if n, err := loc.Normalize(tt.want); n != tt.want || err != nil {
			t.Errorf("Normalize(%q) = %q, %v; want it unchanged", tt.want, n, err)
		}
		if err := loc.Check(tt.want); err != nil {
			t.Errorf("Check(%q) = %v; want nil", tt.want, err)
		}
		if r := writerRule(tt.want); r != "" {
			t.Errorf("URL.Check(loc %q) = [%s]; want none", tt.want, r)
		}
		u, err := sitemap.ParseURI(tt.want)
		if err != nil {
			t.Errorf("ParseURI(%q) = %v", tt.want, err)
			continue
		}
		path := "re:^" + regexp.QuoteMeta(u.Path) + "$"
		if got, ok := filtered(t, tt.in, source.FilterOptions{Include: []string{path}}); !ok || got != tt.want {
			t.Errorf("Filter(%q, include %s) = %q, %v; want %q", tt.in, path, got, ok, tt.want)
		}
		if got, ok := filtered(t, tt.in, source.FilterOptions{Exclude: []string{path}}); ok {
			t.Errorf("Filter(%q, exclude %s) kept %q", tt.in, path, got)
		}
	}
}
