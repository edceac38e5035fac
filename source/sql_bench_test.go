package source_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/source"
)

// benchQuery is a typical catalogue query: loc from a slug, a timestamp,
// a priority, a constant changefreq.
const benchQuery = `SELECT slug, updated AS lastmod, prio AS priority, 'weekly' AS changefreq FROM bench`

// benchSQL streams benchRows rows of benchQuery from d per iteration.
func benchSQL(b *testing.B, d *testDB) {
	if _, err := d.db.Exec("CREATE TABLE bench (id INTEGER PRIMARY KEY, slug TEXT, updated " + d.tsType + ", prio DOUBLE PRECISION)"); err != nil {
		b.Fatal(err)
	}
	tx, err := d.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	const batch = 1000
	for start := 1; start <= benchRows; start += batch {
		var q strings.Builder
		var args []any
		q.WriteString("INSERT INTO bench VALUES ")
		for i := start; i < start+batch; i++ {
			if i > start {
				q.WriteByte(',')
			}
			q.WriteString("(" + d.ph(len(args)+1) + "," + d.ph(len(args)+2) + "," + d.ph(len(args)+3) + "," + d.ph(len(args)+4) + ")")
			args = append(args, i, "catalog/item-"+string(rune('a'+i%26))+"-"+strconv.Itoa(i), d.tsText(updatedAt(i)), float64(i%10)/10)
		}
		if _, err := tx.Exec(q.String(), args...); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		src, err := source.OpenSQL(context.Background(), source.SQLOptions{
			Driver: d.drv, DSN: d.dsn, Query: benchQuery, Loc: "https://www.example.com/{+slug}",
		})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, err := range src.All() {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if err := src.Close(); err != nil {
			b.Fatal(err)
		}
		if n != benchRows {
			b.Fatalf("%d rows, want %d", n, benchRows)
		}
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(benchRows)*float64(b.N)/s, "rows/s")
	b.ReportMetric(float64(benchRows)*float64(b.N)/s, "URLs/s")
}

// BenchmarkSQLite streams 100,000 rows from a SQLite file.
func BenchmarkSQLite(b *testing.B) { benchSQL(b, newSQLiteDB(b)) }

// BenchmarkPostgres streams 100,000 rows from the test PostgreSQL server.
func BenchmarkPostgres(b *testing.B) {
	d, _ := newPostgresDB(b)
	benchSQL(b, d)
}
