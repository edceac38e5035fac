package source

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/cespare/xxhash/v2"

	"github.com/sitemapkit/sitemapkit/internal/atomicfile"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

// A crawl keeps in memory what a page's visit needs and a bounded part of
// the rest; what does not fit goes to its folder (CrawlOptions.Dir):
//
//   - the frontier, a queue of URLs to visit: at most frontierMem of them
//     in memory, the others appended to queue.jsonl and read back in
//     order;
//   - the URLs met, as 64-bit hashes (8 bytes each and the map's, not
//     the URL);
//   - the pages listed, appended to found.jsonl, so that a crawl resumed
//     lists them again before going on.
//
// A crawl stopped by its context or its budget writes checkpoint.json
// (its counters and the queue it had in memory, in-flight pages first)
// and seen.bin; Resume reads them back. A crawl that ends removes them.

// frontierMem is how many queued URLs are kept in memory (a variable
// for the tests, which spill sooner).
var frontierMem = 10000

// frontier is the crawl's FIFO queue, spilling to a file.
type frontier struct {
	head []crawlItem // in memory, taken from the front
	// The spill: items appended past head's bound, read back in order.
	path   string
	w      *os.File
	bw     *bufio.Writer
	r      *os.File
	br     *bufio.Reader
	onDisk int // items written and not read back
	// Bytes of the file read back, and written: what a checkpoint taken
	// while the crawl runs records of it (see snapshot).
	readOff, writeOff int64
}

func (q *frontier) len() int { return len(q.head) + q.onDisk }

// push appends it: to memory while there is room and nothing waits on
// disk (which would come first), to the file otherwise.
func (q *frontier) push(it crawlItem) error {
	if q.onDisk == 0 && len(q.head) < frontierMem {
		q.head = append(q.head, it)
		return nil
	}
	if q.w == nil {
		f, err := os.OpenFile(q.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("crawl: frontier: %w", err)
		}
		q.w, q.bw = f, bufio.NewWriter(f)
	}
	b, _ := json.Marshal(it.record())
	if _, err := q.bw.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("crawl: frontier: %w", err)
	}
	q.writeOff += int64(len(b) + 1)
	q.onDisk++
	return nil
}

// pop takes the first item; ok is false when there is none.
func (q *frontier) pop() (crawlItem, bool, error) {
	if len(q.head) == 0 && q.onDisk > 0 {
		if err := q.refill(); err != nil {
			return crawlItem{}, false, err
		}
	}
	if len(q.head) == 0 {
		return crawlItem{}, false, nil
	}
	it := q.head[0]
	q.head = q.head[1:]
	return it, true, nil
}

// refill reads up to frontierMem items back from the file.
func (q *frontier) refill() error {
	if err := q.bw.Flush(); err != nil {
		return fmt.Errorf("crawl: frontier: %w", err)
	}
	if q.r == nil {
		f, err := os.Open(q.path)
		if err != nil {
			return fmt.Errorf("crawl: frontier: %w", err)
		}
		q.r, q.br = f, bufio.NewReader(f)
	}
	q.head = q.head[:0]
	for len(q.head) < frontierMem && q.onDisk > 0 {
		line, err := q.br.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("crawl: frontier: %w", err)
		}
		q.readOff += int64(len(line))
		var r itemRecord
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("crawl: frontier: %w", err)
		}
		q.head = append(q.head, r.item())
		q.onDisk--
	}
	return nil
}

// snapshot returns the items in memory, and the part of the file not read
// back yet, [off, end), its writes flushed: the queue as it is, for a
// checkpoint taken while the crawl runs, which goes on using it.
func (q *frontier) snapshot() (head []crawlItem, off, end int64, err error) {
	if q.bw != nil {
		if err := q.bw.Flush(); err != nil {
			return nil, 0, 0, fmt.Errorf("crawl: frontier: %w", err)
		}
	}
	return slices.Clone(q.head), q.readOff, q.writeOff, nil
}

// drain returns every item left, in order, for a checkpoint.
func (q *frontier) drain() ([]crawlItem, error) {
	var all []crawlItem
	for {
		it, ok, err := q.pop()
		if err != nil || !ok {
			return all, err
		}
		all = append(all, it)
	}
}

func (q *frontier) close() {
	if q.w != nil {
		q.w.Close()
	}
	if q.r != nil {
		q.r.Close()
	}
}

// itemRecord is a crawlItem as the files hold it.
type itemRecord struct {
	URL   string `json:"url"`
	Depth int    `json:"depth,omitempty"`
	From  string `json:"from,omitempty"`
	Shape string `json:"shape,omitempty"`
	Chain int    `json:"chain,omitempty"`
	Hops  int    `json:"hops,omitempty"`
}

func (it crawlItem) record() itemRecord {
	return itemRecord{it.url, it.depth, it.from, it.shape, it.chain, it.hops}
}

func (r itemRecord) item() crawlItem {
	return crawlItem{url: r.URL, depth: r.Depth, from: r.From, shape: r.Shape, chain: r.Chain, hops: r.Hops}
}

// crawlSeen is the URLs a crawl met, as 64-bit hashes of their keys
// under a salt of the crawl's: two URLs sharing one (odds of n²/2⁶⁵,
// 3·10⁻⁸ for a million) would count as one, and a site cannot pick URLs
// that do. The salt is kept with a checkpoint, so that a resumed crawl
// hashes as the first did.
type crawlSeen struct {
	salt string
	m    map[uint64]struct{}
}

func (s *crawlSeen) hash(key string) uint64 {
	d := xxhash.New()
	d.WriteString(s.salt)
	d.WriteString(key)
	return d.Sum64()
}

// appendFound appends r to b as found.jsonl records a page listed: the
// JSONL generate reads, with the page's fingerprint as "fp" (hex), so
// that a resumed crawl gives it back as it was.
func appendFound(b []byte, r crawlResult) []byte {
	b = AppendJSONL(b, &r.u, "")
	if !r.hasFP {
		return b
	}
	b = b[:len(b)-2] // "}\n"
	b = append(b, `,"fp":"`...)
	b = strconv.AppendUint(b, r.fp, 16)
	return append(b, "\"}\n"...)
}

// readFound reads a line appendFound wrote.
func readFound(line []byte) (crawlResult, error) {
	var rec struct {
		sitemap.URL
		FP string `json:"fp"`
	}
	if err := json.Unmarshal(line, &rec); err != nil {
		return crawlResult{}, err
	}
	r := crawlResult{u: rec.URL}
	if rec.FP != "" {
		fp, err := strconv.ParseUint(rec.FP, 16, 64)
		if err != nil {
			return crawlResult{}, err
		}
		r.fp, r.hasFP = fp, true
	}
	return r, nil
}

// checkpoint is what a crawl leaves for a resume: when stopped, and every
// CrawlOptions.Checkpoint while it runs.
type checkpoint struct {
	// Version is checkpointVersion: a folder another version of the
	// crawl left is not misread.
	Version int `json:"version"`
	// Seen names the file of the URLs met: seen-GEN.bin, one for each
	// checkpoint, so that the switch to a new one is this file's rename.
	Seen string `json:"seen"`
	Gen  int    `json:"gen"` // the checkpoint's number, GEN
	// Spill is the part of queue.jsonl ([start, end) bytes) queued after
	// Queue, for a checkpoint taken while the crawl ran.
	Spill   [2]int64 `json:"spill"`
	Starts  []string `json:"starts"`
	Salt    string   `json:"salt"`
	Fetched int      `json:"fetched"`
	// Found is the length of found.jsonl when it was written: a resume
	// cuts what a later run (resumed, then killed) appended, whose pages
	// its queue visits again.
	Found int64        `json:"found"`
	Queue []itemRecord `json:"queue"`
	// Made is the outermost folder the crawl made for its own (absolute),
	// removed, when empty, by the run that ends it; "" when none.
	Made string `json:"made,omitempty"`
}

// checkpointVersion is the layout of the checkpoint and its seen file.
const checkpointVersion = 3

// Files of a crawl's folder.
const (
	checkpointFile = "checkpoint.json"
	seenFiles      = "seen-*.bin"
	foundFile      = "found.jsonl"
	queueFile      = "queue.jsonl"
)

// ErrNoCheckpoint is the error of a resume with nothing to resume.
var ErrNoCheckpoint = errors.New("no stopped crawl to resume")

// noCheckpoint is the error of a resume from dir, which holds no
// checkpoint.
func noCheckpoint(dir string) error {
	return fmt.Errorf("crawl: %s: %w (a crawl leaves one regularly while it runs, and when stopped by an interrupt or its time budget; one that ended leaves none): start it again without resume", dir, ErrNoCheckpoint)
}

// saveCheckpoint writes the checkpoint and the URLs met, with the fate of
// those decided (9 bytes each: the hash, the fate), into dir, each under
// a temporary name then renamed: a crawl killed while it writes leaves
// the previous checkpoint, or none.
func saveCheckpoint(dir string, gen int, cp *checkpoint, seen map[uint64]struct{}, skip map[uint64]int, fates map[uint64]fate) error {
	cp.Version = checkpointVersion
	cp.Gen, cp.Seen = gen, fmt.Sprintf("seen-%d.bin", gen)
	f, err := atomicfile.CreateTemp(dir, cp.Seen+".tmp")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	var b [9]byte
	put := func(h uint64, f fate) {
		binary.LittleEndian.PutUint64(b[:8], h)
		b[8] = byte(f)
		bw.Write(b[:])
	}
	for h := range seen {
		if skip[h] == 0 {
			put(h, fates[h])
		}
	}
	for h, f := range fates {
		if _, ok := seen[h]; !ok {
			put(h, f)
		}
	}
	if err := errors.Join(bw.Flush(), f.Sync(), f.Close()); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, cp.Seen)); err != nil {
		os.Remove(f.Name())
		return err
	}
	data, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	// Written last, in one step, the folder synced (both renames): the
	// switch to this record.
	if err := atomicfile.Write(dir, checkpointFile, checkpointFile+".tmp", data, true); err != nil {
		return err
	}
	// The checkpoint names its own: the others are the previous ones'.
	old, _ := filepath.Glob(filepath.Join(dir, seenFiles))
	for _, name := range old {
		if filepath.Base(name) != cp.Seen {
			os.Remove(name)
		}
	}
	return nil
}

// loadCheckpoint reads a checkpoint, the URLs met and their fates from
// dir.
func loadCheckpoint(dir string) (*checkpoint, map[uint64]struct{}, map[uint64]fate, error) {
	data, err := os.ReadFile(filepath.Join(dir, checkpointFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, noCheckpoint(dir)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("crawl: %w", err)
	}
	var cp checkpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, nil, nil, fmt.Errorf("crawl: %s is damaged: %w", filepath.Join(dir, checkpointFile), err)
	}
	if cp.Version != checkpointVersion {
		return nil, nil, nil, fmt.Errorf("crawl: %s was left by another version of sitemapkit: start the crawl again without resume", dir)
	}
	seenPath := filepath.Join(dir, filepath.Base(cp.Seen))
	f, err := os.Open(seenPath)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("crawl: %w", err)
	}
	defer f.Close()
	seen, fates := map[uint64]struct{}{}, map[uint64]fate{}
	br := bufio.NewReader(f)
	var b [9]byte
	for {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			if err == io.EOF {
				break
			}
			return nil, nil, nil, fmt.Errorf("crawl: %s is damaged: %w", seenPath, err)
		}
		h := binary.LittleEndian.Uint64(b[:8])
		seen[h] = struct{}{}
		if ft := fate(b[8]); ft != fateUnknown {
			fates[h] = ft
		}
	}
	return &cp, seen, fates, nil
}
