package submit

import (
	"bytes"
	"net/url"
	"testing"
)

// FuzzRobots: any robots.txt is edited without a panic; the result lists
// the set's sitemaps, a second edit changes nothing, and no byte of a line
// that is not a Sitemap: line is lost.
func FuzzRobots(f *testing.F) {
	for _, s := range []string{"", "User-agent: *\nDisallow: /\n", "Sitemap: https://www.example.com/sitemap-index-2.xml\r\n# c",
		"\xef\xbb\xbfsitemap:/sitemap.xml\rUser-agent: x", "Sitemap: ::\n\n\n"} {
		f.Add([]byte(s))
	}
	robotsURL, _ := url.Parse(site + "robots.txt")
	ours := SetSitemaps(site, "sitemap")
	want := []string{site + "sitemap.xml"}
	f.Fuzz(func(t *testing.T, old []byte) {
		got, _ := Robots(old, robotsURL, want, ours)
		again, changed := Robots(got, robotsURL, want, ours)
		if changed || !bytes.Equal(again, got) {
			t.Fatalf("a second edit changed\n%q\ninto\n%q", got, again)
		}
		if !bytes.Contains(got, []byte("Sitemap: "+want[0])) && !bytes.Contains(bytes.ToLower(got), []byte("sitemap")) {
			t.Fatalf("the set's sitemap is not listed:\n%q", got)
		}
		for _, line := range bytes.FieldsFunc(old, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if !bytes.Contains(bytes.ToLower(line), []byte("sitemap")) && !bytes.Contains(got, line) {
				t.Fatalf("line %q lost:\n%q", line, got)
			}
		}
	})
}
