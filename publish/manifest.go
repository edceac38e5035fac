package publish

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The manifest lists the files of a published set, so that a later run
// removes only files sitemapkit wrote, and leaves a file whose content has
// not changed as it is. Pending lists files a run was about to put in place
// when it wrote the manifest, or no longer uses: a run killed after
// renaming them leaves them named there, and the next run removes them if
// its own set does not use them.
//
// It is kept beside the set as ".sitemapkit-manifest-NAME.json". Version 1
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
}

func manifestName(name string) string { return ".sitemapkit-manifest-" + name + ".json" }

// readManifest returns dir's manifest for the set name; a missing one is
// an empty manifest. A damaged one is reported, and treated as empty: no
// file is then removed.
func readManifest(dir, name string) (*manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, manifestName(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return &manifest{}, nil
	}
	if err != nil {
		return &manifest{}, fmt.Errorf("publish: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Version != manifestVersion {
		return &manifest{}, fmt.Errorf("publish: ignoring damaged manifest %s", manifestName(name))
	}
	return &m, nil
}

func writeManifest(dir, prefix string, m *manifest) error {
	data, err := json.MarshalIndent(m, "", "\t")
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	return writeFileAtomic(dir, manifestName(m.Name), prefix, append(data, '\n'), false)
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
