// Package archtest holds the test that keeps the import graph pointing one
// way: the leaf packages (sitemap, loc) know nothing of the features built on
// them, the feature packages (discover, lint, source, publish) do not reach
// sideways into each other, and only the command wires everything together.
// docs/architecture.md draws the same graph; the test is what keeps it true.
package archtest
