//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// TestSendSpool: a spool larger than a pipe's buffer comes out of the pipe
// whole, from the spool's offset; a closed pipe, a regular file, a
// socket or a buffer is left to the caller.
func TestSendSpool(t *testing.T) {
	want := bytes.Repeat([]byte("https://www.example.com/a?b=c,2024-01-02,weekly,0.5,s.xml\n"), 40000) // 2.3 MB
	spool, err := os.Create(filepath.Join(t.TempDir(), "spool"))
	if err != nil {
		t.Fatal(err)
	}
	defer spool.Close()
	if _, err := spool.Write(want); err != nil {
		t.Fatal(err)
	}
	rewind := func(off int64) {
		if _, err := spool.Seek(off, io.SeekStart); err != nil {
			t.Fatal(err)
		}
	}

	// A pipe: Go's are non-blocking, so a full one makes sendfile wait.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(pr)
		got <- b
	}()
	rewind(100)
	n, handled, err := sendSpool(pw, spool)
	pw.Close()
	out := <-got
	pr.Close()
	if runtime.GOOS == "linux" && !handled {
		t.Fatal("a pipe was not handled on Linux")
	}
	if handled && (err != nil || n != int64(len(want)-100) || !bytes.Equal(out, want[100:])) {
		t.Fatalf("pipe: %d bytes sent, %d read, %v; want %d", n, len(out), err, len(want)-100)
	}

	// A pipe whose reader is gone: left to the caller's write, for its
	// SIGPIPE on stdout.
	pr, pw, err = os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr.Close()
	rewind(0)
	if _, handled, err := sendSpool(pw, spool); handled || err != nil {
		t.Errorf("closed pipe: handled %v, %v; want left to the caller", handled, err)
	}
	pw.Close()

	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	rewind(0)
	if n, handled, err := sendSpool(devNull, spool); handled && (err != nil || n != int64(len(want))) {
		t.Errorf("%s: %d bytes, %v; want %d", os.DevNull, n, err, len(want))
	}

	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	// A socket is Go's: it has its own sendfile, errors and deadlines.
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	sock, peer := os.NewFile(uintptr(fds[0]), "socket"), os.NewFile(uintptr(fds[1]), "peer")
	defer sock.Close()
	defer peer.Close()
	for _, dst := range []io.Writer{file, sock, &bytes.Buffer{}} {
		rewind(0)
		if n, handled, err := sendSpool(dst, spool); handled || n != 0 || err != nil {
			t.Errorf("%T: handled %v, %d bytes, %v; want left to the caller", dst, handled, n, err)
		}
	}
}
