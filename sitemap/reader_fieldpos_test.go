package sitemap_test

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

const fpNS = ns + ` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"`

// fpDoc has one <url> whose extension elements are each on a line of their
// own, so that every position is told apart by its line.
const fpDoc = `<urlset ` + fpNS + `>
<url>
  <loc>http://www.example.com/p</loc>
  <image:image>
    <image:loc>http://www.example.com/1.jpg</image:loc>
  </image:image>
  <image:image>
    <image:loc>http://www.example.com/2.jpg</image:loc>
  </image:image>
  <video:video>
    <video:thumbnail_loc>http://www.example.com/t.jpg</video:thumbnail_loc>
    <video:title>T</video:title>
    <video:description>D</video:description>
    <video:player_loc autoplay="ap=1">http://www.example.com/player</video:player_loc>
    <video:duration>0</video:duration>
    <video:tag>a</video:tag>
    <video:tag>b</video:tag>
    <video:restriction relationship="allow">IE</video:restriction>
    <video:uploader info="http://www.example.com/u">U</video:uploader>
  </video:video>
  <video:video>
    <video:title>second</video:title>
    <video:rating>9</video:rating>
  </video:video>
  <news:news>
    <news:publication>
      <news:language>en</news:language>
    </news:publication>
    <news:publication_date>2024-01-01</news:publication_date>
    <news:title>N</news:title>
  </news:news>
  <xhtml:link rel="alternate" hreflang="en" href="http://www.example.com/p"/>
  <xhtml:link rel="amphtml" href="http://www.example.com/amp"/>
  <xhtml:link rel="alternate" hreflang="de" href="http://www.example.com/de"/>
</url>
</urlset>`

// fpWant is where FieldPos places each field of fpDoc's entry ("field
// index" → "line:col"): the element itself, or the element that should
// hold a missing one, or the <url> (2:1) when there is neither.
var fpWant = map[string]string{
	"loc 0":                            "3:3",
	"image:image 0":                    "4:3",
	"image:loc 0":                      "5:5",
	"image:image 1":                    "7:3",
	"image:loc 1":                      "8:5",
	"image:caption 1":                  "7:3", // missing: its <image:image>
	"image:image 2":                    "2:1", // no third image
	"video:video 0":                    "10:3",
	"video:thumbnail_loc 0":            "11:5",
	"video:description 0":              "13:5",
	"video:player_loc 0":               "14:5",
	"video:player_loc@autoplay 0":      "14:5",
	"video:duration 0":                 "15:5",
	"video:tag 0":                      "16:5", // the first tag
	"video:restriction@relationship 0": "18:5",
	"video:uploader@info 0":            "19:5",
	"video:content_loc 0":              "10:3",
	"video:video 1":                    "21:3",
	"video:title 1":                    "22:5",
	"video:rating 1":                   "23:5",
	"video:thumbnail_loc 1":            "21:3",
	"news:news 0":                      "25:3",
	"news:publication 0":               "26:5",
	"news:language 0":                  "27:7",
	"news:name 0":                      "26:5", // missing: its <news:publication>
	"news:publication_date 0":          "29:5",
	"news:title 0":                     "30:5",
	"news:keywords 0":                  "25:3",
	"xhtml:link 0":                     "32:3",
	"xhtml:link 1":                     "34:3", // the amphtml link is not an alternate
	"xhtml:link@hreflang 1":            "34:3",
	"xhtml:link 2":                     "2:1",
	"nonsense 0":                       "2:1",
}

// fpRead reads the single entry of doc and returns the Reader, positioned
// on it, and the entry.
func fpRead(t *testing.T, src io.Reader) (*sitemap.Reader, *sitemap.URL, []sitemap.Notice) {
	t.Helper()
	var notices []sitemap.Notice
	r := sitemap.NewReader(src)
	r.OnNotice = func(n sitemap.Notice) { notices = append(notices, n) }
	u, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	return r, u, notices
}

func posString(p sitemap.Position) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

func TestReaderFieldPosExtensions(t *testing.T) {
	for name, src := range map[string]func() io.Reader{
		"whole":    func() io.Reader { return strings.NewReader(fpDoc) },
		"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(fpDoc)) },
	} {
		t.Run(name, func(t *testing.T) {
			r, _, _ := fpRead(t, src())
			for key, want := range fpWant {
				var field string
				var index int
				if _, err := fmt.Sscanf(key, "%s %d", &field, &index); err != nil {
					t.Fatal(err)
				}
				p := r.FieldPos(field, index)
				if got := posString(p); got != want {
					t.Errorf("FieldPos(%q, %d) = %s, want %s", field, index, got, want)
				}
				if int(p.Offset) != lineOffset(fpDoc, p.Line)+p.Col-1 || fpDoc[p.Offset] != '<' {
					t.Errorf("FieldPos(%q, %d): offset %d is not the tag at %d:%d", field, index, p.Offset, p.Line, p.Col)
				}
			}
			if _, err := r.Read(); err != io.EOF {
				t.Fatalf("second Read: %v, want io.EOF", err)
			}
			if p := r.FieldPos("image:loc", 0); p != (sitemap.Position{}) {
				t.Errorf("FieldPos after io.EOF = %+v, want the zero Position", p)
			}
		})
	}
}

func lineOffset(doc string, line int) int {
	off := 0
	for ; line > 1; line-- {
		off += strings.IndexByte(doc[off:], '\n') + 1
	}
	return off
}

// TestViolationIndexPlacesProblems checks that URL.Check's violations,
// placed with FieldPos(v.Field, v.Index), land on the element at fault:
// the second image, the second video, not the first.
func TestViolationIndexPlacesProblems(t *testing.T) {
	r, u, _ := fpRead(t, strings.NewReader(fpDoc))
	var got []string
	u.Check(func(v *sitemap.Violation) {
		got = append(got, fmt.Sprintf("%s %s[%d] %s", posString(r.FieldPos(v.Field, v.Index)), v.Field, v.Index, v.Rule))
	})
	want := []string{
		"15:5 video:duration[0] invalid-video",
		"21:3 video:thumbnail_loc[1] invalid-video",
		"21:3 video:description[1] invalid-video",
		"21:3 video:content_loc[1] invalid-video",
		"23:5 video:rating[1] invalid-video",
		"26:5 news:name[0] invalid-news",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n got %q\nwant %q", got, want)
	}

	// A bad alternate is the one reported, not the first.
	doc := `<urlset ` + fpNS + `>
<url><loc>http://www.example.com/p</loc>
<xhtml:link rel="alternate" hreflang="en" href="http://www.example.com/p"/>
<xhtml:link rel="alternate" hreflang="US" href="http://www.example.com/us"/>
</url></urlset>`
	r, u, _ = fpRead(t, strings.NewReader(doc))
	got = got[:0]
	u.Check(func(v *sitemap.Violation) {
		got = append(got, fmt.Sprintf("%s %s[%d]", posString(r.FieldPos(v.Field, v.Index)), v.Field, v.Index))
	})
	if want := []string{"4:1 xhtml:link@hreflang[1]"}; !slices.Equal(got, want) {
		t.Errorf("alternate violations: got %q, want %q", got, want)
	}
}

// TestNoticeTooManyImages: the Reader keeps the first 1,000 images and
// places its notice, with the real count, at the first image too many.
func TestNoticeTooManyImages(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<urlset ` + fpNS + `><url><loc>http://www.example.com/p</loc>`)
	for i := range sitemap.MaxImages + 2 {
		fmt.Fprintf(&b, "\n<image:image><image:loc>http://www.example.com/%d.jpg</image:loc></image:image>", i)
	}
	b.WriteString("</url></urlset>")
	_, u, notices := fpRead(t, strings.NewReader(b.String()))
	var got []string
	for _, n := range notices {
		got = append(got, fmt.Sprintf("%s %s %s", posString(n.Pos), n.Rule, n.Msg))
	}
	// Image i is on line i+2.
	want := []string{fmt.Sprintf("%d:1 too-many-images 1002 images; a <url> may carry at most 1,000: the first 1000 are read", sitemap.MaxImages+2)}
	if !slices.Equal(got, want) || len(u.Images) != sitemap.MaxImages {
		t.Errorf("got %q and %d images, want %q and %d", got, len(u.Images), want, sitemap.MaxImages)
	}
}

// TestReaderFieldPosAcrossBuffers reads enough entries that the Reader's
// buffer is refilled many times between them: each entry's extension
// positions are still exact.
func TestReaderFieldPosAcrossBuffers(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString(`<urlset ` + fpNS + `>` + "\n")
	for i := range n {
		// Entry i takes lines 2+3i to 4+3i.
		fmt.Fprintf(&b, "<url><loc>http://www.example.com/%d</loc>\n  <image:image><image:loc>http://www.example.com/%d.jpg</image:loc></image:image>\n  <xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"http://www.example.com/%d\"/></url>\n", i, i, i)
	}
	b.WriteString("</urlset>\n")
	r := sitemap.NewReader(strings.NewReader(b.String()))
	r.ReuseURL = true
	for i := 0; ; i++ {
		_, err := r.Read()
		if err == io.EOF {
			if i != n {
				t.Fatalf("read %d entries, want %d", i, n)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		line := 2 + 3*i
		for _, c := range []struct {
			field string
			want  string
		}{
			{"loc", fmt.Sprintf("%d:6", line)},
			{"image:image", fmt.Sprintf("%d:3", line+1)},
			{"image:loc", fmt.Sprintf("%d:16", line+1)},
			{"xhtml:link", fmt.Sprintf("%d:3", line+2)},
		} {
			if got := posString(r.FieldPos(c.field, 0)); got != c.want {
				t.Fatalf("entry %d: FieldPos(%q, 0) = %s, want %s", i, c.field, got, c.want)
			}
		}
	}
}

// TestFieldPosAllocates nothing: the checker asks for a position for every
// problem it reports.
func TestFieldPosAllocates(t *testing.T) {
	r, _, _ := fpRead(t, strings.NewReader(fpDoc))
	allocs := testing.AllocsPerRun(100, func() {
		r.FieldPos("video:restriction@relationship", 0)
		r.FieldPos("news:name", 0)
		r.FieldPos("xhtml:link", 1)
	})
	if allocs != 0 {
		t.Errorf("FieldPos allocates %v times per run", allocs)
	}
}

// TestReaderDeprecatedTags: each tag and attribute Google deprecated in 2022
// is a notice at its place, named with the extension's usual prefix
// whatever prefix the file binds; tags that are merely unused are not.
func TestReaderDeprecatedTags(t *testing.T) {
	doc := `<urlset ` + ns + ` xmlns:v="http://www.google.com/schemas/sitemap-video/1.1">
<url><loc>http://www.example.com/p</loc><v:video>
<v:thumbnail_loc>http://www.example.com/t.jpg</v:thumbnail_loc><v:title>T</v:title><v:description>D</v:description>
<v:player_loc allow_embed="yes">http://www.example.com/player</v:player_loc>
<v:content_segment_loc>http://www.example.com/seg</v:content_segment_loc>
<v:tvshow><v:show_title>S</v:show_title></v:tvshow>
<v:id type="url">http://www.example.com/id</v:id>
</v:video></url></urlset>`
	_, u, notices := fpRead(t, strings.NewReader(doc))
	var got []string
	for _, n := range notices {
		got = append(got, fmt.Sprintf("%s %s %s", posString(n.Pos), n.Rule, n.Msg))
	}
	want := []string{
		"4:1 deprecated-tag the allow_embed attribute of <video:player_loc> is deprecated by Google and has no effect since 2022-08-06; remove it",
		"6:1 deprecated-tag <video:tvshow> is deprecated by Google and has no effect since 2022-08-06; remove it",
	}
	if !slices.Equal(got, want) {
		t.Errorf("notices:\n got %q\nwant %q", got, want)
	}
	if len(u.Videos) != 1 || u.Videos[0].PlayerLoc != "http://www.example.com/player" {
		t.Errorf("the video was not read as before: %+v", u.Videos)
	}
}

// TestReaderFieldPosAfterDroppedEntry: an entry without <loc> is dropped
// (and noticed); the extension positions it recorded must not leak into
// the next entry's.
func TestReaderFieldPosAfterDroppedEntry(t *testing.T) {
	doc := `<urlset ` + fpNS + `>
<url><video:video><video:live>no</video:live></video:video>
<xhtml:link rel="alternate" hreflang="en" href="http://www.example.com/a"/>
<xhtml:link rel="alternate" hreflang="de" href="http://www.example.com/b"/></url>
<url><loc>http://www.example.com/p</loc>
<xhtml:link rel="alternate" hreflang="en" href="http://www.example.com/p"/></url>
</urlset>`
	r, u, notices := fpRead(t, strings.NewReader(doc))
	if u.Loc != "http://www.example.com/p" || len(notices) != 1 || notices[0].Rule != sitemap.RuleMissingTag {
		t.Fatalf("read %+v with notices %+v; want the second entry, after a missing-tag notice", u, notices)
	}
	for _, c := range []struct {
		field string
		index int
		want  string
	}{
		{"xhtml:link", 0, "6:1"},
		{"xhtml:link", 1, "5:1"}, // none: the entry's own position
		{"video:live", 0, "5:1"},
	} {
		if got := posString(r.FieldPos(c.field, c.index)); got != c.want {
			t.Errorf("FieldPos(%q, %d) = %s, want %s", c.field, c.index, got, c.want)
		}
	}
}
