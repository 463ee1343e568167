package fit

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mathext"
)

// sample is a set of values ready for fitting: sorted, with the sums the
// families with sufficient statistics need.
type sample struct {
	xs             []float64 // sorted ascending
	n              float64
	mean, m2       float64 // mean and Σ(x-mean)²
	meanLog, m2Log float64 // the same of log x
	// sub is nil, or a sorted random subsample of xs that the fits without
	// sufficient statistics start from (Weibull) or are fitted on
	// (Triangular) when xs is large.
	sub []float64
}

// newSample computes the sums of sorted xs in one pass, shifted by the
// median so that the squares lose no precision.
func newSample(xs, sub []float64) *sample {
	s := &sample{xs: xs, n: float64(len(xs)), sub: sub}
	k := xs[len(xs)/2]
	lk := math.Log(k)
	var s1, s2, l1, l2 float64
	for _, x := range xs {
		d := x - k
		s1 += d
		s2 += d * d
		l := math.Log(x) - lk
		l1 += l
		l2 += l * l
	}
	s.mean = k + s1/s.n
	s.m2 = max(0, s2-s1*s1/s.n)
	s.meanLog = lk + l1/s.n
	s.m2Log = max(0, l2-l1*l1/s.n)
	return s
}

// errDegenerate is a sample that a family cannot be fitted to (no spread).
var errDegenerate = errors.New("the values do not vary enough to fit this family")

// A family is a kind of distribution the model's cells accept, and its
// maximum-likelihood fit.
type family struct {
	name string
	// k is the number of parameters AIC counts: the continuous ones.
	// Erlang's whole k is picked from the integers around Gamma's shape;
	// as the sample grows the pick is sure and costs nothing, so only its
	// mean counts.
	k   int
	fit func(s *sample) (model, float64, error) // the fit and its log-likelihood
}

// families are fitted in this order, which also breaks ties of AIC and
// numbers the random streams of the bootstrap.
var families = []family{
	{"Exp", 1, fitExp},
	{"Erlang", 1, fitErlang},
	{"Gamma", 2, fitGamma},
	{"LogNormal", 2, fitLogNormal},
	{"Weibull", 2, fitWeibull},
	{"Normal", 2, fitNormal},
	{"Uniform", 2, fitUniform},
	{"Triangular", 3, fitTriangular},
}

func fitExp(s *sample) (model, float64, error) {
	return expModel{s.mean}, -s.n*math.Log(s.mean) - s.n, nil
}

// gammaLogLik is the log-likelihood of Gamma(shape,scale) over s.
func gammaLogLik(s *sample, shape, scale float64) float64 {
	lg, _ := math.Lgamma(shape)
	return s.n * ((shape-1)*s.meanLog - s.mean/scale - shape*math.Log(scale) - lg)
}

// gammaShape solves log(a) - ψ(a) = log(mean) - mean(log x), the
// likelihood equation of the gamma's shape, by Newton's method from
// Minka's approximation.
func gammaShape(s *sample) (float64, error) {
	c := math.Log(s.mean) - s.meanLog
	if !(c > 1e-15) {
		return 0, errDegenerate
	}
	a := (3 - c + math.Sqrt((c-3)*(c-3)+24*c)) / (12 * c)
	for range 100 {
		f := math.Log(a) - mathext.Digamma(a) - c
		fp := 1/a - trigamma(a)
		next := a - f/fp
		if next <= 0 {
			next = a / 2
		}
		if math.Abs(next-a) <= 1e-13*a {
			return next, nil
		}
		a = next
	}
	return a, nil
}

// trigamma is ψ'(x) for x > 0: the recurrence up to 6, then the
// asymptotic series.
func trigamma(x float64) float64 {
	r := 0.0
	for ; x < 6; x++ {
		r += 1 / (x * x)
	}
	t := 1 / (x * x)
	return r + 1/x + t/2 + t/x*(1.0/6-t*(1.0/30-t*(1.0/42-t/30)))
}

func fitGamma(s *sample) (model, float64, error) {
	a, err := gammaShape(s)
	if err != nil {
		return nil, 0, err
	}
	scale := s.mean / a
	return gammaModel{shape: a, scale: scale}, gammaLogLik(s, a, scale), nil
}

// fitErlang takes the better of the two whole shapes around the gamma's:
// the gamma's profile log-likelihood is concave in the shape, and for any
// shape the best mean is the sample mean.
func fitErlang(s *sample) (model, float64, error) {
	a, err := gammaShape(s)
	if err != nil {
		return nil, 0, err
	}
	var best gammaModel
	bestLL := math.Inf(-1)
	for _, k := range []float64{math.Max(1, math.Floor(a)), math.Max(1, math.Floor(a)+1)} {
		if ll := gammaLogLik(s, k, s.mean/k); ll > bestLL {
			best, bestLL = gammaModel{shape: k, scale: s.mean / k, erlang: true}, ll
		}
	}
	return best, bestLL, nil
}

func fitLogNormal(s *sample) (model, float64, error) {
	sigma := math.Sqrt(s.m2Log / s.n)
	if !(sigma > 0) {
		return nil, 0, errDegenerate
	}
	ll := -s.n * (s.meanLog + math.Log(sigma) + math.Log(2*math.Pi)/2 + 0.5)
	return logNormalModel{mu: s.meanLog, sigma: sigma}, ll, nil
}

// fitWeibull solves the shape's likelihood equation
//
//	Σ xᵏ log x / Σ xᵏ - 1/k - mean(log x) = 0
//
// (its left side rises with k) by Newton's method kept inside a bracket,
// starting from the subsample's solution when there is one; the scale
// follows: scaleᵏ = mean(xᵏ).
func fitWeibull(s *sample) (model, float64, error) {
	sdLog := math.Sqrt(s.m2Log / s.n)
	if !(sdLog > 0) {
		return nil, 0, errDegenerate
	}
	k := math.Pi / (math.Sqrt(6) * sdLog) // the shape whose log has this sd
	if s.sub != nil {
		k, _, _ = weibullShape(s.sub, meanLog(s.sub), k)
	}
	k, sumPow, lmax := weibullShape(s.xs, s.meanLog, k)
	logScale := s.meanLog + (math.Log(sumPow/s.n)+k*lmax)/k
	ll := s.n*math.Log(k) - s.n*k*logScale + (k-1)*s.n*s.meanLog - s.n
	return weibullModel{shape: k, scale: math.Exp(logScale)}, ll, nil
}

// weibullShape solves for the shape over sorted xs from k. It returns the
// shape, Σ exp(k(l-lmax)) and lmax, with l = log x - ml.
func weibullShape(xs []float64, ml, k float64) (shape, sumPow, lmax float64) {
	lmax = math.Log(xs[len(xs)-1]) - ml
	lo, hi := 0.0, math.Inf(1)
	for range 200 {
		var a, b, c float64
		for _, x := range xs {
			l := math.Log(x) - ml
			e := math.Exp(k * (l - lmax))
			a += e
			b += e * l
			c += e * l * l
		}
		sumPow = a
		g := b/a - 1/k
		gp := c/a - (b/a)*(b/a) + 1/(k*k)
		if g < 0 {
			lo = k
		} else {
			hi = k
		}
		next := k - g/gp
		if !(next > lo && next < hi) {
			if math.IsInf(hi, 1) {
				next = 2 * k
			} else {
				next = (lo + hi) / 2
			}
		}
		if math.Abs(next-k) <= 1e-12*k {
			break
		}
		k = next
	}
	return k, sumPow, lmax
}

func meanLog(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += math.Log(x)
	}
	return sum / float64(len(xs))
}

// fitNormal fits the normal truncated at 0, which is what Normal(mean,sd)
// draws: its log-likelihood
//
//	-n log sd - Σ(x-mean)²/(2sd²) - n log Φ(mean/sd) - n log √(2π)
//
// depends on the sums only, and is maximized by Nelder and Mead's simplex
// over (mean, log sd). The mean found may be 0 or less (data falling from
// 0 like an exponential's); no cell holds such a Normal, and the caller
// leaves it out.
func fitNormal(s *sample) (model, float64, error) {
	sd := math.Sqrt(s.m2 / s.n)
	if !(sd > 0) {
		return nil, 0, errDegenerate
	}
	v := s.m2 / s.n
	// (z, t): mean = s.mean + sd·z, sd' = sd·exp(t).
	nll := func(z, t float64) float64 {
		mu := s.mean + sd*z
		sig := sd * math.Exp(t)
		d := s.mean - mu
		return math.Log(sig) + (v+d*d)/(2*sig*sig) + logPhi(mu/sig)
	}
	z, t, f := minimize2(nll, 0, 0, 0.5, 1e-13, 2000)
	mu, sig := s.mean+sd*z, sd*math.Exp(t)
	return normalModel{mean: mu, sd: sig}, -s.n * (f + math.Log(2*math.Pi)/2), nil
}

func fitUniform(s *sample) (model, float64, error) {
	lo, hi := s.xs[0], s.xs[len(s.xs)-1]
	if !(hi > lo) {
		return nil, 0, errDegenerate
	}
	return uniformModel{lo, hi}, -s.n * math.Log(hi-lo), nil
}

// triangularCap is the most values Triangular is fitted on: its likelihood
// has no sufficient statistics and each trial of (min,max) costs a pass
// over the values, so a larger sample is fitted on a random subsample of
// this size (and its log-likelihood computed over every value).
const triangularCap = 10000

// fitTriangular maximizes the likelihood over min and max by Nelder and
// Mead's simplex; for given min and max the best mode is one of the values
// (Oliver 1972: between two values the log-likelihood is convex in the
// mode), found in one pass with prefix sums. min is kept at 0 or more, as
// cells require.
func fitTriangular(s *sample) (model, float64, error) {
	xs := s.xs
	if len(xs) > triangularCap && s.sub != nil {
		xs = s.sub
	}
	lo, hi := xs[0], xs[len(xs)-1]
	w := hi - lo
	if !(w > 0) {
		return nil, 0, errDegenerate
	}
	n := float64(len(xs))
	pre := make([]float64, len(xs)+1)
	suf := make([]float64, len(xs)+1)
	// (u, v): min = lo·(1 - σ(u)), which keeps it in (0, lo) with
	// lo - min ≈ lo·exp(u) near lo; max = hi + w·exp(v).
	ends := func(u, v float64) (a, b float64) {
		return lo / (1 + math.Exp(u)), hi + w*math.Exp(v)
	}
	nll := func(u, v float64) float64 {
		a, b := ends(u, v)
		_, ll := triangularProfile(xs, a, b, pre, suf)
		if math.IsInf(ll, -1) || math.IsNaN(ll) {
			return math.MaxFloat64
		}
		return -ll / n
	}
	// Start with the ends 1/√n of the range beyond the extreme values.
	gap := w / math.Sqrt(n)
	u, v, _ := minimize2(nll, math.Log(gap/max(lo-gap, lo/2)), math.Log(gap/w), 1, 1e-8, 400)
	a, b := ends(u, v)
	mode, ll := triangularProfile(xs, a, b, pre, suf)
	m := triangularModel{a, mode, b}
	if len(xs) == len(s.xs) {
		return m, ll, nil
	}
	// Fitted on the subsample: widen to every value, then sum over all.
	all := s.xs
	if all[0] <= m.min && m.mode > m.min {
		m.min = max(0, all[0]-w*1e-9)
	}
	if all[len(all)-1] >= m.max && m.mode < m.max {
		m.max = all[len(all)-1] + w*1e-9
	}
	ll = 0
	for _, x := range all {
		ll += math.Log(m.pdf(x))
	}
	return m, ll, nil
}

// triangularProfile returns the best mode among sorted xs for min a and
// max b, and the log-likelihood there. pre and suf are scratch of
// len(xs)+1.
func triangularProfile(xs []float64, a, b float64, pre, suf []float64) (mode, ll float64) {
	n := len(xs)
	base := float64(n) * (math.Ln2 - math.Log(b-a))
	first, last := 0, n-1
	if xs[0] <= a {
		last = 0 // the mode must be at min
	}
	if xs[n-1] >= b {
		first = n - 1 // the mode must be at max
	}
	if first > last {
		return a, math.Inf(-1)
	}
	pre[0] = 0
	for i, x := range xs {
		pre[i+1] = pre[i] + math.Log(x-a)
	}
	suf[n] = 0
	for i := n - 1; i >= 0; i-- {
		suf[i] = suf[i+1] + math.Log(b-xs[i])
	}
	ll = math.Inf(-1)
	mode = xs[first]
	for r := first; r <= last; r++ {
		c := xs[r]
		v := base
		if r > 0 {
			v += pre[r] - float64(r)*math.Log(c-a)
		}
		if r < n-1 {
			v += suf[r+1] - float64(n-1-r)*math.Log(b-c)
		}
		if v > ll {
			ll, mode = v, c
		}
	}
	return mode, ll
}
