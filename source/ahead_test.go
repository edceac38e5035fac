package source_test

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/source"
)

// step is one Read and what the Source said right after it.
type step struct {
	loc  string
	err  string
	line int
	end  string
}

func steps(s source.Source, extra int) []step {
	var out []step
	str := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	for {
		u, err := s.Read()
		out = append(out, step{u.Loc, str(err), s.Line(), str(s.Err())})
		if err == io.EOF || (err != nil && s.Err() != nil) {
			break
		}
	}
	for range extra { // reads after the end repeat the end
		u, err := s.Read()
		out = append(out, step{u.Loc, str(err), s.Line(), str(s.Err())})
	}
	return out
}

// TestAheadSameAsSource checks that reading ahead changes nothing a caller
// sees: every URL, error, line and Err, in order, over inputs of several
// batches, with bad records, and with an error that ends the stream.
func TestAheadSameAsSource(t *testing.T) {
	var big strings.Builder
	big.WriteString("loc,lastmod\n")
	for i := range 2000 {
		if i%97 == 0 {
			fmt.Fprintf(&big, "https://www.example.com/%d,2024-01-01,extra\n", i) // wrong field count
			continue
		}
		fmt.Fprintf(&big, "https://www.example.com/%d,2024-01-01\n", i)
	}
	var text bytes.Buffer
	for i := range 3000 {
		fmt.Fprintf(&text, "https://www.example.com/page/%d\n", i)
	}
	damaged := gz(t, text.Bytes())
	damaged = damaged[:len(damaged)/2]
	inputs := []struct {
		name   string
		in     []byte
		format source.Format
	}{
		{"products.csv", open(t, "products.csv"), source.FormatCSV},
		{"posts.jsonl", open(t, "posts.jsonl"), source.FormatJSONL},
		{"bad.jsonl", open(t, "bad.jsonl"), source.FormatJSONL},
		{"bad-header.csv", open(t, "bad-header.csv"), source.FormatCSV},
		{"big.csv", []byte(big.String()), source.FormatCSV},
		{"damaged.txt.gz", damaged, source.FormatText},
		{"empty.txt", nil, source.FormatText},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			want := steps(source.New(bytes.NewReader(in.in), in.name, in.format), 2)
			a := source.ReadAhead(source.New(bytes.NewReader(in.in), in.name, in.format))
			defer a.Close()
			got := steps(a, 2)
			if !reflect.DeepEqual(got, want) {
				n := min(len(got), len(want))
				for i := range n {
					if got[i] != want[i] {
						t.Fatalf("step %d of %d/%d: got %+v, want %+v", i, len(got), len(want), got[i], want[i])
					}
				}
				t.Fatalf("%d steps, want %d", len(got), len(want))
			}
			if a.Name() != in.name {
				t.Errorf("Name() = %q", a.Name())
			}
		})
	}
}

// TestAheadCloseDoesNotWait checks that Close returns while the goroutine
// is stuck reading an input that never answers (a terminal's stdin), and
// that Read then says the Ahead is closed.
func TestAheadCloseDoesNotWait(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	a := source.ReadAhead(source.New(pr, "stdin", source.FormatText))
	done := make(chan struct{})
	go func() {
		a.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second): // a hang, not a timing assertion
		t.Fatal("Close waited for a read that never ends")
	}
	if _, err := a.Read(); err != io.ErrClosedPipe {
		t.Errorf("Read after Close = %v, want io.ErrClosedPipe", err)
	}
	pr.CloseWithError(io.ErrClosedPipe) // ends the goroutine's read
}

// A Filter passes its source's places through, and so does an Ahead over
// it: a page refused later is named by its document, line and column.
func TestAheadPlacesThroughFilter(t *testing.T) {
	open := func() source.Source {
		s := source.OpenSitemaps(t.Context(), []string{"testdata/sitemaps/feed.atom"}, source.SitemapsOptions{})
		t.Cleanup(func() { s.Close() })
		f, err := source.NewFilter(s, source.FilterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	var want []string
	direct := open()
	for _, err := range direct.All() {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, source.Place(direct))
	}
	a := source.ReadAhead(open())
	defer a.Close()
	var got []string
	for _, err := range a.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, source.Place(a))
	}
	if len(want) != 2 || !strings.HasPrefix(want[0], "testdata/sitemaps/feed.atom:") || !reflect.DeepEqual(got, want) {
		t.Errorf("places through ReadAhead %q, directly %q", got, want)
	}
}

// TestAheadUnique: ReadAheadUnique returns what ReadAhead does, less the
// URLs its set says it has seen (within a batch and across batches), with
// their lines and errors in order, and counts them.
func TestAheadUnique(t *testing.T) {
	var in strings.Builder
	var want []step
	for i := range 3000 {
		loc := fmt.Sprintf("https://www.example.com/%d", i%1700) // 1,300 repeats
		if i == 5 {
			in.WriteString("not a url at all\n") // a line the reader refuses
		}
		in.WriteString(loc + "\n")
	}
	seen := map[string]bool{}
	unique := func(locs []string, fresh []bool) {
		for i, l := range locs {
			fresh[i] = !seen[l]
			seen[l] = true
		}
	}
	all := steps(source.New(strings.NewReader(in.String()), "in", source.FormatText), 0)
	kept := map[string]bool{}
	for _, s := range all {
		if s.err != "" || !kept[s.loc] {
			want = append(want, s)
			kept[s.loc] = true
		}
	}
	a := source.ReadAheadUnique(source.New(strings.NewReader(in.String()), "in", source.FormatText), unique)
	defer a.Close()
	if got := steps(a, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("ReadAheadUnique returned %d steps, want %d", len(got), len(want))
	}
	if a.Duplicates() != 1300 {
		t.Errorf("Duplicates = %d, want 1300", a.Duplicates())
	}
}
