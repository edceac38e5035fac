package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
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
  csv    a header row, then one row per entry: loc, lastmod, changefreq,
         priority, one image column per image (repeated header "image"),
         one alternate:<hreflang> column per language, and "sitemap" (unless
         --no-source): generate's CSV input, as it is. Videos and news do not fit in
         CSV; use jsonl for them.
  text   one loc per line.

Problems (a damaged file, an HTTP error) are reported on stderr as
FILE:LINE:COL: error[rule-id]: message; the entries before the damage are
printed.

EXIT STATUS
  0  every document was read completely
  1  some document could not be read, or only partly
  2  usage error, or nothing could be read`,
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
			return nil
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
	// No larger than a chunk: a chunk then goes to stdout as it is, not
	// copied into the buffer first.
	out := bufio.NewWriterSize(a.stdout, flushSize)
	w := out
	var spool *os.File
	csvInfo := &csvCollector{hreflangs: map[string]bool{}}
	if o.format == "csv" {
		// The header depends on every entry (image and hreflang columns):
		// entries are spooled to a file as JSONL, then written as CSV.
		f, err := os.CreateTemp("", "sitemapkit-read-*.jsonl")
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		defer os.Remove(f.Name())
		defer f.Close()
		spool = f
		w = bufio.NewWriterSize(f, 1<<20)
	}
	withSource := !o.noSource || o.format == "csv"

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
					continue // an entry the reader skipped: validate reports it
				}
				return err
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
		switch o.format {
		case "text":
			buf = append(buf, u.Loc...)
			buf = append(buf, '\n')
		case "csv":
			csvInfo.note(&u)
			buf = source.AppendJSONL(buf, &u, doc)
		default:
			buf = source.AppendJSONL(buf, &u, doc)
		}
		if len(buf) >= flushSize {
			w.Write(buf)
			buf = buf[:0]
		}
	}
	w.Write(buf)
	if resolved > 0 {
		fmt.Fprintf(a.stderr, "sitemapkit: %s resolved against --base\n", countOf(resolved, "relative URL"))
	}
	if spool != nil {
		if err := w.Flush(); err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		if err := csvInfo.write(out, spool, !o.noSource); err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		if n := csvInfo.dropped.Load(); n > 0 {
			fmt.Fprintf(a.stderr, "sitemapkit: %d entries carry videos or news, which CSV cannot hold; use --format jsonl to keep them\n", n)
		}
	}
	if err := out.Flush(); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing output: %w", err)}
	}
	switch {
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

// csvCollector learns the CSV columns while entries are spooled.
type csvCollector struct {
	mu        sync.Mutex
	maxImages int
	hreflangs map[string]bool
	order     []string
	dropped   atomic.Int64
}

func (c *csvCollector) note(u *sitemap.URL) {
	if len(u.Videos) > 0 || u.News != nil {
		c.dropped.Add(1)
	}
	if len(u.Images) == 0 && len(u.Alternates) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.maxImages = max(c.maxImages, len(u.Images))
	for _, a := range u.Alternates {
		if !c.hreflangs[a.Hreflang] {
			c.hreflangs[a.Hreflang] = true
			c.order = append(c.order, a.Hreflang)
		}
	}
}

// write turns the spooled JSONL into CSV with generate's columns.
func (c *csvCollector) write(out io.Writer, spool *os.File, withSource bool) error {
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	w := csv.NewWriter(out)
	header := []string{"loc", "lastmod", "changefreq", "priority"}
	for range c.maxImages {
		header = append(header, "image")
	}
	col := map[string]int{}
	for _, h := range c.order {
		col[h] = len(header)
		header = append(header, "alternate:"+h)
	}
	if withSource {
		header = append(header, "sitemap")
	}
	if err := w.Write(header); err != nil {
		return err
	}
	sc := bufio.NewScanner(spool)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	row := make([]string, len(header))
	for sc.Scan() {
		var e struct {
			sitemap.URL
			Sitemap string `json:"sitemap"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return fmt.Errorf("spooled entry: %w", err)
		}
		clear(row)
		row[0], row[1], row[2], row[3] = e.Loc, e.LastMod, e.ChangeFreq, e.Priority
		for i, im := range e.Images {
			row[4+i] = im.Loc
		}
		for _, a := range e.Alternates {
			if i, ok := col[a.Hreflang]; ok && row[i] == "" {
				row[i] = a.Href
			}
		}
		if withSource {
			row[len(row)-1] = e.Sitemap
		}
		if err := w.Write(row); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	w.Flush()
	return w.Error()
}

// addSiteFlags binds the flags validate and read share to opts, with the
// defaults of package discover.
func addSiteFlags(f *pflag.FlagSet, opts *discover.Options) {
	def := discover.Options{UserAgent: discover.UserAgent(version())}.WithDefaults()
	f.StringVar(&opts.Base, "base", "", "public URL of local files, for the scope rules (a file's URL is base + its path relative to the folder given)")
	f.BoolVar(&opts.Offline, "offline", false, "never use the network: URLs and index children not found beside their local index are reported, not fetched")
	f.DurationVar(&opts.Timeout, "timeout", def.Timeout, "time limit of each fetch, body included")
	f.StringVar(&opts.UserAgent, "user-agent", def.UserAgent, "User-Agent sent, and matched against robots.txt groups")
	f.IntVar(&opts.MaxDepth, "max-depth", def.MaxDepth, "levels of index followed below a start (an index listed by an index is an error, but is still read one level down)")
	f.IntVar(&opts.Concurrency, "concurrency", def.Concurrency, "documents fetched and read at once")
	f.DurationVar(&opts.Budget, "time-budget", def.Budget, "time limit of the whole walk: past it, a walk-limit error names the first document not read (negative: none)")
	f.IntVar(&opts.MaxDocuments, "max-documents", def.MaxDocuments, "most sitemaps and indexes one run reads: past it, a walk-limit error names the first not read")
}
