// Package build turns a stream of URLs into a published set of sitemap
// files: split at the protocol's limits, gzipped, indexed, and swapped into
// place atomically.
package build

import (
	"context"
	"iter"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// IndexMode says when a set gets an index file.
type IndexMode int

const (
	// IndexAuto writes one plain sitemap while everything fits in one file,
	// and an index over several otherwise.
	IndexAuto IndexMode = iota
	// IndexAlways always writes an index, even over a single file.
	IndexAlways
	// IndexNever never writes an index: a set that does not fit in one file is an error.
	IndexNever
)

// Options configure a Builder. The zero value of each field is its default.
type Options struct {
	// Dir is the output folder (required). It often holds a whole static
	// site: only files sitemapkit wrote are ever removed from it.
	Dir string
	// Base is the site's URL, e.g. "https://www.example.com/" (required).
	// URLs must share its scheme, host and port.
	Base string
	// PublicURL is the URL at which Dir is served, when it differs from
	// Base (e.g. "https://www.example.com/sitemaps/"). Default: Base. The
	// index's <loc>s are PublicURL + file name, and URLs must be inside the
	// directory of PublicURL.
	PublicURL string
	// Name is the stem of the files' names. Default "sitemap": the set is
	// sitemap.xml, with children sitemap-1….xml.
	Name string
	// Format is sitemap.FormatURLSet (default) or sitemap.FormatText.
	Format sitemap.Format
	// Gzip writes the children gzipped (.xml.gz, .txt.gz).
	Gzip bool
	// Index says when to write an index. Default IndexAuto.
	Index IndexMode
	// MaxURLs and MaxBytes lower the limits per file (index files
	// included). Default (0): sitemap.MaxURLs and sitemap.MaxBytes; larger
	// values are an error.
	MaxURLs  int
	MaxBytes int64
	// NoDedupe turns off dropping duplicate URLs.
	NoDedupe bool
}

// Result says what Publish did.
type Result struct {
	URLs       int            // URLs written
	Refused    map[string]int // URLs refused, by rule ID
	Duplicates int            // duplicate URLs dropped
	Files      []File         // every file of the published set, index files first
	Indexes    []string       // public URLs of the files to submit (index files, or the single sitemap)
	Elapsed    time.Duration
}

// File is one file of a published set.
type File struct {
	Name      string // file name inside Dir
	URL       string // public URL
	Entries   int    // URLs, or sitemaps for an index
	Bytes     int64  // uncompressed size
	GzipBytes int64  // size on disk when gzipped, else 0
	Index     bool
}

// A Builder writes a stream of URLs into a new set beside the published
// one, and Publish swaps it in. A Builder is not safe for concurrent use.
type Builder struct {
	// TODO(build helper)
}

// New returns a Builder for opts, or an error naming the bad option.
func New(opts Options) (*Builder, error) {
	panic("unimplemented")
}

// Add adds one URL. It returns a *sitemap.Violation, and adds nothing, for
// a URL the protocol forbids (the rule ID says which); it returns nil for a
// duplicate, which is dropped and counted. Any other error is fatal: the
// Builder can only be Aborted.
func (b *Builder) Add(ctx context.Context, u *sitemap.URL) error {
	panic("unimplemented")
}

// AddAll adds every URL of seq, calling onError for each error the
// sequence yields and each URL refused; onError returns nil to go on or an
// error to stop (AddAll then returns it).
func (b *Builder) AddAll(ctx context.Context, seq iter.Seq2[sitemap.URL, error], onError func(error) error) error {
	panic("unimplemented")
}

// Publish finishes the new set and swaps it in: children first, under
// names no published file has, then the index, by rename; files of older
// sets are removed only after that. If Publish fails, or the process dies
// at any point, the previously published set is left as it was.
func (b *Builder) Publish(ctx context.Context) (*Result, error) {
	panic("unimplemented")
}

// Abort discards the unpublished set. It is safe to call after Publish.
func (b *Builder) Abort() error {
	panic("unimplemented")
}
