package source

import (
	"testing"
	"time"
)

func TestDBDate(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone database")
	}
	for _, c := range []struct {
		in       string
		tz       *time.Location
		want     string
		zoneless bool
	}{
		{"2024-05-02 10:00:00", nil, "2024-05-02T10:00:00+00:00", true},
		{"2024-05-02 10:00:00", berlin, "2024-05-02T10:00:00+02:00", true},
		{"2024-01-02 10:00:00", berlin, "2024-01-02T10:00:00+01:00", true},
		{"2024-05-02T10:00:00", nil, "2024-05-02T10:00:00+00:00", true},
		{"2024-05-02 10:00", nil, "2024-05-02T10:00:00+00:00", true},
		{"2024-05-02 10:00:00.123456", nil, "2024-05-02T10:00:00+00:00", true},
		{"2024-05-02 10:00:00+02", nil, "2024-05-02T10:00:00+02:00", false},
		{"2024-05-02 10:00:00+0530", nil, "2024-05-02T10:00:00+05:30", false},
		{"2024-05-02 10:00:00 +02:00", berlin, "2024-05-02T10:00:00+02:00", false},
		{"2024-05-02 10:00:00Z", nil, "2024-05-02T10:00:00+00:00", false},
		{"2024-05-02 10:00:00 UTC", berlin, "2024-05-02T10:00:00+00:00", false},
	} {
		got, zoneless, ok := dbDate(c.in, c.tz)
		if !ok || got != c.want || zoneless != c.zoneless {
			t.Errorf("dbDate(%q, %v) = %q, %v, %v; want %q, %v", c.in, c.tz, got, zoneless, ok, c.want, c.zoneless)
		}
	}
	for _, w3c := range []string{"2024-05-02", "2024-05-02T10:00:00Z", "2024-05-02T10:00:00+02:00", "yesterday", "2024-13-02 10:00:00", ""} {
		if got, _, ok := dbDate(w3c, nil); ok {
			t.Errorf("dbDate(%q) rewrote it as %q", w3c, got)
		}
	}
}
