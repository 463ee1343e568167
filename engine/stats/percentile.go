package stats

import (
	"cmp"
	"math"
	"slices"
)

// Percentiles keeps the quantiles of a series (response times in
// completion order) and what their confidence intervals need, in constant
// memory: a Histogram of every observation and, for batches of
// observations that double like BatchMeans', the counts in a window of
// windowCells cells (an eighth of a power of two each, eight powers of two
// in all) placed once pinAfter observations have been seen: from a
// power of two and a half below the median, so that the median, the 90th,
// 95th and 99th percentiles all have intervals, or, when the series is too
// spread for that, from the same distance below the 95th percentile, for
// the 95th and 99th. It is pinned afresh, with new batches, when a
// quantile it should cover leaves it or nears its top, or when a series
// that was too spread has narrowed to fit from below the median (checked
// each time the batches double).
//
// The interval of the p-quantile is the indicator method: the batch means
// of 1{x ≤ q̂}, q̂ the estimated quantile, give the standard error se of
// the empirical distribution function at q̂ (allowing for correlation
// between observations, as batch means do for the mean), and the interval
// is the histogram's quantiles at p ± t·se. Observations before the window
// is pinned count in the quantile but not in the batches: the standard
// error from the batches is scaled to all observations, as for a mean. The
// zero value is ready to use.
type Percentiles struct {
	hist Histogram

	pinned bool
	lo     int  // first chunk (cell) of the window
	wide   bool // the window covers the median too
	below  [MaxBatches]uint32
	// cells holds each full batch's counts in the window; allocated when
	// the window is first pinned, so that a series of fewer than pinAfter
	// observations (a rare request type's) costs no window.
	cells *windowBatches
	full  int
	size  int64

	pBelow    uint32
	pCells    [windowCells]uint32
	inPartial int64

	// merged holds, for each of MergedProbs, the variance of the
	// distribution function times n² and the degrees of freedom of the
	// parts merged in, whether a part had none, and whether a part had
	// too few observations beyond the quantile for an interval of its own
	// (thin; see Interval); mergedN counts their observations.
	merged [len(MergedProbs)]struct {
		v, df         float64
		missing, thin bool
	}
	mergedN int64
	parts   int
}

// MergedProbs are the probabilities whose intervals survive Merge.
var MergedProbs = [4]float64{0.5, 0.9, 0.95, 0.99}

// windowBatches are the window's counts of every full batch.
type windowBatches [MaxBatches][windowCells]uint32

const (
	windowCells = 64
	windowLead  = 12
	pinAfter    = 2048
)

// Add records the next observation.
func (p *Percentiles) Add(x float64) {
	h := &p.hist
	h.n++
	i := -1
	if x > MinValue { // not NaN either
		i = bucket(x)
		h.addAt(i)
	} else {
		h.zero++
	}
	if !p.pinned {
		if h.n >= pinAfter {
			p.pin()
		}
		return
	}
	switch c := i>>chunkBits - p.lo; {
	case i < 0 || c < 0:
		p.pBelow++
	case c < windowCells:
		p.pCells[c]++
	}
	p.inPartial++
	if p.inPartial < p.size {
		return
	}
	p.below[p.full], p.cells[p.full] = p.pBelow, p.pCells
	p.full++
	p.pBelow, p.pCells, p.inPartial = 0, [windowCells]uint32{}, 0
	if p.full == MaxBatches {
		for i := 0; i < MaxBatches/2; i++ {
			p.below[i] = p.below[2*i] + p.below[2*i+1]
			for c := range p.cells[i] {
				p.cells[i][c] = p.cells[2*i][c] + p.cells[2*i+1][c]
			}
		}
		p.full = MaxBatches / 2
		p.size *= 2
		p.recenter()
	}
}

// cellOf returns the cell (chunk) of the current q-quantile.
func (p *Percentiles) cellOf(q float64) int {
	return bucket(max(p.hist.Quantile(q), MinValue*2)) >> chunkBits
}

// placeAt returns the first cell of a window with cell c at windowLead:
// estimates early in a run tend to be low, so most of the window is above.
func placeAt(c int) int {
	return min(max(c-windowLead, 0), nChunks-windowCells)
}

// covers reports whether the window, placed as it is, still holds the
// quantiles it is for, with two cells to spare at the top: counts in cells
// brought into the window could not be told from those of earlier
// batches.
func (p *Percentiles) covers() bool {
	low := p.cellOf(0.95)
	if p.wide {
		low = p.cellOf(0.5)
	}
	return low >= p.lo && p.cellOf(0.99)-p.lo < windowCells-2
}

// recenter pins the window afresh, with new batches, when it no longer
// covers its quantiles, or when it was placed for a spread series that
// now fits a window from below the median (whose p50 and p90 then get
// intervals). The observations before are left out of the standard
// error, which seAt scales to all of them.
func (p *Percentiles) recenter() {
	if p.covers() && (p.wide || !p.fitsWide()) {
		return
	}
	p.full, p.pBelow, p.pCells, p.inPartial = 0, 0, [windowCells]uint32{}, 0
	p.pin()
}

// fitsWide reports whether a window from below the median would hold the
// 99th percentile with room to grow (a quarter of the window).
func (p *Percentiles) fitsWide() bool {
	return p.cellOf(0.99)-p.cellOf(0.5) < windowCells-windowLead-windowCells/4
}

// pin places the window from below the median when the 99th percentile
// then fits with room to grow, and from below the 95th percentile
// otherwise.
func (p *Percentiles) pin() {
	p.wide = p.fitsWide()
	if p.wide {
		p.lo = placeAt(p.cellOf(0.5))
	} else {
		p.lo = placeAt(p.cellOf(0.95))
	}
	p.pinned, p.size = true, 1
	if p.cells == nil {
		p.cells = new(windowBatches)
	}
}

// Histogram returns the histogram of all observations.
func (p *Percentiles) Histogram() *Histogram { return &p.hist }

// N is the number of observations.
func (p *Percentiles) N() int64 { return p.hist.N() }

// Quantile returns the histogram's q-quantile (see Histogram.Quantile).
func (p *Percentiles) Quantile(q float64) float64 { return p.hist.Quantile(q) }

// QuantileInterval is a confidence interval [Low, High] for a quantile
// estimated as Value; HalfWidth is (High-Low)/2, NaN when there is no
// interval. SE is the standard error of the distribution function at
// Value, from Batches batch means (degrees of freedom + 1, summed over
// merged parts), and ProbHalfWidth = t·SE the half-width in probability:
// Low and High are the quantiles at q ∓ ProbHalfWidth.
type QuantileInterval struct {
	Value, Low, High, HalfWidth float64
	SE, ProbHalfWidth           float64
	Batches                     int
}

// seAt returns the standard error of the empirical distribution function
// at x from the batches of p alone, with their number after merging for
// the interval; ok is false before two batches or when x is outside the
// window.
func (p *Percentiles) seAt(x float64) (se float64, k int, ok bool) {
	if !p.pinned || p.full < 2 || !(x > MinValue) {
		return 0, 0, false
	}
	b := bucket(x)
	c := b>>chunkBits - p.lo
	if c < 0 || c >= windowCells {
		return 0, 0, false
	}
	// Share of the cell below x, linearly.
	low, high := bucketLow((p.lo+c)<<chunkBits), bucketLow((p.lo+c+1)<<chunkBits)
	frac := min(max((x-low)/(high-low), 0), 1)
	var sums [MaxBatches]float64
	for j := range p.full {
		s := float64(p.below[j])
		for i := range c {
			s += float64(p.cells[j][i])
		}
		sums[j] = s + frac*float64(p.cells[j][c])
	}
	k, size := mergeForCI(sums[:], p.full, p.size)
	var t Tally
	for _, s := range sums[:k] {
		t.Add(s / float64(size))
	}
	// Indicators of the tail cluster in busy periods, more than response
	// times do: what lag-1 autocorrelation is left between the batch
	// means widens the variance, by (1+r)/(1-r), r at most 0.5 (an
	// estimate from so few batch means is too rough to trust further).
	// Only a positive r widens, so on independent data (r about 0 either
	// way) the interval is a little conservative.
	// Near saturation the intervals still fall short (the engine's
	// TestIntervalCoverageNearSaturation measures by how much).
	inflate := 1.0
	var means [MaxBatches]float64
	for i := range k {
		means[i] = sums[i] / float64(size)
	}
	if r := lag1(means[:k]); r > 0 {
		r = min(r, 0.5)
		inflate = (1 + r) / (1 - r)
	}
	// The variance of a mean of n correlated observations goes as 1/n:
	// from the k·size observations in the batches to all of them.
	used := float64(k) * float64(size)
	return t.SD() * math.Sqrt(inflate) / math.Sqrt(float64(k)) * math.Sqrt(used/float64(p.hist.N())), k, true
}

// MinTailObservations is the fewest observations a run must expect beyond
// a quantile, n·min(q, 1-q), for the quantile to have an interval from
// that run's batches (n ≥ 100,000 for p99, 20,000 for p95, 10,000 for
// p90). The indicators of a tail cluster in congestion episodes, and a
// short run sees too few of them: the run that saw fewer has both a lower
// estimate and a smaller standard error, so the interval misses low: on
// 400 runs of an M/M/1 at utilization 0.8 from empty, p99's would cover
// 0.83 at 10,000 customers (100 beyond it) and 0.88 at 20,000
// (TestShortRunTailIntervalsFallShort), against 0.94 at 100,000
// (TestPercentileIntervalsCoverMM1Quantiles); a busier model falls
// shorter. Below that count a run gives no interval, and longer runs or
// replications are the way to one.
const MinTailObservations = 1000

// EnoughBeyond says whether n observations are enough for the q-quantile
// to have an interval (MinTailObservations beyond it). (1-0.9 is a little
// below 0.1 in floating point: 10,000 observations are enough for p90.)
func EnoughBeyond(n int64, q float64) bool {
	return float64(n)*min(q, 1-q)+1e-6 >= MinTailObservations
}

// Interval returns the confidence interval at level (0.95 for 95%) of the
// q-quantile. After Merge only the probabilities in MergedProbs have one.
// The observations in all, and those of each part pooled (p's own and
// each replication merged in), must expect MinTailObservations beyond the
// quantile: a part with fewer has a low error exactly when its estimate is
// low, a run that saw few congestion episodes (thinPart).
func (p *Percentiles) Interval(q, level float64) QuantileInterval {
	var iv [1]QuantileInterval
	p.Intervals([]float64{q}, level, iv[:])
	return iv[0]
}

// Intervals sets out[k] to Interval(qs[k], level) for every k, reading
// the histogram twice in all (Histogram.Quantiles): once for the
// quantiles, once for the ends of their intervals. qs may come in any
// order; out must be as long. A run's summary asks for four percentiles,
// whose intervals one at a time read it twelve times.
func (p *Percentiles) Intervals(qs []float64, level float64, out []QuantileInterval) {
	p.intervals(qs, level, out, true)
}

// intervals is Intervals, with the rule of MinTailObservations when
// tailRule is set, and without it (whatever the observations beyond each
// quantile) when not.
func (p *Percentiles) intervals(qs []float64, level float64, out []QuantileInterval, tailRule bool) {
	values := make([]float64, len(qs))
	p.quantiles(qs, values)
	var ends []float64 // q-h and q+h of each interval, in turn
	var with []int     // the k of each interval, in turn
	for k, q := range qs {
		out[k] = QuantileInterval{Value: values[k], Low: math.NaN(), High: math.NaN(), HalfWidth: math.NaN(), SE: math.NaN(), ProbHalfWidth: math.NaN()}
		if tailRule && (!EnoughBeyond(p.hist.N(), q) || p.thinPart(q)) {
			continue
		}
		se, batches, ok := p.probSE(q, values[k])
		if !ok {
			continue
		}
		h := StudentT(level, batches-1) * se
		out[k].SE, out[k].Batches, out[k].ProbHalfWidth = se, batches, h
		ends = append(ends, max(q-h, 1e-12), min(q+h, 1))
		with = append(with, k)
	}
	if len(with) == 0 {
		return
	}
	// The ends are read from the histogram, each within its relative
	// error: the interval takes that in.
	at := make([]float64, len(ends))
	p.quantiles(ends, at)
	for i, k := range with {
		iv := &out[k]
		iv.Low = at[2*i] * (1 - RelativeError)
		iv.High = at[2*i+1] * (1 + RelativeError)
		iv.HalfWidth = (iv.High - iv.Low) / 2
	}
}

// quantiles sets out[k] to the qs[k]-quantile of the histogram for every
// k, in one pass (Histogram.Quantiles, which reads them in increasing
// order): qs may come in any order.
func (p *Percentiles) quantiles(qs, out []float64) {
	if slices.IsSorted(qs) {
		p.hist.Quantiles(qs, out)
		return
	}
	order := make([]int, len(qs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(qs[a], qs[b]) })
	sorted, read := make([]float64, len(qs)), make([]float64, len(qs))
	for i, k := range order {
		sorted[i] = qs[k]
	}
	p.hist.Quantiles(sorted, read)
	for i, k := range order {
		out[k] = read[i]
	}
}

// thinPart reports whether a pooled p has a part (its own observations
// among them) with too few observations beyond q for an interval of its
// own: that part's standard error rests on few, clustered exceedances and
// is low exactly when its estimate is, so the pool's would be too narrow
// (5 replications of 20,000 of an M/M/1 at 0.9 covered p99 0.78 of the
// time). Student t across the replications' own percentiles (package
// study) stands in; it covered 0.89 there.
func (p *Percentiles) thinPart(q float64) bool {
	if p.parts == 0 {
		return false
	}
	for i, mp := range MergedProbs {
		if mp == q && p.merged[i].thin {
			return true
		}
	}
	own := p.hist.N() - p.mergedN
	return own > 0 && !EnoughBeyond(own, q)
}

// probSE returns the standard error of the distribution function at the
// q-quantile, value, and the batches it rests on (pooled over the parts
// merged, when there are), whatever the number of observations beyond q;
// ok is false when there is none.
func (p *Percentiles) probSE(q, value float64) (se float64, batches int, ok bool) {
	n := float64(p.hist.N())
	se, k, ok := p.seAt(value)
	if p.parts > 0 {
		// Pooled: F̂ = Σ n_r F̂_r / N, so Var F̂ = Σ n_r² Var F̂_r / N².
		m := -1
		for i, mp := range MergedProbs {
			if mp == q {
				m = i
			}
		}
		if m < 0 {
			return 0, 0, false
		}
		own := n - float64(p.mergedN)
		v, df := p.merged[m].v, p.merged[m].df
		if p.merged[m].missing {
			return 0, 0, false
		}
		if ok {
			v += own * own * se * se
			df += float64(k - 1)
		} else if own > 0 {
			return 0, 0, false
		}
		se, k, ok = math.Sqrt(v)/n, int(df)+1, df >= 1
	}
	return se, k, ok
}

// Merge adds the observations of o, an independent replication, to p: the
// histograms merge exactly, and the intervals of MergedProbs pool the
// variances of the parts' distribution functions. p's own batches stay as
// they are; o is not changed.
func (p *Percentiles) Merge(o *Percentiles) {
	add := func(from *Percentiles, fromN float64) {
		for i, q := range MergedProbs {
			if fromN > 0 && !EnoughBeyond(int64(fromN), q) {
				p.merged[i].thin = true
			}
			if se, k, ok := from.seAt(from.hist.Quantile(q)); ok {
				p.merged[i].v += fromN * fromN * se * se
				p.merged[i].df += float64(k - 1)
			} else if fromN > 0 {
				p.merged[i].missing = true
			}
		}
	}
	// o's own observations, then what o had merged in.
	add(o, float64(o.hist.N()-o.mergedN))
	for i := range p.merged {
		p.merged[i].v += o.merged[i].v
		p.merged[i].df += o.merged[i].df
		p.merged[i].missing = p.merged[i].missing || o.merged[i].missing
		p.merged[i].thin = p.merged[i].thin || o.merged[i].thin
	}
	p.mergedN += o.hist.N()
	p.parts += 1 + o.parts
	p.hist.Merge(&o.hist)
}

// Clone returns a copy of p that shares no memory with it (a run that
// goes on after its figures were read).
func (p *Percentiles) Clone() *Percentiles {
	c := *p
	c.hist = Histogram{}
	c.hist.Merge(&p.hist)
	if p.cells != nil {
		cells := *p.cells
		c.cells = &cells
	}
	return &c
}
