package source

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestLogSeenBound: the set of hashes grows with the distinct URLs, not
// with the distinct spellings of them (a scanner's "/x123/../", each a
// 200 for the home page), so that memory does not grow with the log.
func TestLogSeenBound(t *testing.T) {
	const n = 5000
	var in strings.Builder
	for i := range n {
		fmt.Fprintf(&in, "192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /x%d/../ HTTP/1.1\" 200 1\n", i)
	}
	in.WriteString("192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /page HTTP/1.1\" 200 1\n")
	l, err := NewLog(strings.NewReader(in.String()), "scan.log", LogOptions{Base: "https://www.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		u, err := l.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.Loc)
		if len(l.seen) > 3*len(got) {
			t.Fatalf("%d hashes held for %d URLs", len(l.seen), len(got))
		}
	}
	if s := l.Stats(); len(got) != 2 || s.Repeats != n-1 {
		t.Errorf("URLs %q, %d repeats; want / and /page, %d repeats", got, s.Repeats, n-1)
	}
}
