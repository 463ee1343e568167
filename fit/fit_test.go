package fit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/websim/websim/engine/dist"
)

// draw returns n values of the cell text from the model's own sampler.
func draw(t testing.TB, cell string, n int, seed uint64) []float64 {
	t.Helper()
	d, err := dist.Parse(cell)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 99))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = d.Sample(r)
	}
	return xs
}

func fitOf(res *Result, family string) *Fitted {
	for i := range res.Fits {
		if res.Fits[i].Family == family {
			return &res.Fits[i]
		}
	}
	return nil
}

// Asymptotic standard errors of the maximum-likelihood estimates, from the
// inverse Fisher information of each family (per value, divided by n).
func standardErrors(t *testing.T, family string, p []float64, n float64) []float64 {
	switch family {
	case "Exp": // mean = x̄
		return []float64{p[0] / math.Sqrt(n)}
	case "Erlang": // k is found exactly; the mean is x̄, of sd mean/√k per value
		return []float64{0, p[1] / math.Sqrt(n*p[0])}
	case "Gamma": // I = [[ψ'(a), 1/θ], [1/θ, a/θ²]]
		a, th := p[0], p[1]
		det := a*trigamma(a) - 1
		return []float64{math.Sqrt(a / (n * det)), th * math.Sqrt(trigamma(a)/(n*det))}
	case "LogNormal": // μ̂, σ̂ of the logs: var σ²/n and σ²/2n; delta method to (mean, sd)
		mean, sd := p[0], p[1]
		s2 := math.Log1p(sd * sd / (mean * mean))
		sigma := math.Sqrt(s2)
		vmu, vsig := s2/n, s2/(2*n)
		e := math.Expm1(s2)
		dMeanDSig := mean * sigma
		dSdDSig := mean*sigma*math.Sqrt(e) + mean*sigma*(e+1)/math.Sqrt(e)
		return []float64{math.Sqrt(mean*mean*vmu + dMeanDSig*dMeanDSig*vsig), math.Sqrt(sd*sd*vmu + dSdDSig*dSdDSig*vsig)}
	case "Weibull": // var k̂ = 6k²/(π²n), var λ̂ = λ²(1 + 6(1-γ)²/π²)/(k²n)
		k, l := p[0], p[1]
		g := 1 - 0.5772156649015329
		return []float64{k * math.Sqrt(6/(math.Pi*math.Pi*n)), l / k * math.Sqrt((1+6*g*g/(math.Pi*math.Pi))/n)}
	case "Normal": // observed information of the truncated normal, by finite differences
		return truncNormalSE(p[0], p[1], n)
	case "Uniform": // x(1) - min ≈ w·E/n with E exponential: a scale of w/n
		w := p[1] - p[0]
		return []float64{w / n, w / n}
	case "Triangular": // fitted on at most triangularCap values
		a, c, b := p[0], p[1], p[2]
		m := math.Min(n, triangularCap)
		w := b - a
		// x(1) - min is about √(w(c-min)/m); the mode's information is
		// 1/((c-min)(max-c)) per value.
		return []float64{math.Sqrt(w * (c - a) / m), math.Sqrt((c - a) * (b - c) / m), math.Sqrt(w * (b - c) / m)}
	}
	t.Fatalf("no standard errors for %s", family)
	return nil
}

// truncNormalSE inverts the expected information of the normal truncated
// at 0, computed by numerical integration of the squared score: written
// here from the density alone, not from the fitting code.
func truncNormalSE(mu, sd, n float64) []float64 {
	logf := func(x, m, s float64) float64 {
		z := (x - m) / s
		return -z*z/2 - math.Log(s) - math.Log(0.5*math.Erfc(-m/(s*math.Sqrt2)))
	}
	h := 1e-5
	var i11, i12, i22 float64
	lo, hi := 0.0, mu+12*sd
	steps := 20000
	dx := (hi - lo) / float64(steps)
	for i := range steps {
		x := lo + (float64(i)+0.5)*dx
		f := math.Exp(logf(x, mu, sd))
		gm := (logf(x, mu+h, sd) - logf(x, mu-h, sd)) / (2 * h)
		gs := (logf(x, mu, sd+h) - logf(x, mu, sd-h)) / (2 * h)
		i11 += gm * gm * f * dx
		i12 += gm * gs * f * dx
		i22 += gs * gs * f * dx
	}
	det := i11*i22 - i12*i12
	return []float64{math.Sqrt(i22 / det / n), math.Sqrt(i11 / det / n)}
}

var truths = []struct {
	cell   string
	family string
	params []float64
}{
	{"Exp(3)", "Exp", []float64{3}},
	{"Erlang(3,6)", "Erlang", []float64{3, 6}},
	{"Gamma(2.5,4)", "Gamma", []float64{2.5, 4}},
	{"LogNormal(23.1,8.4)", "LogNormal", []float64{23.1, 8.4}},
	{"Weibull(1.7,10)", "Weibull", []float64{1.7, 10}},
	{"Normal(10,2)", "Normal", []float64{10, 2}},
	{"Normal(2,2)", "Normal", []float64{2, 2}}, // a sixth of the normal is below 0 and drawn again
	{"Uniform(2,10)", "Uniform", []float64{2, 10}},
	{"Triangular(1,3,10)", "Triangular", []float64{1, 3, 10}},
}

// Every family's fit recovers the parameters of 20,000 seeded draws within
// 4 standard errors, and wins by AIC.
func TestRecoverParametersAndWin(t *testing.T) {
	const n = 20000
	for i, tc := range truths {
		t.Run(tc.cell, func(t *testing.T) {
			xs := draw(t, tc.cell, n, uint64(10+i))
			res, err := Distributions(xs, Options{Replicates: -1})
			if err != nil {
				t.Fatal(err)
			}
			f := fitOf(res, tc.family)
			if f == nil {
				t.Fatalf("no %s fit; skipped %v", tc.family, res.Skipped)
			}
			se := standardErrors(t, tc.family, tc.params, n)
			for j, want := range tc.params {
				if d := math.Abs(f.Params[j] - want); d > 4*se[j] {
					t.Errorf("%s parameter %d = %.6g, want %.6g ± %.3g (4 standard errors)", tc.family, j+1, f.Params[j], want, 4*se[j])
				}
			}
			if res.Fits[0].Family != tc.family {
				t.Errorf("best by AIC is %s (AIC %.1f), want %s (AIC %.1f)", res.Fits[0].Cell, res.Fits[0].AIC, f.Cell, f.AIC)
			}
		})
	}
}
