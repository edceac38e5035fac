package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sitemapkit/sitemapkit/fingerprint"
	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Lastmod says where a static folder's lastmod values come from.
type Lastmod int

// The lastmod modes of [StaticOptions].
const (
	// LastmodAuto is LastmodGit when the folder is in a git work tree
	// (and git is installed), else LastmodNone. It never falls back to
	// mtimes, which are usually the time of the last build.
	LastmodAuto Lastmod = iota
	// LastmodGit dates each file by its last commit (committer date, in
	// the commit's own zone). A file git does not track, or whose last
	// commit lies beyond a shallow clone's horizon, gets no lastmod.
	// Uncommitted changes are not seen. A build folder that git ignores
	// (public/ usually is) has no tracked file, hence no dates: this mode
	// suits sites whose output is committed (a docs/ or gh-pages tree).
	// A repository without commits yet dates nothing. Opening fails when
	// the folder is not in a git work tree. OpenStatic
	// runs git three times whatever the number of files (rev-parse,
	// ls-files, and one log pass it stops once every file is dated) and
	// keeps one map entry per tracked file it will list (about 100 bytes).
	LastmodGit
	// LastmodMtime dates each file by its modification time. Most build
	// tools rewrite every file on each build, so this is often the build's
	// time rather than the content's: use it only where files are copied
	// with their times kept (rsync -t, cp -p) or written only when changed.
	// The time is written in UTC, so that it does not depend on the
	// machine's zone.
	LastmodMtime
	// LastmodNone writes no lastmod: better than a wrong one, which makes
	// Google distrust every lastmod of the site.
	LastmodNone
)

var lastmodNames = [...]string{"auto", "git", "mtime", "none"}

// String returns the mode's name, as ParseLastmod reads it.
func (l Lastmod) String() string {
	if l >= 0 && int(l) < len(lastmodNames) {
		return lastmodNames[l]
	}
	return fmt.Sprintf("Lastmod(%d)", int(l))
}

// ParseLastmod returns the Lastmod named s: "auto" (or ""), "git", "mtime"
// or "none", in any case.
func ParseLastmod(s string) (Lastmod, error) {
	if s == "" {
		return LastmodAuto, nil
	}
	for i, n := range lastmodNames {
		if strings.EqualFold(s, n) {
			return Lastmod(i), nil
		}
	}
	return LastmodAuto, fmt.Errorf("unknown lastmod mode %q (want auto, git, mtime or none)", s)
}

// StaticOptions configure OpenStatic. The zero value of every field but
// Dir and Base is a usable default.
type StaticOptions struct {
	// Dir is the build folder: Hugo's public/, Jekyll's _site/, Next's
	// out/, … Required.
	Dir string

	// Base is the absolute http(s) URL at which Dir is served, e.g.
	// "https://www.example.com/" or "https://www.example.com/docs/". A
	// missing final "/" is added: Dir is a folder. IRIs are accepted and
	// converted (loc.Normalize). Required.
	Base string

	// StripHTML drops ".html" and ".htm" from page URLs: "about.html" is
	// listed as /about rather than /about.html. It is off by default
	// because only some servers answer /about with about.html (Netlify,
	// Cloudflare Pages, Vercel, GitHub Pages, nginx with try_files $uri.html);
	// a plain static server answers 404, and a sitemap of 404s is worse
	// than one of URLs with ".html". Turn it on when the site links to its
	// pages without the extension. index.html is always its folder's URL
	// ("/about/"), whatever this says.
	StripHTML bool

	// Include lists globs of other files to list besides the HTML pages,
	// e.g. "**/*.pdf". Globs are relative to Dir with "/" as separator,
	// use path.Match syntax within a segment, and "**" as a whole segment
	// matches any number of folders ("**/*.pdf" also matches "a.pdf" at
	// the top). A glob without "**" is anchored at Dir: "*.pdf" matches
	// top-level PDFs only. Including a page that is left out by default
	// (an error page such as 404.html) lists it.
	Include []string

	// Exclude lists globs (same syntax) of files to leave out, pages or
	// others: "drafts/**", "404.html", "**/print.html". A glob that matches
	// a folder leaves out everything under it ("drafts" and "drafts/**"
	// alike). Exclude wins over Include.
	Exclude []string

	// Lastmod says where lastmod values come from; LastmodAuto by default.
	Lastmod Lastmod

	// Fingerprint, when set, fingerprints each page's significant content
	// (see package fingerprint), which Fingerprint then returns for the
	// page last read. It costs reading whole pages rather than their heads.
	Fingerprint *fingerprint.Hasher

	// Images lists each page's <img src> as image entries (resolved
	// against the page's URL and <base href>; data: and other non-HTTP
	// sources skipped; duplicates dropped; at most sitemap.MaxImages per
	// page, the protocol's limit). It costs reading whole pages rather
	// than their heads.
	Images bool
}

// Static is a Source listing the pages (and chosen other files) of a static
// site's build folder. Open one with OpenStatic.
//
// The folder is walked depth-first in byte order of names, one directory
// listing per level held at a time, so memory does not grow with the
// number of pages. Files and folders whose names start with "." (.git,
// .well-known, .DS_Store) are skipped, as are entries that are neither
// regular files nor folders. Symbolic links are followed, except to a
// folder the walk is already inside.
//
// # URLs
//
// A file's URL is Base followed by its path, percent-encoding only the
// bytes a path segment cannot hold (spaces, non-ASCII, "%", "?", "#"…;
// a name that is not UTF-8 as the bytes it has): "Über uns.html" is listed
// as /%C3%9Cber%20uns.html, "a(1),b.html" as /a(1),b.html, the URL the
// site links to. "index.html" (and "index.htm") is its folder's URL:
// "about/index.html" is /about/, the top one is Base itself. See
// [StaticOptions.StripHTML] for "about.html".
//
// # Pages
//
// Files ending in .html or .htm (any case) are pages. Error pages are left
// out: a page named like a status code 4xx or 5xx ("404.html", "500.htm",
// "50x.html", "5xx.html") or the index of such a folder ("404/index.html"), at any
// depth (Hugo writes one per language). Each page's head is read (up to
// </head> or the first element that cannot be in a head; the whole page
// with Images):
//
//   - <meta name="robots"> or <meta name="googlebot"> whose content has
//     "noindex" or "none" (any case, in a list separated by commas or
//     spaces): the page is left out. An X-Robots-Tag header set by the
//     server cannot be seen here.
//   - <link rel="canonical" href> naming another URL (resolved against
//     the page's URL and <base href>, normalised, its fragment dropped as
//     Google drops it, then compared): the page is left out and its
//     canonical stands for it. When the canonical is this very file spelt
//     otherwise ("/about" or "/about/" for about.html when there is no
//     about/index.html, "/about" for about/index.html) the page is listed
//     under the canonical with all its fields; when it is another file of the folder, nothing is
//     listed here, since that file lists itself (or is left out for its
//     own reasons); otherwise the canonical is listed as a bare URL,
//     even on another host: the builder refuses URLs out of the sitemap's
//     scope with a message that names the rule. Several canonicals that
//     disagree are all ignored, as Google ignores them.
//   - <link rel="alternate" hreflang="…" href> become the URL's
//     alternates, resolved to absolute URLs, duplicates dropped, and so
//     are those whose hreflang the protocol refuses ("en_US", "english"):
//     the builder would refuse the whole page for one of them. The first
//     1,000 are kept, as many as a sitemap's reader takes from a <url>.
//   - With Images, <img src> in the body become image entries.
//
// Robots, canonical and alternate tags outside the head are ignored, as
// Google ignores them. A reference that cannot be a sitemap URL (not
// http(s), or refused by loc.Normalize) is skipped. Pages are read as
// bytes: URLs in a page in a legacy charset are escaped as the bytes they
// are.
//
// # Other files
//
// Files other than pages are listed only when they match
// [StaticOptions.Include], with a loc and lastmod only.
//
// # Errors
//
// A page that cannot be read or tokenised, a folder that cannot be listed,
// or a broken symbolic link is a *ParseError whose File is its path; the
// walk goes on. Place names that path for every record. A cancelled
// context ends the stream with ctx.Err().
type Static struct {
	ctx     context.Context
	dir     string
	o       StaticOptions
	base    string // normalised, ending in "/"
	baseURL *url.URL
	include []glob
	exclude []glob
	lastmod Lastmod // resolved: never LastmodAuto
	fp      uint64  // the fingerprint of the page last read
	hasFP   bool
	page    []byte // readPage's buffer
	skipped map[string]int
	git     *gitIndex
	stack   []frame
	place   string
	err     error
}

// frame is one folder being listed.
type frame struct {
	rel  string // slash-separated, "" for Dir
	ents []fs.DirEntry
	i    int
	info fs.FileInfo // for symlink loop detection; nil until needed
}

// OpenStatic checks o and opens its folder. It fails when Dir is not a
// readable folder, Base is not an absolute http(s) URL, a glob is
// malformed, or Lastmod is LastmodGit and Dir is not in a git work tree.
// With LastmodGit (or LastmodAuto in a work tree) it runs git before
// returning; ctx bounds that and the walk.
func OpenStatic(ctx context.Context, o StaticOptions) (*Static, error) {
	if o.Dir == "" {
		return nil, errors.New("static folder: no folder given")
	}
	info, err := os.Stat(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("static folder: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("static folder %s: not a folder", o.Dir)
	}
	s := &Static{ctx: ctx, dir: o.Dir, o: o}
	if err := s.setBase(o.Base); err != nil {
		return nil, fmt.Errorf("static folder %s: %w", o.Dir, err)
	}
	if s.include, err = compileGlobs("include", o.Include); err != nil {
		return nil, fmt.Errorf("static folder %s: %w", o.Dir, err)
	}
	if s.exclude, err = compileGlobs("exclude", o.Exclude); err != nil {
		return nil, fmt.Errorf("static folder %s: %w", o.Dir, err)
	}
	switch o.Lastmod {
	case LastmodAuto, LastmodGit:
		s.lastmod = LastmodGit
		s.git, err = gitDates(ctx, o.Dir, s.wantsPath)
		if errors.Is(err, errNotGit) && o.Lastmod == LastmodAuto {
			s.lastmod, err = LastmodNone, nil
		}
		if err != nil {
			return nil, fmt.Errorf("static folder %s: lastmod git: %w", o.Dir, err)
		}
	case LastmodMtime, LastmodNone:
		s.lastmod = o.Lastmod
	default:
		return nil, fmt.Errorf("static folder %s: unknown lastmod mode %v", o.Dir, o.Lastmod)
	}
	ents, err := os.ReadDir(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("static folder: %w", err)
	}
	s.stack = []frame{{ents: ents, info: info}}
	return s, nil
}

// setBase checks and normalises the base URL.
func (s *Static) setBase(raw string) error {
	if raw == "" {
		return errors.New("no base URL given (the URL the folder is served at)")
	}
	n, err := loc.Normalize(raw)
	if err != nil {
		return fmt.Errorf("base URL %q: %w", raw, err)
	}
	u, err := url.Parse(n)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("base URL %q: want an absolute http or https URL", raw)
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return fmt.Errorf("base URL %q: a folder's URL has no query or fragment", raw)
	}
	if !strings.HasSuffix(n, "/") {
		n += "/"
	}
	s.base = n
	s.baseURL, err = url.Parse(n)
	return err
}

// Read returns the next URL, with the contract of Source.Read.
func (s *Static) Read() (sitemap.URL, error) {
	if s.err != nil {
		return sitemap.URL{}, s.err
	}
	for {
		if err := s.ctx.Err(); err != nil {
			s.err = err
			return sitemap.URL{}, err
		}
		if len(s.stack) == 0 {
			s.err = io.EOF
			return sitemap.URL{}, io.EOF
		}
		f := &s.stack[len(s.stack)-1]
		if f.i == len(f.ents) {
			s.stack[len(s.stack)-1] = frame{} // let the listing go
			s.stack = s.stack[:len(s.stack)-1]
			continue
		}
		e := f.ents[f.i]
		f.i++
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		rel := name
		if f.rel != "" {
			rel = f.rel + "/" + name
		}
		full := filepath.Join(s.dir, filepath.FromSlash(rel))
		typ := e.Type()
		var info fs.FileInfo
		if typ&fs.ModeSymlink != 0 {
			var err error
			if info, err = os.Stat(full); err != nil {
				s.place = full
				return sitemap.URL{}, &ParseError{File: full, Err: err}
			}
			typ = info.Mode().Type()
		}
		if typ.IsDir() {
			if matchAny(s.exclude, rel) {
				s.skip(SkipExcluded)
				continue
			}
			if err := s.push(rel, full, info); err != nil {
				s.place = full
				return sitemap.URL{}, &ParseError{File: full, Err: err}
			}
			continue
		}
		if !typ.IsRegular() {
			continue
		}
		page, ok := s.wantsFile(rel)
		if !ok {
			switch {
			case matchAny(s.exclude, rel):
				s.skip(SkipExcluded)
			case page:
				s.skip(SkipErrorPage)
			}
			continue
		}
		s.place, s.hasFP = full, false
		u, list, err := s.entry(rel, full, page, e, info)
		if err != nil {
			return sitemap.URL{}, &ParseError{File: full, Loc: s.urlOf(rel, page), Err: err}
		}
		if list {
			return u, nil
		}
	}
}

// Why a static folder leaves a file or folder out (Static.Skipped).
const (
	SkipExcluded  = "excluded"            // matched StaticOptions.Exclude (a folder counts once)
	SkipErrorPage = "error page"          // 404.html and the like
	SkipNoindex   = "noindex"             // <meta name="robots" content="noindex">
	SkipCanonical = "canonical elsewhere" // its canonical is another file of the folder, listed for it
)

func (s *Static) skip(why string) {
	if s.skipped == nil {
		s.skipped = map[string]int{}
	}
	s.skipped[why]++
}

// Skipped counts the pages and folders the walk left out so far, by
// reason (SkipExcluded…): files that are neither pages nor included are
// not counted, as they were never candidates.
func (s *Static) Skipped() map[string]int { return s.skipped }

// readPage reads the file at path whole, up to one byte past
// fingerprint.MaxPage (which the fingerprint then refuses), into s.page.
func (s *Static) readPage(path string) ([]byte, error) {
	if cap(s.page) == 0 {
		s.page = make([]byte, 0, 64<<10)
	}
	b, err := readWhole(path, s.page[:0], fingerprint.MaxPage+1)
	if err != nil {
		return nil, err
	}
	if cap(b) <= 1<<20 {
		s.page = b[:0] // larger ones are let go: a rare page must not pin its size
	}
	return b, nil
}

// Fingerprint returns the fingerprint of the page Read last returned,
// with StaticOptions.Fingerprint; false for another file, or without it.
func (s *Static) Fingerprint() (uint64, bool) { return s.fp, s.hasFP }

// push enters a folder, unless it is a symbolic link to one the walk is
// already inside. info is the link's target's, nil for a plain folder.
func (s *Static) push(rel, full string, info fs.FileInfo) error {
	if info != nil {
		// Only links can loop: the folders on the way are looked up
		// now, rather than one system call per folder of the walk.
		for i := range s.stack {
			f := &s.stack[i]
			if f.info == nil {
				fi, err := os.Stat(filepath.Join(s.dir, filepath.FromSlash(f.rel)))
				if err != nil {
					return err
				}
				f.info = fi
			}
			if os.SameFile(f.info, info) {
				return nil // a loop: its pages are listed where the walk met them first
			}
		}
	}
	ents, err := os.ReadDir(full)
	if err != nil {
		return err
	}
	s.stack = append(s.stack, frame{rel: rel, ents: ents, info: info})
	return nil
}

// wantsFile says whether the file at rel (in a folder the walk entered) is
// listed, and whether it is a page.
func (s *Static) wantsFile(rel string) (page, ok bool) {
	if matchAny(s.exclude, rel) {
		return false, false
	}
	page = isPage(rel)
	if matchAny(s.include, rel) {
		return page, true
	}
	return page, page && !isErrorPage(rel)
}

// wantsPath is wantsFile for any path under Dir: it also checks that no
// folder on the way is hidden or excluded. gitDates uses it to keep only
// the files the walk will list.
func (s *Static) wantsPath(rel string) bool {
	for i := 0; i < len(rel); i++ {
		if (i == 0 || rel[i-1] == '/') && rel[i] == '.' {
			return false
		}
		if rel[i] == '/' && matchAny(s.exclude, rel[:i]) {
			return false
		}
	}
	_, ok := s.wantsFile(rel)
	return ok
}

// entry makes the URL for a wanted file; list is false when the file turns
// out not to be listed (noindex, or canonical to another file).
func (s *Static) entry(rel, full string, page bool, e fs.DirEntry, info fs.FileInfo) (u sitemap.URL, list bool, err error) {
	u.Loc = s.urlOf(rel, page)
	switch s.lastmod {
	case LastmodGit:
		u.LastMod = s.git.date(rel)
	case LastmodMtime:
		if info == nil {
			if info, err = e.Info(); err != nil {
				return u, false, err
			}
		}
		u.LastMod = sitemap.FormatDate(info.ModTime().UTC())
	}
	if !page {
		return u, true, nil
	}
	pageURL, err := url.Parse(u.Loc)
	if err != nil {
		return u, false, err
	}
	var r io.Reader
	if s.o.Fingerprint != nil {
		// Read once, for both passes, into a buffer kept from page to
		// page: most pages then take one read.
		data, err := s.readPage(full)
		if err != nil {
			return u, false, err
		}
		if s.fp, err = s.o.Fingerprint.HTML(bytes.NewReader(data)); err != nil {
			return u, false, err
		}
		s.hasFP = true
		r = bytes.NewReader(data)
	} else {
		f, err := os.Open(full)
		if err != nil {
			return u, false, err
		}
		defer f.Close()
		r = f
	}
	h, err := parseHead(r, pageURL, headWant{images: s.o.Images})
	if err != nil {
		return u, false, err
	}
	if h.noindex {
		s.skip(SkipNoindex)
		return u, false, nil
	}
	u.Alternates, u.Images = h.alternates, h.images
	if h.canonical != "" && h.canonical != u.Loc {
		switch target, ok := s.fileOf(h.canonical); {
		case ok && target == rel:
			u.Loc = h.canonical
		case ok:
			s.skip(SkipCanonical)
			return u, false, nil
		default:
			u = sitemap.URL{Loc: h.canonical}
		}
	}
	return u, true, nil
}

// urlOf is the URL of the file at rel.
func (s *Static) urlOf(rel string, page bool) string {
	if page {
		dir, name := path.Split(rel)
		switch {
		case name == "index.html" || name == "index.htm":
			rel = dir
		case s.o.StripHTML:
			rel = strings.TrimSuffix(rel, path.Ext(rel))
		}
	}
	var b strings.Builder
	b.Grow(len(s.base) + len(rel) + len(rel)/4)
	b.WriteString(s.base)
	for i := 0; i < len(rel); i++ {
		if c := rel[i]; c == '/' || pathSegmentByte(c) {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		}
	}
	return b.String()
}

const upperHex = "0123456789ABCDEF"

// pathSegmentByte reports whether c stands for itself in a path segment
// (RFC 3986 pchar but "%": unreserved, sub-delims, ":" and "@"). Only the
// other bytes are escaped, as browsers and loc.Normalize do: "a(1).html"
// is the URL the site links to, and a sitemap naming "a%281%29.html"
// names another spelling of it. (url.PathEscape escapes sub-delims too.)
func pathSegmentByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0
}

// fileOf returns the file of the folder that the URL u (normalised) is,
// under either convention for ".html" and index pages, if there is one.
func (s *Static) fileOf(u string) (string, bool) {
	p, err := url.Parse(u)
	if err != nil || p.Scheme != s.baseURL.Scheme || p.Host != s.baseURL.Host ||
		p.RawQuery != "" || p.ForceQuery || p.Fragment != "" {
		return "", false
	}
	esc, ok := strings.CutPrefix(p.EscapedPath(), s.baseURL.EscapedPath())
	if !ok {
		return "", false
	}
	rel, err := url.PathUnescape(esc)
	if err != nil {
		return "", false
	}
	var cands []string
	switch {
	case rel == "":
		cands = []string{"index.html", "index.htm"}
	case strings.HasSuffix(rel, "/"):
		// "/about/" for about.html too, as hosts with "pretty URLs"
		// serve it, when there is no about/index.html.
		dir := strings.TrimSuffix(rel, "/")
		cands = []string{rel + "index.html", rel + "index.htm", dir + ".html", dir + ".htm"}
	default:
		cands = []string{rel, rel + ".html", rel + ".htm", rel + "/index.html", rel + "/index.htm"}
	}
	for _, c := range cands {
		if !filepath.IsLocal(filepath.FromSlash(c)) {
			continue
		}
		if info, err := os.Stat(filepath.Join(s.dir, filepath.FromSlash(c))); err == nil && info.Mode().IsRegular() {
			return c, true
		}
	}
	return "", false
}

// isPage reports whether rel names an HTML page.
func isPage(rel string) bool {
	ext := path.Ext(rel)
	return strings.EqualFold(ext, ".html") || strings.EqualFold(ext, ".htm")
}

// isErrorPage reports whether the page at rel is an error page: named like
// a 4xx or 5xx status ("404.html", "50x.html", "5xx.html"), or such a
// folder's index.
func isErrorPage(rel string) bool {
	dir, name := path.Split(rel)
	stem := strings.TrimSuffix(name, path.Ext(name))
	if stem == "index" {
		stem = path.Base(dir)
	}
	if len(stem) != 3 || (stem[0] != '4' && stem[0] != '5') {
		return false
	}
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	x := func(c byte) bool { return c == 'x' || c == 'X' }
	// 404, 50x, 5xx; not 4x4.
	return digit(stem[1]) && (digit(stem[2]) || x(stem[2])) || x(stem[1]) && x(stem[2])
}

// All returns every URL; see Source.All.
func (s *Static) All() iter.Seq2[sitemap.URL, error] { return all(s) }

// Name returns the folder, as given in StaticOptions.Dir.
func (s *Static) Name() string { return s.dir }

// Line returns 0: records are files, not lines; see Place.
func (s *Static) Line() int { return 0 }

// Place returns the path (Dir joined with the file's path in it) of the
// file the URL or error Read last returned came from, e.g.
// "public/about/index.html".
func (s *Static) Place() string { return s.place }

// Err returns the error that ended the stream, or nil.
func (s *Static) Err() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}

var (
	_ Source = (*Static)(nil)
	_ Placer = (*Static)(nil)
)
