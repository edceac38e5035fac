package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// copyTree copies the folder src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fileStates is each file of dir with its content and mtime.
type fileState struct {
	data  string
	mtime time.Time
}

func fileStates(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]fileState{}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = fileState{string(data), info.ModTime()}
	}
	return m
}

func sameStates(t *testing.T, what string, before, after map[string]fileState) {
	t.Helper()
	for name, b := range before {
		a, ok := after[name]
		switch {
		case !ok:
			t.Errorf("%s: %s was removed", what, name)
		case a.data != b.data:
			t.Errorf("%s: %s changed", what, name)
		case !a.mtime.Equal(b.mtime):
			t.Errorf("%s: %s was rewritten (mtime %v, was %v)", what, name, a.mtime, b.mtime)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s: %s appeared", what, name)
		}
	}
}

// lastmods returns each published URL's lastmod.
func lastmods(us []sitemap.URL) map[string]string {
	m := map[string]string{}
	for _, u := range us {
		m[u.Loc] = u.LastMod
	}
	return m
}

// TestKeepingLastmodTrue runs the example of the README's "Keeping lastmod
// true" as a user would: generate, generate again, the week's edits of
// examples/lastmod/edit.sh, generate. Exactly the edited, added and
// removed pages change, exactly their files are rewritten, the index
// changes only their lastmods, the feed lists exactly them, and a run
// without edits changes no byte and no mtime.
func TestKeepingLastmodTrue(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run edit.sh")
	}
	work := t.TempDir()
	copyTree(t, "../../examples/lastmod", work)
	cfg := filepath.Join(work, "sitemapkit.toml")
	out := filepath.Join(work, "out")
	const page = genBase + "blog/post-"

	t.Setenv("SOURCE_DATE_EPOCH", "1767225600") // 2026-01-01
	r := genRun(t, "", "generate", "--config", cfg)
	r.want(t, 0)
	first := genPublished(t, out, "sitemap.xml")
	if len(first) != 12 {
		t.Fatalf("first run: %d URLs, want 12", len(first))
	}
	for _, u := range first {
		if u.LastMod != "" {
			t.Errorf("first run: %s has lastmod %s; a page not seen to change has none", u.Loc, u.LastMod)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "feed.xml")); err == nil {
		t.Error("first run: a feed without a single date")
	}
	xsdtest.Check(t, out)

	time.Sleep(20 * time.Millisecond) // a rewrite would show in the mtimes
	before := fileStates(t, out)
	t.Setenv("SOURCE_DATE_EPOCH", "1767312000")
	r = genRun(t, "", "generate", "--config", cfg)
	r.want(t, 0)
	sameStates(t, "second run, no edit", before, fileStates(t, out))
	if !strings.Contains(r.stdout, "No change: nothing was written into") {
		t.Errorf("second run: the summary does not say nothing changed:\n%s", r.stdout)
	}

	edit := exec.Command("sh", filepath.Join(work, "edit.sh"), filepath.Join(work, "site"))
	if msg, err := edit.CombinedOutput(); err != nil {
		t.Fatalf("edit.sh: %v\n%s", err, msg)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1768464000") // 2026-01-15T08:00:00Z
	const changedAt = "2026-01-15T08:00:00+00:00"
	r = genRun(t, "", "generate", "--config", cfg)
	r.want(t, 0)
	after := fileStates(t, out)
	third := genPublished(t, out, "sitemap.xml")
	got := lastmods(third)
	want := map[string]string{page + "02.html": changedAt, page + "10.html": changedAt, page + "12.html": changedAt}
	if _, ok := got[page+"11.html"]; ok || len(got) != 12 {
		t.Errorf("third run: %d URLs, post 11 listed %v; want 12, post 11 gone", len(got), ok)
	}
	for loc, lm := range got {
		if lm != want[loc] {
			t.Errorf("third run: %s lastmod %q, want %q", loc, lm, want[loc])
		}
	}
	for _, s := range []string{"URLs: 1 added, 2 changed, 1 removed, 9 unchanged.", "Files: 2 written, 1 kept, 0 merged, 0 removed."} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("third run: the summary lacks %q:\n%s", s, r.stdout)
		}
	}
	// The files: 1 (post 02) and 3 (posts 10, 11, 12) rewritten, 2 (the
	// touched posts 05 and 06) as it was.
	var kept, rewritten []string
	for name, s := range after {
		if b, ok := before[name]; ok && b.data == s.data && b.mtime.Equal(s.mtime) {
			kept = append(kept, name)
		} else {
			rewritten = append(rewritten, name)
		}
	}
	slices.Sort(kept)
	slices.Sort(rewritten)
	if len(kept) != 1 || !strings.HasPrefix(kept[0], "sitemap-2-") {
		t.Errorf("kept %v, want file 2 alone", kept)
	}
	for _, prefix := range []string{".sitemapkit-manifest", "feed.xml", "sitemap-1-", "sitemap-3-", "sitemap.xml"} {
		if !slices.ContainsFunc(rewritten, func(n string) bool { return strings.HasPrefix(n, prefix) }) {
			t.Errorf("rewritten %v lacks %s…", rewritten, prefix)
		}
	}
	// The index: only the rewritten files' entries changed, dated now.
	oldIndex, newIndex := strings.Split(before["sitemap.xml"].data, "\n"), strings.Split(after["sitemap.xml"].data, "\n")
	for i := range newIndex {
		changed := i >= len(oldIndex) || oldIndex[i] != newIndex[i]
		dated := strings.Contains(newIndex[i], "<lastmod>"+changedAt+"</lastmod>")
		if changed != dated {
			t.Errorf("index line %d: changed %v, dated %v:\n%s", i+1, changed, dated, newIndex[i])
		}
	}
	// The feed, as an independent Atom parser reads it.
	fp := gofeed.NewParser()
	fd, err := os.Open(filepath.Join(out, "feed.xml"))
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := fp.Parse(fd)
	fd.Close()
	if err != nil {
		t.Fatalf("feed.xml: %v", err)
	}
	if parsed.FeedType != "atom" || parsed.FeedVersion != "1.0" {
		t.Errorf("feed: %s %s, want atom 1.0", parsed.FeedType, parsed.FeedVersion)
	}
	var links []string
	for _, it := range parsed.Items {
		links = append(links, it.Link)
		if it.UpdatedParsed == nil || it.UpdatedParsed.Unix() != 1768464000 {
			t.Errorf("feed: %s updated %v, want the run's time", it.Link, it.UpdatedParsed)
		}
	}
	if wantLinks := []string{page + "02.html", page + "10.html", page + "12.html"}; !slices.Equal(links, wantLinks) {
		t.Errorf("feed lists %v, want %v", links, wantLinks)
	}
	if !slices.ContainsFunc(parsed.Links, func(l string) bool { return l == genBase+"feed.xml" }) {
		t.Errorf("feed links %v, want its own URL", parsed.Links)
	}
	sets, _ := filepath.Glob(filepath.Join(out, "sitemap*"))
	xsdtest.Check(t, sets...)
	// Our own checker finds nothing to say of the folder: the feed lists
	// the sitemaps' latest URLs again, which is no duplicate.
	if v := genRun(t, "", "validate", out); v.code != 0 || !strings.Contains(v.stdout, "0 errors, 0 warnings") {
		t.Errorf("validate %s: exit %d\n%s%s", out, v.code, v.stdout, v.stderr)
	}

	// Fourth run, no edit: nothing moves, the feed included.
	time.Sleep(20 * time.Millisecond)
	t.Setenv("SOURCE_DATE_EPOCH", "1768550400")
	r = genRun(t, "", "generate", "--config", cfg)
	r.want(t, 0)
	sameStates(t, "fourth run, no edit", after, fileStates(t, out))
}

// TestDryRun: --dry-run says what a run would do, and writes nothing:
// neither into --out nor into the state.
func TestDryRun(t *testing.T) {
	work := t.TempDir()
	copyTree(t, "../../examples/lastmod", work)
	cfg := filepath.Join(work, "sitemapkit.toml")
	out := filepath.Join(work, "out")
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	if err := os.WriteFile(filepath.Join(work, "site", "blog", "post-03.html"), []byte("<main>rewritten</main>"), 0o644); err != nil {
		t.Fatal(err)
	}
	stateDir := filepath.Join(work, ".sitemapkit")
	outBefore, stateBefore := fileStates(t, out), fileStates(t, stateDir)
	r := genRun(t, "", "generate", "--config", cfg, "--dry-run")
	r.want(t, 0)
	for _, s := range []string{"Dry run: nothing was written. A run would publish 12 URLs in 4 files", "URLs: 0 added, 1 changed, 0 removed, 11 unchanged.", "Files: 1 written, 2 kept"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("--dry-run: the summary lacks %q:\n%s", s, r.stdout)
		}
	}
	sameStates(t, "--dry-run, out", outBefore, fileStates(t, out))
	sameStates(t, "--dry-run, state", stateBefore, fileStates(t, stateDir))
	// Without a state, into a folder that does not exist: none is made.
	fresh := filepath.Join(work, "new-out")
	r2 := genRun(t, "", "generate", "--base", genBase, "--out", fresh, "--dir", filepath.Join(work, "site"), "--dry-run")
	r2.want(t, 0)
	if _, err := os.Stat(fresh); err == nil || !strings.Contains(r2.stdout, "A run would publish 12 URLs") {
		t.Errorf("--dry-run without a state made %s (%v), or said:\n%s", fresh, err, r2.stdout)
	}
	// The real run does what the dry run said.
	r = genRun(t, "", "generate", "--config", cfg)
	r.want(t, 0)
	if !strings.Contains(r.stdout, "URLs: 0 added, 1 changed, 0 removed, 11 unchanged.") {
		t.Errorf("the run after the dry run:\n%s", r.stdout)
	}
}

// TestStateErrors: a state that cannot be used stops the run with a
// clear error and a way forward, before anything is published.
func TestStateErrors(t *testing.T) {
	work := t.TempDir()
	site := filepath.Join(work, "site")
	os.MkdirAll(site, 0o755)
	genWrite(t, site, "index.html", "<main>hi</main>")
	out := filepath.Join(work, "out")
	bad := genWrite(t, work, "state.db", strings.Repeat("not a database ", 100))
	r := genRun(t, "", "generate", "--base", genBase, "--out", out, "--dir", site, "--state", bad, "--lastmod", "content")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, bad) || !strings.Contains(r.stderr, "move it aside") {
		t.Errorf("damaged state: %s", r.stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a run with a damaged state created --out")
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", out, "--dir", site, "--lastmod", "content")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "needs state") {
		t.Errorf("--lastmod content without --state: %s", r.stderr)
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", out, "--dir", site, "--state", filepath.Join(out, "state.db"))
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "inside out") {
		t.Errorf("--state inside --out: %s", r.stderr)
	}
	// A state is its site's: the same site spelled otherwise is one, and
	// another site is refused, the published set left as it was.
	st := filepath.Join(work, "site.db")
	genRun(t, "", "generate", "--base", genBase, "--out", out, "--dir", site, "--state", st).want(t, exitOK)
	genRun(t, "", "generate", "--base", strings.ToUpper(strings.TrimSuffix(genBase, "/")), "--out", out, "--dir", site, "--state", st).want(t, exitOK)
	before, err := os.ReadFile(filepath.Join(out, "sitemap.xml"))
	if err != nil {
		t.Fatal(err)
	}
	r = genRun(t, "", "generate", "--base", "https://shop.example.org/", "--out", filepath.Join(work, "shop"), "--dir", site, "--state", st)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "another site") || !strings.Contains(r.stderr, genBase) || !strings.Contains(r.stderr, "state of its own") {
		t.Errorf("a state of another site: %s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "shop")); err == nil {
		t.Error("a refused run created its --out")
	}
	if after, err := os.ReadFile(filepath.Join(out, "sitemap.xml")); err != nil || string(after) != string(before) {
		t.Errorf("the site's published set changed (%v)", err)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "yesterday")
	r = genRun(t, "", "generate", "--base", genBase, "--out", out, "--dir", site, "--state", filepath.Join(work, "s.db"))
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "SOURCE_DATE_EPOCH") {
		t.Errorf("bad SOURCE_DATE_EPOCH: %s", r.stderr)
	}
}

// TestFailedPageKept: a page that cannot be read in a run (here, larger
// than a page may be) keeps its entry and lastmod, rather than vanishing
// from the set or looking changed; the summary says so.
func TestFailedPageKept(t *testing.T) {
	work := t.TempDir()
	site := filepath.Join(work, "site")
	os.MkdirAll(site, 0o755)
	for _, p := range []string{"a", "b", "c"} {
		genWrite(t, site, p+".html", "<main>page "+p+"</main>")
	}
	out := filepath.Join(work, "out")
	args := []string{"generate", "--base", genBase, "--out", out, "--dir", site, "--state", filepath.Join(work, "state.db"), "--lastmod", "content"}
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	genRun(t, "", args...).want(t, 0)
	b := genWrite(t, site, "b.html", "<main>page b, edited</main>")
	t.Setenv("SOURCE_DATE_EPOCH", "1767312000") // 2026-01-02
	genRun(t, "", args...).want(t, 0)
	const edited = "2026-01-02T00:00:00+00:00"
	if lm := lastmods(genPublished(t, out, "sitemap.xml"))[genBase+"b.html"]; lm != edited {
		t.Fatalf("b.html lastmod %q after its edit, want %q", lm, edited)
	}

	// b.html cannot be read this time.
	if err := os.WriteFile(b, []byte("<main>"+strings.Repeat("x", 17<<20)+"</main>"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1767398400")
	r := genRun(t, "", args...)
	r.want(t, exitInputErrors)
	got := lastmods(genPublished(t, out, "sitemap.xml"))
	if lm, ok := got[genBase+"b.html"]; !ok || lm != edited || len(got) != 3 {
		t.Errorf("after a failed read: b.html listed %v with lastmod %q (want %q), %d URLs", ok, lm, edited, len(got))
	}
	for _, s := range []string{"b.html", "Kept as they were, after a read error: 1 URL", "0 changed, 0 removed"} {
		if !strings.Contains(r.stdout+r.stderr, s) {
			t.Errorf("the run with a failed page does not say %q:\n%s\n%s", s, r.stdout, r.stderr)
		}
	}
	// Readable again, as it was: unchanged, its lastmod kept.
	genWrite(t, site, "b.html", "<main>page b, edited</main>")
	t.Setenv("SOURCE_DATE_EPOCH", "1767484800")
	r = genRun(t, "", args...)
	r.want(t, 0)
	if lm := lastmods(genPublished(t, out, "sitemap.xml"))[genBase+"b.html"]; lm != edited || !strings.Contains(r.stdout, "No change") {
		t.Errorf("b.html lastmod %q once readable again, want %q, and no change:\n%s", lm, edited, r.stdout)
	}
}

// TestContentHashColumn: with a content_hash column, the hash is the
// export's word on change: a lastmod that moves while the hash does not
// is not a change; a new hash is, dated by the run. Without one, the
// row's fields are the fingerprint, lastmod included.
func TestContentHashColumn(t *testing.T) {
	work := t.TempDir()
	out := filepath.Join(work, "out")
	args := func(in string) []string {
		return []string{"generate", "--base", genBase, "--out", out, "--state", filepath.Join(work, "state.db"), "--lastmod", "content", in}
	}
	csv := func(rows string) string { return genWrite(t, work, "pages.csv", "loc,lastmod,content_hash\n"+rows) }
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	genRun(t, "", args(csv(genBase+"a,2024-01-01,h1\n"+genBase+"b,2024-01-01,h2\n"))...).want(t, 0)

	// The export rewrote every lastmod; only b's hash changed.
	t.Setenv("SOURCE_DATE_EPOCH", "1767312000")
	r := genRun(t, "", args(csv(genBase+"a,2025-06-01,h1\n"+genBase+"b,2025-06-01,h3\n"))...)
	r.want(t, 0)
	got := lastmods(genPublished(t, out, "sitemap.xml"))
	if got[genBase+"a"] != "2024-01-01" || got[genBase+"b"] != "2026-01-02T00:00:00+00:00" {
		t.Errorf("lastmods %v: a keeps 2024-01-01 (same hash), b the run's time (new hash)", got)
	}
	if !strings.Contains(r.stdout, "0 added, 1 changed, 0 removed, 1 unchanged") {
		t.Errorf("summary:\n%s", r.stdout)
	}

	// A URL listed twice is one URL, in one file; the summary counts the
	// duplicate, as without a state.
	r = genRun(t, "", args(csv(genBase+"a,2025-06-01,h1\n"+genBase+"b,2025-06-01,h3\n"+genBase+"a,2025-06-01,h9\n"))...)
	r.want(t, 0)
	if !strings.Contains(r.stdout, "Duplicates dropped: 1") || !strings.Contains(r.stdout, "0 changed") || len(genPublished(t, out, "sitemap.xml")) != 2 {
		t.Errorf("a duplicate with a state:\n%s", r.stdout)
	}
	r = genRun(t, "", append(args(csv(genBase+"a,2025-06-01,h1\n")), "--no-dedupe")...)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "--no-dedupe") {
		t.Errorf("--no-dedupe with --state: %s", r.stderr)
	}
}

// TestPartialReadRemovesNothing: when a read fails without naming its URL
// (here a broken symbolic link: a folder entry that cannot be read), the
// URLs no source gave may be among its, so none is removed that run; the
// next run that reads everything removes them.
func TestPartialReadRemovesNothing(t *testing.T) {
	work := t.TempDir()
	site := filepath.Join(work, "site")
	os.MkdirAll(site, 0o755)
	for _, p := range []string{"a", "b", "c"} {
		genWrite(t, site, p+".html", "<main>page "+p+"</main>")
	}
	out := filepath.Join(work, "out")
	args := []string{"generate", "--base", genBase, "--out", out, "--dir", site, "--state", filepath.Join(work, "state.db"), "--lastmod", "content"}
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	genRun(t, "", args...).want(t, 0)

	os.Remove(filepath.Join(site, "b.html"))
	if err := os.Symlink(filepath.Join(work, "missing"), filepath.Join(site, "d.html")); err != nil {
		t.Skip("no symbolic links here")
	}
	r := genRun(t, "", args...)
	r.want(t, exitInputErrors)
	if got := lastmods(genPublished(t, out, "sitemap.xml")); len(got) != 3 {
		t.Errorf("after a partial read: %d URLs, want the 3 of the last run kept", len(got))
	}
	if !strings.Contains(r.stdout, "no URL was removed") || !strings.Contains(r.stdout, "0 removed") {
		t.Errorf("a partial read does not say it removed nothing:\n%s", r.stdout)
	}

	os.Remove(filepath.Join(site, "d.html"))
	r = genRun(t, "", args...)
	r.want(t, 0)
	if got := lastmods(genPublished(t, out, "sitemap.xml")); len(got) != 2 || !strings.Contains(r.stdout, "1 removed") {
		t.Errorf("the next full read: %d URLs (want 2)\n%s", len(got), r.stdout)
	}
}

// TestFeedNameTaken: a set named "feed" is published as feed.xml, the
// name of the feed; with --feed, the feed then overwrote the sitemap (the
// file to submit was an Atom feed) and the next run the sitemap the feed,
// each run rewriting both. The two names must not meet.
func TestFeedNameTaken(t *testing.T) {
	work := t.TempDir()
	site := filepath.Join(work, "site")
	os.MkdirAll(site, 0o755)
	genWrite(t, site, "index.html", "<main>hi</main>")
	out := filepath.Join(work, "out")
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	r := genRun(t, "", "generate", "--base", genBase, "--out", out, "--dir", site, "--name", "feed",
		"--state", filepath.Join(work, "s.db"), "--lastmod", "content", "--feed")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "feed.xml") {
		t.Errorf("--name feed --feed: %s", r.stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused run created --out")
	}
}
