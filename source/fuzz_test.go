package source_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// seeds adds every testdata file with one of the extensions to f's corpus.
func seeds(f *testing.F, exts ...string) [][]byte {
	var out [][]byte
	for _, ext := range exts {
		names, _ := filepath.Glob(filepath.Join("testdata", "*"+ext))
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

// csvHeader is the header FuzzCSV puts before its input, cut to n columns.
var csvHeader = []string{"loc", "lastmod", "changefreq", "priority", "image", "alternate:de", "image"}

// FuzzCSV checks that the CSV reader never panics and, on input that
// encoding/csv reads without error, yields exactly what encoding/csv
// reads, and the other way round: the fast path and the quoted path agree
// with the standard library.
func FuzzCSV(f *testing.F) {
	for _, b := range seeds(f, ".csv") {
		// The seeds' own headers are valid too: keep the whole file as the body.
		f.Add(uint8(0), b)
	}
	f.Add(uint8(4), []byte("https://www.example.com/a,2024-01-01,weekly,0.5\n"))
	f.Add(uint8(2), []byte("\"a\"\"b\",\"x\ny\"\r\n\nc,d\r"))
	f.Fuzz(func(t *testing.T, n uint8, body []byte) {
		n %= uint8(len(csvHeader) + 1)
		in := body
		if n > 0 {
			in = append([]byte(strings.Join(csvHeader[:n], ",")+"\n"), body...)
		}
		s := source.New(bytes.NewReader(in), "f.csv", source.FormatCSV)
		var urls []sitemap.URL
		var ours error
		for u, err := range s.All() {
			if err != nil {
				var pe *source.ParseError
				if !errors.As(err, &pe) || pe.Line < 1 {
					t.Fatalf("error %v (%T) is not a *ParseError with a line", err, err)
				}
				if errors.Is(err, source.ErrMissingLoc) {
					continue // a value refused, not the syntax: left out of want too
				}
				if ours == nil {
					ours = err
				}
				continue
			}
			urls = append(urls, u)
		}
		if n == 0 || bytes.HasPrefix(body, []byte("\uFEFF")) {
			return // the header is the fuzzer's: only no-panic applies
		}
		if !utf8.Valid(in) {
			// encoding/csv reads any bytes; ours refuses a line that is
			// not UTF-8 (ErrEncoding), with its place.
			if !errors.Is(ours, source.ErrEncoding) && ours == nil {
				t.Fatalf("a body that is not UTF-8 was read without an error")
			}
			return
		}
		r := csv.NewReader(bytes.NewReader(in))
		r.FieldsPerRecord = int(n)
		recs, theirs := r.ReadAll()
		if theirs != nil || ours != nil {
			if (theirs == nil) != (ours == nil) {
				t.Fatalf("encoding/csv: %v; ours: %v", theirs, ours)
			}
			return
		}
		var want []sitemap.URL
		for _, rec := range recs[1:] {
			var u sitemap.URL
			for i, f := range rec {
				switch csvHeader[i] {
				case "loc":
					u.Loc = f
				case "lastmod":
					u.LastMod = f
				case "changefreq":
					u.ChangeFreq = f
				case "priority":
					u.Priority = f
				case "image":
					if f != "" {
						u.Images = append(u.Images, sitemap.Image{Loc: f})
					}
				case "alternate:de":
					if f != "" {
						u.Alternates = append(u.Alternates, sitemap.Alternate{Hreflang: "de", Href: f})
					}
				}
			}
			if strings.TrimSpace(u.Loc) != "" {
				want = append(want, u)
			}
		}
		if !reflect.DeepEqual(urls, want) {
			t.Fatalf("ours:\n%+v\nencoding/csv:\n%+v", urls, want)
		}
	})
}

// FuzzText checks the URL list reader against a naive reading of the same
// bytes.
func FuzzText(f *testing.F) {
	for _, b := range seeds(f, ".txt") {
		f.Add(b)
	}
	f.Add([]byte("a\r\n\r\n#x\n  b \rc\r"))
	f.Add([]byte("\x1f\x8b")) // gzip magic, then nothing: a damaged input
	f.Fuzz(func(t *testing.T, in []byte) {
		compressed := bytes.HasPrefix(in, []byte{0x1f, 0x8b}) || bytes.HasPrefix(in, []byte{0x28, 0xb5, 0x2f, 0xfd})
		var got []string
		for u, err := range source.New(bytes.NewReader(in), "f.txt", source.FormatText).All() {
			if err != nil {
				// Damaged compressed input is refused with its place;
				// plain text only a line that is not UTF-8.
				if _, ok := errors.AsType[*source.ParseError](err); !ok || !compressed && !errors.Is(err, source.ErrEncoding) {
					t.Fatal(err)
				}
				continue
			}
			got = append(got, u.Loc)
		}
		if compressed {
			return // read as gzip or zstd: the lines are checked elsewhere
		}
		var want []string
		s := strings.TrimPrefix(string(in), "\uFEFF")
		// A line ends in LF, CR LF or a CR alone, wherever.
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
		for _, line := range strings.Split(s, "\n") {
			line = strings.TrimSpace(line)
			if line != "" && line[0] != '#' && utf8.ValidString(line) {
				want = append(want, line)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}

// FuzzJSONL checks that the JSONL reader never panics, that every error is a
// *ParseError with a line, and that every URL it accepts has a loc and
// survives a JSON round trip.
func FuzzJSONL(f *testing.F) {
	for _, b := range seeds(f, ".jsonl") {
		f.Add(b)
	}
	f.Add([]byte(`{"loc":"x","priority":-1.5e3,"videos":[{"duration":01}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		s := source.New(bytes.NewReader(in), "f.jsonl", source.FormatJSONL)
		for {
			u, err := s.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *source.ParseError
				if !errors.As(err, &pe) || pe.Line < 1 {
					t.Fatalf("error %v (%T) is not a *ParseError with a line", err, err)
				}
				if s.Err() != nil {
					return
				}
				continue
			}
			if u.Loc == "" {
				t.Fatalf("accepted a URL without loc: %+v", u)
			}
			b, err := json.Marshal(u)
			if err != nil {
				t.Fatal(err)
			}
			back, err := source.New(bytes.NewReader(b), "again", source.FormatJSONL).Read()
			b2, _ := json.Marshal(back)
			if err != nil || !bytes.Equal(b, b2) {
				t.Fatalf("round trip of %s: %s, %v", b, b2, err)
			}
		}
	})
}
