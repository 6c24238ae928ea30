package auto

import "testing"

// TestParseWidth checks that ParseWidth reads the names String writes and
// rejects any other.
func TestParseWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want WidthRule
		ok   bool
	}{
		{"adaptive", AdaptiveWidth, true},
		{"global", GlobalWidth, true},
		{AdaptiveWidth.String(), AdaptiveWidth, true},
		{GlobalWidth.String(), GlobalWidth, true},
		{"", 0, false},
		{"Global", 0, false},
		{"narrow", 0, false},
		{"WidthRule(2)", 0, false},
	} {
		got, err := ParseWidth(tc.s)
		if (err == nil) != tc.ok {
			t.Errorf("ParseWidth(%q): error %v, want ok %v", tc.s, err, tc.ok)
			continue
		}
		if tc.ok && got != tc.want {
			t.Errorf("ParseWidth(%q) = %v, want %v", tc.s, got, tc.want)
		}
		if !tc.ok && err.Error() != `svclust: unknown width rule "`+tc.s+`" (want adaptive or global)` {
			t.Errorf("ParseWidth(%q): error %q", tc.s, err)
		}
	}
}
