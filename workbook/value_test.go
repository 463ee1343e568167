package workbook

import "testing"

// A number typed wrongly gets a number's hint; a sum of numbers is an
// expression and compiles as one.
func TestLooksNumeric(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"0,5", true}, {"1 000", true}, {"1.5e-3", true}, {"12'500", true}, {"-3", true},
		{"1-0.5", false}, {"1+1", false}, {"-1+3", false}, {"0.5 + 0", false}, {"2.-1", false},
		{"Expo(3)", false}, {"", false}, {"e", false},
	} {
		if got := looksNumeric(tt.text); got != tt.want {
			t.Errorf("looksNumeric(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
