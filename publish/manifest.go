package publish

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// The manifest lists the files of a published set, so that a later run
// removes only files sitemapkit wrote, and leaves a file whose content has
// not changed as it is. Pending lists files a run was about to put in place
// when it wrote the manifest, or no longer uses: a run killed after
// renaming them leaves them named there, and the next run removes them if
// its own set does not use them.
//
// It is kept beside the set as ".sitemapkit-manifest-NAME.json", or where
// Options.Manifest says. Version 1
// is the only version: fields added since (entries) are optional, so that
// a manifest written before them is still read, and one written now is
// still read by an older sitemapkit.
type manifest struct {
	Version int            `json:"version"`
	Name    string         `json:"name"`
	Files   []manifestFile `json:"files"`
	Pending []manifestFile `json:"pending,omitempty"`
}

// manifestVersion is the only manifest version there is.
const manifestVersion = 1

// A manifestFile is the record of one file of a set: enough to know, in a
// later run, whether a file of that name still holds this content (Sum,
// Bytes, Disk), what it holds (Entries) and which part of the set it
// belongs to (Index, Group).
type manifestFile struct {
	Name    string `json:"name"`
	Bytes   int64  `json:"bytes"`             // uncompressed size
	Disk    int64  `json:"disk"`              // size on disk
	Sum     string `json:"sum"`               // CRC-32C of the uncompressed bytes (8 hex)
	Entries int    `json:"entries,omitempty"` // URLs, or sitemaps for an index; 0 in a manifest written before it was recorded
	Index   bool   `json:"index,omitempty"`   // an index file
	Group   string `json:"group,omitempty"`   // the group of a child file (see Builder.Group)
	LastMod string `json:"lastmod,omitempty"` // a child's <lastmod> in the index, kept with the file (see Options.ChangedAt)
	Digest  string `json:"digest,omitempty"`  // a stable set's child: the digest of its lines, whatever their order (see spool)
}

const manifestPrefix = ".sitemapkit-manifest-"

func manifestName(name string) string { return manifestPrefix + name + ".json" }

// manifestPath is where the manifest of the set o publishes is kept.
func (o Options) manifestPath() string {
	if o.Manifest != "" {
		return o.Manifest
	}
	return filepath.Join(o.Dir, manifestName(o.WithDefaults().Name))
}

// readManifest returns the manifest at path; a missing one is an empty
// manifest. A damaged one is reported, and treated as empty: no file is
// then removed.
func readManifest(path string) (*manifest, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &manifest{}, nil
	}
	if err != nil {
		return &manifest{}, fmt.Errorf("publish: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Version != manifestVersion {
		return &manifest{}, fmt.Errorf("publish: ignoring damaged manifest %s", path)
	}
	return &m, nil
}

// errOtherSet is the error of a Manifest that records another set.
var errOtherSet = errors.New("publish: the manifest is another set's")

// loadManifest reads the manifest of the set o publishes. When
// Options.Manifest moved it out of Dir, a manifest left in Dir is from
// (read when the new place has none yet, as on the first run after the
// move), for the run that writes the manifest at its new place to remove.
func loadManifest(o Options) (m *manifest, from string, err error) {
	name := o.WithDefaults().Name
	m, err = readManifest(o.manifestPath())
	if err == nil && m.Version != 0 && m.Name != name {
		// Two sets given one manifest would take, then remove, each
		// other's files.
		return &manifest{}, "", fmt.Errorf("%w: %s records the set %q, not %q: give each set its own", errOtherSet, o.manifestPath(), m.Name, name)
	}
	if o.Manifest == "" || err != nil {
		return m, "", err
	}
	from = filepath.Join(o.Dir, manifestName(name))
	fi, serr := os.Lstat(from)
	if serr != nil {
		return m, "", err
	}
	// A manifest in Dir beside one at Manifest was written by a run
	// without Manifest since (a run with it removes the one in Dir): it
	// is the record of the set published now.
	if to, serr := os.Lstat(o.Manifest); serr != nil || !fi.ModTime().Before(to.ModTime()) {
		m, err = readManifest(from)
	}
	return m, from, err
}

func writeManifest(path, prefix string, m *manifest) error {
	data, err := json.MarshalIndent(m, "", "\t")
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	// Options.Manifest's folder is made when a manifest is first written
	// there, not before: a dry run makes nothing.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("publish: the manifest cannot be written at %s: %w", path, unwrapPath(err))
	}
	return writeFileAtomic(filepath.Dir(path), filepath.Base(path), prefix, append(data, '\n'), false)
}

// unwrapPath is an OS error without its system call and path, for a
// message that names the path its own way.
func unwrapPath(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}

// find returns the record of name among the published and pending files.
func (m *manifest) find(name string) (manifestFile, bool) {
	for _, l := range [][]manifestFile{m.Files, m.Pending} {
		if i := slices.IndexFunc(l, func(f manifestFile) bool { return f.Name == name }); i >= 0 {
			return l[i], true
		}
	}
	return manifestFile{}, false
}

// holds reports whether the record of name says it holds the content
// whose checksum is sum, of size bytes, and is size disk on disk: the
// check before a published file is left in place.
func (m *manifest) holds(name, sum string, bytes, disk int64) bool {
	r, ok := m.find(name)
	return ok && r.Sum == sum && r.Bytes == bytes && r.Disk == disk
}

// ownName reports whether f could be a file that a set named name
// publishes: name.xml, name.txt, name-index-K.xml or name-N-XXXXXXXX.ext, or
// G-N-XXXXXXXX.ext for a child of group G. A manifest is a file in a folder
// people edit; nothing it lists is removed unless its name also has one of
// these shapes.
func ownName(name string, f manifestFile) bool {
	if f.Group != "" {
		return ValidName(f.Group) && f.Group != name && ownChild(f.Group, f.Name)
	}
	file := f.Name
	if file == name+".xml" || file == name+".txt" {
		return true
	}
	if k, ok := strings.CutPrefix(file, name+"-index-"); ok {
		k, ok = strings.CutSuffix(k, ".xml")
		return ok && isNumber(k)
	}
	return ownChild(name, file)
}

// ownChild reports whether file is stem-N-XXXXXXXX.ext, the name of a child.
func ownChild(stem, file string) bool {
	rest, ok := strings.CutPrefix(file, stem+"-")
	if !ok {
		return false
	}
	n, rest, ok := strings.Cut(rest, "-")
	if !ok || !isNumber(n) || len(rest) < 9 {
		return false
	}
	if _, err := strconv.ParseUint(rest[:8], 16, 32); err != nil {
		return false
	}
	switch rest[8:] {
	case ".xml", ".xml.gz", ".txt", ".txt.gz":
		return true
	}
	return false
}

func isNumber(s string) bool {
	if s == "" || s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// otherStems returns the names that the other sets published in dir write
// their files under (each set's name and its groups'), mapped to the set's
// name, from their manifests. Two sets must not share one: files of one
// shape would belong to both, and one set would take, then remove, the
// other's. A manifest that cannot be read gives nothing.
func otherStems(dir, name string) map[string]string {
	stems := map[string]string{}
	paths, _ := filepath.Glob(filepath.Join(dir, manifestName("*")))
	for _, p := range paths {
		set := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), manifestPrefix), ".json")
		if set == name || !ValidName(set) {
			continue
		}
		m, err := readManifest(p)
		if err != nil {
			continue
		}
		stems[set] = set
		for _, f := range slices.Concat(m.Files, m.Pending) {
			if f.Group != "" {
				stems[f.Group] = set
			}
		}
	}
	return stems
}

// stemTaken is the error for a set or group named like a file stem of the
// set other in dir.
func stemTaken(dir, what, name, other string) error {
	uses := "as its name"
	if other != name {
		uses = "for a group"
	}
	return fmt.Errorf("publish: %s %q: the set %q in %s uses that name %s, and the two sets' files would be confused; choose another name", what, name, other, dir, uses)
}

// unchanged reports whether the file at path still is the file f records,
// before it is removed: a manifest is a file in a folder people edit, and
// a name of the set's shape is no proof that the file under it is still
// ours. A regular file of f's size whose uncompressed content has f's
// checksum is; a missing one counts as unchanged (nothing to remove). A
// record without sizes and sum (the oldest manifests) is taken at its word.
func (f manifestFile) unchanged(path string) (bool, error) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	case err != nil:
		return false, err
	case !st.Mode().IsRegular() || f.Disk > 0 && st.Size() != f.Disk:
		return false, nil
	case f.Sum == "":
		return true, nil
	}
	file, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer file.Close()
	var r io.Reader = file
	if strings.HasSuffix(f.Name, ".gz") {
		zr, err := gzip.NewReader(file)
		if err != nil {
			return false, nil // not even gzip: not what we wrote
		}
		defer zr.Close()
		r = zr
	}
	h := crc32.New(castagnoli)
	n, err := io.Copy(h, io.LimitReader(r, f.Bytes+1))
	if err != nil {
		return false, nil
	}
	return n == f.Bytes && hexSum(h.Sum32()) == f.Sum, nil
}

// sameBytes reports whether the files at a and b hold the same bytes,
// reading both in step, in constant memory.
func sameBytes(a, b string) (bool, error) {
	fa, err := os.Open(a)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, errA := io.ReadFull(fa, bufA)
		nb, errB := io.ReadFull(fb, bufB)
		if !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false, nil
		}
		endA := errA == io.EOF || errA == io.ErrUnexpectedEOF
		endB := errB == io.EOF || errB == io.ErrUnexpectedEOF
		switch {
		case errA != nil && !endA:
			return false, errA
		case errB != nil && !endB:
			return false, errB
		case endA || endB:
			return endA && endB, nil
		}
	}
}

// Published returns the files of the set o publishes, as its manifest
// records them (index files first), with their public URLs: what a later
// step (package submit) announces. A set never published has none.
func Published(o Options) ([]File, error) {
	m, _, err := loadManifest(o)
	if err != nil {
		return nil, err
	}
	public := o.WithDefaults().PublicURL
	if public == "" {
		public = o.WithDefaults().Base
	}
	var files []File
	for _, f := range m.Files {
		files = append(files, File{Name: f.Name, URL: public + f.Name, Entries: f.Entries, Bytes: f.Bytes,
			Index: f.Index, Group: f.Group, LastMod: f.LastMod, Sum: f.Sum})
	}
	return files, nil
}
