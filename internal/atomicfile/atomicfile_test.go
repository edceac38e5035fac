package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: the file is replaced whole, readable by others, and a failed
// rename leaves no temp file behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, "a", "a.tmp", []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a")); err != nil || string(b) != "new" {
		t.Fatalf("a = %q, %v", b, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "a")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644", fi.Mode(), err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "d", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, "d", "d.tmp", []byte("new"), false); err == nil {
		t.Error("a rename over a folder succeeded")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp*")); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
}
