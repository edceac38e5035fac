package lint

import "strconv"

// A Diagnostic is one finding: a rule broken at a place in a document.
// Line and Col are 1-based (Col counts bytes); both are 0 when the finding
// is about the document as a whole or about a fetch, and Col alone is 0 when
// only the line is known (set-wide findings).
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

// String formats d as compilers do: "FILE:LINE:COL: error[rule-id]: message",
// leaving out what is 0.
func (d Diagnostic) String() string {
	s := d.File
	if d.Line > 0 {
		s += ":" + strconv.Itoa(d.Line)
		if d.Col > 0 {
			s += ":" + strconv.Itoa(d.Col)
		}
	}
	if s != "" {
		s += ": "
	}
	return s + d.Severity.String() + "[" + d.Rule + "]: " + d.Message
}
