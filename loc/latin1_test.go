package loc

import "testing"

// TestLatin1Relative: a relative loc (resolved against --base after
// Latin1) has no authority, even when its query or path holds "://", as a
// redirect's target does: every non-ASCII character of it is encoded as
// ISO-8859-1, not left to be resolved as UTF-8.
func TestLatin1Relative(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{"/café", "/caf%E9"},
		{"/café?next=https://www.example.com/a", "/caf%E9?next=https://www.example.com/a"},
		{"/café?next=https://www.example.com", "/caf%E9?next=https://www.example.com"},
		{"/é/go/https://x/y", "/%E9/go/https://x/y"},
		{"café#https://x/é", "caf%E9#https://x/%E9"},
		// An absolute URL keeps its host for Normalize (punycode), however
		// its path goes on.
		{"https://bücher.example/é?next=https://x/ü", "https://bücher.example/%E9?next=https://x/%FC"},
		{"https://bücher.example?q=é", "https://bücher.example?q=%E9"},
		{"https://bücher.example", "https://bücher.example"},
	} {
		if got, err := Latin1(tt.raw); err != nil || got != tt.want {
			t.Errorf("Latin1(%q) = %q, %v; want %q", tt.raw, got, err, tt.want)
		}
	}
}
