package numtext

import "testing"

func TestGroup(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {100000, "100,000"}, {-12345, "-12,345"}, {-123, "-123"}, {1234567890, "1,234,567,890"}} {
		if got := Group(tt.n); got != tt.want {
			t.Errorf("Group(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
