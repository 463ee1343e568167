package study_test

import (
	"fmt"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/study"
)

// A mean response of 0.95 s ± 0.03 holds under 1 s, fails under 0.9 s, and
// is undecided under 0.96 s, where the interval straddles the Limit.
func ExampleJudge() {
	run := &study.Run{Result: engine.Result{
		Stable: true, Completed: 1000,
		Response: engine.Summary{N: 1000, Mean: 0.95, CIHalfWidth95: 0.03},
	}}
	targets := []study.Target{
		{Measure: study.MeasureMean, Limit: 1},
		{Measure: study.MeasureMean, Limit: 0.9},
		{Measure: study.MeasureMean, Limit: 0.96},
	}
	for _, r := range study.Judge(targets, run) {
		fmt.Printf("%s: %s\n", r.Target, r.Verdict)
	}
	// Output:
	// mean response of all requests ≤ 1: holds
	// mean response of all requests ≤ 0.9: fails
	// mean response of all requests ≤ 0.96: undecided
}
