// Command sitemapkit builds, checks, reads and submits sitemaps.
//
// Every subcommand is a thin layer over a library call; see the packages
// sitemap, loc, build, source and lint.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes, documented in the README and in each command's help.
const (
	exitOK          = 0
	exitInputErrors = 1   // the input has errors: validation found errors, or inputs were refused under --strict
	exitUsage       = 2   // usage or environment errors
	exitInterrupted = 130 // SIGINT or SIGTERM
)

// app carries what every command writes to; commands never touch os.Stdout.
type app struct {
	stdout io.Writer
	stderr io.Writer
	stdin  io.Reader
}

// exitError carries the exit code for an error that has already been
// reported (or is reported by main with its message).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError is a mistake in the command line, with a hint of what to try.
type usageError struct {
	msg  string
	hint string
}

func (e *usageError) Error() string { return e.msg }

func newRootCommand(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:           "sitemapkit",
		Short:         "Build, check, read and submit sitemaps exactly as sitemaps.org and Google define them",
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version(),
	}
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetIn(a.stdin)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{msg: err.Error(), hint: c.CommandPath() + " --help"}
	})
	root.AddCommand(
		newGenerateCommand(a),
		newSubmitCommand(a),
		newValidateCommand(a), newReadCommand(a),
		newInitCommand(a),
	)
	return root
}

// run executes the command line args and returns the exit code. It is the
// whole program, testable in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdout: stdout, stderr: stderr, stdin: stdin}
	root := newRootCommand(a)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return exitCode(err, stderr)
}

// exitCode reports err on stderr (unless it was reported already) and maps
// it to the documented exit codes.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ue *usageError
	var ee *exitError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "sitemapkit: %s\n", ue.msg)
		if ue.hint != "" {
			fmt.Fprintf(stderr, "Try: %s\n", ue.hint)
		}
		return exitUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "sitemapkit: interrupted")
		return exitInterrupted
	case errors.As(err, &ee):
		if ee.err != nil {
			fmt.Fprintf(stderr, "sitemapkit: %v\n", ee.err)
		}
		return ee.code
	default:
		fmt.Fprintf(stderr, "sitemapkit: %v\n", err)
		return exitUsage
	}
}

func version() string {
	return "dev"
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first signal, the default action returns: a second Ctrl-C
	// ends a run that is blocked reading its input at once (a killed run
	// leaves the published set as it was).
	context.AfterFunc(ctx, stop)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
