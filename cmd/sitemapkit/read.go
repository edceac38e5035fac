package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemapkit/discover"
	"github.com/sitemapkit/sitemapkit/lint"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

type readOptions struct {
	format   string
	noSource bool
	site     discover.Options
}

func newReadCommand(a *app) *cobra.Command {
	o := &readOptions{}
	cmd := &cobra.Command{
		Use:   "read [flags] FILE|DIR|URL...",
		Short: "Print every entry of sitemaps, indexes, robots.txt-listed sitemaps and feeds",
		Long: `Read prints every entry of the sitemaps it is given, with every field the
entry carries (images, videos, news, hreflang alternates) and the sitemap it
came from. It follows what validate follows: a site root's robots.txt and its
Sitemap: lines, index children (a local index's children are read from the
index's folder when a file of the child's base name is there, otherwise
fetched unless --offline), every sitemap file in a folder. Entries come out
in order: each sitemap's in document order, an index's children in index
order.

Formats:
  jsonl  one JSON object per entry, with the field names of generate's JSONL
         input (loc, lastmod, changefreq, priority, images, videos, news,
         alternates) plus "sitemap", the document it came from (generate
         accepts and ignores it, so the output feeds generate as it is).
  csv    a header row, then one row per entry, with the same columns
         whatever the entries carry: loc, lastmod, changefreq, priority,
         sitemap (unless --no-source), then images, videos, news and
         alternates, which hold JSON (the jsonl format's values of those
         fields; empty when the entry has none). Generate's CSV input, as
         it is; rows come out as they are read.
  text   one loc per line.

In csv and text, a control character of a loc, lastmod, changefreq or
priority (a line end, an escape sequence) is percent-encoded (%0A, %1B):
one entry is one line, and a hostile sitemap drives no terminal.

Problems (a damaged file, an HTTP error, an entry that cannot be read,
such as a <url> without <loc>, or one whose line would be longer than the
16 MiB generate reads) are reported on stderr as
FILE:LINE:COL: error[rule-id]: message; the entries before the damage are
printed.

EXIT STATUS
  0  every document was read completely
  1  some document or entry could not be read, or only partly
  2  usage error, or nothing could be read
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP): the entries read so far are
       printed`,
		Example: `  sitemapkit read --format jsonl https://www.example.com/robots.txt
  sitemapkit read --format text public/sitemap.xml
  sitemapkit read --format jsonl old/sitemap.xml > urls.jsonl
  sitemapkit generate --base https://www.example.com/ --out public/ urls.jsonl`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &usageError{msg: "read needs at least one FILE, DIR or URL", hint: "sitemapkit read --help"}
			}
			switch o.format {
			case "jsonl", "csv", "text":
			default:
				return &usageError{msg: fmt.Sprintf("unknown --format %q (want jsonl, csv or text)", o.format), hint: "sitemapkit read --help"}
			}
			return checkSiteFlags(&o.site, "read")
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRead(cmd.Context(), a, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "jsonl", "output format: jsonl, csv or text")
	f.BoolVar(&o.noSource, "no-source", false, `leave out the "sitemap" field/column`)
	addSiteFlags(f, &o.site)
	return cmd
}

// flushSize is how much output is gathered before it is written.
const flushSize = 256 << 10

func runRead(ctx context.Context, a *app, o *readOptions, args []string) error {
	limitHeap(readHeap)
	// No larger than a chunk: a chunk then goes to stdout as it is, not
	// copied into the buffer first.
	out := bufio.NewWriterSize(a.stdout, flushSize)
	withSource := !o.noSource
	if o.format == "csv" {
		out.WriteString(source.CSVHeader(withSource))
	}

	// A character read as something else (invalid UTF-8 as U+FFFD, a NUL
	// kept) changes the entry: said with its place, and an error. The
	// readers call OnNotice from their goroutines.
	var (
		stderrMu sync.Mutex
		altered  atomic.Int64
	)
	say := func(d lint.Diagnostic) {
		stderrMu.Lock()
		defer stderrMu.Unlock()
		fmt.Fprintln(a.stderr, d.String())
	}
	onNotice := func(doc string, n sitemap.Notice) {
		if n.Rule == sitemap.RuleInvalidCharacter {
			altered.Add(1)
			say(lint.Diagnostic{File: doc, Line: n.Pos.Line, Col: n.Pos.Col, Rule: n.Rule, Severity: lint.Error,
				Message: n.Msg + " (read as U+FFFD, or as it is)"})
		}
	}
	// A relative loc (which the protocol forbids, and some sites write)
	// is resolved against --base, as generate does.
	var base *url.URL
	resolved := 0
	if o.site.Base != "" {
		base, _ = url.Parse(o.site.Base)
	}
	s := source.OpenSitemaps(ctx, args, source.SitemapsOptions{Options: o.site, KeepGoing: true, OnNotice: onNotice})
	defer s.Close()
	var (
		buf      = make([]byte, 0, flushSize+4096)
		entries  int
		problems int
		failures int // documents not read at all
		opened   bool
		stopped  error // an interrupt: what was read is printed first
	)
	for {
		u, err := s.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *source.SitemapError
			if !errors.As(err, &se) {
				var pe *source.ParseError
				if errors.As(err, &pe) {
					// An entry the reader skipped (a <url> without <loc>,
					// a line of a text sitemap that is not a URL): said,
					// as validate says it, for it is not in the output.
					rule := sitemap.RuleInvalidURL
					if errors.Is(pe, source.ErrMissingLoc) {
						rule = sitemap.RuleMissingTag
					}
					say(lint.Diagnostic{File: pe.File, Line: pe.Line, Col: pe.Column, Rule: rule, Severity: lint.Error,
						Message: pe.Err.Error()})
					problems++
					continue
				}
				stopped = err
				break
			}
			d := sitemapDiagnostic(se)
			if d.Severity == lint.Error {
				problems++
			}
			say(d)
			if notRead(se) {
				failures++
			} else {
				opened = true
			}
			continue
		}
		entries++
		if base != nil {
			if r, ok := source.Resolve(base, u.Loc); ok {
				u.Loc = r
				resolved++
			}
		}
		doc := ""
		if withSource {
			doc = s.Document()
		}
		start := len(buf)
		switch o.format {
		case "text":
			buf = source.AppendText(buf, &u)
		case "csv":
			buf = source.AppendCSV(buf, &u, doc, withSource)
		default:
			buf = source.AppendJSONL(buf, &u, doc)
		}
		if n := len(buf) - start; n > source.MaxLineBytes {
			// Past the longest line generate reads, which would refuse
			// the whole output: left out, and said, so that what is
			// printed is always generate's input (an entry of many
			// long captions, each under the reader's 1 MiB a value).
			buf = buf[:start]
			entries--
			problems++
			say(lint.Diagnostic{File: s.Document(), Line: s.Line(), Col: s.Column(), Rule: sitemap.RuleParseError, Severity: lint.Error,
				Message: fmt.Sprintf("entry too long: its %s line would be %d bytes, past the %d MiB generate reads; left out", o.format, n, source.MaxLineBytes>>20)})
		}
		if len(buf) >= flushSize {
			out.Write(buf)
			buf = buf[:0]
		}
	}
	out.Write(buf)
	if resolved > 0 {
		fmt.Fprintf(a.stderr, "sitemapkit: %s resolved against --base\n", countOf(resolved, "relative URL"))
	}
	if err := out.Flush(); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing output: %w", err)}
	}
	switch {
	case stopped != nil:
		return stopped
	case entries == 0 && !opened && failures > 0:
		return &exitError{code: exitUsage, err: errors.New("nothing could be read")}
	case problems > 0 || altered.Load() > 0:
		return &exitError{code: exitInputErrors}
	}
	return nil
}

// sitemapDiagnostic shows a problem of the sources as validate shows it.
func sitemapDiagnostic(se *source.SitemapError) lint.Diagnostic {
	d := lint.Diagnostic{File: se.Sitemap, Rule: se.Rule, Severity: lint.Error, Message: se.Err.Error()}
	if r := lint.Lookup(se.Rule); r != nil {
		d.Severity = r.Severity
	}
	var syn *sitemap.SyntaxError
	var we *discover.Error
	switch {
	case errors.As(se.Err, &syn):
		d.Line, d.Col, d.Message = syn.Line, syn.Col, syn.Err.Error()
	case se.Parent != "":
		d.File, d.Line, d.Message = se.Parent, se.ParentLine, se.Sitemap+": "+d.Message
	case errors.As(se.Err, &we):
		d.Line = we.Line
	}
	return d
}

// notRead reports a document the walk could not open.
func notRead(se *source.SitemapError) bool {
	var we *discover.Error
	if !errors.As(se.Err, &we) {
		return false
	}
	switch we.Kind {
	case discover.FetchFailed, discover.HTTPStatus, discover.BlockedByRobots, discover.CrossHost, discover.InvalidURL:
		return true
	}
	return false
}

// checkSiteFlags refuses the values of addSiteFlags's flags that mean
// nothing: their defaults are numbers, so a 0 given is a mistake, not a
// request for the default (which discover.Options takes a zero for).
func checkSiteFlags(o *discover.Options, cmd string) error {
	var errs []string
	for _, f := range []struct {
		name string
		v    int
	}{{"--max-depth", o.MaxDepth}, {"--concurrency", o.Concurrency}, {"--max-documents", o.MaxDocuments}} {
		if f.v < 1 {
			errs = append(errs, fmt.Sprintf("%s %d: at least 1", f.name, f.v))
		}
	}
	if o.Timeout == 0 {
		errs = append(errs, "--timeout 0: give a duration (30s), or a negative one for no limit")
	}
	if o.Budget == 0 {
		errs = append(errs, "--time-budget 0: give a duration (1h), or a negative one for no limit")
	}
	if len(errs) == 0 {
		return nil
	}
	return &usageError{msg: strings.Join(errs, "\n  "), hint: "sitemapkit " + cmd + " --help"}
}

// addSiteFlags binds the flags validate and read share to opts, with the
// defaults of package discover.
func addSiteFlags(f *pflag.FlagSet, opts *discover.Options) {
	def := discover.Options{UserAgent: discover.UserAgent(version())}.WithDefaults()
	f.StringVar(&opts.Base, "base", "", "public URL of local files, for the scope rules (a file's URL is base + its path relative to the folder given)")
	f.BoolVar(&opts.Offline, "offline", false, "never use the network: URLs and index children not found beside their local index are reported, not fetched")
	f.DurationVar(&opts.Timeout, "timeout", def.Timeout, "time limit of each fetch up to its answer, then of each read of its body (a sitemap opened ahead does not run out of time waiting its turn)")
	f.StringVar(&opts.UserAgent, "user-agent", def.UserAgent, "User-Agent sent, and matched against robots.txt groups")
	f.IntVar(&opts.MaxDepth, "max-depth", def.MaxDepth, "levels of index followed below a start (an index listed by an index is an error, but is still read one level down)")
	f.IntVar(&opts.Concurrency, "concurrency", def.Concurrency, "documents fetched and read at once")
	f.DurationVar(&opts.Budget, "time-budget", def.Budget, "time limit of the whole walk: past it, a walk-limit error names the first document not read (negative: none)")
	f.IntVar(&opts.MaxDocuments, "max-documents", def.MaxDocuments, "most sitemaps and indexes one run reads: past it, a walk-limit error names the first not read")
}
