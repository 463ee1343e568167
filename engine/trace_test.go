package engine

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// traceModel has a bit of everything: a RAT, active units, a Parallel fork
// of two copies that each call a server with a time limit, a failure route,
// impatient users who retry.
func traceModel() *Model {
	m := &Model{
		Name: "trace", TimeUnit: "ms", Loads: []string{"L1"},
		App:     AppConfig{Servers: 2, Capacity: 4, Selection: LeastBusy, RATParameter: 0.5, TActive: 1},
		Servers: []Server{{Name: "DB", Capacity: 2, TimeLimit: 4, BackgroundInterArrival: expD(5), BackgroundServiceTime: expD(2)}},
		Services: []Service{
			{Name: "Page", Steps: []Step{
				{Name: "Parse", Kind: Local, ProcTime: expD(0.5), OnSuccess: 1, OnFailure: Fail},
				{Name: "Fetch", Kind: Nested, Services: []int{1}, Count: Const(2), Mode: Parallel, OnSuccess: Done, OnFailure: 2},
				{Name: "Apology", Kind: Local, ProcTime: constD(0.1), OnSuccess: Fail, OnFailure: Fail},
			}},
			{Name: "Query", Steps: []Step{
				{Name: "Select", Kind: Call, Server: 0, ProcTime: expD(1.5), SuccessRate: Const(0.9), OnSuccess: Done, OnFailure: Fail},
			}},
		},
		Entities: []Entity{{
			Name: "Web", InterArrival: []Dist{expD(3)},
			Stages:           []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}},
			Patience:         constD(7),
			RetryProbability: 0.5, RetryDelay: constD(1), MaxRetries: 1,
		}},
	}
	return m
}

// TestTraceGolden follows a few requests of traceModel step by step; each
// trace is a golden file, so any change in what the engine does shows up
// in review (go test ./engine -update rewrites them). The second case
// puts calls and copies before entries (InFlightFirst: a waiting call
// counts only those of its kind ahead of it) and makes users impatient
// enough that abandoned requests reach END in the trace.
func TestTraceGolden(t *testing.T) {
	impatient := traceModel()
	impatient.App.UnitQueue = InFlightFirst
	impatient.App.Servers = 2
	impatient.App.Capacity = 5
	impatient.Entities[0].Patience = constD(2.5)
	impatient.Entities[0].InterArrival = []Dist{expD(0.8)}
	tests := []struct {
		golden string
		m      *Model
	}{
		{"trace.golden", traceModel()},
		{"trace-inflightfirst.golden", impatient},
	}
	shows := func(r *Result) bool {
		return r.Completed > 0 && r.Failed+r.Abandoned > 0 && r.Timeouts > 0
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			var b bytes.Buffer
			r := run(t, tc.m, RunConfig{Seed: 3, Observations: 25, Trace: &b})
			if !shows(r) || (tc.m == impatient && (r.Abandoned == 0 || !r.Stable)) {
				t.Errorf("the trace model should show completions, failures, time-outs (and, impatient, abandonments in a stable run): %+v", r)
			}
			golden := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("trace differs from %s (go test ./engine -update rewrites it):\n%s", golden, b.String())
			}
		})
	}
}

func TestTraceLimitAndNoTraceSameResults(t *testing.T) {
	var b bytes.Buffer
	traced := run(t, traceModel(), RunConfig{Seed: 4, Observations: 500, Trace: &b, TraceLimit: 20})
	if n := bytes.Count(b.Bytes(), []byte("\n")); n != 20 {
		t.Errorf("%d trace lines, want the limit 20", n)
	}
	plain := run(t, traceModel(), RunConfig{Seed: 4, Observations: 500})
	// Printed, since a figure without an interval is NaN, never equal.
	if fmt.Sprint(traced.Response) != fmt.Sprint(plain.Response) || traced.Events != plain.Events {
		t.Error("tracing changed the results")
	}
}
