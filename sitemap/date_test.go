package sitemap_test

import (
	"errors"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

func TestParseDate(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		// The six W3C forms.
		{"1997", utc(1997, 1, 1, 0, 0, 0, 0)},
		{"1997-07", utc(1997, 7, 1, 0, 0, 0, 0)},
		{"1997-07-16", utc(1997, 7, 16, 0, 0, 0, 0)},
		{"1997-07-16T19:20+01:00", utc(1997, 7, 16, 18, 20, 0, 0)},
		{"1997-07-16T19:20:30+01:00", utc(1997, 7, 16, 18, 20, 30, 0)},
		{"1997-07-16T19:20:30.45+01:00", utc(1997, 7, 16, 18, 20, 30, 450000000)},
		// Zones.
		{"2004-09-22T14:12:14+00:00", utc(2004, 9, 22, 14, 12, 14, 0)},
		{"2004-09-22T14:12:14Z", utc(2004, 9, 22, 14, 12, 14, 0)},
		{"2004-09-22T23:30:00-05:30", utc(2004, 9, 23, 5, 0, 0, 0)},
		{"2004-01-01T00:00:00+14:00", utc(2003, 12, 31, 10, 0, 0, 0)},
		{"2004-01-01T00:00:00-14:00", utc(2004, 1, 1, 14, 0, 0, 0)},
		// Fractions: one digit, nine, more than nine (truncated).
		{"2024-01-02T03:04:05.5Z", utc(2024, 1, 2, 3, 4, 5, 500000000)},
		{"2024-01-02T03:04:05.123456789Z", utc(2024, 1, 2, 3, 4, 5, 123456789)},
		{"2024-01-02T03:04:05.1234567891Z", utc(2024, 1, 2, 3, 4, 5, 123456789)},
		// Calendar edges.
		{"2024-02-29", utc(2024, 2, 29, 0, 0, 0, 0)},
		{"2000-02-29", utc(2000, 2, 29, 0, 0, 0, 0)},
		{"2023-12-31T23:59:59Z", utc(2023, 12, 31, 23, 59, 59, 0)},
		{"0001-01-01", utc(1, 1, 1, 0, 0, 0, 0)},
		{"9999-12-31", utc(9999, 12, 31, 0, 0, 0, 0)},
	}
	for _, tt := range tests {
		got, err := sitemap.ParseDate(tt.in)
		if err != nil || !got.Equal(tt.want) || got.Location() != time.UTC {
			t.Errorf("ParseDate(%q) = %v, %v; want %v in UTC", tt.in, got, err, tt.want)
		}
	}
}

func TestParseDateRefuses(t *testing.T) {
	tests := []struct{ in, rule string }{
		{"", sitemap.RuleInvalidDate},
		{"97", sitemap.RuleInvalidDate},
		{"0000", sitemap.RuleInvalidDate},
		{"2024-13", sitemap.RuleInvalidDate},
		{"2024-00", sitemap.RuleInvalidDate},
		{"2024-1-01", sitemap.RuleInvalidDate},
		{"2024-01-00", sitemap.RuleInvalidDate},
		{"2024-01-32", sitemap.RuleInvalidDate},
		{"2024-04-31", sitemap.RuleInvalidDate},
		{"2023-02-29", sitemap.RuleInvalidDate}, // not a leap year
		{"1900-02-29", sitemap.RuleInvalidDate}, // century, not a leap year
		{"2024-01-01 10:00:00Z", sitemap.RuleInvalidDate},
		{"2024-01-01t10:00:00Z", sitemap.RuleInvalidDate},
		{"2024-01-01T10:00:00z", sitemap.RuleInvalidDate},
		{"2024/01/01", sitemap.RuleInvalidDate},
		{"20240101", sitemap.RuleInvalidDate},
		{"2017-06-20-04:00", sitemap.RuleInvalidDate}, // a zone without a time (xsd:date accepts it, Search Console does not)
		{"2017-06-20Z", sitemap.RuleInvalidDate},
		{"2024-01-01T24:00:00Z", sitemap.RuleInvalidDate},
		{"2024-01-01T10:60:00Z", sitemap.RuleInvalidDate},
		{"2024-01-01T10:00:60Z", sitemap.RuleInvalidDate},
		{"2024-01-01T10Z", sitemap.RuleInvalidDate},
		{"2024-01-01T10:00:00.Z", sitemap.RuleInvalidDate},
		{"2024-01-01T10:00:00+0100", sitemap.RuleInvalidDate},
		{"2024-01-01T10:00:00+01", sitemap.RuleInvalidDate},
		{"2024-01-01T10:00:00+14:01", sitemap.RuleInvalidDate},
		{"2024-01-01T10:00:00+01:60", sitemap.RuleInvalidDate},
		{"2024-01-01T10:00:00Z ", sitemap.RuleInvalidDate},
		{" 2024-01-01", sitemap.RuleInvalidDate},
		{"2024-01-01T10:00:00ZZ", sitemap.RuleInvalidDate},
		{"Mon, 02 Jan 2006 15:04:05 MST", sitemap.RuleInvalidDate},
		// A time without a zone: the schemas accept it, W3C and Google do not.
		{"2005-01-01T10:00:00", sitemap.RuleTimeWithoutZone},
		{"2005-01-01T10:00", sitemap.RuleTimeWithoutZone},
		{"2005-01-01T10:00:00.5", sitemap.RuleTimeWithoutZone},
	}
	for _, tt := range tests {
		_, err := sitemap.ParseDate(tt.in)
		var v *sitemap.Violation
		if !errors.As(err, &v) || v.Rule != tt.rule || v.Value != tt.in || v.Msg == "" {
			t.Errorf("ParseDate(%q) error = %v; want a *Violation with rule %s", tt.in, err, tt.rule)
		}
	}
}

func TestFormatDate(t *testing.T) {
	tests := []struct {
		in   time.Time
		want string
	}{
		{time.Date(2004, 9, 22, 14, 12, 14, 999, time.UTC), "2004-09-22T14:12:14+00:00"},
		{time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("", 2*3600)), "2024-01-02T03:04:05+02:00"},
		{time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("", -(5*3600+30*60))), "2024-01-02T03:04:05-05:30"},
		{time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), "2024-01-02T00:00:00+00:00"}, // never shortened
		{time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("LMT", 561)), "2024-01-02T02:54:44+00:00"},
		{time.Date(42, 1, 2, 3, 4, 5, 0, time.UTC), "0042-01-02T03:04:05+00:00"},
	}
	for _, tt := range tests {
		got := sitemap.FormatDate(tt.in)
		if got != tt.want {
			t.Errorf("FormatDate(%v) = %q; want %q", tt.in, got, tt.want)
		}
		back, err := sitemap.ParseDate(got)
		if err != nil || !back.Equal(tt.in.Truncate(time.Second)) {
			t.Errorf("ParseDate(FormatDate(%v)) = %v, %v; want the same instant", tt.in, back, err)
		}
	}
}

func TestParseDateAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := sitemap.ParseDate("2024-01-02T10:00:00+02:00"); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("ParseDate allocates %v times per valid date; want 0", allocs)
	}
}

func BenchmarkParseDate(b *testing.B) {
	for b.Loop() {
		if _, err := sitemap.ParseDate("2024-01-02T10:00:00+02:00"); err != nil {
			b.Fatal(err)
		}
	}
}
