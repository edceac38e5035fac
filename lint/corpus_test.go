package lint

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/sharedtest"
)

// corpusFindings maps each corpus file whose upstream test asserts a
// validation finding (warnings_contain, errors_contain, error, xsd_valid,
// unknown_tag, …) to the rules that report the same problem here; or,
// with clean, says the file must have no error at all; or, with notOurs,
// why the finding is not a document check's. The reader's corpus test
// (sitemap/reader_corpus_test.go) leaves these expectations to lint,
// and the entries it says lint reports (an invalid <loc> upstream drops)
// are here too.
var corpusFindings = map[string]struct {
	rules   []string
	clean   bool
	notOurs string
}{
	"advertools/sitemap_testing/error_sitemap.xml":                         {rules: []string{"parse-error"}},
	"advertools/sitemap_testing/sitemap_index.xml":                         {notOurs: "an index listing itself is the walk's finding (discover: \"the index lists itself\"), not one document's"},
	"scrapy/inline/test_spider_sitemap/test_parse_sitemap_empty_body.xml":  {rules: []string{"unsupported-format"}},
	"scrapy/inline/test_spider_sitemap/test_parse_sitemap_not_sitemap.xml": {rules: []string{"unsupported-format"}},
	"scrapy/inline/test_utils_sitemap/test_xml_entity_expansion.xml":       {rules: []string{"doctype-not-allowed"}},
	"scrapy/inline/test_utils_sitemap/test_sitemap_non_string_tag.xml":     {rules: []string{"unsupported-format"}},

	"sitemap.js/inline/sitemap-index-security/filters-data-protocol-urls.xml":                                {rules: []string{"invalid-url"}},
	"sitemap.js/inline/sitemap-index-security/filters-empty-urls.xml":                                        {rules: []string{"missing-tag"}},
	"sitemap.js/inline/sitemap-index-security/filters-file-protocol-urls.xml":                                {rules: []string{"invalid-url"}},
	"sitemap.js/inline/sitemap-index-security/filters-ftp-protocol-urls.xml":                                 {rules: []string{"invalid-url"}},
	"sitemap.js/inline/sitemap-index-security/filters-invalid-date-format-in-parser-warn-mode.xml":           {rules: []string{"invalid-date"}},
	"sitemap.js/inline/sitemap-index-security/filters-invalid-urls-in-cdata-sections.xml":                    {rules: []string{"invalid-url"}},
	"sitemap.js/inline/sitemap-index-security/filters-javascript-protocol-urls-warn-mode.xml":                {rules: []string{"invalid-url"}},
	"sitemap.js/inline/sitemap-index-security/filters-malformed-urls.xml":                                    {rules: []string{"relative-url"}},
	"sitemap.js/inline/sitemap-index-security/filters-urls-exceeding-2048-characters-in-parser.xml":          {rules: []string{"url-too-long"}},
	"sitemap.js/inline/sitemap-index-security/rejects-javascript-protocol-in-throw-mode.xml":                 {rules: []string{"invalid-url"}},
	"sitemap.js/inline/sitemap-index-security/rejects-sitemap-index-with-too-many-entries-default-limit.xml": {rules: []string{"too-many-sitemaps"}},
	"sitemap.js/inline/sitemap-index-security/accepts-valid-iso-8601-dates.xml":                              {clean: true},
	"sitemap.js/inline/sitemap-index-security/accepts-date-only-format-yyyy-mm-dd.xml":                       {clean: true},

	"sitemap.js/inline/sitemap-parser-security/should-collect-all-errors-not-just-the-first-one.xml":           {rules: []string{"invalid-url", "invalid-priority", "invalid-date"}},
	"sitemap.js/inline/sitemap-parser-security/should-enforce-limits-on-cdata-content-too.xml":                 {rules: []string{"invalid-video"}},
	"sitemap.js/inline/sitemap-parser-security/should-handle-infinity-priority.xml":                            {rules: []string{"invalid-priority"}},
	"sitemap.js/inline/sitemap-parser-security/should-handle-invalid-video-duration-too-large.xml":             {rules: []string{"invalid-video"}},
	"sitemap.js/inline/sitemap-parser-security/should-handle-links-without-required-attributes-gracefully.xml": {rules: []string{"missing-tag"}},
	// Google sets no length for image captions and titles, which it
	// deprecated in 2022: the tag itself is the finding.
	"sitemap.js/inline/sitemap-parser-security/should-handle-oversized-image-caption-on-first-chunk.xml": {rules: []string{"deprecated-tag"}},
	"sitemap.js/inline/sitemap-parser-security/should-handle-oversized-image-title-on-first-chunk.xml":   {rules: []string{"deprecated-tag"}},
	"sitemap.js/inline/sitemap-parser-security/should-limit-number-of-images-per-url.xml":                {rules: []string{"too-many-images"}},
	"sitemap.js/inline/sitemap-parser-security/should-limit-number-of-tags-per-video.xml":                {rules: []string{"invalid-video"}},
	"sitemap.js/inline/sitemap-parser-security/should-limit-number-of-videos-per-url.xml":                {notOurs: "upstream keeps 100 videos per <url>; Google sets no limit"},
	"sitemap.js/inline/sitemap-parser-security/should-limit-video-description-length.xml":                {rules: []string{"invalid-video"}},
	"sitemap.js/inline/sitemap-parser-security/should-limit-video-title-length.xml":                      {rules: []string{"invalid-video"}},
	"sitemap.js/inline/sitemap-parser-security/should-reject-invalid-date-formats.xml":                   {rules: []string{"invalid-date"}},
	"sitemap.js/inline/sitemap-parser-security/should-reject-invalid-news-access-values.xml":             {rules: []string{"invalid-news"}},
	"sitemap.js/inline/sitemap-parser-security/should-reject-invalid-video-duration.xml":                 {rules: []string{"invalid-video"}},
	"sitemap.js/inline/sitemap-parser-security/should-reject-invalid-video-rating.xml":                   {rules: []string{"invalid-video"}},
	"sitemap.js/inline/sitemap-parser-security/should-reject-nan-priority.xml":                           {rules: []string{"invalid-priority"}},
	"sitemap.js/inline/sitemap-parser-security/should-reject-non-http-https-urls.xml":                    {rules: []string{"invalid-url"}},
	"sitemap.js/inline/sitemap-parser-security/should-reject-out-of-range-priority.xml":                  {rules: []string{"invalid-priority"}},
	"sitemap.js/inline/sitemap-parser-security/should-reject-urls-exceeding-max-length.xml":              {rules: []string{"url-too-long"}},
	"sitemap.js/inline/sitemap-parser-security/should-validate-all-date-fields.xml":                      {rules: []string{"invalid-date"}},
	"sitemap.js/inline/sitemap-parser-security/should-warn-when-exceeding-50k-url-entries.xml":           {rules: []string{"too-many-urls"}},
	"sitemap.js/inline/sitemap-parser-security/should-accept-valid-iso-8601-dates.xml":                   {clean: true},

	"sitemap.js/mocks/alltags-index.cdata.xml": {rules: []string{"unknown-tag"}},
	"sitemap.js/mocks/bad-tag-index.xml":       {rules: []string{"unknown-tag"}},
	"sitemap.js/mocks/bad-tag-sitemap.xml":     {rules: []string{"unknown-tag"}},
	"sitemap.js/mocks/cli-urls.json.bad.xml":   {rules: []string{"invalid-video"}},
	"sitemap.js/mocks/cli-urls.json.xml":       {clean: true},
	"sitemap.js/mocks/index-unescaped-lt.xml":  {rules: []string{"parse-error"}},
	"sitemap.js/mocks/unescaped-lt.xml":        {rules: []string{"parse-error"}},
}

// corpusFindingKeys are the MANIFEST expectations that are findings: a
// file that has one must be in corpusFindings.
var corpusFindingKeys = []string{"warnings_contain", "errors_contain", "errors_min", "error_message_regex", "error", "xsd_valid", "unknown_tag", "warning"}

// TestCorpusFindings checks the corpus files whose upstream tests expect
// a warning or an error: the same problem is reported here, under the
// rule that names it.
func TestCorpusFindings(t *testing.T) {
	dir := sharedtest.Corpus(t, "")
	b, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest []struct {
		File   string         `json:"file"`
		Expect map[string]any `json:"expect"`
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	met := map[string]bool{}
	for _, e := range manifest {
		want, listed := corpusFindings[e.File]
		for _, k := range corpusFindingKeys {
			if _, ok := e.Expect[k]; ok && !listed {
				t.Errorf("%s: expectation %q has no entry in corpusFindings", e.File, k)
			}
		}
		if !listed {
			continue
		}
		met[e.File] = true
		t.Run(e.File, func(t *testing.T) {
			if want.notOurs != "" {
				t.Skip(want.notOurs)
			}
			data, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var errs []Diagnostic
			c := &Checker{Now: testNow, Report: func(d Diagnostic) {
				got = append(got, d.Rule)
				if d.Severity == Error {
					errs = append(errs, d)
				}
			}}
			if _, err := c.CheckDocument(context.Background(), e.File, "", bytes.NewReader(data)); err != nil {
				t.Fatal(err)
			}
			c.Finish()
			for _, r := range want.rules {
				if Lookup(r) == nil {
					t.Fatalf("unknown rule %q", r)
				}
				if !slices.Contains(got, r) {
					t.Errorf("no %s finding; got %q", r, got)
				}
			}
			if want.clean && len(errs) > 0 {
				t.Errorf("errors in a file upstream accepts: %v", errs)
			}
		})
	}
	for f := range corpusFindings {
		if met[f] {
			continue
		}
		t.Errorf("corpusFindings names %s, which MANIFEST.json does not list", f)
	}
}
