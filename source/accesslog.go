package source

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// LogOptions configure a [Log]. The zero value of every field but Base is a
// sensible default; a Log never writes back into them.
type LogOptions struct {
	// Base is the site's URL, such as "https://www.example.com". Logs carry
	// paths, not hosts: each request path is resolved against Base's scheme,
	// host and port. Base's own path is not used, because a request path is
	// always absolute from the server's root. Required.
	Base string

	// KeepParams names the query parameters kept; every other parameter is
	// removed, and so is a query left empty. nil (or empty) keeps none: the
	// query is dropped, which suits most sites, whose query strings in logs
	// are tracking, sorting or search parameters that make one page look
	// like thousands. "*" keeps the whole query as it was sent (escapes
	// aside, see [Log]). Names are
	// matched case-sensitively, as they appear in the log once escapes are
	// in their one spelling (see [Log]: "%61" is "a", "%5B" stays "%5B").
	// Kept parameters stay in the request's order, repeats and empty
	// values included ("a=1&a=&a=2"). Session IDs are the generic filter's
	// job.
	KeepParams []string

	// Methods are the request methods that count as a visit to a page.
	// nil means GET and HEAD, as Google's sitemap_gen did: a successful HEAD
	// says the page exists as surely as a GET does (uptime monitors use it).
	// Methods are case-sensitive, as HTTP says.
	Methods []string

	// Statuses are the response statuses that make a request a page. nil
	// means 200 and 304: a 304 Not Modified answers a conditional GET for a
	// page the client has cached, so the page exists and is served.
	// sitemap_gen took 200 only; pages that only returning visitors see
	// would be lost that way. Redirects (3xx but 304), partial content
	// (206, media ranges) and errors are not pages. Each must be 100 to 599.
	Statuses []int

	// SkipExtensions are the file name extensions (without the dot,
	// case-insensitive) of requests that are not pages. nil means
	// [LogAssetExtensions]; an empty non-nil slice skips nothing by
	// extension. Hidden paths, with a segment starting with a dot
	// (/.well-known/…, /.env, /.git/config), are always skipped.
	SkipExtensions []string
}

// LogAssetExtensions returns the extensions a [Log] skips by default:
// requests for files a page uses, or that are not pages at all, rather than
// pages. Documents that search engines index (pdf, doc, xls, ppt, …) are
// not in it, nor are server-side page extensions (html, php, asp, …).
//
//   - styles and scripts: css js mjs map wasm
//   - images: png jpg jpeg gif webp avif svg ico bmp tif tiff heic apng cur
//   - fonts: woff woff2 ttf otf eot
//   - audio and video: mp3 mp4 m4a m4v webm ogg oga ogv opus wav flac aac
//     mov avi mkv flv wmv m3u8 ts mpd
//   - feeds, sitemaps and data: xml rss atom json webmanifest txt (robots.txt,
//     ads.txt, humans.txt, llms.txt: files for machines, never pages)
//   - archives and downloads: zip gz tgz bz2 xz zst 7z rar tar exe msi dmg
//     pkg deb rpm apk iso bin swf
func LogAssetExtensions() []string {
	return []string{
		"css", "js", "mjs", "map", "wasm",
		"png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "ico", "bmp", "tif", "tiff", "heic", "apng", "cur",
		"woff", "woff2", "ttf", "otf", "eot",
		"mp3", "mp4", "m4a", "m4v", "webm", "ogg", "oga", "ogv", "opus", "wav", "flac", "aac",
		"mov", "avi", "mkv", "flv", "wmv", "m3u8", "ts", "mpd",
		"xml", "rss", "atom", "json", "webmanifest", "txt",
		"zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar", "exe", "msi", "dmg",
		"pkg", "deb", "rpm", "apk", "iso", "bin", "swf",
	}
}

// LogStats counts what a [Log] did with its lines. Every line is counted
// once: Lines = URLs + Repeats + Malformed + the sum of Skipped.
type LogStats struct {
	// Lines is the number of lines read.
	Lines int
	// URLs is the number of distinct URLs returned.
	URLs int
	// Repeats is the number of page hits for a URL already returned.
	Repeats int
	// Skipped counts the log lines not used, by the first rule they fail,
	// in this order:
	//
	//   - "blank": an empty line.
	//   - "method": not one of LogOptions.Methods (POST, OPTIONS, a "-"
	//     request, a TLS handshake sent to the HTTP port).
	//   - "status": not one of LogOptions.Statuses (404, 301, 500, …).
	//   - "other host": the vhost_combined host, or the host of an
	//     absolute-form request ("GET http://other.example/ HTTP/1.1", as
	//     open-proxy probes send), is not Base's host.
	//   - "other": the request target is not a path ("*", "host:443",
	//     "../x", garbage) or does not make a valid URL.
	//   - "asset": the path's extension is in SkipExtensions, or the path is
	//     hidden (/.well-known/…, /.env, /.git/config: files for machines or
	//     secrets, whatever status a catch-all route gave them).
	Skipped map[string]int
	// Malformed is the number of lines that are not access log lines.
	Malformed int
	// Samples are the first malformed lines (at most 10), each with its
	// file, line, column and what is wrong.
	Samples []*ParseError
}

// maxLogSamples is how many malformed lines LogStats keeps.
const maxLogSamples = 10

// ErrLogLine is what the ParseErrors in [LogStats.Samples] wrap.
var ErrLogLine = errors.New("not a Common or Combined Log Format line")

// Log reads the page URLs in a web server's access log, as Google's
// sitemap_gen did. It is a [Source].
//
// # Formats
//
// Each line may be in the Common Log Format, the Combined Log Format
// (Apache's and nginx's default), or Apache's vhost_combined (with a
// leading "host:port"); anything after the status is ignored, so formats
// that append fields (response times, the DreamHost trailing space) work
// too. The format is detected per line, so logs may be concatenated:
//
//	127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.html HTTP/1.0" 200 2326
//	2001:db8::1 - - [10/Oct/2000:13:55:36 -0700] "GET /a?id=1 HTTP/1.1" 200 2326 "https://ref.example/" "Mozilla/5.0"
//	www.example.com:443 192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET /b HTTP/2.0" 304 0 "-" "Mozilla/5.0"
//
// The time is never read: an access is not a modification, so a Log never
// sets lastmod, nor changefreq or priority. Escapes that servers write
// into the request (\", \\ and \xHH for bytes outside printable ASCII) are
// undone, and an unescaped quote inside the request (older servers) is
// tolerated: the request ends at the quote followed by a status.
//
// # What is a page
//
// A line gives a URL when its method is in Methods, its status in Statuses,
// its host (if the line has one) is Base's, and its path is not an asset.
// Percent-escapes are first written in one spelling, which RFC 3986 §6.2.2
// says is the same URL: upper-case hex, and letters, digits and "-._~"
// unescaped ("/caf%c3%a9" is "/caf%C3%A9", "/%7Euser" is "/~user"), so
// that the spellings of one page count once and the asset and hidden-path
// rules see escaped dots ("/%2Eenv" is hidden). The path is resolved
// against Base, its query filtered by KeepParams, its fragment dropped
// (clients never send one), and the URL normalised with [loc.Normalize].
// LogStats.Skipped counts every line that fails a rule.
//
// # Repeats
//
// A URL is returned once, at its first hit, in the order of first hits.
// The Log remembers a 64-bit hash of each URL returned (and of a few of
// its raw spellings when they differ, at most as many as there are URLs),
// so memory grows with the number of distinct URLs, a few tens of bytes
// each, not with the log's size; it is freed
// when the stream ends. Two URLs whose hashes collide would count as one:
// with the seed random per Log, the odds for a log of n distinct URLs are
// about n² in 2⁶⁴ (one in ten thousand for 40 million URLs).
//
// # Errors
//
// A line that is not an access log line is counted in LogStats.Malformed
// and the first few are kept in LogStats.Samples; Read does not return
// them: log noise must not fail a run. Read returns only URLs, io.EOF, or
// an error that ends the stream (I/O, a damaged gzip stream, a line over
// [MaxLineBytes]).
type Log struct {
	lr   *lineReader
	f    *os.File
	name string
	line int
	err  error
	cfg  logConfig
	seed maphash.Seed
	seen map[uint64]struct{}
	// spellings counts the hashes in seen of raw targets first met as
	// repeats; at most URLs of them are kept.
	spellings int
	stats     LogStats
}

// logConfig is LogOptions compiled for matching.
type logConfig struct {
	origin   string // normalised "scheme://host[:port]"
	host     string // normalised host, without port or brackets
	keepAll  bool
	keep     []string
	methods  []string
	statuses [1000]bool
	exts     map[string]struct{}
}

// NewLog returns a Log reading the access log r; name is used in errors
// and samples. Gzipped input is recognised by its magic bytes. It returns
// an error only for bad options: an empty or invalid Base, a status out of
// range, an empty method.
func NewLog(r io.Reader, name string, o LogOptions) (*Log, error) {
	cfg, err := compileLogOptions(o)
	if err != nil {
		return nil, err
	}
	return &Log{
		lr:    newLineReader(r),
		name:  name,
		cfg:   cfg,
		seed:  maphash.MakeSeed(),
		seen:  make(map[uint64]struct{}),
		stats: LogStats{Skipped: make(map[string]int)},
	}, nil
}

// OpenLog opens the access log at path ("-" for the standard input, named
// "stdin") as a Log; see NewLog. Close closes it.
func OpenLog(path string, o LogOptions) (*Log, error) {
	if path == "-" {
		return NewLog(os.Stdin, "stdin", o)
	}
	if _, err := compileLogOptions(o); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	l, err := NewLog(f, path, o)
	if err != nil {
		f.Close()
		return nil, err
	}
	l.f = f
	return l, nil
}

// Close closes the file OpenLog opened (not the standard input, nor the
// reader given to NewLog).
func (l *Log) Close() error {
	if l.f == nil {
		return nil
	}
	f := l.f
	l.f = nil
	return f.Close()
}

func compileLogOptions(o LogOptions) (logConfig, error) {
	var c logConfig
	if o.Base == "" {
		return c, errors.New("access log: LogOptions.Base is required: logs carry paths, not hosts")
	}
	u, err := url.Parse(o.Base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("access log: base %q is not an absolute http(s) URL", o.Base)
	}
	if u.User != nil {
		return c, fmt.Errorf("access log: base %q has a user name: a sitemap is public", o.Base)
	}
	n, err := loc.Normalize(u.Scheme + "://" + u.Host + "/")
	if err != nil {
		return c, fmt.Errorf("access log: base %q: %w", o.Base, err)
	}
	c.origin = strings.TrimSuffix(n, "/")
	nu, err := url.Parse(n)
	if err != nil {
		return c, fmt.Errorf("access log: base %q: %w", o.Base, err)
	}
	c.host = nu.Hostname()

	for _, p := range o.KeepParams {
		if p == "*" {
			c.keepAll = true
		}
	}
	c.keep = slices.Clone(o.KeepParams)

	c.methods = []string{"GET", "HEAD"}
	if o.Methods != nil {
		c.methods = nil
		for _, m := range o.Methods {
			if m == "" || strings.ContainsAny(m, " \t\"") {
				return c, fmt.Errorf("access log: bad method %q", m)
			}
			c.methods = append(c.methods, m)
		}
	}

	statuses := o.Statuses
	if statuses == nil {
		statuses = []int{200, 304}
	}
	for _, s := range statuses {
		if s < 100 || s > 599 {
			return c, fmt.Errorf("access log: status %d is not an HTTP status (100 to 599)", s)
		}
		c.statuses[s] = true
	}

	exts := o.SkipExtensions
	if exts == nil {
		exts = LogAssetExtensions()
	}
	c.exts = make(map[string]struct{}, len(exts))
	for _, e := range exts {
		e = strings.ToLower(strings.TrimPrefix(e, "."))
		if e != "" {
			c.exts[e] = struct{}{}
		}
	}
	return c, nil
}

// Read returns the next URL not returned before, with the contract of
// Source.Read, except that it never returns a *ParseError for a line: see
// LogStats for those.
func (l *Log) Read() (sitemap.URL, error) {
	if l.err != nil {
		return sitemap.URL{}, l.err
	}
	for {
		line, ok := l.lr.next()
		if !ok {
			l.err = endError(l.lr, l.name)
			l.seen = nil // the stream is over: free the hashes now, not when the Log goes
			return sitemap.URL{}, l.err
		}
		l.stats.Lines++
		target, reason, col := l.cfg.parse(line)
		switch {
		case col > 0:
			l.malformed(col, reason)
			continue
		case reason != "":
			l.stats.Skipped[reason]++
			continue
		}
		// The raw target usually is the normalised URL's path: its hash
		// answers most repeats without normalising.
		raw := maphash.String(l.seed, target)
		if _, dup := l.seen[raw]; dup {
			l.stats.Repeats++
			continue
		}
		u, err := loc.Normalize(l.cfg.origin + target)
		if err != nil {
			l.stats.Skipped["other"]++
			continue
		}
		h := maphash.String(l.seed, strings.TrimPrefix(u, l.cfg.origin))
		if _, dup := l.seen[h]; dup {
			// Another spelling of a URL returned: remembered too, so that
			// it is not normalised again, but only as many as there are
			// URLs, so that endless spellings ("/x1/../", "/x2/../", …
			// from a scanner) cannot make memory follow the log's size.
			if l.spellings < l.stats.URLs {
				l.seen[raw] = struct{}{}
				l.spellings++
			}
			l.stats.Repeats++
			continue
		}
		l.seen[raw] = struct{}{}
		l.seen[h] = struct{}{}
		l.stats.URLs++
		l.line = l.lr.line
		return sitemap.URL{Loc: u}, nil
	}
}

func (l *Log) malformed(col int, why string) {
	l.stats.Malformed++
	if len(l.stats.Samples) < maxLogSamples {
		l.stats.Samples = append(l.stats.Samples, &ParseError{
			File: l.name, Line: l.lr.line, Column: col,
			Err: fmt.Errorf("%w: %s", ErrLogLine, why),
		})
	}
}

// Stats returns the counts so far; after io.EOF, for the whole log.
func (l *Log) Stats() LogStats {
	s := l.stats
	s.Skipped = maps.Clone(s.Skipped)
	s.Samples = slices.Clone(s.Samples)
	return s
}

// All returns every URL; see Source.All.
func (l *Log) All() iter.Seq2[sitemap.URL, error] { return all(l) }

// Name returns the input's name.
func (l *Log) Name() string { return l.name }

// Line returns the line of the first hit of the URL Read last returned.
func (l *Log) Line() int { return l.line }

// Err returns the error that ended the stream, or nil.
func (l *Log) Err() error {
	if l.err == io.EOF {
		return nil
	}
	return l.err
}

// parse reads one log line. It returns the request target to resolve
// (origin-form, query filtered) and "", or "" and the reason the line is
// skipped, or, for a line that is not a log line, what is wrong and the
// 1-based column where it was found.
func (c *logConfig) parse(line string) (target, reason string, col int) {
	if isBlankLine(line) {
		return "", "blank", 0
	}
	// client ident user [time]: the time is the first " [" (an IPv6 client
	// may be bracketed, but has no space before its bracket).
	ts := strings.Index(line, " [")
	if ts < 0 {
		return "", "no [time] field", 1
	}
	vhost := ""
	switch n := strings.Count(line[:ts], " ") + 1; {
	case n < 3:
		return "", "want client, identity and user before the [time]", 1
	case n == 4:
		// vhost_combined's "%v:%p" comes first; a client is never followed
		// by three fields. Without a port it is a user name with a space.
		if first := line[:strings.IndexByte(line, ' ')]; strings.IndexByte(first, ':') > 0 {
			vhost = first
		}
	}
	te := strings.IndexByte(line[ts+2:], ']')
	if te < 0 {
		return "", "the [time] is not closed", ts + 2
	}
	pos := ts + 2 + te + 1
	if !strings.HasPrefix(line[pos:], ` "`) {
		return "", `no "request" after the [time]`, pos + 1
	}
	pos += 2
	// The request ends at the first unescaped quote followed by a status.
	rest := line[pos:]
	end, status := -1, 0
	for from := 0; ; {
		q := strings.IndexByte(rest[from:], '"')
		if q < 0 {
			break
		}
		q += from
		from = q + 1
		if escapedAt(rest, q) {
			continue
		}
		if s, ok := statusAfter(rest[q+1:]); ok {
			end, status = q, s
			break
		}
	}
	if end < 0 {
		return "", `no "request" followed by a status`, pos
	}
	req := rest[:end]

	sp := strings.IndexByte(req, ' ')
	method := req
	if sp >= 0 {
		method = req[:sp]
	}
	if !slices.Contains(c.methods, method) {
		return "", "method", 0
	}
	if !c.statuses[status] {
		return "", "status", 0
	}
	if vhost != "" && !c.sameHost(vhost) {
		return "", "other host", 0
	}
	if sp < 0 {
		return "", "other", 0
	}
	target = req[sp+1:]
	if i := strings.LastIndexByte(target, ' '); i >= 0 && strings.HasPrefix(target[i+1:], "HTTP/") {
		target = target[:i]
	}
	if strings.IndexByte(target, '\\') >= 0 {
		target = unescapeLog(target)
	}
	if target == "" {
		return "", "other", 0
	}
	if target[0] != '/' {
		// absolute-form: "http://host[:port]/path"
		var rest string
		var ok bool
		if rest, ok = cutPrefixFold(target, "http://"); !ok {
			if rest, ok = cutPrefixFold(target, "https://"); !ok {
				return "", "other", 0
			}
		}
		i := strings.IndexAny(rest, "/?#")
		if i < 0 {
			i = len(rest)
		}
		if !c.sameHost(rest[:i]) {
			return "", "other host", 0
		}
		target = rest[i:]
		if target == "" || target[0] != '/' {
			target = "/" + target
		}
	}
	if i := strings.IndexByte(target, '#'); i >= 0 {
		target = target[:i]
	}
	if strings.IndexByte(target, '%') >= 0 {
		target = canonEscapes(target)
	}
	path, query, hasQuery := strings.Cut(target, "?")
	if c.isAsset(path) {
		return "", "asset", 0
	}
	if hasQuery && !c.keepAll {
		if q := c.filterQuery(query); q != "" {
			target = path + "?" + q
		} else {
			target = path
		}
	}
	return target, "", 0
}

// statusAfter reads ` DDD` followed by a space or the end of the line.
func statusAfter(s string) (int, bool) {
	if len(s) < 4 || s[0] != ' ' || (len(s) > 4 && s[4] != ' ') {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s[1:4]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// escapedAt reports whether s[i] follows an odd number of backslashes.
func escapedAt(s string, i int) bool {
	n := 0
	for i--; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

func isBlankLine(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// unescapeLog undoes the escapes Apache and nginx write into a logged
// request: \" and \\, and \xHH for a byte outside printable ASCII.
func unescapeLog(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		switch n := s[i+1]; {
		case n == '"' || n == '\\':
			b.WriteByte(n)
			i++
		case n == 'x' && i+3 < len(s) && isHex(s[i+2]) && isHex(s[i+3]):
			b.WriteByte(unhex(s[i+2])<<4 | unhex(s[i+3]))
			i += 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// canonEscapes writes the percent-escapes of a request target in one
// spelling, as RFC 3986 §6.2.2 says equivalent URIs are: upper-case hex,
// and letters, digits and "-._~" unescaped. Clients differ ("%c3%a9" and
// "%C3%A9", "%7E" and "~") but ask for one page, which must count once;
// and "/%2Eenv" is /.env to the server, hidden, as "/x%2Ecss" is a style
// sheet. Other escapes stay escaped: "%2F" is not a "/".
func canonEscapes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' || i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			b.WriteByte(c)
			continue
		}
		d := unhex(s[i+1])<<4 | unhex(s[i+2])
		if 'a' <= d && d <= 'z' || 'A' <= d && d <= 'Z' || '0' <= d && d <= '9' || d == '-' || d == '.' || d == '_' || d == '~' {
			b.WriteByte(d)
		} else {
			b.WriteByte('%')
			b.WriteByte(upperHex[d>>4])
			b.WriteByte(upperHex[d&15])
		}
		i += 2
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// sameHost reports whether authority ("host", "host:port", "[v6]:port")
// names Base's host; ports are not compared, since one site answers on
// both 80 and 443.
func (c *logConfig) sameHost(authority string) bool {
	h := authority
	if strings.HasPrefix(h, "[") {
		if i := strings.IndexByte(h, ']'); i > 0 {
			h = h[1:i]
		}
	} else if i := strings.LastIndexByte(h, ':'); i >= 0 && strings.IndexByte(h[:i], ':') < 0 {
		h = h[:i]
	}
	h = strings.TrimSuffix(h, ".")
	return strings.EqualFold(h, strings.TrimSuffix(c.host, "."))
}

// isAsset reports whether a request path is for something other than a page.
func (c *logConfig) isAsset(path string) bool {
	if hiddenPath(path) {
		return true
	}
	seg := path[strings.LastIndexByte(path, '/')+1:]
	dot := strings.LastIndexByte(seg, '.')
	if dot < 0 || len(c.exts) == 0 {
		return false
	}
	ext := seg[dot+1:]
	var buf [16]byte
	if len(ext) == 0 || len(ext) > len(buf) {
		return false
	}
	for i := 0; i < len(ext); i++ {
		b := ext[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		buf[i] = b
	}
	_, ok := c.exts[string(buf[:len(ext)])]
	return ok
}

// hiddenPath reports whether a path has a segment starting with a dot
// other than "." and "..": /.well-known/…, /.env, /.git/config. Such files
// are for machines or are secrets; a 200 for them is a catch-all route or
// a leak, never a page to list.
func hiddenPath(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] != '/' || i+1 >= len(path) || path[i+1] != '.' {
			continue
		}
		seg := path[i+1:]
		if j := strings.IndexByte(seg, '/'); j >= 0 {
			seg = seg[:j]
		}
		if seg != "." && seg != ".." {
			return true
		}
	}
	return false
}

// filterQuery keeps the parameters named in KeepParams, in their order.
func (c *logConfig) filterQuery(q string) string {
	if len(c.keep) == 0 || q == "" {
		return ""
	}
	var b strings.Builder
	kept, all := 0, true
	for p := range strings.SplitSeq(q, "&") {
		name, _, _ := strings.Cut(p, "=")
		if name == "" || !slices.Contains(c.keep, name) {
			all = false
			continue
		}
		if kept > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p)
		kept++
	}
	if all {
		return q
	}
	return b.String()
}

var _ Source = (*Log)(nil)
