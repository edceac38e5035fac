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

// TestQuickForm: the quick path takes the three common spellings, valid,
// and leaves every other value to parseW3C.
func TestQuickForm(t *testing.T) {
	for s, want := range map[string]dateForm{
		"2024-01-20T10:00:00+00:00": formSecond, "2024-01-20T23:59:59-14:00": formSecond,
		"2024-01-20T10:00:00Z": formSecond, "2024-01-20": formDay, "2024-02-29": formDay,
		"2023-02-29": 0, "0000-01-01": 0, "2024-13-01": 0, "2024-00-10": 0, "2024-01-32": 0,
		"2024-01-20T24:00:00Z": 0, "2024-01-20T10:60:00Z": 0, "2024-01-20T10:00:60Z": 0,
		"2024-01-20T10:00:00+14:01": 0, "2024-01-20T10:00:00-00:60": 0, "2024-01-20T10:00:00*00:00": 0,
		"2024-01-20 10:00:00+00:00": 0, "2024-01-20t10:00:00Z": 0, "2024-01-20T10:00:00z": 0,
		"2024/01/20": 0, "2024-01-2a": 0, "2024-01:20": 0, "20a4-01-20": 0, "2024-01-20T10:00:00.5Z": 0,
		"2024-01-20T10-00:00Z": 0, "2024-01-20T1;:00:00Z": 0, "2024-01-20T10:00:00+00-00": 0,
		"\xff024-01-20": 0, "2024-01-20T10:00:0\xffZ": 0, "2024-01": 0, "": 0,
	} {
		if got := quickForm(s); got != want {
			t.Errorf("quickForm(%q) = %d, want %d", s, got, want)
		}
	}
}

// BenchmarkQuickForm is the check of a lastmod in the form nearly every
// sitemap writes.
func BenchmarkQuickForm(b *testing.B) {
	for b.Loop() {
		if quickForm("2024-01-02T10:00:00+02:00") != formSecond {
			b.Fatal("not second")
		}
	}
}
