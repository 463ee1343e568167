package suggest

import "testing"

func TestClosest(t *testing.T) {
	names := []string{"GWay", "MTC", "DSS", "CM", "RP"}
	tests := []struct{ in, want string }{
		{"GWy", "GWay"},
		{"gway", "GWay"},
		{"MTX", "MTC"},
		{"Database", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.in, names); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := DidYouMean("GWy", names); got != `; did you mean "GWay"?` {
		t.Errorf("DidYouMean = %q", got)
	}
	// Two neighbours swapped are one edit, not two.
	for _, tc := range []struct {
		a, b string
		want int
	}{{"Epx", "Exp", 1}, {"Unifrom", "Uniform", 1}, {"ASMU", "ASUM", 1}, {"ab", "ba", 1}, {"abc", "ca", 3}, {"GWy", "GWay", 1}, {"", "Exp", 3}} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	if got := Closest("Epx", []string{"Exp", "Uniform", "Normal"}); got != "Exp" {
		t.Errorf(`Closest("Epx") = %q, want "Exp"`, got)
	}
}

func TestIndexPrefersTheExactName(t *testing.T) {
	names := []string{"gway", "GWay", "MTC"}
	for _, tt := range []struct {
		in   string
		want int
	}{{"GWay", 1}, {"gway", 0}, {"GWAY", 0}, {"mtc", 2}, {"DB", -1}} {
		if got := IndexOf(names, tt.in); got != tt.want {
			t.Errorf("IndexOf(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
