package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/engine/dist"
)

// mm1Plan is an M/M/c model on the application server with two scenarios
// (capacity 2 and 3) over two loads.
func mm1Plan(reps int, obs int64) *Plan {
	model := func(capacity int) *engine.Model {
		return &engine.Model{
			Name: "mmc", TimeUnit: "s", Loads: []string{"low", "high"},
			App: engine.AppConfig{Servers: 1, Capacity: capacity},
			Services: []engine.Service{{Name: "Work", Steps: []engine.Step{
				{Name: "Process", Kind: engine.Local, ProcTime: dist.MustParse("Exp(1)"), OnSuccess: engine.Done, OnFailure: engine.Fail},
			}}},
			Entities: []engine.Entity{{Name: "Job",
				InterArrival: []engine.Dist{dist.MustParse("Exp(1)"), dist.MustParse("Exp(0.6)")},
				Stages:       []engine.Stage{{Service: 0, OnSuccess: engine.End, OnFailure: engine.Exit}}}},
		}
	}
	rs := RunSettings{Seed: 3, WarmUp: 50, Observations: obs, Replications: reps, Loads: []int{0, 1}}
	return &Plan{Model: "mmc", TimeUnit: "s", Scenarios: []Scenario{
		{Name: "two", Model: model(2), Run: rs},
		{Name: "three", Model: model(3), Run: rs},
	}}
}

func figures(st *Study) string {
	out := ""
	for _, r := range st.Runs {
		r.WallSeconds = 0
		out += fmt.Sprintf("%s %s %+v %+v %v\n", r.Scenario, r.Load, r.Result.Response, r.Result.Servers, r.Diff)
	}
	return out
}

func TestResultsDoNotDependOnJobs(t *testing.T) {
	var want string
	for _, jobs := range []int{1, 2, 5} {
		st, err := Execute(context.Background(), mm1Plan(3, 5000), Options{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		got := figures(st)
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("jobs=%d gave other results:\n%s\nwant\n%s", jobs, got, want)
		}
	}
}

func TestPairedDifferenceIsNarrower(t *testing.T) {
	for _, reps := range []int{1, 5} {
		st, err := Execute(context.Background(), mm1Plan(reps, 20_000), Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Runs) != 4 || st.Runs[0].Diff != nil {
			t.Fatalf("runs: %+v", st.Runs)
		}
		for i := 2; i < 4; i++ {
			r, b := st.Runs[i], st.Runs[i-2]
			if r.Diff == nil {
				t.Fatalf("no difference for %s %s", r.Scenario, r.Load)
			}
			sep := math.Hypot(r.Result.Response.CIHalfWidth95, b.Result.Response.CIHalfWidth95)
			if !(r.Diff.HalfWidth95 < sep) {
				t.Errorf("reps=%d %s: paired half-width %v not below separate %v", reps, r.Load, r.Diff.HalfWidth95, sep)
			}
			if math.Abs(r.Diff.Mean-(r.Result.Response.Mean-b.Result.Response.Mean)) > 0.05*math.Abs(r.Diff.Mean)+1e-9 {
				t.Errorf("diff %v vs means %v - %v", r.Diff.Mean, r.Result.Response.Mean, b.Result.Response.Mean)
			}
			// Three units beat two: the difference is negative and significant.
			if r.Diff.Mean+r.Diff.HalfWidth95 >= 0 {
				t.Errorf("reps=%d %s: diff %v ± %v, want below 0", reps, r.Load, r.Diff.Mean, r.Diff.HalfWidth95)
			}
		}
	}
}

func TestTargetPrecisionExtendsRuns(t *testing.T) {
	p := mm1Plan(1, 2000)
	for i := range p.Scenarios {
		p.Scenarios[i].Run.TargetPrecision = 0.02
	}
	st, err := Execute(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Runs {
		res := r.Result.Response
		if !r.PrecisionCapHit && res.CIHalfWidth95 > 0.02*res.Mean {
			t.Errorf("%s %s: half-width %v above 2%% of %v and no cap hit", r.Scenario, r.Load, res.CIHalfWidth95, res.Mean)
		}
		if r.Result.Completed <= 2000 {
			t.Errorf("%s %s: run was not extended (%d completed)", r.Scenario, r.Load, r.Result.Completed)
		}
	}
	// Each pass goes on from where the last stopped: the figures are
	// those of one run of the final length.
	one := mm1Plan(1, 2000)
	for i, r := range st.Runs {
		sc := &one.Scenarios[i/len(one.Scenarios[0].Run.Loads)]
		n := r.Result.Completed + r.Result.Failed + r.Result.Abandoned
		want, err := engine.Run(sc.Model, engine.RunConfig{Load: sc.Run.Loads[i%2], Seed: sc.Run.Seed, WarmUp: sc.Run.WarmUp, Observations: n})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%+v %v", r.Result.Response, r.Result.SimTime); got != fmt.Sprintf("%+v %v", want.Response, want.SimTime) {
			t.Errorf("%s %s extended to %d: %s, one run of %d: %+v %v", r.Scenario, r.Load, n, got, n, want.Response, want.SimTime)
		}
	}
	p = mm1Plan(1, 200)
	for i := range p.Scenarios {
		p.Scenarios[i].Run.TargetPrecision = 0.0001
	}
	st, err = Execute(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Runs[0].PrecisionCapHit {
		t.Error("an unreachable precision did not hit the cap")
	}
}

func TestMSERFindsTheTransient(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	ys := make([]float64, 2000)
	for i := range ys {
		ys[i] = r.NormFloat64()
		if i < 150 {
			ys[i] += 10 * float64(150-i) / 150
		}
	}
	d := MSER(ys)
	if d < 100 || d > 200 {
		t.Errorf("MSER truncated %d values; the transient is 150 long", d)
	}
	if d := MSER(ys[300:]); d > 100 {
		t.Errorf("MSER truncated %d values of a stationary series", d)
	}
}

func TestAutoWarmUp(t *testing.T) {
	p := mm1Plan(1, 20_000)
	for i := range p.Scenarios {
		p.Scenarios[i].Run.AutoWarmUp = true
	}
	st, err := Execute(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Runs {
		if r.Result.WarmUp < 0 || r.Result.WarmUp > r.Result.SimTime/2 {
			t.Errorf("%s %s: warm-up %v of %v", r.Scenario, r.Load, r.Result.WarmUp, r.Result.SimTime)
		}
	}
}

type failingRate struct{}

func (failingRate) Number(*engine.EvalContext) (float64, error) {
	return 0, fmt.Errorf("SuccessRate gave 1.5, expected 0..1")
}

func TestAFailingRunIsReportedNotTheCancelledOnes(t *testing.T) {
	for range 5 {
		p := mm1Plan(2, 20_000)
		bad := *p.Scenarios[1].Model
		bad.Services = []engine.Service{{Name: "Work", Steps: []engine.Step{
			{Name: "Process", Kind: engine.Local, ProcTime: dist.MustParse("Exp(1)"), SuccessRate: failingRate{},
				OnSuccess: engine.Done, OnFailure: engine.Fail, Cell: "ProcData.xlsx!Work!A2"},
		}}}
		p.Scenarios[1].Model = &bad
		_, err := Execute(context.Background(), p, Options{Jobs: 2})
		var re *engine.RunError
		if !errors.As(err, &re) {
			t.Fatalf("error %v, want the run's *engine.RunError", err)
		}
		if re.Scenario != "three" || !strings.Contains(err.Error(), "ProcData.xlsx!Work!A2") {
			t.Errorf("error %q", err)
		}
	}
}

// A run that TargetPrecision cannot bring to its precision within the cap
// is named in one warning of the study, with the precision it reached;
// finishing the study again (a merge) gives the same warnings.
func TestTargetPrecisionNotReachedIsWarned(t *testing.T) {
	p := mm1Plan(1, 500)
	p.Warnings = []string{"a warning of the plan"}
	for i := range p.Scenarios {
		p.Scenarios[i].Run.TargetPrecision = 0.0001 // never within 16 × 500 observations
	}
	st, err := Execute(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var precision []string
	for _, w := range st.Warnings {
		if strings.HasPrefix(w, PrecisionWarning) {
			precision = append(precision, w)
		}
	}
	if len(precision) != 1 || len(st.Warnings) != 2 {
		t.Fatalf("warnings %q, want the plan's and one of precision", st.Warnings)
	}
	for _, r := range st.Runs {
		if !r.PrecisionCapHit || !strings.Contains(precision[0], r.Scenario+" at "+r.Load+" (±") {
			t.Errorf("%s at %s: cap hit %v, not named in %q", r.Scenario, r.Load, r.PrecisionCapHit, precision[0])
		}
	}
	before := fmt.Sprint(st.Warnings)
	finish(st)
	if fmt.Sprint(st.Warnings) != before || len(p.Warnings) != 1 {
		t.Errorf("finished again: %q (before %q); the plan's %q", st.Warnings, before, p.Warnings)
	}
}

// TestCountPastTheLimitIsWarned: runs whose Count passed engine.MaxCount
// give one warning per Count cell, with the times summed and the runs
// named, once however often the study is finished (a merge of shards).
func TestCountPastTheLimitIsWarned(t *testing.T) {
	st := &Study{Scenarios: []string{"Base", "Big"}, Warnings: []string{"a warning of the plan"}, Runs: []Run{
		{Scenario: "Base", Load: "L1", Result: engine.Result{CountOverLimit: 3, CountOverLimitAt: map[string]int64{"ProcData.xlsx!Top!D2": 3}}},
		{Scenario: "Base", Load: "L2"},
		{Scenario: "Big", Load: "L1", Result: engine.Result{CountOverLimit: 1004, CountOverLimitAt: map[string]int64{"ProcData.xlsx!Top!D2": 1000, "ProcData.xlsx!Fan!D5": 4}}},
		{Scenario: "Big", Load: "L2", Result: engine.Result{CountOverLimit: 1, CountOverLimitAt: map[string]int64{"ProcData.xlsx!Fan!D5": 1}}},
	}}
	want := []string{
		"a warning of the plan",
		"ProcData.xlsx!Fan!D5: Count gave more than 10,000, the limit, 5 times (Big at L1, Big at L2): each time its Nested step failed",
		"ProcData.xlsx!Top!D2: Count gave more than 10,000, the limit, 1,003 times (Base at L1, Big at L1)",
	}
	for pass := range 2 {
		finish(st)
		if len(st.Warnings) != len(want) {
			t.Fatalf("pass %d: warnings %q, want %d", pass, st.Warnings, len(want))
		}
		for i, w := range want {
			if !strings.HasPrefix(st.Warnings[i], w) {
				t.Errorf("pass %d: warning %d %q, want it to begin %q", pass, i, st.Warnings[i], w)
			}
		}
		for i, w := range st.Warnings {
			if RunWarning(w) != (i > 0) {
				t.Errorf("RunWarning(%q) = %v", w, !(i > 0))
			}
		}
	}
}

// TestNoDifferenceIntervalFromARunWithoutOne: a run whose batch means are
// worth too few independent observations for an interval of its mean has
// none for its difference from the first scenario either.
func TestNoDifferenceIntervalFromARunWithoutOne(t *testing.T) {
	mk := func(why string) *Run {
		r := &Run{replicationMeans: []float64{1}, batchMeans: []float64{1, 2, 3, 4, 5, 6, 7, 8}, batchSize: 10}
		r.Result.Response.Mean, r.Result.Response.NoCIWhy = 4.5, why
		return r
	}
	if d := Compare(mk(""), mk("")); !(d.HalfWidth95 >= 0) {
		t.Errorf("both with intervals: %+v, want a paired interval", d)
	}
	if d := Compare(mk("the run is worth only about 5 independent observations"), mk("")); !math.IsNaN(d.HalfWidth95) || d.Mean != 0 {
		t.Errorf("one without: %+v, want the difference without an interval", d)
	}
}

// TestTargetPrecisionAcrossReplicationsIsWarned: TargetPrecision extends
// each replication until its own interval is within it; with several, the
// interval across them (Student t over 3 means, 2 degrees of freedom) may
// be wider, and the study says so, naming the runs, though no cap was hit.
func TestTargetPrecisionAcrossReplicationsIsWarned(t *testing.T) {
	p := mm1Plan(3, 2000)
	for i := range p.Scenarios {
		p.Scenarios[i].Run.TargetPrecision = 0.05
	}
	st, err := Execute(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, r := range st.Runs {
		if resp := r.Result.Response; !r.PrecisionCapHit && resp.CIHalfWidth95 > 0.05*resp.Mean {
			named = append(named, r.Scenario+" at "+r.Load+" (±")
		}
	}
	if len(named) == 0 {
		t.Fatal("no run wider than asked across its replications: the test needs another seed")
	}
	var across string
	for _, w := range st.Warnings {
		if strings.HasPrefix(w, PrecisionWarning+" across the replications") {
			across = w
		}
	}
	for _, n := range named {
		if !strings.Contains(across, n) {
			t.Errorf("%q not named in %q", n, across)
		}
	}
	for _, r := range st.Runs {
		if resp := r.Result.Response; resp.CIHalfWidth95 <= 0.05*resp.Mean && strings.Contains(across, r.Scenario+" at "+r.Load+" (") {
			t.Errorf("%s at %s is within the precision but named in %q", r.Scenario, r.Load, across)
		}
	}
}

// TestTargetPrecisionReachedAcrossReplications: a replication that stops
// at the cap before its own interval is within TargetPrecision does not
// make the run one that missed it when the interval across the
// replications, the one the figures report, is within it: no warning, no
// cap hit. (The warning quoted a figure within the precision asked.)
func TestTargetPrecisionReachedAcrossReplications(t *testing.T) {
	// The first replication alone, at the cap: the precision it reaches.
	one := mm1Plan(1, 500)
	one.Scenarios = one.Scenarios[:1]
	one.Scenarios[0].Run.Loads = []int{0}
	one.Scenarios[0].Run.TargetPrecision = 1e-9
	st, err := Execute(context.Background(), one, Options{})
	if err != nil {
		t.Fatal(err)
	}
	resp := st.Runs[0].Result.Response
	alone := resp.CIHalfWidth95 / resp.Mean
	// Asked a little less, the first replication stops at the cap; the
	// interval across four is narrower.
	p := mm1Plan(4, 500)
	p.Scenarios = p.Scenarios[:1]
	p.Scenarios[0].Run.Loads = []int{0}
	p.Scenarios[0].Run.TargetPrecision = 0.9 * alone
	st, err = Execute(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := st.Runs[0]
	pooled := r.Result.Response.CIHalfWidth95 / r.Result.Response.Mean
	if !(pooled <= 0.9*alone) {
		t.Fatalf("across the replications ±%.3g%%, asked ±%.3g%%: the test needs another seed", 100*pooled, 90*alone)
	}
	if r.PrecisionCapHit {
		t.Errorf("cap hit, with the interval across the replications ±%.3g%% within the ±%.3g%% asked", 100*pooled, 90*alone)
	}
	for _, w := range st.Warnings {
		if strings.HasPrefix(w, PrecisionWarning) {
			t.Errorf("warning %q, with the interval ±%.3g%% within the ±%.3g%% asked", w, 100*pooled, 90*alone)
		}
	}
}

// TestUnstablePoolSaysWhatItsFiguresAre: the reason of a pool that is not
// stable names one replication ("deadlocked ... so this run collected no
// figures"), and the figures beside it pool them all: the reason says so,
// and how many were not stable, and the timeline is the unstable one's.
func TestUnstablePoolSaysWhatItsFiguresAre(t *testing.T) {
	rep := func(i int, stable bool) outcome {
		r := &engine.Result{Replication: i, TimelineReplication: i, Replications: 1, Stable: stable,
			Completed: 100, Response: engine.Summary{N: 100, Mean: 1},
			Timeline: []engine.TimelineInterval{{Start: 0, End: 1, Completed: int64(i)}}}
		if !stable {
			r.Unstable = "application server App1 deadlocked at 3 s, so this run collected no figures"
		}
		return outcome{res: r, finished: true}
	}
	run := &Run{Replications: 3}
	pool(run, []outcome{rep(0, true), rep(1, false), rep(2, true)})
	want := "replication 2: application server App1 deadlocked at 3 s, so this run collected no figures (the figures pool all 3 replications; 1 of them not stable)"
	if run.Result.Stable || run.Result.Unstable != want {
		t.Errorf("reason %q; want %q", run.Result.Unstable, want)
	}
	if run.Result.TimelineReplication != 1 || run.Result.Timeline[0].Completed != 1 {
		t.Errorf("timeline of replication %d; want 2's", run.Result.TimelineReplication+1)
	}
	single := &Run{Replications: 1}
	pool(single, []outcome{rep(0, false)})
	if got := single.Result.Unstable; got != rep(0, false).res.Unstable {
		t.Errorf("a single run's reason %q; want it unchanged", got)
	}
}
