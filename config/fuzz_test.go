package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzParse checks that no input panics Parse or its position scanner,
// that every error is an *Error naming the file, that a config Parse
// accepts passes Validate, and that the scanner places every bare key the
// TOML decoder finds.
func FuzzParse(f *testing.F) {
	seeds, err := filepath.Glob("testdata/*.toml")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(Starter(""))
	f.Fuzz(func(t *testing.T, doc string) {
		c, err := Parse(strings.NewReader(doc), "f.toml")
		if err != nil {
			for _, e := range unjoin(err) {
				var ce *Error
				if !errors.As(e, &ce) || ce.File != "f.toml" || !strings.HasPrefix(e.Error(), "f.toml") {
					t.Fatalf("error %q is not a *Error naming the file", e)
				}
			}
		} else {
			if err := c.Validate(); err != nil {
				t.Fatalf("Parse accepted a config Validate refuses: %v", err)
			}
			c.BuildOptions()
		}

		var raw map[string]any
		if _, err := toml.Decode(doc, &raw); err != nil {
			keyPositions(doc) // must not panic on any input either
			return
		}
		pos := keyPositions(doc)
		walkKeys(raw, nil, func(path []string) {
			for _, p := range path {
				for i := 0; i < len(p); i++ {
					if !isBare(p[i]) && p[i] != '[' && p[i] != ']' {
						return // quoted keys with escapes are placed by their table
					}
				}
			}
			if _, ok := pos[pathKey(path)]; !ok {
				t.Fatalf("no position for key %q", path)
			}
		})
	})
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// walkKeys calls fn with the path of every key of a decoded document, as
// the decoder names it.
func walkKeys(v any, path []string, fn func([]string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := append(append([]string(nil), path...), k)
			fn(p)
			walkKeys(e, p, fn)
		}
	case []map[string]any:
		for i, e := range v {
			walkKeys(e, indexed(path, i), fn)
		}
	case []any:
		for i, e := range v {
			if m, ok := e.(map[string]any); ok {
				walkKeys(m, indexed(path, i), fn)
			}
		}
	}
}

func indexed(path []string, i int) []string {
	p := append([]string(nil), path...)
	p[len(p)-1] += "[" + strconv.Itoa(i) + "]"
	return p
}
