package source_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/longtest"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
	"github.com/sitemapkit/sitemapkit/source/postgres"
	"github.com/sitemapkit/sitemapkit/source/sqlite"
)

// productRows is how many rows the conformance table holds.
const productRows = 100_000

// testDB is a real database holding the conformance table, and what its
// dialect needs.
type testDB struct {
	driver string // its name in messages
	drv    source.SQLDriver
	dsn    string
	db     *sql.DB
	// Column types: a timestamp (naive in SQLite, timestamptz in
	// PostgreSQL) and a JSON type.
	tsType, jsonType string
	// tsText formats an updated value as the database is given it.
	tsText func(time.Time) string
	// ph is the placeholder of the n-th (1-based) parameter.
	ph func(n int) string
}

// updatedAt is row i's updated column: a minute per row from baseTime.
func updatedAt(i int) time.Time { return baseTime.Add(time.Duration(i) * time.Minute) }

var baseTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("", 2*3600))

// productRow is row i (from 1) of the conformance table, in column order:
// id, slug, path, updated, day, freq, prio, img1, img2, images, alternates,
// de, videos, news. nil is NULL.
func productRow(d *testDB, i int) []any {
	var (
		slug       any = fmt.Sprintf("item-%d", i)
		path       any = fmt.Sprintf("cat-%d/x y", i%7)
		updated    any = d.tsText(updatedAt(i))
		day        any = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%365).Format(time.DateOnly)
		freq       any
		prio       any = float64(i%11) / 10
		img2       any
		images     any
		alternates any
		de         any
		videos     any
		news       any
	)
	switch i % 1000 {
	case 7:
		slug = fmt.Sprintf("ü x/%d", i)
		path = "a/ü?q=1&r=%41"
	case 8:
		slug = nil
	case 9:
		slug = ""
	case 500:
		images = `[{"loc": "https://img.example.com/x.jpg"`
	case 600:
		images = `[{"loc": "https://img.example.com/x.jpg", "caption_typo": "x"}]`
	}
	if i%10 == 3 {
		updated = nil
	}
	if i%4 == 0 {
		freq = "weekly"
	}
	if i%13 == 0 {
		prio = nil
	}
	if i%2 == 0 {
		img2 = fmt.Sprintf("https://img.example.com/%d/2.jpg", i)
	}
	if i%3 == 0 && images == nil {
		images = fmt.Sprintf(`["https://img.example.com/%d/a.jpg", {"loc": "https://img.example.com/%d/b.jpg", "title": "B %d"}]`, i, i, i)
	}
	if i%2 == 1 {
		alternates = fmt.Sprintf(`[{"hreflang": "fr", "href": "https://www.example.com/fr/p/%d"}]`, i)
	}
	if i%5 == 0 {
		de = fmt.Sprintf("https://www.example.com/de/p/%d", i)
	}
	if i%5000 == 1 {
		videos = fmt.Sprintf(`[{"thumbnail_loc": "https://img.example.com/v%d.jpg", "title": "V", "description": "D", "content_loc": "https://v.example.com/%d.mp4", "duration": 600}]`, i, i)
	}
	if i%5000 == 2 {
		news = fmt.Sprintf(`{"publication": {"name": "Shop News", "language": "en"}, "publication_date": "2024-05-01", "title": "N %d"}`, i)
	}
	img1 := fmt.Sprintf("https://img.example.com/%d/1.jpg", i)
	return []any{i, slug, path, updated, day, freq, prio, img1, img2, images, alternates, de, videos, news}
}

// wantProduct is the URL productQuery yields for row i, written out by
// hand from productRow's rules (lastmod aside: checkLastMod compares it),
// or the error it yields instead.
func wantProduct(i int) (sitemap.URL, error) {
	switch i % 1000 {
	case 8, 9:
		return sitemap.URL{}, source.ErrMissingLoc
	case 500:
		return sitemap.URL{}, source.ErrJSON
	case 600:
		return sitemap.URL{}, source.ErrUnknownField
	}
	u := sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/p/item-%d/cat-%d/x%%20y", i, i%7)}
	if i%1000 == 7 {
		u.Loc = fmt.Sprintf("https://www.example.com/p/%%C3%%BC%%20x%%2F%d/a/%%C3%%BC?q=1&r=%%41", i)
	}
	if i%4 == 0 {
		u.ChangeFreq = "weekly"
	}
	if i%13 != 0 {
		u.Priority = []string{"0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"}[i%11]
	}
	u.Images = append(u.Images, sitemap.Image{Loc: fmt.Sprintf("https://img.example.com/%d/1.jpg", i)})
	if i%2 == 0 {
		u.Images = append(u.Images, sitemap.Image{Loc: fmt.Sprintf("https://img.example.com/%d/2.jpg", i)})
	}
	if i%3 == 0 {
		u.Images = append(u.Images,
			sitemap.Image{Loc: fmt.Sprintf("https://img.example.com/%d/a.jpg", i)},
			sitemap.Image{Loc: fmt.Sprintf("https://img.example.com/%d/b.jpg", i), Title: fmt.Sprintf("B %d", i)})
	}
	if i%2 == 1 {
		u.Alternates = append(u.Alternates, sitemap.Alternate{Hreflang: "fr", Href: fmt.Sprintf("https://www.example.com/fr/p/%d", i)})
	}
	if i%5 == 0 {
		u.Alternates = append(u.Alternates, sitemap.Alternate{Hreflang: "de-DE", Href: fmt.Sprintf("https://www.example.com/de/p/%d", i)})
	}
	if i%5000 == 1 {
		u.Videos = []sitemap.Video{{ThumbnailLoc: fmt.Sprintf("https://img.example.com/v%d.jpg", i), Title: "V", Description: "D",
			ContentLoc: fmt.Sprintf("https://v.example.com/%d.mp4", i), Duration: "600"}}
	}
	if i%5000 == 2 {
		u.News = &sitemap.News{Publication: sitemap.Publication{Name: "Shop News", Language: "en"}, PublicationDate: "2024-05-01", Title: fmt.Sprintf("N %d", i)}
	}
	return u, nil
}

// productQuery maps every kind of column; slug and path feed productLoc.
const productQuery = `
	SELECT slug, path, updated AS lastmod, freq AS changefreq, prio AS priority,
	       img1 AS image, img2 AS image, images, alternates, de AS "alternate:de-DE",
	       videos, news
	FROM products
	ORDER BY id`

const productLoc = "https://www.example.com/p/{slug}/{+path}"

// create makes the conformance table and fills it, 500 rows a statement
// in one transaction.
func (d *testDB) create(t testing.TB) {
	t.Helper()
	_, err := d.db.Exec(`CREATE TABLE products (id INTEGER PRIMARY KEY, slug TEXT, path TEXT,
		updated ` + d.tsType + `, day DATE, freq TEXT, prio DOUBLE PRECISION, img1 TEXT, img2 TEXT,
		images TEXT, alternates ` + d.jsonType + `, de TEXT, videos ` + d.jsonType + `, news ` + d.jsonType + `)`)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := d.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	const batch = 500
	var (
		q    strings.Builder
		args []any
	)
	for start := 1; start <= productRows; start += batch {
		q.Reset()
		args = args[:0]
		q.WriteString("INSERT INTO products VALUES ")
		for i := start; i < start+batch && i <= productRows; i++ {
			if i > start {
				q.WriteByte(',')
			}
			q.WriteByte('(')
			for k, v := range productRow(d, i) {
				if k > 0 {
					q.WriteByte(',')
				}
				args = append(args, v)
				q.WriteString(d.ph(len(args)))
			}
			q.WriteByte(')')
		}
		if _, err := tx.Exec(q.String(), args...); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// newSQLiteDB creates a SQLite file in a temporary folder.
func newSQLiteDB(t testing.TB) *testDB {
	t.Helper()
	// Space, "#" and "%" must survive the read-only URI made of the path.
	path := filepath.Join(t.TempDir(), "shop db #1 %41.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	return &testDB{
		driver: "sqlite", drv: sqlite.Driver{}, dsn: path, db: db,
		tsType: "DATETIME", jsonType: "TEXT",
		// SQLite's own form, without a zone: the reader takes it as UTC.
		tsText: func(t time.Time) string { return t.UTC().Format(time.DateTime) },
		ph:     func(int) string { return "?" },
	}
}

func openSQL(t testing.TB, d *testDB, query, loc string) *source.SQL {
	t.Helper()
	src, err := source.OpenSQL(context.Background(), source.SQLOptions{Driver: d.drv, DSN: d.dsn, Query: query, Loc: loc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// testProducts streams the conformance table and checks every row.
func testProducts(t *testing.T, d *testDB) {
	src := openSQL(t, d, productQuery, productLoc)
	i, bad := 0, 0
	for {
		u, err := src.Read()
		if err == io.EOF {
			break
		}
		i++
		if src.Line() != i {
			t.Fatalf("Line() = %d after row %d", src.Line(), i)
		}
		want, wantErr := wantProduct(i)
		if wantErr != nil {
			var pe *source.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, wantErr) || pe.Line != i || pe.File != src.Name() {
				t.Fatalf("row %d: got %v (%T), want a *ParseError at %s:%d wrapping %v", i, err, err, src.Name(), i, wantErr)
			}
			bad++
			continue
		}
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		// Naive SQLite times are UTC; timestamptz is written in UTC.
		checkLastMod(t, i, u.LastMod, "+00:00")
		u.LastMod = ""
		if !reflect.DeepEqual(u, want) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, u, want)
		}
	}
	if err := src.Err(); err != nil {
		t.Fatal(err)
	}
	if i != productRows || bad != productRows/1000*4 {
		t.Fatalf("%d rows, %d bad; want %d rows, %d bad", i, bad, productRows, productRows/1000*4)
	}
	if _, err := src.Read(); err != io.EOF {
		t.Fatalf("Read after the end: %v, want io.EOF", err)
	}
}

// checkLastMod checks row i's lastmod: the instant updatedAt(i) in full
// W3C form, or absent every tenth row; and when zone is set, in that zone.
func checkLastMod(t *testing.T, i int, got, zone string) {
	t.Helper()
	if i%10 == 3 {
		if got != "" {
			t.Fatalf("row %d: lastmod %q, want none (NULL)", i, got)
		}
		return
	}
	at, err := sitemap.ParseDate(got)
	if err != nil || len(got) != len("2006-01-02T15:04:05+00:00") {
		t.Fatalf("row %d: lastmod %q is not a full W3C datetime (%v)", i, got, err)
	}
	if !at.Equal(updatedAt(i)) {
		t.Fatalf("row %d: lastmod %q, want the instant %s", i, got, updatedAt(i).Format(time.RFC3339))
	}
	if zone != "" && !strings.HasSuffix(got, zone) {
		t.Fatalf("row %d: lastmod %q, want it in zone %s", i, got, zone)
	}
}

// testDays reads a DATE column as lastmod: days stay days.
func testDays(t *testing.T, d *testDB) {
	src := openSQL(t, d, `SELECT 'https://www.example.com/d/' || id AS loc, day AS lastmod FROM products ORDER BY id`, "")
	i := 0
	for u, err := range src.All() {
		i++
		if err != nil {
			t.Fatal(err)
		}
		want := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%365).Format(time.DateOnly)
		if u.LastMod != want || u.Loc != "https://www.example.com/d/"+strconv.Itoa(i) {
			t.Fatalf("row %d: %q %q, want lastmod %q", i, u.Loc, u.LastMod, want)
		}
	}
	if i != productRows {
		t.Fatalf("%d rows, want %d", i, productRows)
	}
}

// testOpenErrors checks what is wrong with a query is said when it opens,
// naming the column or table and showing the query.
func testOpenErrors(t *testing.T, d *testDB) {
	cases := []struct {
		name, query, loc string
		is               error
		contains         []string
	}{
		{"unknown column", "SELECT slug AS loc, freq AS changefreqq FROM products", "", source.ErrUnknownField,
			[]string{d.driver + ` query "SELECT slug AS loc, freq AS changefreqq FROM products"`, `column "changefreqq"`}},
		{"no loc", "SELECT slug, prio AS priority FROM products", "", source.ErrUnknownField, []string{`column "slug"`}},
		{"loc missing", "SELECT prio AS priority FROM products", "", source.ErrMissingLoc, []string{"no loc column"}},
		{"template column missing", "SELECT slug FROM products", "https://www.example.com/{nope}", source.ErrTemplate,
			[]string{`no column "nope"`, "columns: slug"}},
		{"loc and template", "SELECT slug, slug AS loc FROM products", "https://www.example.com/{slug}", nil,
			[]string{`column "loc"`, "template"}},
		{"twice", `SELECT slug AS loc, freq AS changefreq, freq AS "ChangeFreq" FROM products`, "", nil,
			[]string{`column "ChangeFreq" appears twice`}},
		{"bad alternate", `SELECT slug AS loc, de AS "alternate:" FROM products`, "", source.ErrUnknownField,
			[]string{"has no hreflang"}},
		{"no table", "SELECT slug AS loc FROM nosuchtable", "", nil,
			[]string{d.driver + ` query "SELECT slug AS loc FROM nosuchtable"`, "nosuchtable"}},
		{"syntax", "SELEC loc", "", nil, []string{d.driver + ` query "SELEC loc"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := source.OpenSQL(context.Background(), source.SQLOptions{Driver: d.drv, DSN: d.dsn, Query: c.query, Loc: c.loc})
			if err == nil {
				src.Close()
				t.Fatal("no error")
			}
			var qe *source.QueryError
			if !errors.As(err, &qe) || qe.Driver != d.driver || qe.Query != c.query {
				t.Errorf("%v (%T) is not a *QueryError with the driver and query", err, err)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("%v does not wrap %v", err, c.is)
			}
			for _, s := range c.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not contain %q", err, s)
				}
			}
		})
	}
}

// testBuild builds a sitemap set from the first 20,000 rows and checks it
// against the schemas: escaping, dates and extensions as the protocol wants.
func testBuild(t *testing.T, d *testDB) {
	const n = 20_000
	src := openSQL(t, d, strings.Replace(productQuery, "ORDER BY", fmt.Sprintf("WHERE id <= %d ORDER BY", n), 1), productLoc)
	res, bad := buildAll(t, src, publish.Options{Base: "https://www.example.com/", Gzip: true, MaxURLs: 8000})
	if res.URLs != n-n/1000*4 || len(bad) != n/1000*4 {
		t.Errorf("%d URLs, %d errors; want %d and %d: %q", res.URLs, len(bad), n-n/1000*4, n/1000*4, bad[:min(len(bad), 5)])
	}
}

// testReadOnly checks a query cannot write, even when the DSN asks for a
// writable database (SQLite's mode=rw) or lets several statements through
// (PostgreSQL's simple protocol, common behind PgBouncer), and the query
// first ends the read-only mode or transaction.
func testReadOnly(t *testing.T, d *testDB) {
	writable := "file:" + (&url.URL{Path: d.dsn}).EscapedPath() + "?mode=rw"
	escape := "PRAGMA query_only = 0; "
	if d.driver == "postgres" {
		writable = d.dsn + "&default_query_exec_mode=simple_protocol"
		escape = "COMMIT; "
	}
	for _, c := range []struct{ dsn, query string }{
		{d.dsn, "UPDATE products SET slug = 'changed' WHERE id = 1 RETURNING slug AS loc"},
		{writable, escape + "UPDATE products SET slug = 'changed' WHERE id = 1; SELECT 'https://www.example.com/' AS loc"},
	} {
		src, err := source.OpenSQL(context.Background(), source.SQLOptions{Driver: d.drv, DSN: c.dsn, Query: c.query})
		if err == nil {
			for range src.All() {
			}
			err = src.Err()
			src.Close()
		}
		if err == nil {
			t.Errorf("%s: %q ran without error", c.dsn, c.query)
		}
		var slug string
		if err := d.db.QueryRow("SELECT slug FROM products WHERE id = 1").Scan(&slug); err != nil {
			t.Fatal(err)
		}
		if slug != "item-1" {
			t.Fatalf("%s: %q changed the row: slug %q", c.dsn, c.query, slug)
		}
	}
}

// testPlace checks Name, Place and that a stream can be closed early.
func testPlace(t *testing.T, d *testDB, wantName string) {
	src := openSQL(t, d, "SELECT slug,   path,\n\tid FROM products WHERE id > 10 ORDER BY id", "https://www.example.com/{slug}/{path}/{id}")
	for range 3 {
		if _, err := src.Read(); err != nil {
			t.Fatal(err)
		}
	}
	if src.Name() != wantName {
		t.Errorf("Name() = %q, want %q", src.Name(), wantName)
	}
	want := wantName + ` row 3 of "SELECT slug, path, id FROM products WHERE id > …"`
	if got := source.Place(src); got != want {
		t.Errorf("Place = %q, want %q", got, want)
	}
	if err := src.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestSQLite(t *testing.T) {
	d := newSQLiteDB(t)
	d.create(t)
	t.Run("products", func(t *testing.T) { testProducts(t, d) })
	t.Run("days", func(t *testing.T) { testDays(t, d) })
	t.Run("open errors", func(t *testing.T) { testOpenErrors(t, d) })
	t.Run("read only", func(t *testing.T) { testReadOnly(t, d) })
	t.Run("place", func(t *testing.T) { testPlace(t, d, "sqlite:"+d.dsn) })
	t.Run("build", func(t *testing.T) { testBuild(t, d) })
	t.Run("naive timestamps are UTC", func(t *testing.T) {
		src := openSQL(t, d, "SELECT slug AS loc, updated AS lastmod FROM products WHERE id = 1", "")
		u, err := src.Read()
		if err != nil || u.LastMod != "2023-12-31T22:01:00+00:00" {
			t.Fatalf("%+v, %v; want lastmod 2023-12-31T22:01:00+00:00", u, err)
		}
	})
	t.Run("file URI", func(t *testing.T) {
		d2 := *d
		d2.dsn = "file:" + (&url.URL{Path: d.dsn}).EscapedPath() + "?cache=private"
		src := openSQL(t, &d2, "SELECT count(*) AS loc FROM products", "")
		u, err := src.Read()
		if err != nil || u.Loc != strconv.Itoa(productRows) {
			t.Fatalf("%+v, %v", u, err)
		}
		if src.Name() != "sqlite:"+d.dsn {
			t.Errorf("Name() = %q", src.Name())
		}
	})
}

// TestSQLiteValues checks how SQLite's values become fields.
func TestSQLiteValues(t *testing.T) {
	d := newSQLiteDB(t)
	if _, err := d.db.Exec(`CREATE TABLE v (d DATE, dt DATETIME, tz DATETIME, n INTEGER, p REAL, txt TEXT, b BLOB);
		INSERT INTO v VALUES ('2024-05-01', '2024-05-01 10:30:00', '2024-05-01T10:30:00+02:00', 1714557600, 0.5, '2024-05-01T10:30:00+02:00', X'68747470733A2F2F782F62');
		INSERT INTO v VALUES ('2024-05-01 10:30:00', NULL, NULL, NULL, 1, '', NULL);`); err != nil {
		t.Fatal(err)
	}
	// Each row gives "lastmod|priority|loc", or "ERR " and part of its error.
	cases := []struct {
		lastmod, priority, loc string
		want                   []string
	}{
		// A DATE stays a day unless it holds a time; REAL 1 is "1".
		{"d", "p", "'x'", []string{"2024-05-01|0.5|x", "2024-05-01T10:30:00+00:00|1|x"}},
		// A DATETIME without a zone is UTC; with one it keeps it.
		{"dt", "p", "'x'", []string{"2024-05-01T10:30:00+00:00|0.5|x", "|1|x"}},
		{"tz", "p", "'x'", []string{"2024-05-01T10:30:00+02:00|0.5|x", "|1|x"}},
		// Text is passed as it is, and empty text is absent; a BLOB is text.
		{"txt", "p", "b", []string{"2024-05-01T10:30:00+02:00|0.5|https://x/b", "ERR :2: missing loc"}},
		// A number as lastmod is a row error; as priority or loc it is text.
		{"n", "n", "n", []string{"ERR :1: column \"lastmod\": a number (1714557600), not a date", "ERR :2: missing loc"}},
		{"NULL", "n", "n", []string{"|1714557600|1714557600", "ERR :2: missing loc"}},
	}
	for _, c := range cases {
		q := fmt.Sprintf("SELECT %s AS lastmod, %s AS priority, %s AS loc FROM v ORDER BY rowid", c.lastmod, c.priority, c.loc)
		src := openSQL(t, d, q, "")
		var got []string
		for u, err := range src.All() {
			if err != nil {
				got = append(got, "ERR "+err.Error())
				continue
			}
			got = append(got, u.LastMod+"|"+u.Priority+"|"+u.Loc)
		}
		ok := len(got) == len(c.want)
		for k := 0; ok && k < len(got); k++ {
			if w, isErr := strings.CutPrefix(c.want[k], "ERR "); isErr {
				ok = strings.Contains(got[k], w)
			} else {
				ok = got[k] == c.want[k]
			}
		}
		if !ok {
			t.Errorf("%s:\n got %q\nwant %q", q, got, c.want)
		}
	}
}

// TestSQLiteTimezone checks that SQLOptions.Timezone is the zone of the
// timestamps that have none, and only of those: generate always sets it
// (UTC by default), and a DATETIME written with its offset lost it.
func TestSQLiteTimezone(t *testing.T) {
	d := newSQLiteDB(t)
	if _, err := d.db.Exec(`CREATE TABLE v (n INTEGER, dt DATETIME);
		INSERT INTO v VALUES (1, '2024-05-01T10:30:00+02:00'), (2, '2024-05-01 10:30:00-05:00'),
			(3, '2024-05-01 10:30:00'), (4, '2024-05-01 10:30:00+00:00');`); err != nil {
		t.Fatal(err)
	}
	zones := []struct {
		tz   *time.Location
		want string
	}{{time.UTC, "2024-05-01T10:30:00+00:00"}}
	if ny, err := time.LoadLocation("America/New_York"); err == nil {
		zones = append(zones, struct {
			tz   *time.Location
			want string
		}{ny, "2024-05-01T10:30:00-04:00"})
	}
	for _, z := range zones {
		src, err := source.OpenSQL(context.Background(), source.SQLOptions{Driver: d.drv, DSN: d.dsn, Timezone: z.tz,
			Query: "SELECT 'https://x/' || n AS loc, dt AS lastmod FROM v ORDER BY n"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for u, err := range src.All() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, u.LastMod)
		}
		src.Close()
		want := []string{"2024-05-01T10:30:00+02:00", "2024-05-01T10:30:00-05:00", z.want, "2024-05-01T10:30:00+00:00"}
		if !slices.Equal(got, want) {
			t.Errorf("Timezone %v:\n got %q\nwant %q", z.tz, got, want)
		}
	}
}

func TestSQLiteMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.db")
	_, err := source.OpenSQL(context.Background(), source.SQLOptions{Driver: sqlite.Driver{}, DSN: path, Query: "SELECT 1 AS loc"})
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "nope.db") {
		t.Fatalf("err = %v, want one naming the missing file", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("opening created the file: %v", err)
	}
}

func TestOpenSQLOptions(t *testing.T) {
	for _, o := range []source.SQLOptions{
		{DSN: "x", Query: "SELECT 1"},
		{Driver: sqlite.Driver{}, DSN: "x", Query: "  "},
		{Driver: postgres.Driver{}, Query: "SELECT 1"},
		{Driver: sqlite.Driver{}, DSN: "x", Query: "SELECT 1", Loc: "https://x/{a"},
	} {
		if src, err := source.OpenSQL(context.Background(), o); err == nil {
			src.Close()
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestSQLiteCancel checks cancelling the context ends a stream with the
// context's error.
func TestSQLiteCancel(t *testing.T) {
	d := newSQLiteDB(t)
	if _, err := d.db.Exec("CREATE TABLE x (a)"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src, err := source.OpenSQL(ctx, source.SQLOptions{Driver: d.drv, DSN: d.dsn, Query: countQuery(100_000_000)})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	n := 0
	for _, err := range src.All() {
		if err != nil {
			t.Logf("ended with %v", err)
			break
		}
		if n++; n == 1000 {
			cancel()
		}
	}
	var qe *source.QueryError
	if err := src.Err(); !errors.Is(err, context.Canceled) || !errors.As(err, &qe) {
		t.Fatalf("after %d rows, Err() = %v, want a *QueryError wrapping context.Canceled", n, err)
	}
	if _, err := src.Read(); err != src.Err() {
		t.Fatalf("Read after the end: %v, want %v", err, src.Err())
	}
}

// countQuery makes n rows of URLs without a table, in SQLite and
// PostgreSQL alike.
func countQuery(n int) string {
	return fmt.Sprintf(`WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < %d)
		SELECT 'https://www.example.com/catalog/item-' || i AS loc FROM c`, n)
}

// testFlat streams n rows and checks that neither the Go heap nor the
// process's resident memory grows with them.
func testFlat(t *testing.T, driver source.SQLDriver, dsn, query string, n int) {
	longtest.Skip(t, "streams a million rows")
	var ms runtime.MemStats
	heap := func() uint64 {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse
	}
	src, err := source.OpenSQL(context.Background(), source.SQLOptions{Driver: driver, DSN: dsn, Query: query})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var heap0, rss0 uint64
	var maxHeap, maxRSS uint64
	i := 0
	for u, err := range src.All() {
		if err != nil {
			t.Fatal(err)
		}
		i++
		if u.Loc != "https://www.example.com/catalog/item-"+strconv.Itoa(i) {
			t.Fatalf("row %d: %q", i, u.Loc)
		}
		switch {
		case i == 10_000: // past the start-up allocations of driver and query
			heap0, rss0 = heap(), rss(t)
		case i%100_000 == 0:
			maxHeap, maxRSS = max(maxHeap, heap()), max(maxRSS, rss(t))
		}
	}
	if i != n {
		t.Fatalf("%d rows, want %d", i, n)
	}
	// Held rows would cost well over 100 bytes each: 100 MB at a million.
	const limit = 8 << 20
	if maxHeap > heap0+limit {
		t.Errorf("heap in use grew from %d to %d bytes over %d rows", heap0, maxHeap, n)
	}
	if maxRSS > rss0+4*limit {
		t.Errorf("resident memory grew from %d to %d bytes over %d rows", rss0, maxRSS, n)
	}
	t.Logf("%d rows: heap in use %d → max %d bytes, RSS %d → max %d bytes", n, heap0, maxHeap, rss0, maxRSS)
}

// rss is the process's resident set size, from /proc/self/status.
func rss(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status: ", err)
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

func TestSQLiteMemoryFlat(t *testing.T) {
	d := newSQLiteDB(t)
	if _, err := d.db.Exec("CREATE TABLE x (a)"); err != nil {
		t.Fatal(err)
	}
	testFlat(t, d.drv, d.dsn, countQuery(1_000_000), 1_000_000)
}

// TestSQLiteOnlyReads: a query may read the configured database and nothing
// else. ATTACH and VACUUM INTO would create a file anywhere the process can
// write (query_only and mode=ro do not stop them); writes and schema
// changes are refused too, each with an error that says why, and no file
// appears.
func TestSQLiteOnlyReads(t *testing.T) {
	d := newSQLiteDB(t)
	d.create(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "planted.db")
	for _, q := range []string{
		"ATTACH DATABASE '" + target + "' AS x; SELECT 'https://example.com/' AS loc",
		"VACUUM INTO '" + target + "'",
		"COMMIT; VACUUM INTO '" + target + "'; SELECT 'https://example.com/' AS loc",
		"ROLLBACK; ATTACH DATABASE '" + target + "' AS x; SELECT 'https://example.com/' AS loc",
		"SELECT 'https://example.com/' AS loc; ATTACH DATABASE '" + target + "' AS x",
		"CREATE TABLE planted (x); SELECT 'https://example.com/' AS loc",
		"INSERT INTO products (slug) VALUES ('x') RETURNING slug AS loc",
		"PRAGMA query_only = 0; DELETE FROM products RETURNING slug AS loc",
		"SELECT load_extension('" + target + "') AS loc",
	} {
		src, err := source.OpenSQL(context.Background(), source.SQLOptions{Driver: d.drv, DSN: d.dsn, Query: q})
		if err == nil {
			// A multi-statement query may fail on its first read instead.
			for {
				if _, err = src.Read(); err != nil {
					break
				}
			}
			src.Close()
			if err == io.EOF {
				err = nil
			}
		}
		if err == nil || !strings.Contains(err.Error(), "authoriz") && !strings.Contains(err.Error(), "cannot VACUUM") {
			t.Errorf("%s: err = %v, want a refusal", q, err)
		}
		if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s: created %s (%v)", q, target, err)
		}
	}
	var n int
	if err := d.db.QueryRow("SELECT count(*) FROM products").Scan(&n); err != nil || n != productRows {
		t.Fatalf("products: %d rows, %v; want %d untouched", n, err, productRows)
	}
	// What a query needs still works: CTEs (recursive ones too), joins,
	// functions.
	src := openSQL(t, d, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 3)
		SELECT 'https://example.com/' || p.slug || '/' || n.i AS loc, strftime('%Y-%m-%d', '2024-05-01') AS lastmod
		FROM products p JOIN n ON n.i = p.id`, "")
	defer src.Close()
	got := 0
	for {
		if _, err := src.Read(); err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		got++
	}
	if got != 3 {
		t.Fatalf("read %d rows, want 3", got)
	}
}
