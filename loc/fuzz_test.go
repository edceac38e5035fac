package loc

import (
	"errors"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// FuzzNormalize checks the invariants of Normalize and Scope.Apply on any
// input: no panic; a *sitemap.Violation or an ASCII URI that Normalize
// keeps as it is and that Check accepts as escaped; Apply's fast path
// agrees with its slow path; StripSessionIDs agrees with its long way and
// leaves no session ID.
func FuzzNormalize(f *testing.F) {
	for _, tt := range normalizeTests {
		f.Add(tt.raw)
	}
	for _, tt := range applyTests {
		f.Add(tt.raw)
	}
	for _, tt := range checkTests {
		f.Add(tt.uri)
	}
	scopes := []*Scope{}
	for _, u := range []string{"https://www.example.com/catalog/sitemap.xml", "http://example.com/", "https://[::1]:8443/a/"} {
		s, err := NewScope(u)
		if err != nil {
			f.Fatal(err)
		}
		scopes = append(scopes, s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if Canonical(raw) {
			// Sources skip Normalize and StripSessionIDs on its word.
			if n, err := Normalize(raw); err != nil || n != raw {
				t.Fatalf("Canonical(%q), but Normalize gives %q, %v", raw, n, err)
			}
			if s := stripSessionIDs(raw, nil, false); s != raw {
				t.Fatalf("Canonical(%q), but StripSessionIDs gives %q", raw, s)
			}
		}
		if normal(raw) {
			// Normalize's fast path returns raw: the slow path must agree.
			if n, _, err := normalize(raw); err != nil || n != raw {
				t.Fatalf("Normalize's fast path takes %q, its slow path gives %q, %v", raw, n, err)
			}
		}
		n, err := Normalize(raw)
		if err != nil {
			var v *sitemap.Violation
			if !errors.As(err, &v) || v.Value != raw || v.Field != "loc" {
				t.Fatalf("Normalize(%q) error %#v, want a *sitemap.Violation for it", raw, err)
			}
		} else {
			if len(n) > MaxRewrite {
				t.Fatalf("Normalize(%.60q…) returned %d bytes, past MaxRewrite", raw, len(n))
			}
			for i := 0; i < len(n); i++ {
				if n[i] < 0x21 || n[i] >= 0x7f {
					t.Fatalf("Normalize(%q) = %q: byte %#x at %d", raw, n, n[i], i)
				}
			}
			if n2, err := Normalize(n); err != nil || n2 != n {
				t.Fatalf("Normalize(%q) = %q, but Normalize(%q) = %q, %v", raw, n, n, n2, err)
			}
			if err := Check(n); err != nil && !isRule(err, sitemap.RuleURLTooLong, sitemap.RuleSessionID) {
				t.Fatalf("Normalize(%q) = %q, which Check refuses: %v", raw, n, err)
			}
		}
		var none *Scope
		if got, want := none.Rule(raw), ruleName(Check(raw)); got != want {
			t.Fatalf("Rule(%q) without a scope = %q, Check says %q", raw, got, want)
		}
		for _, s := range scopes {
			got, err := s.Apply(raw)
			if s.fast(raw) {
				// The fast path returned raw: the slow path must agree.
				n, _, nerr := normalize(raw)
				if nerr != nil || n != raw || s.check(raw, n, len(n)) != nil {
					t.Fatalf("fast path takes %q, slow path gives %q, %v, %v", raw, n, nerr, s.check(raw, n, len(n)))
				}
				if got != raw || err != nil || s.Check(raw) != nil {
					t.Fatalf("Apply(%q) = %q, %v on the fast path", raw, got, err)
				}
			}
			if got, want := s.Rule(raw), ruleName(s.Check(raw)); got != want {
				t.Fatalf("Rule(%q) = %q, Check says %q", raw, got, want)
			}
			if s.fastOutside(raw) {
				// The quick outside-directory answer: Check's slow path
				// must give the same.
				want := s.checkWritten(raw)
				if !isRule(want, sitemap.RuleOutsideDirectory) || !isRule(s.Check(raw), sitemap.RuleOutsideDirectory) {
					t.Fatalf("fastOutside takes %q, the slow path gives %v", raw, want)
				}
			}
			if err == nil && !s.fast(got) && len(got) < 2000 {
				// What Apply returns is normalised and in scope: the next
				// time round it takes the fast path, unless a segment
				// starts with "." (which fast leaves to the slow path).
				if !hasDotStart(got) {
					t.Fatalf("Apply(%q) = %q, which the fast path refuses", raw, got)
				}
			}
		}
		if s := StripSessionIDs(raw, nil); s != stripSessionIDs(raw, nil, false) {
			t.Fatalf("StripSessionIDs(%q) = %q; the long way gives %q", raw, s, stripSessionIDs(raw, nil, false))
		}
		if s := StripSessionIDs(raw, nil); sessionID(s) != "" {
			t.Fatalf("StripSessionIDs(%q) = %q, still with a session ID", raw, s)
		}
	})
}

// ruleName is the rule of a *sitemap.Violation, "" for nil.
func ruleName(err error) string {
	var v *sitemap.Violation
	if errors.As(err, &v) {
		return v.Rule
	}
	return ""
}

func isRule(err error, rules ...string) bool {
	var v *sitemap.Violation
	if errors.As(err, &v) {
		for _, r := range rules {
			if v.Rule == r {
				return true
			}
		}
	}
	return false
}

func hasDotStart(u string) bool {
	for i := 0; i+1 < len(u); i++ {
		if u[i] == '/' && dotStart(u, i+1) {
			return true
		}
	}
	return false
}

// FuzzLatin1 checks Latin1 on any input: no panic; a *sitemap.Violation, or
// a URL with no non-ASCII byte after its host whose Latin-1 escapes
// Normalize keeps (its result, normalised again, is itself).
func FuzzLatin1(f *testing.F) {
	for _, s := range []string{"http://www.example.com/ümlat.php&q=name", "https://bücher.example/café?q=é#à", "https://x/€", "https://x/\xff", "/relative/é", "https://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := Latin1(raw)
		if err != nil {
			var v *sitemap.Violation
			if !errors.As(err, &v) {
				t.Fatalf("Latin1(%q): %v, not a Violation", raw, err)
			}
			return
		}
		n, err := Normalize(got)
		if err != nil {
			return
		}
		if again, err := Latin1(n); err != nil || again != n {
			t.Fatalf("Latin1(Normalize(Latin1(%q))) = %q, %v; want %q unchanged", raw, again, err, n)
		}
	})
}
