package publish

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// pipelineRun writes docs through a pipeline, child i gzipped when gz[i],
// and returns the children.
func pipelineRun(t *testing.T, dir string, docs []string, gz []bool, compressFirst bool) []*child {
	t.Helper()
	p := newPipeline(dir, ".sitemapkit-tmp-t.")
	w := chunkWriter{p: p, ctx: context.Background()}
	var cs []*child
	for i, d := range docs {
		c := &child{n: i + 1}
		cs = append(cs, c)
		w.c, w.gz = c, gz[i]
		// Uneven pieces, as a Writer's buffer would hand them over.
		for s := d; len(s) > 0; {
			k := min(len(s), 1+len(s)%7919)
			if _, err := w.Write([]byte(s[:k])); err != nil {
				t.Fatal(err)
			}
			s = s[k:]
		}
		if err := w.end(); err != nil {
			t.Fatal(err)
		}
		if i == 0 && compressFirst {
			if err := p.send(context.Background(), job{kind: jobCompress, c: c}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := p.finish(); err != nil {
		t.Fatal(err)
	}
	return cs
}

func readMaybeGzip(t *testing.T, path string, gz bool) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if gz {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPipelineChunksInOrder(t *testing.T) {
	dir := t.TempDir()
	var docs []string
	for i := range 3 {
		var sb strings.Builder
		for j := range 40000 * (i + 1) {
			sb.WriteString("line ")
			sb.WriteString(strings.Repeat(string(rune('a'+i)), j%13))
			sb.WriteByte('\n')
		}
		docs = append(docs, sb.String())
	}
	cs := pipelineRun(t, dir, docs, []bool{false, true, false}, true)
	for i, c := range cs {
		if c.raw != int64(len(docs[i])) {
			t.Errorf("child %d: raw %d, want %d", i+1, c.raw, len(docs[i]))
		}
		if !c.gzip && i != 2 || c.gzip && i == 2 {
			t.Errorf("child %d: gzip = %v", i+1, c.gzip)
		}
		if got := readMaybeGzip(t, c.tmp, c.gzip); got != docs[i] {
			t.Errorf("child %d: content differs (%d bytes, want %d)", i+1, len(got), len(docs[i]))
		}
		if st, err := os.Stat(c.tmp); err != nil || st.Size() != c.disk {
			t.Errorf("child %d: on disk %v, want %d bytes", i+1, err, c.disk)
		}
		var s checksum
		s.write([]byte(docs[i]))
		if c.sum != s.sum() {
			t.Errorf("child %d: sum %x, want %x", i+1, c.sum, s.sum())
		}
	}
	// 3 temp files, and the plain one of the compressed child, which
	// removeTemps removes with the others.
	if n := len(listDir(t, dir)); n != 4 {
		t.Errorf("%d files in dir, want 4", n)
	}
}

func TestPipelineSameContentSameBytes(t *testing.T) {
	doc := strings.Repeat("<url><loc>https://www.example.com/</loc></url>\n", 20000)
	a := pipelineRun(t, t.TempDir(), []string{doc}, []bool{true}, false)[0]
	b := pipelineRun(t, t.TempDir(), []string{doc}, []bool{true}, false)[0]
	ab, _ := os.ReadFile(a.tmp)
	bb, _ := os.ReadFile(b.tmp)
	if !bytes.Equal(ab, bb) || a.sum != b.sum {
		t.Error("the same content gave different gzip bytes or sums")
	}
}

func TestPipelineFailureDrains(t *testing.T) {
	dir := t.TempDir()
	p := newPipeline(dir, ".sitemapkit-tmp-t.")
	// Remove the folder under the worker: creating the temp file fails.
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	w := chunkWriter{p: p, ctx: context.Background(), c: &child{n: 1}}
	data := bytes.Repeat([]byte("x"), chunkSize)
	var err error
	for i := 0; i < 50 && err == nil; i++ {
		_, err = w.Write(data)
	}
	if err == nil {
		t.Fatal("writing into a removed folder never failed")
	}
	if ferr := p.finish(); ferr == nil {
		t.Error("finish reported no failure")
	}
	if err := p.removeTemps(); err != nil {
		t.Error(err)
	}
}

func TestPipelineContextCancelled(t *testing.T) {
	p := newPipeline(t.TempDir(), ".sitemapkit-tmp-t.")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := chunkWriter{p: p, ctx: ctx, c: &child{n: 1}}
	data := bytes.Repeat([]byte("x"), chunkSize)
	var err error
	for i := 0; i < 50 && err == nil; i++ {
		_, err = w.Write(data)
	}
	if err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	p.finish()
	if err := p.removeTemps(); err != nil {
		t.Error(err)
	}
}
