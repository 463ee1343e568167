package stats

import (
	"math"
	"sync"
)

// StudentT returns the two-sided critical value of Student's t
// distribution with df degrees of freedom at confidence level (0.95 gives
// the 97.5% quantile). df < 1, or a level outside (0, 1), returns NaN.
//
// Each value is computed once and kept: a study of thousands of runs asks
// for the same few (level, df) pairs at every run's summary, and each is a
// bisection of some forty incomplete beta functions.
func StudentT(level float64, df int) float64 {
	if df < 1 || !(level > 0 && level < 1) {
		return math.NaN()
	}
	k := tKey{level, df}
	if v, ok := tValues.Load(k); ok {
		return v.(float64)
	}
	v := studentT(level, df)
	tValues.Store(k, v)
	return v
}

// tValues holds StudentT's values by tKey, for every goroutine.
var tValues sync.Map

type tKey struct {
	level float64
	df    int
}

// studentT is StudentT computed, for level in (0, 1) and df ≥ 1.
func studentT(level float64, df int) float64 {
	p := 1 - (1-level)/2
	// Bisection on the CDF; the quantile lies in (0, hi).
	lo, hi := 0.0, 1.0
	for tCDF(hi, float64(df)) < p {
		hi *= 2
	}
	for i := 0; i < 100 && hi-lo > 1e-12*hi; i++ {
		mid := (lo + hi) / 2
		if tCDF(mid, float64(df)) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// tCDF is the cumulative distribution of Student's t at x ≥ 0.
func tCDF(x, df float64) float64 {
	ib := regIncBeta(df/2, 0.5, df/(df+x*x))
	return 1 - ib/2
}

// regIncBeta is the regularized incomplete beta function I_x(a, b).
func regIncBeta(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	lga, _ := math.Lgamma(a)
	lgb, _ := math.Lgamma(b)
	lgab, _ := math.Lgamma(a + b)
	front := math.Exp(lgab - lga - lgb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

// betaCF evaluates the continued fraction of the incomplete beta function
// (modified Lentz's method).
func betaCF(a, b, x float64) float64 {
	const tiny = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return h
}
