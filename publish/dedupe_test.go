package publish

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/longtest"
	"github.com/sitemapkit/sitemapkit/sitemap"
)

func TestSeenSet(t *testing.T) {
	s := newSeenSet()
	const n = 300000
	add := func(i int) bool {
		h := s.hash("https://www.example.com/p/" + strconv.Itoa(i))
		if s.contains(h) {
			return false
		}
		s.add(h)
		return true
	}
	for i := range n {
		if !add(i) {
			t.Fatalf("URL %d found before it was added", i)
		}
		// Duplicates of recent URLs (still pending) and of old ones.
		if add(i) || add(i/2) || add(i/1000) {
			t.Fatalf("duplicate of URL %d, %d or %d not found", i, i/2, i/1000)
		}
	}
	for i := range n {
		if !s.contains(s.hash("https://www.example.com/p/" + strconv.Itoa(i))) {
			t.Fatalf("URL %d lost after growing", i)
		}
	}
	wrong, positives := 0, 0
	for i := n; i < 2*n; i++ {
		h := s.hash("https://www.example.com/p/" + strconv.Itoa(i))
		if s.contains(h) {
			wrong++
		}
		g := s.segment(key(h))
		if m := bloomMask(h); g.bloom[bloomWord(h, len(g.bloom))]&m == m {
			positives++
		}
	}
	if wrong > 0 {
		t.Errorf("%d URLs never added were found", wrong)
	}
	// The filter must spare most lookups of new URLs the table.
	if rate := float64(positives) / n; rate > 0.05 {
		t.Errorf("filter false positive rate %.3f, want < 0.05", rate)
	}
	if s.len() != n {
		t.Errorf("len = %d, want %d", s.len(), n)
	}
}

// TestSeenSetMemory: the bound, at most 16 bytes per URL, holds at
// every size once past the set's fixed cost (~61 KB, the cost of 4,000
// URLs, and more just after the first growths), through the growths of
// every segment.
func TestSeenSetMemory(t *testing.T) {
	s := newSeenSet()
	defer s.release()
	worst := 0.0
	for i := range 400000 {
		h := s.hash(strconv.Itoa(i))
		if !s.contains(h) {
			s.add(h)
		}
		if s.len() > 12000 {
			worst = max(worst, s.bytesPerURL())
		}
	}
	if worst > 16 {
		t.Errorf("worst %.2f bytes per URL, want ≤ 16", worst)
	}
	grown := 0
	for i := range s.segs {
		if len(s.segs[i].mem) > seenMinWords {
			grown++
		}
	}
	if grown != seenSegs {
		t.Errorf("%d of %d segments grew, want all", grown, seenSegs)
	}
}

func TestSeenSetSeedsDiffer(t *testing.T) {
	a, b := newSeenSet(), newSeenSet()
	if a.hash("https://www.example.com/") == b.hash("https://www.example.com/") {
		t.Error("two sets hash alike: the seed is not per Builder")
	}
}

// BenchmarkSeenSet adds 1,000,000 new URLs (the common case: no
// duplicates), as a set of that size does.
func BenchmarkSeenSet(b *testing.B) {
	locs := make([]string, 1_000_000)
	for i := range locs {
		locs[i] = "https://www.example.com/catalog/item-" + strconv.Itoa(i) + "?color=red"
	}
	cpu0 := cpuTime()
	for b.Loop() {
		s := newSeenSet()
		for _, l := range locs {
			if h := s.hash(l); !s.contains(h) {
				s.add(h)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(locs)), "ns/URL")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(len(locs)), "cpu-ns/URL")
}

// checkExact adds every hash of hs not yet in want, checking contains
// against want before each add, then looks every hash up again.
func checkExact(t *testing.T, s *seenSet, want map[uint64]bool, hs func(yield func(uint64) bool)) {
	t.Helper()
	for h := range hs {
		got := s.contains(h)
		if got != want[key(h)] {
			t.Fatalf("contains(%#x) = %v before add, want %v", h, got, !got)
		}
		if !got {
			s.add(h)
			want[key(h)] = true
		}
	}
	if s.len() != len(want) {
		t.Errorf("len = %d, want %d", s.len(), len(want))
	}
	for h := range want {
		if !s.contains(h) {
			t.Fatalf("%#x lost", h)
		}
	}
}

// TestSeenSetExact checks membership against a map for random hashes,
// with repeats, and for hashes built to defeat the layout: all in one
// segment, all in one slot or one filter word, 0 (which is taken for 1),
// and the extremes.
func TestSeenSetExact(t *testing.T) {
	n := 3_000_000
	if !longtest.Enabled() {
		n = 300_000
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	seq := func(n int, f func(i int) uint64) func(func(uint64) bool) {
		return func(yield func(uint64) bool) {
			for i := range n {
				if !yield(f(i)) {
					return
				}
			}
		}
	}
	cases := []struct {
		name string
		hs   func(func(uint64) bool)
	}{
		{"random", seq(n, func(i int) uint64 {
			if i%4 == 3 {
				return r.Uint64N(uint64(i)) * 0x9e3779b97f4a7c15 // a repeat, now and then
			}
			return r.Uint64()
		})},
		{"zero and one", seq(4, func(i int) uint64 { return uint64(i % 2) })},
		{"extremes", seq(4, func(i int) uint64 { return []uint64{1 << 63, 1<<63 - 1, 1<<64 - 1, 1<<56 - 1}[i] })},
		{"one segment", seq(200_000, func(i int) uint64 { return 0x5a<<56 | r.Uint64()>>seenSegBits })},
		{"one slot each segment", seq(seenSegs, func(i int) uint64 { return uint64(i) << 56 })},
		// Small integers: one segment, and all want its first slot.
		{"one cluster", seq(5000, func(i int) uint64 { return uint64(i) })},
		// Same low 32 bits: one filter word, the same 4 bits.
		{"one filter word", seq(20_000, func(i int) uint64 { return r.Uint64()&^0xffffffff | 0x12345678 })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSeenSet()
			defer s.release()
			want := map[uint64]bool{}
			checkExact(t, s, want, c.hs)
			// Then lookups of hashes never added.
			for range 100_000 {
				if h := r.Uint64(); s.contains(h) != want[key(h)] {
					t.Fatalf("contains(%#x) = %v, want %v", h, !want[key(h)], want[key(h)])
				}
			}
		})
	}
}

// TestSeenSetRelease: release gives back every segment, mapped or not.
func TestSeenSetRelease(t *testing.T) {
	s := newSeenSet()
	for i := range 500_000 {
		s.add(uint64(i+1) * 0x9e3779b97f4a7c15)
	}
	mapped := 0
	for i := range s.segs {
		if s.segs[i].mapped {
			mapped++
		}
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" && mapped == 0 {
		t.Error("no segment of 500,000 URLs was mapped off the heap")
	}
	s.release()
	s.release() // as Abort after Publish does
	for i := range s.segs {
		if s.segs[i].mem != nil {
			t.Fatalf("segment %d kept after release", i)
		}
	}
}

// TestBuilderReleasesSeen: Publish and Abort free the seen set.
func TestBuilderReleasesSeen(t *testing.T) {
	for _, publish := range []bool{true, false} {
		b, err := New(Options{Dir: t.TempDir(), Base: "https://www.example.com/"})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for i := range 20_000 {
			if err := b.Add(ctx, &sitemap.URL{Loc: "https://www.example.com/p/" + strconv.Itoa(i)}); err != nil {
				t.Fatal(err)
			}
		}
		if publish {
			if _, err := b.Publish(ctx); err != nil {
				t.Fatal(err)
			}
		} else if err := b.Abort(); err != nil {
			t.Fatal(err)
		}
		for i := range b.seen.segs {
			if b.seen.segs[i].mem != nil {
				t.Fatalf("publish=%v: segment %d kept", publish, i)
			}
		}
	}
}

// procStatus returns a field of /proc/self/status in bytes.
func procStatus(t *testing.T, field string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Skipf("no %s in /proc/self/status", field)
	return 0
}

// TestSeenSetRSS holds the process, not only the set's own accounts, to
// the 16 bytes per URL: the peak resident size while ten million
// hashes are added (growths included) rises by no more than that, plus a
// little for the heap's small segments; and release gives it back.
func TestSeenSetRSS(t *testing.T) {
	longtest.Skip(t, "adds ten million hashes")
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	const n = 10_000_000
	const slack = 8 << 20
	runtime.GC()
	debug.FreeOSMemory()
	before := procStatus(t, "VmRSS")
	// Reset VmHWM, the peak, to the current size.
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skip(err)
	}
	if hwm := procStatus(t, "VmHWM"); hwm > before+slack {
		t.Skipf("VmHWM %d not reset (VmRSS %d)", hwm, before)
	}
	s := newSeenSet()
	r := rand.New(rand.NewPCG(rand.Uint64(), 2))
	worst, at := 0.0, 0
	for i := range n {
		if h := r.Uint64(); !s.contains(h) {
			s.add(h)
		}
		if i >= 12000 && i%4096 == 0 {
			if b := s.bytesPerURL(); b > worst {
				worst, at = b, s.len()
			}
		}
	}
	worst = max(worst, s.bytesPerURL())
	if worst > 16 {
		t.Errorf("set holds %.2f bytes per URL at %d URLs, want ≤ 16", worst, at)
	}
	peak := procStatus(t, "VmHWM")
	t.Logf("RSS %d MB before, peak %d MB: %.2f bytes per URL; set's own %.2f at worst", before>>20, peak>>20, float64(peak-before)/n, worst)
	if peak-before > 16*n+slack {
		t.Errorf("peak RSS rose by %d bytes, %.2f per URL, want ≤ 16 per URL + %d", peak-before, float64(peak-before)/n, slack)
	}
	s.release()
	if after := procStatus(t, "VmRSS"); after > before+slack {
		t.Errorf("RSS %d bytes after release, %d before", after, before)
	}
}

// BenchmarkSeenSetLarge adds 10,000,000 new random hashes: a set far out of
// the caches, growing every segment about nine times.
func BenchmarkSeenSetLarge(b *testing.B) {
	const n = 10_000_000
	r := rand.New(rand.NewPCG(1, 2))
	cpu0 := cpuTime()
	for b.Loop() {
		s := newSeenSet()
		for range n {
			if h := r.Uint64(); !s.contains(h) {
				s.add(h)
			}
		}
		s.release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/URL")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/n, "cpu-ns/URL")
}

// TestSeenAddBatch: AddBatch and Add answer as a map does, for repeats
// within a batch and across batches, through the tables' growths, within
// the 16 bytes a URL (a Seen has no filter: less).
func TestSeenAddBatch(t *testing.T) {
	s := NewSeen()
	defer s.Release()
	ref := map[string]bool{}
	r := rand.New(rand.NewPCG(3, 4))
	for k := range 400 {
		locs := make([]string, 1+r.IntN(1200))
		for i := range locs {
			locs[i] = "https://www.example.com/" + strconv.Itoa(r.IntN(300000))
		}
		fresh := make([]bool, len(locs))
		if k%2 == 0 {
			s.AddBatch(locs, fresh)
		} else {
			for i, l := range locs {
				fresh[i] = s.Add(l)
			}
		}
		for i, l := range locs {
			if want := !ref[l]; fresh[i] != want {
				t.Fatalf("%s new: %v, want %v", l, fresh[i], want)
			}
			ref[l] = true
		}
	}
	if n := s.s.len(); n != len(ref) {
		t.Errorf("len %d, want %d", n, len(ref))
	}
	if b := s.s.bytesPerURL(); b > 16 {
		t.Errorf("%.1f bytes a URL, want at most 16", b)
	}
}

// TestSeenReserve: a Seen made room for n URLs takes them without a growth,
// answers as ever, and holds them within 16 bytes a URL.
func TestSeenReserve(t *testing.T) {
	const n = 200000
	s := NewSeen()
	defer s.Release()
	s.Reserve(n)
	before := s.s.bytes()
	for i := range n {
		if !s.Add("https://www.example.com/" + strconv.Itoa(i)) {
			t.Fatalf("URL %d found before it was added", i)
		}
	}
	if s.Add("https://www.example.com/7") {
		t.Error("a duplicate after Reserve is new")
	}
	if after := s.s.bytes(); after != before {
		t.Errorf("the set grew from %d to %d bytes on its way to the %d URLs reserved", before, after, n)
	}
	if b := s.s.bytesPerURL(); b > 16 {
		t.Errorf("%.1f bytes a URL, want at most 16", b)
	}
}

// BenchmarkSeenAddBatch adds 2,000,000 new URLs to a Seen, 512 at a time,
// as the command's read-ahead and validate do.
func BenchmarkSeenAddBatch(b *testing.B) {
	locs := make([]string, 2_000_000)
	for i := range locs {
		locs[i] = "https://www.example.com/catalog/item-" + strconv.Itoa(i) + "?color=red"
	}
	fresh := make([]bool, 512)
	cpu0 := cpuTime()
	for b.Loop() {
		s := NewSeen()
		for i := 0; i < len(locs); i += 512 {
			s.AddBatch(locs[i:min(i+512, len(locs))], fresh)
		}
		s.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(locs)), "ns/URL")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(len(locs)), "cpu-ns/URL")
}

// TestReserveTouchesNothing: room reserved is not memory used. validate
// reserves a million URLs' room before it knows how many come; clearing
// it all cost a small run 12 MiB of RSS and a page fault a page.
func TestReserveTouchesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	runtime.GC()
	before := procStatus(t, "VmRSS")
	s := NewSeen()
	s.Reserve(1 << 20)
	for i := range 10 {
		s.Add("https://www.example.com/" + strconv.Itoa(i))
	}
	grew := procStatus(t, "VmRSS") - before
	s.Release()
	if grew > 4<<20 {
		t.Errorf("RSS grew by %d KiB for 10 URLs in a set reserved for a million", grew>>10)
	}
}

// TestSeenPopulate: a Seen populated while it is filled (validate's set,
// from its thousandth URL on) answers as ever; its room becomes
// resident; Release waits for the populating goroutine rather than unmap
// the room under it; and a second Populate starts no second goroutine.
func TestSeenPopulate(t *testing.T) {
	s := NewSeen()
	s.Reserve(1 << 20)
	ref := map[string]bool{}
	r := rand.New(rand.NewPCG(5, 6))
	for k := range 200 {
		if k == 2 {
			s.Populate()
			first := s.s.populated
			s.Populate()
			if s.s.populated != first {
				t.Fatal("a second Populate started a second goroutine")
			}
		}
		locs := make([]string, 512)
		for i := range locs {
			locs[i] = "https://www.example.com/" + strconv.Itoa(r.IntN(60000))
		}
		fresh := make([]bool, len(locs))
		s.AddBatch(locs, fresh)
		for i, l := range locs {
			if want := !ref[l]; fresh[i] != want {
				t.Fatalf("batch %d: %s new: %v, want %v", k, l, fresh[i], want)
			}
			ref[l] = true
		}
	}
	s.Release()
	select {
	case <-s.s.populated:
	default:
		t.Error("Release returned with the populating goroutine still running")
	}

	// A segment grown past its room: populate's spans are out of date,
	// and the goroutine is stopped before the segment moves.
	s = NewSeen()
	s.Reserve(1 << 20)
	s.Populate()
	g := &s.s.segs[0]
	s.s.growTo(g, len(g.mem)*4)
	select {
	case <-s.s.populated:
	default:
		t.Error("a segment grew with the populating goroutine still running")
	}
	s.Release()

	// Released at once: the goroutine stops at its next segment.
	s = NewSeen()
	s.Reserve(1 << 20)
	s.Populate()
	s.Release()
	select {
	case <-s.s.populated:
	default:
		t.Error("Release returned with the populating goroutine still running")
	}
}
