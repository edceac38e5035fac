package publish

import (
	"errors"
	"reflect"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// TestOptionErrorsTyped checks that every refused option is an *OptionError
// naming its field and value, from Check and from New alike, all of them
// at once.
func TestOptionErrorsTyped(t *testing.T) {
	for _, c := range []struct {
		opts  Options
		field string
		value any
		msg   string
	}{
		{Options{Base: "https://www.example.com/"}, "Dir", "", "publish: Options.Dir is required"},
		{Options{Dir: "d"}, "Base", "", "publish: Options.Base is required"},
		{Options{Dir: "d", Base: "ftp://x/"}, "Base", "ftp://x/", `publish: Options.Base "ftp://x/" is not an http or https URL, e.g. "https://www.example.com/"`},
		{Options{Dir: "d", Base: "https://www.example.com/", PublicURL: "x"}, "PublicURL", "x", `publish: Options.PublicURL "x" is not an http or https URL, e.g. "https://www.example.com/"`},
		// A folder's URL has no query or fragment: the "/" added to it
		// went after them, and the folder was the one above.
		{Options{Dir: "d", Base: "https://www.example.com/shop?v=1"}, "Base", "https://www.example.com/shop?v=1",
			`publish: Options.Base "https://www.example.com/shop?v=1" has a query or a fragment: give the folder's URL alone, e.g. "https://www.example.com/shop/"`},
		{Options{Dir: "d", Base: "https://www.example.com/", PublicURL: "https://www.example.com/sitemaps#top"}, "PublicURL", "https://www.example.com/sitemaps#top",
			`publish: Options.PublicURL "https://www.example.com/sitemaps#top" has a query or a fragment: give the folder's URL alone, e.g. "https://www.example.com/sitemaps/"`},
		{Options{Dir: "d", Base: "https://www.example.com/", PublicURL: "https://www.example.com?"}, "PublicURL", "https://www.example.com?",
			`publish: Options.PublicURL "https://www.example.com?" has a query or a fragment: give the folder's URL alone, e.g. "https://www.example.com/"`},
		{Options{Dir: "d", Base: "https://www.example.com/", Name: "a.b"}, "Name", "a.b", `publish: Options.Name "a.b": use letters, digits, _ and - only`},
		{Options{Dir: "d", Base: "https://www.example.com/", Format: sitemap.FormatIndex}, "Format", sitemap.FormatIndex, ""},
		{Options{Dir: "d", Base: "https://www.example.com/", Index: 7}, "Index", IndexMode(7), "publish: Options.Index 7 is not an IndexMode"},
		{Options{Dir: "d", Base: "https://www.example.com/", MaxURLs: 50001}, "MaxURLs", 50001, "publish: Options.MaxURLs 50001 is out of range: 1 to 50000 (0 or absent: 50000)"},
		{Options{Dir: "d", Base: "https://www.example.com/", MaxBytes: -1}, "MaxBytes", int64(-1), "publish: Options.MaxBytes -1 is out of range: 1 to 52428800 (0 or absent: 52428800)"},
	} {
		err := c.opts.Check()
		oe, ok := errors.AsType[*OptionError](err)
		if !ok || oe.Field != c.field || !reflect.DeepEqual(oe.Value, c.value) || c.msg != "" && err.Error() != c.msg {
			t.Errorf("%+v: Check() = %v, want an *OptionError for %s %v: %s", c.opts, err, c.field, c.value, c.msg)
		}
		if _, err := New(c.opts); err == nil || err.Error() != c.opts.Check().Error() {
			t.Errorf("%+v: New() = %v, want Check's error", c.opts, err)
		}
	}
	if oe, _ := errors.AsType[*OptionError](Options{Base: "https://www.example.com/"}.Check()); !errors.Is(oe, ErrRequired) {
		t.Errorf("a missing Dir is not ErrRequired: %v", oe)
	}
	err := Options{MaxURLs: -1, Name: "/"}.Check()
	var fields []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		fields = append(fields, e.(*OptionError).Field)
	}
	if want := []string{"Base", "Dir", "Name", "MaxURLs"}; !reflect.DeepEqual(fields, want) {
		t.Errorf("Check reports %v, want every bad field: %v", fields, want)
	}
	if err := (Options{Dir: "d", Base: "https://www.example.com/x/", PublicURL: "https://cdn.example.com/s"}).Check(); err != nil {
		t.Errorf("good options refused: %v", err)
	}
}

// TestWithDefaults checks that the zero value of each field means its
// default, the one place the defaults are written.
func TestWithDefaults(t *testing.T) {
	got := Options{Base: "https://www.example.com", PublicURL: "https://www.example.com/s"}.WithDefaults()
	want := Options{Base: "https://www.example.com/", PublicURL: "https://www.example.com/s/", Name: "sitemap",
		Format: sitemap.FormatURLSet, Index: IndexAuto, MaxURLs: sitemap.MaxURLs, MaxBytes: sitemap.MaxBytes}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("WithDefaults = %+v, want %+v", got, want)
	}
}
