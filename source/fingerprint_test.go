package source_test

import (
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/fingerprint"
	"github.com/sitemapkit/sitemapkit/source"
)

// TestContentHashColumn: a content_hash (or etag) column of a CSV file,
// JSONL field or SQL column is the record's fingerprint, through ReadAhead
// and a Filter, and not a field of the URL; a record without one has none.
func TestContentHashColumn(t *testing.T) {
	inputs := map[string]struct {
		format source.Format
		text   string
	}{
		"csv":        {source.FormatCSV, "loc,lastmod,content_hash\nhttps://www.example.com/a,2024-01-01,v1\nhttps://www.example.com/b,2024-01-01,\n"},
		"csv etag":   {source.FormatCSV, "loc,ETag\nhttps://www.example.com/a,v1\nhttps://www.example.com/b,\n"},
		"jsonl":      {source.FormatJSONL, `{"loc":"https://www.example.com/a","content_hash":"v1"}` + "\n" + `{"loc":"https://www.example.com/b"}` + "\n"},
		"jsonl etag": {source.FormatJSONL, `{"loc":"https://www.example.com/a","etag":"v1"}` + "\n" + `{"loc":"https://www.example.com/b","etag":""}` + "\n"},
	}
	want := fingerprint.Fields("v1")
	for name, in := range inputs {
		f, err := source.NewFilter(source.New(strings.NewReader(in.text), name, in.format), source.FilterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		a := source.ReadAhead(f)
		var got []bool
		for u, err := range a.All() {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			fp, ok := source.FingerprintOf(a)
			got = append(got, ok)
			if ok && (fp != want || u.Loc != "https://www.example.com/a") {
				t.Errorf("%s: %s fingerprint %x, want %x", name, u.Loc, fp, want)
			}
		}
		a.Close()
		if len(got) != 2 || !got[0] || got[1] {
			t.Errorf("%s: fingerprints %v, want the first record's only", name, got)
		}
	}
	if _, err := source.New(strings.NewReader("loc,etag,content_hash\nx,1,2\n"), "two.csv", source.FormatCSV).Read(); err == nil ||
		!strings.Contains(err.Error(), "appears twice") {
		t.Errorf("both etag and content_hash: %v, want one of the two", err)
	}
}

// TestContentHashSQL: the same for a query's column.
func TestContentHashSQL(t *testing.T) {
	d := newSQLiteDB(t)
	if _, err := d.db.Exec(`CREATE TABLE pages(url TEXT, hash TEXT); INSERT INTO pages VALUES ('https://www.example.com/a', 'v1'), ('https://www.example.com/b', NULL)`); err != nil {
		t.Fatal(err)
	}
	src := openSQL(t, d, "SELECT url AS loc, hash AS content_hash FROM pages ORDER BY url", "")
	var got []bool
	for _, err := range src.All() {
		if err != nil {
			t.Fatal(err)
		}
		fp, ok := src.Fingerprint()
		got = append(got, ok)
		if ok && fp != fingerprint.Fields("v1") {
			t.Errorf("fingerprint %x", fp)
		}
	}
	if len(got) != 2 || !got[0] || got[1] {
		t.Errorf("fingerprints %v, want the first row's only", got)
	}
}
