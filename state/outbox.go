package state

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// The outbox holds the notifications of a site's changes (package submit
// sends them): each is written here before it is sent, and marked done
// only once it was accepted, so that a run that fails or is killed leaves
// it pending for the next, and one that was accepted is not sent again.

// An Item is one notification: a request to one target of one channel.
type Item struct {
	ID      int64
	Run     int64  // the run whose changes it carries; 0 for one not tied to a run
	Channel string // "indexnow", "websub", "search-console", "ping"
	Target  string // the host (indexnow), the hub (websub), the sitemap (search-console, ping)
	// URLs are what an IndexNow request lists; the feed's URL for WebSub.
	URLs      []string
	Attempts  int
	LastError string // why the last attempt failed
}

// Outbox is the state's notifications, opened by Store.Outbox.
type Outbox struct {
	s *Store
}

// Outbox opens the state's outbox. It fails with ErrLocked while a run
// holds the state.
func (s *Store) Outbox(ctx context.Context) (*Outbox, error) {
	if _, err := s.conn.ExecContext(ctx, `UPDATE settings SET v = v WHERE 0`); err != nil {
		return nil, s.fail("outbox", err)
	}
	return &Outbox{s: s}, nil
}

// Changes returns, for every published run whose changes were not queued
// yet, the URLs it added, changed and removed, in run order: what
// IndexNow is told. A state's first run records none (its baseline).
func (o *Outbox) Changes(ctx context.Context) (runs []int64, urls map[int64][]string, err error) {
	rows, err := o.s.conn.QueryContext(ctx, `SELECT r.id, c.loc FROM runs r LEFT JOIN changes c ON c.run = r.id
		WHERE r.published = 1 AND r.queued = 0 ORDER BY r.id, c.rowid`)
	if err != nil {
		return nil, nil, o.s.fail("changes", err)
	}
	defer rows.Close()
	urls = map[int64][]string{}
	for rows.Next() {
		var run int64
		var loc sql.NullString
		if err := rows.Scan(&run, &loc); err != nil {
			return nil, nil, o.s.fail("changes", err)
		}
		if len(runs) == 0 || runs[len(runs)-1] != run {
			runs = append(runs, run)
		}
		if loc.Valid {
			urls[run] = append(urls[run], loc.String)
		}
	}
	return runs, urls, rows.Err()
}

// Enqueue writes items to the outbox, marks runs as queued and keeps
// settings, in one transaction: a change is queued once.
func (o *Outbox) Enqueue(ctx context.Context, runs []int64, items []Item, settings map[string]string) error {
	tx, err := o.s.conn.BeginTx(ctx, nil)
	if err != nil {
		return o.s.fail("outbox", err)
	}
	defer tx.Rollback()
	for _, it := range items {
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox(run, channel, target, urls, queued_at) VALUES(?, ?, ?, ?, ?)`,
			it.Run, it.Channel, it.Target, strings.Join(it.URLs, "\n"), time.Now().UTC().Format(time.RFC3339)); err != nil {
			return o.s.fail("outbox", err)
		}
	}
	for _, r := range runs {
		if _, err := tx.ExecContext(ctx, `UPDATE runs SET queued = 1 WHERE id = ?`, r); err != nil {
			return o.s.fail("runs", err)
		}
	}
	for k, v := range settings {
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`, k, v); err != nil {
			return o.s.fail("settings", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return o.s.fail("outbox", err)
	}
	return nil
}

// Pending returns the items not yet accepted, oldest first.
func (o *Outbox) Pending(ctx context.Context) ([]Item, error) {
	rows, err := o.s.conn.QueryContext(ctx, `SELECT id, run, channel, target, urls, attempts, last_error FROM outbox WHERE done_at IS NULL ORDER BY id`)
	if err != nil {
		return nil, o.s.fail("outbox", err)
	}
	defer rows.Close()
	var items []Item
	for rows.Next() {
		var it Item
		var urls string
		if err := rows.Scan(&it.ID, &it.Run, &it.Channel, &it.Target, &urls, &it.Attempts, &it.LastError); err != nil {
			return nil, o.s.fail("outbox", err)
		}
		if urls != "" {
			it.URLs = strings.Split(urls, "\n")
		}
		items = append(items, it)
	}
	return items, rows.Err()
}

// Done marks an item accepted: it is never sent again.
func (o *Outbox) Done(ctx context.Context, id int64) error {
	_, err := o.s.conn.ExecContext(ctx, `UPDATE outbox SET done_at = ?, attempts = attempts + 1, last_error = '' WHERE id = ?`,
		time.Now().UTC().Format(time.RFC3339), id)
	if err != nil {
		return o.s.fail("outbox", err)
	}
	return nil
}

// Failed records a failed attempt; the item stays pending.
func (o *Outbox) Failed(ctx context.Context, id int64, why error) error {
	_, err := o.s.conn.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?`, why.Error(), id)
	if err != nil {
		return o.s.fail("outbox", err)
	}
	return nil
}

// Setting returns the value kept under key ("" when none): the IndexNow
// key, the checksum of what was last submitted of a file.
func (o *Outbox) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := o.s.conn.QueryRowContext(ctx, `SELECT v FROM settings WHERE k = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", o.s.fail("settings", err)
	}
	return v, nil
}

// SetSetting keeps value under key.
func (o *Outbox) SetSetting(ctx context.Context, key, value string) error {
	if _, err := o.s.conn.ExecContext(ctx, `INSERT INTO settings(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`, key, value); err != nil {
		return o.s.fail("settings", err)
	}
	return nil
}
