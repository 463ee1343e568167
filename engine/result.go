package engine

import "github.com/websim/websim/engine/stats"

// Result holds the figures of one run (one scenario, load and replication)
// or of several replications pooled by Merge-like code in the runner.
type Result struct {
	Load        string
	Replication int

	// Arrivals counts requests (not attempts) that arrived after the warm-up.
	Arrivals int64
	// Completed, Failed and Abandoned count requests that finished after the
	// warm-up, once each, by their final outcome.
	Completed, Failed, Abandoned int64
	// Retries counts extra attempts; Timeouts calls that hit a TimeLimit.
	Retries, Timeouts int64
	// Attempts counts attempts of finished requests (first ones included).
	Attempts int64
	// InSystem is the number of requests still in the system at the end.
	InSystem int64

	// Response is the time from a request's first arrival to its answer,
	// over completed requests.
	Response Summary
	// AttemptResponse is the time from an attempt's start to its answer,
	// over attempts that completed.
	AttemptResponse Summary

	// AppUtilization is the time-average busy fraction of all AppRes units.
	AppUtilization float64
	// AppQueue is the time-average number of requests waiting for a unit.
	AppQueue float64
	// InstantCaptures and Captures count unit grants; instant ones found an
	// active unit and paid no RAT.
	InstantCaptures, Captures int64
	// ParallelSteps and SequentialSteps count Nested steps by the mode they
	// took (after any expression decided).
	ParallelSteps, SequentialSteps int64
	// LateCopies counts parallel copies that returned after their parent
	// had already failed.
	LateCopies int64
	// WastedWork is the processing and service time spent, after the
	// warm-up, on behalf of attempts whose user had already given up.
	WastedWork float64

	// FailedCI95 and AbandonedCI95 are the 95% half-widths of the failed
	// and abandoned shares of finished requests, from batch means of the
	// outcome indicators in finishing order; NaN with fewer than 2 batches.
	FailedCI95, AbandonedCI95 float64

	// Servers has one entry per external server, in Model order.
	Servers []ServerResult
	// AppServers has one entry per application server.
	AppServers []ServerResult

	// Stable is false when the run showed no steady state; Unstable says
	// which server, when, and why.
	Stable   bool
	Unstable string
	// WarmUp is the warm-up used (the truncation point when found by MSER).
	WarmUp float64
	// SimTime is the simulated time at the end of the run.
	SimTime float64
	// Events is the number of events the run processed.
	Events int64
	// Check holds counts for invariant checks.
	Check Invariants

	// ResponseHist holds the response times for pooling replications'
	// percentiles, and ResponseBatches the batch means behind
	// Response.CIHalfWidth95 for paired comparisons; both may be nil.
	ResponseHist    *stats.Histogram `json:"-"`
	ResponseBatches []float64        `json:"-"`
}

// Invariants are whole-run counts (warm-up included) that tests use to
// check that every request is counted exactly once.
type Invariants struct {
	// ArrivedAll = FinishedAll + Open at the end of every run.
	ArrivedAll, FinishedAll, Open int64
	// UnitsBusy is the number of AppRes units not free at the end, and
	// UnitsHeld the units live tokens hold: every unit taken is given back
	// when the two agree.
	UnitsBusy, UnitsHeld int64
}

// ServerResult holds one server's figures after the warm-up.
type ServerResult struct {
	Name        string
	Capacity    int
	Utilization float64
	MeanQueue   float64
	// Jobs counts jobs that finished service (background ones included);
	// for an application server, units granted.
	Jobs int64
	// Arrived counts jobs that arrived (units asked for), and Waited those
	// of them that found no free unit and queued.
	Arrived, Waited int64
	// Timeouts counts calls whose caller gave up at the TimeLimit.
	Timeouts int64
	// OrphanJobs and OrphanWork count the jobs, and their service time,
	// that the server did for callers that had already given up.
	OrphanJobs int64
	OrphanWork float64
	// PeakBusy is the largest number of busy units seen (never above
	// Capacity).
	PeakBusy int
}

// Summary describes a sample of times.
type Summary struct {
	N                       int64
	Mean, SD                float64
	Min, Max                float64
	P50, P90, P95, P99      float64
	CIHalfWidth95           float64
	BatchesForCI, BatchSize int64
}
