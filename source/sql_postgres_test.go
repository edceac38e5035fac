package source_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sitemapkit/sitemapkit/internal/pgtest"
	"github.com/sitemapkit/sitemapkit/source"
	"github.com/sitemapkit/sitemapkit/source/postgres"
)

// newPostgresDB is a schema of its own on the test server (see pgtest).
func newPostgresDB(t testing.TB) (*testDB, *pgtest.DB) {
	t.Helper()
	p := pgtest.Open(t)
	return &testDB{
		driver: "postgres", drv: postgres.Driver{}, dsn: p.DSN, db: p.DB,
		tsType: "TIMESTAMPTZ", jsonType: "JSONB",
		tsText: func(t time.Time) string { return t.Format("2006-01-02 15:04:05-07:00") },
		ph:     func(n int) string { return "$" + strconv.Itoa(n) },
	}, p
}

func TestPostgres(t *testing.T) {
	d, _ := newPostgresDB(t)
	d.create(t)
	cfg, err := pgx.ParseConfig(d.dsn)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("postgres://%s@%s:%d/%s", cfg.User, cfg.Host, cfg.Port, cfg.Database)
	t.Run("products", func(t *testing.T) { testProducts(t, d) })
	t.Run("days", func(t *testing.T) { testDays(t, d) })
	t.Run("open errors", func(t *testing.T) { testOpenErrors(t, d) })
	t.Run("read only", func(t *testing.T) { testReadOnly(t, d) })
	t.Run("place", func(t *testing.T) { testPlace(t, d, name) })
}

// TestPostgresValues checks how PostgreSQL's types become fields.
func TestPostgresValues(t *testing.T) {
	d, _ := newPostgresDB(t)
	cases := []struct {
		lastmod, priority, extra string
		want                     string // "lastmod|priority", or "ERR " and part of the error
	}{
		{"DATE '2024-05-01'", "REAL '0.8'", "", "2024-05-01|0.8"},
		{"TIMESTAMP '2024-05-01 10:30:00'", "NUMERIC '0.80'", "", "2024-05-01T10:30:00+00:00|0.80"},
		{"'2024-05-01T10:30:00+02:00'::text", "0.5::float8", "", "2024-05-01T10:30:00+02:00|0.5"},
		{"NULL::date", "1::int4", "", "|1"},
		{"1714557600::int8", "NULL", "", `ERR :1: column "lastmod": a number (1714557600), not a date`},
		{"NULL", "NULL", `, '{"publication":{"name":"N","language":"en"},"publication_date":"2024-05-01","title":"T"}'::json AS news`, "|"},
		{"NULL", "NULL", `, '{"title": true}'::jsonb AS news`, `ERR :1: column "news": invalid JSON: field "title" is a JSON bool, want a string or number`},
		{"NULL", "NULL", `, '{"title": "T", "headline": "H"}'::jsonb AS news`, `ERR :1: column "news": unknown field "headline" (want a news object)`},
		{"NULL", "NULL", `, '[{"title": "x"}]'::jsonb AS news`, `ERR :1: column "news": invalid JSON: a JSON array, want a news object`},
		{"NULL", "NULL", `, now() AS image`, `ERR :1: column "image": a timestamp where text is wanted`},
	}
	for _, c := range cases {
		q := fmt.Sprintf("SELECT 'https://www.example.com/' AS loc, %s AS lastmod, %s AS priority%s", c.lastmod, c.priority, c.extra)
		src := openSQL(t, d, q, "")
		u, err := src.Read()
		got := u.LastMod + "|" + u.Priority
		if err != nil {
			got = "ERR " + err.Error()
		}
		if w, isErr := strings.CutPrefix(c.want, "ERR "); isErr && !strings.Contains(got, w) || !isErr && got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", q, got, c.want)
		}
	}

	// timestamptz is written in UTC, whatever this process's zone.
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("test", -5*3600)
	src := openSQL(t, d, "SELECT 'https://www.example.com/' AS loc, TIMESTAMPTZ '2024-05-01 10:30:00+02' AS lastmod", "")
	u, err := src.Read()
	if err != nil || u.LastMod != "2024-05-01T08:30:00+00:00" {
		t.Errorf("timestamptz: lastmod %q (%v), want 2024-05-01T08:30:00+00:00", u.LastMod, err)
	}
}

// TestPostgresConnectionLost checks a connection lost mid-stream ends the
// stream with an error, not a clean end.
func TestPostgresConnectionLost(t *testing.T) {
	d, p := newPostgresDB(t)
	q := `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000000)
		SELECT pg_backend_pid() AS pid, i FROM c`
	src := openSQL(t, d, q, "https://www.example.com/{pid}/{i}")
	u, err := src.Read()
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.Split(u.Loc, "/")[3]
	if _, err := p.Exec("SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	n := 1
	for _, err := range src.All() {
		if err != nil {
			break
		}
		n++
	}
	var qe *source.QueryError
	if err := src.Err(); !errors.As(err, &qe) || !strings.Contains(err.Error(), `postgres query "WITH RECURSIVE`) {
		t.Fatalf("after %d rows, Err() = %v, want a *QueryError", n, err)
	}
	t.Logf("%d rows, then %v", n, src.Err())
}

// TestPostgresUnreachable needs no server: nothing listens on port 1.
// The error shows the query, and never the password.
func TestPostgresUnreachable(t *testing.T) {
	for _, dsn := range []string{
		"postgres://reader:secretpw@127.0.0.1:1/shop?connect_timeout=5",
		"host=127.0.0.1 port=1 user=reader password=secretpw dbname=shop connect_timeout=5",
		"postgres://reader:secretpw@127.0.0.1:1/shop?sslmode=nonsense",
		// pgx masks passwords in DSNs it cannot parse on a best-effort
		// basis only; these it shows, whole or in part.
		"host=127.0.0.1 password = secretpw port=abc",
		`host=127.0.0.1 password=xx\ secretpw port=abc`,
		"postgres://reader:xx@secretpw@127.0.0.1:99999/shop",
	} {
		_, err := source.OpenSQL(context.Background(), source.SQLOptions{Driver: postgres.Driver{}, DSN: dsn, Query: "SELECT loc FROM pages"})
		if err == nil {
			t.Fatalf("%s: no error", dsn)
		}
		if strings.Contains(err.Error(), "secretpw") {
			t.Errorf("the error shows the password: %v", err)
		}
		if !strings.HasPrefix(err.Error(), "postgres") {
			t.Errorf("the error does not name the driver: %v", err)
		}
		t.Log(err)
	}
}

func TestPostgresMemoryFlat(t *testing.T) {
	d, _ := newPostgresDB(t)
	testFlat(t, d.drv, d.dsn, countQuery(1_000_000), 1_000_000)
}
