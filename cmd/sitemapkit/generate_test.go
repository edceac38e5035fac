package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

const genBase = "https://www.example.com/"

// genResult is what one in-process run of the command did.
type genResult struct {
	code           int
	stdout, stderr string
}

func genRun(t *testing.T, stdin string, args ...string) genResult {
	t.Helper()
	return genRunCtx(t, context.Background(), stdin, args...)
}

func genRunCtx(t *testing.T, ctx context.Context, stdin string, args ...string) genResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(ctx, args, strings.NewReader(stdin), &out, &errb)
	return genResult{code, out.String(), errb.String()}
}

func (r genResult) want(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
		t.Fatalf("stack trace on stderr:\n%s", r.stderr)
	}
}

func genWrite(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func genGzip(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// genPublished reads the set in dir the way a crawler does, from the file to
// submit down through its index, and returns every URL in order. It fails t
// if an index names a file that is missing or cannot be read to its end.
func genPublished(t *testing.T, dir, submit string) []sitemap.URL {
	t.Helper()
	var urls []sitemap.URL
	var walk func(name string, depth int)
	walk = func(name string, depth int) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("the set names %s: %v", name, err)
		}
		defer f.Close()
		r := sitemap.NewReader(f)
		for {
			u, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if r.Format() == sitemap.FormatIndex {
				if depth > 0 {
					t.Fatalf("%s: nested index", name)
				}
				walk(path.Base(u.Loc), depth+1)
				continue
			}
			urls = append(urls, *u)
		}
	}
	walk(submit, 0)
	return urls
}

func genLocs(us []sitemap.URL) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Loc)
	}
	return out
}

func genExamples(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, filepath.Join("..", "..", "examples", n))
	}
	return out
}

func TestGenerateExamples(t *testing.T) {
	dir := t.TempDir()
	r := genRun(t, "", append([]string{"generate", "--base", genBase, "--out", dir},
		genExamples("urls.txt", "products.csv", "posts.jsonl")...)...)
	r.want(t, exitOK)
	urls := genPublished(t, dir, "sitemap.xml")
	if len(urls) != 14 {
		t.Fatalf("%d URLs published, want 14:\n%s", len(urls), strings.Join(genLocs(urls), "\n"))
	}
	// Every field of every format arrives: spot one from each.
	if urls[3].Loc != "https://www.example.com/%C3%BCmlaut.html" {
		t.Errorf("IRI written as %q", urls[3].Loc)
	}
	if p := urls[5]; len(p.Images) != 2 || len(p.Alternates) != 3 || p.Alternates[1].Hreflang != "de-DE" || p.LastMod != "2024-05-01" {
		t.Errorf("CSV row published as %+v", p)
	}
	if v := urls[12]; len(v.Videos) != 1 || v.Videos[0].Duration != "600" || v.Videos[0].Uploader == nil {
		t.Errorf("JSONL video published as %+v", v)
	}
	if n := urls[13]; n.News == nil || n.News.Publication.Name != "Example Coffee News" {
		t.Errorf("JSONL news published as %+v", n)
	}
	for _, want := range []string{"Published 14 URLs in 1 file", "sitemap.xml", "Submit: https://www.example.com/sitemap.xml", "Duplicates dropped: 0"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
	xsdtest.Check(t, dir)
}

func TestGenerateStdin(t *testing.T) {
	txt := "https://www.example.com/a\n# comment\n\nhttps://www.example.com/b\r\n"
	jsonl := `{"loc":"https://www.example.com/j","priority":0.5}` + "\n"
	csv := "loc,lastmod\nhttps://www.example.com/c,2024-01-02\n"
	for name, tc := range map[string]struct {
		stdin string
		flags []string
		want  []string
	}{
		"text":                {txt, nil, []string{"https://www.example.com/a", "https://www.example.com/b"}},
		"jsonl guessed":       {jsonl, nil, []string{"https://www.example.com/j"}},
		"csv guessed":         {csv, nil, []string{"https://www.example.com/c"}},
		"gzipped csv":         {genGzip(t, csv), nil, []string{"https://www.example.com/c"}},
		"--input-format text": {"https://www.example.com/t\n", []string{"--input-format", "txt"}, []string{"https://www.example.com/t"}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"generate", "--base", genBase, "--out", dir}, tc.flags...)
			genRun(t, tc.stdin, append(args, "-")...).want(t, exitOK)
			if got := genLocs(genPublished(t, dir, "sitemap.xml")); !slices.Equal(got, tc.want) {
				t.Errorf("published %q, want %q", got, tc.want)
			}
		})
	}
}

func TestGenerateGzippedAndNamedInputs(t *testing.T) {
	in := t.TempDir()
	a := genWrite(t, in, "a.txt.gz", genGzip(t, "https://www.example.com/a\n"))
	b := genWrite(t, in, "b.csv.gz", genGzip(t, "loc,image\nhttps://www.example.com/b,https://www.example.com/b.jpg\n"))
	c := genWrite(t, in, "c.jsonl.gz", genGzip(t, `{"loc":"https://www.example.com/c"}`+"\n"))
	d := genWrite(t, in, "d.list", "https://www.example.com/d\n")
	dir := t.TempDir()
	genRun(t, "", "generate", "--base", genBase, "--out", dir, a, b, c).want(t, exitOK)
	urls := genPublished(t, dir, "sitemap.xml")
	if got := genLocs(urls); !slices.Equal(got, []string{"https://www.example.com/a", "https://www.example.com/b", "https://www.example.com/c"}) || len(urls[1].Images) != 1 {
		t.Errorf("published %+v", urls)
	}
	// An unknown extension needs --input-format.
	r := genRun(t, "", "generate", "--base", genBase, "--out", dir, d)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "d.list") || !strings.Contains(r.stderr, "Try: sitemapkit generate --input-format") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	genRun(t, "", "generate", "--base", genBase, "--out", dir, "--input-format", "txt", d).want(t, exitOK)
	if got := genLocs(genPublished(t, dir, "sitemap.xml")); !slices.Equal(got, []string{"https://www.example.com/d"}) {
		t.Errorf("published %q", got)
	}
}

// genNumbered returns n URLs under genBase+prefix, one per line.
func genNumbered(n int, prefix string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s%s/%d\n", genBase, prefix, i)
	}
	return b.String()
}

func TestGenerateFlags(t *testing.T) {
	in := t.TempDir()
	ten := genWrite(t, in, "ten.txt", genNumbered(10, "p"))
	t.Run("--gzip --max-urls: an index over gzipped children", func(t *testing.T) {
		dir := t.TempDir()
		r := genRun(t, "", "generate", "--base", genBase, "--out", dir, "--gzip", "--max-urls", "4", ten)
		r.want(t, exitOK)
		if got := genPublished(t, dir, "sitemap.xml"); len(got) != 10 {
			t.Fatalf("%d URLs", len(got))
		}
		gz, _ := filepath.Glob(filepath.Join(dir, "sitemap-*.xml.gz"))
		if len(gz) != 3 {
			t.Errorf("children %q, want 3 .xml.gz", gz)
		}
		if !strings.Contains(r.stdout, "sitemap.xml (index)") || !strings.Contains(r.stdout, "Published 10 URLs in 4 files") {
			t.Errorf("summary:\n%s", r.stdout)
		}
		xsdtest.Check(t, dir)
	})
	t.Run("--max-bytes", func(t *testing.T) {
		dir := t.TempDir()
		genRun(t, "", "generate", "--base", genBase, "--out", dir, "--max-bytes", "600", ten).want(t, exitOK)
		children, _ := filepath.Glob(filepath.Join(dir, "sitemap-*.xml"))
		if len(children) < 2 {
			t.Fatalf("children %q: 10 URLs should not fit in 600 bytes", children)
		}
		for _, c := range children {
			if st, _ := os.Stat(c); st.Size() > 600 {
				t.Errorf("%s is %d bytes, over --max-bytes", c, st.Size())
			}
		}
		if got := genPublished(t, dir, "sitemap.xml"); len(got) != 10 {
			t.Errorf("%d URLs", len(got))
		}
	})
	t.Run("--index always", func(t *testing.T) {
		dir := t.TempDir()
		genRun(t, "", "generate", "--base", genBase, "--out", dir, "--index", "always", ten).want(t, exitOK)
		f, _ := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
		if !bytes.Contains(f, []byte("<sitemapindex")) {
			t.Errorf("sitemap.xml is not an index:\n%s", f)
		}
		xsdtest.Check(t, dir)
	})
	t.Run("--index never fails when one file is not enough", func(t *testing.T) {
		dir := t.TempDir()
		r := genRun(t, "", "generate", "--base", genBase, "--out", dir, "--index", "never", "--max-urls", "4", ten)
		r.want(t, exitInputErrors)
		if !strings.Contains(r.stderr, "nothing was published") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
		if names := genListSet(t, dir); len(names) != 0 {
			t.Errorf("files genPublished: %q", names)
		}
	})
	t.Run("--format txt", func(t *testing.T) {
		dir := t.TempDir()
		genRun(t, "", "generate", "--base", genBase, "--out", dir, "--format", "txt", ten).want(t, exitOK)
		b, err := os.ReadFile(filepath.Join(dir, "sitemap.txt"))
		if err != nil || strings.Count(string(b), "\n") != 10 || !strings.HasPrefix(string(b), genBase+"p/0\n") {
			t.Errorf("sitemap.txt: %q, %v", b, err)
		}
	})
	t.Run("--public-url scopes the URLs", func(t *testing.T) {
		dir := t.TempDir()
		r := genRun(t, "", "generate", "--base", genBase, "--out", dir, "--public-url", "https://www.example.com/sitemaps/", ten)
		r.want(t, exitInputErrors)
		// URLs outside /sitemaps/ are out of the public URL's scope: none is left.
		if !strings.Contains(r.stderr, "url-outside-directory: 10") || !strings.Contains(r.stderr, "no URL to publish") {
			t.Fatalf("stderr:\n%s", r.stderr)
		}
	})
	t.Run("--public-url places the index's locs", func(t *testing.T) {
		dir := t.TempDir()
		in := genWrite(t, t.TempDir(), "s.txt", genNumbered(6, "sitemaps"))
		r := genRun(t, "", "generate", "--base", genBase, "--out", dir, "--name", "products", "--max-urls", "5",
			"--public-url", "https://www.example.com/sitemaps/", in)
		r.want(t, exitOK)
		idx, _ := os.ReadFile(filepath.Join(dir, "products.xml"))
		if !bytes.Contains(idx, []byte("<loc>https://www.example.com/sitemaps/products-1-")) {
			t.Errorf("products.xml:\n%s", idx)
		}
		if !strings.Contains(r.stdout, "Submit: https://www.example.com/sitemaps/products.xml") {
			t.Errorf("summary:\n%s", r.stdout)
		}
		if got := genPublished(t, dir, "products.xml"); len(got) != 6 {
			t.Errorf("%d URLs", len(got))
		}
	})
	t.Run("dedupe and --no-dedupe", func(t *testing.T) {
		twice := genWrite(t, in, "twice.txt", genNumbered(3, "d")+genNumbered(3, "d"))
		dir := t.TempDir()
		r := genRun(t, "", "generate", "--base", genBase, "--out", dir, twice)
		r.want(t, exitOK)
		if got := genPublished(t, dir, "sitemap.xml"); len(got) != 3 || !strings.Contains(r.stdout, "Duplicates dropped: 3") {
			t.Errorf("%d URLs; summary:\n%s", len(got), r.stdout)
		}
		genRun(t, "", "generate", "--base", genBase, "--out", dir, "--no-dedupe", twice).want(t, exitOK)
		if got := genPublished(t, dir, "sitemap.xml"); len(got) != 6 {
			t.Errorf("--no-dedupe: %d URLs, want 6", len(got))
		}
	})
	t.Run("--quiet", func(t *testing.T) {
		dir := t.TempDir()
		r := genRun(t, "", "generate", "-q", "--base", genBase, "--out", dir, ten)
		r.want(t, exitOK)
		if r.stdout != "" || r.stderr != "" {
			t.Errorf("-q printed %q %q", r.stdout, r.stderr)
		}
	})
}

// genListSet returns the names in dir that are not hidden.
func genListSet(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

const genBadInput = `https://www.example.com/ok1
https://other.example.org/x
https://www.example.com/ok2
/relative
`

func TestGenerateRefusals(t *testing.T) {
	in := t.TempDir()
	txt := genWrite(t, in, "urls.txt", genBadInput)
	csv := genWrite(t, in, "p.csv", "loc,lastmod,priority\nhttps://www.example.com/c1,2024-13-01,0.5\nhttps://www.example.com/c2,2024-01-01\nhttps://www.example.com/c3,,2\nhttps://www.example.com/c4,2024-01-01T10:00:00,\n")
	dir := t.TempDir()
	r := genRun(t, "", "generate", "--base", genBase, "--out", dir, txt, csv)
	r.want(t, exitInputErrors)
	for _, want := range []string{
		"Refused: 2 lines",
		"url-not-allowed: 1", txt + ":2: loc:",
		"input-error: 1", csv + ":3:1: wrong number of fields",
		// A path is resolved against --base, as other generators do.
		txt + ": 1 relative URL resolved against --base.",
		// Bad optional fields are left out, their URLs kept.
		"Fields left out: 2 fields (the URLs kept without them)",
		csv + ":2: lastmod:", "invalid-date",
		csv + ":4: priority:", "invalid-priority",
		// A time without a zone, as databases write it, is read in UTC.
		csv + ": 1 lastmod in a database's spelling rewritten in W3C form, 1 without a zone read as UTC (--timezone).",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "2 lines refused; the set was published without them") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if got := genLocs(genPublished(t, dir, "sitemap.xml")); !slices.Equal(got, []string{genBase + "ok1", genBase + "ok2", genBase + "relative", genBase + "c1", genBase + "c3", genBase + "c4"}) {
		t.Errorf("published %q", got)
	}

	// --quiet still tells what was refused, on stderr.
	r = genRun(t, "", "generate", "-q", "--base", genBase, "--out", dir, txt)
	r.want(t, exitInputErrors)
	if r.stdout != "" || !strings.Contains(r.stderr, txt+":2: loc:") {
		t.Errorf("-q: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

func TestGenerateStrictPublishesNothing(t *testing.T) {
	in := t.TempDir()
	good := genWrite(t, in, "good.txt", genNumbered(3, "g"))
	bad := genWrite(t, in, "bad.txt", genBadInput)
	dir := t.TempDir()
	genRun(t, "", "generate", "--base", genBase, "--out", dir, good).want(t, exitOK)
	before := genSnapshot(t, dir)

	r := genRun(t, "", "generate", "--strict", "--base", genBase, "--out", dir, bad)
	r.want(t, exitInputErrors)
	if !strings.Contains(r.stderr, "--strict: 1 line refused; nothing was published") || !strings.Contains(r.stderr, bad+":2:") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	genSameSnapshot(t, before, genSnapshot(t, dir))
}

func TestGenerateInputErrorsPublishNothing(t *testing.T) {
	in := t.TempDir()
	dir := t.TempDir()
	genRun(t, "", "generate", "--base", genBase, "--out", dir, genWrite(t, in, "good.txt", genNumbered(3, "g"))).want(t, exitOK)
	before := genSnapshot(t, dir)
	for name, content := range map[string]string{
		"header.csv":     "loc,lastmodified\nhttps://www.example.com/a,2024-01-01\n",
		"damaged.txt.gz": genGzip(t, genNumbered(2000, "z"))[:300],
	} {
		r := genRun(t, "", "generate", "--base", genBase, "--out", dir, genWrite(t, in, name, content))
		r.want(t, exitInputErrors)
		if !strings.Contains(r.stderr, name+":") || !strings.Contains(r.stderr, "nothing was published") {
			t.Errorf("%s: stderr:\n%s", name, r.stderr)
		}
		genSameSnapshot(t, before, genSnapshot(t, dir))
	}
	r := genRun(t, "", "generate", "--base", genBase, "--out", dir, genWrite(t, in, "header2.csv", "loc,lastmodified\n"))
	if !strings.Contains(r.stderr, `header2.csv:1:5: bad CSV header: unknown column "lastmodified"`) {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	// Nothing left to publish is not an empty set.
	r = genRun(t, "", "generate", "--base", genBase, "--out", dir, genWrite(t, in, "empty.txt", "# nothing\n"))
	r.want(t, exitInputErrors)
	if !strings.Contains(r.stderr, "no URL to publish") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	genSameSnapshot(t, before, genSnapshot(t, dir))
}

func TestGenerateUsage(t *testing.T) {
	in := genWrite(t, t.TempDir(), "u.txt", genNumbered(1, "u"))
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--out", dir, in}, "--base is required"},
		{[]string{"generate", "--base", genBase, in}, "--out is required"},
		{[]string{"generate", "--base", genBase, "--out", dir}, "no input"},
		{[]string{"generate", "--base", genBase, "--out", dir, "--format", "html", in}, `"html" is not one of xml, txt`},
		{[]string{"generate", "--base", genBase, "--out", dir, "--index", "sometimes", in}, "invalid argument"},
		{[]string{"generate", "--base", genBase, "--out", dir, "--nope", in}, "unknown flag: --nope"},
		{[]string{"generate", "--base", genBase, "--out", dir, "--max-urls", "60000", in}, "--max-urls"},
		{[]string{"generate", "--base", "not a url", "--out", dir, in}, "--base"},
		{[]string{"generate", "--base", genBase, "--out", dir, "-", "-"}, "given twice"},
		// A folder as an input is named as one, with the flags that read
		// folders: it was "unknown input format: the name does not end in
		// .txt, …", and a hint to use --input-format.
		{[]string{"generate", "--base", genBase, "--out", dir, t.TempDir()}, "is a folder, not an input file: a build folder is read with --dir"},
		// The extensions named are all those read (.ndjson was left out).
		{[]string{"generate", "--base", genBase, "--out", dir, "old.xml"}, "does not end in .txt, .csv, .jsonl or .ndjson (optionally .gz)"},
		// A setting of one kind of input, given without it, was ignored
		// without a word.
		{[]string{"generate", "--base", genBase, "--out", dir, "--images", in}, "--images applies to --dir, and none is given"},
		{[]string{"generate", "--base", genBase, "--out", dir, "--strip-html", in}, "--strip-html applies to --dir"},
		{[]string{"generate", "--base", genBase, "--out", dir, "--lastmod", "git", in}, "--lastmod git applies to --dir"},
		{[]string{"generate", "--base", genBase, "--out", dir, "--keep-param", "page", in}, "--keep-param applies to --log"},
	} {
		r := genRun(t, "", tc.args...)
		r.want(t, exitUsage)
		if !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "Try: ") {
			t.Errorf("%q: stderr lacks %q and a Try: hint:\n%s", tc.args, tc.want, r.stderr)
		}
	}
	r := genRun(t, "", "generate", "--base", genBase, "--out", dir, filepath.Join(dir, "missing.txt"))
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "missing.txt: no such file") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	r = genRun(t, "", "generate", "--help")
	r.want(t, exitOK)
	for _, want := range []string{"EXIT STATUS", "--strict", "--public-url", "alternate:<hreflang>", "cat urls.txt | sitemapkit generate"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

func TestGenerateInterrupted(t *testing.T) {
	in := genWrite(t, t.TempDir(), "u.txt", genNumbered(5000, "i"))
	dir := t.TempDir()
	genRun(t, "", "generate", "--base", genBase, "--out", dir, genWrite(t, t.TempDir(), "a.txt", genNumbered(3, "a"))).want(t, exitOK)
	before := genSnapshot(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := genRunCtx(t, ctx, "", "generate", "--base", genBase, "--out", dir, in)
	r.want(t, exitInterrupted)
	genSameSnapshot(t, before, genSnapshot(t, dir))
}

// genSnapshot reads every file of dir.
func genSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

func genSameSnapshot(t *testing.T, before, after map[string]string) {
	t.Helper()
	for name, b := range before {
		if a, ok := after[name]; !ok {
			t.Errorf("%s was removed", name)
		} else if a != b {
			t.Errorf("%s changed", name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s appeared", name)
		}
	}
}

// TestGenerateUnclosedQuote: a CSV field that opens a quote and never
// closes it swallows the rest of the file. Whether the file ends first or
// the field outgrows the longest record, the input cannot be read: the
// error names the line where the quote opens, and nothing is published.
func TestGenerateUnclosedQuote(t *testing.T) {
	in := t.TempDir()
	dir := t.TempDir()
	genRun(t, "", "generate", "--base", genBase, "--out", dir, genWrite(t, in, "good.txt", genNumbered(3, "g"))).want(t, exitOK)
	before := genSnapshot(t, dir)

	var big strings.Builder
	big.WriteString("loc,lastmod\n" + genBase + "a,2024-01-01\n" + genBase + "b,\"2024-01-01\n")
	for i := range 600_100 {
		fmt.Fprintf(&big, "%sp%d,2024-01-01\n", genBase, i)
	}
	for name, content := range map[string]string{
		"small.csv": "loc,lastmod\n" + genBase + "a,2024-01-01\n" + genBase + "b,\"2024-01-01\n" + genBase + "c,2024-01-01\n" + genBase + "d,2024-01-01\n",
		"big.csv":   big.String(),
	} {
		r := genRun(t, "", "generate", "--base", genBase, "--out", dir, genWrite(t, in, name, content))
		r.want(t, exitInputErrors)
		if !strings.Contains(r.stderr, name+":3:") || !strings.Contains(r.stderr, "quote") || !strings.Contains(r.stderr, "nothing was published") {
			t.Errorf("%s: stderr:\n%s", name, r.stderr)
		}
		genSameSnapshot(t, before, genSnapshot(t, dir))
	}
}

// TestGenerateSecondIndexSummary: past --max-urls sitemaps an index is
// split (the flag bounds an index's sitemaps as a file's URLs), and the
// summary says how many one index holds: it said 50,000 whatever the flag.
func TestGenerateSecondIndexSummary(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	r := genRun(t, "", "generate", "--base", genBase, "--out", out, "--max-urls", "2", genWrite(t, dir, "urls.txt", genNumbered(5, "p")))
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, "Submit each of these 2 index files (one index holds at most 2 sitemaps):") {
		t.Errorf("summary:\n%s", r.stdout)
	}
	// Split by --max-bytes, the indexes hold far fewer than 50,000 sitemaps:
	// the summary names the limit they reached (it said 50,000 sitemaps).
	out = filepath.Join(dir, "bytes")
	r = genRun(t, "", "generate", "--base", genBase, "--out", out, "--max-bytes", "440", genWrite(t, dir, "urls.txt", genNumbered(20, "p")))
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, "index files (one index holds at most 440 bytes):") {
		t.Errorf("summary:\n%s", r.stdout)
	}
	xsdtest.Check(t, out)
}
