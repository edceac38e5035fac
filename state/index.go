package state

import (
	"encoding/binary"
	"hash/fnv"
	"math/bits"
	"slices"
	"strconv"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// Key is the 64-bit key of a canonical loc in the state: FNV-1a, mixed so
// that keys are uniform (the index finds a key by its top bits). Two locs
// sharing a key would be taken for one URL: about n²/2⁶⁵, 3·10⁻⁸ for a
// million URLs, the odds package publish's de-duplication accepts too.
func Key(loc string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(loc))
	return mix(h.Sum64())
}

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// A rec is one URL of the last run, as a run holds it: 32 bytes, so that a
// million URLs take 32 MB.
type rec struct {
	key  uint64
	fp   uint64
	lm   lastmod
	file uint32 // files.id
	flag uint32 // seen, failed, dirty (this run)
}

const (
	seen  uint32 = 1 << iota // a source gave the URL this run
	kept                     // its read failed this run: kept as it was
	dirty                    // its row must be written back
)

// recSize is a rec's size in a snapshot blob.
const recSize = 8 + 8 + 8 + 4

// index is the last run's URLs, sorted by key, with a directory of where
// each value of the top bits starts: a lookup is two memory accesses.
type index struct {
	recs  []rec
	dir   []uint32
	shift uint
}

func newIndex(recs []rec) *index {
	slices.SortFunc(recs, func(a, b rec) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	x := &index{recs: recs}
	dirBits := max(bits.Len(uint(len(recs))), 1)
	x.shift = uint(64 - dirBits)
	x.dir = make([]uint32, 1<<dirBits+1)
	i := 0
	for d := range 1 << dirBits {
		for i < len(recs) && recs[i].key>>x.shift < uint64(d) {
			i++
		}
		x.dir[d] = uint32(i)
	}
	x.dir[1<<dirBits] = uint32(len(recs))
	return x
}

// find returns the position of key, or -1.
func (x *index) find(key uint64) int {
	d := key >> x.shift
	for i := x.dir[d]; i < x.dir[d+1]; i++ {
		switch k := x.recs[i].key; {
		case k == key:
			return int(i)
		case k > key:
			return -1
		}
	}
	return -1
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

// instant returns the date's second, as a number that orders dates.
func (l lastmod) instant() uint64 { return uint64(l) & (1<<lmShift - 1) }
