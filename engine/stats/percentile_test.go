package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// coverProbs are the probabilities whose intervals the coverage tests
// check, and mm1Quantile the M/M/1 sojourn quantile (exponential with rate
// μ-λ): -ln(1-q)/(μ-λ).
var coverProbs = []float64{0.5, 0.9, 0.95, 0.99}

func mm1Quantile(q, lambda, mu float64) float64 { return -math.Log(1-q) / (mu - lambda) }

// coverPercentiles runs M/M/1 queues (λ 0.8, μ 1) of n customers from
// empty and counts how often the 95% intervals of coverProbs cover the
// sojourn quantiles.
func coverPercentiles(seeds, n int) (covered []int, hw95 float64) {
	const lambda, mu = 0.8, 1.0
	covered = make([]int, len(coverProbs))
	for seed := range uint64(seeds) {
		var p Percentiles
		mm1Sojourns(seed, lambda, mu, n, p.Add)
		for i, q := range coverProbs {
			want := mm1Quantile(q, lambda, mu)
			iv := p.Interval(q, 0.95)
			if iv.Low <= want && want <= iv.High {
				covered[i]++
			}
			if q == 0.95 {
				hw95 += iv.HalfWidth / float64(seeds)
			}
		}
	}
	return covered, hw95
}

func TestPercentileIntervalsCoverMM1Quantiles(t *testing.T) {
	// ρ 0.8, 100,000 customers from empty, 400 runs: a binomial 99.9% band
	// around 0.95 is [366, 394].
	covered, hw := coverPercentiles(400, 100_000)
	t.Logf("coverage of p50, p90, p95, p99 in 400 runs: %v; mean p95 half-width %.3f", covered, hw)
	for i, q := range coverProbs {
		if covered[i] < 366 || covered[i] > 394 {
			t.Errorf("the 95%% interval of p%g covered the truth in %d of 400 runs, want 366 to 394", 100*q, covered[i])
		}
	}
}

func TestPercentileMergedReplicationsCover(t *testing.T) {
	// 200 pools of 10 replications of 20,000 customers each after a
	// warm-up of 2,000. p50, p90 and p95 must cover in a binomial 99.9%
	// band around 0.95, [180, 199]. p99 has no interval: each part has 200
	// observations beyond it, too few for an interval of its own, so its
	// standard error (few, clustered exceedances, low when the run had no
	// long busy period) would make the pool's too narrow: it covered about
	// 0.90 when pooled all the same.
	const lambda, mu = 0.8, 1.0
	covered := make([]int, len(coverProbs))
	for s := range uint64(200) {
		var pool Percentiles
		for r := range uint64(10) {
			var p Percentiles
			i := 0
			mm1Sojourns(1000+s*10+r, lambda, mu, 22_000, func(x float64) {
				if i++; i > 2000 {
					p.Add(x)
				}
			})
			pool.Merge(&p)
		}
		for k, q := range coverProbs {
			want := mm1Quantile(q, lambda, mu)
			if iv := pool.Interval(q, 0.95); iv.Low <= want && want <= iv.High {
				covered[k]++
			}
		}
	}
	t.Logf("pooled coverage of p50, p90, p95, p99 in 200 pools: %v", covered)
	for k, q := range coverProbs {
		low, high := 180, 199
		if q == 0.99 {
			low, high = 0, 0 // no interval, so none covers
		}
		if covered[k] < low || covered[k] > high {
			t.Errorf("pooled intervals covered p%g in %d of 200, want %d to %d", 100*q, covered[k], low, high)
		}
	}
}

// handPercentiles is 2,048 observations of 2 (which pin the window around
// 2), then 40 of 1 or 2.1 in pairs (1, 1), (1, 2.1), ... The median is
// the midpoint of the bucket of 2, 2+1/256, a sixty-fourth of the way up
// its cell [2, 2.25) (32 buckets of 2/256), in which 2.1 falls too: the
// batch means of 1{x ≤ median}, interpolated within the cell, alternate 1
// and (1+1/64)/2.
func handPercentiles() *Percentiles {
	var p Percentiles
	for range pinAfter {
		p.Add(2)
	}
	for i := range 40 {
		p.Add([]float64{1, 1, 1, 2.1}[i%4])
	}
	return &p
}

// interval is Interval whatever the number of observations beyond q.
func (p *Percentiles) interval(q, level float64) QuantileInterval {
	var iv [1]QuantileInterval
	p.intervals([]float64{q}, level, iv[:], false)
	return iv[0]
}

func TestPercentileStandardErrorByHand(t *testing.T) {
	// (interval, not Interval: these few observations have no interval
	// under MinTailObservations, which TestTooFewBeyondAQuantileNoInterval
	// checks.)
	// 20 batch means 1, 0.5078125, ...: deviations ±0.24609375, variance
	// 20·0.24609375²/19, standard error 0.24609375/√19 for the 40
	// observations in the batches, scaled by √(40/2088) to all 2,088.
	p := handPercentiles()
	want := 0.24609375 / math.Sqrt(19) * math.Sqrt(40.0/float64(pinAfter+40))
	iv := p.interval(0.5, 0.95)
	if iv.Value != bucketMid(bucket(2)) || iv.Batches != 20 || math.Abs(iv.SE-want) > 1e-12 {
		t.Fatalf("interval %+v, want the median of 2 with standard error %v from 20 batches", iv, want)
	}
	// The interval is the histogram's quantiles at 0.5 ± t(0.975, 19)·se,
	// each end moved out by the histogram's relative error.
	h := 2.093024 * want
	low, high := p.Quantile(0.5-h)*(1-RelativeError), p.Quantile(0.5+h)*(1+RelativeError)
	if math.Abs(iv.ProbHalfWidth-h) > 1e-8 || iv.Low != low || iv.High != high || iv.HalfWidth != (iv.High-iv.Low)/2 {
		t.Errorf("interval [%v, %v], want [%v, %v]", iv.Low, iv.High, low, high)
	}

	// Two identical parts merged: n² Var doubles and N doubles, so the
	// standard error of the pooled distribution function is se/√2.
	var pool Percentiles
	a, b := handPercentiles(), handPercentiles()
	a.Add(2) // a partial batch: counts in the quantile, not in the batches
	pool.Merge(a)
	pool.Merge(b)
	seA, _, _ := a.seAt(a.Quantile(0.95))
	seB, _, _ := b.seAt(b.Quantile(0.95))
	na, nb := float64(a.N()), float64(b.N())
	wantPooled := math.Sqrt(na*na*seA*seA+nb*nb*seB*seB) / (na + nb)
	if iv := pool.interval(0.95, 0.95); math.Abs(iv.SE-wantPooled) > 1e-12 || iv.Batches != 39 {
		t.Errorf("pooled: %+v, want standard error %v from 39 degrees of freedom + 1", iv, wantPooled)
	}
	seA, _, _ = a.seAt(a.Quantile(0.5))
	seB, _, _ = b.seAt(b.Quantile(0.5))
	wantPooled = math.Sqrt(na*na*seA*seA+nb*nb*seB*seB) / (na + nb)
	if iv := pool.interval(0.5, 0.95); math.Abs(iv.SE-wantPooled) > 1e-12 || iv.Batches != 39 {
		t.Errorf("pooled median: %+v, want standard error %v from 39 degrees of freedom + 1", iv, wantPooled)
	}
	if iv := pool.interval(0.75, 0.95); !math.IsNaN(iv.HalfWidth) {
		t.Errorf("pooled 75th percentile: half-width %v, want NaN (not kept by Merge)", iv.HalfWidth)
	}
	// A part without an interval of its own leaves the pool without one.
	var short Percentiles
	for range 100 {
		short.Add(3)
	}
	pool.Merge(&short)
	if iv := pool.interval(0.95, 0.95); !math.IsNaN(iv.HalfWidth) {
		t.Errorf("pool with a part of 100 observations: half-width %v, want NaN", iv.HalfWidth)
	}
}

// A quantile has an interval from a run only when the run expects
// MinTailObservations beyond it: p99 from 100,000 observations, p95 from
// 20,000; fewer give the value alone. Pooled, each part must have them.
func TestTooFewBeyondAQuantileNoInterval(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var p Percentiles
	add := func(n int) {
		for range n {
			p.Add(r.ExpFloat64())
		}
	}
	add(19_999)
	for _, c := range []struct {
		q    float64
		want bool
	}{{0.5, true}, {0.9, true}, {0.95, false}, {0.99, false}} {
		if iv := p.Interval(c.q, 0.95); !(iv.HalfWidth > 0) == c.want || math.IsNaN(iv.Value) {
			t.Errorf("19,999 observations, q %g: %+v; want an interval %v", c.q, iv, c.want)
		}
	}
	add(1)
	if iv := p.Interval(0.95, 0.95); !(iv.HalfWidth > 0) {
		t.Errorf("20,000 observations: p95 %+v, want an interval", iv)
	}
	var pool Percentiles
	for range 4 {
		var part Percentiles
		for range 25_000 {
			part.Add(r.ExpFloat64())
		}
		if iv := part.Interval(0.99, 0.95); !math.IsNaN(iv.HalfWidth) {
			t.Errorf("25,000 observations: p99 half-width %v, want none", iv.HalfWidth)
		}
		pool.Merge(&part)
	}
	// Each part's standard error at p99 rests on 250 exceedances: the
	// pool has none either, though it counts 1,000 beyond.
	if iv := pool.Interval(0.99, 0.95); !math.IsNaN(iv.HalfWidth) || math.IsNaN(iv.Value) {
		t.Errorf("four parts of 25,000 pooled: p99 %+v, want the figure without an interval", iv)
	}
	if iv := pool.Interval(0.95, 0.95); !(iv.HalfWidth > 0) {
		t.Errorf("four parts of 25,000 pooled: p95 %+v, want an interval (1,250 beyond it in each)", iv)
	}
	// A pool whose own part is thin has none either, whatever it merges.
	var own Percentiles
	for range 25_000 {
		own.Add(r.ExpFloat64())
	}
	var big Percentiles
	for range 200_000 {
		big.Add(r.ExpFloat64())
	}
	own.Merge(&big)
	if iv := own.Interval(0.99, 0.95); !math.IsNaN(iv.HalfWidth) {
		t.Errorf("25,000 of its own and 200,000 merged in: p99 %+v, want no interval", iv)
	}
}

func TestPercentileWindowFollowsARisingQuantile(t *testing.T) {
	// The window is pinned on Exp(1) values, then the series becomes
	// 4·Exp(1): its 99th percentile ends 2.6 powers of two above the
	// pinned 95th, beyond the window unless it moves. Observations are
	// independent, so the standard error of the distribution function is
	// about √(p(1-p)/n).
	r := rand.New(rand.NewPCG(8, 9))
	var p Percentiles
	for i := range 400_000 {
		x := r.ExpFloat64()
		if i >= pinAfter {
			x *= 4
		}
		p.Add(x)
	}
	for _, q := range []float64{0.95, 0.99} {
		iv := p.Interval(q, 0.95)
		want := math.Sqrt(q * (1 - q) / float64(p.N()))
		if !(iv.Low < iv.Value && iv.Value < iv.High) || math.Abs(iv.SE-want) > 0.3*want {
			t.Errorf("q %v: %+v, want an interval around the estimate with standard error near %.2g", q, iv, want)
		}
	}
}

func TestPercentileNoIntervalBeforeTwoBatches(t *testing.T) {
	var p Percentiles
	for i := range pinAfter + 1 {
		p.Add(float64(i % 10))
		if iv := p.Interval(0.95, 0.95); !math.IsNaN(iv.HalfWidth) || !math.IsNaN(iv.SE) {
			t.Fatalf("after %d observations: %+v, want no interval", i+1, iv)
		}
	}
}

func TestPercentilesAddAllocatesNothing(t *testing.T) {
	var p Percentiles
	i := 0
	if a := testing.AllocsPerRun(20_000, func() { i++; p.Add(float64(i % 100)) }); a != 0 {
		t.Errorf("Add allocates %v times per call", a)
	}
}

func BenchmarkPercentilesAdd(b *testing.B) {
	var xs []float64
	mm1Sojourns(1, 0.8, 1, 1<<16, func(x float64) { xs = append(xs, x) })
	var p Percentiles
	b.ResetTimer()
	for i := range b.N {
		p.Add(xs[i&(1<<16-1)])
	}
}

func TestPercentileWindowForSpreadSeries(t *testing.T) {
	// Exp(1): the 99th percentile is 2.7 powers of two above the median,
	// and the window covers both. exp(2·N(0,1)) is spread over 6.7 powers
	// of two from the median to the 99th percentile, more than the window
	// leaves room for: it is placed for the 95th and 99th, which keep
	// their intervals, and the median has none.
	for _, tc := range []struct {
		name   string
		draw   func(r *rand.Rand) float64
		wide   bool
		median bool
	}{
		{"exponential", func(r *rand.Rand) float64 { return r.ExpFloat64() }, true, true},
		{"lognormal sigma 2", func(r *rand.Rand) float64 { return math.Exp(2 * r.NormFloat64()) }, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 4))
			var p Percentiles
			for range 200_000 {
				p.Add(tc.draw(r))
			}
			if p.wide != tc.wide {
				t.Errorf("window from the median: %v, want %v", p.wide, tc.wide)
			}
			for _, q := range []float64{0.95, 0.99} {
				if iv := p.Interval(q, 0.95); math.IsNaN(iv.HalfWidth) {
					t.Errorf("p%g has no interval", 100*q)
				}
			}
			if iv := p.Interval(0.5, 0.95); math.IsNaN(iv.HalfWidth) == tc.median {
				t.Errorf("median interval %+v, want one: %v", iv, tc.median)
			}
		})
	}
}

// TestPercentileStandardErrorWidenedForCorrelation: after 2,048
// observations of 2 pin the window, each observation is a batch of one,
// and an observation of 1 adds 1 to the indicator at the median (2+1/256)
// while one of 2.1 adds 1/64 (it shares the median's cell, interpolated).
// Batch means 1, 1, 1/64, 1/64, ... (32 of them) have lag-1
// autocorrelation 1/32, too little to merge them: the variance is widened
// by (1+r)/(1-r) = 33/31. Six 1s then six 2.1s (12 batches, too few to
// merge) have r = 3/4, held to 0.5: the variance is tripled.
func TestPercentileStandardErrorWidenedForCorrelation(t *testing.T) {
	const f = 1.0 / 64
	for _, tc := range []struct {
		name    string
		xs      []float64
		inflate float64
	}{
		{"pairs, r 1/32", func() []float64 {
			var xs []float64
			for range 8 {
				xs = append(xs, 1, 1, 2.1, 2.1)
			}
			return xs
		}(), 33.0 / 31},
		{"halves, r 3/4 held to 1/2", []float64{1, 1, 1, 1, 1, 1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Percentiles
			for range pinAfter {
				p.Add(2)
			}
			for _, x := range tc.xs {
				p.Add(x)
			}
			k := float64(len(tc.xs))
			// Half the batch means are 1 and half f: deviations ±(1-f)/2,
			// sample variance k·((1-f)/2)²/(k-1).
			sd := (1 - f) / 2 * math.Sqrt(k/(k-1))
			want := sd * math.Sqrt(tc.inflate) / math.Sqrt(k) * math.Sqrt(k/float64(pinAfter+len(tc.xs)))
			iv := p.Interval(0.5, 0.95)
			if iv.Batches != len(tc.xs) || math.Abs(iv.SE-want) > 1e-12 {
				t.Errorf("interval %+v, want standard error %v from %d batches", iv, want, len(tc.xs))
			}
		})
	}
}

// TestPercentileWindowWidensWhenTheSeriesNarrows: the first 5,000
// observations are log-normal with σ 2 in logs (too spread for a window
// from below the median, so it is placed below p95), then 200,000 are
// Exp(1), with about the same p95: the window, which still covers p95
// and p99, is placed again from below the median at a doubling, and the
// median and p90 get intervals near √(p(1-p)/n) in probability.
func TestPercentileWindowWidensWhenTheSeriesNarrows(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var p Percentiles
	for range 5000 {
		p.Add(0.112 * math.Exp(2*r.NormFloat64()))
	}
	if p.wide {
		t.Fatal("the window covers the median of a spread series")
	}
	for range 200_000 {
		p.Add(r.ExpFloat64())
	}
	if !p.wide {
		t.Fatal("the window was not placed again from below the median")
	}
	for _, q := range []float64{0.5, 0.9} {
		iv := p.Interval(q, 0.95)
		want := math.Sqrt(q * (1 - q) / float64(p.N()))
		if math.IsNaN(iv.HalfWidth) || math.Abs(iv.SE-want) > 0.5*want {
			t.Errorf("q %v: %+v, want an interval with standard error near %.2g", q, iv, want)
		}
	}
}

// TestShortRunTailIntervalsFallShort shows why MinTailObservations is
// there: on 400 runs of 10,000 and 20,000 customers of an M/M/1 at 0.8
// from empty, the intervals a run's batches would give p95 and p99 (500
// and 100 observations beyond them at 10,000) cover well short of 0.95,
// their misses below the truth. It fails if they come to cover 0.93 or
// more, when the rule could be loosened.
func TestShortRunTailIntervalsFallShort(t *testing.T) {
	const lambda, mu, seeds = 0.8, 1.0, 400
	for _, n := range []int{10_000, 20_000} {
		var covered, low [2]int
		for seed := range uint64(seeds) {
			var p Percentiles
			mm1Sojourns(5000+seed, lambda, mu, n, p.Add)
			for i, q := range []float64{0.95, 0.99} {
				want := mm1Quantile(q, lambda, mu)
				switch iv := p.interval(q, 0.95); {
				case iv.Low <= want && want <= iv.High:
					covered[i]++
				case iv.High < want:
					low[i]++
				}
			}
		}
		t.Logf("%d customers: p95's interval would cover %d of %d (%d misses low), p99's %d (%d low)", n, covered[0], seeds, low[0], covered[1], low[1])
		if float64(covered[1]) >= 0.93*seeds {
			t.Errorf("%d customers: p99's interval would cover %d of %d: the short run is no longer short of 0.95", n, covered[1], seeds)
		}
	}
}

// intervalEach is Interval as it was computed one quantile at a time,
// each end read by a pass of its own (Histogram.Quantile), with the rule
// of MinTailObservations when tailRule is set: the reference Intervals is
// held to.
func (p *Percentiles) intervalEach(q, level float64, tailRule bool) QuantileInterval {
	iv := QuantileInterval{Value: p.hist.Quantile(q), Low: math.NaN(), High: math.NaN(), HalfWidth: math.NaN(), SE: math.NaN(), ProbHalfWidth: math.NaN()}
	if tailRule && (!EnoughBeyond(p.hist.N(), q) || p.thinPart(q)) {
		return iv
	}
	n := float64(p.hist.N())
	se, k, ok := p.seAt(iv.Value)
	if p.parts > 0 {
		m := -1
		for i, mp := range MergedProbs {
			if mp == q {
				m = i
			}
		}
		if m < 0 {
			return iv
		}
		own := n - float64(p.mergedN)
		v, df := p.merged[m].v, p.merged[m].df
		if p.merged[m].missing {
			return iv
		}
		if ok {
			v += own * own * se * se
			df += float64(k - 1)
		} else if own > 0 {
			return iv
		}
		se, k, ok = math.Sqrt(v)/n, int(df)+1, df >= 1
	}
	if !ok {
		return iv
	}
	iv.SE, iv.Batches = se, k
	h := StudentT(level, k-1) * se
	iv.ProbHalfWidth = h
	iv.Low = p.hist.Quantile(max(q-h, 1e-12)) * (1 - RelativeError)
	iv.High = p.hist.Quantile(min(q+h, 1)) * (1 + RelativeError)
	iv.HalfWidth = (iv.High - iv.Low) / 2
	return iv
}

// Intervals reads the histogram twice for all its quantiles; each interval
// is the one computed a quantile at a time, each end read by a pass of its
// own (intervalEach), bit for bit, whether it has an interval or not: for
// one run, for replications merged, with and without the rule of
// MinTailObservations, in any order of the quantiles asked.
func TestIntervalsEqualIntervalEach(t *testing.T) {
	run := func(seed uint64, n int) *Percentiles {
		var p Percentiles
		mm1Sojourns(seed, 0.8, 1, n, p.Add)
		return &p
	}
	var pooled Percentiles
	pooled.Merge(run(7, 120_000))
	pooled.Merge(run(8, 150_000))
	var short Percentiles
	short.Merge(run(9, 120_000))
	short.Merge(run(10, 5_000)) // a thin part: no p99 for the pool
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, c := range []struct {
		name string
		p    *Percentiles
		qs   []float64
	}{
		{"empty", &Percentiles{}, []float64{0.5, 0.9, 0.95, 0.99}},
		{"a long run", run(1, 200_000), []float64{0.5, 0.9, 0.95, 0.99}},
		{"close quantiles", run(2, 200_000), []float64{0.9, 0.9, 0.91, 0.92, 0.95, 0.99}},
		{"a short run", run(3, 20_000), []float64{0.5, 0.9, 0.95, 0.99}},
		// Intervals that overlap: their ends are read in another order.
		{"overlapping intervals", run(4, 3_000), []float64{0.5, 0.5, 0.52, 0.55}},
		// Without the tail rule, q+h passes 1: the end is read at 1.
		{"ends past 1", run(5, 3_000), []float64{0.5, 0.97, 0.99}},
		{"out of order", run(6, 20_000), []float64{0.9, 0.5, 0.55, 0.5}},
		{"merged", &pooled, []float64{0.5, 0.75, 0.9, 0.95, 0.99}},
		{"a thin part merged", &short, []float64{0.5, 0.9, 0.95, 0.99}},
	} {
		for _, tailRule := range []bool{true, false} {
			got := make([]QuantileInterval, len(c.qs))
			c.p.intervals(c.qs, 0.95, got, tailRule)
			withInterval := 0
			for k, q := range c.qs {
				want := c.p.intervalEach(q, 0.95, tailRule)
				g := got[k]
				if !same(g.Value, want.Value) || !same(g.Low, want.Low) || !same(g.High, want.High) ||
					!same(g.HalfWidth, want.HalfWidth) || !same(g.SE, want.SE) ||
					!same(g.ProbHalfWidth, want.ProbHalfWidth) || g.Batches != want.Batches {
					t.Errorf("%s, tail rule %v, q %g: Intervals gives %+v, one at a time %+v", c.name, tailRule, q, g, want)
				}
				if !math.IsNaN(g.HalfWidth) {
					withInterval++
				}
			}
			t.Logf("%s, tail rule %v: %d of %d quantiles with an interval", c.name, tailRule, withInterval, len(c.qs))
		}
	}
}
