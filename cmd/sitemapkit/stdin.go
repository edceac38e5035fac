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
//
// release, called when the run is over, closes the pipe: a run that ended
// before its input did (an error, --index never) leaves no goroutine
// copying it, nor a read of it waiting, in a process that goes on (run
// in-process, whose context may never end).
func interruptible(ctx context.Context, r io.Reader) (in io.Reader, release func()) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return r, func() {}
		}
	}
	c := &ctxReader{ctx: ctx, r: r}
	return c, c.release
}

type ctxReader struct {
	ctx  context.Context
	r    io.Reader
	once sync.Once
	pr   *io.PipeReader // nil once released unread
	stop func() bool    // the AfterFunc's
}

func (c *ctxReader) Read(p []byte) (int, error) {
	c.once.Do(func() {
		pr, pw := io.Pipe()
		go func() {
			_, err := io.Copy(pw, c.r)
			pw.CloseWithError(err)
		}()
		c.stop = context.AfterFunc(c.ctx, func() { pw.CloseWithError(c.ctx.Err()) })
		c.pr = pr
	})
	if c.pr == nil {
		return 0, io.ErrClosedPipe
	}
	return c.pr.Read(p)
}

func (c *ctxReader) release() {
	c.once.Do(func() {}) // never read: no copy starts now
	if c.pr != nil {
		c.stop()
		c.pr.Close() // the copy's pending write fails: it returns
	}
}
