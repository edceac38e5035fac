package source

import (
	"errors"
	"strings"
	"testing"
)

// TestQuoteNumbers: numbers outside strings are quoted, everything else is
// copied byte for byte, escapes and all, and a repeated key is found where
// it is, however its object is nested or its string escaped.
func TestQuoteNumbers(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		changed  bool
		repeat   int // offset of the repeated key; -1: none
	}{
		{`{"a":1,"b":[-2.5e3,"3"],"c":"x\"4\\"}`, `{"a":"1","b":["-2.5e3","3"],"c":"x\"4\\"}`, true, -1},
		{`{"a":"\\","b":"\"","c":"é\u00e9"}`, `{"a":"\\","b":"\"","c":"é\u00e9"}`, false, -1},
		{`{"a":"unterminated\`, `{"a":"unterminated\`, false, -1},
		{`{"a":"x\`, `{"a":"x\`, false, -1},
		{`{"a":01}`, `{"a":01}`, false, -1},
		{`{"a":{"b":1},"c":{"b":2}}`, `{"a":{"b":"1"},"c":{"b":"2"}}`, true, -1},
		{`{"a":{"b":1,"B":2}}`, "", true, 12},
		{`{"a":[{"k":1},{"\u006b":2,"K":3}]}`, "", true, 26},
		{"{\"\u212a\":1,\"k\":2}", "", true, 9}, // the Kelvin sign folds to k, as encoding/json folds it
		{`{"a:b":1,"a":2}`, "", true, -1},       // a colon in a key is the key's
	} {
		out, changed, err := quoteNumbers(nil, tc.in)
		var rk *repeatedKeyError
		switch {
		case tc.repeat >= 0:
			if !errors.As(err, &rk) || rk.off != tc.repeat {
				t.Errorf("%s: error %v, want a repeated key at %d", tc.in, err, tc.repeat)
			}
		case err != nil:
			t.Errorf("%s: error %v", tc.in, err)
		case tc.want != "" && (string(out) != tc.want || changed != tc.changed):
			t.Errorf("%s: %s (changed %v), want %s (%v)", tc.in, out, changed, tc.want, tc.changed)
		}
	}
	// A string of escapes is copied in one pass: looked for again at each
	// escape, the next quote took minutes for this line.
	long := `{"loc":"` + strings.Repeat(`\n`, 2<<20) + `"}`
	if out, _, err := quoteNumbers(nil, long); err != nil || string(out) != long {
		t.Errorf("a line of %d bytes of escapes: %d bytes back, %v", len(long), len(out), err)
	}
}
