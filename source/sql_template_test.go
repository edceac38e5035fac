package source

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestLocTemplate(t *testing.T) {
	cols := []string{"slug", "Path", "id"}
	vals := []string{"ü x/1", "a/b c/ü?q=1&r=%41%zz#f", "42"}
	cases := []struct {
		tmpl, want string
	}{
		{"https://www.example.com/p/{slug}", "https://www.example.com/p/%C3%BC%20x%2F1"},
		{"https://www.example.com/{+path}", "https://www.example.com/a/b%20c/%C3%BC?q=1&r=%41%25zz#f"},
		{"https://www.example.com/{ id }/{SLUG}?x={id}", "https://www.example.com/42/%C3%BC%20x%2F1?x=42"},
		{"https://www.example.com/static", "https://www.example.com/static"},
		{"{id}", "42"},
	}
	for _, c := range cases {
		tm, err := parseLocTemplate(c.tmpl)
		if err != nil {
			t.Fatalf("%q: %v", c.tmpl, err)
		}
		if err := tm.bind(cols); err != nil {
			t.Fatalf("%q: %v", c.tmpl, err)
		}
		got := string(tm.appendExpand(nil, func(i int) string { return vals[i] }))
		if got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.tmpl, got, c.want)
		}
	}
}

func TestLocTemplateErrors(t *testing.T) {
	cases := []struct {
		tmpl, want string
	}{
		{"https://x/{slug", `"{" at byte 11 is not closed`},
		{"https://x/{a{b}", `"{" at byte 11 is not closed`},
		{"https://x/}", `"}" at byte 11 closes no "{"`},
		{"https://x/{}", "empty expression at byte 11"},
		{"https://x/{+}", "empty expression at byte 11"},
		{"https://x/{ }", "empty expression at byte 11"},
	}
	for _, c := range cases {
		_, err := parseLocTemplate(c.tmpl)
		if err == nil || !errors.Is(err, ErrTemplate) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.tmpl) {
			t.Errorf("%q: %v, want an ErrTemplate saying %q", c.tmpl, err, c.want)
		}
	}
	tm, err := parseLocTemplate("https://x/{slug}/{ID}")
	if err != nil {
		t.Fatal(err)
	}
	if err := tm.bind([]string{"slug", "name"}); err == nil || !strings.Contains(err.Error(), `no column "ID"`) {
		t.Errorf("bind: %v, want it to name ID", err)
	}
	if err := tm.bind([]string{"slug", "id", "Id"}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("bind: %v, want it to say id is there twice", err)
	}
}

// FuzzLocTemplate checks that parsing never panics, that a template
// expands to bytes a URL may hold, and that unescaping an expansion gives
// the value back ({col}: always; {+col}: when the value has no "%").
func FuzzLocTemplate(f *testing.F) {
	f.Add("https://www.example.com/p/{slug}", "ü x/1")
	f.Add("https://www.example.com/{+path}?q={slug}", "a/b c?d=%41&e=%zz")
	f.Add("{a}{+b}{ c }", "")
	f.Add("https://x/{", "\x00\xff")
	f.Add("}{", "x")
	f.Fuzz(func(t *testing.T, tmpl, value string) {
		tm, err := parseLocTemplate(tmpl)
		if err != nil {
			if !errors.Is(err, ErrTemplate) {
				t.Fatalf("%q: %v is not an ErrTemplate", tmpl, err)
			}
			return
		}
		var names []string
		for _, p := range tm.parts {
			if p.name == "" {
				if strings.ContainsAny(p.lit, "{}") {
					t.Fatalf("%q: literal %q holds a brace", tmpl, p.lit)
				}
				continue
			}
			names = append(names, p.name)
		}
		if len(names) == 0 {
			return
		}
		// One column, named as the first expression: every expression
		// with that name reads it.
		if err := tm.bind(names[:1]); err != nil {
			for _, n := range names {
				if !strings.EqualFold(n, names[0]) {
					return // an expression names another column
				}
			}
			t.Fatalf("%q: %v", tmpl, err)
		}
		for _, p := range tm.parts {
			if p.name == "" {
				continue
			}
			one := &locTemplate{parts: []tmplPart{p}}
			got := string(one.appendExpand(nil, func(int) string { return value }))
			for i := 0; i < len(got); i++ {
				if c := got[i]; c <= ' ' || c >= 0x7f || strings.IndexByte(`"<>\^`+"`{|}", c) >= 0 {
					t.Fatalf("{%s} of %q gives %q, with byte %q", p.name, value, got, c)
				}
			}
			if p.reserved && strings.Contains(value, "%") {
				continue
			}
			if back, err := url.PathUnescape(got); err != nil || back != value {
				t.Fatalf("{%s} of %q gives %q, which unescapes to %q (%v)", p.name, value, got, back, err)
			}
		}
	})
}
