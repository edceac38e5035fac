// Package state remembers, from one run of a sitemap set to the next, what
// each URL was: a fingerprint of its significant content, its lastmod,
// when it was first and last seen, and which file of the set holds it; what
// each file of the set holds; and what each run added, changed and removed.
// With it, a URL's lastmod means "the significant content of this page last
// changed then", each URL stays in its file (see publish.Options.Stable),
// and a run that finds no change changes nothing.
//
// The state is one SQLite file (modernc.org/sqlite: pure Go), kept outside
// the published folder: it is the site's history, not part of the site.
// Its tables can be read with any SQLite client:
//
//	urls(key, loc, fp, lastmod, first_seen, last_seen, file)
//	files(id, grp, n, name, entries, bytes, sum)
//	runs(id, at, added, changed, removed, unchanged, failed, published, queued)
//	changes(run, kind, loc, lastmod)
//	outbox(id, run, channel, target, urls, n, queued_at, attempts, last_error, done_at)
//	settings(k, v)
//
// key is a 64-bit hash of the canonical loc (see Key); first_seen and
// last_seen are run ids, last_seen being NULL for a URL the latest run saw;
// lastmod is "" when the URL has none. changes lists, for each run but the
// first (which records what it found, not as changes), the URLs it added,
// changed and removed; runs.published is 0 for a run whose set was not
// recorded as swapped in (see below).
//
// # Runs and safety
//
// A Run holds the file's write lock from Begin to Close: a second run on
// the same state fails at once rather than waiting. Its writes form one
// transaction, committed by Commit, which a caller calls before it swaps the
// new set in (publish.Builder.BeforeSwap), the run then marked unpublished;
// MarkPublished records the swap. A run killed before Commit leaves the
// state as it was, and the published set too. A run killed between Commit
// and MarkPublished leaves a run recorded as unpublished: the next Begin
// sees it (Run.Recovered), and since its changes are in the state already,
// the next set is built from them, so no change goes unrecorded and none is
// recorded twice.
package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"modernc.org/sqlite"
)

// Schema is the schema version this package writes; Open migrates older
// files to it and refuses newer ones.
const Schema = 3

// applicationID marks a SQLite file as a sitemapkit state ("SMKS").
const applicationID = 0x534d4b53

// migrations[i] takes a file from schema i to i+1.
var migrations = []string{
	// 1: the history.
	`CREATE TABLE runs(
		id INTEGER PRIMARY KEY,
		at TEXT NOT NULL,
		added INTEGER NOT NULL, changed INTEGER NOT NULL, removed INTEGER NOT NULL,
		unchanged INTEGER NOT NULL, failed INTEGER NOT NULL,
		published INTEGER NOT NULL
	);
	CREATE TABLE files(
		id INTEGER PRIMARY KEY,
		grp TEXT NOT NULL, n INTEGER NOT NULL,
		name TEXT NOT NULL, entries INTEGER NOT NULL, bytes INTEGER NOT NULL, sum TEXT NOT NULL,
		UNIQUE(grp, n)
	);
	CREATE TABLE urls(
		key INTEGER PRIMARY KEY,
		loc TEXT NOT NULL,
		fp INTEGER NOT NULL,
		lastmod TEXT NOT NULL,
		first_seen INTEGER NOT NULL,
		last_seen INTEGER,
		file INTEGER NOT NULL
	);
	CREATE TABLE changes(run INTEGER NOT NULL, kind TEXT NOT NULL, loc TEXT NOT NULL, lastmod TEXT NOT NULL);
	CREATE INDEX changes_run ON changes(run);`,
	// 2: the index of every URL packed in a few blobs, which a run loads
	// in milliseconds where reading a million rows takes a second.
	`CREATE TABLE snapshot(part INTEGER PRIMARY KEY, data BLOB NOT NULL);
	CREATE TABLE snapshot_run(run INTEGER NOT NULL);`,
	// 3: the outbox of notifications (see Outbox), and settings kept for
	// them (the IndexNow key, what was last submitted).
	`ALTER TABLE runs ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;
	CREATE TABLE outbox(
		id INTEGER PRIMARY KEY,
		run INTEGER NOT NULL,
		channel TEXT NOT NULL,
		target TEXT NOT NULL,
		urls TEXT NOT NULL,
		n INTEGER NOT NULL,
		queued_at TEXT NOT NULL,
		attempts INTEGER NOT NULL DEFAULT 0,
		last_error TEXT NOT NULL DEFAULT '',
		done_at TEXT
	);
	CREATE INDEX outbox_pending ON outbox(done_at);
	CREATE TABLE settings(k TEXT PRIMARY KEY, v TEXT NOT NULL);`,
}

// Errors Open and Begin return, with the file's path and what to do.
var (
	// ErrLocked: another run holds the state.
	ErrLocked = errors.New("in use by another run")
	// ErrNewer: the file was written by a newer sitemapkit.
	ErrNewer = errors.New("written by a newer sitemapkit")
	// ErrDamaged: the file is not a sitemapkit state, or is damaged.
	ErrDamaged = errors.New("not a sitemapkit state file, or damaged")
	// ErrOtherSite: the state is another set's (Options.Site).
	ErrOtherSite = errors.New("the state of another site")
)

// Error is an error about the state file at Path, saying what to do.
type Error struct {
	Path string
	Err  error
	Fix  string // what the user can do about it
}

func (e *Error) Error() string {
	s := "state " + e.Path + ": " + e.Err.Error()
	if e.Fix != "" {
		s += "; " + e.Fix
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// A Store is an open state file.
type Store struct {
	path    string
	scratch string // OpenCopy's copy, removed by Close
	db      *sql.DB
	conn    *sql.Conn // the one connection: SQLite's lock is per connection
}

// Open opens the state at path, creating it (and its folder) if missing,
// and migrating an older schema. It fails with an *Error wrapping
// ErrDamaged, ErrNewer or ErrLocked when it cannot be used as it is.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	missing, err := checkSize(path)
	if err != nil {
		return nil, err
	}
	if missing {
		if err := create(ctx, path); err != nil {
			return nil, err
		}
	}
	return open(ctx, path)
}

// checkSize refuses an empty file at path, and reports whether there is
// none. SQLite takes an empty file for a new database: a state truncated
// to nothing (a copy cut short, a cache restored empty) would start a new
// state without a word, taking every lastmod back to its source's. Open
// never leaves one (see create); only a hot journal beside it, of a
// sitemapkit that did, is let through for SQLite to roll back.
func checkSize(path string) (missing bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("state %s: %w", path, err)
	case fi.Size() > 0:
		return false, nil
	}
	if _, err := os.Lstat(path + "-journal"); err == nil {
		return false, nil
	}
	return false, &Error{Path: path, Err: fmt.Errorf("%w (the file is empty, which a state never is: it was truncated)", ErrDamaged), Fix: damagedFix}
}

// create makes a new state at path, whole: built under a temp name beside
// it and linked into place, so that a run killed while creating it leaves
// no file, rather than the empty one checkSize refuses. A state another
// run created meanwhile is kept.
func create(ctx context.Context, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	name := tmp.Name()
	tmp.Close()
	defer os.Remove(name)
	defer os.Remove(name + "-journal")
	s, err := open(ctx, name)
	if err != nil {
		if se, ok := errors.AsType[*Error](err); ok {
			se.Path = path
		}
		return err
	}
	if err := s.Close(); err != nil {
		return fmt.Errorf("state %s: %w", path, err)
	}
	if err := os.Link(name, path); err != nil && !errors.Is(err, fs.ErrExist) {
		// A file system without hard links: renamed, which would replace
		// a state another run created in the same instant.
		if rerr := os.Rename(name, path); rerr != nil {
			return fmt.Errorf("state %s: %w", path, err)
		}
	}
	return nil
}

// open opens the SQLite file at path as a state, migrating it.
func open(ctx context.Context, path string) (*Store, error) {
	uri, err := fileURI(path)
	if err != nil {
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	c, err := sqlite.NewConnector(uri + "?_pragma=busy_timeout(0)&_pragma=foreign_keys(0)")
	if err != nil {
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	s := &Store{path: path, db: db, conn: conn}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// fileURI returns the SQLite URI of the file at path. SQLite reads a "file:"
// URI's path up to a "?" or "#" and decodes its %XX: a path holding one of
// those, written as it is, named another file ("st?1.db" opened "st", and
// two such states were one), so the path is escaped, and made absolute so
// that no "//" can start an authority.
func fileURI(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	abs = filepath.ToSlash(abs)
	if !strings.HasPrefix(abs, "/") {
		abs = "/" + abs // a Windows drive: file:///C:/…
	}
	return "file://" + (&url.URL{Path: abs}).EscapedPath(), nil
}

// Path returns the state's file.
func (s *Store) Path() string { return s.path }

// Close closes the file.
func (s *Store) Close() error {
	err := s.conn.Close()
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	if s.scratch != "" {
		os.Remove(s.scratch)
		os.Remove(s.scratch + "-journal")
	}
	return err
}

// fail words a SQLite error about the file as an *Error when it says the
// file is locked or damaged, and wraps it otherwise.
func (s *Store) fail(what string, err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked"):
		return &Error{Path: s.path, Err: ErrLocked, Fix: "wait for the other run to finish (or stop it), then run again"}
	case strings.Contains(msg, "SQLITE_NOTADB") || strings.Contains(msg, "not a database") ||
		strings.Contains(msg, "SQLITE_CORRUPT") || strings.Contains(msg, "malformed"):
		return &Error{Path: s.path, Err: fmt.Errorf("%w (%s)", ErrDamaged, msg), Fix: damagedFix}
	}
	return fmt.Errorf("state %s: %s: %w", s.path, what, err)
}

const damagedFix = "move it aside and run again: the next run starts a new state, taking each URL's lastmod from its source"

// migrate brings the file to Schema, in one transaction.
func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.conn.BeginTx(ctx, nil)
	if err != nil {
		return s.fail("begin", err)
	}
	defer tx.Rollback()
	// Take the write lock now: two runs must not migrate at once.
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS _lock(x); DROP TABLE _lock`); err != nil {
		return s.fail("lock", err)
	}
	var version, app int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return s.fail("schema version", err)
	}
	if err := tx.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
		return s.fail("application id", err)
	}
	var tables int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&tables); err != nil {
		return s.fail("tables", err)
	}
	switch {
	case app != applicationID && (tables > 0 || version > 0):
		return &Error{Path: s.path, Err: ErrDamaged, Fix: "it is some other SQLite database: give --state a file of its own"}
	case version > Schema:
		return &Error{Path: s.path, Err: fmt.Errorf("%w (schema %d; this one knows up to %d)", ErrNewer, version, Schema),
			Fix: "upgrade sitemapkit, or move the file aside to start a new state"}
	case version == Schema:
		return nil
	}
	for v := version; v < Schema; v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return s.fail(fmt.Sprintf("migrating to schema %d", v+1), err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d; PRAGMA application_id = %d`, Schema, applicationID)); err != nil {
		return s.fail("schema version", err)
	}
	if err := tx.Commit(); err != nil {
		return s.fail("commit", err)
	}
	return nil
}

// OpenCopy opens a throwaway copy of the state at path, for a dry run:
// the file at path is only read (a missing one is an empty state), and
// whatever a run does to the copy is lost on Close.
func OpenCopy(ctx context.Context, path string) (*Store, error) {
	if _, err := checkSize(path); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp("", "sitemapkit-dry-run-*.db")
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	name := tmp.Name()
	tmp.Close()
	// A run killed mid-transaction leaves its hot journal beside the file:
	// the copy takes it too, so that SQLite rolls the copy back to what the
	// killed run began from, as it would roll the state back on a real run.
	err = copyFile(name, path)
	if err == nil {
		err = copyFile(name+"-journal", path+"-journal")
	}
	if err != nil {
		os.Remove(name)
		os.Remove(name + "-journal")
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	s, err := open(ctx, name)
	if err != nil {
		os.Remove(name)
		if se, ok := errors.AsType[*Error](err); ok {
			se.Path = path
		}
		return nil, err
	}
	s.path, s.scratch = path, name
	return s, nil
}

// copyFile copies src to dst; a missing src is no file to copy.
func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
