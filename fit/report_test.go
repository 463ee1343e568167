package fit

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/websim/websim/engine/stats"
)

// When every family is rejected, the text says so above the cell to paste
// (and the p-values at the bootstrap's least read "<=0.005"): a mix of fast
// and slow requests, 70% Exp(10) and 30% about 100, is of none of the
// shapes, and its best fit misstates the spread. Times of one shape get no
// such line.
func TestNoneFits(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 1))
	mix := make([]float64, 20_000)
	for i := range mix {
		if r.Float64() < 0.7 {
			mix[i] = 10 * r.ExpFloat64()
		} else {
			mix[i] = math.Abs(100 + 10*r.NormFloat64())
		}
	}
	for _, tc := range []struct {
		name string
		xs   []float64
		none bool
	}{
		{"a mix", mix, true},
		{"one shape", draw(t, "LogNormal(22.5,8.4)", 2000, 3), false},
	} {
		res, err := Distributions(tc.xs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := res.WriteText(&b, &Data{Source: "x.csv", Column: "t"}); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		if got := strings.Contains(text, "none fits: every family's p-value is below 0.05"); got != tc.none {
			t.Errorf("%s: none fits said %v, want %v:\n%s", tc.name, got, tc.none, text)
		}
		if tc.none {
			if !strings.Contains(text, "<=0.005") {
				t.Errorf("%s: no p-value at the bootstrap's least:\n%s", tc.name, text)
			}
			dataSD, bestSD := sd(tc.xs), sd(draw(t, res.Fits[0].Cell, 200_000, 5))
			t.Logf("best %s: sd %.1f, the data's %.1f", res.Fits[0].Cell, bestSD, dataSD)
			if bestSD < 1.15*dataSD {
				t.Errorf("%s: the best fit's sd %.1f is near the data's %.1f: the example does not show a misfit", tc.name, bestSD, dataSD)
			}
		}
	}
}

// sd is the sample standard deviation of xs.
func sd(xs []float64) float64 {
	var t stats.Tally
	for _, x := range xs {
		t.Add(x)
	}
	return t.SD()
}
