package study

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/engine/stats"
	"github.com/websim/websim/internal/numtext"
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
// ASUM ≤ 1000", "failed share of all requests ≤ 1%".
func (t Target) String() string {
	who := "all requests"
	if t.Entity != "" {
		who = t.Entity
	}
	what := "response"
	if t.Measure.IsShare() {
		what = "share"
	}
	return fmt.Sprintf("%s %s of %s ≤ %s", t.Measure, what, who, t.amount(t.Limit, -1))
}

// amount writes a figure of the target's measure to sig significant
// digits (-1: every digit it has, for a limit as the user typed it): a
// time as a number, a share in percent (0.05 as 5%), as the sheets show
// it.
func (t Target) amount(x float64, sig int) string {
	if t.Measure.IsShare() {
		if sig < 0 { // every digit of a share as written: 0.0123 is 1.23%
			return strconv.FormatFloat(numtext.AsExcelKeeps(x*100), 'g', -1, 64) + "%"
		}
		return strconv.FormatFloat(x*100, 'g', sig, 64) + "%"
	}
	return strconv.FormatFloat(x, 'g', sig, 64)
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
	// Why explains an undecided or failing verdict in words: no interval,
	// a run that is not stable, or where the interval lies.
	Why string
}

// Judge returns the verdict of each target at run, in the targets' order.
// A target with an Entity is judged from that entity's figures
// (run.Result.Entities), one without from all requests'.
//
// The intervals: the mean response's from Response.CIHalfWidth95 (batch
// means for one replication, Student t across replications); a
// percentile's from the results' (runPercentileHalfWidth: the engine's
// own, in a run and pooled over replications, else Student t across
// replications); the failed and abandoned shares'
// from Student t across replications when there are two or more, else
// from the batch means of the outcome indicators in finishing order.
// Percentile half-widths include the histogram's relative error. A target
// with no honest interval is undecided, and says why. A run that is not
// stable has no steady state: every target fails there, since its queue
// grows past any limit.
func Judge(targets []Target, run *Run) []TargetResult {
	out := make([]TargetResult, len(targets))
	for i, t := range targets {
		out[i] = judge(t, run)
	}
	byOrder(out)
	return out
}

// percentileRank orders the percentile measures: p50 ≤ p90 ≤ p95 ≤ p99 of
// the same requests, always. Other measures have none (0).
func percentileRank(m Measure) int {
	switch m {
	case MeasureP50:
		return 1
	case MeasureP90:
		return 2
	case MeasureP95:
		return 3
	case MeasureP99:
		return 4
	}
	return 0
}

// byOrder decides undecided percentile targets that have no interval of
// their own from the others of the same requests, since quantiles are
// ordered: p ≤ L holds when a higher percentile is known to be at most L
// or less, and fails when a lower one is known to be above L or more.
func byOrder(rs []TargetResult) {
	for i := range rs {
		a := &rs[i]
		ra := percentileRank(a.Measure)
		if ra == 0 || a.Verdict != Undecided || !math.IsNaN(a.HalfWidth95) {
			continue
		}
		for j := range rs {
			b := &rs[j]
			rb := percentileRank(b.Measure)
			if rb == 0 || b.Entity != a.Entity || b.OnlyEntity != a.OnlyEntity {
				continue
			}
			switch {
			case rb > ra && b.Verdict == Holds && b.Limit <= a.Limit:
				a.Verdict, a.Why = Holds, fmt.Sprintf("no interval of its own, but %s holds, and the %s is never above the %s", b.Target, a.Measure, b.Measure)
			case rb < ra && b.Verdict == Fails && b.Limit >= a.Limit && !math.IsNaN(b.HalfWidth95):
				a.Verdict, a.Why = Fails, fmt.Sprintf("no interval of its own, but %s fails, and the %s is never below the %s", b.Target, a.Measure, b.Measure)
			default:
				continue
			}
			break
		}
	}
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

// NotStableWhy begins the Why of every target at a run that is not
// stable; the run's reason follows.
const NotStableWhy = "the run is not stable: "

func judge(t Target, run *Run) TargetResult {
	tr := TargetResult{Target: t, Value: math.NaN(), HalfWidth95: math.NaN(), Verdict: Undecided}
	r := &run.Result
	f, reps, ok, why := basisFor(t, run)
	if !ok {
		tr.Why = why
		if e := entityOf(t, r); e != nil && e.Absent {
			// Nothing to hold: the target does not apply at this load,
			// though a run with no steady state still fails every target.
			tr.Verdict, tr.Why = Holds, why+": the target does not apply"
			if !r.Stable {
				tr.Verdict, tr.Why = Fails, NotStableWhy+r.Unstable
			}
		}
		return tr
	}
	value, hw, ok, why := measureInterval(&f, reps, t.Measure)
	tr.Value, tr.HalfWidth95 = value, hw
	if !r.Stable {
		// No steady state, so no interval (as a Measured row says).
		tr.HalfWidth95 = math.NaN()
		tr.Verdict, tr.Why = Fails, NotStableWhy+r.Unstable
		return tr
	}
	if !ok {
		tr.Why = why
		return tr
	}
	if t.Measure.IsShare() && t.Limit == 0 {
		// A share of none: one request seen is proof against it, and
		// none seen is no proof for it.
		count, fin := f.failed, f.completed+f.failed+f.abandoned
		verb := "failed"
		if t.Measure == MeasureAbandoned {
			count, verb = f.abandoned, "were abandoned"
		}
		if count > 0 {
			tr.Verdict, tr.Why = Fails, fmt.Sprintf("%s of the %s requests %s, where the limit 0%% allows none", numtext.Group(count), numtext.Group(fin), verb)
		} else {
			tr.Why = fmt.Sprintf("none of the %s requests %s, but no run can show a share of none: up to about 3/n, %s, remains possible; a limit above 0 could be decided", numtext.Group(fin), verb, t.amount(3/float64(fin), 2))
		}
		return tr
	}
	tr.Verdict = decide(value, hw, t.Limit)
	sig := max(4, significantDigits(t.Limit))
	switch tr.Verdict {
	case Fails:
		tr.Why = fmt.Sprintf("its 95%% interval, %s ± %s, lies above the limit %s", t.amount(value, sig), t.amount(hw, 3), t.amount(t.Limit, -1))
	case Undecided:
		tr.Why = fmt.Sprintf("its 95%% interval, %s ± %s, contains the limit %s: more observations or replications would decide", t.amount(value, sig), t.amount(hw, 3), t.amount(t.Limit, -1))
	}
	return tr
}

// significantDigits is the number of significant digits of x as the
// shortest decimal that reads back as it (1.0435: 5), so that a figure
// set beside a limit shows as many.
func significantDigits(x float64) int {
	m, _, _ := strings.Cut(strconv.FormatFloat(math.Abs(x), 'e', -1, 64), "e")
	return len(strings.TrimLeft(strings.Replace(m, ".", "", 1), "0"))
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

// entityOf is the figures of t's entity at r, or nil for a target on all
// requests or an entity r has no figures for.
func entityOf(t Target, r *engine.Result) *engine.EntityResult {
	if t.Entity == "" {
		return nil
	}
	if e := slices.IndexFunc(r.Entities, func(x engine.EntityResult) bool { return x.Name == t.Entity }); e >= 0 {
		return &r.Entities[e]
	}
	return nil
}

// basis is what a target is judged from: the counts, the response
// summary and the one-run share intervals of all requests or of one
// entity's requests.
type basis struct {
	completed, failed, abandoned int64
	resp                         engine.Summary
	failedCI, abandonedCI        float64
}

func totalFigures(r *engine.Result) basis {
	return basis{r.Completed, r.Failed, r.Abandoned, r.Response, r.FailedCI95, r.AbandonedCI95}
}

func entityFigures(e *engine.EntityResult) basis {
	return basis{e.Completed, e.Failed, e.Abandoned, e.Response, e.FailedCI95, e.AbandonedCI95}
}

// basisFor picks the figures that target t is about at run (all requests, or
// its entity's from run.Result.Entities), with each replication's; ok is
// false (with the reason) when the run has no figures for the entity.
func basisFor(t Target, run *Run) (f basis, reps []repFigure, ok bool, why string) {
	r := &run.Result
	if t.Entity == "" {
		reps = make([]repFigure, len(run.reps))
		for i, rep := range run.reps {
			reps[i] = rep.all
		}
		return totalFigures(r), reps, true, ""
	}
	e := slices.IndexFunc(r.Entities, func(x engine.EntityResult) bool { return x.Name == t.Entity })
	if e >= 0 && r.Entities[e].Absent {
		return f, nil, false, fmt.Sprintf("%s does not arrive at this load (None)", t.Entity)
	}
	if e < 0 {
		if t.OnlyEntity { // its figures are the totals
			return basisFor(Target{Measure: t.Measure, Limit: t.Limit}, run)
		}
		return f, nil, false, fmt.Sprintf("the run has no figures for entity %s", t.Entity)
	}
	for _, rep := range run.reps {
		if e < len(rep.ents) {
			reps = append(reps, rep.ents[e])
		}
	}
	return entityFigures(&r.Entities[e]), reps, true, ""
}

// measureInterval returns a measure's value and 95% half-width from f and
// the replications' figures reps; ok is false (with the reason) when there
// is no honest interval.
func measureInterval(f *basis, reps []repFigure, m Measure) (value, hw float64, ok bool, why string) {
	if m.IsShare() {
		return shareInterval(f, reps, m)
	}
	if f.resp.N == 0 {
		return math.NaN(), math.NaN(), false, noneCompleted(f)
	}
	if m == MeasureMean {
		value, hw = f.resp.Mean, f.resp.CIHalfWidth95
		if math.IsNaN(hw) {
			if f.resp.NoCIWhy != "" {
				return value, hw, false, f.resp.NoCIWhy
			}
			return value, hw, false, "too few observations for an interval of the mean"
		}
		return value, hw, true, ""
	}
	return percentileInterval(f, reps, m)
}

// noneCompleted says why there is no response time: no request completed,
// and what became of those that finished ("no request completed: all
// 20,042 were abandoned").
func noneCompleted(f *basis) string {
	switch {
	case f.failed > 0 && f.abandoned > 0:
		return fmt.Sprintf("no request completed: of the %s that finished, %s failed and %s were abandoned", numtext.Group(f.failed+f.abandoned), numtext.Group(f.failed), numtext.Group(f.abandoned))
	case f.failed > 0:
		return fmt.Sprintf("no request completed: all %s that finished failed", numtext.Group(f.failed))
	case f.abandoned > 0:
		return fmt.Sprintf("no request completed: all %s that finished were abandoned", numtext.Group(f.abandoned))
	}
	return "no request completed"
}

// percentileOf is the point estimate of a percentile measure.
func percentileOf(s *engine.Summary, m Measure) float64 {
	switch m {
	case MeasureP50:
		return s.P50
	case MeasureP90:
		return s.P90
	case MeasureP95:
		return s.P95
	case MeasureP99:
		return s.P99
	}
	return math.NaN()
}

// runPercentileHalfWidth is the 95% half-width of a percentile in s, NaN
// when there is none: Summary's P50CIHalfWidth95 to P99CIHalfWidth95, the
// engine's (stats.Percentiles: batch means of the indicator at the
// estimate, in a run and pooled over replications) or, where it has none,
// Student t across replications (replicationPercentiles). One replication
// has none for p50 and p90 of times too spread for the engine's window,
// nor for a percentile with too few requests beyond it.
func runPercentileHalfWidth(s *engine.Summary, m Measure) float64 {
	hw := math.NaN()
	switch m {
	case MeasureP50:
		hw = s.P50CIHalfWidth95
	case MeasureP90:
		hw = s.P90CIHalfWidth95
	case MeasureP95:
		hw = s.P95CIHalfWidth95
	case MeasureP99:
		hw = s.P99CIHalfWidth95
	}
	// A figure of 0 is a Summary made without the interval (a zero value),
	// not a sample with no spread.
	if !(hw > 0) {
		return math.NaN()
	}
	return hw
}

// percentileInterval returns a percentile of response time and the
// half-width of its 95% interval, the one the results show (it takes in
// the histogram's relative error): runPercentileHalfWidth (the engine's, or where
// it has none Student t across the replications, set when they were
// pooled: replicationPercentiles); without one it returns ok=false and
// says why.
func percentileInterval(f *basis, reps []repFigure, m Measure) (value, hw float64, ok bool, why string) {
	value = percentileOf(&f.resp, m)
	if h := runPercentileHalfWidth(&f.resp, m); !math.IsNaN(h) {
		return value, h, true, ""
	}
	q := m.quantile()
	if len(reps) >= 2 {
		fewest := int64(math.MaxInt64)
		for _, rep := range reps {
			fewest = min(fewest, rep.completed)
		}
		if !replicationTailEnough(fewest, q) {
			return value, math.NaN(), false, fmt.Sprintf("no confidence interval for the %s across %d replications: one completed %s requests, too few for its own %s to count (%s are needed, %d beyond the %s, in each); more observations would decide",
				m, len(reps), numtext.Group(fewest), m, numtext.Group(int64(math.Ceil(MinReplicationTail/min(q, 1-q)-1e-6))), MinReplicationTail, m)
		}
	}
	if !stats.EnoughBeyond(f.resp.N, q) {
		// Replications of this length decide only if each has enough
		// beyond the percentile for its own to count (MinReplicationTail).
		more := "more observations, or Replications 2 or more, would decide"
		if !replicationTailEnough(f.resp.N, q) {
			more = "more observations would decide"
		}
		return value, math.NaN(), false, fmt.Sprintf("no confidence interval for the %s of one replication: %s completed requests are too few for one (%s are needed, %s beyond the %s); %s",
			m, numtext.Group(int64(f.resp.N)), numtext.Group(int64(math.Ceil(stats.MinTailObservations/min(q, 1-q)-1e-6))), numtext.Group(int64(stats.MinTailObservations)), m, more)
	}
	return value, math.NaN(), false, fmt.Sprintf("no confidence interval for the %s of one replication (its response times spread too widely, from the median to p99, for the run to give one); set Replications to 2 or more", m)
}

// shareInterval returns the failed or abandoned share of finished requests
// and its 95% half-width: Student t across replications when there are two
// or more, else the batch means of the outcome indicators. With no such
// outcome at all the half-width is at least 3/n (the one-sided 95% bound
// for zero events in n), so that "none seen" never claims "none happen".
func shareInterval(f *basis, reps []repFigure, m Measure) (value, hw float64, ok bool, why string) {
	fin := f.completed + f.failed + f.abandoned
	if fin == 0 {
		return math.NaN(), math.NaN(), false, "no request finished"
	}
	count, batchHW := f.failed, f.failedCI
	if m == MeasureAbandoned {
		count, batchHW = f.abandoned, f.abandonedCI
	}
	value = float64(count) / float64(fin)
	if len(reps) >= 2 {
		shares := make([]float64, 0, len(reps))
		for _, rep := range reps {
			if rep.finished == 0 {
				continue
			}
			c := rep.failed
			if m == MeasureAbandoned {
				c = rep.abandoned
			}
			shares = append(shares, float64(c)/float64(rep.finished))
		}
		hw = stats.ReplicationCI(shares, 0.95).HalfWidth // NaN with fewer than 2
	} else {
		hw = batchHW
	}
	if math.IsNaN(hw) {
		if len(reps) <= 1 && fin >= 10*stats.MinEffective {
			return value, hw, false, "no interval of the share: its outcomes are so clustered in time (as failures from time-outs and users giving up are, in bursts while a queue is long) that the run saw too few bursts, or is worth too few independent observations, to tell how often they come; run longer, or set Replications to 2 or more"
		}
		return value, hw, false, "too few observations for an interval of the share"
	}
	if count == 0 {
		hw = math.Max(hw, 3/float64(fin))
	}
	return value, hw, true, ""
}

// repFigures are one replication's figures that intervals across
// replications need: of all requests, and of each entity's (in Model
// order).
type repFigures struct {
	all    repFigure
	ents   []repFigure
	stable bool
}

// repFigure are the figures of all requests, or of one entity's, in one
// replication.
type repFigure struct {
	completed, failed, abandoned, finished int64
	// resp holds the replication's percentiles (P50..P99) only.
	resp engine.Summary
}

func figureOf(completed, failed, abandoned int64, s *engine.Summary) repFigure {
	return repFigure{
		completed: completed, failed: failed, abandoned: abandoned,
		finished: completed + failed + abandoned,
		resp:     engine.Summary{P50: s.P50, P90: s.P90, P95: s.P95, P99: s.P99},
	}
}

func figuresOf(r *engine.Result) repFigures {
	out := repFigures{all: figureOf(r.Completed, r.Failed, r.Abandoned, &r.Response), stable: r.Stable}
	for i := range r.Entities {
		e := &r.Entities[i]
		out.ents = append(out.ents, figureOf(e.Completed, e.Failed, e.Abandoned, &e.Response))
	}
	return out
}
