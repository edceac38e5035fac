//go:build !long

package longtest

const long = false
