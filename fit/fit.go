package fit

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/websim/websim/engine/dist"
)

// Defaults of Options.
const (
	// DefaultReplicates is the number of bootstrap refits behind each
	// p-value: p is a multiple of 1/200.
	DefaultReplicates = 199
	// DefaultTestSize is the most values the p-values are computed on; a
	// larger sample is tested on a random subsample of this size.
	DefaultTestSize = 2000
)

// Options tune Distributions. Zero values take the defaults.
type Options struct {
	Replicates int    // bootstrap refits per family (DefaultReplicates); below 0: no p-values
	Seed       uint64 // seed of the bootstrap and of the subsamples; the same seed gives the same result
	TestSize   int    // the most values a p-value is computed on (DefaultTestSize when 0 or less)
}

// Fitted is one family's maximum-likelihood fit.
type Fitted struct {
	Family string    // "LogNormal"
	Params []float64 // the fitted parameters, unrounded, in the cell's order
	Cell   string    // the fit as a cell, rounded: "LogNormal(23.1,8.4)"
	LogLik float64   // log-likelihood at the fit, over every value
	AIC    float64   // 2k - 2 LogLik; NaN for Const
	KS     float64   // Kolmogorov-Smirnov distance to every value
	PValue float64   // parametric bootstrap p-value of KS; NaN when not computed
	// Mean and SD are the cell's, as printed: what a model draws once it
	// is pasted (Normal's truncated at 0).
	Mean, SD float64
	// MeanShift is Mean over the data's mean, less 1: +0.2 for a cell
	// whose mean is 20% above the data's, which offers a model 20% more
	// load than was measured.
	MeanShift float64
	// MeanOff is set when Mean is off the data's mean: outside the 95%
	// range of the average of as many values drawn from the cell, and by
	// more than 1% of the data's mean (isMeanOff).
	MeanOff bool
	model   model
}

// CDF, PDF and Quantile are the fitted distribution's.
func (f *Fitted) CDF(x float64) float64      { return f.model.cdf(x) }
func (f *Fitted) PDF(x float64) float64      { return f.model.pdf(x) }
func (f *Fitted) Quantile(p float64) float64 { return f.model.quantile(p) }

// Skipped is a family left out of the ranking, and why.
type Skipped struct {
	Family string `json:"family"`
	Reason string `json:"reason"`
}

// Result is the ranking of the fits.
type Result struct {
	Observations int
	Fits         []Fitted // best (lowest AIC) first
	Skipped      []Skipped
	Replicates   int       // bootstrap refits behind each p-value
	Distinct     int       // distinct values; below MinDistinctForTest, no p-values
	Seed         uint64    // the seed used
	Tested       int       // values the p-values are computed on: Observations, or a subsample
	Values       []float64 // every value, sorted
	// Mean and SD are the data's: the mean, and the sample standard
	// deviation (over n-1).
	Mean, SD float64
	// KeepsMean is set when the best fit's mean is off the data's: a cell
	// of LogNormal, Gamma or Weibull with the data's mean and sd (by
	// moments), the likeliest of the three for the data, to paste where the
	// load matters more than the shape (keepingMean). Its PValue is NaN.
	KeepsMean *Fitted
}

// Distributions fits every family the model's cells accept that suits
// positive times, by maximum likelihood, and ranks the fits by AIC. When
// all values are one value, the one fit is Const. values must be finite
// and above 0, at least MinValues of them; Distributions sorts them in
// place and keeps them as Result.Values.
//
// Each fit's p-value is a parametric bootstrap of its Kolmogorov-Smirnov
// distance, valid although the parameters are estimated: draw
// Options.Replicates samples of the same size from the fit (with the
// model's own sampler), refit the family to each, and take
// p = (1 + #{D* >= D}) / (1 + replicates). Above Options.TestSize values,
// the test (D, the fit behind it, and the bootstrap) runs on a random
// subsample of that size, which keeps its cost flat; the KS reported is
// still over every value.
func Distributions(values []float64, opts Options) (*Result, error) {
	if opts.Replicates == 0 {
		opts.Replicates = DefaultReplicates
	}
	if opts.TestSize <= 0 {
		opts.TestSize = DefaultTestSize
	}
	n := len(values)
	if n < MinValues {
		return nil, fmt.Errorf("%d values, expected at least %d: %w", n, MinValues, ErrInvalid)
	}
	for i, x := range values {
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("value %d is %v, expected a finite time above 0: %w", i+1, x, ErrInvalid)
		}
	}
	res := &Result{Observations: n, Replicates: max(opts.Replicates, 0), Seed: opts.Seed, Tested: min(n, opts.TestSize)}

	// Random subsamples, before sorting: the first m values after a
	// partial Fisher-Yates shuffle are a uniform sample of m.
	var test, sub []float64
	if n > opts.TestSize || n > triangularCap {
		r := rand.New(rand.NewPCG(opts.Seed, 0))
		m := min(n, max(opts.TestSize, triangularCap))
		for i := range m {
			j := i + r.IntN(n-i)
			values[i], values[j] = values[j], values[i]
		}
		if n > opts.TestSize {
			test = slices.Clone(values[:opts.TestSize])
			slices.Sort(test)
		}
		if n > triangularCap {
			sub = slices.Clone(values[:triangularCap])
			slices.Sort(sub)
		}
	}
	slices.Sort(values)
	res.Values = values

	if values[0] == values[n-1] {
		m := constModel{values[0]}
		res.Fits = []Fitted{{Family: "Const", Params: m.params(), Cell: cellText(m, 0),
			AIC: math.NaN(), KS: 0, PValue: 1, model: m}}
		res.Mean = values[0]
		res.Fits[0].setMean(res.Mean, n)
		return res, nil
	}

	all := newSample(values, sub)
	res.Mean, res.SD = all.mean, math.Sqrt(all.m2/float64(n-1))
	res.Distinct = distinct(values)
	testable := res.Distinct >= MinDistinctForTest
	var testSample *sample
	if test != nil {
		testSample = newSample(test, nil)
	}
	digits := significantDigits(n)
	// Each family is fitted, measured and tested on its own goroutine
	// (and its own random stream), so the result does not depend on the
	// number of cores.
	fits := make([]*Fitted, len(families))
	skipped := make([]string, len(families))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, fam := range families {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			m, ll, err := fam.fit(all)
			if err != nil {
				skipped[i] = err.Error()
				return
			}
			if reason := unfit(m, digits, values[0], values[n-1]); reason != "" {
				skipped[i] = reason
				return
			}
			f := &Fitted{Family: fam.name, Params: m.params(), Cell: faithfulCell(m, digits), LogLik: ll,
				AIC: 2*float64(fam.k) - 2*ll, KS: ksDistance(values, m), PValue: math.NaN(), model: m}
			if res.Replicates > 0 && testable {
				s := all
				if testSample != nil {
					s = testSample
					if m, _, err = fam.fit(s); err != nil {
						m = f.model
					}
				}
				f.PValue = bootstrapP(fam, s.xs, m, res.Replicates, opts.Seed, uint64(i)+1)
			}
			fits[i] = f
		}()
	}
	wg.Wait()
	for i, reason := range skipped {
		if reason != "" {
			res.Skipped = append(res.Skipped, Skipped{families[i].name, reason})
		}
	}

	for _, f := range fits {
		if f != nil {
			res.Fits = append(res.Fits, *f)
		}
	}
	if len(res.Fits) == 0 { // Exp always fits values that vary; kept as a guard
		return nil, fmt.Errorf("no distribution could be fitted: %w", ErrInvalid)
	}
	slices.SortStableFunc(res.Fits, func(a, b Fitted) int { return cmpFloat(a.AIC, b.AIC) })
	for i := range res.Fits {
		res.Fits[i].setMean(res.Mean, n)
	}
	if res.Fits[0].MeanOff {
		if k := keepingMean(all, res.SD, digits); k != nil {
			k.setMean(res.Mean, n)
			res.KeepsMean = k
		}
	}
	return res, nil
}

// unfit says why a fit cannot stand in a cell ("" when it can): Erlang
// with k = 1 is Exp; a fit whose parameters or mean overflow (times
// spread over hundreds of powers of ten, from lo to hi) is said so in
// words, not as the parse error of a cell holding +Inf; and a fit the
// model's parser refuses (Normal with a mean at or below 0) is no answer.
func unfit(m model, digits int, lo, hi float64) string {
	if g, ok := m.(gammaModel); ok && g.erlang && g.shape == 1 {
		return "the best whole k is 1, which is Exp"
	}
	if what := overflows(m); what != "" {
		return fmt.Sprintf("%s for times this spread (%s to %s): beyond the largest number, about 1.8e308, so no cell can hold the fit", what, fmtG(lo), fmtG(hi))
	}
	for _, text := range []string{faithfulCell(m, digits), exactText(m)} {
		if _, err := dist.Parse(text); err != nil {
			msg := err.Error()
			var se *dist.SyntaxError
			if errors.As(err, &se) {
				msg = se.Msg
			}
			return fmt.Sprintf("its best fit, %s, is not a cell the model accepts: %s", faithfulCell(m, digits), msg)
		}
	}
	return ""
}

// paramNames are the names of each family's parameters, in the cell's
// order.
var paramNames = map[string][]string{
	"Exp": {"mean"}, "Erlang": {"k", "mean"}, "Gamma": {"shape", "scale"}, "LogNormal": {"mean", "sd"},
	"Weibull": {"shape", "scale"}, "Normal": {"mean", "sd"}, "Uniform": {"min", "max"},
	"Triangular": {"min", "mode", "max"}, "Const": {"x"},
}

// overflows says what of m is not a finite number ("its fitted mean and
// sd overflow", "the mean of its best fit, Weibull(0.00626,3.32e40),
// overflows"), or "".
func overflows(m model) string {
	var names []string
	for i, p := range m.params() {
		if math.IsInf(p, 0) || math.IsNaN(p) {
			names = append(names, paramNames[m.family()][i])
		}
	}
	switch {
	case len(names) == 1:
		return "its fitted " + names[0] + " overflows"
	case len(names) > 1:
		return "its fitted " + strings.Join(names, " and ") + " overflow"
	}
	if mean := m.drawnMean(); math.IsInf(mean, 0) || math.IsNaN(mean) {
		return fmt.Sprintf("the mean of its best fit, %s, overflows", cellText(m, 3))
	}
	return ""
}

// MinDistinctForTest is the fewest distinct values for which fits get a
// p-value: data of a handful of values (1 and 2, say, or 5 and 5.000001)
// are no sample of a continuous shape, and the bootstrap, whose draws are
// rounded as the data were, reads them as fitting anything (p = 1).
const MinDistinctForTest = 10

// distinct counts the distinct values of sorted xs.
func distinct(xs []float64) int {
	n := 0
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			n++
		}
	}
	return n
}

// bootstrapP is the parametric bootstrap p-value of the KS distance of
// sorted xs to m, the fit of fam to xs: draws come from the model's own
// sampler of m (engine/dist), each is refitted, and the share of refitted
// distances at least the observed one is p. A refit that fails counts as
// at least as far (conservative); when more than a tenth fail, p is NaN.
//
// Times logged at a clock's resolution (whole milliseconds) are steps, and
// their distance to any continuous fit is larger than that of exact times:
// compared with exact draws, the true family would be rejected for the
// rounding alone. So each draw is rounded as the data were (resolution),
// and the test asks whether the data are the fit, as measured.
func bootstrapP(fam family, xs []float64, m model, replicates int, seed, stream uint64) float64 {
	d0 := ksDistance(xs, m)
	sampler, err := dist.Parse(exactText(m))
	if err != nil {
		return math.NaN()
	}
	r := rand.New(rand.NewPCG(seed, stream))
	buf := make([]float64, len(xs))
	step := resolution(xs)
	atLeast, failed := 0, 0
	for range replicates {
		for i := range buf {
			buf[i] = sampler.Sample(r)
			if step > 0 {
				buf[i] = roundTo(buf[i], step)
			}
		}
		slices.Sort(buf)
		bm, _, err := fam.fit(newSample(buf, nil))
		if err != nil {
			failed++
		}
		if err != nil || ksDistance(buf, bm) >= d0 {
			atLeast++
		}
	}
	if failed*10 > replicates {
		// Most draws could not be refitted (a fit so narrow that its
		// rounded draws barely vary): counted as far, they would make p
		// near 1 whatever the fit; there is no p-value.
		return math.NaN()
	}
	return float64(1+atLeast) / float64(1+replicates)
}

// resolution is the coarsest step of 1, 2 or 5 times a power of ten
// (from 10^-9 to 10^6) of which every value of xs is a whole multiple, to
// a millionth of the step (and the rounding of x): the resolution the times were logged at; 0 when there
// is none (times with all their digits).
func resolution(xs []float64) float64 {
	for e := 6; e >= -9; e-- {
		for _, m := range []float64{5, 2, 1} {
			step := m * math.Pow(10, float64(e))
			if onGrid(xs, step) {
				return step
			}
		}
	}
	return 0
}

// onGrid reports whether every value of xs is a whole multiple of step.
func onGrid(xs []float64, step float64) bool {
	for _, x := range xs {
		k := math.Round(x / step)
		if k == 0 || math.Abs(x-k*step) > max(1e-6*step, 1e-15*x) {
			return false
		}
	}
	return true
}

// roundTo rounds x to a multiple of step; what rounds to 0 is written as
// half the step, as the data are asked to write a time below the clock's
// resolution (a value of 0 is refused).
func roundTo(x, step float64) float64 {
	if r := math.Round(x/step) * step; r > 0 {
		return r
	}
	return step / 2
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
