// Package postgres lets [source.OpenSQL] read PostgreSQL databases, through
// github.com/jackc/pgx. It is a package of its own so that a program links
// PostgreSQL's driver only when it names it:
//
//	src, err := source.OpenSQL(ctx, source.SQLOptions{
//		Driver: postgres.Driver{},
//		DSN:    "postgres://reader@db.internal:5432/shop",
//		Query:  "SELECT url AS loc, updated_at AS lastmod FROM products",
//	})
package postgres

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/sitemapkit/sitemapkit/source"
)

// Driver opens PostgreSQL databases for source.OpenSQL. The DSN is a URL
// ("postgres://user:pass@host:5432/db") or key=value pairs
// ("host=/var/run/postgresql dbname=shop"); the PG* environment variables
// and ~/.pgpass fill in what it leaves out, as for psql. Queries go through
// the extended protocol even when the DSN asks for the simple one, so that
// a query is one statement, which cannot end OpenSQL's READ ONLY
// transaction.
type Driver struct{}

// Name returns "postgres".
func (Driver) Name() string { return "postgres" }

// Open parses dsn, named "postgres://user@host:port/database" (never a
// password). It connects to nothing: OpenSQL's transaction does.
func (Driver) Open(dsn string) (*sql.DB, string, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, "", dsnError(err)
	}
	// The simple protocol (often chosen for PgBouncer) runs several
	// statements in one query, and a first "COMMIT;" would end the READ
	// ONLY transaction: run the query alone, unprepared, as the simple
	// protocol does, but through the extended protocol, which takes one
	// statement only.
	if cfg.DefaultQueryExecMode == pgx.QueryExecModeSimpleProtocol {
		cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	}
	return stdlib.OpenDB(*cfg), name(cfg.Config), nil
}

// dsnError words an error of pgx.ParseConfig without the DSN: pgx masks
// the password in the DSN it quotes only when it can find it, and a DSN
// that cannot be parsed is just where it may not ("password = x", with
// spaces, or an "@" in a URL's password).
func dsnError(err error) error {
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return err
	}
	bare := *pe
	bare.ConnString = ""
	return &parseDSNError{msg: "cannot parse the DSN: " + strings.TrimPrefix(bare.Error(), "cannot parse ``: "), err: err}
}

type parseDSNError struct {
	msg string
	err error
}

func (e *parseDSNError) Error() string { return e.msg }
func (e *parseDSNError) Unwrap() error { return e.err }

// name names a database without its password:
// "postgres://user@host:port/database".
func name(c pgconn.Config) string {
	host := c.Host
	if strings.HasPrefix(host, "/") {
		host = "[" + host + "]" // a socket directory
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s", c.User, host, c.Port, c.Database)
}

var _ source.SQLDriver = Driver{}
