package fetch

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode feeds arbitrary bodies under arbitrary Content-Encoding
// chains to the decoders: no panic, and never more than MaxBytes out,
// whatever the body claims. Seeds: the corpus's encoded HTML and bombs.
func FuzzDecode(f *testing.F) {
	seeds := map[string]string{
		"html-gzip.bin":                     "gzip",
		"html-br.bin":                       "br",
		"html-zlibdeflate.bin":              "deflate",
		"html-rawdeflate.bin":               "deflate",
		"html-gzip-deflate.bin":             "gzip, deflate",
		"html-gzip-deflate-gzip.bin":        "gzip, deflate, gzip",
		"html-zstd-static-content-size.bin": "zstd",
		"bomb-gzip.bin":                     "gzip",
		"bomb-br.bin":                       "br",
		"bomb-deflate.bin":                  "deflate",
		"bomb-zstd.bin":                     "zstd",
	}
	for name, coding := range seeds {
		if b, err := os.ReadFile(filepath.Join(corpus, name)); err == nil {
			f.Add(b, coding)
		}
	}
	f.Add([]byte("plain"), "")
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}, "gzip")
	const limit = 1 << 20
	f.Fuzz(func(t *testing.T, body []byte, coding string) {
		c := &Client{MaxBytes: limit}
		h := http.Header{}
		h.Set("Content-Encoding", coding)
		r, _, closers, err := c.decode(bytes.NewReader(body), h)
		if err != nil {
			if !errors.Is(err, ErrUnsupportedEncoding) {
				t.Fatalf("decode(%q): %v", coding, err)
			}
			return
		}
		defer func() {
			for _, c := range closers {
				c.Close()
			}
		}()
		n, err := io.Copy(io.Discard, r)
		if n > limit {
			t.Fatalf("%d bytes out, cap %d (err %v)", n, limit, err)
		}
	})
}
