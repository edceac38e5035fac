package feed

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mmcdole/gofeed"
)

func TestEncode(t *testing.T) {
	f := Feed{Self: "https://www.example.com/feed.xml", Site: "https://www.example.com/", Hub: "https://hub.example.net/?a=1&b=2",
		Entries: []Entry{
			{Loc: "https://www.example.com/b?x=1&y=<2>", LastMod: "2026-01-02T10:00:00+02:00"},
			{Loc: "https://www.example.com/old", LastMod: "2020-05-01"},
			{Loc: "https://www.example.com/a", LastMod: "2026-01-02T08:00:00Z"},
			{Loc: "https://www.example.com/undated"},
			{Loc: "https://www.example.com/new", LastMod: "2026-03-01T00:00:00Z"},
		}}
	data, err := f.Encode(3)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := f.Encode(3)
	if !bytes.Equal(data, again) {
		t.Error("the same feed encoded twice differs")
	}
	parsed, err := gofeed.NewParser().Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("an Atom parser refuses the feed: %v\n%s", err, data)
	}
	var links []string
	for _, it := range parsed.Items {
		links = append(links, it.Link)
	}
	// Latest first; 08:00Z and 10:00+02:00 are the same instant: by loc.
	want := []string{"https://www.example.com/new", "https://www.example.com/a", "https://www.example.com/b?x=1&y=<2>"}
	if strings.Join(links, " ") != strings.Join(want, " ") {
		t.Errorf("entries %q, want %q", links, want)
	}
	if parsed.UpdatedParsed == nil || parsed.UpdatedParsed.Format("2006-01-02") != "2026-03-01" {
		t.Errorf("feed updated %v, want the latest entry's", parsed.UpdatedParsed)
	}
	if !strings.Contains(string(data), `<link rel="hub" href="https://hub.example.net/?a=1&amp;b=2"/>`) {
		t.Errorf("no escaped hub link:\n%s", data)
	}
	if _, err := (&Feed{Self: "x", Entries: []Entry{{Loc: "https://www.example.com/"}}}).Encode(0); !errors.Is(err, ErrNoEntries) {
		t.Errorf("undated feed: %v, want ErrNoEntries", err)
	}
}
