package config

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/fingerprint"
	"github.com/sitemapkit/sitemapkit/source"
)

// An Input is one stream of URLs of a Source: one file of a files or log
// source, a dir source's folder, a sql source's query, a sitemap source's
// documents. Inputs open one at a time, so that a run holds one file open
// at a time however many a source lists. What an input gives has been
// through the config's [filter], then the source's own include, exclude
// and strip_params.
type Input struct {
	// Name names the input in messages: its file or folder.
	Name string

	open  func(ctx context.Context) (source.Source, func() error, error)
	check func() error
	where *Error // the source's place in the config file, for errors
}

// Check reports, without reading anything, what would make Open fail
// before the first URL: a file or folder that does not exist (or is a
// folder where a file is wanted), an unset dsn_env, the standard input
// without Config.Stdin. A command checks every input before it builds, so
// that a typo in the last one does not cost a run.
func (in *Input) Check() error {
	if in.check == nil {
		return nil
	}
	return in.placed(in.check())
}

// Open opens the input. The caller reads src and then calls close, which
// is never nil, whatever happened. Errors name the input and, for a source
// read from a file, the config file's line of the source.
func (in *Input) Open(ctx context.Context) (src source.Source, close func() error, err error) {
	src, close, err = in.open(ctx)
	if close == nil {
		close = func() error { return nil }
	}
	return src, close, in.placed(err)
}

// placed puts err at the source's line in the config file.
func (in *Input) placed(err error) error {
	if err == nil || in.where == nil || in.where.File == "" {
		return err
	}
	e := *in.where
	e.Msg, e.Err = err.Error(), err
	return &e
}

// stdinCheck checks that "-" has something to read.
func stdinCheck(stdin io.Reader) func() error {
	return func() error {
		if stdin == nil {
			return errors.New(`"-" (the standard input): nothing to read (Config.Stdin is nil)`)
		}
		return nil
	}
}

// exists checks that p is a folder (dir) or not one (!dir).
func exists(p string, dir bool) error {
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file or folder", p)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied", p)
	case err != nil:
		return err
	case dir && !st.IsDir():
		return fmt.Errorf("%s is a file, not a folder", p)
	case !dir && st.IsDir():
		return fmt.Errorf("%s is a folder, not an input file", p)
	}
	return nil
}

// Inputs returns the inputs of s, one of the sources of c (in c.Sources or
// in a group's). c gives what every source shares: the site's base URL.
// It does not open anything; a missing file is found by Input.Open.
func (s *Source) Inputs(c *Config) ([]Input, error) {
	fail := func(format string, args ...any) ([]Input, error) {
		return nil, c.sourceError(s, fmt.Sprintf(format, args...))
	}
	var ins []Input
	switch s.Type {
	case TypeFiles:
		f, err := source.ParseFormat(s.Format)
		if err != nil {
			return fail("format: %v", err)
		}
		enc, err := source.ParseEncoding(s.Encoding)
		if err != nil {
			return fail("encoding: %v", err)
		}
		for _, p := range s.Paths {
			if p == "-" {
				stdin := c.Stdin
				ins = append(ins, Input{Name: "stdin", check: stdinCheck(stdin),
					open: func(ctx context.Context) (source.Source, func() error, error) {
						if err := stdinCheck(stdin)(); err != nil {
							return nil, nil, err
						}
						return source.NewEncoded(stdin, "stdin", f, enc), nil, nil
					}})
				continue
			}
			ins = append(ins, Input{Name: p,
				check: func() error { return exists(p, false) },
				open: func(ctx context.Context) (source.Source, func() error, error) {
					file, err := source.OpenEncoded(p, f, enc)
					if err != nil {
						return nil, nil, err
					}
					return file, file.Close, nil
				}})
		}
	case TypeDir:
		lm, err := source.ParseLastmod(s.Lastmod)
		if err != nil {
			return fail("lastmod: %v", err)
		}
		o := source.StaticOptions{Dir: s.Path, Base: c.Base, StripHTML: s.StripHTML,
			Include: s.IncludeFiles, Exclude: s.ExcludeFiles, Lastmod: lm, Images: s.Images}
		if c.Lastmod == "content" {
			if o.Fingerprint, err = fingerprint.New(fingerprint.Options{Content: c.ContentSelector, Ignore: c.IgnoreSelector}); err != nil {
				return fail("%v", err)
			}
		}
		ins = append(ins, Input{Name: s.Path, check: func() error { return exists(o.Dir, true) }, open: func(ctx context.Context) (source.Source, func() error, error) {
			st, err := source.OpenStatic(ctx, o)
			if err != nil {
				return nil, nil, err
			}
			return st, nil, nil
		}})
	case TypeLog:
		o := source.LogOptions{Base: c.Base, KeepParams: s.KeepParams}
		for _, p := range s.Paths {
			if p == "-" {
				stdin := c.Stdin
				ins = append(ins, Input{Name: "stdin", check: stdinCheck(stdin), open: func(ctx context.Context) (source.Source, func() error, error) {
					if err := stdinCheck(stdin)(); err != nil {
						return nil, nil, err
					}
					l, err := source.NewLog(stdin, "stdin", o)
					return l, nil, err
				}})
				continue
			}
			ins = append(ins, Input{Name: p, check: func() error { return exists(p, false) }, open: func(ctx context.Context) (source.Source, func() error, error) {
				l, err := source.OpenLog(p, o)
				if err != nil {
					return nil, nil, err
				}
				return l, l.Close, nil
			}})
		}
	case TypeSQL:
		o := source.SQLOptions{DSN: s.DSN, Query: s.Query, Loc: s.Loc}
		tz, err := c.Location()
		if err != nil {
			return fail("timezone: %v", err)
		}
		o.Timezone = tz
		var noDriver error
		if i := slices.IndexFunc(c.SQLDrivers, func(d source.SQLDriver) bool { return d.Name() == s.Driver }); i >= 0 {
			o.Driver = c.SQLDrivers[i]
		} else {
			noDriver = fmt.Errorf("driver %q: this program reads no such database (Config.SQLDrivers lacks it)", s.Driver)
		}
		name := s.Driver + " query" // a PostgreSQL DSN may hold a password
		if s.Driver == "sqlite" && s.DSN != "" {
			name = s.DSN
		}
		env := s.DSNEnv
		// The environment is read when the query runs, so that a config
		// loads without it.
		dsn := func() (string, error) {
			if env == "" {
				return o.DSN, nil
			}
			if d := os.Getenv(env); d != "" {
				return d, nil
			}
			return "", fmt.Errorf("the environment variable $%s, which should hold the database's DSN, is not set", env)
		}
		ins = append(ins, Input{Name: name, check: func() error {
			if noDriver != nil {
				return noDriver
			}
			d, err := dsn()
			if err != nil || s.Driver != "sqlite" {
				return err
			}
			if p, ok := strings.CutPrefix(d, "file:"); ok {
				d, _, _ = strings.Cut(p, "?")
				if u, err := url.PathUnescape(d); err == nil {
					d = u // as SQLite reads it: "my%20shop.db" is "my shop.db"
				}
			}
			if d == "" || d == ":memory:" {
				return nil
			}
			return exists(d, false)
		}, open: func(ctx context.Context) (source.Source, func() error, error) {
			if noDriver != nil {
				return nil, nil, noDriver
			}
			o := o
			var err error
			if o.DSN, err = dsn(); err != nil {
				return nil, nil, err
			}
			q, err := source.OpenSQL(ctx, o)
			if err != nil {
				return nil, nil, err
			}
			return q, q.Close, nil
		}})
	case TypeSitemap:
		starts := s.Paths
		ins = append(ins, Input{Name: strings.Join(starts, ", "), check: func() error {
			for _, p := range starts {
				if !isURL(p) {
					if _, err := os.Stat(p); err != nil {
						return err
					}
				}
			}
			return nil
		}, open: func(ctx context.Context) (source.Source, func() error, error) {
			sm := source.OpenSitemaps(ctx, starts, source.SitemapsOptions{RefuseAltered: true})
			return sm, sm.Close, nil
		}})
	case TypeCrawl:
		o := source.CrawlOptions{Starts: s.Paths, Hosts: s.Hosts, Concurrency: s.Concurrency, MaxPages: s.MaxPages,
			MaxDepth: s.MaxDepth, Files: s.IncludeFiles, SkipNofollow: s.SkipNofollow, Dir: s.CrawlDir, Resume: s.Resume}
		if o.Dir == "" {
			o.Dir = DefaultCrawlDir(s.Paths)
		}
		if s.Budget != "" {
			d, err := time.ParseDuration(s.Budget)
			if err != nil {
				return fail("budget: %v", err)
			}
			o.Budget = d
		}
		o.Fetch.UserAgent = c.UserAgent
		if c.Lastmod == "content" {
			var err error
			if o.Fingerprint, err = fingerprint.New(fingerprint.Options{Content: c.ContentSelector, Ignore: c.IgnoreSelector}); err != nil {
				return fail("%v", err)
			}
		}
		if s.Render {
			if c.Renderer == nil {
				return fail("render: no renderer is linked into this program")
			}
			o.Render = c.Renderer
		}
		if s.Rate != nil {
			o.Rate = *s.Rate
			if o.Rate == 0 {
				o.Rate = -1 // the key's 0 is no limit
			}
		}
		logPath := s.CrawlLog
		ins = append(ins, Input{Name: strings.Join(s.Paths, ", "), open: func(ctx context.Context) (source.Source, func() error, error) {
			o := o
			var flush func() error
			if logPath != "" {
				// A resumed crawl's log goes on after the stopped one's.
				mode := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
				if o.Resume {
					mode = os.O_CREATE | os.O_WRONLY | os.O_APPEND
				}
				f, err := os.OpenFile(logPath, mode, 0o644)
				if err != nil {
					return nil, nil, fmt.Errorf("crawl log: %w", err)
				}
				w := bufio.NewWriter(f)
				o.Log = func(e source.CrawlEntry) {
					b, _ := json.Marshal(e)
					w.Write(append(b, '\n'))
				}
				flush = func() error {
					err := w.Flush()
					if cerr := f.Close(); err == nil {
						err = cerr
					}
					return err
				}
			}
			cr, err := source.OpenCrawl(ctx, o)
			if err != nil {
				if flush != nil {
					flush()
				}
				return nil, nil, err
			}
			return cr, func() error {
				cr.Close()
				if flush != nil {
					return flush()
				}
				return nil
			}, nil
		}})
	default:
		return fail("%s sources cannot be read yet", strconv.Quote(s.Type))
	}

	// [filter] applies first, then the source's own, which strips no
	// parameter unless it names some.
	tz, err := c.Location()
	if err != nil {
		return fail("timezone: %v", err)
	}
	top := source.FilterOptions{Include: c.Filter.Include, Exclude: c.Filter.Exclude, StripParams: c.Filter.StripParams, Timezone: tz, Base: c.Base,
		Latin1: strings.EqualFold(c.URLEncoding, "latin1")}
	own := source.FilterOptions{Include: s.Include, Exclude: s.Exclude, StripParams: s.StripParams}
	if own.StripParams == nil {
		own.StripParams = []string{}
	}
	hasOwn := len(own.Include)+len(own.Exclude)+len(own.StripParams) > 0
	where := c.sourceError(s, "")
	for i := range ins {
		ins[i].where = where
		open := ins[i].open
		ins[i].open = func(ctx context.Context) (source.Source, func() error, error) {
			src, close, err := open(ctx)
			if err != nil {
				return nil, close, err
			}
			if src, err = source.NewFilter(src, top); err != nil {
				return nil, close, err
			}
			if hasOwn {
				if src, err = source.NewFilter(src, own); err != nil {
					return nil, close, err
				}
			}
			return src, close, nil
		}
	}
	return ins, nil
}

// sourceError is an *Error about the source s of c, placed at its header
// when c was read from a file.
func (c *Config) sourceError(s *Source, msg string) *Error {
	v := &validator{origin: c.origin}
	v.errorf(c.pathOf(s), "%s", msg)
	return v.errs[0].(*Error)
}

// pathOf finds s among c's sources, for its place.
func (c *Config) pathOf(s *Source) []string {
	for i := range c.Sources {
		if &c.Sources[i] == s {
			return elem(nil, "source", i)
		}
	}
	for i := range c.Groups {
		for j := range c.Groups[i].Sources {
			if &c.Groups[i].Sources[j] == s {
				return elem(elem(nil, "group", i), "source", j)
			}
		}
	}
	return nil
}
