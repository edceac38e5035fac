// Package atomicfile writes files that a reader, or a process killed at
// any point, sees whole or not at all: a temp file in the same folder,
// written, synced, closed, renamed over the file, the folder synced
// (STYLE §14). The published set's files and a crawl's checkpoint are
// written so.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Write makes data the content of dir/name in one step: a reader sees the
// old file or the new one, never a part. The temp file, named prefix and
// a random suffix, is removed on error.
//
// With durable false, the two fsyncs are skipped: the file survives the
// process being killed at any point (the kernel has the data), and a power
// loss may lose the new version but, on file systems that order a rename
// after the data it replaces (ext4's auto_da_alloc, XFS, btrfs), not leave
// a torn one.
func Write(dir, name, prefix string, data []byte, durable bool) (err error) {
	f, err := CreateTemp(dir, prefix)
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
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if durable {
		if err = f.Sync(); err != nil {
			return fmt.Errorf("writing %s: %w", tmp, err)
		}
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err = os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	if durable {
		return SyncDir(dir)
	}
	return nil
}

// CreateTemp creates a temp file in dir, named prefix and a random suffix,
// that a web server running as another user can read once it is renamed
// into place: os.CreateTemp makes files 0600, and sitemaps are public.
func CreateTemp(dir, prefix string) (*os.File, error) {
	f, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// SyncDir makes the renames and removals in dir durable, where the system
// can.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}
