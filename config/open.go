package config

import (
	"context"
	"fmt"
	"strconv"

	"github.com/sitemapkit/sitemapkit/source"
)

// An Input is one stream of URLs of a Source: one file of a files or log
// source, a dir source's folder. Inputs open one at a time, so that a run
// holds one file open at a time however many a source lists.
type Input struct {
	// Name names the input in messages: its file or folder.
	Name string

	open  func(ctx context.Context) (source.Source, func() error, error)
	where *Error // the source's place in the config file, for errors
}

// Open opens the input. The caller reads src and then calls close, which
// is never nil, whatever happened. Errors name the input and, for a source
// read from a file, the config file's line of the source.
func (in *Input) Open(ctx context.Context) (src source.Source, close func() error, err error) {
	src, close, err = in.open(ctx)
	if close == nil {
		close = func() error { return nil }
	}
	if err != nil && in.where != nil && in.where.File != "" {
		e := *in.where
		e.Msg, e.Err = err.Error(), err
		err = &e
	}
	return src, close, err
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
		for _, p := range s.Paths {
			ins = append(ins, Input{Name: p, open: func(ctx context.Context) (source.Source, func() error, error) {
				file, err := source.Open(p, f)
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
		ins = append(ins, Input{Name: s.Path, open: func(ctx context.Context) (source.Source, func() error, error) {
			st, err := source.OpenStatic(ctx, o)
			if err != nil {
				return nil, nil, err
			}
			return st, nil, nil
		}})
	case TypeLog:
		o := source.LogOptions{Base: c.Base, KeepParams: s.KeepParams}
		for _, p := range s.Paths {
			ins = append(ins, Input{Name: p, open: func(ctx context.Context) (source.Source, func() error, error) {
				l, err := source.OpenLog(p, o)
				if err != nil {
					return nil, nil, err
				}
				return l, l.Close, nil
			}})
		}
	default:
		return fail("%s sources cannot be read yet", strconv.Quote(s.Type))
	}
	where := c.sourceError(s, "")
	for i := range ins {
		ins[i].where = where
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
