package study

import (
	"fmt"
	"math"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/engine/stats"
)

// Measure is what a target bounds: a figure of response time over completed
// requests, or a share of finished requests.
type Measure string

// The measures of the Targets sheet.
const (
	MeasureMean      Measure = "mean"
	MeasureP50       Measure = "p50"
	MeasureP90       Measure = "p90"
	MeasureP95       Measure = "p95"
	MeasureP99       Measure = "p99"
	MeasureFailed    Measure = "failed"
	MeasureAbandoned Measure = "abandoned"
)

// Measures lists every measure, in the order the help text shows them.
var Measures = []Measure{MeasureMean, MeasureP50, MeasureP90, MeasureP95, MeasureP99, MeasureFailed, MeasureAbandoned}

// IsShare reports whether m is a share of requests (its Limit is 0..1)
// rather than a time.
func (m Measure) IsShare() bool { return m == MeasureFailed || m == MeasureAbandoned }

// quantile is the level of a percentile measure, 0 for the others.
func (m Measure) quantile() float64 {
	switch m {
	case MeasureP50:
		return 0.5
	case MeasureP90:
		return 0.9
	case MeasureP95:
		return 0.95
	case MeasureP99:
		return 0.99
	}
	return 0
}

// Target is one row of the Targets sheet: a Measure of an entity's requests
// (Entity "" for all requests) that should stay at most Limit.
type Target struct {
	Entity  string
	Measure Measure
	// Limit is a time in the model's TimeUnit, or a share 0..1.
	Limit float64
	// Cell locates the row (SvcData.xlsx!Targets!A2), for messages.
	Cell string
	// OnlyEntity is set when Entity is the model's only entity type: its
	// figures are those of all requests.
	OnlyEntity bool
}

// String describes the target as a user would say it: "p95 response of
// ASUM ≤ 1000", "failed share of all requests ≤ 0.01".
func (t Target) String() string {
	who := "all requests"
	if t.Entity != "" {
		who = t.Entity
	}
	what := "response"
	if t.Measure.IsShare() {
		what = "share"
	}
	return fmt.Sprintf("%s %s of %s ≤ %g", t.Measure, what, who, t.Limit)
}

// Verdict says whether a target is met at a run, with 95% confidence.
type Verdict string

// The three verdicts of contract section 2.
const (
	// Holds: the upper end of the 95% interval is at most the Limit.
	Holds Verdict = "holds"
	// Fails: the lower end is above the Limit (or the run is unstable).
	Fails Verdict = "fails"
	// Undecided: the interval straddles the Limit, or no honest interval
	// exists for the measure at this run.
	Undecided Verdict = "undecided"
)

// TargetResult is a target judged at one run.
type TargetResult struct {
	Target
	// Value is the measured figure; HalfWidth95 the half-width of its 95%
	// interval (NaN when none is known).
	Value, HalfWidth95 float64
	Verdict            Verdict
	// Why explains an undecided or failing verdict in words ("" when the
	// interval alone says it).
	Why string
}

// Judge returns the verdict of each target at run, in the targets' order.
//
// The intervals: mean response from run.Result.Response.CIHalfWidth95
// (batch means for one replication, Student t across replications);
// percentiles and shares from Student t across replications when there are
// two or more; for one replication, shares from the batch means of the
// outcome indicators in finishing order, p95 and p99 from the run's own
// intervals (Summary.P95CIHalfWidth95, P99CIHalfWidth95), and the other
// percentiles undecided. A run that is not stable has no steady state:
// every target fails there, since its queue grows past any limit.
func Judge(targets []Target, run *Run) []TargetResult {
	out := make([]TargetResult, len(targets))
	for i, t := range targets {
		out[i] = judge(t, run)
	}
	return out
}

// AllHold reports whether every result holds.
func AllHold(rs []TargetResult) bool {
	for _, r := range rs {
		if r.Verdict != Holds {
			return false
		}
	}
	return true
}

// Overall combines verdicts: fails when any fails, else undecided when any
// is undecided, else holds.
func Overall(rs []TargetResult) Verdict {
	v := Holds
	for _, r := range rs {
		switch r.Verdict {
		case Fails:
			return Fails
		case Undecided:
			v = Undecided
		}
	}
	return v
}

func judge(t Target, run *Run) TargetResult {
	tr := TargetResult{Target: t, Value: math.NaN(), HalfWidth95: math.NaN(), Verdict: Undecided}
	r := &run.Result
	if t.Entity != "" && !t.OnlyEntity {
		tr.Why = "per-entity figures are not available yet"
		return tr
	}
	value, hw, ok, why := measureInterval(run, t.Measure)
	tr.Value, tr.HalfWidth95 = value, hw
	if !r.Stable {
		tr.Verdict, tr.Why = Fails, "the run is not stable: "+r.Unstable
		return tr
	}
	if !ok {
		tr.Why = why
		return tr
	}
	tr.Verdict = decide(value, hw, t.Limit)
	return tr
}

// decide is the rule of contract section 2.
func decide(value, hw, limit float64) Verdict {
	switch {
	case value+hw <= limit:
		return Holds
	case value-hw > limit:
		return Fails
	}
	return Undecided
}

// measureInterval returns a measure's value and 95% half-width at run; ok
// is false (with the reason) when there is no honest interval.
func measureInterval(run *Run, m Measure) (value, hw float64, ok bool, why string) {
	r := &run.Result
	if m.IsShare() {
		return shareInterval(run, m)
	}
	if r.Response.N == 0 {
		return math.NaN(), math.NaN(), false, "no request completed"
	}
	if m == MeasureMean {
		value, hw = r.Response.Mean, r.Response.CIHalfWidth95
		if math.IsNaN(hw) {
			return value, hw, false, "too few observations for an interval of the mean"
		}
		return value, hw, true, ""
	}
	value, hw, ok = percentileInterval(run, m.quantile())
	if !ok {
		return percentileOf(r, m), math.NaN(), false, "no confidence interval for this percentile of one replication (only p95 and p99 have one); set Replications to 2 or more"
	}
	return value, hw, true, ""
}

// percentileOf is the point estimate of a percentile measure.
func percentileOf(r *engine.Result, m Measure) float64 {
	switch m {
	case MeasureP50:
		return r.Response.P50
	case MeasureP90:
		return r.Response.P90
	case MeasureP95:
		return r.Response.P95
	case MeasureP99:
		return r.Response.P99
	}
	return math.NaN()
}

// histogramError is the largest relative error of a percentile read from
// the engine's histogram (a bucket's midpoint is within 0.2% of any value
// in it): percentile half-widths include it, since more observations do
// not shrink it.
const histogramError = 1.0 / 512

// percentileInterval returns the q-th percentile of response time at run
// and the half-width of its 95% interval. The one honest interval available
// is across replications: each replication's percentile is an independent
// estimate, and their Student t interval, widened by the histogram's
// relative error, covers the percentile. With one replication, p95 and
// p99 take the run's own interval (stats.Percentiles, widened the same
// way); other percentiles, or a run without an interval, return ok=false.
func percentileInterval(run *Run, q float64) (value, halfWidth float64, ok bool) {
	var t stats.Tally
	for _, rep := range run.reps {
		if rep.completed == 0 {
			continue
		}
		switch q {
		case 0.5:
			t.Add(rep.p50)
		case 0.9:
			t.Add(rep.p90)
		case 0.95:
			t.Add(rep.p95)
		case 0.99:
			t.Add(rep.p99)
		default:
			return math.NaN(), math.NaN(), false
		}
	}
	n := t.N()
	if n < 2 {
		// One replication: the run's own interval of p95 or p99
		// (stats.Percentiles: batch means of the indicator at the
		// estimate), where it has one.
		r := &run.Result.Response
		hw := map[float64]float64{0.95: r.P95CIHalfWidth95, 0.99: r.P99CIHalfWidth95}[q]
		if n == 1 && hw > 0 {
			v := map[float64]float64{0.95: r.P95, 0.99: r.P99}[q]
			return v, hw + histogramError*v, true
		}
		return math.NaN(), math.NaN(), false
	}
	m := t.Mean()
	return m, stats.StudentT(0.95, int(n)-1)*t.SD()/math.Sqrt(float64(n)) + histogramError*m, true
}

// shareInterval returns the failed or abandoned share of finished requests
// and its 95% half-width: Student t across replications when there are two
// or more, else the batch means of the outcome indicators. With no such
// outcome at all the half-width is at least 3/n (the one-sided 95% bound
// for zero events in n), so that "none seen" never claims "none happen".
func shareInterval(run *Run, m Measure) (value, hw float64, ok bool, why string) {
	r := &run.Result
	fin := r.Completed + r.Failed + r.Abandoned
	if fin == 0 {
		return math.NaN(), math.NaN(), false, "no request finished"
	}
	count, batchHW := r.Failed, r.FailedCI95
	if m == MeasureAbandoned {
		count, batchHW = r.Abandoned, r.AbandonedCI95
	}
	value = float64(count) / float64(fin)
	if len(run.reps) >= 2 {
		var t stats.Tally
		for _, rep := range run.reps {
			if rep.finished == 0 {
				continue
			}
			c := rep.failed
			if m == MeasureAbandoned {
				c = rep.abandoned
			}
			t.Add(float64(c) / float64(rep.finished))
		}
		hw = math.NaN()
		if n := t.N(); n >= 2 {
			hw = stats.StudentT(0.95, int(n)-1) * t.SD() / math.Sqrt(float64(n))
		}
	} else {
		hw = batchHW
	}
	if math.IsNaN(hw) {
		return value, hw, false, "too few observations for an interval of the share"
	}
	if count == 0 {
		hw = math.Max(hw, 3/float64(fin))
	}
	return value, hw, true, ""
}

// repFigures are one replication's figures that intervals across
// replications need.
type repFigures struct {
	completed, failed, abandoned, finished int64
	p50, p90, p95, p99                     float64
}

func figuresOf(r *engine.Result) repFigures {
	return repFigures{
		completed: r.Completed, failed: r.Failed, abandoned: r.Abandoned,
		finished: r.Completed + r.Failed + r.Abandoned,
		p50:      r.Response.P50, p90: r.Response.P90, p95: r.Response.P95, p99: r.Response.P99,
	}
}
