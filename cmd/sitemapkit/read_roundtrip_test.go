package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// read's JSONL, fed to generate, publishes the same entries.
func TestReadGenerateRoundTrip(t *testing.T) {
	in := t.TempDir()
	// Valid URIs: generate escapes IRIs (ü → %C3%BC), so only a valid
	// sitemap can come back byte for byte.
	rich := strings.Replace(richEntry, `b="x"`, `b=%22x%22`, 1)
	src := write(t, in, "sitemap.xml", xmlURLSet(rich, entry(vbase+"plain"), entry(vbase+"%C3%BCmlaut")))
	code, jsonl, errOut := sk(t, "read", src)
	if code != 0 {
		t.Fatalf("read: exit %d: %s", code, errOut)
	}
	input := write(t, in, "entries.jsonl", jsonl)
	out := filepath.Join(t.TempDir(), "public")
	if code, o, e := sk(t, "generate", "--base", vbase, "--out", out, input); code != 0 {
		t.Fatalf("generate: exit %d\n%s%s", code, o, e)
	}
	code, again, errOut := sk(t, "read", "--no-source", filepath.Join(out, "sitemap.xml"))
	if code != 0 {
		t.Fatalf("read back: exit %d: %s", code, errOut)
	}
	first, second := decodeJSONL(t, jsonl, false), decodeJSONL(t, again, true)
	if !reflect.DeepEqual(first, second) {
		t.Errorf("round trip changed the entries:\nread:      %s\nregenerated: %s", jsonl, again)
	}
}

// read's CSV, fed to generate, publishes the same entries: every field,
// videos and news included, as the JSONL round trip does.
func TestReadGenerateRoundTripCSV(t *testing.T) {
	in := t.TempDir()
	rich := strings.Replace(richEntry, `b="x"`, `b=%22x%22`, 1)
	src := write(t, in, "sitemap.xml", xmlURLSet(rich, entry(vbase+"plain"), entry(vbase+"%C3%BCmlaut")))
	code, csvOut, errOut := sk(t, "read", "--format", "csv", src)
	if code != 0 {
		t.Fatalf("read: exit %d: %s", code, errOut)
	}
	input := write(t, in, "entries.csv", csvOut)
	out := filepath.Join(t.TempDir(), "public")
	if code, o, e := sk(t, "generate", "--base", vbase, "--out", out, input); code != 0 {
		t.Fatalf("generate: exit %d\n%s%s", code, o, e)
	}
	_, first, _ := sk(t, "read", src)
	_, again, _ := sk(t, "read", "--no-source", filepath.Join(out, "sitemap.xml"))
	if a, b := decodeJSONL(t, first, false), decodeJSONL(t, again, true); !reflect.DeepEqual(a, b) || len(a) != 3 || a[0].News == nil || len(a[0].Videos) != 1 {
		t.Errorf("CSV round trip changed the entries:\n%s\n%s", first, again)
	}
}
