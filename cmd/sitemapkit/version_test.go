package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"modernc.org/sqlite"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/lint"
)

func TestVersionOf(t *testing.T) {
	for _, c := range []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.4.2"}}, "v1.4.2"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, "devel-0123456789ab+dirty"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "devel-abc"},
		{debug.BuildInfo{}, "devel"},
	} {
		if got := versionOf(&c.info); got != c.want {
			t.Errorf("%+v: %q, want %q", c.info.Main, got, c.want)
		}
	}
}

// TestRootCommand: the version, the help without a command (a usage
// error), and an unknown command with the nearest one to try.
func TestRootCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		r := genRun(t, "", args...)
		r.want(t, 0)
		if r.stdout != "sitemapkit "+version()+"\n" {
			t.Errorf("%v: %q", args, r.stdout)
		}
	}
	r := genRun(t, "")
	r.want(t, exitUsage)
	if !strings.Contains(r.stdout, "Available Commands:") || !strings.Contains(r.stdout, "submit") {
		t.Errorf("no command: no help on stdout:\n%s", r.stdout)
	}
	r = genRun(t, "", "validat", "x.xml")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, `unknown command "validat"`) || !strings.Contains(r.stderr, "Try: sitemapkit validate") {
		t.Errorf("unknown command: %s", r.stderr)
	}
}

// TestFormatNotes: --format txt says what it leaves out; --gzip on a set
// of one file says why that file is plain.
func TestFormatNotes(t *testing.T) {
	dir := t.TempDir()
	in := genWrite(t, dir, "u.csv", "loc,lastmod\n"+genBase+"a,2024-01-01\n")
	r := genRun(t, "", "generate", "--base", genBase, "--out", dir+"/txt", "--format", "txt", in)
	r.want(t, 0)
	if !strings.Contains(r.stdout, "Text sitemaps hold URLs only") {
		t.Errorf("--format txt:\n%s", r.stdout)
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", dir+"/gz", "--gzip", in)
	r.want(t, 0)
	if !strings.Contains(r.stdout, "Not gzipped: the set fits in one file, sitemap.xml") {
		t.Errorf("--gzip with one file:\n%s", r.stdout)
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", dir+"/gz2", "--gzip", "--index", "always", in)
	r.want(t, 0)
	if strings.Contains(r.stdout, "Not gzipped") {
		t.Errorf("--gzip with an index:\n%s", r.stdout)
	}
}

// TestPlainErrors: an --out that is a file, a missing input, and --strict
// with a refused line are worded as what went wrong, and --strict makes no
// folder and does not say the line was left out of a set it did not
// publish.
func TestPlainErrors(t *testing.T) {
	dir := t.TempDir()
	in := genWrite(t, dir, "u.txt", genBase+"a\nhttps://other.example/b\n")
	afile := genWrite(t, dir, "afile", "x")
	r := genRun(t, "", "generate", "--base", genBase, "--out", afile, in)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, afile+" is a file, not a folder") || strings.Contains(r.stderr, "mkdir") {
		t.Errorf("--out a file: %s", r.stderr)
	}
	if fi, err := os.Stat("/proc/self"); err == nil && fi.IsDir() {
		// A folder that cannot be made: where, and the OS's reason,
		// without its system call.
		r = genRun(t, "", "generate", "--base", genBase, "--out", "/proc/sitemapkit-out", in)
		r.want(t, exitUsage)
		if !strings.Contains(r.stderr, "/proc/sitemapkit-out cannot be created or written: ") || strings.Contains(r.stderr, "mkdir") {
			t.Errorf("--out a folder that cannot be made: %s", r.stderr)
		}
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", dir+"/out", dir+"/missing.txt")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "missing.txt: no such file or folder") || strings.Contains(r.stderr, "stat ") {
		t.Errorf("a missing input: %s", r.stderr)
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", dir+"/strict", "--strict", in)
	r.want(t, exitInputErrors)
	if strings.Contains(r.stderr, "left out of the set") || !strings.Contains(r.stderr, "nothing was published") {
		t.Errorf("--strict: %s", r.stderr)
	}
	if _, err := os.Stat(dir + "/strict"); err == nil {
		t.Error("--strict with a refused line made --out")
	}
}

// TestDatabaseTimestamps: a SQLite table filled with CURRENT_TIMESTAMP
// (text "2024-05-02 10:00:00", no zone) publishes its dates, read in
// --timezone (UTC by default), and the summary says so.
func TestDatabaseTimestamps(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "shop.db")
	c, err := sqlite.NewConnector("file:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	if _, err := db.Exec(`CREATE TABLE pages(url TEXT, updated TEXT);
		INSERT INTO pages VALUES ('https://www.example.com/a', '2024-05-02 10:00:00'), ('https://www.example.com/b', '2024-05-02 10:00:00+02');`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, tc := range []struct {
		zone, a string
	}{{"", "2024-05-02T10:00:00+00:00"}, {"Europe/Berlin", "2024-05-02T10:00:00+02:00"}} {
		out := filepath.Join(dir, "out"+tc.zone[:min(len(tc.zone), 6)])
		args := []string{"generate", "--base", genBase, "--out", out, "--sql-driver", "sqlite", "--sql-dsn", dbPath,
			"--sql-query", "SELECT url AS loc, updated AS lastmod FROM pages ORDER BY url"}
		if tc.zone != "" {
			args = append(args, "--timezone", tc.zone)
		}
		r := genRun(t, "", args...)
		r.want(t, 0)
		got := lastmods(genPublished(t, out, "sitemap.xml"))
		if got[genBase+"a"] != tc.a || got[genBase+"b"] != "2024-05-02T10:00:00+02:00" {
			t.Errorf("--timezone %q: lastmods %v", tc.zone, got)
		}
		want := "1 without a zone read as UTC"
		if tc.zone != "" {
			want = "1 without a zone read as " + tc.zone
		}
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--timezone %q: the summary does not say %q:\n%s", tc.zone, want, r.stdout)
		}
	}
	r := genRun(t, "", "generate", "--base", genBase, "--out", filepath.Join(dir, "x"), "--timezone", "Mars/Olympus", genWrite(t, dir, "u.txt", genBase+"\n"))
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "--timezone") || !strings.Contains(r.stderr, "IANA") {
		t.Errorf("a bad zone: %s", r.stderr)
	}
}

// TestCompletion: the shell completion offers the values of the flags
// that take a few.
func TestCompletion(t *testing.T) {
	for args, want := range map[string]string{
		"generate --index":   "auto always never",
		"generate --lastmod": "auto git mtime none content",
		"generate --format":  "xml txt json",
		"validate --format":  "text json github sarif",
		"read --format":      "jsonl csv text",
		"submit --indexnow":  "on off",
	} {
		r := genRun(t, "", append(append([]string{"__complete"}, strings.Fields(args)...), "")...)
		var got []string
		for line := range strings.Lines(r.stdout) {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, ":") {
				got = append(got, line)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: completes %q, want %q", args, got, want)
		}
	}
}

// TestHelpTopics: the rule table and the config's keys are in the binary,
// for a user without the repository's docs.
func TestHelpTopics(t *testing.T) {
	for _, args := range [][]string{{"help", "rules"}, {"validate", "--list-rules"}} {
		r := genRun(t, "", args...)
		r.want(t, 0)
		for _, rule := range lint.Rules() {
			if !strings.Contains(r.stdout, rule.Name) {
				t.Errorf("%v lacks the rule %s", args, rule.Name)
			}
		}
	}
	r := genRun(t, "", "help", "config")
	r.want(t, 0)
	for _, key := range []string{"base = ", "state = ", "timezone = ", "[submit]", "[filter]"} {
		if !strings.Contains(r.stdout, key) {
			t.Errorf("help config lacks %q", key)
		}
	}
}

// TestDirSaysWhatItLeftOut: --dir counts the pages and folders it left
// out, by reason.
func TestDirSaysWhatItLeftOut(t *testing.T) {
	site := t.TempDir()
	os.MkdirAll(filepath.Join(site, "drafts"), 0o755)
	genWrite(t, site, "index.html", "<main>home</main>")
	genWrite(t, site, "404.html", "<main>not found</main>")
	genWrite(t, site, "secret.html", `<head><meta name="robots" content="noindex"></head><main>x</main>`)
	genWrite(t, site, "print.html", `<head><link rel="canonical" href="/"></head><main>home</main>`)
	genWrite(t, filepath.Join(site, "drafts"), "a.html", "<main>draft</main>")
	r := genRun(t, "", "generate", "--base", genBase, "--out", t.TempDir(), "--dir", site, "--exclude-files", "drafts")
	r.want(t, 0)
	if want := site + ": 4 pages or folders left out (canonical elsewhere 1, error page 1, excluded 1, noindex 1)."; !strings.Contains(r.stdout, want) {
		t.Errorf("summary lacks %q:\n%s", want, r.stdout)
	}
}

// TestValidateForCI: --format github writes workflow annotations, --ignore
// leaves a rule out (and names a misspelt one), --fail-on warning fails on
// a warning, -q prints the errors alone.
func TestValidateForCI(t *testing.T) {
	dir := t.TempDir()
	p := genWrite(t, dir, "sitemap.xml", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc><lastmod>yesterday</lastmod></url>
<url><loc>https://www.example.com/a</loc></url>
</urlset>`)
	r := genRun(t, "", "validate", "--format", "github", p)
	r.want(t, exitInputErrors)
	want := "::error file=" + ghProperty(p) + ",line=3,col="
	if !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, ",title=invalid-date::") || !strings.Contains(r.stdout, "::warning file=") {
		t.Errorf("--format github:\n%s", r.stdout)
	}
	r = genRun(t, "", "validate", "--ignore", "invalid-date", p)
	r.want(t, 0)
	if strings.Contains(r.stdout, "invalid-date") || !strings.Contains(r.stdout, "duplicate-url") {
		t.Errorf("--ignore invalid-date:\n%s", r.stdout)
	}
	r = genRun(t, "", "validate", "--ignore", "invalid-date", "--fail-on", "warning", p)
	r.want(t, exitInputErrors)
	r = genRun(t, "", "validate", "--ignore", "invalid-dat", p)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, `did you mean "invalid-date"`) {
		t.Errorf("a misspelt rule: %s", r.stderr)
	}
	r = genRun(t, "", "validate", "-q", p)
	r.want(t, exitInputErrors)
	if strings.Contains(r.stdout, "duplicate-url") || !strings.Contains(r.stdout, "invalid-date") || strings.Contains(r.stdout, "1 file") {
		t.Errorf("-q:\n%s", r.stdout)
	}
}

// TestReadResolvesRelative: read --base resolves the relative locs of a
// sitemap, as generate does its inputs'.
func TestReadResolvesRelative(t *testing.T) {
	dir := t.TempDir()
	p := genWrite(t, dir, "sitemap.xml", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>/about/</loc></url>
<url><loc>https://www.example.com/x</loc></url>
</urlset>`)
	r := genRun(t, "", "read", "--format", "text", "--base", genBase, p)
	r.want(t, 0)
	if r.stdout != genBase+"about/\n"+genBase+"x\n" || !strings.Contains(r.stderr, "1 relative URL resolved against --base") {
		t.Errorf("read --base:\n%s\n%s", r.stdout, r.stderr)
	}
}

// TestLatin1Input: a line that is not UTF-8 (a Latin-1 "café") is refused
// with its place and what to do, rather than published as caf%E9.
func TestLatin1Input(t *testing.T) {
	dir := t.TempDir()
	in := genWrite(t, dir, "u.txt", genBase+"a\n"+genBase+"caf\xe9\n")
	r := genRun(t, "", "generate", "--base", genBase, "--out", filepath.Join(dir, "out"), in)
	r.want(t, exitInputErrors)
	if !strings.Contains(r.stdout+r.stderr, in+":2:") || !strings.Contains(r.stdout+r.stderr, "not UTF-8: byte 0xE9") || !strings.Contains(r.stdout+r.stderr, "iconv") {
		t.Errorf("a Latin-1 line:\n%s\n%s", r.stdout, r.stderr)
	}
	if got := genLocs(genPublished(t, filepath.Join(dir, "out"), "sitemap.xml")); len(got) != 1 || got[0] != genBase+"a" {
		t.Errorf("published %v", got)
	}
}

// TestInputAndURLEncoding: --input-encoding reads a legacy file (gzipped
// CSV) converted to UTF-8, and the URL is
// encoded as UTF-8; --url-encoding latin1 encodes it as ISO-8859-1 bytes
// instead, sitemaps.org's other spelling, refusing what ISO-8859-1 lacks;
// the config file's keys do the same.
func TestInputAndURLEncoding(t *testing.T) {
	dir := t.TempDir()
	csv := genWrite(t, dir, "u.csv.gz", genGzip(t, "loc,priority\n\""+genBase+"caf\xe9\",0.5\n"+genBase+"\x80uro,0.5\n"))
	for _, tc := range []struct {
		args []string
		want []string
		code int
	}{
		{[]string{"--input-encoding", "latin1"}, []string{genBase + "caf%C3%A9", genBase + "%C2%80uro"}, 0},
		{[]string{"--input-encoding", "windows-1252"}, []string{genBase + "caf%C3%A9", genBase + "%E2%82%ACuro"}, 0},
		{[]string{"--input-encoding", "windows-1252", "--url-encoding", "latin1"}, []string{genBase + "caf%E9"}, exitInputErrors},
	} {
		out := filepath.Join(t.TempDir(), "out")
		r := genRun(t, "", append([]string{"generate", "--base", genBase, "--out", out, csv}, tc.args...)...)
		r.want(t, tc.code)
		if got := genLocs(genPublished(t, out, "sitemap.xml")); !slices.Equal(got, tc.want) {
			t.Errorf("%v: published %v, want %v", tc.args, got, tc.want)
		}
		xsdtest.Check(t, out)
		if tc.code != 0 && !strings.Contains(r.stdout, "u.csv.gz:3: loc: has '€' (U+20AC), which ISO-8859-1 URLs cannot hold") {
			t.Errorf("%v: the euro sign's refusal:\n%s", tc.args, r.stdout)
		}
	}

	cfg := genWrite(t, dir, "sitemapkit.toml", "base = \""+genBase+"\"\nout = \"out\"\nurl_encoding = \"latin1\"\n"+
		"[[source]]\ntype = \"files\"\npaths = [\"l.txt\"]\nencoding = \"latin1\"\n")
	genWrite(t, dir, "l.txt", genBase+"\xfcmlat.php&q=name\n")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	if got := genLocs(genPublished(t, filepath.Join(dir, "out"), "sitemap.xml")); !slices.Equal(got, []string{genBase + "%FCmlat.php&q=name"}) {
		t.Errorf("config keys: published %v", got)
	}
	// --input-encoding reads the config file's files sources that name
	// no encoding too.
	cfg2 := genWrite(t, dir, "s2.toml", "base = \""+genBase+"\"\nout = \"out2\"\n[[source]]\ntype = \"files\"\npaths = [\"l.txt\"]\n")
	genRun(t, "", "generate", "--config", cfg2, "--input-encoding", "ISO-8859-1").want(t, 0)
	if got := genLocs(genPublished(t, filepath.Join(dir, "out2"), "sitemap.xml")); !slices.Equal(got, []string{genBase + "%C3%BCmlat.php&q=name"}) {
		t.Errorf("--input-encoding with a config file: published %v", got)
	}
	r := genRun(t, "", "generate", "--base", genBase, "--out", t.TempDir(), "--input-encoding", "ebcdic", csv)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, `unknown encoding "ebcdic" (want utf-8, latin1 or windows-1252)`) {
		t.Errorf("--input-encoding ebcdic: %s", r.stderr)
	}
}
