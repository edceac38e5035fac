package source

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	cases := []string{"", "plain", `q"uo\te`, "tab\tnl\ncr\r", "\x00\x1f\x7f", "ü€😀", "bad\xffutf8\xc3", "\u2028\u2029", "<&>"}
	// Every special byte at every place of a long string, so that the
	// eight-bytes-at-a-time path meets each in each lane.
	for _, special := range []string{`"`, `\`, "\x00", "\x1f", " ", "\x7f", "é", "\xff", "\u2028"} {
		for i := range 20 {
			cases = append(cases, strings.Repeat("a", i)+special+strings.Repeat("b", 19-i))
		}
	}
	for _, s := range cases {
		got := appendString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("%q → %s: %v", s, got, err)
			continue
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if utf8.ValidString(s) {
			want = s
		}
		if back != want {
			t.Errorf("%q → %s → %q", s, got, back)
		}
	}
}
