// Package numfmt formats numbers for people: the messages and reports of
// the command line and of package settings.
package numfmt

import "strconv"

// Thousands returns n in decimal with commas between groups of three
// digits, as 1,234,567.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var b []byte
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}
