package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/sitetest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// richEntry carries every kind of field the reader returns.
const richEntry = `<url><loc>https://www.example.com/p?a=1&amp;b="x"</loc><lastmod>2024-05-01T10:00:00+02:00</lastmod><changefreq>weekly</changefreq><priority>0.8</priority>
<image:image><image:loc>https://www.example.com/1.jpg</image:loc><image:caption>One &lt;b&gt;</image:caption></image:image>
<image:image><image:loc>https://www.example.com/2.jpg</image:loc></image:image>
<video:video><video:thumbnail_loc>https://www.example.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:content_loc>https://www.example.com/v.mp4</video:content_loc><video:duration>60</video:duration><video:tag>a</video:tag><video:tag>b</video:tag></video:video>
<news:news><news:publication><news:name>Example Times</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-05-01</news:publication_date><news:title>Héadline</news:title></news:news>
<xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/p"/>
<xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/p"/>
</url>`

func decodeJSONL(t *testing.T, out string, strict bool) []sitemap.URL {
	t.Helper()
	var us []sitemap.URL
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		if strict {
			dec.DisallowUnknownFields()
		}
		var u sitemap.URL
		if err := dec.Decode(&u); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		us = append(us, u)
	}
	return us
}

func TestReadJSONLEveryField(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "s.xml", xmlURLSet(richEntry, entry(vbase+"plain")))
	code, out, errOut := sk(t, "read", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The JSONL is what the reader returned, field for field.
	f, _ := os.Open(p)
	defer f.Close()
	var want []sitemap.URL
	for u, err := range sitemap.NewReader(f).All() {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, u)
	}
	got := decodeJSONL(t, out, false)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if len(got) != 2 || len(got[0].Images) != 2 || len(got[0].Videos) != 1 || got[0].News == nil || len(got[0].Alternates) != 2 {
		t.Fatalf("fields lost: %+v", got)
	}
	// Each line names its sitemap; --no-source leaves it out.
	var withSource struct{ Sitemap string }
	json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &withSource)
	if withSource.Sitemap != p {
		t.Errorf("sitemap field %q, want %q", withSource.Sitemap, p)
	}
	_, out, _ = sk(t, "read", "--no-source", p)
	if got := decodeJSONL(t, out, true); !reflect.DeepEqual(got, want) {
		t.Errorf("--no-source output differs")
	}
}

func TestReadOrderAcrossConcurrentChildren(t *testing.T) {
	dir := t.TempDir()
	var children []string
	var want []string
	for k := 1; k <= 9; k++ {
		name := fmt.Sprintf("sitemap-%d.xml", k)
		var entries []string
		// Sizes differ so that later children finish first.
		for i := range (10 - k) * 300 {
			loc := fmt.Sprintf("%s%d/%d", vbase, k, i)
			entries = append(entries, entry(loc))
			want = append(want, loc)
		}
		content := xmlURLSet(entries...)
		if k%2 == 0 {
			name += ".gz"
			content = gzipText(content)
		}
		write(t, dir, name, content)
		children = append(children, vbase+name)
	}
	idx := write(t, dir, "sitemap.xml", sitetest.Index(children...))
	for _, conc := range []string{"1", "4"} {
		code, out, errOut := sk(t, "read", "--format", "text", "--concurrency", conc, idx)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); !reflect.DeepEqual(got, want) {
			t.Fatalf("--concurrency %s: %d lines, order differs from the index's", conc, len(got))
		}
	}
}

// TestReadCSV: read --format csv writes a header of fixed columns, then a
// row per entry as it is read, extensions as JSON: every field of an
// entry, videos and news included, as the JSONL output has it.
func TestReadCSV(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "s.xml", xmlURLSet(richEntry, entry(vbase+"plain"),
		`<url><loc>https://www.example.com/fr</loc><xhtml:link rel="alternate" hreflang="fr" href="https://www.example.com/fr"/></url>`))
	code, out, errOut := sk(t, "read", "--format", "csv", p)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := []string{"loc", "lastmod", "changefreq", "priority", "sitemap", "images", "videos", "news", "alternates"}
	if !reflect.DeepEqual(rows[0], wantHeader) {
		t.Fatalf("header %q, want %q", rows[0], wantHeader)
	}
	want := [][]string{
		{`https://www.example.com/p?a=1&b="x"`, "2024-05-01T10:00:00+02:00", "weekly", "0.8", p,
			`[{"loc":"https://www.example.com/1.jpg","caption":"One <b>"},{"loc":"https://www.example.com/2.jpg"}]`,
			`[{"thumbnail_loc":"https://www.example.com/t.jpg","title":"T","description":"D","content_loc":"https://www.example.com/v.mp4","duration":"60","tags":["a","b"]}]`,
			`{"publication":{"name":"Example Times","language":"en"},"publication_date":"2024-05-01","title":"Héadline"}`,
			`[{"hreflang":"de","href":"https://www.example.com/de/p"},{"hreflang":"x-default","href":"https://www.example.com/p"}]`},
		{vbase + "plain", "2024-05-01", "", "", p, "", "", "", ""},
		{"https://www.example.com/fr", "", "", "", p, "", "", "", `[{"hreflang":"fr","href":"https://www.example.com/fr"}]`},
	}
	if !reflect.DeepEqual(rows[1:], want) {
		t.Errorf("rows\n%q\nwant\n%q", rows[1:], want)
	}
	// The same entries as the JSONL output, field for field.
	_, jsonl, _ := sk(t, "read", p)
	jsonRows := decodeJSONL(t, jsonl, false)
	var fromCSV []sitemap.URL
	for _, r := range rows[1:] {
		u := sitemap.URL{Loc: r[0], LastMod: r[1], ChangeFreq: r[2], Priority: r[3]}
		for i, v := range []any{&u.Images, &u.Videos, &u.News, &u.Alternates} {
			if r[5+i] != "" {
				if err := json.Unmarshal([]byte(r[5+i]), v); err != nil {
					t.Fatalf("column %s: %v", wantHeader[5+i], err)
				}
			}
		}
		fromCSV = append(fromCSV, u)
	}
	if !reflect.DeepEqual(fromCSV, jsonRows) {
		t.Errorf("CSV entries\n%+v\nJSONL's\n%+v", fromCSV, jsonRows)
	}
	_, out, _ = sk(t, "read", "--format", "csv", "--no-source", p)
	if got := strings.SplitN(out, "\n", 2)[0]; got != "loc,lastmod,changefreq,priority,images,videos,news,alternates" {
		t.Errorf("--no-source header %q", got)
	}
}

func TestReadDamageAndExitCodes(t *testing.T) {
	dir := t.TempDir()
	good := write(t, dir, "good.xml", xmlURLSet(entry(vbase+"g")))
	truncated := xmlURLSet(entry(vbase+"a"), entry(vbase+"b"))
	bad := write(t, dir, "bad.xml", truncated[:strings.LastIndex(truncated, "<url>")+12])
	html := write(t, dir, "page.html", "<!DOCTYPE html><html><body>hi</body></html>")

	code, out, errOut := sk(t, "read", "--format", "text", good, bad)
	if code != 1 || out != vbase+"g\n"+vbase+"a\n" {
		t.Errorf("exit %d, out %q", code, out)
	}
	if !diagLine.MatchString(strings.TrimSpace(errOut)) || !strings.Contains(errOut, bad+":") {
		t.Errorf("stderr %q", errOut)
	}
	code, _, errOut = sk(t, "read", html)
	if code != 1 || !strings.Contains(errOut, "error[sitemap-is-html]") {
		t.Errorf("HTML: exit %d, %q", code, errOut)
	}
	for _, args := range [][]string{
		{"read"},
		{"read", "--format", "xml", good},
		{"read", filepath.Join(dir, "missing.xml")},
		{"read", "--offline", "https://www.example.com/robots.txt"},
	} {
		if code, _, errOut := sk(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
	if code, out, _ := sk(t, "read", "--help"); code != 0 || !strings.Contains(out, "EXIT STATUS") || !strings.Contains(out, "--no-source") {
		t.Errorf("help: %d %q", code, out)
	}
}

func TestReadOverHTTP(t *testing.T) {
	w := sitetest.New(t)
	w.Page("/robots.txt", "Sitemap: {{.}}/sitemap.xml\n")
	w.Page("/sitemap.xml", sitetest.Index("{{.}}/s1.xml", "{{.}}/s2.txt"))
	w.Page("/s1.xml", xmlURLSet(entry("{{.}}/a")))
	w.Page("/s2.txt", "{{.}}/t1\n{{.}}/t2\n")
	code, out, errOut := sk(t, "read", "--format", "jsonl", w.URL+"/robots.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := fmt.Sprintf(`{"loc":"%[1]s/a","lastmod":"2024-05-01","sitemap":"%[1]s/s1.xml"}
{"loc":"%[1]s/t1","sitemap":"%[1]s/s2.txt"}
{"loc":"%[1]s/t2","sitemap":"%[1]s/s2.txt"}
`, w.URL)
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestReadSaysWhatItAltered: invalid UTF-8 (read as U+FFFD) and a NUL
// character reference were read with exit 0 and no word.
func TestReadSaysWhatItAltered(t *testing.T) {
	p := write(t, t.TempDir(), "s.xml", xmlURLSet(entry(vbase+"a\xff"), entry(vbase+"b&#0;"), entry(vbase+"c")))
	code, out, errOut := sk(t, "read", p)
	if code != exitInputErrors || strings.Count(out, "\n") != 3 {
		t.Fatalf("exit %d, %d entries; want 1 and every entry read", code, strings.Count(out, "\n"))
	}
	for _, want := range []string{p + ":3:36: error[invalid-character]: byte 0xFF is not UTF-8", p + ":4:36: error[invalid-character]: character reference &#0;"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// TestReadOpenedAheadInTime: a large sitemap opened ahead of its turn
// (the walk opens documents ahead of the reader) waits longer than
// --timeout for it, behind children slow to answer; its time counts while
// it is read, not while it waits, and every URL is read.
func TestReadOpenedAheadInTime(t *testing.T) {
	s := sitetest.New(t)
	var children []string
	for i := range 6 {
		path := fmt.Sprintf("/slow-%d.xml", i)
		s.Handle(path, func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(250 * time.Millisecond)
			io.WriteString(w, xmlURLSet(entry(fmt.Sprintf("%s/slow-%d", s.URL, i))))
		})
		children = append(children, "{{.}}"+path)
	}
	s.Page("/index.xml", sitetest.Index(children...))
	var big []string
	for i := range 40000 {
		big = append(big, entry(fmt.Sprintf("{{.}}/big-%d", i)))
	}
	s.Page("/big.xml", xmlURLSet(big...))
	s.Page("/robots.txt", "Sitemap: {{.}}/index.xml\nSitemap: {{.}}/big.xml\n")
	code, out, errOut := sk(t, "read", "--format", "text", "--concurrency", "2", "--timeout", "700ms", s.URL+"/robots.txt")
	if code != 0 || strings.Count(out, "\n") != 40006 {
		t.Errorf("exit %d, %d URLs, want 40006\n%s", code, strings.Count(out, "\n"), errOut)
	}
}

// TestReadOnce: a sitemap listed directly and reached through a redirect
// (in either order in the index), or named twice by robots.txt, is read
// once; the repeat is a duplicate-url warning, not an error.
func TestReadOnce(t *testing.T) {
	s := sitetest.New(t)
	for _, name := range []string{"c0", "c1", "c2"} {
		s.Page("/"+name+".xml", xmlURLSet(entry("{{.}}/"+name+"-a"), entry("{{.}}/"+name+"-b")))
		s.Handle("/moved/"+name+".xml", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/"+name+".xml", http.StatusMovedPermanently)
		})
	}
	s.Page("/index.xml", sitetest.Index("{{.}}/moved/c0.xml", "{{.}}/c0.xml", "{{.}}/c1.xml", "{{.}}/moved/c1.xml"))
	s.Page("/robots.txt", "Sitemap: {{.}}/index.xml\nSitemap: {{.}}/c2.xml\nSitemap: {{.}}/c2.xml\n")
	code, out, errOut := sk(t, "read", "--format", "text", s.URL+"/robots.txt")
	want := []string{"/c0-a", "/c0-b", "/c1-a", "/c1-b", "/c2-a", "/c2-b"}
	for i := range want {
		want[i] = s.URL + want[i]
	}
	if got := strings.Fields(out); code != 0 || !slices.Equal(got, want) {
		t.Errorf("exit %d, read %q, want %q\n%s", code, got, want, errOut)
	}
	if n := strings.Count(errOut, "warning[duplicate-url]"); n != 3 || strings.Contains(errOut, "error[") {
		t.Errorf("%d duplicate-url warnings, want 3 (two redirects, one Sitemap: line):\n%s", n, errOut)
	}
	code, out, _ = sk(t, "validate", s.URL+"/robots.txt")
	if code != 0 || !strings.Contains(out, "6 URLs: 0 errors, 3 warnings") {
		t.Errorf("validate: exit %d\n%s", code, out)
	}
	// generate stops at a sitemap it cannot read, not at one it reads
	// through its other listing.
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut = sk(t, "generate", "--base", s.URL+"/", "--out", dir, "--sitemap", s.URL+"/robots.txt")
	if code != 0 || !strings.Contains(out, "6 URLs") {
		t.Errorf("generate --sitemap: exit %d\n%s%s", code, out, errOut)
	}
}

// TestReadStartsOnce: a start given twice, or given once directly and once
// through a redirect to it, in either order, is read once; the other is a
// duplicate-url warning, as a repeat the walk meets below a start is. The
// later copy was read again: not an index's children, but a urlset's
// entries came out twice.
func TestReadStartsOnce(t *testing.T) {
	s := sitetest.New(t)
	s.Page("/index.xml", sitetest.Index("{{.}}/s.xml"))
	s.Page("/s.xml", xmlURLSet(entry("{{.}}/s")))
	s.Page("/u.xml", xmlURLSet(entry("{{.}}/u")))
	for _, p := range []string{"/index.xml", "/u.xml"} {
		s.Handle("/old"+p, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, p, http.StatusMovedPermanently)
		})
	}
	for _, args := range [][]string{
		{"/index.xml", "/old/index.xml"}, {"/old/index.xml", "/index.xml"}, {"/index.xml", "/index.xml"},
		{"/u.xml", "/old/u.xml"}, {"/old/u.xml", "/u.xml"}, {"/u.xml", "/u.xml"},
	} {
		want := s.URL + "/s\n"
		if strings.HasSuffix(args[0], "u.xml") {
			want = s.URL + "/u\n"
		}
		code, out, errOut := sk(t, "read", "--format", "text", s.URL+args[0], s.URL+args[1])
		if code != 0 || out != want || strings.Count(errOut, "warning[duplicate-url]") != 1 {
			t.Errorf("read %q: exit %d, out %q; want 0, %q and one duplicate-url warning\n%s", args, code, out, want, errOut)
		}
	}
}

// TestReadFailuresWhereValidateSaysThem: a listed sitemap that cannot be
// read (a child answering 404, one on another host, a Sitemap: line's 404)
// is reported by read where validate reports it, on the line that lists
// it and naming it, not on the missing document's own name.
func TestReadFailuresWhereValidateSaysThem(t *testing.T) {
	other := sitetest.New(t)
	s := sitetest.New(t)
	s.Page("/robots.txt", "Sitemap: {{.}}/index.xml\nSitemap: {{.}}/gone-too.xml\n")
	s.Page("/index.xml", sitetest.Index("{{.}}/s.xml", "{{.}}/gone.xml", other.URL+"/x.xml"))
	s.Page("/s.xml", xmlURLSet(entry("{{.}}/a")))
	failures := func(out string) []string {
		var fs []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "error[http-error]") || strings.Contains(l, "error[cross-host-sitemap]") {
				fs = append(fs, l)
			}
		}
		slices.Sort(fs)
		return fs
	}
	_, vout, _ := sk(t, "validate", s.URL+"/")
	code, _, errOut := sk(t, "read", s.URL+"/")
	want := failures(vout)
	if got := failures(errOut); code != 1 || len(want) != 3 || !slices.Equal(got, want) {
		t.Errorf("read: exit %d, failures\n%s\nwant validate's\n%s", code, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, w := range want {
		if !strings.HasPrefix(w, s.URL+"/index.xml:4: ") && !strings.HasPrefix(w, s.URL+"/index.xml:5: ") && !strings.HasPrefix(w, s.URL+"/robots.txt:2: ") {
			t.Errorf("validate's finding %q is not on the line that lists the sitemap", w)
		}
	}
}

// TestReadInterrupted: an interrupted read prints every entry it had read
// and exits 130 (it dropped those still in the reader's batches, up to 512
// for a sitemap that trickles); it leaves no file in TMPDIR, even while it
// runs, so that a run killed, or ended by a closed pipe, leaves nothing.
func TestReadInterrupted(t *testing.T) {
	s := sitetest.New(t)
	s.Trickle("/slow.xml", 3000, 20*time.Millisecond)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, format := range []string{"text", "csv"} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errOut bytes.Buffer
		done := make(chan int)
		go func() {
			done <- run(ctx, []string{"read", "--format", format, s.URL + "/slow.xml"}, nil, &out, &errOut)
		}()
		time.Sleep(400 * time.Millisecond)
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("%s: files in TMPDIR while it runs: %v", format, left)
		}
		cancel()
		code := <-done
		// The first 3,000 came at once, and a few more after them.
		if n := strings.Count(out.String(), "\n"); code != exitInterrupted || n < 3000 || !strings.HasSuffix(out.String(), "/slow.xml,,,,\n") && format == "csv" {
			t.Errorf("%s: exit %d, %d lines printed, want 130 and at least the 3,000 URLs read at once\n%s", format, code, n, errOut.String())
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("files left in TMPDIR: %v", left)
	}
}

// TestReadTextControlCharacters: a loc holding a line end (written &#10;
// or &#13;, or as it is: a CR LF is read as LF, as XML reads it) or an
// escape sequence is one line of the text listing,
// its control characters percent-encoded: a hostile sitemap adds no
// entry of its own, nor drives the terminal. validate reports both, its
// text escaped the same way.
func TestReadTextControlCharacters(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "s.xml", xmlURLSet(
		`<url><loc>https://www.example.com/a&#10;https://evil.example/injected</loc></url>`,
		"<url><loc>https://www.example.com/b\r\nhttps://evil.example/injected2</loc></url>",
		"<url><loc>https://www.example.com/d&#13;https://evil.example/injected3</loc></url>",
		"<url><loc>https://www.example.com/c\x1b[2J\x7f</loc></url>",
		entry(vbase+"plain")))
	_, out, _ := sk(t, "read", "--format", "text", p)
	want := "https://www.example.com/a%0Ahttps://evil.example/injected\n" +
		"https://www.example.com/b%0Ahttps://evil.example/injected2\n" +
		"https://www.example.com/d%0Dhttps://evil.example/injected3\n" +
		"https://www.example.com/c%1B[2J%7F\n" +
		vbase + "plain\n"
	if out != want {
		t.Errorf("text listing\n%q\nwant\n%q", out, want)
	}
	code, out, _ := sk(t, "validate", p)
	if code != exitInputErrors {
		t.Errorf("validate: exit %d, want %d", code, exitInputErrors)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.Contains(line, "evil.example") && !strings.HasPrefix(line, p+":") || strings.ContainsAny(line, "\x1b\r\x7f") {
			t.Errorf("validate's line is the sitemap's own, or holds a control character: %q", line)
		}
	}
	if !strings.Contains(out, `https://www.example.com/a\nhttps://evil.example/injected`) {
		t.Errorf("validate does not show the line end escaped:\n%s", out)
	}
}

// TestReadSaysSkippedEntries: an entry the reader cannot read (a <url>
// without <loc>, a line of a text sitemap that is not a URL) is not in
// the output, so it is said on stderr, as validate says it, and the exit
// status is 1: it was skipped without a word, with exit 0.
func TestReadSaysSkippedEntries(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "s.xml", xmlURLSet(entry(vbase+"a"), "<url><lastmod>2024-01-01</lastmod></url>", entry(vbase+"b")))
	txt := write(t, dir, "s.txt", vbase+"c\nnot a url\n")
	code, out, errOut := sk(t, "read", "--format", "text", p, txt)
	if code != exitInputErrors || out != vbase+"a\n"+vbase+"b\n"+vbase+"c\n" {
		t.Errorf("exit %d, out %q; want 1 and the three URLs", code, out)
	}
	for _, want := range []string{p + ":4:1: error[missing-tag]: <url> without <loc>", txt + ":2:1: error[invalid-url]: line is not a URL"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// TestReadCSVControlCharacters: a loc (or lastmod, changefreq, priority)
// holding a line end or an escape sequence is one line of the CSV too,
// its control characters percent-encoded as the text listing's are: a
// raw ESC drove the terminal the CSV was printed on, and a raw line end
// broke a row over lines. generate percent-encodes them in a loc all the
// same, so the set it writes from the CSV is the one it writes from the
// JSONL.
func TestReadCSVControlCharacters(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "s.xml", xmlURLSet(
		`<url><loc>https://www.example.com/a&#10;https://evil.example/injected</loc></url>`,
		"<url><loc>https://www.example.com/c\x1b[2J\x7f</loc><lastmod>2024\x1b[2J</lastmod></url>",
		entry(vbase+"plain")))
	code, out, _ := sk(t, "read", "--format", "csv", "--no-source", p)
	if code != exitInputErrors {
		t.Errorf("exit %d, want %d", code, exitInputErrors)
	}
	want := "loc,lastmod,changefreq,priority,images,videos,news,alternates\n" +
		"https://www.example.com/a%0Ahttps://evil.example/injected,,,,,,,\n" +
		"https://www.example.com/c%1B[2J%7F,2024%1B[2J,,,,,,\n" +
		vbase + "plain,2024-05-01,,,,,,\n"
	if out != want {
		t.Errorf("csv\n%q\nwant\n%q", out, want)
	}
}

// TestReadEntryTooLongForGenerate: an entry whose line would be longer
// than the longest generate reads (70 captions of 250 KB, each under the
// sitemap reader's bound) is left out and said, with exit 1: it was
// printed, with exit 0, and generate then refused the whole output
// ("line too long; nothing was published").
func TestReadEntryTooLongForGenerate(t *testing.T) {
	dir := t.TempDir()
	caption := strings.Repeat("c", 250000)
	var images strings.Builder
	for i := range 70 {
		fmt.Fprintf(&images, "<image:image><image:loc>%si%d.jpg</image:loc><image:caption>%s</image:caption></image:image>", vbase, i, caption)
	}
	p := write(t, dir, "s.xml", xmlURLSet("<url><loc>"+vbase+"big</loc>"+images.String()+"</url>", entry(vbase+"small")))
	for _, format := range []string{"jsonl", "csv"} {
		code, out, errOut := sk(t, "read", "--format", format, p)
		if code != exitInputErrors || !strings.Contains(errOut, p+":3:1:") || !strings.Contains(errOut, "entry too long") {
			t.Errorf("%s: exit %d, stderr %q; want 1 and the entry named", format, code, errOut)
		}
		input := write(t, dir, "entries."+format, out)
		if code, o, e := sk(t, "generate", "--base", vbase, "--out", filepath.Join(dir, "public-"+format), input); code != 0 {
			t.Errorf("%s: generate refused read's output: exit %d\n%s%s", format, code, o, e)
		}
	}
}
