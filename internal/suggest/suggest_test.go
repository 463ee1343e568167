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
