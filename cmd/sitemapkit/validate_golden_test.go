package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/validate/")

// TestValidateGolden pins validate's output, text and JSON, byte for byte:
// findings of many rules across an index and its children, set-wide
// findings, and --max-per-rule caps. The inputs are under
// testdata/validate/, named relatively so that the output is the same on
// every machine.
func TestValidateGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"site.txt", []string{"--base", vbase, "testdata/validate/site/"}},
		{"site.json", []string{"--format", "json", "--base", vbase, "testdata/validate/site/"}},
		{"capped.txt", []string{"--max-per-rule", "2", "testdata/validate/capped.xml"}},
		{"capped.json", []string{"--format", "json", "--max-per-rule", "2", "testdata/validate/capped.xml"}},
		{"nocap.txt", []string{"--max-per-rule", "0", "testdata/validate/capped.xml"}},
		// Several rules capped in one file: their notes in the summary's
		// order (the command listed them in map order before the report
		// model moved to lint).
		{"multicap.txt", []string{"--max-per-rule", "2", "testdata/validate/multicap.xml", "testdata/validate/capped.xml"}},
		{"multicap.json", []string{"--format", "json", "--max-per-rule", "2", "testdata/validate/multicap.xml"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := sk(t, append([]string{"validate"}, c.args...)...)
			got := fmt.Sprintf("exit %d\n%s", code, out)
			if errOut != "" {
				got += "stderr:\n" + errOut
			}
			path := filepath.Join("testdata", "validate", c.name+".golden")
			if *updateGolden {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestValidateGolden -update)", err)
			}
			if got != string(want) {
				t.Errorf("validate %q changed:\n got:\n%s\nwant:\n%s", c.args, got, want)
			}
		})
	}
}
