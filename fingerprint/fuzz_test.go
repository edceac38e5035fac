package fingerprint

import (
	"bytes"
	"testing"
)

// FuzzHTML: any bytes are a page; the fingerprint never panics and is
// the same every time, in both passes.
func FuzzHTML(f *testing.F) {
	for _, p := range samePages {
		f.Add([]byte(p))
	}
	stream, _ := New(Options{})
	tree, _ := New(Options{Ignore: ".no-such-class"})
	f.Fuzz(func(t *testing.T, b []byte) {
		a1, err1 := stream.HTML(bytes.NewReader(b))
		a2, err2 := stream.HTML(bytes.NewReader(b))
		if err1 != nil || err2 != nil || a1 != a2 {
			t.Fatalf("stream: %x %v, then %x %v", a1, err1, a2, err2)
		}
		t1, err1 := tree.HTML(bytes.NewReader(b))
		t2, err2 := tree.HTML(bytes.NewReader(b))
		if err1 != nil || err2 != nil || t1 != t2 {
			t.Fatalf("tree: %x %v, then %x %v", t1, err1, t2, err2)
		}
	})
}
