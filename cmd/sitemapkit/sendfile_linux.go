package main

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// sendSpool copies f, from its offset to its end, to dst by sendfile(2)
// when dst is a pipe or a device: the kernel moves the pages, where
// io.Copy would read and write them 32 KiB at a time (Go uses sendfile
// for sockets only, and copy_file_range for files, which this leaves to
// it). handled is false when it did not start: the caller
// copies (the rest).
func sendSpool(dst io.Writer, f *os.File) (n int64, handled bool, err error) {
	out, ok := dst.(*os.File)
	if !ok {
		return 0, false, nil
	}
	// Pipes and devices only: a socket is Go's (it sends files to one by
	// sendfile itself, and knows its errors and timeouts), a file is
	// copy_file_range's.
	if fi, err := out.Stat(); err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeCharDevice) == 0 {
		return 0, false, nil
	}
	src, err := f.SyscallConn()
	if err != nil {
		return 0, false, nil
	}
	to, err := out.SyscallConn()
	if err != nil {
		return 0, false, nil
	}
	var serr error
	cerr := src.Control(func(in uintptr) {
		err := to.Write(func(fd uintptr) bool {
			for {
				k, e := syscall.Sendfile(int(fd), int(in), nil, 1<<30)
				n += int64(max(k, 0))
				switch {
				case e == syscall.EAGAIN:
					return false // a non-blocking pipe is full: wait
				case e == syscall.EINTR:
				case e != nil:
					serr = e
					return true
				case k == 0:
					return true
				}
			}
		})
		if serr == nil {
			serr = err
		}
	})
	if serr == nil {
		serr = cerr
	}
	switch {
	case n == 0 && (errors.Is(serr, syscall.EINVAL) || errors.Is(serr, syscall.ENOSYS)):
		return 0, false, nil // sendfile does not do this pair: copy
	case errors.Is(serr, syscall.EPIPE):
		// The reader is gone: left to the caller's write, which ends the
		// process as any write to a closed stdout does (SIGPIPE).
		return n, false, nil
	}
	if serr != nil {
		serr = &os.PathError{Op: "write", Path: out.Name(), Err: serr}
	}
	return n, true, serr
}
