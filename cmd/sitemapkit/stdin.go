package main

import (
	"context"
	"io"
	"os"
	"sync"
)

// interruptible is the standard input as generate reads it: a signal ends
// a Read that waits on it. A pipe whose writer hangs ("sleep 100 |
// sitemapkit generate -") held the run past one SIGTERM, which is all a CI
// runner sends before it kills. The input is copied through a pipe by a
// goroutine started at the first Read (a standard input that is not an
// input is left unread), and the pipe is closed with the context's error
// when it ends (a Read then returns it); the goroutine is left waiting on the input, which the
// process's exit ends. A regular file is read as it is: its reads do not
// wait.
func interruptible(ctx context.Context, r io.Reader) io.Reader {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return r
		}
	}
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx  context.Context
	r    io.Reader
	once sync.Once
	pr   *io.PipeReader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	c.once.Do(func() {
		pr, pw := io.Pipe()
		go func() {
			_, err := io.Copy(pw, c.r)
			pw.CloseWithError(err)
		}()
		context.AfterFunc(c.ctx, func() { pw.CloseWithError(c.ctx.Err()) })
		c.pr = pr
	})
	return c.pr.Read(p)
}
