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

// tempPrefix starts the name of every file a run writes before it is
// published; leftovers of a killed run are recognised by it.
const tempPrefix = ".sitemapkit-tmp-"

// writeFileAtomic makes data the content of dir/name in one step: a reader
// sees the old file or the new one, never a part (STYLE §14: temp file in
// the same folder, write, Sync, Close, Rename, fsync the folder; the temp
// file is removed on error).
//
// With durable false, the two fsyncs are skipped: the file survives the
// process being killed at any point (the kernel has the data), and a
// power loss may lose the new version but, on file systems that order a
// rename after the data it replaces (ext4's auto_da_alloc, XFS, btrfs),
// not leave a torn one. The manifest is written so: it is bookkeeping,
// and each fsync costs a journal commit (milliseconds, far more on a busy
// disk) on the path of every run.
func writeFileAtomic(dir, name, prefix string, data []byte, durable bool) (err error) {
	f, err := createTemp(dir, prefix)
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("publish: writing %s: %w", tmp, err)
	}
	if durable {
		if err = f.Sync(); err != nil {
			return fmt.Errorf("publish: writing %s: %w", tmp, err)
		}
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("publish: writing %s: %w", tmp, err)
	}
	if err = os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	if durable {
		return syncDir(dir)
	}
	return nil
}

// createTemp creates a temp file in dir that a web server running as
// another user can read once it is renamed into place: os.CreateTemp makes
// files 0600, and sitemaps are public.
func createTemp(dir, prefix string) (*os.File, error) {
	f, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("publish: %w", err)
	}
	return f, nil
}

// commit renames a complete, synced temp file to dir/name and makes the
// rename durable.
func commit(tmp, dir, name string) error {
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	return syncDir(dir)
}

// syncDir makes the renames and removals in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("publish: syncing %s: %w", dir, err)
	}
	return nil
}

// removeLeftovers removes the temp files a killed run of the set left in
// dir. Only names with the set's temp prefix are touched.
func removeLeftovers(dir, prefix string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	var errs []error
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), prefix) && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("publish: removing a temp file: %w", err))
			}
		}
	}
	return errors.Join(errs...)
}

// The manifest lists the files of a published set, so that a later run
// removes only files sitemapkit wrote. Pending lists files a run was about
// to put in place when it wrote the manifest: a run killed after renaming
// them leaves them named there, and the next run removes them if its own
// set does not use them.
type manifest struct {
	Version int            `json:"version"`
	Name    string         `json:"name"`
	Files   []manifestFile `json:"files"`
	Pending []manifestFile `json:"pending,omitempty"`
}

type manifestFile struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`           // uncompressed size
	Disk  int64  `json:"disk"`            // size on disk
	Sum   string `json:"sum"`             // CRC-32C of the uncompressed bytes (8 hex)
	Index bool   `json:"index,omitempty"` // an index file
	Group string `json:"group,omitempty"` // the group of a child file (see Builder.Group)
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
	if err := json.Unmarshal(data, &m); err != nil || m.Version != 1 {
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
