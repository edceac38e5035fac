package gunzip

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func member(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func read(in []byte) (string, error) {
	r, err := NewReader(bytes.NewReader(in))
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(r)
	return string(out), err
}

// TestPadding: zero bytes after the last member are padding, as gzip(1)
// takes them (they were a damaged header); members run together are read
// in turn; anything else after a member is still an error.
func TestPadding(t *testing.T) {
	a, b := member(t, "hello "), member(t, "world")
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	corrupt := cat(a)
	corrupt[len(corrupt)-5] ^= 0xff // the CRC
	for _, tc := range []struct {
		name string
		in   []byte
		want string
		err  error
	}{
		{"one member", a, "hello ", nil},
		{"two members", cat(a, b), "hello world", nil},
		{"padding", cat(a, b, make([]byte, 512)), "hello world", nil},
		{"a byte of padding", cat(a, []byte{0}), "hello ", nil},
		{"padding past a buffer", cat(a, make([]byte, 100_000)), "hello ", nil},
		{"padding past its cap", cat(a, make([]byte, MaxPadding+10_000)), "hello ", gzip.ErrHeader},
		{"garbage", cat(a, []byte("junk")), "hello ", gzip.ErrHeader},
		{"zeros then garbage", cat(a, make([]byte, 5000), []byte{1}), "hello ", gzip.ErrHeader},
		{"half a magic", cat(a, []byte{0x1f}), "hello ", gzip.ErrHeader},
		{"truncated", cat(a, b[:len(b)-3]), "hello world", io.ErrUnexpectedEOF},
		{"checksum", corrupt, "hello ", gzip.ErrChecksum},
	} {
		got, err := read(tc.in)
		if !strings.HasPrefix(tc.want, got) || tc.err == nil && got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("%s: %q, %v; want %q, %v", tc.name, got, err, tc.want, tc.err)
		}
	}
}
