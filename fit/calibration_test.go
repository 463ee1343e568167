package fit

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// binomialInterval is the central interval holding a binomial(n, p) count
// with probability at least 1-alpha, from its exact distribution.
func binomialInterval(n int, p, alpha float64) (lo, hi int) {
	pmf := make([]float64, n+1)
	for k := range pmf {
		lg1, _ := math.Lgamma(float64(n + 1))
		lg2, _ := math.Lgamma(float64(k + 1))
		lg3, _ := math.Lgamma(float64(n - k + 1))
		pmf[k] = math.Exp(lg1 - lg2 - lg3 + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
	}
	for cum := 0.0; cum+pmf[lo] <= alpha/2; lo++ {
		cum += pmf[lo]
	}
	hi = n
	for cum := 0.0; cum+pmf[hi] <= alpha/2; hi-- {
		cum += pmf[hi]
	}
	return lo, hi
}

// Under the null (the data drawn from the family fitted), the bootstrap
// p-value is uniform: over 200 seeds, the share of p <= 0.1 and of
// p <= 0.5 lies in its binomial interval (99.9%, so that the eight
// families together rarely trip by chance). A p-value that ignored the
// estimation of the parameters (D* against the true distribution, or the
// Kolmogorov distribution's tables) would give far too few small p.
func TestBootstrapPValueIsUniformUnderTheNull(t *testing.T) {
	const seeds = 200
	cases := []struct {
		cell  string
		n     int
		heavy bool
		// step, when set, rounds the data to it, as a clock logs them
		// (whole milliseconds: 1): the bootstrap must round its draws alike.
		step float64
	}{
		{"Gamma(2.5,4)", 100, false, 0},
		{"Normal(2,2)", 100, false, 0},
		{"Exp(3)", 100, true, 0},
		{"Erlang(3,6)", 100, true, 0},
		{"LogNormal(23.1,8.4)", 100, true, 0},
		{"Weibull(1.7,10)", 100, true, 0},
		{"Uniform(2,10)", 100, true, 0},
		{"Triangular(1,3,10)", 50, true, 0}, // its fit costs a pass over the values per trial point
		{"Erlang(4,10)", 100, false, 1},     // whole milliseconds, about 20 distinct values
		{"LogNormal(23.1,8.4)", 100, true, 1},
		{"Gamma(2.5,4)", 100, true, 0.5},
	}
	lo10, hi10 := binomialInterval(seeds, 0.1, 0.001)
	lo50, hi50 := binomialInterval(seeds, 0.5, 0.001)
	for _, tc := range cases {
		name := tc.cell
		if tc.step > 0 {
			name += fmt.Sprintf(" logged to %g", tc.step)
		}
		t.Run(name, func(t *testing.T) {
			if tc.heavy && testing.Short() {
				t.Skip("-short: two families only")
			}
			t.Parallel()
			name, _, _ := strings.Cut(tc.cell, "(")
			fam := families[slices.IndexFunc(families, func(f family) bool { return f.name == name })]
			below10, below50 := 0, 0
			for seed := range uint64(seeds) {
				xs := draw(t, tc.cell, tc.n, 1000+seed)
				if tc.step > 0 {
					for i, x := range xs {
						xs[i] = roundTo(x, tc.step)
					}
				}
				slices.Sort(xs)
				m, _, err := fam.fit(newSample(xs, nil))
				if err != nil {
					t.Fatal(err)
				}
				p := bootstrapP(fam, xs, m, DefaultReplicates, seed, 1)
				if p <= 0.1 {
					below10++
				}
				if p <= 0.5 {
					below50++
				}
			}
			if below10 < lo10 || below10 > hi10 {
				t.Errorf("p <= 0.1 in %d of %d seeds, want %d to %d", below10, seeds, lo10, hi10)
			}
			if below50 < lo50 || below50 > hi50 {
				t.Errorf("p <= 0.5 in %d of %d seeds, want %d to %d", below50, seeds, lo50, hi50)
			}
			t.Logf("p <= 0.1: %d/%d (%d..%d); p <= 0.5: %d/%d (%d..%d)", below10, seeds, lo10, hi10, below50, seeds, lo50, hi50)
		})
	}
}

// The p-value has power: 1,000 lognormal values reject the families far
// from it (every bootstrap distance below the observed one: p = 1/200),
// and not the lognormal itself.
func TestBootstrapPValueRejectsWrongFamilies(t *testing.T) {
	res, err := Distributions(draw(t, "LogNormal(23.1,8.4)", 1000, 21), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Fits {
		far := f.Family != "LogNormal" && f.Family != "Gamma" && f.Family != "Erlang"
		switch {
		case far && f.PValue > 0.01:
			t.Errorf("%s: p = %v, want it rejected", f.Cell, f.PValue)
		case f.Family == "LogNormal" && f.PValue < 0.01:
			t.Errorf("%s: p = %v on its own data", f.Cell, f.PValue)
		}
	}
}

func TestResolution(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3, 17, 8}, 1},
		{[]float64{0.5, 17, 8}, 0.5}, // a 0 written as half the resolution
		{[]float64{10, 35, 120}, 5},
		{[]float64{12.345, 1.001, 7}, 0.001},
		{[]float64{0.1, 0.3, 0.7}, 0.1}, // not exact in binary
		{[]float64{2000, 6000, 14000}, 2000},
		{[]float64{23.114527315, math.Pi}, 0},
	} {
		if got := resolution(c.xs); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("resolution(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

// Data of a handful of distinct values get no p-value: the bootstrap,
// rounding its draws as the data were, called Uniform(1,2) a fit of 1s
// and 2s with p = 1, and LogNormal a fit of 5 and 5.000001 (every refit
// failed, each counted as far). A refit that fails for most draws gives
// no p-value either.
func TestNoPValueForAHandfulOfValues(t *testing.T) {
	for name, values := range map[string][]float64{
		"ones and twos":   append(slices.Repeat([]float64{1}, 50), slices.Repeat([]float64{2}, 50)...),
		"almost constant": append(slices.Repeat([]float64{5}, 99), 5.000001),
		"nine of a kind":  slices.Repeat([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 10),
	} {
		res, err := Distributions(slices.Clone(values), Options{Seed: 1, Replicates: 99})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Fits {
			if !math.IsNaN(f.PValue) {
				t.Errorf("%s: %s has p-value %v, want none", name, f.Cell, f.PValue)
			}
		}
	}
	// Ten distinct values are tested.
	res, err := Distributions(slices.Repeat([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 10), Options{Seed: 1, Replicates: 99})
	if err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(res.Fits[0].PValue) {
		t.Errorf("ten distinct values: %s has no p-value", res.Fits[0].Cell)
	}
}
