package state

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"modernc.org/sqlite"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

const base = "https://www.example.com/"

// page is a URL of a test site and its content's fingerprint.
type page struct {
	loc, lastmod string
	fp           uint64
}

func pages(n int) []page {
	var ps []page
	for i := range n {
		ps = append(ps, page{loc: base + "p/" + strconv.Itoa(i), fp: uint64(i + 1)})
	}
	return ps
}

// run builds the set of ps into dir against the state at path, as the
// command does, and returns the published URLs' lastmods and the counts.
func run(t *testing.T, path, dir string, o Options, ps []page) (map[string]string, Counts, *publish.Result) {
	t.Helper()
	ctx := context.Background()
	r, b, end := begin(t, path, dir, o)
	defer end()
	b.BeforeSwap(func(res *publish.Result) error { return r.Commit(ctx, res) })
	got := map[string]string{}
	for _, p := range ps {
		u := sitemap.URL{Loc: p.loc, LastMod: p.lastmod}
		err := r.Add(&u, p.fp, true, "", func(u *sitemap.URL, file int) (int, error) {
			got[u.Loc] = u.LastMod
			return b.Place(ctx, u, file)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	res := publishRun(t, r, b)
	return got, r.Counts(), res
}

// publishRun publishes b's set, committing r before the swap (see
// begin), and records it as published.
func publishRun(t *testing.T, r *Run, b *publish.Builder) *publish.Result {
	t.Helper()
	res, err := b.Publish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.MarkPublished(context.Background()); err != nil {
		t.Fatal(err)
	}
	return res
}

func TestContentLastmod(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	dir := t.TempDir()
	t1 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	ps := pages(10)
	ps[3].lastmod = "2020-05-01"
	got, n, _ := run(t, path, dir, Options{Now: t1, Content: true}, ps)
	if got[ps[0].loc] != "" || got[ps[3].loc] != "2020-05-01" {
		t.Errorf("first run: lastmods %q and %q, want none and the source's", got[ps[0].loc], got[ps[3].loc])
	}
	if n.Added != 10 {
		t.Errorf("first run: %+v, want 10 added", n)
	}

	// Second run: page 5's content changes, page 6's source date moves
	// alone (not a change: the fingerprint is the content's), page 10 is
	// new, page 9 is gone.
	t2 := t1.Add(24 * time.Hour)
	ps[5].fp = 99
	ps[6].lastmod = "2026-01-02"
	ps = append(ps[:9], page{loc: base + "p/new", fp: 1000})
	got, n, res := run(t, path, dir, Options{Now: t2, Content: true}, ps)
	want := Counts{Added: 1, Changed: 1, Removed: 1, Unchanged: 8}
	if n != want {
		t.Errorf("second run: %+v, want %+v", n, want)
	}
	for loc, lm := range map[string]string{ps[5].loc: "2026-01-02T10:00:00+00:00", ps[9].loc: "2026-01-02T10:00:00+00:00",
		ps[6].loc: "", ps[3].loc: "2020-05-01", ps[0].loc: ""} {
		if got[loc] != lm {
			t.Errorf("second run: %s lastmod %q, want %q", loc, got[loc], lm)
		}
	}
	kept := 0
	for _, f := range res.Files {
		if f.Kept {
			kept++
		}
	}
	if kept == 0 {
		t.Errorf("second run rewrote every file: %+v", res.Files)
	}

	// Third run, no change: everything as it was, nothing rewritten.
	again, n, res := run(t, path, dir, Options{Now: t2.Add(time.Hour), Content: true}, ps)
	if n != (Counts{Unchanged: 10}) {
		t.Errorf("third run: %+v, want 10 unchanged", n)
	}
	for loc, lm := range got {
		if again[loc] != lm {
			t.Errorf("third run: %s lastmod %q, was %q", loc, again[loc], lm)
		}
	}
	for _, f := range res.Files {
		if !f.Kept {
			t.Errorf("third run rewrote %s", f.Name)
		}
	}
	// The history, as any SQLite client reads it.
	db := openRaw(t, path)
	var changes int
	if err := db.QueryRow(`SELECT count(*) FROM changes WHERE run = 2`).Scan(&changes); err != nil || changes != 3 {
		t.Errorf("changes of run 2: %d (%v), want 3", changes, err)
	}
}

func openRaw(t *testing.T, path string) *sql.DB {
	t.Helper()
	c, err := sqlite.NewConnector("file:" + path)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	t.Cleanup(func() { db.Close() })
	return db
}

// TestSnapshotMatchesRows: the index a run loads from the snapshot is the
// one the rows give.
func TestSnapshotMatchesRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	dir := t.TempDir()
	ps := pages(50)
	ps[7].lastmod = "2024-02-03T04:05:06-07:30"
	run(t, path, dir, Options{Now: time.Unix(1e9, 0)}, ps)
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.Begin(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fromRows, err := r.loadRows(ctx, nil, "0 FROM urls")
	if err != nil {
		t.Fatal(err)
	}
	if len(fromRows) != len(r.x.recs) || len(fromRows) != 50 {
		t.Fatalf("%d URLs from the snapshot, %d from the rows, want 50", len(r.x.recs), len(fromRows))
	}
	// The snapshot is in the last run's order: the sources', here.
	for i, p := range ps {
		if r.x.recs[i].key != Key(p.loc) {
			t.Fatalf("snapshot: URL %d is not %s: the run's order is lost", i, p.loc)
		}
	}
	for _, p := range fromRows {
		i := r.x.find(p.key)
		if i < 0 || r.x.recs[i] != p {
			t.Errorf("row %+v: snapshot has %+v", p, r.x.recs[max(i, 0)])
		}
	}
	if lm := r.x.recs[r.x.find(Key(ps[7].loc))].lm.String(); lm != ps[7].lastmod {
		t.Errorf("lastmod %q came back as %q", ps[7].lastmod, lm)
	}
}

func TestLastmodRoundTrip(t *testing.T) {
	for _, s := range []string{"2024-05-01", "2024-05-01T10:00:00Z", "2024-05-01T10:00:00+00:00",
		"2024-05-01T23:59:59-05:00", "1999-12-31T23:59:59+14:00", "0001-01-01", "9999-12-31T23:59:59Z"} {
		lm, ok := packLastmod(s)
		if !ok || lm.String() != s {
			t.Errorf("%q: packed %v, back as %q", s, ok, lm.String())
		}
	}
	for _, s := range []string{"", "2024", "2024-05", "2024-05-01T10:00:00", "yesterday"} {
		if _, ok := packLastmod(s); ok {
			t.Errorf("%q packed", s)
		}
	}
	if lm, _ := packLastmod("2024-05-01T10:00+02:00"); lm.String() != "2024-05-01T10:00:00+02:00" {
		t.Errorf("hh:mm came back as %q", lm.String())
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()

	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte("this is not a database, but it is long enough to look like a header of one"), 0o644)
	if _, err := Open(ctx, garbage); !errors.Is(err, ErrDamaged) {
		t.Errorf("garbage: %v, want ErrDamaged", err)
	}

	other := filepath.Join(dir, "other.db")
	db := openRaw(t, other)
	if _, err := db.Exec(`CREATE TABLE shop(x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(ctx, other); !errors.Is(err, ErrDamaged) {
		t.Errorf("another application's database: %v, want ErrDamaged", err)
	}

	newer := filepath.Join(dir, "newer.db")
	s, err := Open(ctx, newer)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db = openRaw(t, newer)
	if _, err := db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctx, newer)
	if !errors.Is(err, ErrNewer) {
		t.Errorf("newer schema: %v, want ErrNewer", err)
	}
	if se, ok := errors.AsType[*Error](err); !ok || se.Fix == "" || se.Path != newer {
		t.Errorf("newer schema: %#v, want an *Error with its path and a way forward", err)
	}
}

func TestLocked(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	r, err := a.Begin(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := Open(ctx, path)
	if err == nil {
		_, err = b.Begin(ctx, Options{})
		b.Close()
	}
	if !errors.Is(err, ErrLocked) {
		t.Errorf("second run: %v, want ErrLocked", err)
	}
}

// TestMigrate: a file of schema 1 is brought to the current one, its
// history kept.
func TestMigrate(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	db := openRaw(t, path)
	if _, err := db.Exec(migrations[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA user_version = 1; PRAGMA application_id = ` + strconv.Itoa(applicationID) + `;
		INSERT INTO runs VALUES(1, '2024-01-01T00:00:00Z', 1, 0, 0, 0, 0, 1);
		INSERT INTO files VALUES(1, '', 1, 'sitemap.xml', 1, 100, '');
		INSERT INTO urls VALUES(5, 'https://www.example.com/', 7, '2023-01-01', 1, NULL, 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.Begin(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.x.recs) != 1 || r.x.recs[0].fp != 7 || r.x.recs[0].lm.String() != "2023-01-01" {
		t.Errorf("after migration: %+v, want the URL schema 1 held", r.x.recs)
	}
}

// TestRecovered: a run that committed but did not record its set as
// published is seen by the next, which publishes its changes.
func TestRecovered(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Begin(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	u := sitemap.URL{Loc: base}
	if err := r.Add(&u, 1, true, "", func(*sitemap.URL, int) (int, error) { return 1, nil }); err != nil {
		t.Fatal(err)
	}
	if err := r.Commit(ctx, &publish.Result{Files: []publish.File{{Name: "sitemap.xml", N: 1, Entries: 1}}}); err != nil {
		t.Fatal(err)
	}
	s.Close() // killed before MarkPublished
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err = s.Begin(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Recovered != 1 || r.x.size() != 1 {
		t.Errorf("Recovered = %d with %d URLs, want run 1's one URL", r.Recovered, r.x.size())
	}
}

// TestOpenCopyHotJournal: a dry run after a killed run sees the state as it
// was before the killed run's transaction, as a real run would once SQLite
// rolls the hot journal back, not the half-written main file.
func TestOpenCopyHotJournal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	run(t, path, t.TempDir(), Options{}, pages(3))

	// A transaction large enough to spill pages into the main file, left
	// open as a killed run leaves it; the copy of both files is the disk
	// as the kill left it.
	db := openRaw(t, path)
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{
		`CREATE TABLE junk(x BLOB)`,
		`INSERT INTO junk SELECT randomblob(4000) FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < 200) SELECT i FROM c)`,
		`PRAGMA cache_size = 1`, `BEGIN`, `UPDATE junk SET x = zeroblob(4000)`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	killed := filepath.Join(t.TempDir(), "state.db")
	for _, suffix := range []string{"", "-journal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(killed+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	s, err := OpenCopy(ctx, killed)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	err = s.conn.QueryRowContext(ctx, `SELECT count(*) FROM junk WHERE x = zeroblob(4000)`).Scan(&n)
	if err != nil || n != 0 {
		t.Errorf("dry run's copy: %d rows of the killed transaction, %v; want it rolled back", n, err)
	}
	r, err := s.Begin(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.x.size() != 3 {
		t.Errorf("dry run's copy holds %d URLs, want the 3 committed before the kill", r.x.size())
	}
	if _, err := os.Stat(killed + "-journal"); err != nil {
		t.Errorf("the dry run touched the killed run's journal: %v", err)
	}
}

// TestRenamedFileKeepsItsDate: the set's single file becomes child 1 of
// an index when a second file is needed; its URLs did not change, so its
// index <lastmod> is theirs, not the run's time (it was the run's time,
// as for a file whose content changed).
func TestRenamedFileKeepsItsDate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	dir := t.TempDir()
	t1 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	run(t, path, dir, Options{Now: t1, Content: true}, pages(4))
	_, _, res := run(t, path, dir, Options{Now: t1.Add(time.Hour), Content: true}, pages(5))
	xsdtest.Check(t, dir)
	var got []string
	for _, f := range res.Files {
		if !f.Index {
			got = append(got, f.LastMod)
		}
	}
	// File 1: four pages without a lastmod (a first run makes none up);
	// file 2: the page added, dated by the run.
	if want := []string{"", "2026-01-01T11:00:00+00:00"}; !slices.Equal(got, want) {
		t.Errorf("index lastmods %q, want %q", got, want)
	}
}

// TestEmptyFileRefused: a state truncated to nothing is damaged, not a new
// state: SQLite would take it for an empty database, and the run would
// start over without a word, taking every lastmod back to its source's.
// Open never leaves such a file itself: a new state appears whole.
func TestEmptyFileRefused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	o := Options{Now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Content: true}
	run(t, path, filepath.Join(dir, "out"), o, pages(3))
	if names, _ := filepath.Glob(filepath.Join(dir, ".state.db.new-*")); len(names) > 0 {
		t.Errorf("creating the state left %v", names)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func(context.Context, string) (*Store, error){"Open": Open, "OpenCopy": OpenCopy} {
		s, err := open(ctx, path)
		if err == nil {
			s.Close()
		}
		if se, ok := errors.AsType[*Error](err); !ok || !errors.Is(err, ErrDamaged) || se.Path != path {
			t.Errorf("%s of an empty state: %v, want an *Error wrapping ErrDamaged, with its path", name, err)
		}
	}
	// A missing file is a new state, for a dry run too.
	s, err := OpenCopy(ctx, filepath.Join(dir, "missing.db"))
	if err != nil {
		t.Fatalf("OpenCopy of a missing state: %v", err)
	}
	s.Close()
}

// TestChangeDatedAfterItsLastmod: a page that changed in a run whose
// clock reads no later than its lastmod (two runs in one second, or the
// clock set back) kept that lastmod, or went back in time: a crawler that
// read the page at that lastmod took it for unchanged since. Its new
// lastmod is now a second past the old one, in the run's form, unless
// the old one is more than a day ahead: a source's bogus date, not a
// clock's.
func TestChangeDatedAfterItsLastmod(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	dir := t.TempDir()
	t1 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	ps := pages(3)
	ps[2].lastmod = "2026-01-01" // the source's date, later than every clock below but the last
	run(t, path, dir, Options{Now: t1, Content: true}, ps)
	ps[0].fp, ps[1].fp = 50, 60
	got, _, _ := run(t, path, dir, Options{Now: t1.Add(time.Hour), Content: true}, ps) // p/0 and p/1 change
	if lm := got[ps[0].loc]; lm != "2026-01-01T11:00:00+00:00" {
		t.Fatalf("second run: lastmod %q, want the run's time", lm)
	}
	for _, tc := range []struct {
		name string
		now  time.Time
		want string
	}{
		{"the same second", t1.Add(time.Hour + 300*time.Millisecond), "2026-01-01T11:00:01+00:00"},
		{"the clock set back", t1.Add(-2 * time.Hour), "2026-01-01T11:00:02+00:00"},
		{"the clock right again", t1.Add(3 * time.Hour), "2026-01-01T13:00:00+00:00"},
	} {
		ps[0].fp++
		ps[2].fp++
		var n Counts
		got, n, _ = run(t, path, dir, Options{Now: tc.now, Content: true}, ps)
		if n.Changed != 2 {
			t.Errorf("%s: %+v, want 2 changed", tc.name, n)
		}
		if lm := got[ps[0].loc]; lm != tc.want {
			t.Errorf("%s: changed page's lastmod %q, want %q", tc.name, lm, tc.want)
		}
		if lm := got[ps[1].loc]; lm != "2026-01-01T11:00:00+00:00" {
			t.Errorf("%s: unchanged page's lastmod %q, want it kept", tc.name, lm)
		}
	}
	// A date alone (the first run kept the source's): changes dated by
	// clocks before it go past its midnight, in the run's form; then a
	// clock past it dates the change.
	if lm := got[ps[2].loc]; lm != "2026-01-01T13:00:00+00:00" {
		t.Errorf("page first dated 2026-01-01, changed three times: lastmod %q", lm)
	}

	// A source's date far in the future (2099) is no clock's doing: a
	// change is dated by the run, not a second past it.
	ps = append(ps, page{loc: base + "p/new", lastmod: "2099-01-01", fp: 1000})
	if got, _, _ = run(t, path, dir, Options{Now: t1.Add(4 * time.Hour), Content: true}, ps); got[ps[3].loc] != "2099-01-01" {
		t.Fatalf("new page dated 2099 by its source: lastmod %q", got[ps[3].loc])
	}
	ps[3].fp++
	got, _, _ = run(t, path, dir, Options{Now: t1.Add(5 * time.Hour), Content: true}, ps)
	if lm := got[ps[3].loc]; lm != "2026-01-01T15:00:00+00:00" {
		t.Errorf("page dated 2099 by its source, changed: lastmod %q, want the run's time", lm)
	}
}

// TestRestoreAfterUnswappedRun: a run that recorded its set (Commit) and
// was stopped before the swap leaves the state naming files that never
// went live. A page of such a file whose read then fails is kept from the
// set that is live, not dropped from it (its file "gone") and removed.
func TestRestoreAfterUnswappedRun(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	dir := t.TempDir()
	t1 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	ps := pages(8) // files 1 and 2 of 4
	run(t, path, dir, Options{Now: t1, Content: true}, ps)

	// Page 5 changes; the run commits, then its swap fails.
	ps[5].fp = 99
	func() {
		r, b, end := begin(t, path, dir, Options{Now: t1.Add(time.Hour), Content: true})
		defer end()
		stopped := errors.New("stopped before the swap")
		b.BeforeSwap(func(res *publish.Result) error {
			if err := r.Commit(ctx, res); err != nil {
				return err
			}
			return stopped
		})
		for _, p := range ps {
			u := sitemap.URL{Loc: p.loc}
			if err := r.Add(&u, p.fp, true, "", func(u *sitemap.URL, file int) (int, error) { return b.Place(ctx, u, file) }); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := b.Publish(ctx); !errors.Is(err, stopped) {
			t.Fatalf("Publish: %v, want the swap stopped", err)
		}
	}()

	// The next run cannot read page 6 (in file 2, which the state names
	// by the name the stopped run gave it).
	r, b, end := begin(t, path, dir, Options{Now: t1.Add(2 * time.Hour), Content: true})
	defer end()
	b.BeforeSwap(func(res *publish.Result) error { return r.Commit(ctx, res) })
	place := func(u *sitemap.URL, file int) (int, error) { return b.Place(ctx, u, file) }
	for i, p := range ps {
		if i == 6 {
			continue
		}
		u := sitemap.URL{Loc: p.loc}
		if err := r.Add(&u, p.fp, true, "", place); err != nil {
			t.Fatal(err)
		}
	}
	kept, err := r.Restore(ctx, dir, b.Published(), []string{ps[6].loc}, func(string) (Placer, error) { return place, nil })
	if err != nil {
		t.Fatal(err)
	}
	res := publishRun(t, r, b)
	if n := r.Counts(); kept != 1 || n.Kept != 1 || n.Removed != 0 {
		t.Errorf("Restore kept %d, counts %+v: want page 6 kept, none removed", kept, n)
	}
	xsdtest.Check(t, dir)
	var locs []string
	for _, f := range res.Files {
		if f.Index {
			continue
		}
		fh, err := os.Open(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		rd := sitemap.NewReader(fh)
		for u, err := rd.Read(); err == nil; u, err = rd.Read() {
			locs = append(locs, u.Loc)
		}
		fh.Close()
	}
	if len(locs) != 8 || !slices.Contains(locs, ps[6].loc) {
		t.Errorf("published after the failed read: %v, want the 8 pages, page 6 with them", locs)
	}
}

// begin opens the state at path and begins a run of o, with a stable
// Builder into dir; end closes all three.
func begin(t *testing.T, path, dir string, o Options) (r *Run, b *publish.Builder, end func()) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if r, err = s.Begin(ctx, o); err != nil {
		s.Close()
		t.Fatal(err)
	}
	if b, err = publish.New(publish.Options{Dir: dir, Base: base, MaxURLs: 4, Stable: true, NoDedupe: true, ChangedAt: o.Now}); err != nil {
		r.Close()
		s.Close()
		t.Fatal(err)
	}
	return r, b, func() { b.Abort(); r.Close(); s.Close() }
}

// TestOddPath: a state whose name holds what a SQLite URI reads as its end
// ("?", "#") or as an escape ("%41") is that very file: such a state was
// kept in another file ("st" for "st?1.db", shared by "st#2.db"), the one
// named left empty, which the next run refused as truncated.
func TestOddPath(t *testing.T) {
	work := t.TempDir()
	dir := t.TempDir()
	names := []string{"st?1.db", "st#2.db", "st%41.db", "sp ace&x=1.db"}
	for i, name := range names {
		path := filepath.Join(work, name)
		o := Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Content: true}
		run(t, path, dir, o, pages(i+1))
		o.Now = o.Now.Add(time.Hour)
		if _, n, _ := run(t, path, dir, o, pages(i+1)); n.Unchanged != i+1 {
			t.Errorf("%s: second run %+v, want the first run's %d URLs unchanged", name, n, i+1)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v, want the state in it", name, err)
		}
	}
	got, err := filepath.Glob(filepath.Join(work, "*"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = filepath.Base(got[i])
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(names))
	if !slices.Equal(got, want) {
		t.Errorf("folder of the states holds %q, want %q alone", got, want)
	}
}

// TestOtherSite: a state is its set's. A run of another base took every
// URL the state knew for removed, and dated each of its own by the run
// as a new page of a site the state knew; it is refused, naming both, and
// the state is left as it was for its own site.
func TestOtherSite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	dir := t.TempDir()
	t1 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	run(t, path, dir, Options{Now: t1, Content: true, Site: "https://www.example.com/"}, pages(3))
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Begin(ctx, Options{Now: t1.Add(time.Hour), Content: true, Site: "https://shop.example.org/"})
	var se *Error
	if !errors.Is(err, ErrOtherSite) || !errors.As(err, &se) || !strings.Contains(err.Error(), "https://www.example.com/") || se.Fix == "" {
		t.Fatalf("a run of another site: %v, want an *Error wrapping ErrOtherSite naming the state's site", err)
	}
	s.Close()
	// Its own site's runs go on, the state as it was.
	if _, n, _ := run(t, path, dir, Options{Now: t1.Add(2 * time.Hour), Content: true, Site: "https://www.example.com/"}, pages(3)); n != (Counts{Unchanged: 3}) {
		t.Errorf("the site's next run: %+v, want 3 unchanged", n)
	}
	// A state without a site (made before sitemapkit kept one) takes the
	// first run's.
	path2 := filepath.Join(t.TempDir(), "state.db")
	run(t, path2, t.TempDir(), Options{Now: t1, Content: true}, pages(2))
	dir2 := t.TempDir()
	run(t, path2, dir2, Options{Now: t1, Content: true, Site: "https://a.example/"}, pages(2))
	s2, err := Open(ctx, path2)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := s2.Begin(ctx, Options{Now: t1, Content: true, Site: "https://b.example/"}); !errors.Is(err, ErrOtherSite) {
		t.Errorf("a run of another site after the state took one: %v, want ErrOtherSite", err)
	}
}
