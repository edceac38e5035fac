package source

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// A SQLDriver opens one kind of database for [OpenSQL]. Package
// source/sqlite provides SQLite's and package source/postgres PostgreSQL's;
// source itself links neither, so that a program carries only the database
// drivers it names.
//
// OpenSQL runs its query alone, on one connection, in a READ ONLY
// transaction. A driver guarantees what that leaves to the database: that
// nothing the DSN says can make the query write (SQLite: a read-only file;
// PostgreSQL: one statement, which cannot end the transaction).
type SQLDriver interface {
	// Name names the driver in messages: "sqlite", "postgres".
	Name() string
	// Open returns the database dsn names, read-only whatever dsn says,
	// and the database's name in messages, which never shows a password.
	// It connects to nothing yet: an error is about dsn, and never quotes
	// a password it may hold.
	Open(dsn string) (db *sql.DB, name string, err error)
}

// SQLOptions configure OpenSQL.
type SQLOptions struct {
	// Driver opens the database: sqlite.Driver{} (package source/sqlite)
	// or postgres.Driver{} (package source/postgres). Required.
	Driver SQLDriver
	// DSN names the database, as Driver reads it. SQLite: a file path, or
	// a "file:" URI. PostgreSQL: a URL ("postgres://user:pass@host:5432/db")
	// or key=value pairs ("host=/var/run/postgresql dbname=shop").
	DSN string
	// Query is the SELECT whose rows become URLs, each column mapped by its
	// name (see OpenSQL). Required.
	Query string
	// Loc, when set, builds each URL's loc from the row's columns, e.g.
	// "https://www.example.com/products/{slug}". Empty: the query returns
	// a loc column.
	Loc string
	// Timezone is the zone of a lastmod column's values that have none (a
	// TIMESTAMP or DATETIME, not a TIMESTAMPTZ): their wall clock is read
	// there. A value with an offset (SQLite text "2024-05-01 10:30:00+02:00")
	// keeps it; one ending in "Z" is read by SQLite's driver as one
	// without. Nil: UTC. (Text columns in a database's spelling are read by
	// the Filter, with FilterOptions.Timezone.)
	Timezone *time.Location
}

// SQL is a Source reading the rows of a query, one URL per row, as they
// arrive from the database. It is a Placer, and an io.Closer that must be
// closed.
type SQL struct {
	db     *sql.DB
	tx     *sql.Tx
	rows   *sql.Rows
	ctx    context.Context
	cancel context.CancelFunc

	driver  string // SQLDriver.Name
	name    string
	query   string
	ofQuery string // " of \"SELECT …\"", for Place
	row     int
	err     error

	cols  []sqlColumn
	vals  []any
	dest  []any
	tmpl  *locTemplate
	tz    *time.Location // of zoneless timestamps; nil: UTC
	buf   []byte
	print contentHash
}

// sqlColumn is what one result column is for.
type sqlColumn struct {
	column        // the URL field, as in CSV; kind colNone for a template-only column
	name   string // as the query names it
	date   bool   // a DATE column: a midnight time is written as a day
	utc    bool   // a timestamptz: written in UTC, not the process's zone
	float4 bool   // a 4-byte float: written with float32's shortest form
}

// colNone is the kind of a column the loc template alone reads: SQL's
// own, after those CSV shares (see fieldColumn).
const colNone = colNews + 1

// A QueryError is an error about a query as a whole: the database's own
// (cannot connect, bad SQL, the connection lost mid-stream) or a result
// column that maps to nothing. Its message names the driver and shows the
// query, cut to 200 bytes with its white space collapsed.
type QueryError struct {
	Driver string // SQLDriver.Name: "sqlite", "postgres"
	Query  string
	Err    error
}

func (e *QueryError) Error() string {
	return e.Driver + " query " + strconv.Quote(shortQuery(collapseSpace(e.Query), 200)) + ": " + e.Err.Error()
}

// Unwrap returns Err, for errors.Is and errors.As.
func (e *QueryError) Unwrap() error { return e.Err }

// OpenSQL runs o.Query and returns its rows as a Source. The query runs
// with ctx until Close (cancelling ctx ends the stream with ctx's error).
// Rows are streamed, never held: a table of any size reads in constant
// memory.
//
// The query runs in a READ ONLY transaction, which also gives it one
// snapshot, on a database o.Driver opened read-only (see [SQLDriver]).
//
// # Columns
//
// Each result column is a URL field by its name, case-insensitively, after
// aliasing (SELECT slug AS loc …):
//
//   - loc: the URL (required, unless o.Loc builds it).
//   - lastmod: a date or timestamp column, or text. A DATE column holding a
//     day (PostgreSQL date; SQLite: declared DATE) is written as a day,
//     "2024-05-01"; any other time as YYYY-MM-DDThh:mm:ss±hh:mm (see
//     [sitemap.FormatDate]). PostgreSQL's timestamptz is written in UTC, so
//     that the output does not depend on the machine's zone; SQLite text
//     with an offset keeps it. A timestamp WITHOUT a time zone (PostgreSQL
//     timestamp; SQLite DATETIME or TIMESTAMP text with no offset) is taken
//     to be in o.Timezone, UTC by default (the common convention, written
//     +00:00): if yours are local times, set it, convert them in the query
//     (AT TIME ZONE) or return text with an offset. Text is passed on as
//     it is, and the builder checks it. SQLite types only table columns:
//     an expression such as MAX(updated) comes back as SQLite's text
//     "2024-05-01 10:30:00", which is not a W3C datetime; the Filter
//     rewrites such text (FilterOptions.Timezone), or format it in the
//     query: strftime('%Y-%m-%dT%H:%M:%SZ', …).
//     A number is refused, row by row, since seconds and milliseconds cannot
//     be told apart: convert it in the query, datetime(col, 'unixepoch')
//     (SQLite) or to_timestamp(col) (PostgreSQL).
//   - changefreq: text.
//   - priority: a number or text (0.8 is written "0.8").
//   - image: an image URL. The column may appear several times (SQL allows
//     repeated aliases: SELECT a AS image, b AS image), one image each.
//   - images: a JSON array of image URLs, or of objects with the JSON
//     fields of [sitemap.Image]: ["https://…/1.jpg", {"loc": "https://…/2.jpg", "title": "…"}].
//   - alternate:<hreflang>: the URL of the page in that language (SELECT
//     de_url AS "alternate:de-DE"), as in CSV.
//   - alternates: a JSON array of {"hreflang": "de-DE", "href": "https://…"}.
//   - videos: a JSON array of objects with the JSON fields of
//     [sitemap.Video] (a number is accepted where the field is text).
//   - news: a JSON object with the JSON fields of [sitemap.News].
//
// JSON columns may be text, json or jsonb. NULL, and empty text, mean the
// field is absent. Any other column is an error when the query opens,
// unless the loc template reads it: a misspelt alias must not silently drop
// data.
//
// # Loc template
//
// o.Loc is a URL with expressions in braces, each replaced by a column's
// value in the row:
//
//   - {slug} escapes the value as one path segment (url.PathEscape): "/"
//     becomes %2F, a space %20, non-ASCII its UTF-8 bytes percent-encoded.
//   - {+path} is RFC 6570 reserved expansion: reserved characters such as
//     "/", "?" and "=" and %XX escapes already in the value are kept; every
//     other byte is escaped.
//
// Columns are named case-insensitively; one the query does not return is an
// error when the query opens. A row whose template column is NULL or empty
// is a *ParseError: a loc missing its last segment is another page.
//
// # Errors
//
// An error of the database (cannot connect, bad SQL, the connection lost
// mid-stream), or a column that maps to nothing, is a *QueryError naming the
// driver and showing the query:
//
//	sqlite query "SELECT slug FROM products": SQL logic error: no such table: products (1)
//
// A row that cannot become a URL (bad JSON, a NULL template column, a
// number as lastmod) is a *ParseError with File Name() and Line the row
// number, and the stream goes on.
//
// # Examples
//
// SQLite, with a loc column and images from a JSON column:
//
//	src, err := source.OpenSQL(ctx, source.SQLOptions{
//		Driver: sqlite.Driver{},
//		DSN:    "shop.db",
//		Query: `SELECT url AS loc, updated_at AS lastmod, 0.8 AS priority,
//		               images_json AS images
//		        FROM products WHERE published`,
//	})
//
// PostgreSQL, building loc from a slug, with a German alternate:
//
//	src, err := source.OpenSQL(ctx, source.SQLOptions{
//		Driver: postgres.Driver{},
//		DSN:    "postgres://reader@db.internal:5432/shop",
//		Query: `SELECT slug, updated_at AS lastmod,
//		               'https://www.example.com/de/p/' || slug AS "alternate:de-DE"
//		        FROM products WHERE published`,
//		Loc: "https://www.example.com/p/{slug}",
//	})
func OpenSQL(ctx context.Context, o SQLOptions) (*SQL, error) {
	if o.Driver == nil {
		return nil, errors.New("no SQL driver (see package source/sqlite or source/postgres)")
	}
	s := &SQL{query: o.Query, driver: o.Driver.Name(), tz: o.Timezone}
	if strings.TrimSpace(s.query) == "" {
		return nil, fmt.Errorf("%s: no query", s.driver)
	}
	if o.DSN == "" {
		return nil, fmt.Errorf("%s: no DSN (the database to read)", s.driver)
	}
	if o.Loc != "" {
		t, err := parseLocTemplate(o.Loc)
		if err != nil {
			return nil, err
		}
		s.tmpl = t
	}
	s.ctx, s.cancel = context.WithCancel(ctx)
	if err := s.open(s.ctx, o); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *SQL) open(ctx context.Context, o SQLOptions) error {
	var err error
	if s.db, s.name, err = o.Driver.Open(o.DSN); err != nil {
		return fmt.Errorf("%s: %w", s.driver, err)
	}
	s.db.SetMaxOpenConns(1)
	if s.tx, err = s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}); err != nil {
		return s.fail(err)
	}
	if s.rows, err = s.tx.QueryContext(ctx, o.Query); err != nil {
		return s.fail(err)
	}
	return s.mapColumns()
}

// fail wraps err with the driver and the query.
func (s *SQL) fail(err error) error {
	return &QueryError{Driver: s.driver, Query: s.query, Err: err}
}

// mapColumns maps each result column to a URL field or the template.
func (s *SQL) mapColumns() error {
	names, err := s.rows.Columns()
	if err != nil {
		return s.fail(err)
	}
	types, err := s.rows.ColumnTypes()
	if err != nil {
		return s.fail(err)
	}
	if s.tmpl != nil {
		if err := s.tmpl.bind(names); err != nil {
			return s.fail(err)
		}
	}
	bad := func(format string, args ...any) error {
		return s.fail(fmt.Errorf(format, args...))
	}
	const want = "want loc, lastmod, changefreq, priority, image, images, alternate:<hreflang>, alternates, videos, news, or a column the loc template reads"
	seen := map[string]bool{}
	hasLoc := false
	s.cols = make([]sqlColumn, len(names))
	for i, name := range names {
		c := sqlColumn{name: name}
		col, key, ok, err := fieldColumn(strings.TrimSpace(name))
		if err != nil {
			return bad("%w: %v", ErrUnknownField, err)
		}
		switch {
		case ok && col.kind != colSitemap:
			c.column = col
		case s.tmpl != nil && s.tmpl.uses(i):
			c.kind = colNone
		default:
			return bad("column %q: %w (%s)", name, ErrUnknownField, want)
		}
		if c.kind == colLoc {
			if s.tmpl != nil {
				return bad("column %q: the loc template builds loc: rename the column or drop the template", name)
			}
			hasLoc = true
		}
		if c.kind != colImage && c.kind != colNone {
			if seen[key] {
				return bad("column %q appears twice", name)
			}
			seen[key] = true
		}
		dt := strings.ToUpper(types[i].DatabaseTypeName())
		c.date = dt == "DATE"
		c.utc = dt == "TIMESTAMPTZ"
		c.float4 = dt == "FLOAT4"
		s.cols[i] = c
	}
	if !hasLoc && s.tmpl == nil {
		return bad("%w: no loc column (name one loc, e.g. SELECT url AS loc, or set a loc template)", ErrMissingLoc)
	}
	s.vals = make([]any, len(names))
	s.dest = make([]any, len(names))
	for i := range s.vals {
		s.dest[i] = &s.vals[i]
	}
	return nil
}

// Fingerprint returns the fingerprint of the row last read's content_hash
// (or etag) column, when it has one.
func (s *SQL) Fingerprint() (uint64, bool) { return s.print.get() }

// Read returns the next row's URL, with the contract of Source.Read.
func (s *SQL) Read() (sitemap.URL, error) {
	if s.err != nil {
		return sitemap.URL{}, s.err
	}
	if !s.rows.Next() {
		err := s.rows.Err()
		if err == nil {
			// A driver may end an interrupted query as if it were
			// complete (SQLite does): a cancelled stream must not look
			// like a whole one.
			err = s.ctx.Err()
		}
		if err != nil {
			s.err = s.fail(err)
		} else {
			s.err = io.EOF
		}
		s.rows.Close()
		return sitemap.URL{}, s.err
	}
	s.row++
	if err := s.rows.Scan(s.dest...); err != nil {
		if cerr := s.ctx.Err(); cerr != nil {
			// database/sql closed the rows under Scan when ctx ended.
			s.err = s.fail(cerr)
			return sitemap.URL{}, s.err
		}
		return sitemap.URL{}, s.rowError(err)
	}
	var u sitemap.URL
	s.print = contentHash{}
	for i := range s.cols {
		if err := s.set(&u, i); err != nil {
			return sitemap.URL{}, s.rowError(fmt.Errorf("column %q: %w", s.cols[i].name, err))
		}
	}
	if s.tmpl != nil {
		for _, p := range s.tmpl.parts {
			if p.name == "" {
				continue
			}
			if v, _ := sqlText(s.vals[p.col]); v == "" {
				what := "empty"
				if s.vals[p.col] == nil {
					what = "NULL"
				}
				return sitemap.URL{}, s.rowError(fmt.Errorf("%w: column %q of the loc template is %s", ErrMissingLoc, s.cols[p.col].name, what))
			}
		}
		s.buf = s.tmpl.appendExpand(s.buf[:0], func(i int) string {
			v, _ := sqlText(s.vals[i])
			return v
		})
		u.Loc = string(s.buf)
	}
	if u.Loc == "" {
		return sitemap.URL{}, s.rowError(fmt.Errorf("%w: column loc is NULL or empty", ErrMissingLoc))
	}
	return u, nil
}

// set sets column i's field of u from the row just scanned.
func (s *SQL) set(u *sitemap.URL, i int) error {
	c := &s.cols[i]
	v := s.vals[i]
	if v == nil || c.kind == colNone || c.kind == colSitemap {
		return nil
	}
	if c.kind == colLastMod {
		switch t := v.(type) {
		case time.Time:
			switch {
			case c.utc:
				t = t.UTC()
			case s.tz != nil && !c.date && t.Location() == time.UTC:
				// A timestamp without zone: its wall clock, in the zone
				// the user says. The drivers give such a value in UTC;
				// one with an offset of its own (SQLite text
				// "…+02:00") keeps it: read in tz, it moved by hours.
				t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), s.tz)
			}
			if c.date && t.Equal(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())) {
				u.LastMod = t.Format(time.DateOnly)
			} else {
				u.LastMod = sitemap.FormatDate(t)
			}
			return nil
		case int64, float64:
			return fmt.Errorf("a number (%v), not a date: seconds or milliseconds? convert it in the query: datetime(col, 'unixepoch') in SQLite, to_timestamp(col) in PostgreSQL", t)
		}
	}
	if c.kind == colPriority && c.float4 {
		if f, ok := v.(float64); ok {
			u.Priority = strconv.FormatFloat(f, 'f', -1, 32)
			return nil
		}
	}
	text, err := sqlText(v)
	if err != nil || text == "" {
		return err
	}
	if c.kind == colContentHash {
		s.print.set(text)
		return nil
	}
	return c.column.set(u, text, &s.buf)
}

// sqlText is a column value as text. Timestamps are refused: outside
// lastmod, a time has no one right spelling.
func sqlText(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case []byte:
		return string(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case bool:
		return strconv.FormatBool(v), nil
	case time.Time:
		return "", errors.New("a timestamp where text is wanted: format it in the query")
	}
	return "", fmt.Errorf("a value of type %T where text is wanted", v)
}

func (s *SQL) rowError(err error) error {
	return &ParseError{File: s.name, Line: s.row, Err: err}
}

// All returns every URL; see Source.All.
func (s *SQL) All() iter.Seq2[sitemap.URL, error] { return all(s) }

// Name returns "sqlite:<path>" or "postgres://user@host:port/database"
// (never a password).
func (s *SQL) Name() string { return s.name }

// Line returns the number of the row Read last returned, from 1.
func (s *SQL) Line() int { return s.row }

// Place returns where the row Read last returned came from:
// `sqlite:shop.db row 12 of "SELECT slug, updated_at FROM …"`.
func (s *SQL) Place() string {
	if s.ofQuery == "" {
		// Once per query: a reader ahead asks for every row's place.
		s.ofQuery = " of " + strconv.Quote(shortQuery(collapseSpace(s.query), 48))
	}
	return s.name + " row " + strconv.Itoa(s.row) + s.ofQuery
}

// Err returns the error that ended the stream, or nil.
func (s *SQL) Err() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}

// Close stops the query, if it is still running, and closes the database.
func (s *SQL) Close() error {
	if s.cancel != nil {
		// Cancelling first stops a PostgreSQL query at once, where
		// closing its rows would read the rest of the result.
		s.cancel()
	}
	if s.rows != nil {
		s.rows.Close()
	}
	if s.tx != nil {
		s.tx.Rollback() // nothing to keep: the transaction only read
	}
	if s.db == nil {
		return nil
	}
	return s.db.Close()
}

// collapseSpace turns every run of white space in q into one space.
func collapseSpace(q string) string {
	return strings.Join(strings.Fields(q), " ")
}

// shortQuery cuts q to at most n bytes and a mark, at a space when there
// is one in the second half, else at a rune boundary.
func shortQuery(q string, n int) string {
	if len(q) <= n {
		return q
	}
	if i := strings.LastIndexByte(q[:n], ' '); i > n/2 {
		return q[:i] + " …"
	}
	for n > 0 && !utf8.RuneStart(q[n]) {
		n--
	}
	return q[:n] + "…"
}

var (
	_ Source    = (*SQL)(nil)
	_ Placer    = (*SQL)(nil)
	_ io.Closer = (*SQL)(nil)
)
