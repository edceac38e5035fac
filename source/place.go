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
// Placer's answer, or "name:line".
func Place(src Source) string {
	if p, ok := src.(Placer); ok {
		return p.Place()
	}
	return linePlace(src.Name(), src.Line())
}

// linePlace is "name:line", or name alone when the line is unknown.
func linePlace(name string, line int) string {
	if line > 0 {
		return name + ":" + strconv.Itoa(line)
	}
	return name
}
