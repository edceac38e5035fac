package publish

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	m, err := readManifest(filepath.Join(dir, manifestName("sitemap")))
	if err != nil || len(m.Files) != 0 {
		t.Fatalf("missing manifest: %+v, %v; want empty, nil", m, err)
	}
	want := &manifest{Version: 1, Name: "sitemap",
		Files:   []manifestFile{{Name: "sitemap.xml", Bytes: 10, Disk: 10, Sum: "0123456789abcdef", Index: true}},
		Pending: []manifestFile{{Name: "sitemap-1-01234567.xml", Bytes: 5, Disk: 5, Sum: "0123456700000000"}}}
	if err := writeManifest(filepath.Join(dir, manifestName("sitemap")), ".sitemapkit-tmp-sitemap.", want); err != nil {
		t.Fatal(err)
	}
	got, err := readManifest(filepath.Join(dir, manifestName("sitemap")))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Files, want.Files) || !slices.Equal(got.Pending, want.Pending) {
		t.Errorf("read back %+v, want %+v", got, want)
	}
	if _, ok := got.find("sitemap-1-01234567.xml"); !ok {
		t.Error("find misses a pending file")
	}
	// Another set's manifest is another file.
	if other, _ := readManifest(filepath.Join(dir, manifestName("news"))); len(other.Files) != 0 {
		t.Errorf("set news sees set sitemap's manifest")
	}
	if err := os.WriteFile(filepath.Join(dir, manifestName("sitemap")), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err := readManifest(filepath.Join(dir, manifestName("sitemap"))); err == nil || len(m.Files) != 0 {
		t.Errorf("damaged manifest: %+v, %v; want empty and an error", m, err)
	}
}

// oldManifest is a manifest as sitemapkit wrote it before entries were
// recorded.
const oldManifest = `{
	"version": 1,
	"name": "sitemap",
	"files": [
		{"name": "sitemap.xml", "bytes": 310, "disk": 310, "sum": "5d1bc8a2", "index": true},
		{"name": "blog-1-3fa2c19b.xml.gz", "bytes": 9000, "disk": 812, "sum": "3fa2c19b", "group": "blog"}
	],
	"pending": [
		{"name": "sitemap-2-88d01e7a.xml.gz", "bytes": 5, "disk": 5, "sum": "88d01e7a"}
	]
}
`

func TestManifestReadsOldFormat(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, manifestName("sitemap")), []byte(oldManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := readManifest(filepath.Join(dir, manifestName("sitemap")))
	if err != nil {
		t.Fatal(err)
	}
	want := []manifestFile{
		{Name: "sitemap.xml", Bytes: 310, Disk: 310, Sum: "5d1bc8a2", Index: true},
		{Name: "blog-1-3fa2c19b.xml.gz", Bytes: 9000, Disk: 812, Sum: "3fa2c19b", Group: "blog"},
	}
	if !slices.Equal(m.Files, want) || len(m.Pending) != 1 || m.Pending[0].Sum != "88d01e7a" {
		t.Errorf("read %+v", m)
	}
}

// A set published under a manifest of the old format is kept as it is by a
// run with the same URLs, which then records the entries.
func TestRepublishOverOldManifest(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, MaxURLs: 10, Gzip: true}
	urls := items(0, 25)
	build(t, opts, urls)
	// Rewrite the manifest as the old format had it: no entries.
	path := filepath.Join(dir, manifestName("sitemap"))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, f := range raw["files"].([]any) {
		delete(f.(map[string]any), "entries")
	}
	if data, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	delete(before, manifestName("sitemap"))
	time.Sleep(20 * time.Millisecond) // so that a rewrite would show in mtimes

	res := build(t, opts, urls)
	after := snapshot(t, dir)
	delete(after, manifestName("sitemap"))
	assertSame(t, before, after)
	for _, f := range res.Files {
		if !f.Kept {
			t.Errorf("%s not kept", f.Name)
		}
	}
	m, err := readManifest(filepath.Join(dir, manifestName("sitemap")))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range m.Files {
		if r.Entries != res.Files[i].Entries || r.Entries == 0 {
			t.Errorf("%s: %d entries recorded, want %d", r.Name, r.Entries, res.Files[i].Entries)
		}
	}
}

// A run that fails because a child's name is taken by a file with other
// content (here: a manifest lost, and a child edited by hand) writes
// nothing, and a later run does not remove that file: it was never
// recorded as one of the set's.
func TestNameTakenFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, MaxURLs: 10, Gzip: true}
	urls := items(0, 25)
	first := build(t, opts, urls)
	edited := filepath.Join(dir, first.Files[2].Name)
	if err := os.WriteFile(edited, []byte("edited by hand"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, manifestName("sitemap"))); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)

	_, err := tryBuild(t, opts, urls)
	if err == nil || !strings.Contains(err.Error(), "exists with other content") {
		t.Fatalf("Publish over a taken name: %v, want an error", err)
	}
	assertSame(t, before, snapshot(t, dir))
	assertNoTemps(t, dir)

	build(t, opts, items(100, 125))
	if data, err := os.ReadFile(edited); err != nil || string(data) != "edited by hand" {
		t.Errorf("the file that stopped the failed run: %q, %v", data, err)
	}
}

// A file under a child's name with the child's size but other bytes, and
// no manifest to vouch for it (a user's file, or one left by a failed
// copy), is not adopted as the child: the run fails as for any taken name
// and the file is left as it was. Only the bytes can tell: the name
// carries a checksum, but of the content the file was meant to have.
func TestSameSizeOtherBytesNotAdopted(t *testing.T) {
	urls := items(0, 25)
	for _, gz := range []bool{false, true} {
		// Learn child 2's name and size from a run in another folder.
		refDir := t.TempDir()
		ref := build(t, Options{Dir: refDir, MaxURLs: 10, Gzip: gz}, urls).Files[2]
		st, err := os.Stat(filepath.Join(refDir, ref.Name))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		garbage := bytes.Repeat([]byte("x"), int(st.Size()))
		planted := filepath.Join(dir, ref.Name)
		if err := os.WriteFile(planted, garbage, 0o644); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		_, err = tryBuild(t, Options{Dir: dir, MaxURLs: 10, Gzip: gz}, urls)
		if err == nil || !strings.Contains(err.Error(), "exists with other content") {
			t.Fatalf("gzip %v: Publish over a same-size file: %v, want an error", gz, err)
		}
		assertSame(t, before, snapshot(t, dir))
		assertNoTemps(t, dir)
	}
	// The same bytes are adopted (a set whose manifest was lost).
	dir := t.TempDir()
	first := build(t, Options{Dir: dir, MaxURLs: 10}, urls)
	if err := os.Remove(filepath.Join(dir, manifestName("sitemap"))); err != nil {
		t.Fatal(err)
	}
	res := build(t, Options{Dir: dir, MaxURLs: 10}, urls)
	for i, f := range res.Files {
		if f.Name != first.Files[i].Name || !f.Index && !f.Kept {
			t.Errorf("%s: kept %v, want the same child kept", f.Name, f.Kept)
		}
	}
}

// A file the manifest names but which was changed since (a user's edit,
// another tool) is not the set's any more: when the set no longer needs
// it, it is left in place with a warning, not removed.
func TestChangedFileNotRemoved(t *testing.T) {
	for _, edit := range []struct {
		name string
		f    func(old []byte) []byte
	}{
		{"other size", func(old []byte) []byte { return append(old, "<!-- mine -->"...) }},
		{"same size", func(old []byte) []byte { return bytes.Replace(old, []byte("item-1"), []byte("item-X"), 1) }},
	} {
		dir := t.TempDir()
		opts := Options{Dir: dir, MaxURLs: 10}
		first := build(t, opts, items(0, 25))
		edited := filepath.Join(dir, first.Files[1].Name)
		old, err := os.ReadFile(edited)
		if err != nil {
			t.Fatal(err)
		}
		mine := edit.f(old)
		if bytes.Equal(mine, old) {
			t.Fatalf("%s: the edit changed nothing", edit.name)
		}
		if err := os.WriteFile(edited, mine, 0o644); err != nil {
			t.Fatal(err)
		}
		res := build(t, opts, items(100, 125))
		if data, err := os.ReadFile(edited); err != nil || !bytes.Equal(data, mine) {
			t.Errorf("%s: the edited file was removed or changed (%v)", edit.name, err)
		}
		if !slices.ContainsFunc(res.Warnings, func(w string) bool {
			return strings.Contains(w, filepath.Base(edited)) && strings.Contains(w, "changed")
		}) {
			t.Errorf("%s: warnings %q, want one naming the kept file", edit.name, res.Warnings)
		}
		// It is not the set's any more: the next run leaves it alone too,
		// without warning again.
		res = build(t, opts, items(200, 225))
		if _, err := os.Stat(edited); err != nil {
			t.Errorf("%s: %v", edit.name, err)
		}
		if len(res.Warnings) > 0 {
			t.Errorf("%s: warnings on the next run: %q", edit.name, res.Warnings)
		}
	}
}

// TestManifestElsewhere: with Options.Manifest the manifest is kept there,
// never in Dir; the first run with it takes over the one in Dir (so files
// of the set are still removed and kept as they should be) and removes it;
// Published reads it there.
func TestManifestElsewhere(t *testing.T) {
	dir := t.TempDir()
	mpath := filepath.Join(t.TempDir(), "state", "manifest.json")
	opts := Options{Dir: dir, Base: base, MaxURLs: 10}
	first := build(t, opts, items(0, 25))

	opts.Manifest = mpath
	second := build(t, opts, items(0, 15)) // the third child is gone
	if _, err := os.Stat(filepath.Join(dir, manifestName("sitemap"))); err == nil {
		t.Error("the manifest in Dir is still there after the move")
	}
	m, err := readManifest(mpath)
	if err != nil || len(m.Files) != len(second.Files) {
		t.Fatalf("manifest at %s: %+v, %v; want the %d files of the set", mpath, m, err, len(second.Files))
	}
	for _, f := range first.Files {
		_, err := os.Stat(filepath.Join(dir, f.Name))
		if kept := slices.ContainsFunc(second.Files, func(g File) bool { return g.Name == f.Name }); kept != (err == nil) {
			t.Errorf("%s of the first run: on disk %v, in the second set %v", f.Name, err == nil, kept)
		}
	}
	var entries []string
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		entries = append(entries, de.Name())
	}
	if want := names(second.Files); !sameElements(entries, want) {
		t.Errorf("Dir holds %v, want the set's files alone %v", entries, want)
	}

	files, err := Published(opts)
	if err != nil || len(files) != len(second.Files) || files[0].URL != base+"sitemap.xml" {
		t.Errorf("Published: %+v, %v", files, err)
	}
	if files, _ := Published(Options{Dir: dir, Base: base}); len(files) != 0 {
		t.Errorf("Published without Manifest finds %d files in Dir", len(files))
	}

	for m, want := range map[string]string{
		filepath.Dir(mpath):                     "is a folder",
		filepath.Join(t.TempDir(), "new") + "/": "is a folder",
		filepath.Join(dir, "sitemap.xml"):       "inside the output folder",
		dir:                                     "inside the output folder",
	} {
		o := opts
		o.Manifest = m
		if _, err := New(o); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Manifest %s: %v, want %q", m, err, want)
		}
	}
	// Another set's manifest is refused, not taken over.
	o := opts
	o.Name = "news"
	if _, err := New(o); err == nil || !strings.Contains(err.Error(), `records the set "sitemap", not "news"`) {
		t.Errorf("another set's manifest: %v", err)
	}
}

// TestManifestToggled: a run without Manifest after one with it records
// the set in Dir; the next run with Manifest takes that record, the live
// one, not the older one at Manifest, so that the set it keeps and the
// files it removes are the live set's.
func TestManifestToggled(t *testing.T) {
	dir := t.TempDir()
	mpath := filepath.Join(t.TempDir(), "m.json")
	with := Options{Dir: dir, Base: base, MaxURLs: 3, Manifest: mpath}
	without := with
	without.Manifest = ""
	build(t, with, items(0, 10))
	time.Sleep(10 * time.Millisecond) // distinct modification times
	build(t, without, items(100, 131))
	time.Sleep(10 * time.Millisecond)
	res := build(t, with, items(0, 10))
	want := names(res.Files)
	var got []string
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		got = append(got, de.Name())
	}
	if !sameElements(got, want) {
		t.Errorf("Dir holds %v, want the set's files alone %v", got, want)
	}
	if urls := readSet(t, dir, base, res); len(urls) != 10 {
		t.Errorf("the published set has %d URLs, want 10", len(urls))
	}
}

func sameElements(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
