package nearest

import "testing"

func TestWord(t *testing.T) {
	known := []string{"loc", "lastmod", "changefreq", "priority", "strip_params", "max_urls", "base", "paths"}
	for k, want := range map[string]string{
		"lastmode": "lastmod", "Base": "base", "max-urls": "max_urls", "pahts": "paths", "strip_param": "strip_params",
		"priorty": "priority", "stripparams": "strip_params", "url": "", "something": "", "": "",
	} {
		if got := Word(k, known); got != want {
			t.Errorf("Word(%q) = %q, want %q", k, got, want)
		}
	}
}
