package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/websim/websim/engine/stats"
)

// Small distributions for the engine's own tests, so that they depend on
// nothing but the engine.
type expD float64

func (d expD) Sample(r *rand.Rand) float64 { return float64(d) * r.ExpFloat64() }
func (d expD) Mean() float64               { return float64(d) }
func (d expD) String() string              { return fmt.Sprintf("Exp(%g)", float64(d)) }

type constD float64

func (d constD) Sample(*rand.Rand) float64 { return float64(d) }
func (d constD) Mean() float64             { return float64(d) }
func (d constD) String() string            { return fmt.Sprintf("%g", float64(d)) }

type unifD struct{ lo, hi float64 }

func (d unifD) Sample(r *rand.Rand) float64 { return d.lo + (d.hi-d.lo)*r.Float64() }
func (d unifD) Mean() float64               { return (d.lo + d.hi) / 2 }
func (d unifD) String() string              { return fmt.Sprintf("Uniform(%g,%g)", d.lo, d.hi) }

// oneService builds a model with one entity whose only service has the
// given steps, arriving with inter-arrival dist ia.
func oneService(ia Dist, steps ...Step) *Model {
	for i := range steps {
		if steps[i].OnSuccess == 0 && steps[i].OnFailure == 0 {
			steps[i].OnSuccess, steps[i].OnFailure = StepTarget(i+1), Fail
		}
	}
	return &Model{
		Name: "test", TimeUnit: "s", Loads: []string{"L1"},
		App:      AppConfig{Servers: 1, Capacity: 1_000_000},
		Services: []Service{{Name: "Svc", Steps: steps}},
		Entities: []Entity{{
			Name: "Req", InterArrival: []Dist{ia},
			Stages: []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}},
		}},
	}
}

// run runs m and checks the invariants every run must keep.
func run(t *testing.T, m *Model, cfg RunConfig) *Result {
	t.Helper()
	r, err := Run(m, cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkInvariants(t, m, r)
	return r
}

func checkInvariants(t *testing.T, m *Model, r *Result) {
	t.Helper()
	c := r.Check
	if c.ArrivedAll != c.FinishedAll+c.Open {
		t.Errorf("arrived %d != finished %d + in system %d", c.ArrivedAll, c.FinishedAll, c.Open)
	}
	if r.InSystem != c.Open {
		t.Errorf("InSystem %d != open %d", r.InSystem, c.Open)
	}
	if c.UnitsBusy != c.UnitsHeld {
		t.Errorf("%d units busy but live requests hold %d", c.UnitsBusy, c.UnitsHeld)
	}
	for _, s := range append(append([]ServerResult{}, r.Servers...), r.AppServers...) {
		if s.PeakBusy > s.Capacity {
			t.Errorf("server %s had %d busy units, capacity %d", s.Name, s.PeakBusy, s.Capacity)
		}
	}
	if fin := r.Completed + r.Failed + r.Abandoned; r.Stable && fin < 1 {
		t.Errorf("no request finished")
	}
}

// replicate runs m reps times and returns the Student-t mean and 95%
// half-width of f over the replications.
func replicate(t *testing.T, m *Model, cfg RunConfig, reps int, f func(*Result) float64) (mean, hw float64) {
	t.Helper()
	var tl stats.Tally
	for rep := range reps {
		cfg.Replication = rep
		tl.Add(f(run(t, m, cfg)))
	}
	return tl.Mean(), stats.StudentT(0.95, reps-1) * tl.SD() / math.Sqrt(float64(reps))
}

// near reports whether got is within k half-widths of want.
func near(t *testing.T, what string, got, hw, want, k float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > k*hw {
		t.Errorf("%s = %.5f ± %.5f, theory %.5f (off by %.1f half-widths)", what, got, hw, want, math.Abs(got-want)/hw)
	} else {
		t.Logf("%s = %.5f ± %.5f, theory %.5f", what, got, hw, want)
	}
}
