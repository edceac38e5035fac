package publish

import (
	"bytes"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// The plan step is a pure function of the finished children, the previous
// manifest and the folder's state: these tests give it each and check the
// publication it decides, with no file written or read.

var testLayout = layout{dir: "/out", name: "sitemap", ext: ".xml", publicURL: base,
	index: IndexAuto, maxURLs: sitemap.MaxURLs, maxBytes: sitemap.MaxBytes}

// kid returns a finished child of group g, number n in it, whose content
// has checksum sum.
func kid(g string, n int, sum uint32) *child {
	return &child{n: n, group: g, gn: n, entries: 10 * n, latest: "2024-05-0" + string(rune('0'+n)),
		tmp: "/out/.sitemapkit-tmp-sitemap.child" + string(rune('0'+n)), gzip: true, raw: 1000 + int64(n), disk: 100 + int64(n), sum: sum}
}

// folder is the state of a folder, by file name; a name it lacks is missing.
type folder map[string]onDisk

func (d folder) state(name string) onDisk { return d[name] }

// published returns the folder as p leaves it: each file of the new set
// with its size on disk.
func published(p *publication) folder {
	d := folder{}
	for _, f := range p.files() {
		d[f.Name] = onDisk{exists: true, regular: true, size: f.disk}
	}
	return d
}

func mustPlan(t *testing.T, l layout, children []*child, old *manifest, d folder) *publication {
	t.Helper()
	p, err := plan(l, children, old, d.state)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// actions returns "name:action" for every file of p, index files first.
func actions(p *publication) []string {
	var s []string
	for _, f := range p.files() {
		s = append(s, f.Name+":"+[]string{"keep", "create", "replace"}[f.action])
	}
	return s
}

func recordNames(fs []manifestFile) []string {
	var s []string
	for _, f := range fs {
		s = append(s, f.Name)
	}
	return s
}

func TestPlanFirstRun(t *testing.T) {
	p := mustPlan(t, testLayout, []*child{kid("", 1, 0xa), kid("", 2, 0xb), kid("", 3, 0xc)}, &manifest{}, folder{})
	want := []string{"sitemap.xml:replace", "sitemap-1-0000000a.xml.gz:create", "sitemap-2-0000000b.xml.gz:create", "sitemap-3-0000000c.xml.gz:create"}
	if got := actions(p); !slices.Equal(got, want) {
		t.Fatalf("actions %v, want %v", got, want)
	}
	idx := p.indexes[0]
	for _, c := range p.children {
		if !bytes.Contains(idx.doc, []byte("<loc>"+base+c.Name+"</loc>")) {
			t.Errorf("the index does not name %s:\n%s", c.Name, idx.doc)
		}
		if c.Kept || c.GzipBytes != c.disk {
			t.Errorf("%+v", c.File)
		}
	}
	if idx.Entries != 3 || idx.Bytes != int64(len(idx.doc)) || !idx.Index {
		t.Errorf("index %+v", idx.File)
	}
	// Every file is new: the manifest announces them all before they appear.
	names := recordNames(p.next.Files)
	if p.announce == nil || !slices.Equal(recordNames(p.announce.Pending), names) || len(p.announce.Files) != 0 {
		t.Errorf("announce %+v, want the 4 files pending", p.announce)
	}
	if !p.rewrite || len(p.next.Pending) != 0 {
		t.Errorf("next %+v, rewrite %v", p.next, p.rewrite)
	}
	if r := p.next.Files[2]; r.Entries != 20 || r.Bytes != 1002 || r.Disk != 102 || r.Sum != "0000000b" || r.Index {
		t.Errorf("record of child 2: %+v", r)
	}
	if !slices.Equal(p.tops(), p.indexes) || len(p.inner()) != 3 {
		t.Error("tops are not the index, or inner not the children")
	}
}

func TestPlanUnchangedKeepsEverything(t *testing.T) {
	children := func() []*child { return []*child{kid("", 1, 0xa), kid("", 2, 0xb)} }
	first := mustPlan(t, testLayout, children(), &manifest{}, folder{})
	again := mustPlan(t, testLayout, children(), first.next, published(first))
	for _, f := range again.files() {
		if f.action != keep || !f.Kept {
			t.Errorf("%s: %v, want kept", f.Name, f.action)
		}
	}
	if again.announce != nil || again.rewrite {
		t.Errorf("an unchanged set writes a manifest: announce %v, rewrite %v", again.announce, again.rewrite)
	}
}

func TestPlanOneChildChanged(t *testing.T) {
	first := mustPlan(t, testLayout, []*child{kid("", 1, 0xa), kid("", 2, 0xb), kid("", 3, 0xc)}, &manifest{}, folder{})
	p := mustPlan(t, testLayout, []*child{kid("", 1, 0xa), kid("", 2, 0xbb), kid("", 3, 0xc)}, first.next, published(first))
	want := []string{"sitemap.xml:replace", "sitemap-1-0000000a.xml.gz:keep", "sitemap-2-000000bb.xml.gz:create", "sitemap-3-0000000c.xml.gz:keep"}
	if got := actions(p); !slices.Equal(got, want) {
		t.Fatalf("actions %v, want %v", got, want)
	}
	if got := recordNames(p.announce.Pending); !slices.Equal(got, []string{"sitemap-2-000000bb.xml.gz"}) {
		t.Errorf("announced %v, want the new child only", got)
	}
	if got := recordNames(p.next.Pending); !slices.Equal(got, []string{"sitemap-2-0000000b.xml.gz"}) {
		t.Errorf("retired %v, want the old child 2", got)
	}
	if !p.rewrite {
		t.Error("the manifest is not rewritten")
	}
}

func TestPlanShrinkToSingle(t *testing.T) {
	first := mustPlan(t, testLayout, []*child{kid("", 1, 0xa), kid("", 2, 0xb)}, &manifest{}, folder{})
	one := kid("", 1, 0xc)
	one.gzip = false
	p := mustPlan(t, testLayout, []*child{one}, first.next, published(first))
	if !p.single || len(p.indexes) != 0 {
		t.Fatalf("single %v, indexes %d", p.single, len(p.indexes))
	}
	if got := actions(p); !slices.Equal(got, []string{"sitemap.xml:replace"}) {
		t.Errorf("actions %v", got)
	}
	if len(p.inner()) != 0 || p.tops()[0] != p.children[0] {
		t.Error("the single file is not the top")
	}
	if got := recordNames(p.next.Pending); !slices.Equal(got, []string{"sitemap-1-0000000a.xml.gz", "sitemap-2-0000000b.xml.gz"}) {
		t.Errorf("retired %v, want both old children and not sitemap.xml", got)
	}
}

func TestPlanSingleOrIndex(t *testing.T) {
	plain := func() *child { c := kid("", 1, 0xa); c.gzip = false; return c }
	for _, tc := range []struct {
		name  string
		index IndexMode
		c     *child
		want  []string
	}{
		{"auto", IndexAuto, plain(), []string{"sitemap.xml"}},
		// Gzipped already: a second child was begun, for a URL then refused.
		{"auto, gzipped", IndexAuto, kid("", 1, 0xa), []string{"sitemap.xml", "sitemap-1-0000000a.xml.gz"}},
		{"always", IndexAlways, plain(), []string{"sitemap.xml", "sitemap-1-0000000a.xml"}},
		{"never, gzip", IndexNever, kid("", 1, 0xa), []string{"sitemap.xml.gz"}},
		{"a group alone", IndexAuto, kid("blog", 1, 0xa), []string{"sitemap.xml", "blog-1-0000000a.xml.gz"}},
	} {
		l := testLayout
		l.index = tc.index
		p := mustPlan(t, l, []*child{tc.c}, &manifest{}, folder{})
		if got := recordNames(p.next.Files); !slices.Equal(got, tc.want) {
			t.Errorf("%s: files %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPlanGroupsAndIndexFiles(t *testing.T) {
	l := testLayout
	l.ext, l.maxURLs = ".txt", 2
	p := mustPlan(t, l, []*child{kid("", 1, 1), kid("products", 1, 2), kid("products", 2, 3)}, &manifest{}, folder{})
	want := []string{"sitemap.xml", "sitemap-index-2.xml", "sitemap-1-00000001.txt.gz", "products-1-00000002.txt.gz", "products-2-00000003.txt.gz"}
	if got := recordNames(p.next.Files); !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	if p.indexes[0].Entries != 2 || p.indexes[1].Entries != 1 || p.children[2].Group != "products" {
		t.Errorf("index entries %d, %d; group %q", p.indexes[0].Entries, p.indexes[1].Entries, p.children[2].Group)
	}
	if !bytes.Contains(p.indexes[1].doc, []byte(base+"products-2-00000003.txt.gz")) {
		t.Errorf("the second index file does not name the third child:\n%s", p.indexes[1].doc)
	}
}

// A child's name taken by a file with other content is an error: a
// published file is never overwritten. A file of the right size that the
// manifest does not know (a lost manifest) is taken for the child.
func TestPlanNameTaken(t *testing.T) {
	name := "sitemap-1-0000000a.xml.gz"
	children := func() []*child { return []*child{kid("", 1, 0xa), kid("", 2, 0xb)} }
	record := manifestFile{Name: name, Bytes: 1001, Disk: 101, Sum: "0000000a"}
	for _, tc := range []struct {
		what string
		old  *manifest
		st   onDisk
		keep bool // else an error
	}{
		{"unknown, other size", &manifest{}, onDisk{exists: true, regular: true, size: 7}, false},
		{"unknown, same size", &manifest{}, onDisk{exists: true, regular: true, size: 101}, true},
		{"a folder", &manifest{}, onDisk{exists: true, size: 101}, false},
		{"unreadable", &manifest{}, onDisk{err: fs.ErrPermission}, false},
		{"known", &manifest{Files: []manifestFile{record}}, onDisk{exists: true, regular: true, size: 101}, true},
		{"known, size changed on disk", &manifest{Files: []manifestFile{record}}, onDisk{exists: true, regular: true, size: 102}, false},
	} {
		p, err := plan(testLayout, children(), tc.old, folder{name: tc.st}.state)
		switch {
		case tc.keep && err != nil:
			t.Errorf("%s: %v", tc.what, err)
		case tc.keep && p.children[0].action != keep:
			t.Errorf("%s: %v, want keep", tc.what, p.children[0].action)
		case !tc.keep && err == nil:
			t.Errorf("%s: planned %v, want an error", tc.what, actions(p))
		case !tc.keep && tc.st.err == nil && !strings.Contains(err.Error(), "/out/"+name+" exists with other content"):
			t.Errorf("%s: %v", tc.what, err)
		case !tc.keep && tc.st.err != nil && !errors.Is(err, fs.ErrPermission):
			t.Errorf("%s: %v", tc.what, err)
		}
	}
}

// An index file is replaced unless the manifest says the file under its
// name holds its content; a file the manifest does not know is replaced.
func TestPlanIndexReplacedUnlessKnown(t *testing.T) {
	children := func() []*child { return []*child{kid("", 1, 0xa), kid("", 2, 0xb)} }
	first := mustPlan(t, testLayout, children(), &manifest{}, folder{})
	d := published(first)
	if p := mustPlan(t, testLayout, children(), &manifest{}, d); p.indexes[0].action != replace {
		t.Error("an index file the manifest does not know is kept")
	}
	d["sitemap.xml"] = onDisk{exists: true, regular: true, size: 3}
	if p := mustPlan(t, testLayout, children(), first.next, d); p.indexes[0].action != replace {
		t.Error("an index file whose size changed on disk is kept")
	}
}

// Only files of the set's name shapes are retired, each once, whether the
// old manifest lists them as published or pending.
func TestPlanRetiresOnlyOwnNames(t *testing.T) {
	old := &manifest{Version: 1, Name: "sitemap",
		Files: []manifestFile{
			{Name: "sitemap.xml", Index: true},
			{Name: "sitemap-9-deadbeef.xml.gz"},
			{Name: "index.html"},
			{Name: "sitemap-old.xml"},
			{Name: "blog-1-0000000f.xml.gz", Group: "blog"},
			{Name: "../etc-1-0000000f.xml", Group: "../etc"},
		},
		Pending: []manifestFile{{Name: "sitemap-9-deadbeef.xml.gz"}, {Name: "sitemap-8-deadbeef.xml.gz"}},
	}
	p := mustPlan(t, testLayout, []*child{kid("", 1, 0xa), kid("", 2, 0xb)}, old, folder{})
	want := []string{"sitemap-9-deadbeef.xml.gz", "blog-1-0000000f.xml.gz", "sitemap-8-deadbeef.xml.gz"}
	if got := recordNames(p.next.Pending); !slices.Equal(got, want) {
		t.Errorf("retired %v, want %v", got, want)
	}
	// The announcement keeps what the old manifest knew.
	if !slices.Equal(p.announce.Files, old.Files) || !slices.Equal(p.announce.Pending[:2], old.Pending) {
		t.Errorf("announce %+v", p.announce)
	}
}

// A manifest written before entries were recorded keeps every file, and is
// rewritten once, with them.
func TestPlanOldManifestWithoutEntries(t *testing.T) {
	children := func() []*child { return []*child{kid("", 1, 0xa), kid("", 2, 0xb)} }
	first := mustPlan(t, testLayout, children(), &manifest{}, folder{})
	old := &manifest{Version: 1, Name: "sitemap", Files: slices.Clone(first.next.Files)}
	for i := range old.Files {
		old.Files[i].Entries = 0
	}
	p := mustPlan(t, testLayout, children(), old, published(first))
	for _, f := range p.files() {
		if f.action != keep {
			t.Errorf("%s: %v, want keep", f.Name, f.action)
		}
	}
	if !p.rewrite || p.announce != nil || p.next.Files[1].Entries != 10 {
		t.Errorf("rewrite %v, announce %v, entries %d", p.rewrite, p.announce, p.next.Files[1].Entries)
	}
}
