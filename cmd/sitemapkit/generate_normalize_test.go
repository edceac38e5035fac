package main

import (
	"slices"
	"strings"
	"testing"
)

// TestGenerateExcludeMatchesNormalizedPath: --exclude used to match the
// URL as written, so /blog/../admin/secret went past '/admin/**' and was
// published as /admin/secret. URLs are normalised once, before the
// filters; one that cannot be is still refused at its line, with its rule.
func TestGenerateExcludeMatchesNormalizedPath(t *testing.T) {
	in := t.TempDir()
	txt := genWrite(t, in, "urls.txt", strings.Join([]string{
		genBase + "blog/../admin/secret",
		genBase + "blog/%2e%2e/admin/other",
		genBase + "blog/./post",
		"https://WWW.EXAMPLE.COM:443/blog/a",
		genBase + "admin/../about",
		"https://[::1/admin/x",
		"https://www.example.com:99999/admin/y",
	}, "\n")+"\n")
	out := t.TempDir()
	r := genRun(t, "", "generate", "--base", genBase, "--out", out, "--exclude", "/admin/**", txt)
	r.want(t, exitInputErrors)
	got := genLocs(genPublished(t, out, "sitemap.xml"))
	if want := []string{genBase + "blog/post", genBase + "blog/a", genBase + "about"}; !slices.Equal(got, want) {
		t.Errorf("published %q, want %q", got, want)
	}
	for _, want := range []string{
		"2 URLs left out by the include/exclude filters",
		"invalid-url: 2", txt + ":6: loc:", txt + ":7: loc:",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestGenerateOneSpellingOfEscapes: %7E and ~, %2f and %2F, %41 and A are
// one URL each (RFC 3986 §6.2.2), published once in one spelling.
func TestGenerateOneSpellingOfEscapes(t *testing.T) {
	txt := genWrite(t, t.TempDir(), "urls.txt", strings.Join([]string{
		genBase + "%7Euser", genBase + "~user",
		genBase + "a%2fb", genBase + "a%2Fb",
		genBase + "%41", genBase + "A",
	}, "\n")+"\n")
	out := t.TempDir()
	genRun(t, "", "generate", "--base", genBase, "--out", out, txt).want(t, exitOK)
	got := genLocs(genPublished(t, out, "sitemap.xml"))
	if want := []string{genBase + "~user", genBase + "a%2Fb", genBase + "A"}; !slices.Equal(got, want) {
		t.Errorf("published %q, want %q", got, want)
	}
}
