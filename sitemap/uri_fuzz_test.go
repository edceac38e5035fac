package sitemap_test

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// FuzzParseURI holds the one URI parser to what its callers rely on: it
// never panics, it refuses only with a relative-url or invalid-url
// Violation, and what it accepts is cut into parts that put back together
// give the URI as written (so a filter's Path is the URI's own path).
// Seeds: testdata/uri/seeds.txt, the URLs of package loc's table.
func FuzzParseURI(f *testing.F) {
	seeds, err := os.ReadFile("testdata/uri/seeds.txt")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range strings.Split(string(seeds), "\n") {
		if !strings.HasPrefix(s, "#") {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := sitemap.ParseURI(s)
		if err != nil {
			var v *sitemap.Violation
			if !errors.As(err, &v) || (v.Rule != sitemap.RuleInvalidURL && v.Rule != sitemap.RuleRelativeURL) {
				t.Fatalf("ParseURI(%q) = %v; want a relative-url or invalid-url Violation", s, err)
			}
			return
		}
		if !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") {
			t.Fatalf("ParseURI(%q): scheme %q", s, u.Scheme)
		}
		if u.Host == "" {
			t.Fatalf("ParseURI(%q): empty host accepted", s)
		}
		if u.Port != "" {
			if n, err := strconv.Atoi(u.Port); err != nil || n > 65535 {
				t.Fatalf("ParseURI(%q): port %q", s, u.Port)
			}
		}
		if u.Path != "" && u.Path[0] != '/' || strings.ContainsAny(u.Path, "?#") || strings.Contains(u.Query, "#") {
			t.Fatalf("ParseURI(%q): path %q, query %q", s, u.Path, u.Query)
		}
		tail := u.Path
		if u.HasQuery {
			tail += "?" + u.Query
		}
		if u.HasFragment {
			tail += "#" + u.Fragment
		}
		head := u.Scheme + "://" + u.Host
		if u.Port != "" {
			head += ":" + u.Port
		}
		if s != head+tail && s != head+":"+tail {
			t.Fatalf("ParseURI(%q) = %+v: the parts make %q", s, u, head+tail)
		}
	})
}
