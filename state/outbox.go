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
	// Pending leaves them out (see URLs).
	URLs      []string
	Count     int // len(URLs), as the outbox recorded it
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

// Batching says how Queue turns runs' changes into IndexNow items: at
// most Max URLs each (0: the runs are only marked queued), one host each
// (Host names a URL's host; "" drops the URL).
type Batching struct {
	Max  int
	Host func(url string) string
}

// Queue writes items to the outbox, and, for every published run not
// queued yet, its added, changed and removed URLs as IndexNow items (see
// Batching); marks those runs queued; and keeps settings: in one
// transaction, so that a change is queued once. It reads the changes row
// by row: memory holds one batch per host. A state's first run records no
// change (its baseline), so it queues none.
func (o *Outbox) Queue(ctx context.Context, items []Item, settings map[string]string, b Batching) error {
	tx, err := o.s.conn.BeginTx(ctx, nil)
	if err != nil {
		return o.s.fail("outbox", err)
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO outbox(run, channel, target, urls, n, queued_at) VALUES(?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return o.s.fail("outbox", err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	add := func(it Item) error {
		if _, err := ins.ExecContext(ctx, it.Run, it.Channel, it.Target, strings.Join(it.URLs, "\n"), len(it.URLs), now); err != nil {
			return o.s.fail("outbox", err)
		}
		return nil
	}
	for _, it := range items {
		if err := add(it); err != nil {
			return err
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT r.id, c.loc FROM runs r LEFT JOIN changes c ON c.run = r.id
		WHERE r.published = 1 AND r.queued = 0 ORDER BY r.id, c.rowid`)
	if err != nil {
		return o.s.fail("changes", err)
	}
	var runs []int64
	batches := map[string]*Item{}
	var hosts []string // in order of first appearance
	flush := func(h string) error {
		if it := batches[h]; it != nil && len(it.URLs) > 0 {
			if err := add(*it); err != nil {
				return err
			}
			it.URLs = it.URLs[:0]
		}
		return nil
	}
	endRun := func() error {
		for _, h := range hosts {
			if err := flush(h); err != nil {
				return err
			}
		}
		clear(batches)
		hosts = hosts[:0]
		return nil
	}
	for rows.Next() {
		var run int64
		var loc sql.NullString
		if err := rows.Scan(&run, &loc); err != nil {
			rows.Close()
			return o.s.fail("changes", err)
		}
		if len(runs) == 0 || runs[len(runs)-1] != run {
			if err := endRun(); err != nil {
				rows.Close()
				return err
			}
			runs = append(runs, run)
		}
		if !loc.Valid || b.Max <= 0 {
			continue
		}
		h := b.Host(loc.String)
		if h == "" {
			continue
		}
		it := batches[h]
		if it == nil {
			it = &Item{Run: run, Channel: "indexnow", Target: h}
			batches[h] = it
			hosts = append(hosts, h)
		}
		it.URLs = append(it.URLs, loc.String)
		if len(it.URLs) == b.Max {
			if err := flush(h); err != nil {
				rows.Close()
				return err
			}
		}
	}
	if err := rows.Close(); err != nil {
		return o.s.fail("changes", err)
	}
	if err := endRun(); err != nil {
		return err
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

// Pending returns the items not yet accepted, oldest first, without
// their URLs (Count says how many; URLs reads them): a backlog of a
// million changed URLs is not held in memory at once.
func (o *Outbox) Pending(ctx context.Context) ([]Item, error) {
	rows, err := o.s.conn.QueryContext(ctx, `SELECT id, run, channel, target, n, attempts, last_error FROM outbox WHERE done_at IS NULL ORDER BY id`)
	if err != nil {
		return nil, o.s.fail("outbox", err)
	}
	defer rows.Close()
	var items []Item
	for rows.Next() {
		var it Item
		if err := rows.Scan(&it.ID, &it.Run, &it.Channel, &it.Target, &it.Count, &it.Attempts, &it.LastError); err != nil {
			return nil, o.s.fail("outbox", err)
		}
		items = append(items, it)
	}
	return items, rows.Err()
}

// URLs returns the URLs of item id.
func (o *Outbox) URLs(ctx context.Context, id int64) ([]string, error) {
	var urls string
	if err := o.s.conn.QueryRowContext(ctx, `SELECT urls FROM outbox WHERE id = ?`, id).Scan(&urls); err != nil {
		return nil, o.s.fail("outbox", err)
	}
	if urls == "" {
		return nil, nil
	}
	return strings.Split(urls, "\n"), nil
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
	return o.s.setting(ctx, o.s.conn, key)
}

// A querier is the state's connection, or a transaction on it.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// setting returns the value kept under key ("" when none), read through q.
func (s *Store) setting(ctx context.Context, q querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT v FROM settings WHERE k = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", s.fail("settings", err)
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
