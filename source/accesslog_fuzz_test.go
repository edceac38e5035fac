package source_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/source"
)

// FuzzAccessLog checks that no input makes a Log panic or fail: a line
// never is an error, only the end of the stream is (a damaged gzip
// stream, a line too long); every URL is returned once, is Base's, is
// normalised and carries nothing but loc; and the counts add up.
// Seeds: testdata/accesslog and a few odd lines.
func FuzzAccessLog(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "accesslog", "*"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`h:1 ::1 - - [x] "GET http://www.example.com:8080?a=1#f HTTP/1.1" 304 -` + "\r\n"))
	f.Add([]byte(`a b c [] "GET /\\\" HTTP/1.1" 200` + "\n" + `a b c [] "GET /\x HTTP/1.1" 200` + "\n" + `a b c [] "GET /%zz/../.. HTTP/1.1" 200`))
	f.Fuzz(func(t *testing.T, in []byte) {
		l, err := source.NewLog(bytes.NewReader(in), "f.log", source.LogOptions{Base: logBase, KeepParams: []string{"a", "id"}})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		last, n := 0, 0
		for u, err := range l.All() {
			if err != nil {
				if l.Err() == nil || !errors.Is(err, l.Err()) {
					t.Fatalf("error %v is not the end of the stream (Err %v)", err, l.Err())
				}
				if !errors.Is(err, source.ErrGzip) && !errors.Is(err, source.ErrLineTooLong) && !bytes.HasPrefix(in, []byte{0x1f, 0x8b}) {
					t.Fatalf("unexpected stream error %v", err)
				}
				continue
			}
			n++
			if seen[u.Loc] {
				t.Fatalf("%s returned twice", u.Loc)
			}
			seen[u.Loc] = true
			if !strings.HasPrefix(u.Loc, logBase+"/") {
				t.Fatalf("%s is not under %s", u.Loc, logBase)
			}
			if again, err := loc.Normalize(u.Loc); err != nil || again != u.Loc {
				t.Fatalf("%s is not normalised: %q, %v", u.Loc, again, err)
			}
			// One spelling per URL: escapes in upper case, none of an
			// unreserved character (RFC 3986 §6.2.2); and no hidden path,
			// escaped dots included.
			for i := 0; i < len(u.Loc); i++ {
				if u.Loc[i] != '%' {
					continue
				}
				hex := u.Loc[i+1 : min(i+3, len(u.Loc))]
				d, err := strconv.ParseUint(hex, 16, 8)
				if c := byte(d); err != nil || len(hex) != 2 || hex != strings.ToUpper(hex) || strings.IndexByte("-._~", c) >= 0 ||
					'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' {
					t.Fatalf("%s: escape %%%s is not in its one spelling", u.Loc, hex)
				}
			}
			if p, _, _ := strings.Cut(u.Loc[len(logBase):], "?"); strings.Contains(p, "/.") {
				t.Fatalf("%s: a hidden path", u.Loc)
			}
			if u.LastMod != "" || u.ChangeFreq != "" || u.Priority != "" || len(u.Images) > 0 {
				t.Fatalf("%s carries more than loc: %+v", u.Loc, u)
			}
			if l.Line() <= last {
				t.Fatalf("line %d after line %d", l.Line(), last)
			}
			last = l.Line()
		}
		s := l.Stats()
		sum := s.URLs + s.Repeats + s.Malformed
		for _, k := range s.Skipped {
			sum += k
		}
		if sum != s.Lines || s.URLs != n || len(s.Samples) > 10 || len(s.Samples) > s.Malformed {
			t.Fatalf("stats %+v do not add up to %d lines and %d URLs", s, s.Lines, n)
		}
		for _, e := range s.Samples {
			if e.Line < 1 || e.Line > s.Lines || e.Column < 1 || !errors.Is(e, source.ErrLogLine) {
				t.Fatalf("bad sample %v (line %d, column %d)", e, e.Line, e.Column)
			}
		}
	})
}
