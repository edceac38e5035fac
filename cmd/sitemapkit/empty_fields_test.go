package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// emptyFieldsSet is a sitemap with the empty fields the schemas reject, one
// per line: an empty <lastmod/> and <lastmod>  </lastmod>, an image with an
// empty image:loc, one without image:loc, a video with an empty
// thumbnail_loc (beside a good one), an hreflang alternate with an empty
// hreflang.
var emptyFieldsSet = xmlURLSet(
	"<url><loc>"+vbase+"a</loc>\n<lastmod/></url>",
	"<url><loc>"+vbase+"b</loc>\n<lastmod>  </lastmod></url>",
	"<url><loc>"+vbase+"c</loc>\n<image:image><image:loc></image:loc></image:image>\n"+
		"<image:image><image:loc>"+vbase+"c.jpg</image:loc></image:image></url>",
	"<url><loc>"+vbase+"d</loc>\n<image:image><image:title>no loc</image:title></image:image></url>",
	"<url><loc>"+vbase+"e</loc>\n<video:video>\n<video:thumbnail_loc/>\n"+
		"<video:title>T</video:title><video:description>D</video:description><video:content_loc>"+vbase+"e.mp4</video:content_loc></video:video>\n"+
		"<video:video><video:thumbnail_loc>"+vbase+"t.jpg</video:thumbnail_loc>"+
		"<video:title>T2</video:title><video:description>D2</video:description><video:content_loc>"+vbase+"e2.mp4</video:content_loc></video:video></url>",
	"<url><loc>"+vbase+"f</loc>\n<xhtml:link rel=\"alternate\" hreflang=\"\" href=\""+vbase+"x\"/>\n"+
		"<xhtml:link rel=\"alternate\" hreflang=\"en\" href=\""+vbase+"f\"/></url>",
)

// TestReadGenerateKeepsPagesWithEmptyFields: read's JSONL of a sitemap with
// empty fields feeds generate without losing a page, and validate reports
// each empty field as an error at its line.
func TestReadGenerateKeepsPagesWithEmptyFields(t *testing.T) {
	in := t.TempDir()
	src := write(t, in, "sitemap.xml", emptyFieldsSet)

	code, out, errOut := sk(t, "validate", "--format", "json", src)
	if code != 1 {
		t.Fatalf("validate: exit %d, want 1\n%s%s", code, out, errOut)
	}
	var rep struct {
		Diagnostics []struct {
			Line     int
			Rule     string
			Severity string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.Diagnostics {
		if d.Severity == "error" {
			got = append(got, fmt.Sprintf("%d %s", d.Line, d.Rule))
		}
	}
	want := []string{"4 invalid-date", "6 invalid-date", "8 missing-tag", "11 missing-tag", "14 invalid-video", "18 invalid-hreflang"}
	if !slices.Equal(got, want) {
		t.Errorf("validate's errors:\n got %q\nwant %q\n%s", got, want, out)
	}

	code, jsonl, errOut := sk(t, "read", "--format", "jsonl", src)
	if code != 0 {
		t.Fatalf("read: exit %d: %s", code, errOut)
	}
	input := write(t, in, "entries.jsonl", jsonl)
	pub := filepath.Join(t.TempDir(), "public")
	if code, o, e := sk(t, "generate", "--base", vbase, "--out", pub, input); code != 0 {
		t.Fatalf("generate: exit %d\n%s%s", code, o, e)
	}
	urls := genPublished(t, pub, "sitemap.xml")
	if locs := genLocs(urls); !slices.Equal(locs, []string{vbase + "a", vbase + "b", vbase + "c", vbase + "d", vbase + "e", vbase + "f"}) {
		t.Fatalf("published %q, want every page", locs)
	}
	if c, e, f := urls[2], urls[4], urls[5]; len(c.Images) != 1 || c.Images[0].Loc != vbase+"c.jpg" ||
		len(e.Videos) != 1 || e.Videos[0].Title != "T2" || len(f.Alternates) != 1 || f.Alternates[0].Hreflang != "en" {
		t.Errorf("the good image, video and alternate were not kept: %+v %+v %+v", c.Images, e.Videos, f.Alternates)
	}
}
