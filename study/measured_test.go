package study

import (
	"math"
	"testing"

	"github.com/websim/websim/engine"
)

// Validate picks a run's figure for each kind of Measured row, with the
// interval the run has and none where it has none.
func TestValidatePicksTheFigureAndItsInterval(t *testing.T) {
	run := &Run{Scenario: "Base", Load: "L1", Result: engine.Result{
		Completed: 90, Failed: 10, Stable: true, AppUtilization: 0.3,
		Response:   engine.Summary{N: 90, Mean: 100, CIHalfWidth95: 5, P95: 300},
		FailedCI95: 0.02,
		Servers:    []engine.ServerResult{{Name: "GWay", Utilization: 0.6}},
		Entities: []engine.EntityResult{
			{Name: "ASUM", Completed: 60, Failed: 4, Abandoned: 1, AbandonedCI95: 0.02, Response: engine.Summary{N: 60, Mean: 120, CIHalfWidth95: 8, P95: 350}},
			{Name: "Ping", Completed: 30, Failed: 6, Response: engine.Summary{N: 30, Mean: 60, CIHalfWidth95: math.NaN()}},
		},
	}}
	nan := math.NaN()
	cases := []struct {
		m            Measured
		sim, hw      float64
		inside, know bool
	}{
		{Measured{Load: "L1", Measure: MeasureMean, Value: 104}, 100, 5, true, true},
		{Measured{Load: "L1", Measure: MeasureMean, Value: 106}, 100, 5, false, true},
		{Measured{Load: "L1", Measure: MeasureFailed, Value: 0.11}, 0.1, 0.02, true, true},
		{Measured{Load: "L1", Measure: MeasureP95, Value: 300}, 300, nan, false, false}, // one replication: no percentile interval
		{Measured{Load: "L1", Measure: MeasureUtilization, Server: "GWay", Value: 0.6}, 0.6, nan, false, false},
		{Measured{Load: "L1", Measure: MeasureUtilization, Server: "App", Value: 0.3}, 0.3, nan, false, false},
		{Measured{Entity: "ASUM", Load: "L1", Measure: MeasureMean, Value: 127}, 120, 8, true, true},
		{Measured{Entity: "ASUM", Load: "L1", Measure: MeasureP95, Value: 350}, 350, nan, false, false},
		{Measured{Entity: "ASUM", Load: "L1", Measure: MeasureAbandoned, Value: 0}, 1.0 / 65, 0.02, true, true}, // the entity's own batch-means interval
		{Measured{Entity: "Ping", Load: "L1", Measure: MeasureMean, Value: 60}, 60, nan, false, false},
	}
	for _, tc := range cases {
		got := Validate([]Measured{tc.m, {Load: "L2", Measure: MeasureMean, Value: 1}}, run)
		if len(got) != 1 {
			t.Fatalf("%s: %d rows for one of this load", tc.m.What(), len(got))
		}
		c := got[0]
		in, known := c.Inside()
		if !same(c.Simulated, tc.sim) || !same(c.HalfWidth95, tc.hw) || in != tc.inside || known != tc.know {
			t.Errorf("%s of %q: simulated %g ± %g inside %v (known %v), want %g ± %g inside %v (known %v)",
				tc.m.What(), tc.m.Entity, c.Simulated, c.HalfWidth95, in, known, tc.sim, tc.hw, tc.inside, tc.know)
		}
		if !known && c.Why == "" {
			t.Errorf("%s of %q: no interval and no reason", tc.m.What(), tc.m.Entity)
		}
	}
	if d := (Comparison{Measured: Measured{Value: 80}, Simulated: 100}).DifferencePercent(); d != 25 {
		t.Errorf("difference of 100 from 80 = %g%%, want 25%%", d)
	}
	if d := (Comparison{Measured: Measured{Value: 0}, Simulated: 0.1}).DifferencePercent(); !math.IsNaN(d) {
		t.Errorf("difference from 0 = %g, want none", d)
	}

	// A run that is not stable has no interval, whatever the measure.
	run.Result.Stable, run.Result.Unstable = false, "GWay: the queue keeps growing"
	c := Validate([]Measured{{Load: "L1", Measure: MeasureMean, Value: 100}}, run)[0]
	if _, known := c.Inside(); known || c.Why != "the run is not stable: GWay: the queue keeps growing" {
		t.Errorf("unstable run: %+v", c)
	}
}

func same(a, b float64) bool {
	return a == b || math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-12
}
