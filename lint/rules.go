package lint

import "github.com/sitemapkit/sitemapkit/sitemap"

func newRule(name string, sev Severity, searchConsole, doc string) *Rule {
	return &Rule{Name: name, Severity: sev, SearchConsole: searchConsole, Doc: doc, URL: docURL(name)}
}

// The rules. Their IDs reuse the sitemap.Rule… constants where the writer or
// the reader reports the same thing, so that one ID means one rule whoever
// finds it. Doc texts cite the protocol (sitemaps.org), Google's
// documentation or the schemas; see ../shared/spec/PROTOCOL.md.
var (
	// The document as a whole.

	ParseError = newRule(sitemap.RuleParseError, Error, "Parsing error",
		"Not well-formed XML\nThe document cannot be parsed (an unclosed tag, a bare &, a truncated file). Crawlers stop at the damage: the entries before it may be read, the rest are lost.")
	UnsupportedFormat = newRule(sitemap.RuleUnsupportedFormat, Error, "Unsupported format",
		"Not a sitemap format\nThe root is neither <urlset> nor <sitemapindex>, and the document is not a text sitemap, RSS 2.0/1.0 or Atom 1.0/0.3 feed. Google reads only these formats.")
	SitemapIsHTML = newRule(sitemap.RuleSitemapIsHTML, Error, "Sitemap is HTML",
		"An HTML page instead of a sitemap\nUsually a single-page app answering every path with index.html, or the wrong URL submitted. Search Console: \"Your Sitemap appears to be an HTML page\".")
	DoctypeNotAllowed = newRule(sitemap.RuleDoctype, Error, "Parsing error",
		"DOCTYPE or entity declaration\nSitemaps have no DTD. Declarations are refused and nothing after them is read, because they are how XML attacks work (external entities, billion laughs).")
	CompressionError = newRule(sitemap.RuleCompressionError, Error, "Compression error",
		"Damaged compressed file\nThe gzip stream is corrupt or truncated. Only gzip is a sitemap compression (the sitemaps.org FAQ: gzip, not zip).")
	FileTooLarge = newRule(sitemap.RuleFileTooLarge, Error, "Sitemap file size error",
		"Larger than 52,428,800 bytes uncompressed\nsitemaps.org and Google: a sitemap or index must be no larger than 50MB (52,428,800 bytes) once uncompressed, whatever its compressed size. Split it.")
	LeadingWhitespace = newRule(sitemap.RuleLeadingWhitespace, Error, "Leading whitespace",
		"Content before the XML declaration\nThe XML declaration must be the very first thing in the file; whitespace or text before it makes the file invalid XML.")
	IncorrectNamespace = newRule(sitemap.RuleIncorrectNamespace, Error, "Incorrect namespace",
		"Root element not in the sitemaps.org namespace\nThe root must declare xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\", exactly, with http (Google asks not to \"fix\" it to https).")
	InvalidCharacter = newRule(sitemap.RuleInvalidCharacter, Error, "Parsing error",
		"Character not allowed in XML\nA control character, or bytes that are not UTF-8. Sitemaps must be UTF-8 encoded XML 1.0.")
	UnknownTag = newRule(sitemap.RuleUnknownTag, Warning, "",
		"Element the protocol does not define there\nGoogle ignores it. The schemas reject elements from namespaces they do not know (xsd:any is strict), so validators fail such files.")
	ElementOrder = newRule(sitemap.RuleElementOrder, Error, "Parsing error",
		"Elements out of order\nThe schemas demand loc, lastmod, changefreq, priority, then extensions; and the order of each extension's children (video is a strict sequence).")
	MissingTag = newRule(sitemap.RuleMissingTag, Error, "Missing XML tag",
		"Required element missing\nFor example a <url> or <sitemap> without <loc>.")
	EmptySitemap = newRule("empty-sitemap", Warning, "Empty sitemap",
		"Sitemap without entries\nSearch Console shows a warning; it is harmless for a news sitemap that has had no recent article. The schema requires at least one <url>.")
	TooManyURLs = newRule("too-many-urls", Error, "Too many URLs",
		"More than 50,000 URLs in one sitemap\nsitemaps.org and Google: at most 50,000 URLs per file. Split the file and list the parts in an index.")

	// URLs.

	InvalidURL = newRule(sitemap.RuleInvalidURL, Error, "Invalid URL",
		"Not a valid absolute http(s) URL\nThe value cannot be parsed, is not http or https, contains characters that must be escaped, or is shorter than the schema's 12 characters. Invalid URLs are dropped.")
	RelativeURL = newRule(sitemap.RuleRelativeURL, Error, "Invalid URL",
		"Relative URL\nLocations must be fully qualified, starting with the scheme (\"Use fully-qualified, absolute URLs\").")
	URLNotAllowed = newRule(sitemap.RuleURLNotAllowed, Error, "URL not allowed",
		"Other scheme, host or port than the sitemap\nA sitemap may list only URLs of its own site: http vs https, www vs no www (Search Console: \"Path mismatch\"), another host or port are not allowed. For an index, each child sitemap must be on the index's site too (unless the child's host lists it in its robots.txt).")
	OutsideDirectory = newRule(sitemap.RuleOutsideDirectory, Error, "URL not allowed",
		"URL outside the sitemap's directory\nA sitemap at /catalog/sitemap.xml may list only /catalog/… URLs; an index's children must be in its directory or lower. Move the sitemap up, to the root for preference.")
	URLTooLong = newRule(sitemap.RuleURLTooLong, Error, "Invalid URL",
		"URL of 2,048 characters or more\nsitemaps.org: a location \"must be less than 2,048 characters\", counted once escaped.")
	SessionID = newRule(sitemap.RuleSessionID, Warning, "",
		"URL carries a session ID\nSession IDs (sid, PHPSESSID, jsessionid…) make one page many URLs; list canonical URLs only.")
	InvalidDate = newRule(sitemap.RuleInvalidDate, Error, "Invalid date",
		"Not a W3C datetime\nlastmod and the extensions' dates must be YYYY-MM-DD or a full date and time with a timezone, e.g. 2024-05-01T10:00:00+02:00. An empty <lastmod/> is invalid too (the schema refuses it): leave the element out when the date is unknown.")
	TimeWithoutZone = newRule(sitemap.RuleTimeWithoutZone, Error, "Invalid date",
		"Time without a timezone\nW3C datetime requires a timezone whenever a time is given; Google reports \"Invalid date\". The schema (xsd:dateTime) wrongly accepts it.")
	FutureLastmod = newRule("lastmod-in-future", Warning, "",
		"lastmod in the future\nA lastmod more than a day after the check's time (a day covers every time zone) is a date no page can have yet: a clock or a template is wrong, and Google stops trusting the site's lastmods when they are not accurate.")
	InvalidChangefreq = newRule(sitemap.RuleInvalidChangefreq, Error, "Invalid tag value",
		"changefreq not one of the seven values\nalways, hourly, daily, weekly, monthly, yearly or never, lower-case.")
	InvalidPriority = newRule(sitemap.RuleInvalidPriority, Error, "Invalid tag value",
		"priority outside 0.0 to 1.0\npriority is a decimal from 0.0 to 1.0.")
	URLBlockedByRobots = newRule("url-blocked-by-robots", Error, "Submitted URL blocked by robots.txt",
		"URL disallowed by robots.txt\nThe site's robots.txt keeps the crawler (Googlebot unless --robots-agent says) from the URL, so it is never read, whatever the sitemap says; Search Console reports \"Submitted URL blocked by robots.txt\" and the sitemap warning \"Sitemap contains URLs which are blocked by robots.txt\". Checked when the robots.txt is known: over HTTP, or given with --robots. Remove the URL, or allow it.")
	DuplicateURL = newRule(sitemap.RuleDuplicateURL, Warning, "",
		"URL listed more than once\nA URL appears twice in one sitemap, or in two sitemaps of the same set. Crawlers keep one; the duplicates waste the file's budget and may carry conflicting lastmod.")
	ChangefreqIgnored = newRule("changefreq-ignored", Info, "",
		"changefreq is ignored by Google\n\"Google ignores <priority> and <changefreq> values.\" Harmless; reported once per file.")
	PriorityIgnored = newRule("priority-ignored", Info, "",
		"priority is ignored by Google\n\"Google ignores <priority> and <changefreq> values.\" Harmless; reported once per file.")

	// Index files.

	NestedIndex = newRule("nested-index", Error, "Incorrect sitemap index format: Nested sitemap indexes",
		"Index listed by an index\nGoogle cannot process an index that lists other indexes. List every urlset in one index (or several indexes, each submitted).")
	TooManySitemaps = newRule("too-many-sitemaps", Error, "Too many sitemaps",
		"More than 50,000 sitemaps in one index\nAn index may list at most 50,000 sitemaps. Use several indexes.")
	TooManyIndexFiles = newRule("too-many-index-files", Warning, "",
		"More than 500 index files in the set\nGoogle: \"You can submit up to 500 sitemap index files for each site\".")

	// Extensions.

	TooManyImages = newRule(sitemap.RuleTooManyImages, Error, "Invalid XML: too many tags",
		"More than 1,000 images in one URL\nGoogle: each <url> can contain up to 1,000 <image:image>.")
	InvalidImage = newRule(sitemap.RuleImage, Error, "Missing XML tag",
		"Image without a valid image:loc\nimage:loc is required and must be an absolute URL.")
	InvalidVideo = newRule(sitemap.RuleVideo, Error, "Invalid tag value",
		"Invalid video\nA required tag is missing (thumbnail_loc, title, description, and content_loc or player_loc: the schema cannot require one of the two, Google does), or a value is out of range: title ≤ 100 and description ≤ 2,048 characters, duration 1 to 28,800, rating 0 to 5, at most 32 tags, uploader ≤ 255 characters and its @info page on the domain of the <loc>, yes/no fields, country and platform lists.")
	InvalidNews = newRule(sitemap.RuleNews, Error, "Missing <publication> tag",
		"Invalid news entry\nnews:publication (name, language), news:publication_date and news:title are required; the language is an ISO 639 code (2 or 3 letters, or zh-cn, zh-tw).")
	TooManyNews = newRule("too-many-news-urls", Error, "Too many News URLs",
		"More than 1,000 news URLs in one sitemap\nGoogle: a sitemap may have up to 1,000 news:news tags; split it.")
	NewsTooOld = newRule("news-too-old", Warning, "",
		"News article older than two days\nGoogle: \"Only include recent URLs for articles that were created in the last two days\". Remove the URL or its news:news block.")
	DeprecatedTag = newRule(sitemap.RuleDeprecatedTag, Warning, "",
		"Tag deprecated by Google\nSince August 6, 2022 these have no effect: image:caption, image:geo_location, image:title, image:license, video:category, video:gallery_loc, video:price, video:tvshow, and player_loc's autoplay and allow_embed. Reported once per tag per file.")

	// hreflang alternates.

	InvalidHreflang = newRule(sitemap.RuleHreflang, Error, "Invalid attribute value",
		"Invalid hreflang alternate\nThe code must be an ISO 639-1 language, optionally with an ISO 3166-1 region or ISO 15924 script (de, de-AT, zh-Hant), or x-default; a region alone is invalid. href must be an absolute URL.")
	HreflangMissingSelf = newRule("hreflang-missing-self", Warning, "",
		"hreflang alternates without the page itself\nGoogle: list a link for every variant, \"including itself\". Without it the annotations may be ignored.")
	HreflangMissingXDefault = newRule("hreflang-missing-x-default", Info, "",
		"No x-default alternate\nx-default names the page for users whose language matches no alternate. Optional; reported once per file.")
	HreflangNotReciprocal = newRule("hreflang-not-reciprocal", Warning, "",
		"hreflang link not returned\nA page lists an alternate that is in the set with alternates of its own but does not link back. Google: \"If two pages don't both point to each other, the tags will be ignored\".")

	// Fetching (reported by the site driver).

	FetchError = newRule("fetch-error", Error, "Couldn't fetch",
		"Sitemap could not be fetched\nA network error, timeout, or a response too large to read.")
	HTTPError = newRule("http-error", Error, "HTTP error",
		"HTTP error status\nThe sitemap's URL answered with a status other than 200 (after redirects).")
	Redirect = newRule("redirect", Info, "",
		"Sitemap URL redirects\nCrawlers follow a few redirects, but the sitemap's scope is that of the URL submitted; a redirect to another host or path may make its URLs not allowed. Harmless when it stays on the site; submit the final URL.")
	BlockedByRobots = newRule("blocked-by-robots", Error, "Couldn't fetch",
		"Blocked by robots.txt\nThe sitemap's URL is disallowed for crawlers by the site's robots.txt, so it cannot be read.")
	CrossHostSitemap = newRule("cross-host-sitemap", Error, "URL not allowed",
		"Sitemap on another host not declared in robots.txt\nA sitemap may list another host's URLs (or an index another host's sitemaps) only when that host's robots.txt has a Sitemap: line naming it (sitemaps.org, cross-submission).")
	RobotsTruncated = newRule("robots-txt-truncated", Error, "",
		"robots.txt larger than 500 KiB\nRFC 9309 lets crawlers stop at 500 KiB and Google does: rules and Sitemap: lines past it are ignored, so the sitemaps they name are never found. Shorten the file, or list the sitemaps in an index.")
	WalkLimit = newRule("walk-limit", Error, "",
		"The check stopped at a limit\nThe walk spent its time budget (--time-budget) or read the most documents one run reads (--max-documents): the document named and those after it were not checked. Raise the limit, or check the site's indexes one at a time.")
)

var allRules = []*Rule{
	ParseError, UnsupportedFormat, SitemapIsHTML, DoctypeNotAllowed, CompressionError, FileTooLarge,
	LeadingWhitespace, IncorrectNamespace, InvalidCharacter, UnknownTag, ElementOrder, MissingTag,
	EmptySitemap, TooManyURLs,
	InvalidURL, RelativeURL, URLNotAllowed, OutsideDirectory, URLTooLong, SessionID,
	InvalidDate, TimeWithoutZone, FutureLastmod, InvalidChangefreq, InvalidPriority, URLBlockedByRobots, DuplicateURL,
	ChangefreqIgnored, PriorityIgnored,
	NestedIndex, TooManySitemaps, TooManyIndexFiles,
	TooManyImages, InvalidImage, InvalidVideo, InvalidNews, TooManyNews, NewsTooOld, DeprecatedTag,
	InvalidHreflang, HreflangMissingSelf, HreflangMissingXDefault, HreflangNotReciprocal,
	FetchError, HTTPError, Redirect, BlockedByRobots, CrossHostSitemap, RobotsTruncated, WalkLimit,
}
