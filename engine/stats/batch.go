package stats

import (
	"fmt"
	"math"
)

// BatchMeans estimates a confidence interval for the mean of a correlated
// series (response times in completion order) from one long run. It keeps
// at most MaxBatches batch sums: when they are full, neighbours merge and
// the batch size doubles, so memory is constant and between MaxBatches/2 and
// MaxBatches complete batches are always available. The interval itself
// uses fewer, larger batches (see CI).
type BatchMeans struct {
	sums      [MaxBatches]float64
	full      int     // complete batches
	size      int64   // observations per batch
	partial   float64 // sum of the batch being filled
	inPartial int64
	// n counts the observations; shifted and shiftedSq sum each less the
	// first (shift) and its square, for the variance of one observation
	// (see CI): no division per observation, and no cancellation when the
	// spread is small beside the mean.
	n                         int64
	shift, shifted, shiftedSq float64
}

// obsVar is the sample variance of one observation (0 below 2).
func (b *BatchMeans) obsVar() float64 {
	if b.n < 2 {
		return 0
	}
	n := float64(b.n)
	m := b.shifted / n
	return max(b.shiftedSq-n*m*m, 0) / (n - 1)
}

// N is the number of observations.
func (b *BatchMeans) N() int64 { return b.n }

// Mean is the mean of the observations (0 without any), from the shifted
// sum: the series' own mean, with no division per observation as a
// Welford tally takes.
func (b *BatchMeans) Mean() float64 {
	if b.n == 0 {
		return 0
	}
	return b.shift + b.shifted/float64(b.n)
}

// SD is the sample standard deviation of one observation (n-1
// denominator; 0 below two observations).
func (b *BatchMeans) SD() float64 { return math.Sqrt(b.obsVar()) }

// MaxBatches bounds the number of batches kept.
const MaxBatches = 64

// CIBatches is the most batches a confidence interval uses: the kept
// batches are merged in pairs down to between CIBatches/2 and CIBatches.
// Larger batches are closer to independent and to normal, which is what the
// Student-t interval assumes.
const CIBatches = 32

// minCIBatches is the fewest batches the lag-1 check merges down to.
const minCIBatches = 8

// lag1Critical is the one-sided 95% normal quantile: batches are merged
// while their lag-1 autocorrelation exceeds lag1Critical/√k.
const lag1Critical = 1.6449

// Add records the next observation of the series.
func (b *BatchMeans) Add(x float64) {
	if b.size == 0 {
		b.size = 1
	}
	if b.n == 0 {
		b.shift = x
	}
	b.n++
	d := x - b.shift
	b.shifted += d
	b.shiftedSq += d * d
	b.partial += x
	b.inPartial++
	if b.inPartial < b.size {
		return
	}
	b.sums[b.full] = b.partial
	b.full++
	b.partial, b.inPartial = 0, 0
	if b.full == MaxBatches {
		for i := 0; i < MaxBatches/2; i++ {
			b.sums[i] = b.sums[2*i] + b.sums[2*i+1]
		}
		b.full = MaxBatches / 2
		b.size *= 2
	}
}

// Interval is a confidence interval for a mean: Mean ± HalfWidth, from
// Batches independent-looking means (batch means of BatchSize observations
// each, or replication means with BatchSize 0). Lag1 is the lag-1
// autocorrelation of those means (NaN below 3). Effective is, for
// BatchMeans.CI, the number of independent observations that would give
// the mean the same standard error (the variance of one observation over
// the squared standard error; NaN elsewhere), and Why says why HalfWidth
// is NaN when there is no interval.
type Interval struct {
	Mean, HalfWidth float64
	Batches         int
	BatchSize       int64
	Lag1            float64
	Effective       float64
	Why             string
}

// MinEffective is the fewest effectively independent observations
// (Interval.Effective) a run's batch means must be worth for BatchMeans.CI
// to give an interval: a run that is not many times longer than the
// correlation time of its series cannot estimate its own standard error,
// and its batches look calm exactly when the run missed the long
// excursions that make the mean what it is. On 1,000 runs of 100,000
// observations of an M/M/1 the 1% quantile of Effective is 82 at
// utilization 0.9 and 19 at 0.95, its median 24 at 0.98, 11 at 0.99 and 5
// at 1.00; at 10,000 observations its 1% quantile is 37 at 0.8.
const MinEffective = 30

// minGatedObservations is the fewest observations to which MinEffective
// applies: below, the estimate of Effective from a few batch means and
// their lag-1 autocorrelation is too rough (independent samples of 10 to
// 40 were refused 1 to 8% of the time), and a short run, a rare entity's
// few requests say, keeps its Student t interval.
const minGatedObservations = 10 * MinEffective

// ciBatches returns the batch sums the interval uses and their size (see
// mergeForCI).
func (b *BatchMeans) ciBatches(dst *[MaxBatches]float64) (k int, size int64) {
	copy(dst[:], b.sums[:b.full])
	return mergeForCI(dst[:], b.full, b.size)
}

// mergeForCI merges the k batch sums in sums (of size observations each)
// in pairs down to at most CIBatches (an odd last batch is left out), then
// again while their lag-1 autocorrelation is significantly positive, as
// long as minCIBatches remain. It returns the new count and size.
func mergeForCI(sums []float64, k int, size int64) (int, int64) {
	for k > CIBatches || (k/2 >= minCIBatches && lag1(sums[:k]) > lag1Critical/math.Sqrt(float64(k))) {
		for i := 0; i < k/2; i++ {
			sums[i] = sums[2*i] + sums[2*i+1]
		}
		k /= 2
		size *= 2
	}
	return k, size
}

// BatchesWithEvents returns how many of the batches CI rests on (after
// its merging) hold a value other than 0, and how many there are: for a
// series of indicators of rare events, the batches that saw one.
func (b *BatchMeans) BatchesWithEvents() (with, of int) {
	var sums [MaxBatches]float64
	k, _ := b.ciBatches(&sums)
	for _, s := range sums[:k] {
		if s != 0 {
			with++
		}
	}
	return with, k
}

// CI returns the confidence interval at level (0.95 for 95%) of the mean of
// the series from the batches of ciBatches: the mean of the batch means ±
// t(level, k-1)·s/√k, s the sample standard deviation (n-1 denominator) of
// the k batch means, widened by √((1+r)/(1-r)) for the lag-1
// autocorrelation r of the batch means left after the merging, when
// positive (at most 0.5: an estimate from so few means is rough), with t
// widened for the skewness of the batch means (skewAdjusted). Below 2
// batches the half-width is NaN, and so it is, with Interval.Why, when the
// series is worth fewer than MinEffective independent observations.
//
// The lag-1 widening takes the coverage of an M/M/1 and an M/M/5 at
// utilization 0.8 (300 seeds) from 0.907 and 0.897 to 0.917 and 0.913 at
// 10,000 observations, from 0.913 and 0.920 to 0.930 at 20,000, and leaves
// it at 0.950 at 100,000: batches of a short run of a busy queue stay
// correlated more than the lag-1 check can see. The skewness adjustment
// takes 10,000 observations to 0.943 and 0.947, 20,000 to 0.950.
func (b *BatchMeans) CI(level float64) Interval {
	var sums [MaxBatches]float64
	k, size := b.ciBatches(&sums)
	var means [MaxBatches]float64
	for i := range k {
		means[i] = sums[i] / float64(size)
	}
	iv, se := meanIntervalSE(means[:k], level, true)
	iv.BatchSize = size
	if v := b.obsVar(); v > 0 && se > 0 {
		// The rule is for long correlated series, whose observations are
		// worth a fraction of their number; a small sample keeps its
		// Student t interval.
		iv.Effective = v / (se * se)
		if span := float64(b.n) / iv.Effective; iv.Effective < MinEffective && b.n >= minGatedObservations {
			iv.Why = fmt.Sprintf("the run is worth only about %s independent observations (its %d batch means of %s observations each are correlated over about %s observations), fewer than the %d an interval needs: run longer", groupDigits(iv.Effective), k, groupDigits(float64(size)), groupDigits(span), MinEffective)
			iv.HalfWidth = math.NaN()
		}
	}
	return iv
}

// meanIntervalSE is the Student-t interval of the mean of xs, successive
// batch means, widened for their lag-1 autocorrelation (see CI) and, when
// skew is set, for their skewness (skewAdjusted), with the standard error
// of the mean it rests on (NaN below 2 values).
func meanIntervalSE(xs []float64, level float64, skew bool) (Interval, float64) {
	var t Tally
	for _, x := range xs {
		t.Add(x)
	}
	iv := Interval{Mean: t.Mean(), HalfWidth: math.NaN(), Batches: len(xs), Lag1: lag1(xs), Effective: math.NaN()}
	se := math.NaN()
	if len(xs) >= 2 {
		inflate := 1.0
		if r := iv.Lag1; r > 0 {
			r = min(r, 0.5)
			inflate = (1 + r) / (1 - r)
		}
		crit := StudentT(level, len(xs)-1)
		if skew {
			crit = skewAdjusted(crit, xs)
		}
		se = t.SD() * math.Sqrt(inflate) / math.Sqrt(float64(len(xs)))
		iv.HalfWidth = crit * se
	}
	return iv, se
}

// skewAdjusted returns the critical value t of a Student-t interval over
// xs made wide enough for their skewness: Willink's (2005) skewness-
// adjusted t, as the Skart batch-means method uses it (Tafazzoli et al.
// 2011), G(t) = ((1+6β(t-β))^(1/3) - 1)/(2β) with β = skewness/(6√k),
// gives the two limits mean - G(t)·se and mean - G(-t)·se; the larger of
// |G(t)| and |G(-t)| keeps the interval symmetric. Batch means of response
// times are skewed to the right, and a run that saw fewer long busy
// periods has both a lower mean and a smaller spread: on 4,000 runs of an
// M/M/1 at 0.8, 10,000 observations, 309 of the 328 misses of the plain t
// interval lie below the truth although its variance is, on average, not
// too small. The widening is at most maxSkewWidening.
func skewAdjusted(t float64, xs []float64) float64 {
	k := float64(len(xs))
	if k < 3 {
		return t
	}
	var m, m2, m3 float64
	for _, x := range xs {
		m += x
	}
	m /= k
	for _, x := range xs {
		d := x - m
		m2 += d * d
		m3 += d * d * d
	}
	if m2 <= 0 {
		return t
	}
	beta := m3 / k / math.Pow(m2/k, 1.5) / (6 * math.Sqrt(k))
	if math.Abs(beta) < 1e-9 {
		return t
	}
	g := func(z float64) float64 { return (math.Cbrt(1+6*beta*(z-beta)) - 1) / (2 * beta) }
	return min(max(t, g(t), -g(-t)), maxSkewWidening*t)
}

// maxSkewWidening bounds skewAdjusted: the skewness of 8 to 32 batch means
// is a rough estimate, and unbounded the adjustment made some intervals of
// short runs four times as wide. At 1.25 times t the coverage is the same
// within its standard error (M/M/1 at 0.8, 10,000 observations: 0.945
// against 0.947 unbounded, 4,000 runs).
const maxSkewWidening = 1.25

// lag1 is the lag-1 sample autocorrelation of xs, NaN below 3 values or
// when they are all equal.
func lag1(xs []float64) float64 {
	if len(xs) < 3 {
		return math.NaN()
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var num, den float64
	for i, x := range xs {
		den += (x - m) * (x - m)
		if i > 0 {
			num += (x - m) * (xs[i-1] - m)
		}
	}
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// Batches returns the number and size of the batches that Means returns:
// the kept batches merged in pairs down to at most CIBatches, before CI's
// lag-1 check, so that two runs of the same length always have the same
// batches to pair. CI's own count is in its Interval.
func (b *BatchMeans) Batches() (n int, size int64) {
	n, size = b.full, b.size
	for n > CIBatches {
		n /= 2
		size *= 2
	}
	return n, size
}

// HalfWidth returns the half-width of CI at level, NaN below 2 batches.
func (b *BatchMeans) HalfWidth(level float64) float64 { return b.CI(level).HalfWidth }

// Means returns the means of the batches of Batches, for paired
// comparisons of two runs cut into the same batches (see PairedCI).
func (b *BatchMeans) Means() []float64 {
	n, size := b.Batches()
	var sums [MaxBatches]float64
	copy(sums[:], b.sums[:b.full])
	for k := b.full; k > n; k /= 2 {
		for i := 0; i < k/2; i++ {
			sums[i] = sums[2*i] + sums[2*i+1]
		}
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = sums[i] / float64(size)
	}
	return out
}

// PairedCI returns the confidence interval at level of the mean difference
// of two series cut into the same batches, from their batch means x and y
// (of equal length, as Means returns them for two runs with common random
// numbers): the differences are merged in pairs while their lag-1
// autocorrelation is significantly positive, as CI does, and the interval
// is Student's t over them, widened for their lag-1 autocorrelation and
// their skewness as CI's is. Its BatchSize counts the batches of x merged
// into each. Unequal lengths or fewer than 2 give a NaN half-width.
func PairedCI(x, y []float64, level float64) Interval {
	if len(x) != len(y) || len(x) > MaxBatches {
		return Interval{Mean: math.NaN(), HalfWidth: math.NaN(), Lag1: math.NaN(), Effective: math.NaN()}
	}
	var d [MaxBatches]float64
	for i := range x {
		d[i] = x[i] - y[i]
	}
	k, size := mergeForCI(d[:], len(x), 1)
	for i := range k {
		d[i] /= float64(size)
	}
	// Widened for skewness as CI is: differences of response times are
	// skewed as they are (a run that saw fewer long busy periods gains
	// less from the faster scenario), and without it 35 of 400 intervals
	// of TestPairedIntervalCoverage missed, every one below the truth.
	iv, _ := meanIntervalSE(d[:k], level, true)
	iv.BatchSize = size
	return iv
}

// ReplicationCI returns the Student-t confidence interval at level of the
// mean of independent replication means (NaN entries, replications without
// a figure, are left out): their mean ± t(level, n-1)·s/√n with s the
// sample standard deviation (n-1 denominator). Below 2 means the
// half-width is NaN.
func ReplicationCI(means []float64, level float64) Interval {
	var t Tally
	n := 0
	for _, m := range means {
		if !math.IsNaN(m) {
			t.Add(m)
			n++
		}
	}
	iv := Interval{Mean: t.Mean(), HalfWidth: math.NaN(), Batches: n, Lag1: math.NaN(), Effective: math.NaN()}
	if n >= 2 {
		iv.HalfWidth = StudentT(level, n-1) * t.SD() / math.Sqrt(float64(n))
	}
	return iv
}
