package study

import (
	"math"
	"testing"

	"github.com/websim/websim/engine"
)

// WarmUp auto must not bias the mean: MSER picks its truncation point on
// a pilot run, and were the pilot the run itself (the same random
// numbers), a truncation that drops an early busy spell would drop it
// from the figures too. On an M/M/1 at utilization 0.9 (mean sojourn 10),
// 50,000 observations, 200 seeds, the paired difference between the mean
// with WarmUp auto and with a fixed warm-up of 2,000 must be within 4
// standard errors of 0; measured: -0.128 (standard error 0.020) with the
// run itself as the pilot.
func TestAutoWarmUpDoesNotBiasTheMean(t *testing.T) {
	if testing.Short() {
		t.Skip("600 runs of 50,000 observations")
	}
	m := mmcModel(0.9, 1)
	const seeds = 200
	var sum, sumSq, autoSum float64
	for seed := range uint64(seeds) {
		cfg := engine.RunConfig{Seed: seed + 1, Observations: 50_000}
		w, err := mserWarmUp(m, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.WarmUp = w
		auto, err := engine.Run(m, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.WarmUp = 2000
		fixed, err := engine.Run(m, cfg)
		if err != nil {
			t.Fatal(err)
		}
		d := auto.Response.Mean - fixed.Response.Mean
		sum, sumSq, autoSum = sum+d, sumSq+d*d, autoSum+auto.Response.Mean
	}
	mean := sum / seeds
	se := math.Sqrt((sumSq/seeds - mean*mean) / (seeds - 1))
	t.Logf("mean with WarmUp auto %.3f (truth 10); auto less fixed 2,000: %.3f, standard error %.3f", autoSum/seeds, mean, se)
	if math.Abs(mean) > 4*se {
		t.Errorf("WarmUp auto shifts the mean by %.3f (standard error %.3f) against a fixed warm-up", mean, se)
	}
}
