package state

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"time"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Key is the 64-bit key of a canonical loc in the state: xxHash64, whose
// bits are uniform (the index's table finds a key by them). Two locs
// sharing a key would be taken for one URL: about n²/2⁶⁵, 3·10⁻⁸ for a
// million URLs, the odds package publish's de-duplication accepts too.
func Key(loc string) uint64 { return xxhash.Sum64String(loc) }

// A rec is one URL of the last run, as a run holds it: 32 bytes, so that a
// million URLs take 32 MB.
type rec struct {
	key  uint64
	fp   uint64
	lm   lastmod
	file uint32 // files.id
	// flag holds seen, kept and dirty (this run), and the URL's place in
	// this run's order (its arrival, below seqMask).
	flag uint32
}

const (
	seen  uint32 = 1 << (31 - iota) // a source gave the URL this run
	kept                            // its read failed this run: kept as it was
	dirty                           // its row must be written back

	seqMask = 1<<29 - 1
)

// recSize is a rec's size in a snapshot blob.
const recSize = 8 + 8 + 8 + 4

// index is the last run's URLs, in the order that run met them, with a
// hash table of their positions. Sources list their URLs in much the same
// order from run to run (a folder's walk, an export's rows), so find first
// tries the URL after the one last found: memory read in order, which the
// processor fetches ahead, where a lookup in the table is a cache miss.
type index struct {
	recs  []rec
	table []uint32 // positions + 1; 0 is an empty slot
	hint  int
}

// newIndex indexes recs; alloc gives the table's words.
func newIndex(recs []rec, alloc func(words int) []uint64) *index {
	x := &index{recs: recs}
	// At most two thirds full, and never full: find stops at an empty
	// slot, and a table of one slot for a state of one URL had none (a
	// run given any other URL looped for ever).
	n := len(recs)*3/2 + 1
	w := alloc((n + 1) / 2)
	x.table = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(w))), 2*len(w))[:n]
	clear(x.table)
	for i := range recs {
		j := x.slot(recs[i].key)
		for x.table[j] != 0 {
			if j++; j == len(x.table) {
				j = 0
			}
		}
		x.table[j] = uint32(i + 1)
	}
	return x
}

// slot is key's first slot in the table: fast range reduction.
func (x *index) slot(key uint64) int {
	hi, _ := bits.Mul64(key, uint64(len(x.table)))
	return int(hi)
}

// find returns the position of key, or -1.
func (x *index) find(key uint64) int {
	if h := x.hint; h < len(x.recs) && x.recs[h].key == key {
		x.hint = h + 1
		return h
	}
	for j := x.slot(key); ; {
		v := x.table[j]
		if v == 0 {
			return -1
		}
		if x.recs[v-1].key == key {
			x.hint = int(v)
			return int(v - 1)
		}
		if j++; j == len(x.table) {
			j = 0
		}
	}
}

// encode appends recs to b, as a snapshot stores them.
func encodeRecs(b []byte, recs []rec) []byte {
	for _, r := range recs {
		b = binary.LittleEndian.AppendUint64(b, r.key)
		b = binary.LittleEndian.AppendUint64(b, r.fp)
		b = binary.LittleEndian.AppendUint64(b, uint64(r.lm))
		b = binary.LittleEndian.AppendUint32(b, r.file)
	}
	return b
}

func decodeRecs(recs []rec, b []byte) []rec {
	for ; len(b) >= recSize; b = b[recSize:] {
		recs = append(recs, rec{
			key:  binary.LittleEndian.Uint64(b),
			fp:   binary.LittleEndian.Uint64(b[8:]),
			lm:   lastmod(binary.LittleEndian.Uint64(b[16:])),
			file: binary.LittleEndian.Uint32(b[24:]),
		})
	}
	return recs
}

// A lastmod is a W3C date packed in 64 bits, to the second: whether there
// is one, whether it is a day only, its zone ("Z" or an offset in minutes)
// and its instant. Written back with String, it gives the same text every
// run, so an unchanged URL's entry, and its file, keep the same bytes.
type lastmod uint64

const (
	lmSet   = 1 << 63
	lmDay   = 1 << 62
	lmZ     = 1 << 61
	lmShift = 48 // offset minutes + lmBias, in 13 bits
	lmBias  = 4096
	// epoch: seconds from 0001-01-01 to 1970-01-01, so that the instant
	// is never negative.
	epoch = 62135596800
)

// packLastmod packs the W3C date s; ok is false for "" and for what the
// sitemap Writer would refuse (a year or month alone, no zone, a bad date).
func packLastmod(s string) (lastmod, bool) {
	if len(s) < 10 {
		return 0, false
	}
	t, err := sitemap.ParseDate(s)
	if err != nil {
		return 0, false
	}
	sec := uint64(t.Unix() + epoch)
	if sec >= 1<<lmShift {
		return 0, false
	}
	if len(s) == 10 {
		return lastmod(lmSet | lmDay | sec), true
	}
	if s[len(s)-1] == 'Z' {
		return lastmod(lmSet | lmZ | sec), true
	}
	z := s[len(s)-6:]
	h, err1 := strconv.Atoi(z[1:3])
	m, err2 := strconv.Atoi(z[4:6])
	if err1 != nil || err2 != nil {
		return 0, false
	}
	off := h*60 + m
	if z[0] == '-' {
		off = -off
	}
	return lastmod(lmSet | uint64(off+lmBias)<<lmShift | sec), true
}

// timeLastmod packs t, as FormatDate writes it.
func timeLastmod(t time.Time) lastmod {
	lm, _ := packLastmod(sitemap.FormatDate(t.Truncate(time.Second)))
	return lm
}

// String writes the date back: "" when there is none.
func (l lastmod) String() string {
	if l&lmSet == 0 {
		return ""
	}
	t := time.Unix(int64(l&(1<<lmShift-1))-epoch, 0).UTC()
	switch {
	case l&lmDay != 0:
		return t.Format("2006-01-02")
	case l&lmZ != 0:
		return t.Format("2006-01-02T15:04:05Z")
	}
	off := int(l>>lmShift&(1<<13-1)) - lmBias
	return t.In(time.FixedZone("", off*60)).Format("2006-01-02T15:04:05-07:00")
}

// after returns l, or, when l is not later than p (the clock set back, or
// two runs in one second), p's second plus one, in l's form: a change is
// never dated at or before the date it replaces, which a crawler that read
// the page at that date would take for no change since. A p more than a
// day past l is no clock's doing but a source's bogus date (a year 2099),
// which l, the truth, replaces rather than carry on.
func (l lastmod) after(p lastmod) lastmod {
	if p&lmSet == 0 || l.instant() > p.instant() || p.instant() > l.instant()+maxClockLag || p.instant()+1 >= 1<<lmShift {
		return l
	}
	return l&^(1<<lmShift-1) | lastmod(p.instant()+1)
}

// maxClockLag is how far, in seconds, a run's clock may be behind the
// lastmod a run before it wrote for after to keep the order: a day, as
// validate's future-lastmod allows.
const maxClockLag = 24 * 60 * 60

// instant returns the date's second, as a number that orders dates.
func (l lastmod) instant() uint64 { return uint64(l) & (1<<lmShift - 1) }
