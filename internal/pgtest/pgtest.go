// Package pgtest gives tests a database on a real PostgreSQL server: the
// one SITEMAPKIT_PG_DSN names, or the local one .ci/run sets up.
//
// Without a reachable server a test is skipped with a message saying how to
// get one, except under CI (CI set to anything but "" or "false"), where it
// fails: CI must never pass by skipping.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// EnvDSN is the environment variable naming the server tests use.
const EnvDSN = "SITEMAPKIT_PG_DSN"

// DefaultDSN is the server tests use when EnvDSN is not set: the role and
// database .ci/run creates on the local server.
const DefaultDSN = "postgres://sitemapkit:sitemapkit@127.0.0.1:5432/sitemapkit_test?sslmode=disable"

// DB is a schema of its own on the test server, dropped when the test ends.
type DB struct {
	*sql.DB
	// DSN connects to the server with the schema first on search_path,
	// so that queries name its tables unqualified.
	DSN string
	// Schema is the schema's name.
	Schema string
}

// Open connects to the test server and creates a schema for tb, or skips
// (fails under CI) when no server is reachable.
func Open(tb testing.TB) *DB {
	tb.Helper()
	dsn := os.Getenv(EnvDSN)
	from := EnvDSN
	if dsn == "" {
		dsn, from = DefaultDSN, "the default DSN"
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		tb.Fatalf("pgtest: %s: %v", from, err)
	}
	where := cfg.User + "@" + cfg.Host + "/" + cfg.Database
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatal(err)
	}
	schema := "sitemapkit_test_" + hex.EncodeToString(b[:])
	// The schema goes first on search_path for every connection: the
	// pool's, and those the code under test opens with DSN.
	cfg.RuntimeParams["search_path"] = schema
	db := stdlib.OpenDB(*cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		msg := "no PostgreSQL server reachable at " + where + " (" + from + "): " + err.Error() +
			"; set " + EnvDSN + " or run .ci/run's PostgreSQL step"
		if inCI() {
			tb.Fatal("pgtest: CI is set, so a missing server is a failure: " + msg)
		}
		tb.Skip("pgtest: " + msg)
	}
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		db.Close()
		tb.Fatalf("pgtest: create schema on %s: %v", where, err)
	}
	tb.Cleanup(func() {
		if _, err := db.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			tb.Errorf("pgtest: drop schema %s: %v", schema, err)
		}
		db.Close()
	})
	return &DB{DB: db, DSN: withSearchPath(dsn, schema), Schema: schema}
}

// withSearchPath adds search_path as a run-time parameter to dsn, in its
// own form (URL or key=value).
func withSearchPath(dsn, schema string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err == nil {
			q := u.Query()
			q.Set("search_path", schema)
			u.RawQuery = q.Encode()
			return u.String()
		}
	}
	return dsn + " search_path=" + schema
}

func inCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v != "" && v != "false" && v != "0"
}
