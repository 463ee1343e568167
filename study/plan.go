package study

import "github.com/websim/websim/engine"

// Plan is a validated model ready to run: what the workbooks say, resolved.
// workbook.Read builds it; Execute runs it.
type Plan struct {
	// Model names the model (its folder); TimeUnit labels every time.
	Model    string
	TimeUnit string
	// Scenarios are run in order; the first is the baseline. Without an
	// Experiments sheet there is one scenario, "Base".
	Scenarios []Scenario
	// Inputs are the input workbooks with their SHA-256.
	Inputs []Input
	// Settings are the Settings sheet's rows as read (name, value as text).
	Settings []Setting
	// RunsCell is the cell (File!Sheet!Cell) that sets the study's size,
	// named when it has more than MaxRuns runs (CheckRuns).
	RunsCell string
	// Warnings are problems that do not stop the run (an unknown sheet or
	// column, say), each located as File!Sheet!Cell: text.
	Warnings []string
	// Targets are the rows of the optional Targets sheet.
	Targets []Target
	// Measured are the rows of the optional Measured sheet.
	Measured []Measured
}

// Scenario is one row of the Experiments sheet (or the base settings): a
// model with its settings applied, and how to run it.
type Scenario struct {
	Name string
	// Model has the scenario's settings applied (App, Params). Scenarios
	// share the compiled services, distributions and expressions.
	Model *engine.Model
	// Run says how long and how often to run.
	Run RunSettings
	// Overrides are the settings this scenario changes, as written.
	Overrides []Setting
	// Charts are the chart groups the scenario is drawn in (the
	// Experiments column Chart); nil: the one group of every scenario.
	Charts []string
}

// RunSettings are the Settings that steer runs rather than the model.
type RunSettings struct {
	// Seed is the base random seed.
	Seed uint64
	// WarmUp is simulated time discarded before statistics start; when
	// AutoWarmUp is set, MSER-5 finds it instead.
	WarmUp     float64
	AutoWarmUp bool
	// Observations is the number of requests finished after the warm-up.
	Observations int64
	// Replications is the number of independent runs per load.
	Replications int
	// Loads are indexes into Model.Loads, in the order to run: ascending,
	// the order of the Arrivals columns, whatever order --loads or the
	// Loads setting named them in (a chart's load axis reads left to right).
	Loads []int
	// TargetPrecision, when above 0, extends a run until the 95% half-width
	// of mean response is within this share of the mean (up to a cap).
	TargetPrecision float64
}
