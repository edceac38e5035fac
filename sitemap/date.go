package sitemap

import (
	"encoding/binary"
	"strconv"
	"time"
)

// dateForm is which of the six W3C Datetime forms a value has.
type dateForm uint8

const (
	formYear     dateForm = iota + 1 // YYYY
	formMonth                        // YYYY-MM
	formDay                          // YYYY-MM-DD
	formMinute                       // YYYY-MM-DDThh:mmTZD
	formSecond                       // YYYY-MM-DDThh:mm:ssTZD
	formFraction                     // YYYY-MM-DDThh:mm:ss.sTZD
)

// w3cDate is a parsed W3C Datetime, field by field, so that checking a
// value costs no time.Time arithmetic.
type w3cDate struct {
	year, month, day  int
	hour, minute, sec int
	nsec              int
	offset            int // seconds east of UTC
	form              dateForm
	rule, msg         string // set when the value is not a W3C Datetime
}

const msgDateFormat = "not a W3C datetime; write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm"

// parseW3C parses s. It never allocates: on failure form is 0 and rule
// and msg (constant strings) say why.
func parseW3C(s string) (d w3cDate) {
	fail := func(rule, msg string) w3cDate {
		return w3cDate{rule: rule, msg: msg}
	}
	if len(s) < 4 || !digits(s[:4]) {
		return fail(RuleInvalidDate, msgDateFormat)
	}
	d.year = atoi(s[:4])
	if d.year == 0 {
		return fail(RuleInvalidDate, "year 0000 does not exist in W3C datetimes")
	}
	if len(s) == 4 {
		d.form, d.month, d.day = formYear, 1, 1
		return d
	}
	if len(s) < 7 || s[4] != '-' || !digits(s[5:7]) {
		return fail(RuleInvalidDate, msgDateFormat)
	}
	d.month = atoi(s[5:7])
	if d.month < 1 || d.month > 12 {
		return fail(RuleInvalidDate, "month out of range 01–12")
	}
	if len(s) == 7 {
		d.form = formMonth
		d.day = 1
		return d
	}
	if len(s) < 10 || s[7] != '-' || !digits(s[8:10]) {
		return fail(RuleInvalidDate, msgDateFormat)
	}
	d.day = atoi(s[8:10])
	if d.day < 1 || d.day > daysIn(d.month, d.year) {
		return fail(RuleInvalidDate, "day does not exist in that month")
	}
	if len(s) == 10 {
		d.form = formDay
		return d
	}
	switch s[10] {
	case 'T':
	case 'Z', '+', '-':
		return fail(RuleInvalidDate, "has a time zone but no time; W3C allows a zone only after hh:mm: write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm")
	case ' ', 't':
		return fail(RuleInvalidDate, "date and time must be separated by an uppercase T")
	default:
		return fail(RuleInvalidDate, msgDateFormat)
	}
	if len(s) < 16 || !digits(s[11:13]) || s[13] != ':' || !digits(s[14:16]) {
		return fail(RuleInvalidDate, msgDateFormat)
	}
	d.hour, d.minute = atoi(s[11:13]), atoi(s[14:16])
	if d.hour > 23 || d.minute > 59 {
		return fail(RuleInvalidDate, "time out of range (hh 00–23, mm 00–59)")
	}
	i := 16
	d.form = formMinute
	if i < len(s) && s[i] == ':' {
		if len(s) < i+3 || !digits(s[i+1:i+3]) {
			return fail(RuleInvalidDate, msgDateFormat)
		}
		d.sec = atoi(s[i+1 : i+3])
		if d.sec > 59 {
			return fail(RuleInvalidDate, "seconds out of range 00–59")
		}
		i += 3
		d.form = formSecond
		if i < len(s) && s[i] == '.' {
			j := i + 1
			scale := 100000000
			for j < len(s) && '0' <= s[j] && s[j] <= '9' {
				d.nsec += int(s[j]-'0') * scale
				scale /= 10
				j++
			}
			if j == i+1 {
				return fail(RuleInvalidDate, "has a decimal point without digits")
			}
			i = j
			d.form = formFraction
		}
	}
	if i == len(s) {
		return fail(RuleTimeWithoutZone, "has a time but no time zone; add Z or ±hh:mm (Google reads it as an invalid date)")
	}
	switch s[i] {
	case 'Z':
		if i+1 != len(s) {
			return fail(RuleInvalidDate, msgDateFormat)
		}
	case '+', '-':
		z := s[i:]
		if len(z) != 6 || !digits(z[1:3]) || z[3] != ':' || !digits(z[4:6]) {
			return fail(RuleInvalidDate, "time zone must be Z or ±hh:mm")
		}
		h, m := atoi(z[1:3]), atoi(z[4:6])
		if m > 59 || h*60+m > 14*60 {
			return fail(RuleInvalidDate, "time zone offset out of range -14:00 to +14:00")
		}
		d.offset = (h*60 + m) * 60
		if z[0] == '-' {
			d.offset = -d.offset
		}
	default:
		return fail(RuleInvalidDate, msgDateFormat)
	}
	return d
}

// quickForm returns the form of s when it is one of the three spellings
// nearly every lastmod has (YYYY-MM-DD, YYYY-MM-DDThh:mm:ssZ and
// YYYY-MM-DDThh:mm:ss±hh:mm) and is valid; 0 otherwise, when parseW3C
// decides. A check of a million lastmods spends a third of parseW3C's time.
func quickForm(s string) dateForm {
	// The shape is tested eight bytes at a time: the digits' high nibble
	// is 3, and stays 3 with 6 added (no carry out of 0–9), the other
	// bytes are what the form has there.
	const dd = 0x3030303030303030
	shape := func(w, digits, sep uint64) bool {
		hi := digits & 0xf0f0f0f0f0f0f0f0
		return w&hi == dd&hi && (w+0x0606060606060606&digits)&hi == dd&hi && w&^digits == sep
	}
	switch len(s) {
	case 10, 20, 25:
	default:
		return 0
	}
	// "dddd-dd-": digits but in bytes 4 and 7.
	if !shape(binary.LittleEndian.Uint64([]byte(s[:8])), 0x00ffff00ffffffff, 0x2d00000000000000|0x2d<<32) {
		return 0
	}
	if len(s) == 10 {
		if s[8]-'0' > 9 || s[9]-'0' > 9 {
			return 0
		}
	} else {
		// "ddTdd:dd", then ":ddZ" or ":dd±dd:dd".
		if !shape(binary.LittleEndian.Uint64([]byte(s[8:16])), 0xffff00ffff00ffff, 0x3a<<40|'T'<<16) || s[16] != ':' || s[17]-'0' > 9 || s[18]-'0' > 9 {
			return 0
		}
		if len(s) == 20 {
			if s[19] != 'Z' {
				return 0
			}
		} else if s[19] != '+' && s[19] != '-' || s[22] != ':' || s[20]-'0' > 9 || s[21]-'0' > 9 || s[23]-'0' > 9 || s[24]-'0' > 9 {
			return 0
		}
	}
	two := func(i int) int { return int(s[i]-'0')*10 + int(s[i+1]-'0') }
	year, month, day := two(0)*100+two(2), two(5), two(8)
	if year == 0 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return 0
	}
	if len(s) == 10 {
		return formDay
	}
	if two(11) > 23 || two(14) > 59 || two(17) > 59 {
		return 0
	}
	if len(s) == 25 && (two(23) > 59 || two(20)*60+two(23) > 14*60) {
		return 0
	}
	return formSecond
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// atoi converts a string of digits known to be short.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// ParseDate parses a W3C Datetime (https://www.w3.org/TR/NOTE-datetime) in
// any of its six forms: YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDThh:mmTZD,
// YYYY-MM-DDThh:mm:ssTZD and YYYY-MM-DDThh:mm:ss.sTZD, where TZD is Z or
// ±hh:mm (at most 14:00, as XML Schema allows).
//
// A value without a time means midnight UTC of its first day, as Google
// reads it; the result is always in UTC (the offset is applied, not kept),
// which is what comparing lastmods needs. Build calls ParseDate for every
// lastmod it writes, so it is hand-written and allocates only on failure.
//
// On failure it returns a *Violation with Rule RuleTimeWithoutZone for a time
// without a zone (W3C and Google refuse it, although the sitemap schema
// accepts it) and RuleInvalidDate for anything else. Its Field is empty:
// callers that know the element set it.
func ParseDate(s string) (time.Time, error) {
	d := parseW3C(s)
	if d.form == 0 {
		return time.Time{}, &Violation{Rule: d.rule, Value: s, Msg: d.msg}
	}
	t := time.Date(d.year, time.Month(d.month), d.day, d.hour, d.minute, d.sec, d.nsec, time.UTC)
	if d.offset != 0 {
		t = t.Add(-time.Duration(d.offset) * time.Second)
	}
	return t, nil
}

// FormatDate writes t as YYYY-MM-DDThh:mm:ss±hh:mm, the full form every
// consumer reads, in t's own zone (UTC as +00:00, the form of the
// protocol's own example, never Z). Fractions of a second are dropped.
// A zone whose offset is not a whole number of minutes (historic local mean
// times) cannot be written, so t is then written in UTC. Callers that know
// only a day write "YYYY-MM-DD" themselves: FormatDate never shortens.
// Years outside 1–9999 give a value ParseDate refuses.
func FormatDate(t time.Time) string {
	var b [32]byte
	return string(appendDate(b[:0], t))
}

func appendDate(b []byte, t time.Time) []byte {
	_, off := t.Zone()
	if off%60 != 0 {
		t = t.UTC()
		off = 0
	}
	year, month, day := t.Date()
	hour, minute, sec := t.Clock()
	if year >= 0 && year < 1000 {
		b = append(b, "000"[:4-digitsLen(year)]...)
	}
	b = strconv.AppendInt(b, int64(year), 10)
	b = append(b, '-')
	b = append2(b, int(month))
	b = append(b, '-')
	b = append2(b, day)
	b = append(b, 'T')
	b = append2(b, hour)
	b = append(b, ':')
	b = append2(b, minute)
	b = append(b, ':')
	b = append2(b, sec)
	sign := byte('+')
	if off < 0 {
		sign = '-'
		off = -off
	}
	b = append(b, sign)
	b = append2(b, off/3600)
	b = append(b, ':')
	return append2(b, off/60%60)
}

func digitsLen(n int) int {
	l := 1
	for n >= 10 {
		n /= 10
		l++
	}
	return l
}

func append2(b []byte, n int) []byte {
	return append(b, byte('0'+n/10%10), byte('0'+n%10))
}
