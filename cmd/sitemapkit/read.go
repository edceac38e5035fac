package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

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
         priority, "sitemap" (unless --no-source), one image column per
         image (repeated header "image"), and one alternate:<hreflang>
         column per language: generate's CSV input, as it is. Videos and
         news do not fit in CSV; use jsonl for them. The header depends on
         every entry, so the rows come out once all are read.
  text   one loc per line.

Problems (a damaged file, an HTTP error) are reported on stderr as
FILE:LINE:COL: error[rule-id]: message; the entries before the damage are
printed.

EXIT STATUS
  0  every document was read completely
  1  some document could not be read, or only partly
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
	w := out
	var spool *os.File
	csvInfo := &csvCollector{hreflangs: map[string]bool{}, withSource: !o.noSource}
	defer csvInfo.close()
	if o.format == "csv" {
		// The header depends on every entry (image and hreflang columns):
		// rows are spooled to a file, then written out (csvCollector).
		f, err := createUnlinked("sitemapkit-read-*.spool")
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		defer os.Remove(f.Name())
		defer f.Close()
		spool = f
		w = bufio.NewWriterSize(f, flushSize) // as out: a chunk is written as it is
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
					continue // an entry the reader skipped: validate reports it
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
		switch o.format {
		case "text":
			buf = append(appendTextLoc(buf, u.Loc), '\n')
		case "csv":
			var err error
			if buf, err = csvInfo.spool(buf, &u, doc); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
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
		if err := csvInfo.write(out, a.stdout, spool); err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		if n := csvInfo.dropped; n > 0 {
			fmt.Fprintf(a.stderr, "sitemapkit: %d entries carry videos or news, which CSV cannot hold; use --format jsonl to keep them\n", n)
		}
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

// csvCollector writes CSV while the columns are learnt: the header depends
// on every entry (an image column per image, one per hreflang), so rows
// go to a spool file first, already as CSV, in the columns every row has
// (loc, lastmod, changefreq, priority, sitemap), and the images and
// alternates of the few entries that carry them to a second file, by row.
// Without any, the spool is the output as it is, copied out after the
// header: CSV costs what JSONL does. With some, each row is written out
// followed by its columns of them.
type csvCollector struct {
	withSource bool
	maxImages  int
	hreflangs  map[string]bool
	order      []string
	dropped    int
	rows       int
	extras     *os.File // the images and alternates, by row; nil: none met
	xw         *bufio.Writer
	tmp        []byte
	doc        string // the document of the last row spooled
	docField   []byte // doc as a CSV field
}

// spool appends u's row, with the document doc, to b, and records its
// images and alternates, if any.
func (c *csvCollector) spool(b []byte, u *sitemap.URL, doc string) ([]byte, error) {
	if len(u.Videos) > 0 || u.News != nil {
		c.dropped++
	}
	b = appendCSVFields(b, []string{u.Loc, u.LastMod, u.ChangeFreq, u.Priority})
	if c.withSource {
		if doc != c.doc { // every row of a document names it: made once
			c.doc, c.docField = doc, appendCSVField(c.docField[:0], doc)
		}
		b = append(append(b, ','), c.docField...)
	}
	b = append(b, '\n')
	if len(u.Images)+len(u.Alternates) > 0 {
		if err := c.spoolExtras(u); err != nil {
			return b, err
		}
	}
	c.rows++
	return b, nil
}

// spoolExtras records u's images and alternates for row c.rows: the row
// number, then each list as its length and strings, an image's loc and an
// alternate's href escaped for CSV, an hreflang as it is (a string is its
// length, uvarint, and bytes).
func (c *csvCollector) spoolExtras(u *sitemap.URL) error {
	if c.extras == nil {
		f, err := createUnlinked("sitemapkit-read-*.extras")
		if err != nil {
			return err
		}
		c.extras, c.xw = f, bufio.NewWriterSize(f, 64<<10)
	}
	c.maxImages = max(c.maxImages, len(u.Images))
	str := func(b, s []byte) []byte { return append(binary.AppendUvarint(b, uint64(len(s))), s...) }
	b := binary.AppendUvarint(c.tmp[:0], uint64(c.rows))
	b = binary.AppendUvarint(b, uint64(len(u.Images)))
	for i := range u.Images {
		b = str(b, appendCSVField(nil, u.Images[i].Loc))
	}
	b = binary.AppendUvarint(b, uint64(len(u.Alternates)))
	for i := range u.Alternates {
		a := &u.Alternates[i]
		if !c.hreflangs[a.Hreflang] {
			c.hreflangs[a.Hreflang] = true
			c.order = append(c.order, a.Hreflang)
		}
		b = str(b, []byte(a.Hreflang))
		b = str(b, appendCSVField(nil, a.Href))
	}
	c.tmp = b
	_, err := c.xw.Write(b)
	return err
}

// close closes the extras file.
func (c *csvCollector) close() {
	if c.extras != nil {
		c.extras.Close()
		os.Remove(c.extras.Name())
	}
}

// createUnlinked creates a temporary file, named by pattern as
// os.CreateTemp names it, and removes its name at once (the file lives
// until it is closed): a run killed, or ended by a closed pipe, leaves
// nothing behind. A system that keeps an open file's name (Windows) needs
// the caller's os.Remove after Close.
func createUnlinked(pattern string) (*os.File, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return f, nil
}

// spoolReader reads back what spoolExtras wrote.
type spoolReader struct {
	r   *bufio.Reader
	buf []byte
	err error
}

func (s *spoolReader) count() int {
	n, err := binary.ReadUvarint(s.r)
	if err != nil && s.err == nil {
		s.err = err
	}
	return int(n)
}

// bytes returns the next string; it is valid until the next call.
func (s *spoolReader) bytes() []byte {
	n := s.count()
	if s.err != nil {
		return nil
	}
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	s.buf = s.buf[:n]
	if _, err := io.ReadFull(s.r, s.buf); err != nil {
		s.err = err
		return nil
	}
	return s.buf
}

// write writes the header, then the spooled rows, to out, which buffers
// dst.
func (c *csvCollector) write(out *bufio.Writer, dst io.Writer, spool *os.File) error {
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	header := []string{"loc", "lastmod", "changefreq", "priority"}
	if c.withSource {
		header = append(header, "sitemap")
	}
	for range c.maxImages {
		header = append(header, "image")
	}
	col := map[string]int{}
	for i, h := range c.order {
		col[h] = i
		header = append(header, "alternate:"+h)
	}
	if _, err := out.Write(appendCSVRow(nil, header)); err != nil {
		return err
	}
	if c.extras == nil {
		// Every row is complete as spooled: copied by the system where it
		// can (sendfile to a pipe or a device, copy_file_range to a file).
		if err := out.Flush(); err != nil {
			return err
		}
		if _, handled, err := sendSpool(dst, spool); handled {
			return err
		}
		_, err := io.Copy(out, spool)
		return err
	}
	if err := c.xw.Flush(); err != nil {
		return err
	}
	if _, err := c.extras.Seek(0, io.SeekStart); err != nil {
		return err
	}
	xr := &spoolReader{r: bufio.NewReaderSize(c.extras, 64<<10)}
	next := xr.count() // the row of the next extras record
	rows := bufio.NewReaderSize(spool, 1<<20)
	images := make([][]byte, c.maxImages)
	alts := make([][]byte, len(c.order))
	var b []byte
	for i := 0; i < c.rows; i++ {
		row, err := csvRecord(rows)
		if err != nil {
			return fmt.Errorf("spooled row %d: %w", i+1, err)
		}
		b = append(b, row[:len(row)-1]...) // its line end comes after the extras
		clear(images)
		clear(alts)
		if xr.err == nil && next == i {
			for k := range xr.count() {
				images[k] = append(images[k][:0], xr.bytes()...)
			}
			for range xr.count() {
				k, ok := col[string(xr.bytes())]
				href := xr.bytes()
				if ok && alts[k] == nil {
					alts[k] = append([]byte(nil), href...)
				}
			}
			next = xr.count()
		}
		for _, v := range images {
			b = append(append(b, ','), v...)
		}
		for _, v := range alts {
			b = append(append(b, ','), v...)
		}
		b = append(b, '\n')
		if len(b) >= flushSize {
			if _, err := out.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if xr.err != nil && xr.err != io.EOF {
		return fmt.Errorf("spooled images and alternates: %w", xr.err)
	}
	_, err := out.Write(b)
	return err
}

// csvRecord reads one record appendCSVRow wrote, its line end included: a
// line end inside quotes (a field with a newline) does not end it.
func csvRecord(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadBytes('\n')
	for err == nil && bytes.Count(line, []byte{'"'})%2 == 1 {
		var more []byte
		more, err = r.ReadBytes('\n')
		line = append(line, more...)
	}
	return line, err
}

// appendCSVRow appends fields as a CSV record, as encoding/csv's Writer
// writes it: quoted when a field has a comma, quote, CR or LF, starts with
// a space, or is \. (TestCSVRow holds it to the Writer).
func appendCSVRow(b []byte, fields []string) []byte {
	return append(appendCSVFields(b, fields), '\n')
}

// appendCSVFields appends fields, separated by commas, without the line
// end. A row is written as it is and then tested whole, by the system's
// vector loops (bytes.Count, IndexByte): a row of plain fields holds no
// special byte but the commas between them. Only a row with another, or
// a field that starts with a space or is \., is written again a field at
// a time. A test a field at a time cost twice as much (BenchmarkCSVRow):
// lastmod, changefreq and priority are too short for a word at a time.
func appendCSVFields(b []byte, fields []string) []byte {
	start := len(b)
	plain := true
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		if f != "" && (f[0] <= ' ' || f[0] >= utf8.RuneSelf || f == `\.`) {
			plain = false // maybe a leading space, or \.: told apart below
		}
		b = append(b, f...)
	}
	if row := b[start:]; plain && bytes.Count(row, comma) == max(len(fields)-1, 0) &&
		bytes.IndexByte(row, '"') < 0 && bytes.IndexByte(row, '\n') < 0 && bytes.IndexByte(row, '\r') < 0 {
		return b
	}
	b = b[:start]
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, f)
	}
	return b
}

// appendCSVField appends one field, quoted if it needs to be.
func appendCSVField(b []byte, f string) []byte {
	if !csvNeedsQuotes(f) {
		return append(b, f...)
	}
	b = append(b, '"')
	for {
		j := strings.IndexByte(f, '"')
		if j < 0 {
			break
		}
		b = append(b, f[:j+1]...)
		b = append(b, '"')
		f = f[j+1:]
	}
	b = append(b, f...)
	return append(b, '"')
}

// appendTextLoc appends loc for a text listing, one URL a line: a control
// character (a newline written &#10; in the sitemap, an escape sequence)
// is percent-encoded, as a URL parser encodes it, so that a hostile
// sitemap cannot add lines of its own to the listing, nor drive the
// terminal. Such a loc is no valid URL; validate reports it.
func appendTextLoc(b []byte, loc string) []byte {
	i := 0
	for ; i+8 <= len(loc); i += 8 {
		if hasControl8(binary.LittleEndian.Uint64([]byte(loc[i : i+8]))) {
			break
		}
	}
	for ; i < len(loc); i++ {
		if c := loc[i]; c < 0x20 || c == 0x7f {
			break
		}
	}
	if i == len(loc) {
		return append(b, loc...)
	}
	for j := 0; j < len(loc); j++ {
		if c := loc[j]; c < 0x20 || c == 0x7f {
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return b
}

const upperHex = "0123456789ABCDEF"

// hasControl8 reports whether one of the eight bytes of x is below 0x20
// or is 0x7f (DEL): x-0x20 borrows into the high bit of a byte below 0x20
// that had it clear ("Bit Twiddling Hacks", hasless, exact as to whether
// there is one).
func hasControl8(x uint64) bool {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	return (x-ones*0x20)&^x&high|zeroByte(x^(ones*0x7f)) != 0
}

// comma is what separates two fields.
var comma = []byte{','}

// csvNeedsQuotes reports whether f is quoted as encoding/csv quotes it.
func csvNeedsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` {
		return true
	}
	// Eight bytes at a time, then a table, not strings.ContainsAny: this
	// runs for every field of a million rows.
	i := 0
	for ; i+8 <= len(f); i += 8 {
		if csvSpecial8(binary.LittleEndian.Uint64([]byte(f[i : i+8]))) { // one load: the conversion is not made
			return true
		}
	}
	for ; i < len(f); i++ {
		if csvSpecial[f[i]] {
			return true
		}
	}
	if f[0] < utf8.RuneSelf {
		return f[0] == ' ' || f[0] >= '\t' && f[0] <= '\r'
	}
	r, _ := utf8.DecodeRuneInString(f)
	return unicode.IsSpace(r)
}

// csvSpecial8 reports whether one of the eight bytes of x is one that
// makes a field quoted (",", `"`, CR, LF): x^c has a zero byte where x has
// c, found by the zero-byte trick of "Bit Twiddling Hacks" (exact as to
// whether there is one).
func csvSpecial8(x uint64) bool {
	const ones = 0x0101010101010101
	return zeroByte(x^(ones*','))|zeroByte(x^(ones*'"'))|zeroByte(x^(ones*'\r'))|zeroByte(x^(ones*'\n')) != 0
}

// zeroByte has the high bit of a byte set where v has a zero byte, and
// maybe (after one) where it has 0x01; zero when v has none.
func zeroByte(v uint64) uint64 {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	return (v - ones) & ^v & high
}

// csvSpecial marks the bytes that make a field quoted.
var csvSpecial = [256]bool{',': true, '"': true, '\r': true, '\n': true}

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
