package source

import (
	"net/http"
	"strings"
	"testing"
)

// FuzzHeaderLinks: any Link header value parses, never panics, and ends;
// each link's target is as written between its angle brackets, and a
// well-formed link put before the value is read first, whole.
func FuzzHeaderLinks(f *testing.F) {
	for _, s := range []string{
		`</b>; rel="canonical"`,
		`<https://www.example.com/de>; rel=alternate; hreflang=de, <https://www.example.com/fr>; rel="alternate"; hreflang="fr"`,
		`<a,b>; rel="canonical, alternate"; title="x\"y", </c>`,
		`<x>;;;=;rel`, `<`, `<>; rel=`, `, ,<y>; REL="Canonical"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		links := headerLinks(http.Header{"Link": {v}})
		for _, l := range links {
			if !strings.Contains(v, "<"+l.ref+">") {
				t.Fatalf("%q: target %q is not between angle brackets of it", v, l.ref)
			}
		}
		first := headerLinks(http.Header{"Link": {`</first>; rel="canonical"; hreflang="de", ` + v}})
		if len(first) == 0 || first[0] != (headerLink{ref: "/first", rel: "canonical", hreflang: "de"}) {
			t.Fatalf("%q: a well-formed link before it read as %+v", v, first)
		}
	})
}
