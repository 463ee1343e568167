package stats

import (
	"math"
	"strings"
	"testing"
)

// growthFlags runs seeds M/M/1 paths (service rate 1) of the given load,
// starting with n0 in the system, for departures departures each, and
// returns how many the growth test flagged and how many had p below p.
func growthFlags(rho float64, n0 int64, departures, seeds int, p float64) (flagged, below int) {
	for seed := range uint64(seeds) {
		var g Growth
		mm1Path(seed, rho, 1, n0, departures, g.Observe)
		v := g.Verdict()
		if v.Growing {
			flagged++
		}
		if v.P < p {
			below++
		}
	}
	return flagged, below
}

func TestGrowthFlagsMildOverload(t *testing.T) {
	tests := []struct {
		rho   float64
		seeds int
	}{{1.05, 50}, {1.11, 20}}
	for _, tt := range tests {
		if flagged, _ := growthFlags(tt.rho, 0, 100_000, tt.seeds, 0); flagged != tt.seeds {
			t.Errorf("M/M/1 at utilization %.2f over 100,000 observations: flagged in %d of %d runs, want all",
				tt.rho, flagged, tt.seeds)
		}
	}
}

func TestGrowthFalseAlarmsAtHighStableLoad(t *testing.T) {
	// Utilization 0.95, 200,000 observations, starting empty. At most 1%
	// false alarms are allowed: 4 in 400 runs (the level is 1e-3). As a
	// check of the p-value's calibration, at most 10% may fall below 0.05
	// (a false-alarm level read off the p-value is then at most about
	// twice the nominal one).
	seeds := 400
	if testing.Short() {
		seeds = 50
	}
	flagged, below := growthFlags(0.95, 0, 200_000, seeds, 0.05)
	t.Logf("utilization 0.95: %d of %d flagged, %d with p < 0.05", flagged, seeds, below)
	if flagged > seeds/100 {
		t.Errorf("flagged %d of %d stable runs, want at most 1%%", flagged, seeds)
	}
	if below > seeds/10 {
		t.Errorf("%d of %d stable runs had p < 0.05, want about 5%%", below, seeds)
	}
}

func TestGrowthIgnoresTransients(t *testing.T) {
	tests := []struct {
		name       string
		rho        float64
		n0         int64
		departures int
	}{
		{"warm-up from empty at 0.95", 0.95, 0, 50_000},
		{"long queue draining at 0.8", 0.8, 20_000, 100_000},
		{"short queue draining at 0.8", 0.8, 500, 100_000},
	}
	for _, tt := range tests {
		if flagged, _ := growthFlags(tt.rho, tt.n0, tt.departures, 20, 0); flagged > 0 {
			t.Errorf("%s: flagged in %d of 20 runs, want none", tt.name, flagged)
		}
	}
}

func TestGrowthReasonSaysWhatTheTestSaw(t *testing.T) {
	var g Growth
	mm1Path(1, 1.05, 1, 0, 100_000, g.Observe)
	v := g.Verdict()
	if !v.Growing || v.To < 10*v.From || v.Batches < MaxBatches/2 || !(v.T > 0) || !(v.P < GrowthAlpha) {
		t.Fatalf("verdict %+v", v)
	}
	for _, want := range []string{"number in system rose from", "trend test over", "batch means", "t = ", "p ", "keeps growing"} {
		if !strings.Contains(v.Reason, want) {
			t.Errorf("reason %q lacks %q", v.Reason, want)
		}
	}
}

func TestGrowthNeedsARiseOfOneRequest(t *testing.T) {
	// The quantity is 0 or 1, deterministically more often 1 as time goes
	// on: its time average rises from 0.25 to 0.5 with almost no noise, a
	// significant slope but not a queue that grows.
	var g Growth
	const n = 64_000
	phi := (math.Sqrt(5) - 1) / 2
	for i := range n {
		v := int64(0)
		if _, f := math.Modf(float64(i) * phi); f < 0.25+0.25*float64(i)/n {
			v = 1
		}
		g.Observe(float64(i), v)
	}
	v := g.Verdict()
	if v.Growing || !(v.P < GrowthAlpha) {
		t.Errorf("a rise from %.2f to %.2f (p %v) flagged %v, want not flagged", v.From, v.To, v.P, v.Growing)
	}
}

func TestGrowthTooFewObservations(t *testing.T) {
	var g Growth
	for i := range 5 {
		g.Observe(float64(i), int64(i*100))
	}
	if v := g.Verdict(); v.Growing || !strings.Contains(v.Reason, "too few") {
		t.Errorf("5 observations: %+v", v)
	}
	var c Growth // constant, no noise at all
	for i := range 10_000 {
		c.Observe(float64(i), 3)
	}
	if v := c.Verdict(); v.Growing {
		t.Errorf("a constant was called growing: %+v", v)
	}
}

func TestGrowthObserveAllocatesNothing(t *testing.T) {
	var g Growth
	i := 0
	if a := testing.AllocsPerRun(10_000, func() { i++; g.Observe(float64(i), int64(i%7)) }); a != 0 {
		t.Errorf("Observe allocates %v times per call", a)
	}
}

func TestGroupDigits(t *testing.T) {
	for x, want := range map[float64]string{4980.2: "4,980", 12: "12", 0.625: "0.62", 1234567: "1,234,567", -2500: "-2,500"} {
		if got := groupDigits(x); got != want {
			t.Errorf("groupDigits(%v) = %q, want %q", x, got, want)
		}
	}
}

func BenchmarkGrowthObserve(b *testing.B) {
	var g Growth
	for i := range b.N {
		g.Observe(float64(i), int64(i&15))
	}
}
