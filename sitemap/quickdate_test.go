package sitemap

import "testing"

// FuzzQuickForm holds checkDate's quick path to parseW3C: a value it
// takes is one parseW3C parses, to the same form.
func FuzzQuickForm(f *testing.F) {
	for _, s := range []string{
		"2024-01-20T10:00:00+00:00", "2024-01-20T10:00:00Z", "2024-01-20", "2024-02-29", "2023-02-29",
		"0000-01-01", "2024-13-01", "2024-01-20T24:00:00Z", "2024-01-20T10:60:00Z", "2024-01-20T10:00:60Z",
		"2024-01-20T10:00:00+14:00", "2024-01-20T10:00:00+14:01", "2024-01-20T10:00:00-00:60",
		"2024-01-20 10:00:00+00:00", "2024-01-20t10:00:00Z", "2024-01-20T10:00:00z", "2024/01/20",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := quickForm(s)
		if q == 0 {
			return
		}
		if d := parseW3C(s); d.form != q {
			t.Fatalf("quickForm(%q) = %d, parseW3C says form %d (%s)", s, q, d.form, d.msg)
		}
	})
}
