package source

import (
	"fmt"
	"path"
	"strings"
)

// A glob is a pattern over slash-separated paths relative to a folder:
// path.Match syntax within each segment, plus "**" as a whole segment for
// zero or more segments ("**/*.pdf" matches "a.pdf" and "docs/x/a.pdf";
// "drafts/**" matches "drafts" and everything under it).
type glob []string

// compileGlobs checks every pattern once, so that a typo is an error at
// open rather than a pattern that silently matches nothing.
func compileGlobs(field string, patterns []string) ([]glob, error) {
	var out []glob
	for _, p := range patterns {
		p = strings.TrimPrefix(strings.ReplaceAll(p, `\`, "/"), "./")
		if p == "" || strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("%s glob %q: want a path relative to the folder", field, p)
		}
		g := glob(strings.Split(p, "/"))
		for _, seg := range g {
			if _, err := path.Match(seg, ""); err != nil {
				return nil, fmt.Errorf("%s glob %q: %w", field, p, err)
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// matchAny reports whether rel (slash-separated) matches one of gs. The
// matching is the Filter's (see matchGlob); only how a glob is written
// differs: relative to the folder, anchored at its top.
func matchAny(gs []glob, rel string) bool {
	if len(gs) == 0 {
		return false
	}
	p := "/" + rel
	for _, g := range gs {
		if matchGlob(g, p) {
			return true
		}
	}
	return false
}
