package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestHostileShapes: config files built to be costly to decode (arrays or
// inline tables nested tens of thousands deep, keys of tens of thousands
// of parts, a file far larger than any config) are refused before the
// TOML decoder sees them, with an error that names the place and the cap,
// in bounded memory. Each of them took gigabytes before the caps.
func TestHostileShapes(t *testing.T) {
	deep := func(open, close string, n int) string {
		return "x = " + strings.Repeat(open, n) + strings.Repeat(close, n) + "\n"
	}
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"arrays 60,000 deep", deep("[", "]", 60_000), "f.toml:1:"},
		{"arrays 2,000,000 deep", deep("[", "]", 2_000_000), "larger than"},
		{"arrays 400,000 deep", deep("[", "]", 400_000), "f.toml:1:"},
		{"inline tables 20,000 deep", "x = " + strings.Repeat("{a = ", 20_000) + "1" + strings.Repeat("}", 20_000) + "\n", "f.toml:1:"},
		{"a key of 20,000 parts", strings.Repeat("a.", 20_000) + "a = 1\n", "f.toml:1:"},
		{"a table header of 20,000 parts", "[" + strings.Repeat("a.", 20_000) + "a]\n", "f.toml:1:"},
		{"inline key of 20,000 parts", "x = {" + strings.Repeat("a.", 20_000) + "a = 1}\n", "f.toml:1:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := Parse(strings.NewReader(tc.doc), "f.toml")
			runtime.ReadMemStats(&after)
			var ce *Error
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "at most") {
				t.Fatalf("err = %.300v, want an *Error with %q naming the cap", err, tc.want)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(tc.doc))+8<<20 {
				t.Errorf("allocated %d MB for a %d KB file", alloc>>20, len(tc.doc)>>10)
			}
		})
	}
	// Within the caps, nesting and dotted keys still work, and brackets or
	// dots inside strings and comments do not count.
	ok := "# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a\n" +
		`base = "https://www.example.com/[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[/"` + "\n" +
		"out = 'public/" + strings.Repeat(".", 100) + "'\n"
	if _, err := Parse(strings.NewReader(ok), "f.toml"); err != nil && strings.Contains(err.Error(), "at most") {
		t.Errorf("a cap refused a config within the caps: %v", err)
	}
}

// TestLoadTooLarge: Load refuses a file past the size cap without reading
// it all.
func TestLoadTooLarge(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.toml")
	if err := os.WriteFile(p, []byte("# "+strings.Repeat("x", maxFileBytes)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	if err == nil || !strings.Contains(err.Error(), "big.toml") || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("err = %v", err)
	}
}

// TestKeyPositionsBounded: noting where keys start costs memory bounded
// by the file, not by a long key times a long array: each element is
// noted under its whole path, and a file of 60 KB took 421 MB.
func TestKeyPositionsBounded(t *testing.T) {
	doc := "base = \"https://www.example.com/\"\n\"" + strings.Repeat("a", 30000) + "\" = [" + strings.Repeat("1,", 30000) + "1]\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pos := keyPositions(doc)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("keyPositions of %d KB allocated %d MB", len(doc)>>10, got>>20)
	}
	if _, ok := pos["base"]; !ok {
		t.Errorf("base not noted: %d positions", len(pos))
	}
}
