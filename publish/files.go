package publish

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/atomicfile"
)

// tempPrefix starts the name of every file a run writes before it is
// published; leftovers of a killed run are recognised by it.
const tempPrefix = ".sitemapkit-tmp-"

// writeFileAtomic makes data the content of dir/name in one step (see
// atomicfile.Write). The manifest is written with durable false: it is
// bookkeeping, and each fsync costs a journal commit (milliseconds, far
// more on a busy disk) on the path of every run.
func writeFileAtomic(dir, name, prefix string, data []byte, durable bool) error {
	if err := atomicfile.Write(dir, name, prefix, data, durable); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	return nil
}

// createTemp is atomicfile.CreateTemp, its errors the package's.
func createTemp(dir, prefix string) (*os.File, error) {
	f, err := atomicfile.CreateTemp(dir, prefix)
	if err != nil {
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

// syncDir is atomicfile.SyncDir, its errors the package's.
func syncDir(dir string) error {
	if err := atomicfile.SyncDir(dir); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	return nil
}

// removeLeftovers removes the temp files a killed run of the set left in
// dir. Only names with the set's temp prefix are touched, and of those,
// when before is not the zero Time, only the ones last written before it.
func removeLeftovers(dir, prefix string, before time.Time) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	var errs []error
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), prefix) && e.Type().IsRegular() {
			if !before.IsZero() {
				if fi, err := e.Info(); err != nil || !fi.ModTime().Before(before) {
					continue
				}
			}
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("publish: removing a temp file: %w", err))
			}
		}
	}
	return errors.Join(errs...)
}

// staleTemp is how old a temp file of WriteFile's must be to be taken for
// a killed run's: writing one (a feed, a key file: a few MB at most) and
// renaming it takes well under a second, even on a slow network disk.
const staleTemp = 10 * time.Minute

// WriteFile puts data in dir under name, atomically (a temp file, fsynced,
// renamed over it), unless the file holds data already: it is then left as
// it is, with its mtime, so that a reader polling it sees no change. It
// reports whether it wrote. It is for a file published beside a set, such
// as its feed, after Publish.
//
// The temp files of a WriteFile of name killed before its rename are
// removed by the next, once stale (see staleTemp): WriteFile takes no lock
// on dir, so a younger one may be another process's, about to be renamed.
// Removing them is a courtesy: they are hidden, never published, and a
// write does not fail for one that cannot be removed.
func WriteFile(dir, name string, data []byte) (bool, error) {
	prefix := tempPrefix + name + "."
	_ = removeLeftovers(dir, prefix, time.Now().Add(-staleTemp))
	if old, err := os.ReadFile(filepath.Join(dir, name)); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err := writeFileAtomic(dir, name, prefix, data, true); err != nil {
		return false, err
	}
	return true, nil
}
