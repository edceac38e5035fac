// Package sqlite lets [source.OpenSQL] read SQLite databases, through
// modernc.org/sqlite (pure Go, no cgo). It is a package of its own so that
// a program links SQLite only when it names it:
//
//	src, err := source.OpenSQL(ctx, source.SQLOptions{
//		Driver: sqlite.Driver{},
//		DSN:    "shop.db",
//		Query:  "SELECT url AS loc, updated_at AS lastmod FROM products",
//	})
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"os"
	"strings"

	"modernc.org/sqlite"

	"github.com/sitemapkit/sitemapkit/source"
)

// Driver opens SQLite databases for source.OpenSQL. The DSN is a file path
// or a "file:" URI; the file must exist, and is opened read-only (mode=ro,
// and the query_only pragma) whatever mode the URI gives, but mode=memory.
// A query may only read: an authorizer refuses every statement but SELECT
// (ATTACH and VACUUM INTO, which create files, included).
type Driver struct{}

// Name returns "sqlite".
func (Driver) Name() string { return "sqlite" }

// Open opens the file dsn names read-only, named "sqlite:<path>".
func (Driver) Open(dsn string) (*sql.DB, string, error) {
	uri, name, err := readOnlyURI(dsn)
	if err != nil {
		return nil, name, err
	}
	// A connector, not sql.Open: the "sqlite" name the driver registers
	// globally is not needed.
	c, err := sqlite.NewConnector(uri)
	if err != nil {
		return nil, name, fmt.Errorf("DSN %q: %w", dsn, err)
	}
	return sql.OpenDB(readOnly{c}), name, nil
}

// readOnly gives each connection an authorizer that lets a query read and
// nothing else. mode=ro and query_only keep the database itself unchanged,
// but not the rest of the disk: ATTACH DATABASE and VACUUM INTO create the
// file they name, anywhere the process may write.
type readOnly struct{ driver.Connector }

func (c readOnly) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	a, ok := conn.(sqlite.AuthorizerRegisterer)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("%T cannot authorize statements, and a query must only read", conn)
	}
	if err := a.RegisterAuthorizer(onlyRead); err != nil {
		conn.Close()
		return nil, fmt.Errorf("authorizer: %w", err)
	}
	return conn, nil
}

// onlyRead allows what a SELECT does (read tables, call functions, recurse
// in a CTE) and the read-only transaction OpenSQL runs it in; SQLite then
// refuses anything else with "not authorized". load_extension would run a
// library's code.
func onlyRead(action sqlite.AuthorizerActionCode, _, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive, sqlite.AuthTransaction:
		return sqlite.AuthorizerOK
	case sqlite.AuthFunction:
		if !strings.EqualFold(arg2, "load_extension") {
			return sqlite.AuthorizerOK
		}
	}
	return sqlite.AuthorizerDeny
}

// readOnlyURI turns a path or file: URI into a read-only URI, and names it.
func readOnlyURI(dsn string) (uri, name string, err error) {
	if rest, ok := strings.CutPrefix(dsn, "file:"); ok {
		path, query, _ := strings.Cut(rest, "?")
		q, err := url.ParseQuery(query)
		if err != nil {
			return "", "", fmt.Errorf("DSN %q: %w", dsn, err)
		}
		// Read-only whatever the URI says (an application's DSN may say
		// mode=rw): modernc.org/sqlite runs every statement of a query,
		// and a query starting "PRAGMA query_only = 0;" could then write.
		// An in-memory database has nothing to protect.
		if q.Get("mode") != "memory" {
			q.Set("mode", "ro")
		}
		q.Add("_pragma", "query_only(1)")
		name = path
		if p, err := url.PathUnescape(path); err == nil {
			name = p
		}
		return "file:" + path + "?" + q.Encode(), "sqlite:" + name, nil
	}
	name = "sqlite:" + dsn
	// A missing file would be created empty (and the query would fail on
	// a missing table): say what is wrong instead.
	if _, err := os.Stat(dsn); err != nil {
		return "", name, err
	}
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: dsn}).EscapedPath()}
	return u.String() + "?mode=ro&_pragma=query_only(1)", name, nil
}

var _ source.SQLDriver = Driver{}
