package source

import "strconv"

// A Placer is a Source whose records are not lines of one file (the pages
// of a folder, the rows of a query, the entries of several sitemaps): Place
// names where the record Read last returned came from, as a message should
// show it ("public/about/index.html", "row 12 of SELECT …",
// "https://www.example.com/sitemap-2.xml:40").
type Placer interface {
	Place() string
}

// Place names where the record src.Read last returned came from: its
// Placer's answer, or that of the Source it wraps (see Filter.Unwrap), or
// "name:line".
func Place(src Source) string {
	if p := placerOf(src); p != nil {
		return p.Place()
	}
	return linePlace(src.Name(), src.Line())
}

// placerOf returns the Placer that names src's places: src, or the Source
// it wraps, which a wrapper such as Filter passes records through from
// unchanged; nil for sources of lines, whose places need no string until
// one is asked for.
func placerOf(src Source) Placer {
	for src != nil {
		if p, ok := src.(Placer); ok {
			return p
		}
		u, ok := src.(interface{ Unwrap() Source })
		if !ok {
			return nil
		}
		src = u.Unwrap()
	}
	return nil
}

// linePlace is "name:line", or name alone when the line is unknown.
func linePlace(name string, line int) string {
	if line > 0 {
		return name + ":" + strconv.Itoa(line)
	}
	return name
}

// A Fingerprinter is a Source that knows the significant content of its
// records (a static folder's pages, with StaticOptions.Fingerprint):
// Fingerprint returns that of the record Read last returned, and false
// when it has none. A change tracker tells a changed page from a rebuilt
// one by it (package state).
type Fingerprinter interface {
	Fingerprint() (uint64, bool)
}

// FingerprintOf returns the fingerprint of the record src.Read last
// returned, as its Fingerprinter (or that of the Source it wraps) says;
// false when there is none.
func FingerprintOf(src Source) (uint64, bool) {
	if f := fingerprinterOf(src); f != nil {
		return f.Fingerprint()
	}
	return 0, false
}

// fingerprinterOf returns the Fingerprinter of src or of the Source it
// wraps, or nil: a reader of many records finds it once.
func fingerprinterOf(src Source) Fingerprinter {
	for src != nil {
		if f, ok := src.(Fingerprinter); ok {
			return f
		}
		u, ok := src.(interface{ Unwrap() Source })
		if !ok {
			return nil
		}
		src = u.Unwrap()
	}
	return nil
}
