package engine

import (
	"fmt"
	"testing"
)

// TestExtendIsOneLongerRun: a run extended in steps (as TargetPrecision
// does) ends in the same state as one run of the final length: every
// figure equal, percentiles included.
func TestExtendIsOneLongerRun(t *testing.T) {
	rich := traceModel()
	rich.App.Capacity = 30 // no deadlock: the run goes the whole way
	mmc := oneService(expD(1.0/16), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	mmc.App.Capacity = 20
	for _, tc := range []struct {
		name  string
		m     *Model
		cfg   RunConfig
		steps []int64
	}{
		{"calls, copies, time limits, patience, retries, background", rich, RunConfig{Seed: 5, WarmUp: 20}, []int64{1000, 2500, 4000}},
		// Many stops, so that some fall while requests queue (a finish
		// hands its unit to a waiting token, ready at that instant).
		{"M/M/20", mmc, RunConfig{Seed: 2, WarmUp: 100}, steps(1000, 40_000, 1000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			final := tc.steps[len(tc.steps)-1]
			cfg := tc.cfg
			cfg.Observations = final
			want := run(t, tc.m, cfg)
			if !want.Stable {
				t.Fatalf("the reference run is unstable: %s", want.Unstable)
			}
			cfg.Observations = tc.steps[0]
			rn, err := Start(tc.m, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got *Result
			for _, n := range tc.steps {
				if got, err = rn.Extend(n); err != nil {
					t.Fatal(err)
				}
			}
			checkInvariants(t, tc.m, got)
			if got.Response.N == 0 || got.Completed+got.Failed+got.Abandoned != final {
				t.Fatalf("extended run finished %d, want %d", got.Completed+got.Failed+got.Abandoned, final)
			}
			sameResult(t, got, want)
		})
	}
}

// TestExtendDoesNotChangeEarlierResults: a Result handed out by Extend
// stays as it was while the run goes on.
func TestExtendDoesNotChangeEarlierResults(t *testing.T) {
	m := oneService(expD(1.0/16), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	m.App.Capacity = 20
	rn, err := Start(m, RunConfig{Seed: 1, Observations: 5000})
	if err != nil {
		t.Fatal(err)
	}
	first, err := rn.Extend(5000)
	if err != nil {
		t.Fatal(err)
	}
	p95, n := first.Response.P95, first.ResponseHist.N()
	if _, err := rn.Extend(20_000); err != nil {
		t.Fatal(err)
	}
	if first.ResponseHist.N() != n || first.ResponseHist.Quantile(0.95) != p95 || first.Completed != 5000 {
		t.Errorf("the first result changed: %d observations in its histogram (was %d), %d completed",
			first.ResponseHist.N(), n, first.Completed)
	}
}

// sameResult compares two results figure by figure: histograms by their
// contents, everything else exactly.
func sameResult(t *testing.T, got, want *Result) {
	t.Helper()
	for _, q := range []float64{0.1, 0.5, 0.9, 0.95, 0.99} {
		if g, w := got.ResponseHist.Quantile(q), want.ResponseHist.Quantile(q); g != w || got.ResponseHist.N() != want.ResponseHist.N() {
			t.Errorf("histogram quantile %g: %g, want %g", q, g, w)
		}
	}
	g, w := *got, *want
	// Pointers print as addresses: their contents are in the summaries
	// and the quantiles above.
	g.ResponseHist, w.ResponseHist = nil, nil
	g.ResponsePercentiles, w.ResponsePercentiles = nil, nil
	g.Entities, w.Entities = nil, nil
	// Printed, so that NaN (an interval not computed) equals NaN.
	if fmt.Sprintf("%+v", g) != fmt.Sprintf("%+v", w) {
		t.Errorf("extended run differs from one run:\n got %+v\nwant %+v", g, w)
	}
	for i := range want.Entities {
		ge, we := got.Entities[i], want.Entities[i]
		ge.ResponseHist, we.ResponseHist = nil, nil
		ge.ResponsePercentiles, we.ResponsePercentiles = nil, nil
		if fmt.Sprintf("%+v", ge) != fmt.Sprintf("%+v", we) {
			t.Errorf("entity %d differs:\n got %+v\nwant %+v", i, ge, we)
		}
	}
}

// steps lists from, from+by, ..., to.
func steps(from, to, by int64) []int64 {
	var out []int64
	for n := from; n <= to; n += by {
		out = append(out, n)
	}
	return out
}
