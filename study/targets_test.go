package study

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/engine/dist"
	"github.com/websim/websim/internal/numtext"
)

// twoEntityPlan has two request types on an application server with
// units to spare (no queue, so that a response is its service time): A
// arrives at rate 1, takes Exp(1) and fails with probability 0.1; B
// arrives at rate 1, takes Exp(0.2) and never fails. All requests together
// have a mean response near (1 + 0.2)/2 and 5% failed: a target judged
// from the totals gives other verdicts than one judged from its entity.
func twoEntityPlan(reps int, obs int64) *Plan {
	local := func(name, proc string, success float64) engine.Service {
		return engine.Service{Name: name, Steps: []engine.Step{{
			Name: "Process", Kind: engine.Local, ProcTime: dist.MustParse(proc),
			SuccessRate: engine.Const(success), OnSuccess: engine.Done, OnFailure: engine.Fail,
		}}}
	}
	entity := func(name string, service int) engine.Entity {
		return engine.Entity{Name: name, InterArrival: []engine.Dist{dist.MustParse("Exp(1)")},
			Stages: []engine.Stage{{Service: service, OnSuccess: engine.End, OnFailure: engine.Exit}}}
	}
	m := &engine.Model{
		Name: "two", TimeUnit: "s", Loads: []string{"L"},
		App:      engine.AppConfig{Servers: 1, Capacity: 40},
		Services: []engine.Service{local("WorkA", "Exp(1)", 0.9), local("WorkB", "Exp(0.2)", 1)},
		Entities: []engine.Entity{entity("A", 0), entity("B", 1)},
	}
	rs := RunSettings{Seed: 7, WarmUp: 20, Observations: obs, Replications: reps, Loads: []int{0}}
	return &Plan{Model: "two", TimeUnit: "s", Scenarios: []Scenario{{Name: "Base", Model: m, Run: rs}}}
}

func runOf(t *testing.T, p *Plan) *Run {
	t.Helper()
	st, err := Execute(context.Background(), p, Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	return &st.Runs[0]
}

type verdictCase struct {
	target Target
	want   Verdict
}

func checkVerdicts(t *testing.T, run *Run, cases []verdictCase) []TargetResult {
	t.Helper()
	targets := make([]Target, len(cases))
	for i, c := range cases {
		targets[i] = c.target
	}
	rs := Judge(targets, run)
	for i, c := range cases {
		if r := rs[i]; r.Verdict != c.want {
			t.Errorf("%s: %s (%.4g ± %.3g; %s), want %s", c.target, r.Verdict, r.Value, r.HalfWidth95, r.Why, c.want)
		}
	}
	return rs
}

// TestEntityTargetsOneRun judges targets that name an entity from that
// entity's figures of one run: its mean with its batch-means interval, its
// percentiles with the engine's, and its failed share with the batch means
// of its own outcomes.
func TestEntityTargetsOneRun(t *testing.T) {
	// 250,000 observations: A completes about 112,000, enough beyond its
	// p99 for an interval (stats.MinTailObservations).
	run := runOf(t, twoEntityPlan(1, 250_000))
	rs := checkVerdicts(t, run, []verdictCase{
		{Target{Entity: "B", Measure: MeasureMean, Limit: 0.3}, Holds},
		{Target{Measure: MeasureMean, Limit: 0.3}, Fails}, // all requests: about 0.6
		{Target{Entity: "A", Measure: MeasureMean, Limit: 0.9}, Fails},
		{Target{Entity: "A", Measure: MeasureFailed, Limit: 0.12}, Holds},
		{Target{Entity: "A", Measure: MeasureFailed, Limit: 0.08}, Fails},
		{Target{Measure: MeasureFailed, Limit: 0.08}, Holds}, // all requests: about 5%
		{Target{Entity: "B", Measure: MeasureFailed, Limit: 0.001}, Holds},
		{Target{Entity: "A", Measure: MeasureAbandoned, Limit: 0.001}, Holds},
		// Percentiles of one run, with the engine's intervals. B's p95 is
		// 0.2·ln 20 ≈ 0.599, A's ln 20 ≈ 3.0, all requests' about 2.4;
		// B's p90 is 0.2·ln 10 ≈ 0.461, A's p50 ln 2 ≈ 0.693.
		{Target{Entity: "B", Measure: MeasureP95, Limit: 0.7}, Holds},
		{Target{Measure: MeasureP95, Limit: 0.7}, Fails},
		{Target{Entity: "A", Measure: MeasureP99, Limit: 4}, Fails},
		{Target{Entity: "B", Measure: MeasureP90, Limit: 10}, Holds},
		{Target{Entity: "A", Measure: MeasureP50, Limit: 0.6}, Fails},
	})
	// The figures are the entity's, and they agree with theory: A's mean
	// service time 1, its failed share 0.1, B's mean 0.2.
	for _, c := range []struct {
		r    TargetResult
		want float64
	}{{rs[0], 0.2}, {rs[2], 1}, {rs[3], 0.1}, {rs[8], 0.2 * math.Log(20)}, {rs[10], math.Log(100)}, {rs[11], 0.2 * math.Log(10)}, {rs[12], math.Log(2)}} {
		if math.Abs(c.r.Value-c.want) > 1.5*c.r.HalfWidth95+0.005*c.want || c.r.HalfWidth95 <= 0 {
			t.Errorf("%s: %.4f ± %.4f, theory %.4f", c.r.Target, c.r.Value, c.r.HalfWidth95, c.want)
		}
	}
	a := &run.Result.Entities[0]
	if share := float64(a.Failed) / float64(a.Completed+a.Failed+a.Abandoned); rs[3].Value != share {
		t.Errorf("A's failed share %.5f, its figures say %.5f", rs[3].Value, share)
	}
	// Binomial half-width of A's failed share over its ~20,000 requests.
	n := float64(a.Completed + a.Failed)
	if b := 1.96 * math.Sqrt(0.1*0.9/n); rs[3].HalfWidth95 < 0.5*b || rs[3].HalfWidth95 > 2*b {
		t.Errorf("A's failed share ± %.5f, binomial ± %.5f", rs[3].HalfWidth95, b)
	}
	// B never fails: the half-width is 3/n of B's requests, not of all.
	b := &run.Result.Entities[1]
	if nb := float64(b.Completed); math.Abs(rs[6].HalfWidth95-3/nb) > 1e-12 {
		t.Errorf("B's failed share ± %.6f, want 3/%g", rs[6].HalfWidth95, nb)
	}
}

// TestEntityTargetsReplications judges an entity's percentiles and shares
// across replications of its own figures. Without queueing, B's p95 is its
// service time's, 0.2·ln 20 ≈ 0.599, and A's ln 20 ≈ 3.0.
func TestEntityTargetsReplications(t *testing.T) {
	run := runOf(t, twoEntityPlan(4, 20_000))
	rs := checkVerdicts(t, run, []verdictCase{
		{Target{Entity: "B", Measure: MeasureP95, Limit: 0.7}, Holds},
		{Target{Entity: "B", Measure: MeasureP95, Limit: 0.5}, Fails},
		{Target{Entity: "A", Measure: MeasureP95, Limit: 2.5}, Fails},
		{Target{Measure: MeasureP95, Limit: 0.7}, Fails},
		{Target{Entity: "A", Measure: MeasureFailed, Limit: 0.13}, Holds},
		{Target{Entity: "A", Measure: MeasureFailed, Limit: 0.07}, Fails},
		{Target{Entity: "B", Measure: MeasureMean, Limit: 0.25}, Holds},
	})
	for _, c := range []struct {
		r    TargetResult
		want float64
	}{{rs[0], 0.2 * math.Log(20)}, {rs[2], math.Log(20)}, {rs[4], 0.1}, {rs[6], 0.2}} {
		if math.IsNaN(c.r.HalfWidth95) || math.Abs(c.r.Value-c.want) > 1.5*c.r.HalfWidth95+0.01*c.want {
			t.Errorf("%s: %.4f ± %.4f, theory %.4f", c.r.Target, c.r.Value, c.r.HalfWidth95, c.want)
		}
	}
	// The p95 judged is the one the results show, the pooled replications'
	// (with the engine's pooled interval), not a mean of the replications'.
	if b := run.Result.Entities[1].Response; rs[0].Value != b.P95 || rs[0].HalfWidth95 != b.P95CIHalfWidth95 {
		t.Errorf("B's p95 %.5f ± %.5f, its pooled figures %.5f ± %.5f", rs[0].Value, rs[0].HalfWidth95, b.P95, b.P95CIHalfWidth95)
	}
}

// TestEntityTargetWithoutFigures: a run without figures for the entity
// (a hand-made one) leaves the target undecided and says why; the model's
// only entity is judged from the totals.
func TestEntityTargetWithoutFigures(t *testing.T) {
	run := &Run{Result: engine.Result{Stable: true, Completed: 1000, Response: engine.Summary{N: 1000, Mean: 0.5, CIHalfWidth95: 0.01}}}
	rs := Judge([]Target{
		{Entity: "A", Measure: MeasureMean, Limit: 1},
		{Entity: "Job", Measure: MeasureMean, Limit: 1, OnlyEntity: true},
	}, run)
	if rs[0].Verdict != Undecided || rs[0].Why != "the run has no figures for entity A" {
		t.Errorf("%+v", rs[0])
	}
	if rs[1].Verdict != Holds {
		t.Errorf("%+v", rs[1])
	}
}

// TestTargetOfAnAbsentEntity: a target on an entity that does not arrive at
// the run's load (None) does not apply there: it holds, says why, and does
// not leave the run's verdict (or size's answer) undecided; a run with no
// steady state still fails it.
func TestTargetOfAnAbsentEntity(t *testing.T) {
	run := &Run{Result: engine.Result{Stable: true, Completed: 1000, Response: engine.Summary{N: 1000, Mean: 0.5, CIHalfWidth95: 0.01},
		Entities: []engine.EntityResult{{Name: "Browse", Completed: 1000}, {Name: "Buy", Absent: true}}}}
	targets := []Target{{Entity: "Buy", Measure: MeasureMean, Limit: 2}, {Measure: MeasureMean, Limit: 1}}
	rs := Judge(targets, run)
	if rs[0].Verdict != Holds || rs[0].Why != "Buy does not arrive at this load (None): the target does not apply" || Overall(rs) != Holds {
		t.Errorf("%+v, overall %v", rs[0], Overall(rs))
	}
	run.Result.Entities[1].Absent = false // arrives, but no request completed
	if rs := Judge(targets, run); rs[0].Verdict != Undecided {
		t.Errorf("an entity that arrives without a completed request: %+v", rs[0])
	}
	run.Result.Entities[1].Absent = true
	run.Result.Stable, run.Result.Unstable = false, "deadlocked"
	if rs := Judge(targets, run); rs[0].Verdict != Fails || rs[0].Why != NotStableWhy+"deadlocked" {
		t.Errorf("not stable: %+v", rs[0])
	}
}

func ExampleTarget_String() {
	fmt.Println(Target{Entity: "ASUM", Measure: MeasureP95, Limit: 1000})
	fmt.Println(Target{Measure: MeasureFailed, Limit: 0.01})
	// Output:
	// p95 response of ASUM ≤ 1000
	// failed share of all requests ≤ 1%
}

// TestSpreadPercentileUndecidedInOneRun: response times spread over more
// powers of two, from the median to p99, than the engine's window holds
// (log-normal with σ 2 in logs: 6.7 powers of two) leave the median of one
// replication without an interval; its target is undecided and says why,
// while p95 and p99 keep theirs.
func TestSpreadPercentileUndecidedInOneRun(t *testing.T) {
	p := twoEntityPlan(1, 120_000) // enough beyond p99 for its interval
	m := p.Scenarios[0].Model
	m.Services[1].Steps[0].ProcTime = dist.MustParse("LogNormal(1, 7.32)")
	m.Entities = m.Entities[1:] // B only
	run := runOf(t, p)
	rs := checkVerdicts(t, run, []verdictCase{
		{Target{Measure: MeasureP50, Limit: 100}, Undecided},
		{Target{Measure: MeasureP95, Limit: 0.01}, Fails},
		{Target{Measure: MeasureP99, Limit: 1e6}, Holds},
	})
	if why := rs[0].Why; why != "no confidence interval for the p50 of one replication (its response times spread too widely, from the median to p99, for the run to give one); set Replications to 2 or more" {
		t.Errorf("why %q", why)
	}
}

// TestJudgeByOrder: a percentile target without an interval of its own is
// decided from another of the same requests, since p50 ≤ p90 ≤ p95 ≤ p99:
// it holds when a higher percentile holds at a limit no larger, and fails
// when a lower one fails at a limit no smaller; otherwise it stays
// undecided.
func TestJudgeByOrder(t *testing.T) {
	nan := math.NaN()
	res := func(m Measure, entity string, limit, hw float64, v Verdict) TargetResult {
		return TargetResult{Target: Target{Entity: entity, Measure: m, Limit: limit}, Value: 1, HalfWidth95: hw, Verdict: v}
	}
	tests := []struct {
		name string
		rs   []TargetResult
		want Verdict
	}{
		{"p90 holds at the same limit", []TargetResult{res(MeasureP50, "", 2, nan, Undecided), res(MeasureP90, "", 2, 0.1, Holds)}, Holds},
		{"p99 holds at a smaller limit", []TargetResult{res(MeasureP90, "", 5, nan, Undecided), res(MeasureP99, "", 4, 0.3, Holds)}, Holds},
		{"p99 holds at a larger limit", []TargetResult{res(MeasureP50, "", 2, nan, Undecided), res(MeasureP99, "", 3, 0.3, Holds)}, Undecided},
		{"p50 fails at a larger limit", []TargetResult{res(MeasureP90, "", 1, nan, Undecided), res(MeasureP50, "", 1.5, 0.1, Fails)}, Fails},
		{"another entity's p90", []TargetResult{res(MeasureP50, "A", 2, nan, Undecided), res(MeasureP90, "B", 2, 0.1, Holds)}, Undecided},
		{"a mean is no percentile", []TargetResult{res(MeasureP50, "", 2, nan, Undecided), res(MeasureMean, "", 1, 0.1, Holds)}, Undecided},
		{"its own interval straddles", []TargetResult{res(MeasureP50, "", 2, 0.5, Undecided), res(MeasureP90, "", 2, 0.1, Holds)}, Undecided},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			byOrder(tc.rs)
			if got := tc.rs[0].Verdict; got != tc.want {
				t.Errorf("%s: %s (%s), want %s", tc.rs[0].Target, got, tc.rs[0].Why, tc.want)
			}
		})
	}
}

// TestUnstableRunHasNoIntervals: a run that is not stable keeps its
// figures but no half-width, in its response summaries, its entities' and
// its shares, as its targets and Measured rows have none.
func TestUnstableRunHasNoIntervals(t *testing.T) {
	p := twoEntityPlan(1, 5_000)
	// Arrivals at twice what 40 units of mean 1 (A) can serve.
	p.Scenarios[0].Model.Entities[0].InterArrival[0] = dist.MustParse("Exp(0.0125)")
	run := runOf(t, p)
	r := &run.Result
	if r.Stable {
		t.Fatal("the overloaded run is stable")
	}
	for _, s := range []engine.Summary{r.Response, r.AttemptResponse, r.Entities[0].Response, r.Entities[1].Response} {
		if !math.IsNaN(s.CIHalfWidth95) || !math.IsNaN(s.P50CIHalfWidth95) || !math.IsNaN(s.P99CIHalfWidth95) {
			t.Errorf("a summary of the unstable run keeps a half-width: %+v", s)
		}
		if s.N > 0 && math.IsNaN(s.Mean) {
			t.Errorf("a summary of the unstable run lost its mean: %+v", s)
		}
	}
	if !math.IsNaN(r.FailedCI95) || !math.IsNaN(r.Entities[0].FailedCI95) {
		t.Errorf("failed share half-widths %v, %v kept", r.FailedCI95, r.Entities[0].FailedCI95)
	}
}

// TestTooFewBeyondATailPercentile: one run of 20,000 requests has too few
// beyond its p99 for an interval (stats.MinTailObservations): the target
// is undecided and says so in numbers; with replications, Student t
// across them decides it.
func TestTooFewBeyondATailPercentile(t *testing.T) {
	target := Target{Entity: "B", Measure: MeasureP99, Limit: 2}
	run := runOf(t, twoEntityPlan(1, 40_000))
	r := Judge([]Target{target}, run)[0]
	if want := "no confidence interval for the p99 of one replication: "; r.Verdict != Undecided || !strings.HasPrefix(r.Why, want) ||
		!strings.Contains(r.Why, "completed requests are too few for one (100,000 are needed, 1,000 beyond the p99)") {
		t.Errorf("one run: %s, %q", r.Verdict, r.Why)
	}
	run = runOf(t, twoEntityPlan(3, 40_000))
	r = Judge([]Target{target}, run)[0]
	if r.Verdict != Holds { // B's p99 is 0.2·ln 100 ≈ 0.92
		t.Errorf("three replications: %s (%.4g ± %.3g; %s), want holds", r.Verdict, r.Value, r.HalfWidth95, r.Why)
	}
	// The results show the interval the target is judged by: Student t
	// across the replications' p99s, where the pooled run has none.
	b := run.Result.Entities[1].Response
	if !(b.P99CIHalfWidth95 > 0) || r.HalfWidth95 != b.P99CIHalfWidth95 {
		t.Errorf("B's p99 %.4f ± %.4f in the results, judged ± %.4f", b.P99, b.P99CIHalfWidth95, r.HalfWidth95)
	}
}

// TestTooFewNamesTheCountNeeded: the reason names the requests needed, and
// offers replications only where runs of this length would each have
// enough beyond the percentile for them to decide (MinReplicationTail):
// 4,000 requests have 400 beyond p90 and 200 beyond p95, but 40 beyond p99.
func TestTooFewNamesTheCountNeeded(t *testing.T) {
	run := runOf(t, twoEntityPlan(1, 4_000))
	for _, c := range []struct {
		m    Measure
		need string
		reps bool
	}{{MeasureP90, "(10,000 are needed, 1,000 beyond the p90)", true}, {MeasureP95, "(20,000 are needed", true}, {MeasureP99, "(100,000 are needed", false}} {
		r := Judge([]Target{{Measure: c.m, Limit: 100}}, run)[0]
		if !strings.Contains(r.Why, c.need) {
			t.Errorf("%s: %q, want %q", c.m, r.Why, c.need)
		}
		if got := strings.Contains(r.Why, "Replications 2 or more"); got != c.reps {
			t.Errorf("%s: %q offers replications: %v, want %v", c.m, r.Why, got, c.reps)
		}
	}
}

// A replication of exactly the requests MinReplicationTail asks for counts
// (1,000 for p90, though 1000·(1-0.9) falls a little short of 100 in
// floating point); one fewer does not.
func TestReplicationTailEnough(t *testing.T) {
	for _, c := range []struct {
		n    int64
		q    float64
		want bool
	}{{1000, 0.9, true}, {999, 0.9, false}, {10_000, 0.99, true}, {9_999, 0.99, false}, {200, 0.5, true}, {199, 0.5, false}} {
		if got := replicationTailEnough(c.n, c.q); got != c.want {
			t.Errorf("replicationTailEnough(%d, %g) = %v, want %v", c.n, c.q, got, c.want)
		}
	}
}

// A share limit of 0: one request of the kind seen proves the target
// fails; none seen cannot prove it holds (the interval reaches about
// 3/n), and the reason says so rather than promise that more observations
// would decide.
func TestShareLimitOfNone(t *testing.T) {
	run := runOf(t, twoEntityPlan(1, 20_000))
	rs := checkVerdicts(t, run, []verdictCase{
		{Target{Entity: "A", Measure: MeasureFailed, Limit: 0}, Fails},
		{Target{Entity: "B", Measure: MeasureFailed, Limit: 0}, Undecided},
		{Target{Measure: MeasureAbandoned, Limit: 0}, Undecided},
	})
	a := &run.Result.Entities[0]
	if want := numtext.Group(a.Failed) + " of the "; !strings.HasPrefix(rs[0].Why, want) || !strings.HasSuffix(rs[0].Why, "failed, where the limit 0% allows none") {
		t.Errorf("A: %q; want it to begin %q", rs[0].Why, want)
	}
	for _, r := range rs[1:] {
		if !strings.HasPrefix(r.Why, "none of the ") || strings.Contains(r.Why, "more observations") {
			t.Errorf("%s: %q", r.Target, r.Why)
		}
	}
}

// A limit is shown as typed, and the figure beside it with as many
// digits, so that the reader sees which side of it the interval lies.
func TestLimitShownAsTyped(t *testing.T) {
	run := runOf(t, twoEntityPlan(1, 20_000))
	b := run.Result.Entities[1].Response.Mean
	limit := math.Round(b*1e5) / 1e5 // B's mean to 5 decimals: undecided
	rs := Judge([]Target{{Entity: "B", Measure: MeasureMean, Limit: limit}, {Entity: "A", Measure: MeasureFailed, Limit: 0.012345}}, run)
	want := strconv.FormatFloat(limit, 'g', -1, 64)
	if !strings.Contains(rs[0].Why, "contains the limit "+want+":") || !strings.HasSuffix(rs[0].Target.String(), "≤ "+want) {
		t.Errorf("%s: %q; want the limit %s", rs[0].Target, rs[0].Why, want)
	}
	if !strings.Contains(rs[1].Why, "lies above the limit 1.2345%") || !strings.HasSuffix(rs[1].Target.String(), "≤ 1.2345%") {
		t.Errorf("%s: %q; want the limit 1.2345%%", rs[1].Target, rs[1].Why)
	}
}
