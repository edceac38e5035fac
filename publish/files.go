package publish

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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

// WriteFile puts data in dir under name, atomically (a temp file, fsynced,
// renamed over it), unless the file holds data already: it is then left as
// it is, with its mtime, so that a reader polling it sees no change. It
// reports whether it wrote. It is for a file published beside a set, such
// as its feed, after Publish.
func WriteFile(dir, name string, data []byte) (bool, error) {
	if old, err := os.ReadFile(filepath.Join(dir, name)); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err := writeFileAtomic(dir, name, tempPrefix+name+".", data, true); err != nil {
		return false, err
	}
	return true, nil
}
