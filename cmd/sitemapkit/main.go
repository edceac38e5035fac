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
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"syscall"
	_ "time/tzdata" // --timezone names a zone on any machine, with or without a zone database

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/source"
	"github.com/sitemapkit/sitemapkit/submit"
)

// The Go heap's soft limits in the commands that promise flat memory:
// what they hold is bounded, but without a limit the heap grows to twice
// what is live between collections. read holds less and runs at the
// floor of gunzip: its limit is the heap it has at a million URLs (a
// lower one costs it 3 % of its time); validate's keeps a check of 2.5 M
// URLs of five alternates each at 56 MiB of RSS (40 MiB: 64). generate
// holds about 6 MiB, and copies its whole input into strings: collected
// each time the heap doubled, 19 times a million CSV rows, it spent 4 to
// 7 % more of its time (the write barriers of each collection slow every
// goroutine's copies of URLs).
const (
	readHeap     = 40 << 20
	validateHeap = 32 << 20
	generateHeap = 32 << 20
)

// limitHeap sets the Go heap's soft limit to n bytes; GOMEMLIMIT, when
// set, wins. Under its own limit the heap is collected only as it nears
// it, not each time it doubles (GOGC off, unless GOGC is set): what is
// live is a few MiB, and the default collected every few MiB read (a
// tenth of validate's time). A run that comes to hold more than three
// quarters of the limit (validate --max-per-rule 0 listing a million
// findings) would be collected without end near it, a time over: the
// limit is lifted then, and the heap grows as Go's default lets it (GOGC
// 100, unless GOGC sets another percent).
func limitHeap(n int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	heapLimit.n.Store(n)
	debug.SetMemoryLimit(n)
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		debug.SetGCPercent(-1)
	}
	heapLimit.gcOff.Store(gogc == "" || gogc == "off")
	heapLimit.crowded.Store(0)
	heapLimit.watch.Do(func() { afterEachGC(liftHeapLimit) })
}

// heapLimit is the limit limitHeap set, until liftHeapLimit lifts it.
var heapLimit struct {
	n     atomic.Int64 // 0: none
	gcOff atomic.Bool  // GOGC off under it: the limit sets the heap's goal
	// crowded counts the collections in a row that left less than a
	// sixteenth of the limit to allocate (see liftHeapLimit)
	crowded atomic.Int64
	watch   sync.Once
	checks  atomic.Int64 // liftHeapLimit's calls, for tests
}

// crowdedRuns is how many collections in a row must find the heap's goal
// crowded for the limit to be lifted: validate of millions of hreflang
// links peaks near its goal for a collection at times (its limit lifted
// there, its RSS went to 71 MiB), where a run that holds that much is
// collected thousands of times.
const crowdedRuns = 8

// liftHeapLimit lifts limitHeap's limit when more than three quarters of
// it is live, or so much that the heap's goal under it leaves less than a
// sixteenth of it to allocate between collections.
func liftHeapLimit() {
	heapLimit.checks.Add(1)
	n := heapLimit.n.Load()
	if n == 0 {
		return
	}
	// Or within a sixteenth of the limit of the heap's goal, which is
	// under the limit by what the runtime holds outside the heap (about
	// 9 MiB of 32): a run holding that much (generate --state with
	// hundreds of files, 23 MB live for a goal of 23) was collected back
	// to back, 2,000 times where 60 do, and never lifted. validate of
	// millions of hreflang links holds 16 MB of its 23 and stays.
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	metrics.Read(m)
	if m[0].Value.Kind() != metrics.KindUint64 || m[1].Value.Kind() != metrics.KindUint64 {
		return
	}
	live, goal := m[0].Value.Uint64(), m[1].Value.Uint64()
	crowded := heapLimit.gcOff.Load() && live+uint64(n/16) > goal
	if !crowded {
		heapLimit.crowded.Store(0)
	} else if heapLimit.crowded.Add(1) < crowdedRuns {
		crowded = false // a peak, for a collection or two, is not a run that holds that much
	}
	if live <= uint64(n/4*3) && !crowded {
		return
	}
	if heapLimit.n.CompareAndSwap(n, 0) {
		debug.SetMemoryLimit(math.MaxInt64)
		// GC off (limitHeap's, or GOGC=off) would now leave nothing to
		// collect the heap: it is Go's default again. A GOGC of the
		// user's own stays.
		if p := debug.SetGCPercent(100); p >= 0 {
			debug.SetGCPercent(p)
		}
	}
}

// afterEachGC calls f after each garbage collection, on the runtime's
// cleanup goroutine: a cleanup on an object dropped at once runs after
// the collection that finds it, and arms the next.
func afterEachGC(f func()) {
	type sentinel struct{ _ *int } // holds a pointer: not a tiny allocation, which may never be freed alone
	var arm func()
	arm = func() {
		runtime.AddCleanup(&sentinel{}, func(struct{}) { f(); arm() }, struct{}{})
	}
	arm()
}

// Exit codes, documented in the README and in each command's help.
const (
	exitOK          = 0
	exitInputErrors = 1   // the input has errors: validation found errors, or inputs were refused under --strict
	exitUsage       = 2   // usage or environment errors
	exitInterrupted = 130 // SIGINT, SIGTERM or SIGHUP
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
	// With no command: the help, as a usage error (exit 2), like any
	// other command line that does nothing.
	root.RunE = func(cmd *cobra.Command, args []string) error {
		cmd.Help()
		return &exitError{code: exitUsage}
	}
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			hint := "sitemapkit --help"
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				hint = "sitemapkit " + s[0]
			}
			return &usageError{msg: fmt.Sprintf("unknown command %q", args[0]), hint: hint}
		}
		return nil
	}
	root.SetVersionTemplate("sitemapkit {{.Version}}\n")
	root.AddCommand(newHelpTopics()...)
	root.AddCommand(
		newVersionCommand(a),
		newGenerateCommand(a),
		newSubmitCommand(a),
		newValidateCommand(a), newReadCommand(a), newCrawlCommand(a),
		newInitCommand(a),
	)
	// Completion offers the values of every flag that has a few.
	formats := map[string][]string{"read": {"jsonl", "csv", "text"}}
	for _, cmd := range root.Commands() {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			values := formats[cmd.Name()]
			if e, ok := f.Value.(interface{ Choices() []string }); ok {
				values = e.Choices()
			} else if f.Name != "format" {
				return
			}
			if values != nil {
				cmd.RegisterFlagCompletionFunc(f.Name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
					return values, cobra.ShellCompDirectiveNoFileComp
				})
			}
		})
	}
	return root
}

// run executes the command line args and returns the exit code. It is the
// whole program, testable in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdout: stdout, stderr: stderr, stdin: stdin}
	submit.UserAgent = discover.UserAgent(version())
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
		msg := "interrupted"
		if se, ok := errors.AsType[*source.StoppedError](err); ok {
			msg += "; " + se.Resume
		}
		fmt.Fprintln(stderr, "sitemapkit: "+msg)
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

// version is the command's version, from the module's build information:
// the tag (v1.2.3) when installed with `go install …@v1.2.3`, or the
// pseudo-version the go command stamps on a build in a clone (it names
// the commit, and ends in "+dirty" when the work tree had changes).
// Without either, "devel" with the VCS revision when the build recorded
// one.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "devel"
	}
	return "devel-" + rev[:min(12, len(rev))] + dirty
}

func newVersionCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print sitemapkit's version (the one its User-Agent names)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(a.stdout, "sitemapkit %s\n", version())
			return nil
		},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	// After the first signal, the default action returns: a second Ctrl-C
	// ends a run that is blocked reading its input at once (a killed run
	// leaves the published set as it was).
	context.AfterFunc(ctx, stop)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
