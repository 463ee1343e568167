package study

import (
	"math"

	"github.com/websim/websim/engine"
)

// mserWarmUp finds the warm-up of a run by MSER-5 (White, 1997): it runs
// a pilot without warm-up, averages the response times in completion
// order in batches of 5, and picks the truncation point d that minimizes
// the squared standard error of the mean of what is left,
// Σ_{i>d} (Y_i - Ȳ_d)² / (n-d)², searched over the first half of the
// series. The warm-up is the simulated time at which batch d ended.
//
// The pilot draws its own random numbers (pilotSeed), not the run's: MSER
// also truncates a busy spell that happens to come early, and on the
// run's own numbers the run would then leave out that very spell, biasing
// its mean low (an M/M/1 at 0.9, 50,000 observations: 9.82 against 10,
// where a fixed warm-up gave 9.95; TestAutoWarmUpDoesNotBiasTheMean).
func mserWarmUp(m *engine.Model, cfg engine.RunConfig) (float64, error) {
	cfg.Seed = pilotSeed(cfg.Seed)
	const size = 5
	var (
		batches []float64
		ends    []float64
		sum     float64
		k       int
	)
	cfg.WarmUp = 0
	cfg.Progress = nil
	cfg.ResponseSeries = func(t, x float64) {
		sum += x
		k++
		if k == size {
			batches = append(batches, sum/size)
			ends = append(ends, t)
			sum, k = 0, 0
		}
	}
	if _, err := engine.Run(m, cfg); err != nil {
		return 0, err
	}
	d := MSER(batches)
	if d == 0 {
		return 0, nil
	}
	return ends[d-1], nil
}

// pilotSeed is the seed of MSER's pilot run for a run of seed: another
// (SplitMix64's finalizer of it with a constant of its own), the same for
// the same seed.
func pilotSeed(seed uint64) uint64 {
	z := seed ^ 0x6d7365722d70696c // "mser-pil"
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// MSER returns the number of leading values of ys to discard: the d in
// [0, len/2] minimizing Σ_{i≥d} (y_i - mean_d)² / (n-d)².
func MSER(ys []float64) int {
	n := len(ys)
	if n < 4 {
		return 0
	}
	// Suffix sums let each d cost O(1).
	sum, sumSq := 0.0, 0.0
	suf := make([][2]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		sum += ys[i]
		sumSq += ys[i] * ys[i]
		suf[i] = [2]float64{sum, sumSq}
	}
	best, bestD := math.Inf(1), 0
	for d := 0; d <= n/2; d++ {
		m := float64(n - d)
		s, sq := suf[d][0], suf[d][1]
		v := (sq - s*s/m) / (m * m)
		if v < best {
			best, bestD = v, d
		}
	}
	return bestD
}
