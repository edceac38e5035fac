package source_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoSQLDriverLinked checks that importing source (or config, which
// opens sources) links no database driver: a program that reads a text
// list must not carry SQLite and PostgreSQL (a 15 MB binary instead of
// 2.5 MB). Drivers come from source/sqlite and source/postgres, which only
// a program that names them links.
func TestNoSQLDriverLinked(t *testing.T) {
	for _, pkg := range []string{".", "../config"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		var drivers []string
		for dep := range strings.Lines(string(out)) {
			dep = strings.TrimSpace(dep)
			if strings.HasPrefix(dep, "modernc.org/sqlite") || strings.HasPrefix(dep, "github.com/jackc/pgx") {
				drivers = append(drivers, dep)
			}
		}
		if drivers != nil {
			t.Errorf("%s links %s", pkg, strings.Join(drivers, ", "))
		}
	}
}
