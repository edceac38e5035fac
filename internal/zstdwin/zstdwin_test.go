package zstdwin

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/sitemapkit/sitemapkit/internal/sitetest"
)

const line = "<url><loc>https://www.example.com/p</loc></url>\n"

// A stream whose window is the cap is decoded; one over it is refused
// before its decoder is made, naming its window and the cap, whether the
// window is the header's Window_Descriptor or a single segment's content
// size; a later frame over it is refused when the decoder meets it.
func TestNewReaderWindowCap(t *testing.T) {
	body := strings.Repeat(line, 1000)
	big := strings.Repeat(line, MaxWindow/len(line)*9/8) // a single segment of 9 MiB
	enc, err := zstd.NewWriter(nil, zstd.WithSingleSegment(true), zstd.WithWindowSize(2*MaxWindow))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, z, want, err string
	}{
		{"at the cap", sitetest.Zstd(body, MaxWindow), body, ""},
		{"two frames at the cap", sitetest.Zstd(body, 1<<20) + sitetest.Zstd(body, MaxWindow), body + body, ""},
		{"over the cap", sitetest.Zstd(body, 2*MaxWindow), "", "window too large: 16 MiB, over the 8 MiB cap (RFC 9659's; zstd -19 and lower levels stay within it, --long and --ultra may not)"},
		{"single segment over the cap", string(enc.EncodeAll([]byte(big), nil)), "", "window too large: 9.0 MiB, over the 8 MiB cap"},
		{"a later single segment over the cap", sitetest.Zstd(body, 1<<20) + string(enc.EncodeAll([]byte(big), nil)), body, "window too large: 9.0 MiB in a later frame, over the 8 MiB cap"},
		{"a later frame over the cap", sitetest.Zstd(body, 1<<20) + sitetest.Zstd(body, 2*MaxWindow), body, "window too large: 16 MiB in a later frame, over the 8 MiB cap (RFC 9659's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := NewReader(bufio.NewReader(strings.NewReader(c.z)), MaxWindow)
			var got []byte
			if err == nil {
				got, err = io.ReadAll(r)
				if _, again := r.Read(make([]byte, 1)); err != nil && again != err || err == nil && again != io.EOF {
					t.Errorf("Read after the end: %v, want %v again", again, err)
				}
			}
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("err = %v", err)
			case c.err != "" && (!errors.Is(err, ErrWindow) || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("err = %v, want ErrWindow saying %q", err, c.err)
			}
			if string(got) != c.want {
				t.Errorf("decoded %d bytes, want %d", len(got), len(c.want))
			}
		})
	}
}

// Close lets the decoder go: a Read after it fails, and Close again does
// nothing.
func TestReaderClose(t *testing.T) {
	r, err := NewReader(bufio.NewReader(strings.NewReader(sitetest.Zstd(strings.Repeat(line, 1000), MaxWindow))), MaxWindow)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(make([]byte, 10)); err != io.ErrClosedPipe {
		t.Errorf("Read after Close: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{8 << 20: "8 MiB", 46137566: "44.0 MiB", 512 << 10: "512 KiB", 1000: "1000 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// FuzzNewReader: any bytes given as a zstd stream are decoded within the
// cap or refused with an error, never a panic; a window Window reports
// over the cap is ErrWindow at once, and no stream decodes past the cap
// of its size (a bomb is the caller's bound, here 1 MiB read).
func FuzzNewReader(f *testing.F) {
	f.Add([]byte(sitetest.Zstd(line, 1<<20)))
	f.Add([]byte(sitetest.Zstd(line, MaxWindow)))
	f.Add([]byte(sitetest.Zstd(line, 2*MaxWindow)))
	f.Add([]byte(sitetest.Zstd(line, 1<<20) + sitetest.Zstd(line, 2*MaxWindow)))
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		w, ok, werr := Window(b, MaxWindow)
		if ok && w > MaxWindow && !errors.Is(werr, ErrWindow) {
			t.Fatalf("Window = %d over the cap, error %v", w, werr)
		}
		r, err := NewReader(bufio.NewReader(strings.NewReader(string(b))), MaxWindow)
		if werr != nil {
			if !errors.Is(err, ErrWindow) {
				t.Fatalf("Window refused it (%v), NewReader: %v", werr, err)
			}
			return
		}
		if err != nil {
			return
		}
		defer r.Close()
		io.Copy(io.Discard, io.LimitReader(r, 1<<20))
	})
}
