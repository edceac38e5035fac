package source

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// errNotGit is what gitDates returns when the folder is not in a git work
// tree (or git is not installed): LastmodAuto then means no lastmod.
var errNotGit = errors.New("not in a git work tree")

// gitIndex holds the date of the last commit of each tracked file the walk
// will list, keyed by its path relative to the folder (slash-separated).
// Dates are interned: a commit touches many files.
type gitIndex struct {
	files map[string]int32 // index into dates; -1 while unseen or unknown
	dates []string
}

// date returns rel's lastmod, "" when git does not know it.
func (g *gitIndex) date(rel string) string {
	if i, ok := g.files[rel]; ok && i >= 0 {
		return g.dates[i]
	}
	return ""
}

// gitDates runs git three times in all, whatever the number of files:
// rev-parse (where the folder sits in its repository), ls-files (which
// files are tracked; only those that want reports true are kept, so memory
// follows what is listed, not the repository's size or history) and one
// log pass, newest first, where a file's first appearance is its last
// commit. The log is cut short once every kept file has its date.
//
// In a shallow clone the oldest fetched commits show every file as added:
// files whose first appearance is such a commit get no date rather than a
// wrong one.
func gitDates(ctx context.Context, dir string, want func(rel string) bool) (*gitIndex, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("%w: %w", errNotGit, err)
	}
	out, err := git(ctx, dir, "rev-parse", "--is-inside-work-tree", "--show-prefix", "--git-path", "shallow")
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if err != nil || len(lines) != 3 || lines[0] != "true" {
		if err == nil {
			err = errors.New("git rev-parse says the folder is not in a work tree")
		}
		return nil, fmt.Errorf("%w: %w", errNotGit, err)
	}
	prefix, shallowFile := lines[1], lines[2]
	if !filepath.IsAbs(shallowFile) {
		shallowFile = filepath.Join(dir, shallowFile)
	}
	shallow := map[string]bool{}
	if b, err := os.ReadFile(shallowFile); err == nil {
		for _, h := range strings.Fields(string(b)) {
			shallow[h] = true
		}
	}

	g := &gitIndex{files: map[string]int32{}}
	tracked, err := git(ctx, dir, "ls-files", "-z", "--full-name", "--", ".")
	if err != nil {
		return nil, err
	}
	for _, full := range bytes.Split(tracked, []byte{0}) {
		rel, ok := strings.CutPrefix(string(full), prefix)
		if ok && rel != "" && want(rel) {
			g.files[rel] = -1
		}
	}
	if len(g.files) == 0 {
		return g, nil
	}
	if err := g.log(ctx, dir, prefix, shallow); err != nil {
		if ctx.Err() == nil && !hasCommits(ctx, dir) {
			// Files added but nothing committed yet: git log fails,
			// and no file has a date.
			return g, nil
		}
		return nil, err
	}
	return g, nil
}

// hasCommits reports whether HEAD names a commit; it does not in a new
// repository (an "unborn" branch). Asked only once git log has failed.
func hasCommits(ctx context.Context, dir string) bool {
	return gitCmd(ctx, dir, "rev-parse", "-q", "--verify", "HEAD^{commit}").Run() == nil
}

// log reads `git log` until every file has its date.
func (g *gitIndex) log(ctx context.Context, dir, prefix string, shallow map[string]bool) error {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Each commit is "\x00<hash> <date>\x00\n<path>\x00<path>\x00…": an empty
	// record (paths are never empty) announces a commit.
	cmd := gitCmd(ctx, dir, "log", "--format=%x00%H %cI", "--name-only", "-z", "--no-renames", "--", ".")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git log: %w", err)
	}
	left := len(g.files)
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sc.Split(splitNUL)
	header, first := false, false
	date := int32(-1) // the current commit's index in g.dates; -1 for an unknown date
	for left > 0 && sc.Scan() {
		rec := sc.Text()
		switch {
		case rec == "":
			header = true
			continue
		case header:
			header, first = false, true
			hash, when, _ := strings.Cut(rec, " ")
			t, err := time.Parse(time.RFC3339, when)
			if err != nil {
				return fmt.Errorf("git log: commit %s: date %q: %w", hash, when, err)
			}
			date = -1
			if !shallow[hash] {
				g.dates = append(g.dates, sitemap.FormatDate(t))
				date = int32(len(g.dates) - 1)
			}
			continue
		}
		if first {
			rec, first = strings.TrimPrefix(rec, "\n"), false
		}
		rel, ok := strings.CutPrefix(rec, prefix)
		if !ok {
			continue
		}
		if i, ok := g.files[rel]; ok && i == -1 {
			// A file first met in a shallow commit stays -1 but is done.
			g.files[rel] = date
			if date == -1 {
				g.files[rel] = -2
			}
			left--
		}
	}
	if left == 0 {
		// Stop git early: the rest of history cannot change a date.
		cancel()
		_ = cmd.Wait()
		return parent.Err()
	}
	if err := sc.Err(); err != nil {
		_ = cmd.Wait()
		return fmt.Errorf("git log: %w", err)
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git log: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// git runs a git command in dir and returns its standard output; the error
// carries its standard error.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := gitCmd(ctx, dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// gitCmd is git in dir with settings that could change its output pinned:
// diff.relative would make log's paths relative to dir rather than to the
// repository's top, as ls-files --full-name gives them.
func gitCmd(ctx context.Context, dir string, args ...string) *exec.Cmd {
	args = append([]string{"-C", dir, "-c", "log.showSignature=false", "-c", "core.quotePath=false",
		"-c", "diff.relative=false"}, args...)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	return cmd
}

// splitNUL is a bufio.SplitFunc for NUL-terminated records.
func splitNUL(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
