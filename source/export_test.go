package source

// SetFrontierMem sets frontierMem for a test; the func restores it.
func SetFrontierMem(n int) func() {
	old := frontierMem
	frontierMem = n
	return func() { frontierMem = old }
}
