package dist

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzParse checks Parse never panics, reports every failure as a
// *SyntaxError inside the input, and prints every success in a form that
// parses back to the same distribution, which draws no negative values. The good and bad test tables seed
// it, so a plain go test runs them through these checks too.
func FuzzParse(f *testing.F) {
	for _, tt := range goodTests {
		f.Add(tt.in)
	}
	for _, tt := range badTests {
		f.Add(strings.Replace(tt.in, "§", "", 1))
	}
	f.Fuzz(func(t *testing.T, in string) {
		d, err := Parse(in)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %v is a %T, want *SyntaxError", in, err, err)
			}
			if se.Input != in || se.Pos < 0 || se.Pos > len(in) {
				t.Fatalf("Parse(%q) error has Input %q, Pos %d", in, se.Input, se.Pos)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") {
				t.Fatalf("Parse(%q) error is not one line: %s", in, msg)
			}
			return
		}
		s := d.String()
		d2, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q, which does not parse: %v", in, s, err)
		}
		if s2 := d2.String(); s2 != s {
			t.Fatalf("Parse(%q).String() = %q, which prints as %q", in, s, s2)
		}
		m, m2 := d.Mean(), d2.Mean()
		if m != m2 || math.IsNaN(m) || math.IsInf(m, 0) || m < 0 {
			t.Fatalf("Parse(%q).Mean() = %v; after printing as %q, %v", in, m, s, m2)
		}
		r := rand.New(rand.NewPCG(1, 2))
		for range 10 {
			if x := d.Sample(r); !(x >= 0) {
				t.Fatalf("%s: Sample() = %v, want a value >= 0", s, x)
			}
		}
	})
}
