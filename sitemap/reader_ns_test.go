package sitemap

import (
	"fmt"
	"strings"
	"testing"
)

// TestReaderNamespacePerElement: a prefix bound on one <url> binds it
// there only. The scanner takes an element's namespace from the element
// that had its place before when the name and declarations are the same:
// each <i:image> here has the place of one whose declarations differ, and
// must be resolved anew.
func TestReaderNamespacePerElement(t *testing.T) {
	const (
		img = "http://www.google.com/schemas/sitemap-image/1.1"
		vid = "http://www.google.com/schemas/sitemap-video/1.1"
	)
	// The image is the last child of one <url> and the first of the next
	// (out of order, noticed): the next's <i:image> takes the place of
	// the one before, with nothing between.
	entry := func(n int, decl string) string {
		loc := fmt.Sprintf(`<loc>https://www.example.com/%d</loc>`, n)
		image := fmt.Sprintf(`<i:image><i:loc>https://www.example.com/%d.png</i:loc></i:image>`, n)
		if n%2 == 0 {
			return `<url` + decl + `>` + image + loc + `</url>`
		}
		return `<url` + decl + `>` + loc + image + `</url>`
	}
	doc := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n" +
		entry(1, ` xmlns:i="`+img+`"`) + "\n" + // an image
		entry(2, ` xmlns:i="`+vid+`"`) + "\n" + // <video:image>: not an image
		entry(3, ` xmlns:i="`+img+`"`) + "\n" + // an image again
		entry(4, ``) + "\n" + // i undeclared: not the image namespace
		entry(5, ` xmlns:i="`+img+`"`) + "\n" +
		`<x:url xmlns:x="http://www.example.com/other"><loc>https://www.example.com/6</loc></x:url>` + "\n" + // not a <url> of the protocol
		entry(7, ``) + "\n" +
		"</urlset>\n"
	var notices []string
	r := NewReader(strings.NewReader(doc))
	r.OnNotice = func(n Notice) { notices = append(notices, n.Msg) }
	var got []string
	for u, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s:%d", strings.TrimPrefix(u.Loc, "https://www.example.com/"), len(u.Images)))
	}
	if want := "[1:1 2:0 3:1 4:0 5:1 7:0]"; fmt.Sprint(got) != want {
		t.Errorf("entries (loc:images) %v, want %s; notices %q", got, want, notices)
	}
	if !strings.Contains(strings.Join(notices, "\n"), `prefix "i" is not declared`) {
		t.Errorf("no notice of the undeclared prefix: %q", notices)
	}
}
