// Package lint checks sitemaps against the protocol (sitemaps.org), Google's
// rules and the official schemas, and predicts the errors Search Console
// would report.
//
// Each check is a [Rule] value with a stable kebab-case ID ([Rules] lists
// them; docs/rules.md is generated from them with go generate). A [Checker]
// reads documents as a stream with a [sitemap.Reader] and reports
// [Diagnostic] values through its Report callback: per-document rules as it
// reads, set-wide rules (duplicates across files, hreflang reciprocity) from
// Finish. [CheckSite] drives a Checker over the documents package discover
// finds (robots.txt, indexes and their children, folders) and turns the
// walk's typed findings into the HTTP-level rules ([HTTPError], [Redirect],
// [BlockedByRobots], [CrossHostSitemap], [FetchError]). A [Collector]
// gathers the diagnostics into the [Report] that the command renders.
//
// Where the schemas disagree with Google, the checker follows Google: a time
// without a timezone is an error (the XSD accepts it), a news date written
// hh:mm without seconds is accepted (the XSD rejects it), and a video needs
// content_loc or player_loc (the XSD cannot say so). Elements from unknown
// namespaces, which the schemas reject, are warnings: Google ignores them.
package lint

//go:generate go test -run ^TestRulesDoc$ -update
