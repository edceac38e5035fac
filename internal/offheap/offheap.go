// Package offheap allocates large, long-lived arrays of words outside the
// Go heap, as anonymous mappings: the collector neither scans them nor
// counts them towards its goal, so a process holding one does not also
// hold up to as much again in garbage, and what is freed leaves the
// process at once. Package publish keeps its de-duplication set there, and
// package state its index of a site's URLs.
package offheap

// MinMap is the smallest allocation kept off the Go heap, in bytes.
// Smaller ones are cheaper as ordinary slices: an anonymous mapping costs
// whole pages and system calls.
const MinMap = 8 << 10
