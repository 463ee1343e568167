package fit

import (
	"math"
	"slices"
	"testing"
)

// trueModel builds the model of a cell from the test table's parameters,
// written here from the contract's meaning of each parameter.
func trueModel(t *testing.T, family string, p []float64) model {
	switch family {
	case "Exp":
		return expModel{p[0]}
	case "Erlang":
		return gammaModel{shape: p[0], scale: p[1] / p[0], erlang: true}
	case "Gamma":
		return gammaModel{shape: p[0], scale: p[1]}
	case "LogNormal":
		s2 := math.Log1p(p[1] * p[1] / (p[0] * p[0]))
		return logNormalModel{mu: math.Log(p[0]) - s2/2, sigma: math.Sqrt(s2)}
	case "Weibull":
		return weibullModel{shape: p[0], scale: p[1]}
	case "Normal":
		return normalModel{mean: p[0], sd: p[1]}
	case "Uniform":
		return uniformModel{p[0], p[1]}
	case "Triangular":
		return triangularModel{p[0], p[1], p[2]}
	}
	t.Fatalf("no model for %s", family)
	return nil
}

// Each model's CDF is the distribution the model's own sampler draws
// (engine/dist): the KS distance of 100,000 draws to it is below the 0.1%
// critical value 1.95/√n. Its density is the CDF's derivative and its
// quantile the CDF's inverse.
func TestModelsAreWhatTheSamplerDraws(t *testing.T) {
	const n = 100000
	for i, tc := range truths {
		m := trueModel(t, tc.family, tc.params)
		xs := draw(t, tc.cell, n, uint64(70+i))
		slices.Sort(xs)
		if d := ksDistance(xs, m); d > 1.95/math.Sqrt(n) {
			t.Errorf("%s: KS distance %.5f of the sampler's draws to the model, above %.5f", tc.cell, d, 1.95/math.Sqrt(n))
		}
		if got := m.params(); !close(got, tc.params, 1e-12) {
			t.Errorf("%s: params %v", tc.cell, got)
		}
		for _, p := range []float64{0.05, 0.2, 0.5, 0.8, 0.95} {
			x := m.quantile(p)
			if c := m.cdf(x); math.Abs(c-p) > 1e-9 {
				t.Errorf("%s: cdf(quantile(%v)) = %v", tc.cell, p, c)
			}
			h := 1e-5 * x
			if d := (m.cdf(x+h) - m.cdf(x-h)) / (2 * h); math.Abs(d-m.pdf(x)) > 1e-5*m.pdf(x) {
				t.Errorf("%s: pdf(%v) = %v, the CDF's slope %v", tc.cell, x, m.pdf(x), d)
			}
		}
	}
}

func close(a, b []float64, rel float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > rel*math.Abs(b[i]) {
			return false
		}
	}
	return true
}

// The KS distance by hand: the largest gap either side of each step,
// ties making one step.
func TestKSDistance(t *testing.T) {
	u := uniformModel{0, 4}
	tests := []struct {
		xs   []float64
		want float64
	}{
		{[]float64{1, 2, 3}, 0.25},        // F = .25 .5 .75 against steps of 1/3
		{[]float64{2, 2, 2, 2}, 0.5},      // one step from 0 to 1 at F = .5
		{[]float64{1, 1, 3, 3}, 0.25},     // steps to .5 at F = .25 and to 1 at .75
		{[]float64{0.4, 0.8, 1.2}, 0.7},   // 1 - F(1.2) = .7
		{[]float64{3.9, 3.95, 4}, 0.9750}, // F(3.9) = .975 above a step of 0
	}
	for _, tc := range tests {
		if got := ksDistance(tc.xs, u); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ksDistance(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}
