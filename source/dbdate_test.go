package source

import (
	"strings"
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
		{"2024-05-02 10:00:00.5 GMT", berlin, "2024-05-02T10:00:00+00:00", false},
	} {
		got, zoneless, ok := dbDate(c.in, c.tz)
		if !ok || got != c.want || zoneless != c.zoneless {
			t.Errorf("dbDate(%q, %v) = %q, %v, %v; want %q, %v", c.in, c.tz, got, zoneless, ok, c.want, c.zoneless)
		}
	}
	for _, w3c := range []string{"2024-05-02", "2024-05-02T10:00:00Z", "2024-05-02T10:00:00+02:00", "yesterday", "2024-13-02 10:00:00", "",
		// Zone abbreviations but UTC and GMT: time.Parse took them for
		// +00:00 (or for the machine's zone's offset, if its own).
		"2024-05-02 10:00:00 PST", "2024-05-02 10:00:00 CEST", "2024-05-02 10:00:00 XYZ"} {
		if got, _, ok := dbDate(w3c, nil); ok {
			t.Errorf("dbDate(%q) rewrote it as %q", w3c, got)
		}
	}
}

func TestRelative(t *testing.T) {
	for loc, want := range map[string]bool{
		"/about/": true, "about/": true, "about": true, "?q=1": true, "a/b:c": true,
		"https://www.example.com/": false, "mailto:x@example.com": false, "//cdn.example.com/a": false, "": false,
	} {
		if relative(loc) != want {
			t.Errorf("relative(%q) = %v", loc, !want)
		}
	}
	f, err := NewFilter(New(strings.NewReader("/about/\nblog/post\nhttps://www.example.com/x\n"), "u.txt", FormatText), FilterOptions{Base: "https://www.example.com/shop/"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for u, err := range f.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.Loc)
	}
	want := "https://www.example.com/about/ https://www.example.com/shop/blog/post https://www.example.com/x"
	if strings.Join(got, " ") != want || f.Resolved() != 2 {
		t.Errorf("resolved %v (%d), want %s (2)", got, f.Resolved(), want)
	}
	if _, err := NewFilter(nil, FilterOptions{Base: "www.example.com"}); err == nil {
		t.Error("a base that is not absolute accepted")
	}
}
