// Package sitemap writes, reads and checks sitemaps as sitemaps.org
// (protocol 0.9) and Google Search define them. It handles the format only:
// it never opens files or fetches URLs; give it an io.Writer or io.Reader.
//
// # A sitemap
//
// A sitemap lists the URLs of a site with, optionally, when each last
// changed. This URL
//
//	URL{Loc: "https://www.example.com/a?x=1&y=2", LastMod: "2024-05-01"}
//
// written by a [Writer] of [FormatURLSet] gives
//
//	<?xml version="1.0" encoding="UTF-8"?>
//	<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="…" xmlns:video="…" xmlns:news="…" xmlns:xhtml="…">
//	<url><loc>https://www.example.com/a?x=1&amp;y=2</loc><lastmod>2024-05-01</lastmod></url>
//	</urlset>
//
// Inside <url>, the order is fixed: loc, lastmod, changefreq, priority, then
// the extensions (image:image, video:video, news:news, xhtml:link). Google
// ignores changefreq and priority, and trusts lastmod only when it is
// accurate: the Writer writes what it is given and never invents a value.
//
// A site with more URLs than one file may hold has a sitemap index, which
// lists sitemaps ([FormatIndex], [IndexEntry]); an index may not list other
// indexes:
//
//	<?xml version="1.0" encoding="UTF-8"?>
//	<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
//	<sitemap><loc>https://www.example.com/sitemap-1.xml.gz</loc><lastmod>2024-05-01</lastmod></sitemap>
//	</sitemapindex>
//
// A text sitemap ([FormatText]) is one URL per line and nothing else.
//
// # Limits
//
// A sitemap or index holds at most 50,000 entries ([MaxURLs]) and at most
// 52,428,800 bytes uncompressed ([MaxBytes]), whichever comes first; gzip
// does not raise the byte limit. A sitemap holds at most 1,000 URLs with
// news ([MaxNews]) and a URL at most 1,000 images ([MaxImages]). A loc is
// shorter than 2,048 characters ([MaxLocLen]). The Writer counts its
// document's bytes exactly ([Writer.Len]) and answers [ErrFull] to the
// entry that would go over a limit, so that a caller can start the next
// file there: a file can be exactly at the limit, never one byte over.
//
// # Escaping
//
// Values are XML-escaped: & < > " ' are written &amp; &lt; &gt; &quot;
// &apos;, in elements and attributes alike. URLs must in addition be
// URIs: the protocol's example page
//
//	http://www.example.com/ümlat.html&q=name
//
// is percent-encoded to http://www.example.com/%C3%BCmlat.html&q=name
// (package loc does that) and then written
//
//	<loc>http://www.example.com/%C3%BCmlat.html&amp;q=name</loc>
//
// The Writer refuses a loc that is not yet a URI (non-ASCII characters,
// spaces) rather than guess: it says how to fix it.
//
// # Dates
//
// lastmod and the extensions' dates are W3C Datetimes: YYYY-MM-DD, or a
// time with seconds and a zone, YYYY-MM-DDThh:mm:ss±hh:mm (or Z).
// [ParseDate] reads all six W3C forms; [FormatDate] writes the full one.
//
// # Where we are stricter than the schemas
//
// The schemas (xsd/ in the specification folder) accept a few values that
// Google reports as errors; [URL.Check] and the Writer refuse them:
//
//   - a time without a time zone, 2024-05-01T10:00:00: Google's "invalid
//     date" (rule time-without-timezone);
//   - a date with a zone but no time, 2024-05-01+02:00 (invalid-date);
//   - a video duration of 0, a loc of 2,048 characters, an hreflang that
//     is a country alone or a region like es-419, a video without
//     content_loc or player_loc, or one whose content_loc is the page.
//
// And the Writer keeps its own output valid where the protocol is looser
// than the schemas: a lastmod of only a year or a month (W3C forms) is
// refused, and a time without seconds (10:30+02:00, which Google accepts)
// is written with ":00" added.
//
// # Checking
//
// [URL.Check] and [IndexEntry.Check] report every problem of an entry
// through a callback, each a [Violation] with a stable rule ID (the Rule…
// constants) named after the Search Console error it predicts. The Writer
// runs the same checks and refuses an entry with the first violation.
package sitemap
