// Package submit makes a published sitemap set known, and only what
// changed in it: the Sitemap: lines of robots.txt, IndexNow for changed
// URLs, WebSub for a changed feed, and the Search Console API for a
// changed index. Google's and Bing's ping endpoints are gone (2023, 2022):
// nothing here calls them.
//
// Each channel is a small client whose endpoint is a field, so that a test
// (or a private deployment) points it elsewhere; each answers with an
// *Error that says whether trying again later may succeed.
package submit

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/sitemapkit/sitemapkit/internal/robots"
)

// Robots returns robots.txt content old with a Sitemap: line for each URL
// of sitemaps: a line already there (in any group, any spelling of the
// key) is kept where it is; a missing one is added at the end; a Sitemap:
// line that ours says is one of the set's, and that sitemaps no longer
// lists, is removed with its line ending. Every other byte stays as it
// was, so that running it twice changes nothing. robotsURL resolves
// relative Sitemap: values. The lines added use the file's line ending
// (CRLF when its first line has one).
func Robots(old []byte, robotsURL *url.URL, sitemaps []string, ours func(sitemapURL string) bool) (updated []byte, changed bool) {
	want := map[string]bool{}
	for _, s := range sitemaps {
		want[s] = true
	}
	have := map[string]bool{}
	dropped := false
	var b bytes.Buffer
	eol := "\n"
	lineNo := 0
	for rest := old; len(rest) > 0; {
		lineNo++
		end := len(rest)
		if i := bytes.IndexAny(rest, "\r\n"); i >= 0 {
			end = i + 1
			if rest[i] == '\r' && i+1 < len(rest) && rest[i+1] == '\n' {
				end++
			}
			if lineNo == 1 && bytes.HasSuffix(rest[:end], []byte("\r\n")) {
				eol = "\r\n"
			}
		}
		// Each line is read alone (a Sitemap: line belongs to no group):
		// a whole-file parse stops at robots.MaxBytes, and a line past it
		// would be added again on every run.
		drop := false
		line := rest[:end]
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if s, ok := robots.SitemapLine(line, robotsURL); ok && end <= robots.MaxBytes {
			u := s.URL
			if u == "" {
				u = s.Value
			}
			switch {
			case want[u]:
				have[u] = true
			case ours(u):
				drop = true
			}
		}
		if drop {
			dropped = true
		} else {
			b.Write(rest[:end])
		}
		rest = rest[end:]
	}
	var add []string
	for _, s := range sitemaps {
		if !have[s] {
			add = append(add, s)
			have[s] = true
		}
	}
	if len(add) > 0 {
		if b.Len() > 0 && !bytes.HasSuffix(b.Bytes(), []byte("\n")) && !bytes.HasSuffix(b.Bytes(), []byte("\r")) {
			b.WriteString(eol) // the last line must end before another begins
		}
		for _, s := range add {
			b.WriteString("Sitemap: " + s + eol)
		}
	}
	return b.Bytes(), dropped || len(add) > 0
}

// WriteRobots updates the robots.txt file at path as Robots does,
// creating it with only the Sitemap: lines if it does not exist, and
// writing it atomically (a temp file renamed over it) only if it changed;
// when path is a symbolic link, the file it points to is the one written.
// It reports whether it wrote.
func WriteRobots(path string, robotsURL *url.URL, sitemaps []string, ours func(string) bool) (bool, error) {
	// A symbolic link stays one: the file it points to is the one edited
	// (a rename over the link would replace it with a copy), or created
	// when the link points to none yet.
	path, err := linkTarget(path)
	if err != nil {
		return false, fmt.Errorf("robots.txt: %w", err)
	}
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return false, fmt.Errorf("robots.txt: %w", err)
	}
	updated, changed := Robots(old, robotsURL, sitemaps, ours)
	if !changed {
		return false, nil
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".robots.txt.tmp-*")
	if err != nil {
		return false, fmt.Errorf("robots.txt: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(updated)
	if err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return false, fmt.Errorf("robots.txt %s: %w", path, err)
	}
	return true, nil
}

// linkTarget returns the file path names once every symbolic link on the
// way is followed: path itself when it is no link. Unlike
// filepath.EvalSymlinks, it follows a link to a file that does not exist
// yet, which is where that file is to be created.
func linkTarget(path string) (string, error) {
	for range 255 {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			if real, err := filepath.EvalSymlinks(path); err == nil {
				return real, nil
			}
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// SetSitemaps returns the function Robots asks whether a Sitemap: URL is
// one of a set's: a file directly under publicURL whose name is an index
// (or lone sitemap) of the set name: name.xml, name.txt, name.xml.gz,
// name.txt.gz, name-index-K.xml. Lines for other sitemaps, or other sets,
// are not the set's to remove.
func SetSitemaps(publicURL, name string) func(string) bool {
	return func(u string) bool {
		file, ok := strings.CutPrefix(u, publicURL)
		if !ok || strings.Contains(file, "/") {
			return false
		}
		switch file {
		case name + ".xml", name + ".txt", name + ".xml.gz", name + ".txt.gz":
			return true
		}
		k, ok := strings.CutPrefix(file, name+"-index-")
		if !ok {
			return false
		}
		k, ok = strings.CutSuffix(k, ".xml")
		return ok && k != "" && strings.Trim(k, "0123456789") == ""
	}
}
