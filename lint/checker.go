package lint

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// A Checker checks the documents of one sitemap set (a site's sitemaps, an
// index and its children, or a folder of files) and reports what is wrong
// through Report.
//
// Call CheckDocument for each document, then Finish once for the rules that
// need the whole set. A Checker's zero value is ready to use; set the
// exported fields before the first CheckDocument. CheckDocument may be
// called from several goroutines at once; Report is never called
// concurrently.
//
// # Memory
//
// Per-document checks stream. The set-wide rules keep, for the whole set:
// the first million distinct URLs' hashes in a table (about 12 MB) to find
// duplicates across files, and 8 bytes per child named by an index (to
// find nested indexes). The URLs past the first million, and the hreflang
// links (whose reciprocity is checked at Finish), are records sorted in
// runs on disk, in TempDir: 20 bytes a URL, 50 a link, and a few bytes an
// entry with alternates. Memory stays flat, whatever the set's size.
// Hashes are 64-bit (maphash, seeded per Checker): a false duplicate among
// ten million URLs has odds of about one in 370 billion.
type Checker struct {
	// Now is the time against which news articles' age is judged (Google
	// wants only articles of the last two days). Zero means time.Now() when
	// CheckDocument is called.
	Now time.Time

	// Report receives every diagnostic, not in the order of their places
	// (a document's duplicate-url findings come a batch at a time). Nil
	// discards them (DocResult still counts them).
	Report func(Diagnostic)

	// MaxBytes caps how much of a document is decompressed and read; past
	// it the document is reported as file-too-large and reading stops.
	// Zero means the sitemap.Reader's default, just over sitemap.MaxBytes.
	// Documents larger than sitemap.MaxBytes are always reported.
	MaxBytes int64

	// CrossSubmission leaves an index's children on another scheme, host
	// or port to the driver: such a child is allowed when a robots.txt
	// names it (sitemaps.org's cross-submission), which only a driver that
	// fetches robots.txt can know; the driver reports CrossHostSitemap
	// otherwise. When false (the default, for files checked on their own),
	// such a child is a url-not-allowed error.
	CrossSubmission bool

	// RobotsAgent makes CheckSite judge the URLs of each document whose
	// site's robots.txt it knows (fetched with the document, or
	// discover.Options.Robots) by that robots.txt, for the crawler of
	// this name (e.g. "Googlebot"): a URL it disallows is
	// url-blocked-by-robots. "": URLs are not judged by robots.txt.
	RobotsAgent string

	// Ignore names rules that are not applied: their findings are
	// neither reported nor counted (in DocResult, FileResult or a
	// Collector's summary).
	Ignore []string

	// MaxPerRule, when above 0, is how many findings of one rule in one
	// document reach Report; the rest are counted (DocResult.Omitted)
	// without their message or place being made, so that a set with one
	// mistake on every URL is checked about as fast as a clean one. Give
	// it the Collector's MaxPerRule: the Collector would list no more, and
	// takes the counts from the FileResults CheckSite returns.
	MaxPerRule int

	// TempDir is the folder the check keeps its sorted runs in: the
	// URLs past the first million, to find their duplicates, and the
	// hreflang links (see Memory), removed by Finish, or once the Checker
	// is garbage. Default: the system's (os.TempDir).
	TempDir string

	mu     sync.Mutex
	seed   maphash.Seed
	seeded bool
	// urls is the urlset and text locs of the set, up to setMemURLs: the
	// set builders de-duplicate with, off the Go heap; spill, the rest
	// (see spill.go).
	urls          *publish.Seen
	inSet         int
	spill         *spill[dupRecord]
	indexChildren hashSet            // every child loc named by an index
	links         *spill[linkRecord] // hreflang links, for reciprocity (see hreflang.go)
	files         []string           // document names, indexed by link.file
	indexFiles    int
	late          map[string]*[3]int // findings reported at Finish, by file: errors, warnings, infos
	spare         []*docMemory       // per-document memory to reuse: growing it costs more than clearing it
}

// docMemory is what a document's check holds of its locs, kept for the
// next document (but a large set: see maxSpareSlots).
type docMemory struct {
	local  hashSet  // an index's or feed's locs, for duplicates within it
	hashes []uint64 // a sitemap's locs, in order (see listedBefore)
}

// maxSpareSlots is the largest set a docMemory keeps for the next
// document (512 KiB): only indexes and feeds fill one, and they are few.
const maxSpareSlots = 1 << 16

// DocResult is what CheckDocument learned about a document.
type DocResult struct {
	// Format is the document's format (sitemap.FormatUnknown when it could
	// not be read).
	Format sitemap.Format
	// Entries is the number of <url> (or <sitemap>, lines, items) read.
	Entries int
	// Bytes is the document's size in bytes, uncompressed, as far as it
	// was read.
	Bytes int64
	// Compressed names the compression the document came in ("gzip"…), or
	// is "" when it was not compressed.
	Compressed string
	// Children are an index's child sitemaps' <loc>s, as written, in order,
	// for the driver to follow. Nil for other formats.
	Children []string
	// Errors, Warnings and Infos count the document's findings, reported
	// or not.
	Errors, Warnings, Infos int
	// Omitted counts, by rule name, the findings not reported because
	// their rule had reached Checker.MaxPerRule in the document.
	Omitted map[string]int
}

// IsIndex reports whether the document is a sitemap index.
func (r *DocResult) IsIndex() bool { return r.Format == sitemap.FormatIndex }

// reportf reports a diagnostic of rule about file at line and col (0 for
// the whole file), with a message formatted as fmt.Sprintf does. CheckSite
// reports the walk's findings (HTTPError, Redirect, BlockedByRobots,
// CrossHostSitemap, FetchError) this way, so that every diagnostic goes
// through one Report.
func (c *Checker) reportf(rule *Rule, file string, line, col int, format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.report(Diagnostic{File: file, Line: line, Col: col, Rule: rule.Name, Severity: rule.Severity, Message: fmt.Sprintf(format, args...)})
}

// report must be called with c.mu held.
func (c *Checker) report(d Diagnostic) {
	if c.Report != nil && !c.ignored(d.Rule) {
		c.Report(d)
	}
}

// ignored reports whether the rule named name is one of Ignore's.
func (c *Checker) ignored(name string) bool {
	return len(c.Ignore) > 0 && slices.Contains(c.Ignore, name)
}

// hash makes the seed on first use, with c.mu held; checkDocument calls
// it so before any of the document's URLs is hashed without the lock.
func (c *Checker) hash(s string) uint64 {
	if !c.seeded {
		c.seed = maphash.MakeSeed()
		c.seeded = true
	}
	return maphash.String(c.seed, s)
}

// CheckDocument reads one document from r and reports its problems. name
// names it in diagnostics (a file name or URL). publicURL is the URL the
// document is (or will be) published at, for the scope rules (same scheme,
// host and port; inside its directory) and to recognise an index listed by
// an index: give the <loc> the parent index names, or the URL fetched; ""
// when unknown, and the scope rules are then skipped.
//
// Damage in the document (not well-formed, HTML, too large, bad gzip,
// DOCTYPE) is a diagnostic, not an error: CheckDocument then returns the
// entries read before it and a nil error. It returns an error only when r
// fails (an I/O error, which the driver reports as a fetch error), when
// publicURL is not an absolute http(s) URL, or when ctx is done.
func (c *Checker) CheckDocument(ctx context.Context, name, publicURL string, r io.Reader) (*DocResult, error) {
	return c.checkDocument(ctx, name, publicURL, r, nil)
}

// checkDocument is CheckDocument; blocked, when not nil, says why
// robots.txt keeps crawlers from a URL ("" when it does not).
func (c *Checker) checkDocument(ctx context.Context, name, publicURL string, r io.Reader, blocked func(string) string) (*DocResult, error) {
	d := &docCheck{c: c, name: name, res: &DocResult{}, now: c.Now, blocked: blocked}
	if d.now.IsZero() {
		d.now = time.Now()
	}
	// The earliest year a date a day past now can be in, for checkFuture.
	d.year = fmt.Sprintf("%04d", d.now.Add(-futureSlack).UTC().Year())
	if publicURL != "" {
		s, err := loc.NewScope(publicURL)
		if err != nil {
			return nil, fmt.Errorf("lint: public URL of %s: %w", name, err)
		}
		d.scope = s
	}
	c.mu.Lock()
	d.fileID = uint32(len(c.files))
	c.files = append(c.files, name)
	// Seeded under the lock, before any document hashes: URLs are hashed
	// outside it (checkURL).
	h := c.hash(publicURL)
	if publicURL != "" {
		d.publicHash = h
	}
	var mem *docMemory
	if n := len(c.spare); n > 0 {
		mem, c.spare = c.spare[n-1], c.spare[:n-1]
	} else {
		mem = new(docMemory)
	}
	d.local, d.hashes = &mem.local, mem.hashes[:0]
	c.mu.Unlock()
	defer func() {
		d.local.reset()
		mem.hashes = d.hashes[:0]
		if len(mem.local.slots) > maxSpareSlots {
			// An index's set of its 100,000 children (2 MiB) would be
			// held for the documents after it, sitemaps, which use none.
			return
		}
		c.mu.Lock()
		c.spare = append(c.spare, mem)
		c.mu.Unlock()
	}()

	rd := sitemap.NewReader(r)
	rd.Name = name
	rd.MaxBytes = c.MaxBytes
	rd.OnNotice = d.notice
	rd.ReuseURL = true // an entry is checked before the next is read
	rd.OnDiscard = d.discard
	d.r = rd
	err := d.run(ctx)
	defer d.countOmitted()
	d.res.Format = rd.Format()
	d.res.Bytes = rd.InputOffset()
	d.res.Compressed = rd.Compressed()
	if err != nil {
		// What was read before the failure is checked: its URLs join
		// the set, its duplicates are reported.
		d.flushPending()
		return d.res, err
	}
	d.finish()
	return d.res, nil
}

// docCheck is the state of one CheckDocument call.
type docCheck struct {
	c          *Checker
	name       string
	r          *sitemap.Reader
	scope      *loc.Scope
	now        time.Time
	res        *DocResult
	fileID     uint32
	publicHash uint64
	local      *hashSet            // an index's or feed's locs, for duplicates within it
	hashes     []uint64            // a sitemap's locs, in order (see listedBefore)
	firstAt    map[uint64]int32    // see listedBefore
	indexed    int                 // hashes in firstAt
	dups       int                 // locs listed before, in the set
	blocked    func(string) string // see checkDocument
	pending    []pendingURL        // see flushPending
	discarded  bool                // the Reader let go of text since the last entry (see discard)
	batch      []uint64            // flushPending's
	fresh      []bool              // flushPending's
	links      []link              // hreflang links, to add to the set's
	year       string              // see checkFuture
	news       int
	fatal      bool                 // reading stopped at damage
	tooLarge   bool                 // file-too-large already reported
	once       map[string]*onceDiag // aggregated per-document findings, by key
	changefreq *onceDiag            // once["changefreq"], once there
	priority   *onceDiag            // once["priority"], once there
	onceOrder  []string
	entry      []findingKey            // this entry's findings so far, to drop repeats
	entrySet   map[findingKey]struct{} // the same once entry is long: a URL with thousands of bad images
	missing    []string                // distinct missing-tag notices since the last entry (at most maxMissing)
	found      []ruleCount             // findings by rule, when Checker.MaxPerRule caps them
}

// ruleCount counts a rule's findings in a document. Few rules fire in one
// document: a list, looked through, costs less than a map.
type ruleCount struct {
	rule *Rule
	n    int
}

// onceDiag is a finding reported once per document, at its first place,
// with the number of times it occurred.
type onceDiag struct {
	rule  *Rule
	pos   sitemap.Position
	msg   string
	count int
}

// entriesBetweenCtxChecks bounds how long a cancelled context goes unseen.
const entriesBetweenCtxChecks = 4096

func (d *docCheck) run(ctx context.Context) error {
	for {
		if d.res.Entries%entriesBetweenCtxChecks == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		u, err := d.r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var se *sitemap.SyntaxError
			if !errors.As(err, &se) {
				return fmt.Errorf("lint: reading %s: %w", d.name, err)
			}
			d.fatal = true
			rule := Lookup(sitemap.ErrorRule(se))
			if rule == FileTooLarge {
				d.tooLarge = true
			}
			d.add(rule, sitemap.Position{Line: se.Line, Col: se.Col}, se.Err.Error())
			return nil
		}
		d.res.Entries++
		if d.r.Format() == sitemap.FormatIndex {
			d.checkIndexEntry(u)
		} else {
			d.checkURL(u)
		}
	}
}

// notice turns a Reader's notice into a diagnostic.
func (d *docCheck) notice(n sitemap.Notice) {
	rule := Lookup(n.Rule)
	if rule == nil {
		rule = ParseError
	}
	switch rule {
	case DeprecatedTag:
		// One warning per tag per file: the Reader words each tag's
		// notice the same way every time, and no other once-key is a
		// whole message.
		d.addOnce(rule, n.Msg, n.Pos, n.Msg)
		return
	case MissingTag:
		if len(d.missing) < maxMissing && !slices.Contains(d.missing, n.Msg) {
			d.missing = append(d.missing, n.Msg)
		}
	}
	d.add(rule, n.Pos, n.Msg)
}

// add counts a finding of rule at pos in the document, and reports it
// unless its rule is past Checker.MaxPerRule.
func (d *docCheck) add(rule *Rule, pos sitemap.Position, msg string) {
	if d.take(rule) {
		d.report(rule, pos, msg)
	}
}

// take counts a finding of rule, and reports whether it is to be reported:
// a finding that fires on every URL makes its place and message only while
// they are listed.
func (d *docCheck) take(rule *Rule) bool {
	if d.c.ignored(rule.Name) {
		return false
	}
	switch rule.Severity {
	case Error:
		d.res.Errors++
	case Warning:
		d.res.Warnings++
	default:
		d.res.Infos++
	}
	if d.c.MaxPerRule <= 0 {
		return true
	}
	for i := range d.found {
		if c := &d.found[i]; c.rule == rule {
			c.n++
			return c.n <= d.c.MaxPerRule
		}
	}
	d.found = append(d.found, ruleCount{rule, 1})
	return 1 <= d.c.MaxPerRule
}

// full returns the rule named name when its findings in the document are
// no longer reported (Checker.MaxPerRule), or nil.
func (d *docCheck) full(name string) *Rule {
	for _, c := range d.found {
		if c.rule.Name == name && c.n >= d.c.MaxPerRule {
			return c.rule
		}
	}
	return nil
}

// countOmitted sets DocResult.Omitted from the counts take kept.
func (d *docCheck) countOmitted() {
	for _, c := range d.found {
		if c.n > d.c.MaxPerRule {
			if d.res.Omitted == nil {
				d.res.Omitted = make(map[string]int)
			}
			d.res.Omitted[c.rule.Name] = c.n - d.c.MaxPerRule
		}
	}
}

// report reports a finding take counted.
func (d *docCheck) report(rule *Rule, pos sitemap.Position, msg string) {
	d.c.mu.Lock()
	d.c.report(Diagnostic{File: d.name, Line: pos.Line, Col: pos.Col, Rule: rule.Name, Severity: rule.Severity, Message: msg})
	d.c.mu.Unlock()
}

// addOnce records a finding that is reported once per document (at the
// end, with its count): ignored and deprecated tags, missing x-default.
func (d *docCheck) addOnce(rule *Rule, key string, pos sitemap.Position, msg string) {
	if d.again(key) {
		return
	}
	if d.once == nil {
		d.once = make(map[string]*onceDiag)
	}
	d.once[key] = &onceDiag{rule: rule, pos: pos, msg: msg, count: 1}
	d.onceOrder = append(d.onceOrder, key)
}

// countOnce is addOnce for a finding on the field key of nearly every
// entry of many sitemaps: after the first, counted through the pointer
// kept in *slot, not looked up by key.
func (d *docCheck) countOnce(slot **onceDiag, rule *Rule, key, msg string) {
	if *slot != nil {
		(*slot).count++
		return
	}
	d.addOnce(rule, key, d.fieldPos(key, 0), msg)
	*slot = d.once[key]
}

// again counts one more of the findings reported once per document under
// key, and reports whether there was one: the first's place is all the
// report shows, so the others' are not asked of the Reader.
func (d *docCheck) again(key string) bool {
	if o := d.once[key]; o != nil {
		o.count++
		return true
	}
	return false
}

// fieldPos returns the position of field (of the index-th image, video or
// alternate, as sitemap.Violation.Index says) in the entry last read, or
// the entry's own position when the Reader does not know the field's.
func (d *docCheck) fieldPos(field string, index int) sitemap.Position {
	if field != "" {
		if p := d.r.FieldPos(field, index); p.Line > 0 {
			return p
		}
	}
	return d.r.Pos()
}

// findingKey is a violation's rule and place within an entry.
type findingKey struct {
	rule, field string
	index       int
}

// The bounds that keep a pathological entry (one <url> with a million
// images, each wrong) linear: past maxEntryScan findings the entry's are
// kept in a map; past maxMissing distinct missing-tag notices, a
// violation may repeat one.
const (
	maxEntryScan = 32
	maxMissing   = 16
)

// seen reports whether k was found in this entry already.
func (d *docCheck) seen(k findingKey) bool {
	if d.entrySet != nil {
		_, ok := d.entrySet[k]
		return ok
	}
	return slices.Contains(d.entry, k)
}

// record notes k as found in this entry.
func (d *docCheck) record(k findingKey) {
	if d.entrySet != nil {
		d.entrySet[k] = struct{}{}
		return
	}
	d.entry = append(d.entry, k)
	if len(d.entry) > maxEntryScan {
		d.entrySet = make(map[findingKey]struct{}, 2*len(d.entry))
		for _, e := range d.entry {
			d.entrySet[e] = struct{}{}
		}
	}
}

// resetEntry forgets the findings of the entry before.
func (d *docCheck) resetEntry() {
	d.entry = d.entry[:0]
	d.entrySet = nil
}

// violation reports v, found in the entry last read, unless the same rule
// was already reported for the same field of the same image, video or
// alternate of this entry (the value checks and the scope checks overlap:
// both find a relative URL).
func (d *docCheck) violation(v *sitemap.Violation) {
	k := findingKey{v.Rule, v.Field, v.Index}
	if d.seen(k) {
		return
	}
	if v.Value == "" {
		// The Reader noticed the element missing already (e.g. "<image:image>
		// without <image:loc>"): one diagnostic for one problem.
		for _, m := range d.missing {
			if strings.Contains(m, "<"+v.Field+">") {
				return
			}
		}
	}
	d.record(k)
	rule := Lookup(v.Rule)
	if rule == nil {
		rule = InvalidURL // a rule the writer added without a lint rule; TestSitemapRulesRegistered catches it
	}
	if d.take(rule) {
		// The diagnostic names the rule already: drop Error's " [rule]".
		d.report(rule, d.fieldPos(v.Field, v.Index), strings.TrimSuffix(v.Error(), " ["+v.Rule+"]"))
	}
}

// checkLoc applies the URL rules that the value checks do not: scope (when
// the public URL is known) and the schema's minimum length. otherHostOK
// leaves a URL on another origin to the driver (CrossSubmission).
func (d *docCheck) checkLoc(raw string, otherHostOK bool) {
	if raw == "" {
		return // missing-tag, from the value checks
	}
	switch {
	case d.spared(raw, otherHostOK):
	case d.scope != nil:
		d.locViolation(raw, d.scope.Check(raw), otherHostOK)
	default:
		d.locViolation(raw, loc.Check(raw), otherHostOK)
	}
	// The minimum is the sitemap schemas' <loc>'s: a text sitemap's
	// lines and a feed's links have no schema that sets one.
	if len(raw) < minLocLen && (d.r.Format() == sitemap.FormatURLSet || d.r.Format() == sitemap.FormatIndex) && len(d.entry) == 0 {
		d.violation(&sitemap.Violation{Rule: sitemap.RuleInvalidURL, Field: "loc", Value: raw,
			Msg: fmt.Sprintf("shorter than the %d characters the sitemap schema requires", minLocLen)})
	}
}

// spared reports whether loc raw needs no violation made: it breaks no
// rule, or one whose findings are only counted (ignored, or past
// Checker.MaxPerRule), which a set that breaks a rule on every URL would
// otherwise make a million times for its first hundred. It is asked only
// when a cap or Ignore can spare one: else the Check that follows would
// normalise a bad URL a second time.
func (d *docCheck) spared(raw string, otherHostOK bool) bool {
	if d.c.MaxPerRule <= 0 && len(d.c.Ignore) == 0 {
		return false
	}
	rule := d.scope.Rule(raw)
	return rule == "" || d.counted(rule, otherHostOK)
}

// counted counts a finding of rule about the entry's loc, and reports
// true, when its rule is past Checker.MaxPerRule: the violation need not be
// made. A URL on another host is left to locViolation when otherHostOK.
func (d *docCheck) counted(rule string, otherHostOK bool) bool {
	if d.c.ignored(rule) && (!otherHostOK || rule != sitemap.RuleURLNotAllowed) {
		return true
	}
	full := d.full(rule)
	if full == nil || otherHostOK && rule == sitemap.RuleURLNotAllowed {
		return false
	}
	if k := (findingKey{rule, "loc", 0}); !d.seen(k) {
		d.record(k)
		d.take(full)
	}
	return true
}

// locViolation reports err, a problem of loc raw found by package loc;
// apart from checkLoc so that the fast path allocates nothing.
func (d *docCheck) locViolation(raw string, err error, otherHostOK bool) {
	v, ok := err.(*sitemap.Violation) // what package loc returns; errors.As is a tenth of a check that finds one on every URL
	if !ok && !errors.As(err, &v) {
		return
	}
	if otherHostOK && v.Rule == sitemap.RuleURLNotAllowed {
		// Left to the driver; the rules that do not depend on the host
		// still apply.
		if err = loc.Check(raw); err == nil || !errors.As(err, &v) {
			return
		}
	}
	if v.Field == "" {
		v.Field = "loc"
	}
	d.violation(v)
}

// minLocLen is the sitemap schemas' minLength for <loc>.
const minLocLen = 12

func (d *docCheck) checkIndexEntry(u *sitemap.URL) {
	d.resetEntry()
	defer func() { d.missing = d.missing[:0] }()
	if d.res.Entries == sitemap.MaxURLs+1 {
		d.add(TooManySitemaps, d.r.Pos(), fmt.Sprintf("more than %d sitemaps in one index; split it into several indexes", sitemap.MaxURLs))
	}
	e := sitemap.IndexEntry{Loc: u.Loc, LastMod: u.LastMod}
	e.Check(d.violation)
	d.checkFuture(u.LastMod)
	d.checkLoc(u.Loc, d.c.CrossSubmission)
	d.res.Children = append(d.res.Children, u.Loc)
	d.c.mu.Lock()
	h := d.c.hash(u.Loc)
	if h != d.publicHash {
		// An index listing itself is one finding, the walk's loop, not
		// also a nested index.
		d.c.indexChildren.add(h)
	}
	d.c.mu.Unlock()
	if !d.local.add(h) {
		d.add(DuplicateURL, d.fieldPos("loc", 0), "sitemap listed twice in this index: "+u.Loc)
	}
}

func (d *docCheck) checkURL(u *sitemap.URL) {
	d.resetEntry()
	defer func() { d.missing, d.discarded = d.missing[:0], false }()
	if d.res.Entries == sitemap.MaxURLs+1 {
		d.add(TooManyURLs, d.r.Pos(), fmt.Sprintf("more than %d URLs in one sitemap; split it and list the parts in an index", sitemap.MaxURLs))
	}
	if u.Loc == "" {
		u.Check(d.violation) // missing-tag
	} else {
		u.CheckFields(d.violation)
		d.checkLoc(u.Loc, false)
	}
	d.checkFuture(u.LastMod)
	if d.blocked != nil && u.Loc != "" {
		if why := d.blocked(u.Loc); why != "" && d.take(URLBlockedByRobots) {
			d.report(URLBlockedByRobots, d.fieldPos("loc", 0), u.Loc+": "+why+"; crawlers will not read the page")
		}
	}

	h := d.c.hash(u.Loc)
	if len(u.Alternates) > 0 && !d.c.ignored(HreflangNotReciprocal.Name) {
		line := uint32(d.r.Pos().Line)
		for _, a := range u.Alternates {
			d.links = append(d.links, link{from: h, to: d.c.hash(a.Href), file: d.fileID, line: line})
		}
	}
	// A feed (RSS, Atom) beside the sitemaps lists their latest URLs
	// again, as Google asks: the set's duplicates are its sitemaps'.
	if d.c.ignored(DuplicateURL.Name) {
		// Not looked for: neither the set's table nor its runs. The
		// links go on as a batch of URLs would take them.
		if len(d.links) >= setBatch {
			d.flushPending()
		}
	} else if feed := d.r.Format() == sitemap.FormatRSS || d.r.Format() == sitemap.FormatAtom; feed {
		if !d.local.add(h) && d.take(DuplicateURL) {
			d.report(DuplicateURL, d.fieldPos("loc", 0), "URL listed twice in this sitemap: "+u.Loc)
		}
	} else {
		// Whether this or another sitemap listed it is asked of the set a
		// batch at a time: one lock, and lookups that overlap, not one of
		// each a URL; and only a loc listed before is looked for in this
		// document's (listedBefore).
		pos := sitemap.Position{Offset: d.r.FieldOffset("loc", 0)}
		if d.discarded {
			pos = d.fieldPos("loc", 0)
		}
		d.pending = append(d.pending, pendingURL{idx: int32(len(d.hashes)), pos: pos, loc: u.Loc})
		d.hashes = append(d.hashes, h)
		if len(d.pending) == setBatch {
			d.flushPending()
		}
	}

	if u.ChangeFreq != "" {
		d.countOnce(&d.changefreq, ChangefreqIgnored, "changefreq", "Google ignores <changefreq>")
	}
	if u.Priority != "" {
		d.countOnce(&d.priority, PriorityIgnored, "priority", "Google ignores <priority>")
	}
	if u.News != nil {
		d.checkNews(u.News)
	}
	if len(u.Alternates) > 0 {
		d.checkAlternates(u, d.r.Pos())
	}
}

// newsMaxAge is how old a news article may be: Google wants "articles that
// were created in the last two days".
const newsMaxAge = 48 * time.Hour

func (d *docCheck) checkNews(n *sitemap.News) {
	d.news++
	if d.news == sitemap.MaxNews+1 {
		d.add(TooManyNews, d.r.Pos(), fmt.Sprintf("more than %d URLs with <news:news> in one sitemap; split it", sitemap.MaxNews))
	}
	if n.PublicationDate == "" {
		return
	}
	t, err := sitemap.ParseDate(n.PublicationDate)
	if err != nil {
		return // reported by the value checks
	}
	if age := d.now.Sub(t); age > newsMaxAge && d.take(NewsTooOld) {
		d.report(NewsTooOld, d.fieldPos("news:publication_date", 0),
			fmt.Sprintf("article published %s is more than two days old; Google News wants only the last two days' articles", n.PublicationDate))
	}
}

// futureSlack is how far past the check's time a lastmod may be: a day,
// for a date written in a time zone ahead of the checker's.
const futureSlack = 24 * time.Hour

// checkFuture reports a lastmod later than the check's time (Checker.Now).
func (d *docCheck) checkFuture(lastmod string) {
	if lastmod == "" {
		return
	}
	// A year before the check's is in the past: most lastmods, which
	// must cost no second parse.
	if len(lastmod) >= 4 && lastmod[:4] < d.year {
		return
	}
	t, err := sitemap.ParseDate(lastmod)
	if err != nil {
		return // reported by the value checks
	}
	if t.Sub(d.now) > futureSlack && d.take(FutureLastmod) {
		d.report(FutureLastmod, d.fieldPos("lastmod", 0), fmt.Sprintf("lastmod %s is in the future (the check ran at %s)", lastmod, d.now.UTC().Format(time.RFC3339)))
	}
}

func (d *docCheck) checkAlternates(u *sitemap.URL, pos sitemap.Position) {
	self, xDefault := false, false
	for _, a := range u.Alternates {
		if a.Href == u.Loc {
			self = true
		}
		// Case does not matter in a language tag (RFC 5646 §2.1.1), and
		// invalid-hreflang takes "X-Default" as x-default too.
		if len(a.Hreflang) == len("x-default") && strings.EqualFold(a.Hreflang, "x-default") {
			xDefault = true
		}
	}
	if !self && d.take(HreflangMissingSelf) {
		d.report(HreflangMissingSelf, d.fieldPos("xhtml:link", 0), "hreflang alternates do not include the page itself ("+u.Loc+")")
	}
	if !xDefault && !d.again("x-default") {
		d.addOnce(HreflangMissingXDefault, "x-default", d.fieldPos("xhtml:link", 0), "URLs with hreflang alternates have no x-default alternate")
	}
}

// setBatch is how many URLs of a document are added to the set at once.
const setBatch = 512

// A pendingURL is a URL of a sitemap not yet added to the set.
type pendingURL struct {
	idx int32            // in docCheck.hashes
	pos sitemap.Position // its loc's; the offset alone (Line 0) until asked (see place)
	loc string
}

// place returns p's position. Only a duplicate's is asked for: counting
// each URL's lines as it is read was a tenth of validate's time. The
// Reader still holds the text of every pending URL: the pending are
// flushed before it lets go of any (discard).
func (d *docCheck) place(p *pendingURL) sitemap.Position {
	if p.pos.Line == 0 {
		p.pos = d.r.PosAt(p.pos.Offset)
	}
	return p.pos
}

// discard is the Reader's OnDiscard: the pending URLs are flushed, and
// their positions counted, while the Reader holds their text.
func (d *docCheck) discard() {
	d.flushPending()
	// The entry being read may lose the start of its text: its loc's
	// position is counted when it is returned (checkURL).
	d.discarded = true
}

// flushPending adds the pending URLs and links to the set, and reports
// those listed before, in this sitemap or another.
func (d *docCheck) flushPending() {
	if len(d.pending) == 0 {
		// Links alone (duplicates ignored, or none read): no table.
		if len(d.links) > 0 {
			d.c.mu.Lock()
			d.c.addLinks(d.links)
			d.c.mu.Unlock()
			d.links = d.links[:0]
		}
		return
	}
	hs := d.batch[:0]
	for _, p := range d.pending {
		hs = append(hs, d.hashes[p.idx])
	}
	fresh := slices.Grow(d.fresh[:0], len(hs))[:len(hs)]
	c := d.c
	c.mu.Lock()
	if c.urls == nil {
		// Room for all it will hold, at once: growing it a segment at a
		// time costs a tenth of the check. The memory is mapped, and
		// taken as it is written: a small set costs little of it.
		c.urls = publish.NewSeen()
		c.urls.Reserve(setMemURLs)
	}
	spilling := c.spill != nil || c.inSet+len(hs) > setMemURLs
	if !spilling {
		// The set's hashes are the Checker's (c.hash): a URL is hashed
		// once.
		c.urls.AddHashes(hs, fresh)
		for _, f := range fresh {
			if f {
				c.inSet++
			}
		}
		if c.inSet >= setPopulateURLs {
			// A set this large will likely come to touch every page
			// of its room: they are made resident at once, on
			// another goroutine, rather than faulted in one by one
			// here, under the lock.
			c.urls.Populate()
		}
	} else {
		if c.spill == nil {
			c.spill = &spill[dupRecord]{dir: c.TempDir, c: &dupCodec}
			// A Checker dropped without Finish must not leave its runs.
			runtime.AddCleanup(c, (*spill[dupRecord]).remove, c.spill)
		}
		for i, h := range hs {
			fresh[i] = !c.urls.HasHash(h)
		}
	}
	c.addLinks(d.links)
	c.mu.Unlock()
	var spilled []dupRecord
	for i := range d.pending {
		p := &d.pending[i]
		switch {
		case fresh[i] && spilling:
			// Whether it is listed again, here or in another sitemap, is
			// known at Finish.
			pos := d.place(p)
			spilled = append(spilled, dupRecord{h: hs[i], file: d.fileID, line: uint32(max(pos.Line, 0)), col: uint32(max(pos.Col, 0))})
		case fresh[i]:
		case !d.take(DuplicateURL):
		case d.listedBefore(int(p.idx)):
			d.report(DuplicateURL, d.place(p), "URL listed twice in this sitemap: "+p.loc)
		default:
			d.report(DuplicateURL, d.place(p), "URL already listed in another sitemap of this set: "+p.loc)
		}
	}
	if len(spilled) > 0 {
		c.mu.Lock()
		for _, r := range spilled {
			c.spill.add(r)
		}
		c.mu.Unlock()
	}
	clear(d.pending)
	d.pending, d.links, d.batch, d.fresh = d.pending[:0], d.links[:0], hs[:0], fresh[:0]
}

// listedBefore reports whether the loc at idx of this sitemap is one it
// listed before: asked only of a loc the set had (a duplicate, rare), so
// that a new loc costs this document nothing but its hash's place in
// hashes. The first few are looked for there; past them (a sitemap that
// lists much twice), an index of each hash's first place answers.
func (d *docCheck) listedBefore(idx int) bool {
	h := d.hashes[idx]
	if d.firstAt == nil {
		if d.dups++; d.dups <= 8 {
			return slices.Contains(d.hashes[:idx], h)
		}
		d.firstAt = make(map[uint64]int32, len(d.hashes))
	}
	for ; d.indexed < len(d.hashes); d.indexed++ {
		if _, ok := d.firstAt[d.hashes[d.indexed]]; !ok {
			d.firstAt[d.hashes[d.indexed]] = int32(d.indexed)
		}
	}
	return int(d.firstAt[h]) < idx
}

// finish reports the per-document findings that need the whole document.
func (d *docCheck) finish() {
	d.flushPending()
	if d.res.Bytes > sitemap.MaxBytes && !d.tooLarge {
		d.add(FileTooLarge, sitemap.Position{}, fmt.Sprintf("%d bytes uncompressed, more than the %d allowed", d.res.Bytes, sitemap.MaxBytes))
	}
	if d.res.Entries == 0 && !d.fatal {
		msg := "the sitemap lists no URL"
		if d.res.IsIndex() {
			msg = "the index lists no sitemap"
		}
		d.add(EmptySitemap, sitemap.Position{}, msg)
	}
	for _, k := range d.onceOrder {
		o := d.once[k]
		msg := o.msg
		if o.count > 1 {
			msg += fmt.Sprintf(" (%d times in this file)", o.count)
		}
		d.add(o.rule, o.pos, msg)
	}
	if d.res.IsIndex() {
		d.c.mu.Lock()
		d.c.indexFiles++
		nested := d.publicHash != 0 && d.c.indexChildren.has(d.publicHash)
		d.c.mu.Unlock()
		if nested {
			d.add(NestedIndex, sitemap.Position{}, "this index is listed by another index; Google does not read nested indexes")
		}
	}
}

// maxIndexFiles is how many index files Google accepts per site.
const maxIndexFiles = 500

// Finish reports the rules that need the whole set: hreflang links that are
// not returned, and too many index files. Call it once, after the last
// CheckDocument; it frees the set's memory.
func (c *Checker) Finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.indexFiles > maxIndexFiles {
		c.report(Diagnostic{Rule: TooManyIndexFiles.Name, Severity: TooManyIndexFiles.Severity,
			Message: fmt.Sprintf("%d index files; Google accepts at most %d per site", c.indexFiles, maxIndexFiles)})
	}
	c.reciprocity()
	c.spilledDuplicates()
	c.release()
	c.indexChildren, c.files, c.spare = hashSet{}, nil, nil
}

// release frees the duplicate table and removes the runs on disk: at
// Finish, or when the check is given up.
func (c *Checker) release() {
	if c.urls != nil {
		c.urls.Release()
	}
	if c.spill != nil {
		c.spill.remove()
	}
	if c.links != nil {
		c.links.remove()
	}
	c.urls, c.spill, c.links, c.inSet = nil, nil, nil, 0
}

// spilledDuplicates reports the URLs past the table listed twice or more:
// each but the first (in the order the sitemaps were checked), at its
// place, naming the first's. They are reported last, and not counted in
// their documents' DocResult.
func (c *Checker) spilledDuplicates() {
	if c.spill == nil {
		return
	}
	// A URL's records come together, in the order of their places: by
	// sitemap, and within one by line.
	var first, fileFirst dupRecord
	have := false
	for r := range c.spill.merged() {
		if !have || r.h != first.h {
			first, fileFirst, have = r, r, true
			continue
		}
		msg := fmt.Sprintf("URL listed twice in this sitemap, first at %d:%d", fileFirst.line, fileFirst.col)
		if r.file != fileFirst.file {
			msg = fmt.Sprintf("URL already listed in another sitemap of this set, first at %s:%d:%d", c.files[first.file], first.line, first.col)
			fileFirst = r
		}
		c.reportLate(Diagnostic{File: c.files[r.file], Line: int(r.line), Col: int(r.col), Rule: DuplicateURL.Name, Severity: DuplicateURL.Severity, Message: msg})
	}
	if err := c.spill.err; err != nil {
		c.report(Diagnostic{Rule: DuplicateURL.Name, Severity: Warning,
			Message: fmt.Sprintf("duplicates past the first %d URLs not checked: %v", setMemURLs, err)})
	}
}

// reportLate reports d, found at Finish, and counts it for its file (see
// CheckSite), as CheckDocument counts a document's findings in its
// DocResult.
func (c *Checker) reportLate(d Diagnostic) {
	if c.ignored(d.Rule) {
		return
	}
	c.report(d)
	if c.late == nil {
		c.late = map[string]*[3]int{}
	}
	n := c.late[d.File]
	if n == nil {
		n = new([3]int)
		c.late[d.File] = n
	}
	switch d.Severity {
	case Error:
		n[0]++
	case Warning:
		n[1]++
	default:
		n[2]++
	}
}
