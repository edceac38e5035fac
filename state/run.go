package state

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/sitemapkit/sitemapkit/internal/offheap"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Options configure a Run.
type Options struct {
	// Now is the run's time: the lastmod of content seen changing in this
	// run. Callers take it from SOURCE_DATE_EPOCH when it is set, for
	// reproducible builds. It is kept to the second.
	Now time.Time
	// Content makes each URL's lastmod the time its current fingerprint
	// was first seen (see Run.Add). Otherwise the source's lastmod is
	// written as it is, and the state only keeps the files stable and
	// records the changes.
	Content bool
	// Site is the set's base URL, kept in the state by its first run. A
	// run of another base is refused (ErrOtherSite): it would take every
	// URL the state knows for removed, and date every one of its own by
	// the run, as new pages of a site the state knows. "" checks nothing.
	Site string
}

// Counts are what a run found, URL by URL.
type Counts struct {
	Added, Changed, Removed, Unchanged int
	// Kept: URLs whose read failed this run (Run.Keep), kept with their
	// previous entry and lastmod.
	Kept int
	// Duplicates: URLs given again in the same run, dropped.
	Duplicates int
}

// A Placer puts u in the set, in file number file of the current group
// (0: a URL the state has not seen there), and returns the number of the
// file that took it, or 0 if u was not added (refused or a duplicate):
// publish.Builder.Place. An error with a number is a warning about a URL
// added (publish.FieldsDropped): the URL is recorded, and Add returns it.
type Placer func(u *sitemap.URL, file int) (int, error)

// A Run is one build of the set against the state, begun by Begin: it
// decides each URL's lastmod, says which file each was in, and records
// what changed. It holds the state's write lock until Close.
type Run struct {
	s     *Store
	o     Options
	tx    *sql.Tx
	id    int64 // this run's id
	prev  int64 // the last run's id; 0 for an empty state
	now   lastmod
	x     *index
	fresh keySet           // the keys of this run's new URLs
	batch []any            // new URLs' rows not yet inserted, freshCols values each
	insN  *sql.Stmt        // inserts freshBatch rows
	files map[place]uint32 // file ids by group and number
	ids   map[uint32]place
	ins   *sql.Stmt // new URL
	chg   *sql.Stmt // a change record
	n     Counts
	// Recovered is the id of an earlier run that committed its changes
	// but was stopped before it recorded its set as published; this run
	// publishes them. 0 when there was none.
	Recovered int64
	done      bool
	all       []rec // after Commit: every URL the state has
	dirty     bool  // Commit found something to write to the snapshot
	frees     []func()
	seq       uint32 // URLs met so far: each one's place in this run's order
}

type place struct {
	group string
	n     int
}

// Begin starts a run: it takes the state's write lock (failing with an
// *Error wrapping ErrLocked if another run holds it) and loads the last
// run's URLs.
func (s *Store) Begin(ctx context.Context, o Options) (*Run, error) {
	tx, err := s.conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.fail("begin", err)
	}
	r := &Run{s: s, o: o, tx: tx, files: map[place]uint32{}, ids: map[uint32]place{}}
	if err := r.begin(ctx); err != nil {
		tx.Rollback()
		return nil, err
	}
	return r, nil
}

// site checks that the state is Options.Site's, and records the site in
// a state that has none yet (its first run, or one made by an older
// sitemapkit), with the run.
func (r *Run) site(ctx context.Context) error {
	if r.o.Site == "" {
		return nil
	}
	site, err := r.s.setting(ctx, r.tx, "site")
	switch {
	case err != nil:
		return err
	case site == "":
		if _, err := r.tx.ExecContext(ctx, `INSERT INTO settings(k, v) VALUES('site', ?)`, r.o.Site); err != nil {
			return r.s.fail("settings", err)
		}
		return nil
	}
	return r.s.siteError(site, r.o.Site)
}

// siteError is the error of a state made for the site have, used for
// want; nil when they are one, or either is unknown.
func (s *Store) siteError(have, want string) error {
	if have == "" || want == "" || have == want {
		return nil
	}
	return &Error{Path: s.path, Err: fmt.Errorf("%w: made for %s, not %s", ErrOtherSite, have, want),
		Fix: "give each set a state of its own (--state), or move this one aside to start a new state for " + want}
}

// CheckSite returns an *Error wrapping ErrOtherSite when the state was
// made for another site than site (see Options.Site), for a caller that
// reads the state without a run: submit, which would send one site's
// changes, and name its sitemap, as another's.
func (s *Store) CheckSite(ctx context.Context, site string) error {
	have, err := s.setting(ctx, s.conn, "site")
	if err != nil {
		return err
	}
	return s.siteError(have, site)
}

func (r *Run) begin(ctx context.Context) error {
	s, tx := r.s, r.tx
	// The write lock, at once: a second run fails now, not at its end.
	if _, err := tx.ExecContext(ctx, `DELETE FROM snapshot_run WHERE 0`); err != nil {
		return s.fail("lock", err)
	}
	var published sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT id, published FROM runs ORDER BY id DESC LIMIT 1`).Scan(&r.prev, &published)
	if err != nil && err != sql.ErrNoRows {
		return s.fail("runs", err)
	}
	if r.prev > 0 && published.Int64 == 0 {
		r.Recovered = r.prev
	}
	if err := r.site(ctx); err != nil {
		return err
	}
	r.now = timeLastmod(r.o.Now)
	res, err := tx.ExecContext(ctx, `INSERT INTO runs(at, added, changed, removed, unchanged, failed, published) VALUES(?, 0, 0, 0, 0, 0, 0)`, r.now.String())
	if err != nil {
		return s.fail("runs", err)
	}
	if r.id, err = res.LastInsertId(); err != nil {
		return s.fail("runs", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, grp, n FROM files`)
	if err != nil {
		return s.fail("files", err)
	}
	for rows.Next() {
		var id uint32
		var p place
		if err := rows.Scan(&id, &p.group, &p.n); err != nil {
			rows.Close()
			return s.fail("files", err)
		}
		r.files[p], r.ids[id] = id, p
	}
	if err := rows.Close(); err != nil {
		return s.fail("files", err)
	}
	recs, err := r.load(ctx)
	if err != nil {
		return err
	}
	r.x = newIndex(recs, r.words)
	// New URLs wait in a temp table, in the order they come, and join
	// urls at Commit in key order: appended to the tree rather than
	// scattered through it, which is faster and leaves its pages full.
	if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE fresh(key INTEGER, loc TEXT, fp INTEGER, lastmod TEXT, file INTEGER, seq INTEGER)`); err != nil {
		return s.fail("fresh", err)
	}
	row := "(?, ?, ?, ?, ?, ?)"
	if r.ins, err = tx.PrepareContext(ctx, `INSERT INTO temp.fresh VALUES `+row); err != nil {
		return s.fail("prepare", err)
	}
	if r.insN, err = tx.PrepareContext(ctx, `INSERT INTO temp.fresh VALUES `+row+strings.Repeat(", "+row, freshBatch-1)); err != nil {
		return s.fail("prepare", err)
	}
	if r.chg, err = tx.PrepareContext(ctx, `INSERT INTO changes(run, kind, loc, lastmod) VALUES(?, ?, ?, ?)`); err != nil {
		return s.fail("prepare", err)
	}
	return nil
}

// load reads the last run's URLs: from the snapshot when it is the last
// run's, else row by row.
func (r *Run) load(ctx context.Context) ([]rec, error) {
	s, tx := r.s, r.tx
	var snap int64
	err := tx.QueryRowContext(ctx, `SELECT run FROM snapshot_run`).Scan(&snap)
	if err != nil || snap != r.prev {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM urls`).Scan(&n); err != nil {
			return nil, s.fail("urls", err)
		}
		return r.loadRows(ctx, r.alloc(n), "0 FROM urls")
	}
	var size int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(length(data)), 0) FROM snapshot`).Scan(&size); err != nil {
		return nil, s.fail("snapshot", err)
	}
	recs := r.alloc(size / recSize)
	rows, err := tx.QueryContext(ctx, `SELECT data FROM snapshot ORDER BY part`)
	if err != nil {
		return nil, s.fail("snapshot", err)
	}
	defer rows.Close()
	for rows.Next() {
		var b sql.RawBytes
		if err := rows.Scan(&b); err != nil {
			return nil, s.fail("snapshot", err)
		}
		recs = decodeRecs(recs, b)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("snapshot", err)
	}
	return recs, nil
}

// alloc returns an empty slice with room for n recs, off the Go heap when
// it is large (see package offheap): the index is the run's one large
// allocation, and lives as long as the run. Close frees it.
func (r *Run) alloc(n int) []rec {
	w := r.words(n * recWords)
	return unsafe.Slice((*rec)(unsafe.Pointer(unsafe.SliceData(w))), len(w)/recWords)[:0]
}

// words returns at least n words, off the Go heap when they are many,
// until Close.
func (r *Run) words(n int) []uint64 {
	w, mapped := offheap.Alloc(n + pageWords) // whole pages are rounded down
	r.frees = append(r.frees, func() { offheap.Free(w, mapped) })
	return w[:n]
}

const (
	recWords  = int(unsafe.Sizeof(rec{}) / 8)
	pageWords = 64 << 10 / 8 // more than a page, on any system
)

// loadRows appends to recs the URLs of from, row by row: "0 FROM urls",
// or "seq FROM temp.fresh" (the column of their order).
func (r *Run) loadRows(ctx context.Context, recs []rec, from string, args ...any) ([]rec, error) {
	rows, err := r.tx.QueryContext(ctx, `SELECT key, fp, lastmod, file, `+from, args...)
	if err != nil {
		return nil, r.s.fail("urls", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, fp int64
		var lm sql.RawBytes
		var file, seq uint32
		if err := rows.Scan(&key, &fp, &lm, &file, &seq); err != nil {
			return nil, r.s.fail("urls", err)
		}
		p, _ := packLastmod(string(lm))
		recs = append(recs, rec{key: uint64(key), fp: uint64(fp), lm: p, file: file, flag: seq & seqMask})
	}
	if err := rows.Err(); err != nil {
		return nil, r.s.fail("urls", err)
	}
	return recs, nil
}

// Add adds u, whose significant content has fingerprint fp, to the set
// through place, in its file of group, and records it. With
// Options.Content it sets u.LastMod first:
//
//   - a URL the state knows, with the same fingerprint: its lastmod, as it
//     was written before;
//   - a known URL whose fingerprint changed: the run's time when fp comes
//     from the content (fromContent: a page, a content hash), since a
//     source's date that moved with it says less; else the source's own
//     date, its word on change, or the run's time when it has none. The
//     run's time is never at or before the lastmod it replaces (see
//     lastmod.after);
//   - a URL new to a state that knows others: the source's date, or the
//     run's time; in a new state (the first run): the source's date or
//     none, never the run's time for a page not seen to change.
//
// A URL given twice in a run is dropped as a duplicate. A URL place
// refuses is not recorded (and a known one is then removed from the set).
func (r *Run) Add(u *sitemap.URL, fp uint64, fromContent bool, group string, place Placer) error {
	key := Key(u.Loc)
	if i := r.x.find(key); i >= 0 {
		return r.again(&r.x.recs[i], u, fp, fromContent, group, place)
	}
	if r.fresh.has(key) {
		r.n.Duplicates++
		return nil
	}
	src, hasDate := packLastmod(u.LastMod)
	lm := src
	if r.o.Content {
		if !hasDate && !r.Empty() {
			lm = r.now
		}
		u.LastMod = lm.String()
	}
	n, perr := place(u, 0)
	if n == 0 {
		return perr // refused, or a duplicate: not recorded
	}
	r.fresh.add(key)
	id, err := r.fileID(group, n)
	if err != nil {
		return err
	}
	r.batch = append(r.batch, int64(key), strings.Clone(u.Loc), int64(fp), lm.String(), id, r.seq)
	r.seq++
	r.n.Added++
	if len(r.batch) == freshBatch*freshCols {
		if err := r.flush(); err != nil {
			return err
		}
	}
	return perr // added, perhaps with a warning (publish.FieldsDropped)
}

// freshBatch new URLs are inserted by one statement: the cost of a
// statement, in database/sql and SQLite, is then spread thin.
const (
	freshBatch = 256
	freshCols  = 6
)

// flush inserts the new URLs batched so far.
func (r *Run) flush() error {
	if len(r.batch) == freshBatch*freshCols {
		if _, err := r.insN.Exec(r.batch...); err != nil {
			return r.s.fail("urls", err)
		}
	} else {
		for b := r.batch; len(b) > 0; b = b[freshCols:] {
			if _, err := r.ins.Exec(b[:freshCols]...); err != nil {
				return r.s.fail("urls", err)
			}
		}
	}
	clear(r.batch)
	r.batch = r.batch[:0]
	return nil
}

// size is the number of URLs the last run had.
func (x *index) size() int { return len(x.recs) }

// again adds a URL the last run had.
func (r *Run) again(p *rec, u *sitemap.URL, fp uint64, fromContent bool, group string, place Placer) error {
	if p.flag&seen != 0 {
		r.n.Duplicates++
		return nil
	}
	changed := p.fp != fp
	lm := p.lm
	if !r.o.Content {
		lm, _ = packLastmod(u.LastMod)
	} else {
		if changed {
			src, hasDate := packLastmod(u.LastMod)
			lm = r.now.after(p.lm)
			if hasDate && !fromContent {
				lm = src
			}
		}
		u.LastMod = lm.String()
	}
	n, perr := place(u, r.number(p.file, group))
	if n == 0 {
		return perr
	}
	id, err := r.fileID(group, n)
	if err != nil {
		return err
	}
	p.flag = seen | r.seq&seqMask
	r.seq++
	if changed || id != p.file || lm != p.lm {
		p.flag |= dirty
		p.fp, p.lm, p.file = fp, lm, id
	}
	if changed {
		r.n.Changed++
		if _, err := r.chg.Exec(r.id, "changed", u.Loc, lm.String()); err != nil {
			return r.s.fail("changes", err)
		}
	} else {
		r.n.Unchanged++
	}
	return perr
}

// Keep adds u, a URL whose read failed this run, with its previous entry
// (read back from the published set by the caller) and lastmod, as
// unchanged. It reports false when the state does not know u.
func (r *Run) Keep(u *sitemap.URL, group string, place Placer) (bool, error) {
	i := r.x.find(Key(u.Loc))
	if i < 0 {
		return false, nil
	}
	p := &r.x.recs[i]
	if p.flag&seen != 0 {
		return true, nil
	}
	fp := p.fp
	if err := r.again(p, u, fp, true, group, place); err != nil {
		return true, err
	}
	if p.flag&seen != 0 {
		p.flag |= kept
		r.n.Unchanged--
		r.n.Kept++
	}
	return true, nil
}

// Restore keeps URLs whose read failed in this run: each the state knows
// and no source gave is added again, unchanged, with its entry as the
// published set in dir has it (read back from its file) and its lastmod,
// rather than dropped from the set or taken as changed. locs names them
// (canonical locs: a page that could not be read); nil means every URL not
// given, for a run where a read failed without naming its URL (a folder
// that could not be listed), whose removals must wait for a run that reads
// everything. placeIn returns the Placer of a group (the file a URL was in
// says which). published names the children of the set live in dir
// (publish.Builder.Published): a URL that the file the state names does not
// give (a run killed after Commit recorded files it never swapped in) is
// looked for in them, rather than dropped from the set. It returns how many
// it kept.
func (r *Run) Restore(ctx context.Context, dir string, published, locs []string, placeIn func(group string) (Placer, error)) (int, error) {
	byFile := map[uint32]map[uint64]bool{}
	add := func(p *rec) {
		if p.flag&seen != 0 {
			return
		}
		if byFile[p.file] == nil {
			byFile[p.file] = map[uint64]bool{}
		}
		byFile[p.file][p.key] = true
	}
	if locs == nil {
		for i := range r.x.recs {
			add(&r.x.recs[i])
		}
	}
	for _, l := range locs {
		if i := r.x.find(Key(l)); i >= 0 {
			add(&r.x.recs[i])
		}
	}
	ids := slices.Sorted(maps.Keys(byFile))
	kept := 0
	read := map[string]bool{}
	missed := map[uint64]bool{}
	for _, id := range ids {
		var name string
		if _, ok := r.ids[id]; ok {
			_ = r.tx.QueryRowContext(ctx, `SELECT name FROM files WHERE id = ?`, id).Scan(&name)
		}
		if name != "" {
			read[name] = true
			n, err := r.restoreFrom(filepath.Join(dir, name), byFile[id], placeIn)
			kept += n
			if err != nil {
				return kept, err
			}
		}
		for k := range byFile[id] {
			if i := r.x.find(k); i >= 0 && r.x.recs[i].flag&seen == 0 {
				missed[k] = true
			}
		}
	}
	for _, name := range published {
		if len(missed) == 0 {
			break
		}
		if read[name] {
			continue
		}
		n, err := r.restoreFrom(filepath.Join(dir, name), missed, placeIn)
		kept += n
		if err != nil {
			return kept, err
		}
	}
	return kept, nil
}

// restoreFrom keeps the URLs of keys that the published file path lists,
// each in the group of the file the state has it in, and takes them out of
// keys.
func (r *Run) restoreFrom(path string, keys map[uint64]bool, placeIn func(group string) (Placer, error)) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil // the file is gone: the URLs go with it
	}
	defer f.Close()
	rd := sitemap.NewReader(f)
	rd.Name = path
	kept := 0
	for {
		u, err := rd.Read()
		if err != nil {
			return kept, nil // the end, or damage: what was read is kept
		}
		k := Key(u.Loc)
		i := r.x.find(k)
		if !keys[k] || i < 0 {
			continue
		}
		delete(keys, k)
		group := r.ids[r.x.recs[i].file].group
		place, err := placeIn(group)
		if err != nil {
			return kept, err
		}
		if ok, err := r.Keep(u, group, place); err != nil {
			return kept, err
		} else if ok {
			kept++
		}
	}
}

// number is the number of file id in group, or 0 when it is another
// group's (a URL that moved to another group is new there).
func (r *Run) number(id uint32, group string) int {
	p, ok := r.ids[id]
	if !ok || p.group != group {
		return 0
	}
	return p.n
}

// fileID returns the id of file n of group, recording it if new.
func (r *Run) fileID(group string, n int) (uint32, error) {
	p := place{group, n}
	if id, ok := r.files[p]; ok {
		return id, nil
	}
	res, err := r.tx.Exec(`INSERT INTO files(grp, n, name, entries, bytes, sum) VALUES(?, ?, '', 0, 0, '')`, group, n)
	if err != nil {
		return 0, r.s.fail("files", err)
	}
	id64, err := res.LastInsertId()
	if err != nil {
		return 0, r.s.fail("files", err)
	}
	id := uint32(id64)
	r.files[p], r.ids[id] = id, p
	return id, nil
}

// Counts returns what the run found so far; after Commit, the removed
// URLs are counted too.
func (r *Run) Counts() Counts { return r.n }

// ID returns the run's id in the runs table.
func (r *Run) ID() int64 { return r.id }

// Empty reports whether the state knew no URL when the run began (its
// first run).
func (r *Run) Empty() bool { return r.x.size() == 0 && r.prev == 0 }

// Removed counts the URLs of the last run that no source gave in this one
// (they are removed by Commit).
func (r *Run) Removed() int {
	if r.done {
		return r.n.Removed
	}
	n := 0
	for i := range r.x.recs {
		if r.x.recs[i].flag&seen == 0 {
			n++
		}
	}
	return n
}

// Commit records the run, given the set about to be published (call it
// from publish.Builder.BeforeSwap): the URLs no source gave are removed,
// the files merged are renumbered, each file's record updated, and the
// run saved as unpublished until MarkPublished.
func (r *Run) Commit(ctx context.Context, set *publish.Result) error {
	if r.done {
		return fmt.Errorf("state: run %d already ended", r.id)
	}
	if err := r.commit(ctx, set); err != nil {
		return err
	}
	r.done = true
	if err := r.tx.Commit(); err != nil {
		return r.s.fail("commit", err)
	}
	return nil
}

func (r *Run) commit(ctx context.Context, set *publish.Result) error {
	s, tx := r.s, r.tx
	if err := r.flush(); err != nil {
		return err
	}
	// Merged files: their URLs now live in the file they joined.
	for _, m := range set.Moves {
		from, okFrom := r.files[place{m.Group, m.From}]
		to, err := r.fileID(m.Group, m.To)
		if err != nil {
			return err
		}
		if !okFrom {
			continue
		}
		for i := range r.x.recs {
			if p := &r.x.recs[i]; p.file == from && p.flag&seen != 0 {
				p.file, p.flag = to, p.flag|dirty
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE temp.fresh SET file = ? WHERE file = ?`, to, from); err != nil {
			return s.fail("urls", err)
		}
	}
	upd, err := tx.PrepareContext(ctx, `UPDATE urls SET fp = ?, lastmod = ?, file = ?, last_seen = NULL WHERE key = ?`)
	if err != nil {
		return s.fail("prepare", err)
	}
	del, err := tx.PrepareContext(ctx, `DELETE FROM urls WHERE key = ? RETURNING loc, lastmod`)
	if err != nil {
		return s.fail("prepare", err)
	}
	keep, err := tx.PrepareContext(ctx, `UPDATE urls SET last_seen = ? WHERE key = ? AND last_seen IS NULL`)
	if err != nil {
		return s.fail("prepare", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO urls(key, loc, fp, lastmod, first_seen, last_seen, file)
		SELECT key, loc, fp, lastmod, ?, NULL, file FROM temp.fresh ORDER BY key`, r.id); err != nil {
		return s.fail("urls", err)
	}
	// A first run records what it found, not as changes: the site was not
	// just made.
	if !r.Empty() {
		if _, err := tx.ExecContext(ctx, `INSERT INTO changes(run, kind, loc, lastmod) SELECT ?, 'added', loc, lastmod FROM temp.fresh`, r.id); err != nil {
			return s.fail("changes", err)
		}
	}
	// live is the URLs that stay, compacted in place.
	live := r.x.recs[:0]
	r.dirty = r.n.Added > 0
	for _, p := range r.x.recs {
		r.dirty = r.dirty || p.flag&(seen|dirty) != seen
		switch {
		case p.flag&seen == 0:
			var loc, lm string
			if err := del.QueryRowContext(ctx, int64(p.key)).Scan(&loc, &lm); err != nil {
				return s.fail("urls", err)
			}
			if _, err := r.chg.ExecContext(ctx, r.id, "removed", loc, lm); err != nil {
				return s.fail("changes", err)
			}
			r.n.Removed++
			continue
		case p.flag&dirty != 0:
			if _, err := upd.ExecContext(ctx, int64(p.fp), p.lm.String(), p.file, int64(p.key)); err != nil {
				return s.fail("urls", err)
			}
		}
		if p.flag&kept != 0 && r.prev > 0 {
			if _, err := keep.ExecContext(ctx, r.prev, int64(p.key)); err != nil {
				return s.fail("urls", err)
			}
		}
		p.flag &= seqMask
		live = append(live, p)
	}
	if err := r.saveFiles(ctx, set); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE runs SET added = ?, changed = ?, removed = ?, unchanged = ?, failed = ? WHERE id = ?`,
		r.n.Added, r.n.Changed, r.n.Removed, r.n.Unchanged, r.n.Kept, r.id); err != nil {
		return s.fail("runs", err)
	}
	return r.saveSnapshot(ctx, live)
}

// A Change is a URL and its lastmod.
type Change struct {
	Loc, LastMod string
}

// Latest returns, after Commit, the n URLs with the latest lastmods (ties
// broken by key, so the choice is the same every run), for a feed of the
// site's changes. URLs without a lastmod are not listed.
func (r *Run) Latest(ctx context.Context, n int) ([]Change, error) {
	top := latest(r.all, n)
	var out []Change
	for _, p := range top {
		var loc string
		if err := r.s.conn.QueryRowContext(ctx, `SELECT loc FROM urls WHERE key = ?`, int64(p.key)).Scan(&loc); err != nil {
			return nil, r.s.fail("urls", err)
		}
		out = append(out, Change{Loc: loc, LastMod: p.lm.String()})
	}
	return out, nil
}

// latest returns the n recs with the latest lastmods, latest first (ties
// broken by key), keeping only n at a time: a min-heap of the n best met
// so far, its root the one to give up next. Copying every URL of the state
// to sort them held 32 bytes a URL on the Go heap, which the state keeps
// off it.
func latest(all []rec, n int) []rec {
	before := func(a, b rec) int { // < 0: a comes before b in the feed
		if c := cmp.Compare(b.lm.instant(), a.lm.instant()); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	}
	if n <= 0 {
		return nil
	}
	var top []rec
	down := func(i int) {
		for {
			worst, l, r := i, 2*i+1, 2*i+2
			if l < len(top) && before(top[worst], top[l]) < 0 {
				worst = l
			}
			if r < len(top) && before(top[worst], top[r]) < 0 {
				worst = r
			}
			if worst == i {
				return
			}
			top[i], top[worst] = top[worst], top[i]
			i = worst
		}
	}
	for _, p := range all {
		switch {
		case p.lm&lmSet == 0:
		case len(top) < n:
			top = append(top, p)
			for i := len(top) - 1; i > 0; {
				parent := (i - 1) / 2
				if before(top[parent], top[i]) >= 0 {
					break
				}
				top[i], top[parent] = top[parent], top[i]
				i = parent
			}
		case before(p, top[0]) < 0:
			top[0] = p
			down(0)
		}
	}
	slices.SortFunc(top, before)
	return top
}

// saveFiles records each child of set under its group and number, and
// forgets the files it no longer has.
func (r *Run) saveFiles(ctx context.Context, set *publish.Result) error {
	s, tx := r.s, r.tx
	have := map[uint32]bool{}
	for _, f := range set.Files {
		if f.Index {
			continue
		}
		id, err := r.fileID(f.Group, f.N)
		if err != nil {
			return err
		}
		have[id] = true
		if _, err := tx.ExecContext(ctx, `UPDATE files SET name = ?, entries = ?, bytes = ?, sum = ? WHERE id = ?`,
			f.Name, f.Entries, f.Bytes, sumOf(f.Name), id); err != nil {
			return s.fail("files", err)
		}
	}
	for id := range r.ids {
		if !have[id] {
			if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE id = ?`, id); err != nil {
				return s.fail("files", err)
			}
		}
	}
	return nil
}

// sumOf is the content checksum a child's name carries
// (stem-N-XXXXXXXX.ext), or "" for the single file.
func sumOf(name string) string {
	for i := 0; i+8 <= len(name); i++ {
		if name[i] == '-' && i+9 <= len(name) && name[i+9] == '.' {
			return name[i+1 : i+9]
		}
	}
	return ""
}

// snapshotPart is the number of URLs in one blob of the snapshot (1 MiB).
const snapshotPart = 1 << 20 / recSize

// saveSnapshot stores the index of every URL the state now has: the last
// run's that stay (live) and this run's new ones, unless nothing changed.
func (r *Run) saveSnapshot(ctx context.Context, live []rec) error {
	s, tx := r.s, r.tx
	r.all = live
	if r.dirty {
		r.fresh.release() // no longer needed: let it go before the next allocation
		all := live
		if r.n.Added > 0 {
			all = append(r.alloc(len(live)+r.n.Added), live...)
		}
		all, err := r.loadRows(ctx, all, `seq FROM temp.fresh`)
		if err != nil {
			return err
		}
		// This run's order, for the next run's lookups (see index).
		slices.SortFunc(all, func(a, b rec) int { return cmp.Compare(a.flag, b.flag) })
		r.all = all
		if _, err := tx.ExecContext(ctx, `DELETE FROM snapshot`); err != nil {
			return s.fail("snapshot", err)
		}
		var buf []byte
		for part := 0; part*snapshotPart < len(all); part++ {
			chunk := all[part*snapshotPart : min(len(all), (part+1)*snapshotPart)]
			buf = encodeRecs(buf[:0], chunk)
			if _, err := tx.ExecContext(ctx, `INSERT INTO snapshot(part, data) VALUES(?, ?)`, part, buf); err != nil {
				return s.fail("snapshot", err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM snapshot_run; INSERT INTO snapshot_run(run) VALUES(?)`, r.id); err != nil {
		return s.fail("snapshot", err)
	}
	return nil
}

// MarkPublished records that the set Commit recorded is live, and that
// the run it recovered (see Run.Recovered), if any, reached the set
// through this one.
func (r *Run) MarkPublished(ctx context.Context) error {
	if _, err := r.s.conn.ExecContext(ctx, `UPDATE runs SET published = 1 WHERE id = ? OR (published = 0 AND id < ?)`, r.id, r.id); err != nil {
		return r.s.fail("runs", err)
	}
	return nil
}

// Close ends the run; without Commit, nothing it did is kept.
func (r *Run) Close() error {
	for _, free := range r.frees {
		free()
	}
	r.fresh.release()
	r.frees, r.x, r.all = nil, nil, nil
	if r.done {
		return nil
	}
	r.done = true
	return r.tx.Rollback()
}
