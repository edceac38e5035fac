package publish

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/sitemapkit/sitemapkit/internal/longtest"
	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

const base = "https://www.example.com/"

// item returns URL i of a test set.
func item(i int) sitemap.URL {
	return sitemap.URL{
		Loc:        base + "catalog/item-" + strconv.Itoa(i) + "?color=red&size=M",
		LastMod:    fmt.Sprintf("2024-01-%02dT10:00:00+00:00", i%28+1),
		ChangeFreq: "weekly",
		Priority:   "0.5",
	}
}

func items(from, to int) []sitemap.URL {
	var us []sitemap.URL
	for i := from; i < to; i++ {
		us = append(us, item(i))
	}
	return us
}

// build publishes urls with opts and fails t on any error but refusals.
func build(t *testing.T, opts Options, urls []sitemap.URL) *Result {
	t.Helper()
	res, err := tryBuild(t, opts, urls)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func tryBuild(t *testing.T, opts Options, urls []sitemap.URL) (*Result, error) {
	t.Helper()
	if opts.Base == "" {
		opts.Base = base
	}
	b, err := New(opts)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	for i := range urls {
		if err := b.Add(ctx, &urls[i]); err != nil {
			if _, ok := errors.AsType[*sitemap.Violation](err); !ok {
				b.Abort()
				return nil, err
			}
		}
	}
	res, err := b.Publish(ctx)
	if err == nil {
		assertNoTemps(t, opts.Dir)
	}
	return res, err
}

// open returns the uncompressed content of dir/name.
func content(t testing.TB, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return data
}

// readDoc reads every entry of dir/name with the sitemap Reader.
func readDoc(t testing.TB, dir, name string) ([]sitemap.URL, sitemap.Format) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := sitemap.NewReader(f)
	r.Name = name
	var us []sitemap.URL
	for u, err := range r.All() {
		if err != nil {
			t.Fatalf("reading %s: %v", name, err)
		}
		us = append(us, u)
	}
	return us, r.Format()
}

// readSet follows res's index files (or single file) to every URL of the
// set, in order, checking that each index names existing files by the
// exact public URL.
func readSet(t testing.TB, dir, publicURL string, res *Result) []sitemap.URL {
	t.Helper()
	var all []sitemap.URL
	for _, top := range res.Indexes {
		name, ok := strings.CutPrefix(top, publicURL)
		if !ok {
			t.Fatalf("index URL %s not under %s", top, publicURL)
		}
		us, f := readDoc(t, dir, name)
		if f != sitemap.FormatIndex {
			all = append(all, us...)
			continue
		}
		for _, e := range us {
			child, ok := strings.CutPrefix(e.Loc, publicURL)
			if !ok || strings.Contains(child, "/") {
				t.Fatalf("%s lists %s, not a file of %s", name, e.Loc, publicURL)
			}
			cu, cf := readDoc(t, dir, child)
			if cf == sitemap.FormatIndex {
				t.Fatalf("%s: nested index %s", name, child)
			}
			all = append(all, cu...)
		}
	}
	return all
}

func locs(us []sitemap.URL) []string {
	var s []string
	for _, u := range us {
		s = append(s, u.Loc)
	}
	return s
}

// escaped is what a loc of item() becomes: already a normalised URI.
func wantLocs(us []sitemap.URL) []string { return locs(us) }

func names(fs []File) []string {
	var s []string
	for _, f := range fs {
		s = append(s, f.Name)
	}
	return s
}

// docLen is the exact size of a urlset (or text document) holding us, as
// the Writer counts it.
func docLen(t testing.TB, f sitemap.Format, us []sitemap.URL) int64 {
	t.Helper()
	var buf bytes.Buffer
	w := sitemap.NewWriter(&buf, f)
	for i := range us {
		if err := w.WriteURL(&us[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return int64(buf.Len())
}

func TestSplitAtMaxBytes(t *testing.T) {
	urls := items(0, 30)
	exact := docLen(t, sitemap.FormatURLSet, urls[:12])
	for _, tc := range []struct {
		maxBytes  int64
		wantFirst int
	}{
		{exact, 12},     // a file exactly at the limit
		{exact - 1, 11}, // one byte less: the 12th URL goes to the next file
		{exact + 1, 12},
	} {
		t.Run(strconv.FormatInt(tc.maxBytes-exact, 10), func(t *testing.T) {
			dir := t.TempDir()
			res := build(t, Options{Dir: dir, MaxBytes: tc.maxBytes}, urls)
			xsdtest.Check(t, dir)
			if res.URLs != 30 {
				t.Errorf("URLs = %d, want 30", res.URLs)
			}
			children := res.Files[1:]
			if got := children[0].Entries; got != tc.wantFirst {
				t.Errorf("first child holds %d URLs, want %d", got, tc.wantFirst)
			}
			total := 0
			for _, f := range res.Files {
				data := content(t, dir, f.Name)
				if int64(len(data)) != f.Bytes {
					t.Errorf("%s: Result says %d bytes, file has %d", f.Name, f.Bytes, len(data))
				}
				if f.Bytes > tc.maxBytes {
					t.Errorf("%s: %d bytes, over MaxBytes %d", f.Name, f.Bytes, tc.maxBytes)
				}
				if !f.Index {
					total += f.Entries
					if n := bytes.Count(data, []byte("<url>")); n != f.Entries {
						t.Errorf("%s: %d <url>, Result says %d", f.Name, n, f.Entries)
					}
				}
			}
			if total != 30 {
				t.Errorf("children hold %d URLs, want 30", total)
			}
			if tc.maxBytes == exact && children[0].Bytes != exact {
				t.Errorf("first child is %d bytes, want exactly %d", children[0].Bytes, exact)
			}
			if got := locs(readSet(t, dir, base, res)); !slices.Equal(got, wantLocs(urls)) {
				t.Errorf("set reads back as %d URLs, want the 30 in order", len(got))
			}
		})
	}
}

func TestSplitAtMaxURLs(t *testing.T) {
	dir := t.TempDir()
	urls := items(0, 25)
	res := build(t, Options{Dir: dir, MaxURLs: 10}, urls)
	xsdtest.Check(t, dir)
	var entries []int
	for _, f := range res.Files {
		entries = append(entries, f.Entries)
	}
	if want := []int{3, 10, 10, 5}; !slices.Equal(entries, want) {
		t.Errorf("entries per file = %v, want %v (index, then children)", entries, want)
	}
	if !res.Files[0].Index || res.Files[0].Name != "sitemap.xml" {
		t.Errorf("first file %+v, want the index sitemap.xml", res.Files[0])
	}
	for i, f := range res.Files[1:] {
		if !strings.HasPrefix(f.Name, "sitemap-"+strconv.Itoa(i+1)+"-") || !ownName("sitemap", manifestFile{Name: f.Name}) {
			t.Errorf("child %d named %s", i+1, f.Name)
		}
		if f.URL != base+f.Name {
			t.Errorf("child URL %s, want %s", f.URL, base+f.Name)
		}
	}
	if got := locs(readSet(t, dir, base, res)); !slices.Equal(got, wantLocs(urls)) {
		t.Errorf("set reads back wrong: %d URLs", len(got))
	}
	if want := []string{base + "sitemap.xml"}; !slices.Equal(res.Indexes, want) {
		t.Errorf("Indexes = %v, want %v", res.Indexes, want)
	}
}

func TestIndexOverflow(t *testing.T) {
	dir := t.TempDir()
	urls := items(0, 20)
	// 3 URLs per child: 7 children; 3 entries per index: 3 index files.
	res := build(t, Options{Dir: dir, MaxURLs: 3}, urls)
	xsdtest.Check(t, dir)
	wantIdx := []string{base + "sitemap.xml", base + "sitemap-index-2.xml", base + "sitemap-index-3.xml"}
	if !slices.Equal(res.Indexes, wantIdx) {
		t.Fatalf("Indexes = %v, want %v", res.Indexes, wantIdx)
	}
	var idx []int
	children := 0
	for _, f := range res.Files {
		if f.Index {
			idx = append(idx, f.Entries)
		} else {
			children++
		}
	}
	if !slices.Equal(idx, []int{3, 3, 1}) || children != 7 {
		t.Errorf("index entries %v and %d children, want [3 3 1] and 7", idx, children)
	}
	if got := locs(readSet(t, dir, base, res)); !slices.Equal(got, wantLocs(urls)) {
		t.Errorf("set reads back wrong: %v", got)
	}

	// Fewer URLs next time: the extra index files go.
	res = build(t, Options{Dir: dir, MaxURLs: 3}, items(0, 5))
	if len(res.Indexes) != 1 {
		t.Errorf("Indexes = %v, want one", res.Indexes)
	}
	for _, n := range []string{"sitemap-index-2.xml", "sitemap-index-3.xml"} {
		if _, err := os.Stat(filepath.Join(dir, n)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left after the set shrank: %v", n, err)
		}
	}
	xsdtest.Check(t, dir)
}

func TestIndexModes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  Options
		n     int
		files []string // want, with XXXXXXXX for a content hash
		err   error
	}{
		{"auto/one", Options{}, 5, []string{"sitemap.xml"}, nil},
		{"auto/one/gzip", Options{Gzip: true}, 5, []string{"sitemap.xml"}, nil},
		{"auto/two/gzip", Options{Gzip: true}, 15, []string{"sitemap.xml", "sitemap-1-XXXXXXXX.xml.gz", "sitemap-2-XXXXXXXX.xml.gz"}, nil},
		{"auto/two", Options{}, 15, []string{"sitemap.xml", "sitemap-1-XXXXXXXX.xml", "sitemap-2-XXXXXXXX.xml"}, nil},
		{"always/one", Options{Index: IndexAlways}, 5, []string{"sitemap.xml", "sitemap-1-XXXXXXXX.xml"}, nil},
		{"always/one/gzip", Options{Index: IndexAlways, Gzip: true}, 5, []string{"sitemap.xml", "sitemap-1-XXXXXXXX.xml.gz"}, nil},
		{"never/one", Options{Index: IndexNever}, 10, []string{"sitemap.xml"}, nil},
		{"never/one/gzip", Options{Index: IndexNever, Gzip: true}, 10, []string{"sitemap.xml.gz"}, nil},
		{"never/two", Options{Index: IndexNever}, 11, nil, ErrNeedsIndex},
		{"text/one", Options{Format: sitemap.FormatText}, 5, []string{"sitemap.txt"}, nil},
		{"text/two/gzip", Options{Format: sitemap.FormatText, Gzip: true}, 15, []string{"sitemap.xml", "sitemap-1-XXXXXXXX.txt.gz", "sitemap-2-XXXXXXXX.txt.gz"}, nil},
		{"name", Options{Name: "products", Index: IndexAlways}, 5, []string{"products.xml", "products-1-XXXXXXXX.xml"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			opts := tc.opts
			opts.Dir, opts.MaxURLs = dir, 10
			urls := items(0, tc.n)
			res, err := tryBuild(t, opts, urls)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				if got := listDir(t, dir); len(got) != 0 {
					t.Errorf("a failed run left %v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			xsdtest.Check(t, dir)
			var got []string
			for _, f := range res.Files {
				n := f.Name
				if i := strings.LastIndexByte(n, '-'); i > 0 && !f.Index && len(res.Files) > 1 {
					n = n[:i+1] + "XXXXXXXX" + n[i+9:]
				}
				got = append(got, n)
			}
			if !slices.Equal(got, tc.files) {
				t.Errorf("files %v, want %v", got, tc.files)
			}
			onDisk := slices.DeleteFunc(listDir(t, dir), func(n string) bool { return strings.HasPrefix(n, ".") })
			if want := slices.Sorted(slices.Values(names(res.Files))); !slices.Equal(onDisk, want) {
				t.Errorf("folder holds %v, want %v", onDisk, want)
			}
			if len(res.Files) == 1 {
				if want := []string{base + res.Files[0].Name}; !slices.Equal(res.Indexes, want) {
					t.Errorf("Indexes = %v, want %v", res.Indexes, want)
				}
			}
			for _, f := range res.Files {
				data, err := os.ReadFile(filepath.Join(dir, f.Name))
				if err != nil {
					t.Fatal(err)
				}
				gz := len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b
				if gz != strings.HasSuffix(f.Name, ".gz") {
					t.Errorf("%s: gzipped = %v", f.Name, gz)
				}
				if gz && f.GzipBytes != int64(len(data)) || !gz && (f.GzipBytes != 0 || f.Bytes != int64(len(data))) {
					t.Errorf("%s: Result %+v, file %d bytes", f.Name, f, len(data))
				}
			}
			if got := locs(readSet(t, dir, base, res)); !slices.Equal(got, wantLocs(urls)) {
				t.Errorf("set reads back as %v", got)
			}
		})
	}
}

// TestGzipSameBytes: gunzipped children are byte for byte the plain run's,
// and have the same names but for .gz.
func TestGzipSameBytes(t *testing.T) {
	urls := items(0, 45)
	plain, gz := t.TempDir(), t.TempDir()
	rp := build(t, Options{Dir: plain, MaxURLs: 10}, urls)
	rg := build(t, Options{Dir: gz, MaxURLs: 10, Gzip: true}, urls)
	if len(rp.Files) != len(rg.Files) || len(rp.Files) != 6 {
		t.Fatalf("%d and %d files, want 6", len(rp.Files), len(rg.Files))
	}
	for i := range rp.Files {
		p, g := rp.Files[i], rg.Files[i]
		if p.Index {
			continue
		}
		if g.Name != p.Name+".gz" {
			t.Errorf("gzip child %s, plain %s", g.Name, p.Name)
		}
		if !bytes.Equal(content(t, plain, p.Name), content(t, gz, g.Name)) {
			t.Errorf("%s differs from %s once gunzipped", g.Name, p.Name)
		}
		if g.Bytes != p.Bytes || g.GzipBytes == 0 || g.GzipBytes >= g.Bytes {
			t.Errorf("%s: Bytes %d GzipBytes %d; plain %d", g.Name, g.Bytes, g.GzipBytes, p.Bytes)
		}
	}
	xsdtest.Check(t, gz)
}

func TestTextFormat(t *testing.T) {
	dir := t.TempDir()
	urls := items(0, 7)
	res := build(t, Options{Dir: dir, MaxURLs: 3, Format: sitemap.FormatText}, urls)
	xsdtest.Check(t, dir)
	var text []string
	for _, f := range res.Files[1:] {
		text = append(text, string(content(t, dir, f.Name)))
	}
	want := ""
	for _, u := range urls {
		want += u.Loc + "\n"
	}
	if got := strings.Join(text, ""); got != want {
		t.Errorf("text children hold\n%s\nwant\n%s", got, want)
	}
	idx := string(content(t, dir, "sitemap.xml"))
	if strings.Contains(idx, "<lastmod>") {
		t.Errorf("index of text children has a lastmod:\n%s", idx)
	}
	if got := locs(readSet(t, dir, base, res)); !slices.Equal(got, wantLocs(urls)) {
		t.Errorf("set reads back as %v", got)
	}
}

func TestIndexLastmod(t *testing.T) {
	dir := t.TempDir()
	u := func(path, lastmod string) sitemap.URL { return sitemap.URL{Loc: base + path, LastMod: lastmod} }
	urls := []sitemap.URL{
		// child 1: a date-only value is midnight UTC, earlier than 2024-05-01T23:00:00-05:00 (04:00Z on the 2nd)
		u("a", "2024-05-01"), u("b", "2024-05-01T23:00:00-05:00"), u("c", "2024-05-02T03:59:59Z"),
		// child 2: +14:00 makes the later-looking string the earlier instant
		u("d", "2024-06-01T10:00:00+14:00"), u("e", "2024-05-31T21:00:00Z"), u("f", "2024-05-31"),
		// child 3: none
		u("g", ""), u("h", ""), u("i", ""),
		// child 4: one
		u("j", ""), u("k", "2023-12-31T23:59:59.5+00:00"), u("l", ""),
	}
	res := build(t, Options{Dir: dir, MaxURLs: 3}, urls)
	xsdtest.Check(t, dir)
	// MaxURLs applies to the index too: 3 entries, then 1 in sitemap-index-2.xml.
	var got []string
	idx := ""
	for _, top := range res.Indexes {
		name := strings.TrimPrefix(top, base)
		entries, _ := readDoc(t, dir, name)
		for _, e := range entries {
			got = append(got, e.LastMod)
		}
		idx += string(content(t, dir, name))
	}
	want := []string{"2024-05-01T23:00:00-05:00", "2024-05-31T21:00:00Z", "", "2023-12-31T23:59:59.5+00:00"}
	if !slices.Equal(got, want) {
		t.Errorf("index lastmods %q, want %q", got, want)
	}
	if n := strings.Count(idx, "<lastmod>"); n != 3 {
		t.Errorf("%d <lastmod> in the index, want 3 (none for the child without):\n%s", n, idx)
	}
	if res.URLs != len(urls) {
		t.Errorf("wrote %d URLs, want %d (refused %v)", res.URLs, len(urls), res.Refused)
	}
}

func TestLaterSameLayout(t *testing.T) {
	for _, tc := range []struct {
		a, b      string
		later, ok bool
	}{
		{"2024-05-02", "2024-05-01", true, true},
		{"2024-05-01T10:00:00+02:00", "2024-05-01T09:00:00+02:00", true, true},
		{"2024-05-01T10:00:00+02:00", "2024-05-01T09:00:00+01:00", false, false},
		{"2024-05-01T10:00:00Z", "2024-05-01T09:00:00+00:00", false, false},
		{"2024-05-01T10:00:00.1Z", "2024-05-01T10:00:00Z", false, false},
		{"2024-05-01", "2024-05-01T00:00:00Z", false, false},
	} {
		later, ok := laterSameLayout(tc.a, tc.b)
		if later != tc.later || ok != tc.ok {
			t.Errorf("laterSameLayout(%s, %s) = %v, %v; want %v, %v", tc.a, tc.b, later, ok, tc.later, tc.ok)
		}
	}
}

func TestRefusalsAndDuplicates(t *testing.T) {
	dir := t.TempDir()
	b, err := New(Options{Dir: dir, Base: base})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cases := []struct {
		u    sitemap.URL
		rule string // "" written, "dup" a duplicate
	}{
		{sitemap.URL{Loc: base + "a"}, ""},
		{sitemap.URL{Loc: "HTTPS://WWW.EXAMPLE.COM:443/a"}, "dup"},
		{sitemap.URL{Loc: base + "ümlat.html&q=name"}, ""},
		{sitemap.URL{Loc: base + "%C3%BCmlat.html&q=name"}, "dup"},
		{sitemap.URL{Loc: "/relative"}, sitemap.RuleRelativeURL},
		{sitemap.URL{Loc: "https://other.example.com/"}, sitemap.RuleURLNotAllowed},
		{sitemap.URL{Loc: "http://www.example.com/"}, sitemap.RuleURLNotAllowed},
		{sitemap.URL{Loc: base + strings.Repeat("x", 2100)}, sitemap.RuleURLTooLong},
		// A bad optional field is left out, the URL kept.
		{sitemap.URL{Loc: base + "d1", LastMod: "2024-05-01T10:00:00"}, "dropped " + sitemap.RuleTimeWithoutZone},
		{sitemap.URL{Loc: base + "d2", LastMod: "yesterday"}, "dropped " + sitemap.RuleInvalidDate},
		{sitemap.URL{Loc: base + "d3", Priority: "2"}, "dropped " + sitemap.RuleInvalidPriority},
		{sitemap.URL{Loc: base + "d4", ChangeFreq: "sometimes", Priority: "0.5"}, "dropped " + sitemap.RuleInvalidChangefreq},
		{sitemap.URL{Loc: base + "b", Images: []sitemap.Image{{Loc: "img.png"}}}, sitemap.RuleRelativeURL},
		// Refused before: not a duplicate now.
		{sitemap.URL{Loc: base + "b", LastMod: "2024-05-01T10:00:00Z", Images: []sitemap.Image{{Loc: "https://cdn.example.net/ü.png"}}}, ""},
		{sitemap.URL{Loc: base + "b"}, "dup"},
		{sitemap.URL{Loc: base + "c", Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.de/c"}}}, ""},
	}
	wantRefused, wantDropped := map[string]int{}, map[string]int{}
	wantDup := 0
	for _, tc := range cases {
		u := tc.u
		err := b.Add(ctx, &u)
		if rule, ok := strings.CutPrefix(tc.rule, "dropped "); ok {
			wantDropped[rule]++
			fd, ok := errors.AsType[*FieldsDropped](err)
			if !ok || len(fd.Violations) != 1 || fd.Violations[0].Rule != rule {
				t.Errorf("Add(%s) = %v, want the URL kept without its %s field", tc.u.Loc, err, rule)
			}
			continue
		}
		switch tc.rule {
		case "", "dup":
			if err != nil {
				t.Errorf("Add(%.60s) = %v, want nil", tc.u.Loc, err)
			}
			if tc.rule == "dup" {
				wantDup++
			}
		default:
			wantRefused[tc.rule]++
			v, ok := errors.AsType[*sitemap.Violation](err)
			if !ok || v.Rule != tc.rule {
				t.Errorf("Add(%.60s) = %v, want a %s violation", tc.u.Loc, err, tc.rule)
			}
		}
		if !reflectEqualURL(u, tc.u) {
			t.Errorf("Add modified its argument: %+v", u)
		}
	}
	res, err := b.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	xsdtest.Check(t, dir)
	if res.Duplicates != wantDup || !maps.Equal(res.Refused, wantRefused) || !maps.Equal(res.Dropped, wantDropped) || res.URLs != 8 {
		t.Errorf("URLs %d, Duplicates %d, Refused %v, Dropped %v; want 8, %d, %v, %v", res.URLs, res.Duplicates, res.Refused, res.Dropped, wantDup, wantRefused, wantDropped)
	}
	got, _ := readDoc(t, dir, "sitemap.xml")
	want := []string{base + "a", base + "%C3%BCmlat.html&q=name", base + "d1", base + "d2", base + "d3", base + "d4", base + "b", base + "c"}
	if !slices.Equal(locs(got), want) {
		t.Errorf("wrote %q, want %q", locs(got), want)
	}
	if len(got) == 8 && (got[2].LastMod != "" || got[4].Priority != "" || got[5].ChangeFreq != "" || got[5].Priority != "0.5") {
		t.Errorf("the bad fields were not the only ones left out: %+v", got[2:6])
	}
	if len(got) == 8 && (len(got[6].Images) != 1 || got[6].Images[0].Loc != "https://cdn.example.net/%C3%BC.png") {
		t.Errorf("image not normalised: %+v", got[6].Images)
	}
}

func reflectEqualURL(a, b sitemap.URL) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestNoDedupe(t *testing.T) {
	dir := t.TempDir()
	urls := append(items(0, 3), items(0, 3)...)
	res := build(t, Options{Dir: dir, NoDedupe: true}, urls)
	if res.URLs != 6 || res.Duplicates != 0 {
		t.Errorf("URLs %d Duplicates %d, want 6 and 0", res.URLs, res.Duplicates)
	}
	res = build(t, Options{Dir: dir}, urls)
	if res.URLs != 3 || res.Duplicates != 3 {
		t.Errorf("URLs %d Duplicates %d, want 3 and 3", res.URLs, res.Duplicates)
	}
}

func TestScope(t *testing.T) {
	dir := t.TempDir()
	b, err := New(Options{Dir: dir, Base: "https://www.example.com", PublicURL: "https://www.example.com/shop"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.Add(ctx, &sitemap.URL{Loc: "https://www.example.com/shop/a"}); err != nil {
		t.Error(err)
	}
	err = b.Add(ctx, &sitemap.URL{Loc: "https://www.example.com/blog/a"})
	if v, ok := errors.AsType[*sitemap.Violation](err); !ok || v.Rule != sitemap.RuleOutsideDirectory {
		t.Errorf("URL outside PublicURL's directory: %v", err)
	}
	res, err := b.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://www.example.com/shop/sitemap.xml"}; !slices.Equal(res.Indexes, want) {
		t.Errorf("Indexes = %v, want %v", res.Indexes, want)
	}

	// On another host (cross-submission), the scope is Base's.
	b, err = New(Options{Dir: dir, Base: base, PublicURL: "https://sitemaps.example.net/www/", Index: IndexAlways})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add(ctx, &sitemap.URL{Loc: base + "blog/a"}); err != nil {
		t.Error(err)
	}
	if res, err = b.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	if got := readSet(t, dir, "https://sitemaps.example.net/www/", res); len(got) != 1 {
		t.Errorf("read %d URLs, want 1", len(got))
	}
}

func TestOptionErrors(t *testing.T) {
	dir := t.TempDir()
	for _, o := range []Options{
		{Base: base},
		{Dir: dir},
		{Dir: dir, Base: "www.example.com"},
		{Dir: dir, Base: "ftp://www.example.com/"},
		{Dir: dir, Base: base, Name: "a/b"},
		{Dir: dir, Base: base, Name: "a.b"},
		{Dir: dir, Base: base, MaxURLs: sitemap.MaxURLs + 1},
		{Dir: dir, Base: base, MaxBytes: sitemap.MaxBytes + 1},
		{Dir: dir, Base: base, Format: sitemap.FormatIndex},
		{Dir: dir, Base: base, Index: 7},
	} {
		if b, err := New(o); err == nil {
			b.Abort()
			t.Errorf("New(%+v) succeeded", o)
		}
	}
}

func TestEmptySetPublishesNothing(t *testing.T) {
	dir := t.TempDir()
	build(t, Options{Dir: dir}, items(0, 3))
	before := snapshot(t, dir)
	_, err := tryBuild(t, Options{Dir: dir}, []sitemap.URL{{Loc: "/refused"}})
	if !errors.Is(err, ErrEmpty) {
		t.Errorf("err = %v, want ErrEmpty", err)
	}
	assertSame(t, before, snapshot(t, dir))
}

// fileState is what a test compares of a file: its bytes and mtime.
type fileState struct {
	sum   [32]byte
	mtime time.Time
}

func snapshot(t testing.TB, dir string) map[string]fileState {
	t.Helper()
	m := map[string]fileState{}
	for _, n := range listDir(t, dir) {
		p := filepath.Join(dir, n)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.IsDir() {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m[n] = fileState{sha256.Sum256(data), st.ModTime()}
	}
	return m
}

func assertSame(t testing.TB, before, after map[string]fileState) {
	t.Helper()
	for n, s := range before {
		a, ok := after[n]
		switch {
		case !ok:
			t.Errorf("%s was removed", n)
		case a.sum != s.sum:
			t.Errorf("%s was changed", n)
		case !a.mtime.Equal(s.mtime):
			t.Errorf("%s was rewritten", n)
		}
	}
	for n := range after {
		if _, ok := before[n]; !ok {
			t.Errorf("%s appeared", n)
		}
	}
}

func TestRepublish(t *testing.T) {
	dir := t.TempDir()
	foreign := map[string]string{
		"index.html":             "<html></html>",
		"sitemap-old.xml":        "not ours",
		"sitemap-9-deadbeef.xml": "looks like ours, is not in the manifest",
		"robots.txt":             "Sitemap: " + base + "sitemap.xml\n",
	}
	for n, c := range foreign {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	urls := items(0, 40)
	opts := Options{Dir: dir, MaxURLs: 10, Gzip: true}
	first := build(t, opts, urls)
	before := snapshot(t, dir)
	time.Sleep(20 * time.Millisecond) // so that a rewrite would show in mtimes

	// Change child 3 only (URLs 20-29).
	urls[25].LastMod = "2025-01-01"
	second := build(t, opts, urls)
	after := snapshot(t, dir)
	xsdtest.Check(t, filepath.Join(dir, "sitemap.xml"))
	for _, f := range second.Files {
		if !strings.HasSuffix(f.Name, ".gz") {
			continue
		}
		xsdtest.Check(t, filepath.Join(dir, f.Name))
	}

	for i := 1; i <= 4; i++ {
		o, n := first.Files[i], second.Files[i]
		if i == 3 {
			if o.Name == n.Name {
				t.Errorf("child 3 changed but kept its name %s", n.Name)
			}
			if _, ok := after[o.Name]; ok {
				t.Errorf("old child 3 %s not removed", o.Name)
			}
			continue
		}
		if o.Name != n.Name || !n.Kept {
			t.Errorf("unchanged child %d: %s then %s (kept %v)", i, o.Name, n.Name, n.Kept)
		}
		if before[o.Name] != after[n.Name] {
			t.Errorf("unchanged child %s was rewritten", n.Name)
		}
	}
	for n, c := range foreign {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || string(data) != c {
			t.Errorf("foreign file %s: %q, %v", n, data, err)
		}
	}
	if got := locs(readSet(t, dir, base, second)); !slices.Equal(got, wantLocs(urls)) {
		t.Errorf("set reads back wrong")
	}

	// The same input a third time changes nothing at all.
	third := build(t, opts, urls)
	assertSame(t, after, snapshot(t, dir))
	for _, f := range third.Files {
		if !f.Kept {
			t.Errorf("%s not kept on an unchanged run", f.Name)
		}
	}

	// A single-file set replaces the index; every child goes.
	build(t, Options{Dir: dir}, items(0, 3))
	var left []string
	for _, n := range listDir(t, dir) {
		if _, ok := foreign[n]; !ok && !strings.HasPrefix(n, ".sitemapkit-manifest-") {
			left = append(left, n)
		}
	}
	if !slices.Equal(left, []string{"sitemap.xml"}) {
		t.Errorf("after shrinking to one file, folder holds %v", left)
	}
}

// makeUnwritable stops file creation in dir, even for root (chattr +i).
func makeUnwritable(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
			t.Skipf("cannot make a folder unwritable as root: chattr: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
	} else {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	if f, err := os.CreateTemp(dir, "probe"); err == nil {
		f.Close()
		os.Remove(f.Name())
		t.Skip("the folder is still writable")
	}
}

func TestFailuresLeaveOldSet(t *testing.T) {
	setup := func(t *testing.T) (string, map[string]fileState) {
		dir := t.TempDir()
		build(t, Options{Dir: dir, MaxURLs: 100, Gzip: true}, items(0, 250))
		if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("site"), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir, snapshot(t, dir)
	}
	many := items(1000, 60000)

	t.Run("ctx cancelled during Add", func(t *testing.T) {
		dir, before := setup(t)
		b, err := New(Options{Dir: dir, Base: base, MaxURLs: 1000, Gzip: true})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var addErr error
		for i := range many {
			if i == 30000 {
				cancel()
			}
			if addErr = b.Add(ctx, &many[i]); addErr != nil {
				break
			}
		}
		if !errors.Is(addErr, context.Canceled) {
			t.Errorf("Add after cancel = %v, want context.Canceled", addErr)
		}
		if _, err := b.Publish(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Publish = %v, want context.Canceled", err)
		}
		assertSame(t, before, snapshot(t, dir))
	})
	t.Run("ctx cancelled before Publish", func(t *testing.T) {
		dir, before := setup(t)
		b, err := New(Options{Dir: dir, Base: base, MaxURLs: 1000, Gzip: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 5000 {
			if err := b.Add(context.Background(), &many[i]); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := b.Publish(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Publish = %v, want context.Canceled", err)
		}
		assertSame(t, before, snapshot(t, dir))
	})
	t.Run("unwritable folder", func(t *testing.T) {
		dir, before := setup(t)
		b, err := New(Options{Dir: dir, Base: base, MaxURLs: 1000, Gzip: true})
		if err != nil {
			t.Fatal(err)
		}
		makeUnwritable(t, dir)
		var addErr error
		for i := range many {
			if addErr = b.Add(context.Background(), &many[i]); addErr != nil {
				break
			}
		}
		_, err = b.Publish(context.Background())
		if err == nil {
			t.Fatal("Publish into an unwritable folder succeeded")
		}
		if addErr != nil && !errors.Is(err, addErr) && err.Error() != addErr.Error() {
			t.Errorf("Publish = %v, Add = %v: want the same error", err, addErr)
		}
		assertSame(t, before, snapshot(t, dir))
	})
	t.Run("IndexNever overflow", func(t *testing.T) {
		dir, before := setup(t)
		b, err := New(Options{Dir: dir, Base: base, MaxURLs: 1000, Index: IndexNever})
		if err != nil {
			t.Fatal(err)
		}
		var addErr error
		for i := range 1001 {
			if addErr = b.Add(context.Background(), &many[i]); addErr != nil {
				break
			}
		}
		if !errors.Is(addErr, ErrNeedsIndex) {
			t.Errorf("Add = %v, want ErrNeedsIndex", addErr)
		}
		if _, err := b.Publish(context.Background()); !errors.Is(err, ErrNeedsIndex) {
			t.Errorf("Publish = %v, want ErrNeedsIndex", err)
		}
		assertSame(t, before, snapshot(t, dir))
	})
	t.Run("Abort", func(t *testing.T) {
		dir, before := setup(t)
		b, err := New(Options{Dir: dir, Base: base, MaxURLs: 1000, Gzip: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 20000 {
			if err := b.Add(context.Background(), &many[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Abort(); err != nil {
			t.Fatal(err)
		}
		if err := b.Abort(); err != nil {
			t.Errorf("second Abort: %v", err)
		}
		if _, err := b.Publish(context.Background()); !errors.Is(err, ErrDone) {
			t.Errorf("Publish after Abort = %v, want ErrDone", err)
		}
		assertSame(t, before, snapshot(t, dir))
	})
}

func TestBusy(t *testing.T) {
	dir := t.TempDir()
	b, err := New(Options{Dir: dir, Base: base})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abort()
	if b2, err := New(Options{Dir: dir, Base: base}); !errors.Is(err, ErrBusy) {
		if err == nil {
			b2.Abort()
		}
		t.Errorf("second Builder on the same folder: %v, want ErrBusy", err)
	}
}

func TestLeftoversRemoved(t *testing.T) {
	dir := t.TempDir()
	left := filepath.Join(dir, tempPrefix+"sitemap.12345")
	if err := os.WriteFile(left, []byte("half a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	build(t, Options{Dir: dir}, items(0, 2))
	if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("leftover temp file still there: %v", err)
	}
}

// TestRealLimit fills one child to the real 52,428,800 bytes: the next URL
// starts child 2, and child 1 is exactly at the limit.
func TestRealLimit(t *testing.T) {
	longtest.Skip(t, "writes 50 MB")
	dir := t.TempDir()
	b, err := New(Options{Dir: dir, Base: base})
	if err != nil {
		t.Fatal(err)
	}
	// 49,000 entries (under MaxURLs) padded to fill the file exactly.
	one := docLen(t, sitemap.FormatURLSet, []sitemap.URL{{Loc: base + "p"}})
	empty := one - int64(len("<url><loc>"+base+"p</loc></url>\n"))
	entry := func(i int, size int) sitemap.URL {
		s := strconv.Itoa(i) + "-"
		pad := size - len("<url><loc>"+base+"</loc></url>\n") - len(s)
		return sitemap.URL{Loc: base + s + strings.Repeat("x", pad)}
	}
	room := sitemap.MaxBytes - empty
	n := 49000
	each, rest := int(room)/n, int(room)%n
	ctx := context.Background()
	for i := range n {
		size := each
		if i >= n-rest {
			size++
		}
		u := entry(i, size)
		if err := b.Add(ctx, &u); err != nil {
			t.Fatal(err)
		}
	}
	last := entry(n, 200)
	if err := b.Add(ctx, &last); err != nil {
		t.Fatal(err)
	}
	res, err := b.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 3 || res.Files[1].Bytes != sitemap.MaxBytes || res.Files[1].Entries != n || res.Files[2].Entries != 1 {
		t.Fatalf("files %+v; want child 1 at exactly %d bytes with %d URLs, child 2 with 1", res.Files, sitemap.MaxBytes, n)
	}
	if st, err := os.Stat(filepath.Join(dir, res.Files[1].Name)); err != nil || st.Size() != sitemap.MaxBytes {
		t.Errorf("child 1 on disk: %v, %v", st, err)
	}
	xsdtest.Check(t, dir)
}

// TestStaleRemovalFailureIsAWarning: a stale file that cannot be removed
// does not fail the publication; it is reported, kept pending in the
// manifest, and removed by a later run.
func TestStaleRemovalFailureIsAWarning(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs chattr (root) to make one file unremovable")
	}
	dir := t.TempDir()
	opts := Options{Dir: dir, MaxURLs: 10}
	first := build(t, opts, items(0, 20))
	stuck := filepath.Join(dir, first.Files[1].Name)
	if out, err := exec.Command("chattr", "+i", stuck).CombinedOutput(); err != nil {
		t.Skipf("chattr: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", stuck).Run() })
	second := build(t, opts, items(100, 120))
	if len(second.Warnings) != 1 || !strings.Contains(second.Warnings[0], first.Files[1].Name) {
		t.Errorf("Warnings = %q, want one naming %s", second.Warnings, first.Files[1].Name)
	}
	if _, err := os.Stat(stuck); err != nil {
		t.Fatal(err)
	}
	if got := locs(readSet(t, dir, base, second)); !slices.Equal(got, locs(items(100, 120))) {
		t.Error("the new set does not read back")
	}
	exec.Command("chattr", "-i", stuck).Run()
	third := build(t, opts, items(100, 120))
	if len(third.Warnings) != 0 {
		t.Errorf("Warnings = %q", third.Warnings)
	}
	if _, err := os.Stat(stuck); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale file is still there after a later run: %v", err)
	}
}

// TestNewsLimit: at most 1,000 URLs carrying news per file, whatever
// MaxURLs says.
func TestNewsLimit(t *testing.T) {
	dir := t.TempDir()
	var urls []sitemap.URL
	for i := range 1003 {
		u := sitemap.URL{Loc: base + "news/" + strconv.Itoa(i), News: &sitemap.News{
			Publication:     sitemap.Publication{Name: "The Example Times", Language: "en"},
			PublicationDate: "2024-05-01T10:00:00+00:00",
			Title:           "Story " + strconv.Itoa(i),
		}}
		urls = append(urls, u)
		if i == 1001 {
			urls = append(urls, item(1))
		}
	}
	res := build(t, Options{Dir: dir}, urls)
	xsdtest.Check(t, dir)
	var entries []int
	for _, f := range res.Files[1:] {
		entries = append(entries, f.Entries)
		if n := bytes.Count(content(t, dir, f.Name), []byte("<news:news>")); n > sitemap.MaxNews {
			t.Errorf("%s: %d news URLs", f.Name, n)
		}
	}
	if want := []int{1000, 4}; !slices.Equal(entries, want) {
		t.Errorf("children hold %v URLs, want %v", entries, want)
	}
}

// TestExtensionURLsNormalised: image, video and alternate URLs are
// normalised like locs, and may be on other hosts; so are the optional ones
// (an image's license, a video's gallery and uploader page), which were
// refused as IRIs while the others were escaped.
func TestExtensionURLsNormalised(t *testing.T) {
	dir := t.TempDir()
	uploader := &sitemap.Uploader{Name: "Ünal", Info: base + "über uns"}
	in := sitemap.URL{
		Loc:    base + "v",
		Images: []sitemap.Image{{Loc: "https://CDN.example.net/a b.png", License: base + "lizenz/ü"}, {Loc: "https://cdn.example.net/ok.png"}},
		Videos: []sitemap.Video{{
			ThumbnailLoc: "https://bücher.example/t.jpg",
			Title:        "A video", Description: "About it",
			ContentLoc: "https://media.example.net:443/v.mp4",
			GalleryLoc: "https://WWW.example.com/galerie/ü",
			Uploader:   uploader,
		}},
		Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.de/ümlaut"}, {Hreflang: "x-default", Href: base + "v"}},
	}
	keep := fmt.Sprint(in)
	res := build(t, Options{Dir: dir}, []sitemap.URL{in})
	if fmt.Sprint(in) != keep || in.Videos[0].Uploader != uploader || *uploader != (sitemap.Uploader{Name: "Ünal", Info: base + "über uns"}) {
		t.Error("Add changed the caller's URL")
	}
	if res.Refused[sitemap.RuleImage]+res.Refused[sitemap.RuleVideo] != 0 || res.URLs != 1 {
		t.Fatalf("refused %v, published %d URLs; want the URL published", res.Refused, res.URLs)
	}
	xsdtest.Check(t, dir)
	got, _ := readDoc(t, dir, res.Files[0].Name)
	if len(got) != 1 {
		t.Fatalf("read %d URLs", len(got))
	}
	u := got[0]
	for _, c := range []struct{ got, want string }{
		{u.Images[0].Loc, "https://cdn.example.net/a%20b.png"},
		{u.Images[0].License, base + "lizenz/%C3%BC"},
		{u.Videos[0].GalleryLoc, base + "galerie/%C3%BC"},
		{u.Videos[0].Uploader.Info, base + "%C3%BCber%20uns"},
		{u.Images[1].Loc, "https://cdn.example.net/ok.png"},
		{u.Videos[0].ThumbnailLoc, "https://xn--bcher-kva.example/t.jpg"},
		{u.Videos[0].ContentLoc, "https://media.example.net/v.mp4"},
		{u.Alternates[0].Href, "https://www.example.de/%C3%BCmlaut"},
		{u.Alternates[1].Href, base + "v"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

// TestFilesReadableByAll checks that every published file, index and
// children alike, can be read by a web server running as another user.
func TestFilesReadableByAll(t *testing.T) {
	dir := t.TempDir()
	res := build(t, Options{Dir: dir, MaxURLs: 10, Gzip: true}, items(0, 25))
	for _, f := range res.Files {
		fi, err := os.Stat(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o044 != 0o044 {
			t.Errorf("%s has mode %v: group and others cannot read it", f.Name, fi.Mode().Perm())
		}
	}
}

// A run that fails or is abandoned leaves no folder it made: a bad
// source found after New must not leave an empty --out behind (and its
// parents, when New made them too). A folder that was there stays.
func TestFailedRunLeavesNoNewFolder(t *testing.T) {
	root := t.TempDir()
	for _, end := range []string{"abort", "empty", "cancelled"} {
		dir := filepath.Join(root, end, "a", "b")
		b, err := New(Options{Dir: dir, Base: base})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("%s: New did not make the folder: %v", end, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		switch end {
		case "abort":
			u := item(1)
			if err := b.Add(ctx, &u); err != nil {
				t.Fatal(err)
			}
			b.Abort()
		case "empty":
			if _, err := b.Publish(ctx); !errors.Is(err, ErrEmpty) {
				t.Fatalf("%s: %v", end, err)
			}
		case "cancelled":
			u := item(1)
			if err := b.Add(ctx, &u); err != nil {
				t.Fatal(err)
			}
			cancel()
			if _, err := b.Publish(ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: %v", end, err)
			}
		}
		cancel()
		if _, err := os.Stat(filepath.Join(root, end)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the folders New made are still there (%v)", end, err)
		}
	}
	// A folder that existed is left, even empty.
	dir := t.TempDir()
	b, err := New(Options{Dir: dir, Base: base})
	if err != nil {
		t.Fatal(err)
	}
	b.Abort()
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}
