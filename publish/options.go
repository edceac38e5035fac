// Options, the one definition of a set's options: each field with its
// default (WithDefaults) and its range (Check). The config file and the
// command's flags fill an Options; they do not check its values again.

package publish

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Options configure a Builder. The zero value of each field is its default
// (WithDefaults fills them in); Check says which values New refuses.
type Options struct {
	// Dir is the output folder (required); it is created if missing. It
	// often holds a whole static site: only files sitemapkit wrote are ever
	// removed from it.
	Dir string
	// Base is the site's URL, e.g. "https://www.example.com/" (required).
	// URLs must share its scheme, host and port. A missing final "/" is
	// added: Base is a directory.
	Base string
	// PublicURL is the URL of the folder Dir is served as, when it differs
	// from Base (e.g. "https://www.example.com/sitemaps/"). Default: Base.
	// The index's <loc>s are PublicURL + file name. When PublicURL is on
	// Base's host, URLs must be inside its directory (the protocol's scope
	// rule); on another host (cross-submission through robots.txt), they
	// must be inside Base's. A missing final "/" is added.
	PublicURL string
	// Name is the stem of the files' names: letters, digits, "_" and "-".
	// Default "sitemap": the set is sitemap.xml, with children
	// sitemap-1-XXXXXXXX.xml and so on.
	Name string
	// Manifest is the file the set's manifest is kept in (the record of
	// the files it published, which lets a later run remove only its own
	// files and leave unchanged ones as they are). Default:
	// Dir/.sitemapkit-manifest-NAME.json. Set it outside Dir when Dir is
	// deployed as it is, so that the manifest is not published with the
	// site. The first run with a new Manifest takes over the one in Dir,
	// and removes it. Sets that share Dir see each other's names through
	// the manifests in Dir only: give those that keep theirs elsewhere
	// names no other set uses.
	Manifest string
	// Format is sitemap.FormatURLSet (default) or sitemap.FormatText.
	Format sitemap.Format
	// Gzip writes the children gzipped (.xml.gz, .txt.gz). See the package
	// doc for the single file of IndexAuto, which is never gzipped.
	Gzip bool
	// Index says when to write an index. Default IndexAuto.
	Index IndexMode
	// MaxURLs and MaxBytes lower the limits per file (index files
	// included). Default (0): sitemap.MaxURLs and sitemap.MaxBytes; larger
	// values are an error.
	MaxURLs  int
	MaxBytes int64
	// NoDedupe turns off dropping duplicate URLs, and the memory it takes:
	// at most 16 bytes per URL (TestSeenSetMemory holds it to that; the
	// command's help and the docs say the same, TestDedupeFigure checks).
	NoDedupe bool
	// Stable keeps each URL in the file it was first written to: see
	// Builder.Place, which says where that is, and the package doc's
	// section on stable sets. A file whose URLs did not change is then
	// left as it is, whatever changed elsewhere in the set.
	Stable bool
	// ChangedAt, with Stable, is the time of this run's changes: a file
	// whose content changed since the last run (a URL added, changed,
	// moved in or removed) gets it as its index <lastmod> when it is later
	// than its URLs' latest, since the file itself changed then. Zero: the
	// index's <lastmod> is the latest of the file's URLs, and no time of
	// the run is written.
	ChangedAt time.Time
}

// defaultName is Options.Name's default.
const defaultName = "sitemap"

// WithDefaults returns o with each zero field set to its default, and Base
// and PublicURL ending in "/": the options New uses. Callers that show the
// defaults (a flag's help) take them from here.
func (o Options) WithDefaults() Options {
	if o.Name == "" {
		o.Name = defaultName
	}
	if o.Format == sitemap.FormatUnknown {
		o.Format = sitemap.FormatURLSet
	}
	if o.MaxURLs == 0 {
		o.MaxURLs = sitemap.MaxURLs
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = sitemap.MaxBytes
	}
	o.Base = dirURL(o.Base)
	o.PublicURL = dirURL(o.PublicURL)
	return o
}

// ErrRequired is the Err of an *OptionError for a required field left
// empty.
var ErrRequired = errors.New("is required")

// OptionError is a bad value of one field of Options. A config file or a
// command reports it under its own name for the field (a key, a flag):
// Field says which, and Named words the error so.
type OptionError struct {
	Field string // the Options field, e.g. "MaxURLs"
	Value any    // the value refused
	Err   error  // what is wrong with it

	// wrapped: Err is another package's error, which does not start with
	// the value (loc's, for a URL), so the name is followed by ": ".
	wrapped bool
}

func (e *OptionError) Error() string { return "publish: " + e.Named("Options."+e.Field) }

// Named words the error with name for the field: "max_urls 60000 is out
// of range: …" for the key max_urls, "--max-urls 60000 is out of range: …"
// for the flag.
func (e *OptionError) Named(name string) string {
	if e.wrapped {
		return name + ": " + e.Err.Error()
	}
	return name + " " + e.Err.Error()
}

func (e *OptionError) Unwrap() error { return e.Err }

// Check reports every field of o out of its range, each as an
// *OptionError, joined with errors.Join; nil when New would accept o.
func (o Options) Check() error {
	var errs []error
	bad := func(field string, value any, format string, args ...any) {
		errs = append(errs, &OptionError{Field: field, Value: value, Err: fmt.Errorf(format, args...)})
	}
	if o.Base == "" {
		errs = append(errs, &OptionError{Field: "Base", Value: o.Base, Err: ErrRequired})
	} else if err := checkURL("Base", o.Base); err != nil {
		errs = append(errs, err)
	}
	if o.Dir == "" {
		errs = append(errs, &OptionError{Field: "Dir", Value: o.Dir, Err: ErrRequired})
	}
	if o.Manifest != "" {
		switch fi, err := os.Stat(o.Manifest); {
		case o.Dir != "" && InDir(o.Manifest, o.Dir):
			// Where it would be deployed, or take a file of the set's.
			bad("Manifest", o.Manifest, "%q is inside the output folder: keep it outside (e.g. .sitemapkit/manifest.json), or leave it unset to keep it there as %s", o.Manifest, manifestName(o.WithDefaults().Name))
		case err == nil && fi.IsDir() || strings.HasSuffix(o.Manifest, "/") || strings.HasSuffix(o.Manifest, string(filepath.Separator)):
			bad("Manifest", o.Manifest, "%q is a folder: give the manifest file's path, e.g. .sitemapkit/manifest.json", o.Manifest)
		default:
			// Its folder is made when it is first written, after the
			// swap: a path that cannot be is refused before.
			for d := filepath.Dir(o.Manifest); ; d = filepath.Dir(d) {
				if fi, err := os.Stat(d); err == nil {
					if !fi.IsDir() {
						bad("Manifest", o.Manifest, "%q cannot be written: %s is a file, not a folder", o.Manifest, d)
					}
					break
				}
				if filepath.Dir(d) == d {
					break
				}
			}
		}
	}
	if o.PublicURL != "" {
		if err := checkURL("PublicURL", o.PublicURL); err != nil {
			errs = append(errs, err)
		}
	}
	if o.Name != "" && !ValidName(o.Name) {
		bad("Name", o.Name, "%q: use letters, digits, _ and - only", o.Name)
	}
	switch o.Format {
	case sitemap.FormatUnknown, sitemap.FormatURLSet, sitemap.FormatText:
	default:
		bad("Format", o.Format, "%v: want urlset or text", o.Format)
	}
	if o.Index < IndexAuto || o.Index > IndexNever {
		bad("Index", o.Index, "%d is not an IndexMode", o.Index)
	}
	if o.MaxURLs < 0 || o.MaxURLs > sitemap.MaxURLs {
		bad("MaxURLs", o.MaxURLs, "%d is out of range: 1 to %d (0 or absent: %[2]d)", o.MaxURLs, sitemap.MaxURLs)
	}
	if o.MaxBytes < 0 || o.MaxBytes > sitemap.MaxBytes {
		bad("MaxBytes", o.MaxBytes, "%d is out of range: 1 to %d (0 or absent: %[2]d)", o.MaxBytes, sitemap.MaxBytes)
	}
	return errors.Join(errs...)
}

// InDir reports whether path is dir or inside it, by their absolute
// paths: where a file is published with the set. Check refuses a Manifest
// there; a caller keeping files of its own beside a set (a state) must not
// put them there either.
func InDir(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkURL checks the URL of a field: an http or https URL that loc
// accepts as a scope, and a folder's: no query or fragment, which the "/"
// a folder's URL ends in would be added to, leaving the folder the one
// above (https://www.example.com/sitemaps?v=1 named https://www.example.com/,
// and an index listed its files there).
func checkURL(field, s string) *OptionError {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &OptionError{Field: field, Value: s,
			Err: fmt.Errorf("%q is not an http or https URL, e.g. \"https://www.example.com/\"", s)}
	}
	if u.RawQuery != "" || u.ForceQuery || strings.Contains(s, "#") {
		dir := dirURL(u.EscapedPath())
		if dir == "" {
			dir = "/"
		}
		return &OptionError{Field: field, Value: s,
			Err: fmt.Errorf("%q has a query or a fragment: give the folder's URL alone, e.g. \"%s://%s%s\"", s, u.Scheme, u.Host, dir)}
	}
	if _, err := loc.NewScope(dirURL(s)); err != nil {
		return &OptionError{Field: field, Value: s, Err: err, wrapped: true}
	}
	return nil
}

// scopes returns the scopes of o's Base and PublicURL (Base's when it has
// none), o checked and with its defaults.
func (o Options) scopes() (base, public *loc.Scope, err error) {
	if base, err = loc.NewScope(o.Base); err != nil {
		return nil, nil, &OptionError{Field: "Base", Value: o.Base, Err: err, wrapped: true}
	}
	public = base
	if o.PublicURL != "" {
		if public, err = loc.NewScope(o.PublicURL); err != nil {
			return nil, nil, &OptionError{Field: "PublicURL", Value: o.PublicURL, Err: err, wrapped: true}
		}
	}
	return base, public, nil
}

// ValidName reports whether s may name a set (Options.Name) or a group
// (Builder.Group): letters, digits, "_" and "-" only, since it becomes part
// of file names and URLs.
func ValidName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return s != ""
}

// dirURL returns u ending in "/".
func dirURL(u string) string {
	if u != "" && u[len(u)-1] != '/' {
		return u + "/"
	}
	return u
}
