package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemapkit/config"
)

type initOptions struct {
	base  string
	path  string
	force bool
}

const initLong = `Write a commented starter config file, ` + config.FileName + `: the file
` + "`sitemapkit generate`" + ` reads when it is given no input. Every key is in it,
with its default and a line saying what it does. Its one source reads
urls.txt; an example of each other kind of source (a static site's folder,
a database query, access logs, existing sitemaps) and of a group is there,
commented out. "sitemapkit help config" lists every key.

The folders of --config are made if missing. An existing file is left as
it is unless --force.

EXIT STATUS
  0    the file was written
  2    usage or environment error (the file exists, --base is not a URL,
       the folder cannot be made or written)`

const initExample = `  # Start a config for the site, then edit its sources and build:
  sitemapkit init --base https://www.example.com/
  sitemapkit generate

  # Keep it somewhere else:
  sitemapkit init --base https://www.example.com/ --config site/sitemaps.toml
  sitemapkit generate --config site/sitemaps.toml`

func newInitCommand(a *app) *cobra.Command {
	o := &initOptions{}
	cmd := &cobra.Command{
		Use:     "init [--base URL] [--config FILE] [--force]",
		Short:   "Write a commented starter " + config.FileName,
		Long:    initLong,
		Example: initExample,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 { // most likely the file: say how to name it
				return &usageError{msg: fmt.Sprintf("init: unexpected argument %q; the file to write is --config", args[0]),
					hint: "sitemapkit init --config " + shellQuote(args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInit(a, o)
		},
	}
	f := cmd.Flags()
	f.SortFlags = false
	f.StringVar(&o.base, "base", "", "the site's URL, written as base (default "+config.ExampleBase+", to edit)")
	f.StringVarP(&o.path, "config", "o", config.FileName, "the file to write")
	f.BoolVar(&o.force, "force", false, "replace the file if it exists")
	return cmd
}

func runInit(a *app, o *initOptions) error {
	text := config.Starter(o.base)
	// The starter loads as written; only --base can make it fail.
	if _, err := config.Parse(strings.NewReader(text), o.path); err != nil {
		return &usageError{msg: fmt.Sprintf("init: --base %q is not an http or https URL", o.base),
			hint: "sitemapkit init --base https://www.example.com/"}
	}
	// A folder is not the file to write, even with --force, which would
	// only fail on it; a path ending in "/" names one, existing or not.
	if st, err := os.Stat(o.path); err == nil && st.IsDir() || strings.HasSuffix(o.path, "/") || strings.HasSuffix(o.path, string(filepath.Separator)) {
		return &usageError{msg: fmt.Sprintf("init: %s is a folder: --config names the file to write", o.path),
			hint: "sitemapkit init --config " + shellQuote(filepath.Join(o.path, config.FileName))}
	}
	// As init's example does, the file may go into a folder to make.
	if err := os.MkdirAll(filepath.Dir(o.path), 0o755); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("init: %w", err)}
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !o.force {
		flags |= os.O_EXCL // refused atomically, even if another run creates it now
	}
	f, err := os.OpenFile(o.path, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return &usageError{msg: fmt.Sprintf("init: %s exists; it is left as it is", o.path),
			hint: "sitemapkit init --force (to replace it), or --config OTHER.toml"}
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("init: %w", err)}
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("init: writing %s: %w", o.path, err)}
	}

	next := "sitemapkit generate"
	if filepath.Clean(o.path) != config.FileName {
		next += " --config " + shellQuote(o.path)
	}
	fmt.Fprintf(a.stdout, "Wrote %s.\nNext: set ", o.path)
	if o.base == "" {
		fmt.Fprintf(a.stdout, "base (%s for now), ", config.ExampleBase)
	}
	fmt.Fprintf(a.stdout, "out (public/ for now) and the sources (urls.txt for now) in it, then run:\n  %s\n", next)
	return nil
}

// shellQuote quotes a path for a command line a person copies, when needed.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
