package sitemap

import "io"

// detectLimit bounds what Detect reads: the root element of a sitemap, or
// the first line of a text sitemap, comes long before it, even behind a
// compressed block.
const detectLimit = 256 << 10

// Detect tells a sitemap from other content by its beginning, as Reader
// does (it is the Reader's own detection), so that a program choosing which
// files to read agrees with the Reader that reads them: a folder scan finds
// the same gzip and zstd sitemaps the Reader opens. It returns the format
// (FormatUnknown for anything the Reader refuses) and the compression
// ("gzip", "zstd" or ""). It reads at most 256 KiB of r; the caller keeps
// what it needs of them.
func Detect(r io.Reader) (f Format, compression string) {
	rd := NewReader(io.LimitReader(r, detectLimit))
	rd.Read()
	return rd.Format(), rd.Compressed()
}
