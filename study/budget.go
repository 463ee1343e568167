package study

import "fmt"

// MaxRuns bounds the runs of a study: scenarios × loads × replications,
// each of which keeps its figures until the report is written.
const MaxRuns = 10_000

// Runs is the number of runs of the plan: scenarios × loads ×
// replications, as it will run (after any Apply).
func (p *Plan) Runs() int {
	n := 0
	for _, sc := range p.Scenarios {
		n += len(sc.Run.Loads) * max(sc.Run.Replications, 1)
	}
	return n
}

// RunsError says that a study has more runs than MaxRuns. It is an input
// problem, located at RunsCell of the plan.
type RunsError struct {
	Cell string // File!Sheet!Cell of the setting to change, "" if unknown
	Runs int
}

func (e *RunsError) Error() string {
	where := ""
	if e.Cell != "" {
		where = e.Cell + ": "
	}
	return fmt.Sprintf("%sthe study has %d runs (scenarios × loads × replications), more than the limit of %d; expected fewer: choose loads with the Loads setting or --loads, fewer scenarios (--scenarios) or fewer Replications",
		where, e.Runs, MaxRuns)
}

// CheckRuns refuses a plan of more than MaxRuns runs with a *RunsError.
// Apply calls it, so that --loads and --scenarios can bring a large study
// within the limit.
func (p *Plan) CheckRuns() error {
	if n := p.Runs(); n > MaxRuns {
		return &RunsError{Cell: p.RunsCell, Runs: n}
	}
	return nil
}
