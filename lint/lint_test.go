package lint

import (
	"bytes"
	"context"

	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// testNow is the Now of every test Checker: news dates in testdata are
// written relative to it.
var testNow = time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)

// wantRE finds the expectations a testdata file carries, analysistest
// style: <!-- want "rule-id" "rule-id" --> on the line where each
// diagnostic is expected. Diagnostics about the whole document (line 0)
// are expected on line 1.
var (
	wantRE   = regexp.MustCompile(`<!-- want((?: "[a-z0-9-]+")+) -->`)
	ruleRE   = regexp.MustCompile(`"([a-z0-9-]+)"`)
	publicRE = regexp.MustCompile(`<!-- url: (\S+) -->`)
)

// expectation is one line's expected rules, as a sorted list.
type expectation map[int][]string

func parseWants(t *testing.T, name string, data []byte) (expectation, string) {
	t.Helper()
	want := expectation{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		if bytes.Count(line, []byte("<!-- want")) != len(wantRE.FindAllIndex(line, -1)) {
			t.Errorf("%s:%d: malformed want comment (write <!-- want \"rule-id\" ... -->)", name, i+1)
		}
		for _, m := range wantRE.FindAllSubmatch(line, -1) {
			for _, r := range ruleRE.FindAllSubmatch(m[1], -1) {
				if Lookup(string(r[1])) == nil {
					t.Errorf("%s:%d: want names unknown rule %q", name, i+1, r[1])
				}
				want[i+1] = append(want[i+1], string(r[1]))
			}
		}
	}
	public := "https://www.example.com/" + filepath.Base(name)
	if m := publicRE.FindSubmatch(data); m != nil {
		public = string(m[1])
	}
	return want, public
}

// checkSet checks files as one set, in order, and compares every file's
// diagnostics with its wants.
func checkSet(t *testing.T, files []string) {
	t.Helper()
	got := map[string]expectation{}
	all := map[string][]Diagnostic{}
	c := &Checker{Now: testNow, Report: func(d Diagnostic) {
		line := max(d.Line, 1)
		if got[d.File] == nil {
			got[d.File] = expectation{}
		}
		got[d.File][line] = append(got[d.File][line], d.Rule)
		all[d.File] = append(all[d.File], d)
	}}
	wants := map[string]expectation{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, public := parseWants(t, f, data)
		wants[f] = w
		if _, err := c.CheckDocument(context.Background(), f, public, bytes.NewReader(data)); err != nil {
			t.Fatalf("CheckDocument(%s): %v", f, err)
		}
	}
	c.Finish()
	for _, f := range files {
		compare(t, f, wants[f], got[f], all[f])
	}
}

func compare(t testing.TB, file string, want, got expectation, diags []Diagnostic) {
	t.Helper()
	lines := map[int]bool{}
	for l := range want {
		lines[l] = true
	}
	for l := range got {
		lines[l] = true
	}
	for _, l := range slices.Sorted(func(yield func(int) bool) {
		for l := range lines {
			if !yield(l) {
				return
			}
		}
	}) {
		w, g := slices.Sorted(slices.Values(want[l])), slices.Sorted(slices.Values(got[l]))
		if !slices.Equal(w, g) {
			var msgs []string
			for _, d := range diags {
				if max(d.Line, 1) == l {
					msgs = append(msgs, "\t"+d.String())
				}
			}
			t.Errorf("%s:%d: got %q, want %q\n%s", file, l, g, w, strings.Join(msgs, "\n"))
		}
	}
}

// TestTestdata checks every testdata/*.xml on its own and every
// testdata/set-*/ folder as one set.
func TestTestdata(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { checkSet(t, []string{f}) })
	}
	sets, _ := filepath.Glob(filepath.Join("testdata", "set-*"))
	if len(sets) == 0 {
		t.Fatal("no testdata/set-* folders")
	}
	for _, s := range sets {
		files, _ := filepath.Glob(filepath.Join(s, "*.xml"))
		slices.Sort(files)
		t.Run(filepath.Base(s), func(t *testing.T) { checkSet(t, files) })
	}
}

// TestHarnessFails makes sure the harness can fail: a want that no
// diagnostic meets, and a diagnostic no want expects, are both reported.
func TestHarnessFails(t *testing.T) {
	want := expectation{3: {"invalid-date"}}
	got := expectation{4: {"invalid-url"}}
	ft := &fakeT{}
	compare(ft, "x.xml", want, got, nil)
	if ft.errors != 2 {
		t.Errorf("compare reported %d mismatches, want 2", ft.errors)
	}
}

type fakeT struct {
	testing.TB
	errors int
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.errors++ }
