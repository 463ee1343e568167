package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSharesIsBatchMeans feeds Shares and two BatchMeans the same 0/1
// series, of lengths across several batch merges and first values of
// either kind, and wants the same state bit for bit, hence the same
// intervals.
func TestSharesIsBatchMeans(t *testing.T) {
	for _, tc := range []struct {
		n       int
		pa, pb  float64
		seed    uint64
		firstA1 bool
	}{
		{0, 0.5, 0.5, 1, false},
		{1, 0.5, 0.5, 2, false},
		{63, 0.1, 0.9, 3, false},
		{64, 0.3, 0.01, 4, false},
		{1000, 0.05, 0, 5, false},
		{100_000, 0.02, 0.2, 6, true},
		{333_333, 0.5, 0.999, 7, true},
	} {
		r := rand.New(rand.NewPCG(tc.seed, 0))
		var sh Shares
		var a, b BatchMeans
		for i := range tc.n {
			x, y := r.Float64() < tc.pa, r.Float64() < tc.pb
			if i == 0 && tc.firstA1 {
				x = true
			}
			sh.Add(x, y)
			a.Add(indicator(x))
			b.Add(indicator(y))
		}
		for k, want := range []BatchMeans{a, b} {
			// Sums past the full batches are left over from merges,
			// never read.
			clear(want.sums[want.full:])
			if got := sh.Series(k); got != want {
				t.Errorf("n %d, series %d: Shares gives\n%+v\nBatchMeans\n%+v", tc.n, k, got, want)
			}
		}
	}
}

func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestBatchMeansMoments holds BatchMeans' count, mean and standard
// deviation, from its sums shifted by the first value, against a Welford
// tally of the same series: far from zero, spread wide, and with a first
// value far out (the shift's worst case: the error grows with the square
// of its distance in standard deviations: 100 of them leave 3e-10 on the
// standard deviation of 10^6 values).
func TestBatchMeansMoments(t *testing.T) {
	for _, tc := range []struct {
		n            int
		level, sd    float64
		firstOutlier float64 // standard deviations out, for the first value
	}{
		{0, 0, 0, 0},
		{1, 5, 1, 0},
		{2, 5, 1, 0},
		{1000, 1e6, 1, 0},
		{100_000, 0.001, 0.01, 0},
		{100_000, 400, 300, 0},
		{1_000_000, 1, 1, 100},
	} {
		r := rand.New(rand.NewPCG(uint64(tc.n), 1))
		var b BatchMeans
		var ta Tally
		for i := range tc.n {
			x := tc.level + tc.sd*r.NormFloat64()
			if i == 0 {
				x += tc.firstOutlier * tc.sd
			}
			b.Add(x)
			ta.Add(x)
		}
		if b.N() != ta.N() {
			t.Errorf("n %d: N %d, want %d", tc.n, b.N(), ta.N())
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{{"mean", b.Mean(), ta.Mean()}, {"sd", b.SD(), ta.SD()}} {
			if d := math.Abs(c.got - c.want); d > 1e-9*math.Abs(c.want) {
				t.Errorf("n %d, level %g: %s %.17g, Welford %.17g", tc.n, tc.level, c.what, c.got, c.want)
			}
		}
	}
}
