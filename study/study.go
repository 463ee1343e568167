// Package study runs a model's scenarios over its loads and replications
// and gathers the results that reports and JSON present.
package study

import (
	"time"

	"github.com/websim/websim/engine"
)

// Study is the outcome of `websim run`: every scenario × load, with what is
// needed to reproduce it.
type Study struct {
	// Model names the model (its folder); TimeUnit labels every time.
	Model    string
	TimeUnit string
	// Version is websim's version; Seed the base random seed.
	Version string
	Seed    uint64
	Started time.Time
	// Scenarios and Loads are the labels run, in order; the first scenario
	// is the baseline that differences are measured from.
	Scenarios []string
	Loads     []string
	// Charts maps a scenario to the chart groups it is drawn in (the
	// Experiments column Chart); a scenario not in it, or a nil map, is in
	// the one group of every scenario.
	Charts map[string][]string
	// ArrivalRates has, per Loads, the requests that arrive per time unit
	// (the sum over entities of 1 / the mean inter-arrival time); NaN when
	// a mean is not known.
	ArrivalRates []float64
	// Runs has one entry per scenario × load, scenario-major.
	Runs []Run
	// Settings are the settings used, as (name, value) text, base first; a
	// scenario's overrides are in ScenarioSettings.
	Settings         []Setting
	ScenarioSettings map[string][]Setting
	// Inputs are the input workbooks with their SHA-256.
	Inputs []Input
	// Warnings are problems that did not stop the run.
	Warnings []string
	// Targets are the Targets sheet's rows; Judge gives their verdicts.
	Targets []Target
	// Measured are the Measured sheet's rows; Validate sets them beside
	// the runs' figures.
	Measured []Measured
}

// Setting is a name and its value as text, with where the value comes
// from when it is not the model ("command line").
type Setting struct{ Name, Value, Source string }

// Shown is the setting's value as the results show it: the value, then
// its source in parentheses ("3000 (command line)").
func (s Setting) Shown() string {
	if s.Source == "" {
		return s.Value
	}
	return s.Value + " (" + s.Source + ")"
}

// Input is an input file and its SHA-256 in hex.
type Input struct{ Name, SHA256 string }

// Run is one scenario at one load, its replications pooled.
type Run struct {
	Scenario string
	Load     string
	// Replications is how many independent runs were pooled.
	Replications int
	// Result holds the pooled figures; Result.Response.CIHalfWidth95 is the
	// 95% half-width of the mean response (batch means for one
	// replication, Student t across replications).
	Result engine.Result
	// Diff is the difference of mean response from the first scenario at
	// the same load (paired over common random numbers); nil for the first
	// scenario itself.
	Diff *Diff
	// PrecisionCapHit is true when TargetPrecision was set and the run
	// stopped at its cap before reaching it.
	PrecisionCapHit bool
	// TargetPrecision is the scenario's (0 for none): each replication is
	// extended until its own interval is within it, and with several the
	// interval across them may still be wider (finish warns).
	TargetPrecision float64
	// WallSeconds is the wall-clock time the run took.
	WallSeconds float64

	// replicationMeans are the mean responses of the replications, and
	// batchMeans (one replication) the batch means behind its interval;
	// Compare pairs them.
	replicationMeans []float64
	batchMeans       []float64
	batchSize        int64
	// reps are each replication's figures, for intervals across them.
	reps []repFigures
}

// Diff is a paired difference of means with its 95% half-width.
type Diff struct {
	Mean, HalfWidth95 float64
}
