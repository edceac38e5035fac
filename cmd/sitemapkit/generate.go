package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemapkit/build"
	"github.com/sitemapkit/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemapkit/source"
)

// generateOptions are generate's flags: most bind straight into build.Options.
type generateOptions struct {
	build.Options
	inputFormat source.Format
	strict      bool
	quiet       bool
}

const generateExample = `  # Three inputs, gzipped children, into a static site's folder:
  sitemapkit generate --base https://www.example.com/ --out public/ --gzip \
      urls.txt products.csv posts.jsonl

  # From another program, through the standard input:
  cat urls.txt | sitemapkit generate --base https://www.example.com/ --out public/ -

  # Sitemaps served from https://www.example.com/sitemaps/, refusing any bad line:
  sitemapkit generate --base https://www.example.com/ --out public/sitemaps \
      --public-url https://www.example.com/sitemaps/ --strict urls.txt.gz`

const generateLong = `Build a sitemap set from URL lists, CSV and JSONL files and publish it into
--out: sitemap.xml is the file to submit. While everything fits in one file
it is a plain sitemap; past 50,000 URLs or 50 MiB it is an index over
sitemap-1-….xml, sitemap-2-….xml, … (--index). Files are named after their
content and swapped in atomically: a run that fails or is killed leaves the
published set as it was, and only files sitemapkit wrote are ever removed.

INPUTS
  The format comes from the file's extension, or from --input-format:
    .txt     one URL per line; blank lines and # comments skipped
    .csv     a header row: loc (required), lastmod, changefreq, priority,
             image (repeatable), alternate:<hreflang> (e.g. alternate:de-DE)
    .jsonl   one JSON object per line: loc, lastmod, changefreq, priority,
             images, videos, news, alternates (see the README)
  Each may be gzipped (.gz, or any gzip data). "-" reads the standard input,
  whose format is guessed from its first line unless --input-format says.

  A URL the protocol forbids (another host, outside the sitemap's folder, a
  bad lastmod…) is left out and reported with its file:line and rule; with
  --strict, any refused URL makes the run fail and nothing is published.
  No lastmod, changefreq or priority is ever invented.

EXIT STATUS
  0    the set was published; every input line was accepted
  1    some lines were refused (the set was published without them, unless
       --strict: then nothing was), or an input could not be read (nothing
       was published), or no URL was left to publish
  2    usage or environment error (bad flag, missing file, --out not writable)
  130  interrupted: the published set is left as it was`

func newGenerateCommand(a *app) *cobra.Command {
	o := &generateOptions{}
	cmd := &cobra.Command{
		Use:     "generate --base URL --out DIR [flags] INPUT...",
		Short:   "Build a sitemap set from URL lists, CSV and JSONL, and publish it atomically",
		Long:    generateLong,
		Example: generateExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerate(cmd.Context(), a, o, args)
		},
	}
	f := cmd.Flags()
	f.SortFlags = false
	f.StringVar(&o.Base, "base", "", "the site's URL, e.g. https://www.example.com/ (required); every URL must be on it")
	f.StringVar(&o.Dir, "out", "", "the folder to publish into (required); created if missing")
	f.StringVar(&o.PublicURL, "public-url", "", "the URL --out is served at, when not --base (e.g. https://www.example.com/sitemaps/)")
	f.BoolVar(&o.Gzip, "gzip", false, "gzip the child sitemaps (.xml.gz)")
	f.Var(&enumFlag[source.Format]{p: &o.inputFormat, names: map[string]source.Format{
		"txt": source.FormatText, "csv": source.FormatCSV, "jsonl": source.FormatJSONL}}, "input-format", "read every input as txt, csv or jsonl, whatever its name")
	f.Var(&enumFlag[sitemap.Format]{p: &o.Format, names: map[string]sitemap.Format{
		"xml": sitemap.FormatURLSet, "txt": sitemap.FormatText}, def: "xml"}, "format", "write xml or txt sitemaps")
	f.Var(&enumFlag[build.IndexMode]{p: &o.Index, names: map[string]build.IndexMode{
		"auto": build.IndexAuto, "always": build.IndexAlways, "never": build.IndexNever}, def: "auto"},
		"index", "auto: an index only when one file is not enough; always; never (fail instead)")
	f.IntVar(&o.MaxURLs, "max-urls", 0, "at most this many URLs per file (default 50000)")
	f.Int64Var(&o.MaxBytes, "max-bytes", 0, "at most this many bytes per file, uncompressed (default 52428800)")
	f.BoolVar(&o.NoDedupe, "no-dedupe", false, "keep duplicate URLs (saves 11-16 bytes of memory per URL)")
	f.BoolVar(&o.strict, "strict", false, "fail, publishing nothing, if any line is refused")
	f.StringVar(&o.Name, "name", "", `the files' name stem (default "sitemap": sitemap.xml, sitemap-1-….xml, …)`)
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print nothing but errors")
	return cmd
}

// enumFlag is a flag whose value is one of a few names.
type enumFlag[T comparable] struct {
	p     *T
	names map[string]T
	def   string
	set   string
}

func (e *enumFlag[T]) String() string {
	if e.set == "" {
		return e.def
	}
	return e.set
}

func (e *enumFlag[T]) Set(s string) error {
	v, ok := e.names[strings.ToLower(s)]
	if !ok {
		var names []string
		for n := range e.names {
			names = append(names, n)
		}
		return fmt.Errorf("%q is not one of %s", s, strings.Join(sortStrings(names), ", "))
	}
	*e.p, e.set = v, strings.ToLower(s)
	return nil
}

func (e *enumFlag[T]) Type() string {
	var names []string
	for n := range e.names {
		names = append(names, n)
	}
	return strings.Join(sortStrings(names), "|")
}

var _ pflag.Value = (*enumFlag[int])(nil)

const generateHint = "sitemapkit generate --base https://www.example.com/ --out public/ urls.txt"

// input is one INPUT argument, resolved before anything is read.
type input struct {
	path   string
	format source.Format
}

func runGenerate(ctx context.Context, a *app, o *generateOptions, args []string) error {
	switch {
	case o.Base == "":
		return &usageError{msg: "generate: --base is required (the site's URL)", hint: generateHint}
	case o.Dir == "":
		return &usageError{msg: "generate: --out is required (the folder to publish into)", hint: generateHint}
	case len(args) == 0:
		return &usageError{msg: `generate: no input (give files, or "-" for the standard input)`, hint: generateHint}
	}
	inputs, err := resolveInputs(args, o.inputFormat)
	if err != nil {
		return err
	}

	b, err := build.New(o.Options)
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, "Options.") {
			return &usageError{msg: "generate: " + flagNames.Replace(strings.TrimPrefix(msg, "build: ")), hint: "sitemapkit generate --help"}
		}
		return &exitError{code: exitUsage, err: err}
	}
	defer b.Abort()

	rep := newRefusals()
	prog := startProgress(a, o.quiet)
	defer prog.stop()
	for _, in := range inputs {
		if err := addInput(ctx, a, b, in, rep, prog); err != nil {
			return err
		}
	}
	prog.stop()

	if o.strict && rep.total > 0 {
		b.Abort()
		rep.print(a.stderr)
		return &exitError{code: exitInputErrors,
			err: fmt.Errorf("--strict: %s refused; nothing was published", countOf(rep.total, "line"))}
	}
	res, err := b.Publish(ctx)
	if err != nil {
		rep.print(a.stderr)
		switch {
		case errors.Is(err, context.Canceled):
			return err
		case errors.Is(err, build.ErrEmpty):
			return &exitError{code: exitInputErrors, err: errors.New("no URL to publish; the published set is left as it was")}
		case errors.Is(err, build.ErrNeedsIndex):
			return &exitError{code: exitInputErrors, err: fmt.Errorf("%w (--index never); nothing was published", err)}
		}
		return &exitError{code: exitUsage, err: fmt.Errorf("publishing into %s: %w; the published set is left as it was", o.Dir, err)}
	}
	if !o.quiet {
		printSummary(a, o, res, rep)
	} else if rep.total > 0 {
		rep.print(a.stderr)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(a.stderr, "sitemapkit: warning: %s\n", w)
	}
	if rep.total > 0 {
		return &exitError{code: exitInputErrors,
			err: fmt.Errorf("%s refused; the set was published without them", countOf(rep.total, "line"))}
	}
	return nil
}

// flagNames words build's option errors with the flags that set them.
var flagNames = strings.NewReplacer(
	"Options.Dir", "--out", "Options.Base", "--base", "Options.PublicURL", "--public-url",
	"Options.Name", "--name", "Options.MaxURLs", "--max-urls", "Options.MaxBytes", "--max-bytes",
	"Options.Format", "--format", "Options.Index", "--index")

// resolveInputs checks every argument before anything is read: its format
// is known and the file exists.
func resolveInputs(args []string, forced source.Format) ([]input, error) {
	var inputs []input
	stdin := false
	for _, p := range args {
		in := input{path: p, format: forced}
		if p == "-" {
			if stdin {
				return nil, &usageError{msg: `generate: "-" (the standard input) is given twice`, hint: generateHint}
			}
			stdin = true
		} else {
			if forced == source.FormatAuto {
				f, err := source.FormatOf(p)
				if err != nil {
					return nil, &usageError{msg: "generate: " + err.Error(),
						hint: "sitemapkit generate --input-format txt|csv|jsonl … " + p}
				}
				in.format = f
			}
			if st, err := os.Stat(p); err != nil {
				return nil, &exitError{code: exitUsage, err: err}
			} else if st.IsDir() {
				return nil, &exitError{code: exitUsage, err: fmt.Errorf("%s is a folder, not an input file", p)}
			}
		}
		inputs = append(inputs, in)
	}
	return inputs, nil
}

// addInput adds every URL of one input, recording what is refused. An
// input that cannot be read to its end stops the run: publishing the rest
// would drop its URLs from the live set.
func addInput(ctx context.Context, a *app, b *build.Builder, in input, rep *refusals, prog *progress) error {
	var src source.Source
	if in.path == "-" {
		src = source.New(a.stdin, "stdin", in.format)
	} else {
		f, err := source.Open(in.path, in.format)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		defer f.Close()
		src = f
	}
	// Parse the input on one core while the set is built on the other.
	ahead := source.ReadAhead(src)
	defer ahead.Close()
	src = ahead
	err := b.AddAll(ctx, prog.count(src.All()), func(err error) error {
		if src.Err() != nil {
			return err
		}
		var v *sitemap.Violation
		var pe *source.ParseError
		switch {
		case errors.As(err, &v):
			rep.add(v.Rule, source.Place(src)+": "+v.Error())
		case errors.As(err, &pe):
			rep.add("input-error", pe.Error())
		default:
			return err
		}
		return nil
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return err
	case src.Err() != nil:
		return &exitError{code: exitInputErrors, err: fmt.Errorf("%w; nothing was published", err)}
	case errors.Is(err, build.ErrNeedsIndex):
		return &exitError{code: exitInputErrors, err: fmt.Errorf("%w (--index never); nothing was published", err)}
	}
	return &exitError{code: exitUsage, err: fmt.Errorf("%w; nothing was published", err)}
}
