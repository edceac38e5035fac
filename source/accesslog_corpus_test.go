package source_test

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/sharedtest"
	"github.com/sitemapkit/sitemapkit/loc"
	"github.com/sitemapkit/sitemapkit/source"
)

// logManifest is what MANIFEST.json says about the corpus's logs.
type logManifest struct {
	File   string `json:"file"`
	Kind   string `json:"kind"`
	Expect struct {
		LogFormat string `json:"log_format"`
		Derived   struct {
			Lines       int   `json:"lines"`
			NonMatching []any `json:"non_matching_lines"`
		} `json:"expect_derived"`
	} `json:"expect"`
}

// refLog is a second, deliberately different reading of the same rules:
// regular expressions and the standard library instead of a scanner. It
// does not undo escaped quotes inside the request, which the corpus's
// logs do not have (the fixtures test those).
type refLog struct {
	urls    []logHit
	lines   int
	repeats int
	bad     []int // malformed line numbers
	skipped map[string]int
}

var (
	refCLF   = regexp.MustCompile(`^\S+ \S+ \S+ \[[^\]]*\] "(.*?)" (\d{3})(?: |$)`)
	refVhost = regexp.MustCompile(`^(\S+):\d+ \S+ \S+ \S+ \[[^\]]*\] "(.*?)" (\d{3})(?: |$)`)
	refHex   = regexp.MustCompile(`\\x[0-9A-Fa-f]{2}`)
)

func refParse(t *testing.T, data []byte) refLog {
	r := refLog{skipped: map[string]int{}}
	seen := map[string]bool{}
	assets := source.LogAssetExtensions()
	lines := strings.Split(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, line := range lines {
		n := i + 1
		r.lines++
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			r.skipped["blank"]++
			continue
		}
		var host, req, status string
		if m := refVhost.FindStringSubmatch(line); m != nil {
			host, req, status = m[1], m[2], m[3]
		} else if m := refCLF.FindStringSubmatch(line); m != nil {
			req, status = m[1], m[2]
		} else {
			r.bad = append(r.bad, n)
			continue
		}
		words := strings.Split(req, " ")
		if words[0] != "GET" && words[0] != "HEAD" {
			r.skipped["method"]++
			continue
		}
		if status != "200" && status != "304" {
			r.skipped["status"]++
			continue
		}
		if host != "" && !strings.EqualFold(host, "www.example.com") {
			r.skipped["other host"]++
			continue
		}
		if len(words) < 2 {
			r.skipped["other"]++
			continue
		}
		if len(words) > 2 && strings.HasPrefix(words[len(words)-1], "HTTP/") {
			words = words[:len(words)-1]
		}
		target := strings.Join(words[1:], " ")
		target = refHex.ReplaceAllStringFunc(target, func(h string) string {
			b, _ := strconv.ParseUint(h[2:], 16, 8)
			return string([]byte{byte(b)})
		})
		target = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(target)
		if lower := strings.ToLower(target); strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
			rest := target[strings.Index(target, "//")+2:]
			end := strings.IndexAny(rest, "/?#")
			if end < 0 {
				end = len(rest)
			}
			h := rest[:end]
			if hh, _, err := net.SplitHostPort(h); err == nil {
				h = hh
			}
			if !strings.EqualFold(h, "www.example.com") {
				r.skipped["other host"]++
				continue
			}
			target = "/" + strings.TrimPrefix(rest[end:], "/")
		}
		if !strings.HasPrefix(target, "/") {
			r.skipped["other"]++
			continue
		}
		target, _, _ = strings.Cut(target, "#")
		target, _, _ = strings.Cut(target, "?")
		hidden := false
		for _, seg := range strings.Split(target, "/") {
			hidden = hidden || (strings.HasPrefix(seg, ".") && seg != "." && seg != "..")
		}
		if hidden || slices.Contains(assets, strings.ToLower(strings.TrimPrefix(path.Ext(target), "."))) {
			r.skipped["asset"]++
			continue
		}
		u, err := loc.Normalize(logBase + target)
		if err != nil {
			r.skipped["other"]++
			continue
		}
		if seen[u] {
			r.repeats++
			continue
		}
		seen[u] = true
		r.urls = append(r.urls, logHit{n, u})
	}
	return r
}

// TestLogCorpus reads every log in the corpus and checks the URLs and the
// counts against the reference reading, and against what MANIFEST.json
// says of each file: its number of lines, the lines that are not log
// lines in the files every line of which is an access log line or junk.
func TestLogCorpus(t *testing.T) {
	dir := sharedtest.Corpus(t, "")
	b, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest []logManifest
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, m := range manifest {
		if m.Kind != "log" {
			continue
		}
		t.Run(filepath.Base(m.File), func(t *testing.T) {
			name := filepath.Join(dir, filepath.FromSlash(m.File))
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			l, err := source.NewLog(bytes.NewReader(data), name, source.LogOptions{Base: logBase})
			if err != nil {
				t.Fatal(err)
			}
			hits := readLog(t, l)
			s := l.Stats()
			ref := refParse(t, data)
			total += len(hits)

			if s.Lines != m.Expect.Derived.Lines || s.Lines != ref.lines {
				t.Errorf("%d lines; the manifest says %d, the reference %d", s.Lines, m.Expect.Derived.Lines, ref.lines)
			}
			if !reflect.DeepEqual(hits, ref.urls) {
				t.Errorf("URLs differ from the reference:\n got %v\nwant %v", hits, ref.urls)
			}
			if s.Repeats != ref.repeats || s.Malformed != len(ref.bad) || !mapsEqualNonZero(s.Skipped, ref.skipped) {
				t.Errorf("repeats %d, malformed %d, skipped %v; reference: %d, %d (lines %v), %v",
					s.Repeats, s.Malformed, s.Skipped, ref.repeats, len(ref.bad), ref.bad, ref.skipped)
			}
			checkBalance(t, s)
			var sampled []int
			for _, e := range s.Samples {
				sampled = append(sampled, e.Line)
			}
			if want := ref.bad[:min(len(ref.bad), 10)]; !slices.Equal(sampled, want) && len(want) > 0 {
				t.Errorf("sampled lines %v, want %v", sampled, want)
			}

			// What the manifest says of the files it lists every bad line of.
			switch filepath.Base(m.File) {
			case "combined_no_errors.log":
				if s.Malformed != 0 || len(hits) == 0 {
					t.Errorf("every line is a log line: %d malformed, %d URLs", s.Malformed, len(hits))
				}
			case "combined_with_errors.log": // "Error line 1".."Error line 4"
				if !slices.Equal(sampled, []int{3, 12, 21, 22}) {
					t.Errorf("malformed lines %v, want 3, 12, 21, 22", sampled)
				}
			case "dreamhost_apache_access.log": // line 87 is empty
				if s.Malformed != 0 || s.Skipped["blank"] != 1 {
					t.Errorf("%d malformed, %d blank; want 0 and line 87", s.Malformed, s.Skipped["blank"])
				}
			}
			if m.Expect.LogFormat != "combined" && len(hits) != 0 {
				t.Errorf("a %s log gave URLs: %v", m.Expect.LogFormat, hits)
			}
			t.Logf("%d lines: %d URLs, %d repeats, %d malformed, skipped %v", s.Lines, s.URLs, s.Repeats, s.Malformed, s.Skipped)
		})
	}
	if total == 0 {
		t.Error("no URL from any log in the corpus")
	}
}

// mapsEqualNonZero compares counts, a missing key being 0.
func mapsEqualNonZero(a, b map[string]int) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}
