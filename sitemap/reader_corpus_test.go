package sitemap_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/longtest"
	"github.com/sitemapkit/sitemapkit/internal/sharedtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

type corpusEntry struct {
	File   string         `json:"file"`
	Kind   string         `json:"kind"`
	Expect map[string]any `json:"expect"`
	Notes  string         `json:"notes"`
}

func loadManifest(t *testing.T, dir string) []corpusEntry {
	b, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m []corpusEntry
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// corpusReaderKinds are the kinds whose expectations are the reader's.
var corpusReaderKinds = map[string]bool{
	"urlset": true, "index": true, "text": true, "rss": true, "atom": true, "gzip": true,
	"gzip-bomb": true, "broken": true, "not-sitemap": true, "compressed-html": true,
}

// corpusNotOurs lists the expectations that are not the reader's to meet,
// by file and key ("*" for the whole file), with the reason. The Reader
// returns what a file says; dropping invalid values is lint's job (and
// each of these values is reported by a lint rule at its position, as
// lint's TestCorpusFindings checks).
var corpusNotOurs = map[string]string{
	// Upstream (sitemap.js) drops entries whose <loc> is not a valid http(s)
	// URL; the Reader returns them and lint reports invalid-url.
	"sitemap.js/inline/sitemap-index-security/filters-data-protocol-urls.xml#*":                                    "upstream drops a data: <loc>; lint: invalid-url",
	"sitemap.js/inline/sitemap-index-security/filters-file-protocol-urls.xml#*":                                    "upstream drops a file: <loc>; lint: invalid-url",
	"sitemap.js/inline/sitemap-index-security/filters-ftp-protocol-urls.xml#*":                                     "upstream drops an ftp: <loc>; lint: invalid-url",
	"sitemap.js/inline/sitemap-index-security/filters-invalid-urls-in-cdata-sections.xml#*":                        "upstream drops a javascript: <loc>; lint: invalid-url",
	"sitemap.js/inline/sitemap-index-security/filters-javascript-protocol-urls-warn-mode.xml#*":                    "upstream drops a javascript: <loc>; lint: invalid-url",
	"sitemap.js/inline/sitemap-index-security/filters-malformed-urls.xml#*":                                        "upstream drops a <loc> that is not a URL; lint: invalid-url",
	"sitemap.js/inline/sitemap-index-security/filters-urls-exceeding-2048-characters-in-parser.xml#*":              "upstream drops a 2,120-character <loc>; lint: url-too-long",
	"sitemap.js/inline/sitemap-index-security/rejects-sitemap-index-with-too-many-entries-default-limit.xml#error": "50,001 entries: the Reader streams them all; lint: too-many-sitemaps",
	// Invalid values upstream turns into null: the Reader keeps the text.
	"sitemap.js/inline/sitemap-index-security/filters-invalid-date-format-in-parser-warn-mode.xml#entries":  "upstream nulls an invalid lastmod; the Reader keeps \"not-a-date\"; lint: invalid-date",
	"sitemap.js/inline/sitemap-parser-security/should-reject-nan-priority.xml#entries":                      "upstream nulls an invalid priority; the Reader keeps it; lint: invalid-priority",
	"sitemap.js/inline/sitemap-parser-security/should-reject-out-of-range-priority.xml#entries":             "upstream nulls an invalid priority; the Reader keeps it; lint: invalid-priority",
	"sitemap.js/inline/sitemap-parser-security/should-reject-non-http-https-urls.xml#urls_must_not_include": "the Reader returns javascript: and file: locs as written; lint: invalid-url",
	// An XXE probe: upstream (lxml without entity resolution) reads the
	// entry with the reference dropped; the Reader refuses any DOCTYPE.
	"scrapy/inline/test_utils_sitemap/test_xml_entity_expansion.xml#url_count": "the Reader refuses the DOCTYPE (ErrDoctype) instead of reading past it",
	"scrapy/inline/test_utils_sitemap/test_xml_entity_expansion.xml#entries":   "the Reader refuses the DOCTYPE (ErrDoctype) instead of reading past it",
}

func TestCorpus(t *testing.T) {
	longtest.Skip(t, "reads every sitemap of the corpus")
	dir := sharedtest.Corpus(t, "")
	var passed, skipped int
	for _, e := range loadManifest(t, dir) {
		if !corpusReaderKinds[e.Kind] {
			continue
		}
		t.Run(e.File, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			c := corpusCheck{t: t, file: e.File, expect: e.Expect, broken: e.Kind == "broken" || e.Expect["external_entity_resolved"] != nil}
			if d, ok := e.Expect["expect_derived"].(map[string]any); ok {
				for k, v := range d {
					if _, dup := c.expect[k]; !dup && k != "derived" {
						c.expect[k] = v
					}
				}
			}
			c.run(data)
			passed += c.checked
			skipped += c.skipped
		})
	}
	t.Logf("corpus: %d expectations checked, %d listed as not the reader's", passed, skipped)
}

type corpusCheck struct {
	t                *testing.T
	file             string
	expect           map[string]any
	checked, skipped int
	broken           bool // the file is damaged: an error is expected
}

// has reports whether the expectation key is there and the reader's.
func (c *corpusCheck) has(key string) bool {
	if _, ok := c.expect[key]; !ok {
		return false
	}
	for _, k := range []string{c.file + "#" + key, c.file + "#*"} {
		if why, ok := corpusNotOurs[k]; ok {
			c.t.Logf("skipped %s: %s", key, why)
			c.skipped++
			return false
		}
	}
	c.checked++
	return true
}

func (c *corpusCheck) skip(key, why string) {
	if _, ok := c.expect[key]; ok {
		c.t.Logf("skipped %s: %s", key, why)
		c.skipped++
	}
}

func (c *corpusCheck) run(data []byte) {
	t := c.t
	var notices []sitemap.Notice
	read := func(max int64) ([]sitemap.URL, *sitemap.Reader, error) {
		r := sitemap.NewReader(bytes.NewReader(data))
		r.Name = c.file
		r.MaxBytes = max
		r.OnNotice = func(n sitemap.Notice) { notices = append(notices, n) }
		var us []sitemap.URL
		for u, err := range r.All() {
			if err != nil {
				return us, r, err
			}
			us = append(us, u)
		}
		return us, r, nil
	}
	urls, r, err := read(0)
	enc, _ := c.expect["content_encoding"].(string)
	if comp, _ := c.expect["compressed"].(string); comp != "" && comp != "gzip" && comp != "zstd" {
		enc = comp
	}
	if enc != "" && enc != "gzip" && !strings.HasPrefix(enc, "zstd") {
		// br, deflate and chains of codings carry no magic bytes: they are
		// HTTP Content-Encodings, decoded by internal/fetch.
		if err == nil {
			t.Errorf("Content-Encoding %q read as a sitemap of %d entries", enc, len(urls))
		}
		for k := range c.expect {
			c.skip(k, "Content-Encoding "+enc+" is decoded by internal/fetch, not from the bytes; the Reader only refuses the bytes")
		}
		return
	}
	isSitemap, hasIsSitemap := c.expect["is_sitemap"].(bool)
	wantErr, _ := c.expect["error"].(bool)
	if c.has("is_sitemap") && !isSitemap || c.has("error") && wantErr || c.has("truncated") {
		if err == nil {
			t.Errorf("read without error (%d entries), want a refusal", len(urls))
		} else {
			var se *sitemap.SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.File != c.file {
				t.Errorf("error %v without file and position", err)
			}
			t.Logf("refused: %v", err)
		}
	} else if err != nil && !(hasIsSitemap && !isSitemap) && !c.broken {
		t.Errorf("error %v", err)
	}
	if c.has("external_entity_resolved") {
		// The Reader refuses the DOCTYPE outright: nothing is resolved.
		if !errors.Is(err, sitemap.ErrDoctype) {
			t.Errorf("error %v, want ErrDoctype", err)
		}
		for _, u := range urls {
			if strings.Contains(u.Loc, "root:") {
				t.Errorf("file contents leaked: %q", u.Loc)
			}
		}
	}
	if c.has("must_not_crash") && err != nil {
		t.Logf("refused, without a panic: %v", err)
	}
	if strings.HasPrefix(c.file, "scrapy/compressed/html-") {
		if c.has("decoded_starts_with") && !errors.Is(err, sitemap.ErrHTML) {
			t.Errorf("error %v, want ErrHTML", err)
		}
	}
	if c.has("type") {
		want := fmt.Sprint(c.expect["type"])
		if got := r.Format().String(); got != want {
			t.Errorf("format %s, want %s", got, want)
		}
	}
	if c.has("compressed") {
		want, _ := c.expect["compressed"].(string)
		if r.Compressed() != want {
			t.Errorf("Compressed() = %q, want %q", r.Compressed(), want)
		}
	}
	if c.has("is_gzip") || c.has("gzip_magic") {
		want := c.expect["is_gzip"] == true || c.expect["gzip_magic"] == true
		if (r.Compressed() == "gzip") != want {
			t.Errorf("Compressed() = %q, want gzip: %v", r.Compressed(), want)
		}
	}
	for _, k := range []string{"url_count", "sitemap_count"} {
		if c.has(k) {
			if want := int(c.expect[k].(float64)); len(urls) != want {
				t.Errorf("%s: %d entries, want %d", k, len(urls), want)
			}
		}
	}
	for _, k := range []string{"urls", "sitemaps"} {
		if !c.has(k) {
			continue
		}
		var want, wantLastmod []string
		hasLastmod := false
		for _, v := range c.expect[k].([]any) {
			switch v := v.(type) {
			case string:
				want = append(want, v)
			case map[string]any:
				want = append(want, v["url"].(string))
				lm, _ := v["lastmod"].(string)
				wantLastmod = append(wantLastmod, lm)
				hasLastmod = true
			}
		}
		if got := locs(urls); !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", k, got, want)
		}
		if hasLastmod {
			var got []string
			for _, u := range urls {
				got = append(got, u.LastMod)
			}
			if !slices.Equal(got, wantLastmod) {
				t.Errorf("%s lastmods: got %q, want %q", k, got, wantLastmod)
			}
		}
	}
	if c.has("lastmods") {
		var got, want []string
		for _, u := range urls {
			got = append(got, u.LastMod)
		}
		for _, v := range c.expect["lastmods"].([]any) {
			want = append(want, v.(string))
		}
		if !slices.Equal(got, want) {
			t.Errorf("lastmods: got %q, want %q", got, want)
		}
	}
	if c.has("first_loc_raw") && len(urls) > 0 {
		// Upstream keeps the raw text; the Reader trims white space around
		// values, so the trimmed form is expected.
		if want := strings.TrimSpace(c.expect["first_loc_raw"].(string)); urls[0].Loc != want {
			t.Errorf("first loc %q, want %q", urls[0].Loc, want)
		}
	}
	if c.has("entries") {
		c.entries(urls)
	}
	if c.has("unknown_tag") {
		tag := c.expect["unknown_tag"].(string)
		found := false
		for _, n := range notices {
			found = found || n.Rule == sitemap.RuleUnknownTag && strings.Contains(n.Msg, "<"+tag+">") && n.Pos.Line > 0
		}
		if !found {
			t.Errorf("no unknown-tag notice for <%s>: %v", tag, notices)
		}
	}
	if c.has("image_count") || c.has("video_count") {
		var images, videos int
		for _, u := range urls {
			images += len(u.Images)
			videos += len(u.Videos)
		}
		if v, ok := c.expect["image_count"].(float64); ok && images != int(v) {
			t.Errorf("%d images, want %d", images, int(v))
		}
		if v, ok := c.expect["video_count"].(float64); ok && videos != int(v) {
			t.Errorf("%d videos, want %d", videos, int(v))
		}
	}
	if c.has("content_loc") && len(urls) > 0 && len(urls[0].Videos) > 0 {
		v := urls[0].Videos[0]
		if v.ContentLoc != c.expect["content_loc"] || v.PlayerLoc != c.expect["player_loc"] {
			t.Errorf("video locations %q %q", v.ContentLoc, v.PlayerLoc)
		}
	}
	for _, k := range []string{"images_in_file", "tags_in_file", "videos_in_file"} {
		if c.has(k) {
			n := 0
			for _, u := range urls {
				for _, v := range u.Videos {
					n += len(v.Tags) * btoi(k == "tags_in_file")
				}
				n += len(u.Images)*btoi(k == "images_in_file") + len(u.Videos)*btoi(k == "videos_in_file")
			}
			// The Reader keeps up to its caps, and says how many more
			// there were; upstream's kept counts, when given, agree.
			caps := map[string]int{"images_in_file": sitemap.MaxImages, "tags_in_file": sitemap.MaxVideoTags, "videos_in_file": 1000 /* per <url> */}
			kept := map[string]string{"images_in_file": "max_images_kept", "tags_in_file": "max_tags_kept"}
			want := min(int(c.expect[k].(float64)), caps[k])
			if c.has(kept[k]) {
				want = min(want, int(c.expect[kept[k]].(float64)))
			}
			if n != want {
				t.Errorf("%s: %d kept, want %d (up to the Reader's cap)", k, n, want)
			}
		}
	}
	for _, k := range []string{"loc_length", "sitemap_url_length", "title_length", "caption_length", "description_length"} {
		if !c.has(k) || len(urls) == 0 {
			continue
		}
		want := int(c.expect[k].(float64))
		got := 0
		u := urls[0]
		switch k {
		case "loc_length", "sitemap_url_length":
			got = len(u.Loc)
		case "title_length":
			if len(u.Videos) > 0 {
				got = len(u.Videos[0].Title)
			} else if len(u.Images) > 0 {
				got = len(u.Images[0].Title)
			}
		case "caption_length":
			got = len(u.Images[0].Caption)
		case "description_length":
			got = len(u.Videos[0].Description)
		}
		if got != want {
			t.Errorf("%s: %d, want %d (kept whole: limits are lint's)", k, got, want)
		}
	}
	if m, ok := c.expect["with_max_size_1000000"].(map[string]any); ok && c.has("with_max_size_1000000") {
		_, r2, err2 := read(1000000)
		if err2 == nil {
			t.Errorf("MaxBytes 1,000,000: read without error")
		}
		if lim, ok := m["decompressed_size_at_abort_lt"].(float64); ok && float64(r2.InputOffset()) >= lim {
			t.Errorf("stopped after %d bytes, want fewer than %v", r2.InputOffset(), lim)
		}
	}
	if c.has("decompressed_size") && err == nil {
		if want := int64(c.expect["decompressed_size"].(float64)); r.InputOffset() != want {
			t.Errorf("InputOffset() = %d, want %d", r.InputOffset(), want)
		}
	}
	for _, k := range []string{"url_elements", "sitemap_elements"} {
		if c.has(k) {
			if want := int(c.expect[k].(float64)); len(urls) != want {
				t.Errorf("%s: %d entries, want %d (the Reader returns them all; the limit is lint's)", k, len(urls), want)
			}
		}
	}
	if c.has("first") && len(urls) > 0 && urls[0].Loc != c.expect["first"] {
		t.Errorf("first %q, want %q", urls[0].Loc, c.expect["first"])
	}
	if c.has("last") && len(urls) > 0 && urls[len(urls)-1].Loc != c.expect["last"] {
		t.Errorf("last %q, want %q", urls[len(urls)-1].Loc, c.expect["last"])
	}
	if c.has("strict_gunzip_error") && err == nil {
		t.Errorf("a damaged gzip read without error")
	}
	if c.has("first_half_only") {
		// Cut in half, the stream still starts with the HTML page, or
		// (zstd, whose first block is the whole page) stops with a
		// compression error: never a sitemap.
		r := sitemap.NewReader(bytes.NewReader(data[:len(data)/2]))
		_, err := r.Read()
		if !errors.Is(err, sitemap.ErrHTML) && !errors.Is(err, sitemap.ErrCompression) {
			t.Errorf("first half: error %v, want ErrHTML or ErrCompression", err)
		}
	}
	if c.has("extensions") {
		for _, x := range c.expect["extensions"].([]any) {
			n := 0
			for _, u := range urls {
				switch x {
				case "image":
					n += len(u.Images)
				case "video":
					n += len(u.Videos)
				case "news":
					n += btoi(u.News != nil)
				}
			}
			if n == 0 {
				t.Errorf("no %s extension read", x)
			}
		}
	}
	for k := range c.expect {
		switch k {
		case "url_elements", "sitemap_elements", "first", "last", "strict_gunzip_error", "first_half_only", "extensions":
		case "is_sitemap", "error", "truncated", "type", "compressed", "is_gzip", "gzip_magic", "url_count", "sitemap_count",
			"urls", "sitemaps", "lastmods", "first_loc_raw", "entries", "unknown_tag", "image_count", "video_count",
			"content_loc", "player_loc", "images_in_file", "tags_in_file", "videos_in_file", "loc_length", "sitemap_url_length",
			"title_length", "caption_length", "description_length", "with_max_size_1000000", "decompressed_size",
			"expect_derived", "derived", "decoded_starts_with", "urls_must_not_include", "external_entity_resolved", "must_not_crash",
			"max_images_kept", "max_tags_kept":
		case "scenarios", "options_variants":
			c.skip(k, "upstream options (error levels, filters, follow rules) outside the reader")
		case "warnings_contain", "errors_contain", "warnings", "warning", "errors_min", "error_message_regex",
			"max_url_length", "max_videos_kept", "max_caption_length_kept",
			"max_title_length_kept", "dropped_url_length", "xsd_valid", "xsd_violation", "reason_derived":
			c.skip(k, "upstream's validation messages or limits: lint's TestCorpusFindings (lint/corpus_test.go)")
		case "sitemap_url", "self_reference", "result_rows", "min_error_rows", "result_columns_include", "errors_file_created", "robots_url":
			c.skip(k, "depends on the document's URL or on fetching children over HTTP: lint and internal/fetch")
		default:
			c.skip(k, "not a reader-level fact")
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// entries checks the asserted fields of each entry, in document order.
func (c *corpusCheck) entries(urls []sitemap.URL) {
	t := c.t
	want := c.expect["entries"].([]any)
	if len(urls) != len(want) {
		t.Errorf("entries: %d, want %d", len(urls), len(want))
		return
	}
	for i, w := range want {
		u := urls[i]
		for k, v := range w.(map[string]any) {
			if k == "video" || k == "img" {
				c.extension(i, u, k, v.([]any))
				continue
			}
			if k == "ampLink" {
				c.t.Logf("skipped entries[%d].ampLink: rel=\"amphtml\" links are not sitemap data (URL has no field for them)", i)
				c.skipped++
				continue
			}
			got, ok := entryField(u, k)
			if !ok {
				t.Errorf("entry %d: no reader field for %q", i, k)
				continue
			}
			if wantS := fmt.Sprint(normalize(v)); got != wantS {
				t.Errorf("entry %d %s:\n got %s\nwant %s", i, k, got, wantS)
			}
		}
	}
}

func normalize(v any) any {
	switch v := v.(type) {
	case nil:
		return ""
	case []any:
		var s []string
		for _, x := range v {
			s = append(s, fmt.Sprint(normalize(x)))
		}
		return strings.Join(s, "|")
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var s []string
		for _, k := range keys {
			s = append(s, k+"="+fmt.Sprint(normalize(v[k])))
		}
		return strings.Join(s, ",")
	}
	return v
}

// entryField renders the field of u an upstream entry key names, in the
// shape of normalize.
func entryField(u sitemap.URL, k string) (string, bool) {
	switch k {
	case "loc":
		return u.Loc, true
	case "lastmod":
		return u.LastMod, true
	case "changefreq":
		return u.ChangeFreq, true
	case "priority":
		return u.Priority, true
	case "alternate":
		var s []string
		for _, a := range u.Alternates {
			s = append(s, a.Href)
		}
		return strings.Join(s, "|"), true
	case "links":
		var s []string
		for _, a := range u.Alternates {
			s = append(s, "lang="+a.Hreflang+",url="+a.Href)
		}
		return strings.Join(s, "|"), true
	case "news":
		if u.News == nil {
			return "", true
		}
		n := u.News
		return fmt.Sprintf("access=%s,genres=%s,keywords=%s,stock_tickers=%s", n.Access, n.Genres, n.Keywords, n.StockTickers), true
	}
	return "", false
}

// extension checks the asserted keys of an entry's videos or images.
func (c *corpusCheck) extension(i int, u sitemap.URL, k string, want []any) {
	for j, w := range want {
		for key, v := range w.(map[string]any) {
			var got string
			ok := true
			switch {
			case k == "img" && j < len(u.Images):
				img := u.Images[j]
				switch key {
				case "geoLocation":
					got = img.GeoLocation
				case "license":
					got = img.License
				case "caption":
					got = img.Caption
				case "title":
					got = img.Title
				default:
					ok = false
				}
			case k == "video" && j < len(u.Videos):
				got, ok = videoField(u.Videos[j], key)
			default:
				c.t.Errorf("entry %d: no %s #%d", i, k, j)
				continue
			}
			if !ok {
				c.t.Logf("skipped entries[%d].%s[%d].%s: not kept by sitemap.%s (a deprecated or presentational attribute)", i, k, j, key, map[string]string{"img": "Image", "video": "Video"}[k])
				c.skipped++
				continue
			}
			if want := fmt.Sprint(v); got != want {
				c.t.Errorf("entry %d %s[%d].%s = %q, want %q", i, k, j, key, got, want)
			}
		}
	}
}

func videoField(v sitemap.Video, key string) (string, bool) {
	price := sitemap.Price{}
	if len(v.Prices) > 0 {
		price = v.Prices[0]
	}
	restriction, platform, uploader := sitemap.Restriction{}, sitemap.Platform{}, sitemap.Uploader{}
	if v.Restriction != nil {
		restriction = *v.Restriction
	}
	if v.Platform != nil {
		platform = *v.Platform
	}
	if v.Uploader != nil {
		uploader = *v.Uploader
	}
	m := map[string]string{
		"thumbnail_loc": v.ThumbnailLoc, "title": v.Title, "description": v.Description,
		"content_loc": v.ContentLoc, "player_loc": v.PlayerLoc, "duration": v.Duration,
		"rating": v.Rating, "view_count": v.ViewCount, "publication_date": v.PublicationDate,
		"category": v.Category, "family_friendly": v.FamilyFriendly, "gallery_loc": v.GalleryLoc,
		"requires_subscription": v.RequiresSubscription, "live": v.Live,
		"restriction": restriction.Countries, "restriction:relationship": restriction.Relationship,
		"platform": platform.Platforms, "platform:relationship": platform.Relationship,
		"uploader": uploader.Name, "uploader:info": uploader.Info,
		"price": price.Value, "price:currency": price.Currency, "price:type": price.Type, "price:resolution": price.Resolution,
	}
	got, ok := m[key]
	return got, ok
}
