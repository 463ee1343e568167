package engine

import (
	"testing"

	"github.com/websim/websim/engine/stats"
)

// The 95% interval of a difference between two scenarios of one run each
// (common random numbers, paired batch means: stats.PairedCI, as the
// Summary's Diff from Base has it) must cover the true difference in
// about 95% of runs: M/M/1 with arrival rate 0.8 and service rates 1 and
// 1.1 (mean sojourns 5 and 3.333), 30,000 observations, over 400 seeds.
// With 400 runs a coverage of 0.95 has a standard error of 0.011: the
// test accepts 0.925 to 0.985.
func TestPairedIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("800 runs of 30,000 observations")
	}
	const seeds = 400
	slow := oneService(expD(1.25), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	fast := oneService(expD(1.25), Step{Name: "Work", Kind: Local, ProcTime: expD(1 / 1.1)})
	slow.App.Capacity, fast.App.Capacity = 1, 1
	truth := 1/(1-0.8) - 1/(1.1-0.8)
	covered, low := 0, 0
	for seed := range uint64(seeds) {
		a := run(t, slow, RunConfig{Seed: seed + 1, Observations: 30_000})
		b := run(t, fast, RunConfig{Seed: seed + 1, Observations: 30_000})
		if a.ResponseBatchSize != b.ResponseBatchSize {
			t.Fatalf("seed %d: batches of %d and %d", seed+1, a.ResponseBatchSize, b.ResponseBatchSize)
		}
		iv := stats.PairedCI(a.ResponseBatches, b.ResponseBatches, 0.95)
		switch d := a.Response.Mean - b.Response.Mean; {
		case d-iv.HalfWidth <= truth && truth <= d+iv.HalfWidth:
			covered++
		case d+iv.HalfWidth < truth:
			low++
		}
	}
	share := float64(covered) / seeds
	t.Logf("the paired interval covers the difference %.4f in %d of %d runs (%.3f); %d misses below", truth, covered, seeds, share, low)
	if share < 0.925 || share > 0.985 {
		t.Errorf("coverage %.3f, want 0.925 to 0.985", share)
	}
}
