package engine

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/websim/websim/engine/stats"
)

// seqD draws its values in turn, over and over, whatever the generator.
type seqD struct {
	vals []float64
	i    *int
}

func newSeq(vals ...float64) seqD { return seqD{vals: vals, i: new(int)} }

func (d seqD) Sample(*rand.Rand) float64 {
	v := d.vals[*d.i%len(d.vals)]
	*d.i++
	return v
}
func (d seqD) Mean() float64  { return d.vals[0] }
func (d seqD) String() string { return fmt.Sprintf("Seq%v", d.vals) }

func TestLBSTiesGoRoundRobin(t *testing.T) {
	// Three idle servers at every arrival: every pick is a three-way tie,
	// so the requests go App1, App2, App3, App1, ... and each server gets
	// a third of them (lowest-number-first would give App1 all).
	m := oneService(constD(10), Step{Name: "Work", Kind: Local, ProcTime: constD(1)})
	m.App = AppConfig{Servers: 3, Capacity: 2, Selection: LeastBusy}
	var b bytes.Buffer
	r := run(t, m, RunConfig{Seed: 1, Observations: 300, Trace: &b, TraceLimit: 40})
	for i, a := range r.AppServers {
		if a.Jobs != 100 {
			t.Errorf("App%d got %d requests, want 100 of 300", i+1, a.Jobs)
		}
	}
	if !strings.Contains(b.String(), "Req#1              arrives, asks App1") || !strings.Contains(b.String(), "Req#2              arrives, asks App2") {
		t.Errorf("the first two requests should go to App1 then App2:\n%s", b.String())
	}
}

func TestLBSCountsQueuedRequests(t *testing.T) {
	// Two servers of one unit. Request 1 (100 s) takes App1, request 2
	// (2.5 s) App2; request 3 ties and queues at App1; request 4 queues at
	// App2 and starts there at 4.5. At 5 App1 has 2 requests (1 working, 1
	// queued) and App2 one: request 5 goes to App2, although both have one
	// busy unit and round robin alone would send it to App1.
	m := oneService(constD(1), Step{Name: "Work", Kind: Local, ProcTime: newSeq(100, 2.5, 100, 100, 100, 100)})
	m.App = AppConfig{Servers: 2, Capacity: 1, Selection: LeastBusy}
	var b bytes.Buffer
	_, err := Run(m, RunConfig{Seed: 1, Observations: 2, Trace: &b, TraceLimit: 60})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Req#1 ", "App1", "Req#2 ", "App2", "Req#3 ", "App1", "Req#4 ", "App2", "Req#5 ", "App2"}
	for i := 0; i < len(want); i += 2 {
		line := ""
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.Contains(l, want[i]) && strings.Contains(l, "arrives") {
				line = l
			}
		}
		if !strings.Contains(line, "asks "+want[i+1]) {
			t.Errorf("%s should go to %s: %q\n%s", want[i], want[i+1], line, b.String())
		}
	}
}

func TestLBSBeatsRandomWhenBusy(t *testing.T) {
	// Issue 10: on 2 servers of 1 unit at utilization 0.8, LBS by units
	// alone gave a mean response of 66 against Random's 5. Counting the
	// queue, LBS is join-the-shortest-queue: better than Random, whose
	// servers are two M/M/1 queues (mean 1/(1-0.8) = 5).
	model := func(rule SelectionRule) *Model {
		m := oneService(expD(1/1.6), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
		m.App = AppConfig{Servers: 2, Capacity: 1, Selection: rule}
		return m
	}
	cfg := RunConfig{Seed: 30, WarmUp: 100, Observations: 40_000}
	lbs, hw := replicate(t, model(LeastBusy), cfg, 6, func(r *Result) float64 { return r.Response.Mean })
	rnd, hwr := replicate(t, model(RandomServer), cfg, 6, func(r *Result) float64 { return r.Response.Mean })
	near(t, "Random mean response", rnd, hwr, 5, tol)
	if !(lbs+hw < rnd-hwr) || lbs > 4 {
		t.Errorf("LBS mean %.3f ± %.3f, Random %.3f ± %.3f: want LBS clearly better", lbs, hw, rnd, hwr)
	}
}

func BenchmarkLBSPick(b *testing.B) {
	// 1,000 application servers: one LBS pick and the load updates of a
	// request's life stay O(log n).
	m := oneService(expD(1.0/800), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	m.App = AppConfig{Servers: 1000, Capacity: 1, Selection: LeastBusy}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Run(m, RunConfig{Seed: uint64(i + 1), Observations: 100_000}); err != nil {
			b.Fatal(err)
		}
	}
}

// copyRecorder is a SuccessRate of 1 that records the Copy each
// evaluation sees, by service.
type copyRecorder struct {
	svc  string
	seen *[]string
}

func (c copyRecorder) Number(ctx *EvalContext) (float64, error) {
	*c.seen = append(*c.seen, fmt.Sprintf("%s%d", c.svc, ctx.Copy))
	return 1, nil
}

// twoServices runs services A and B, Count times each, from one Nested
// step in mode; A and B each call an unlimited server once, Exp(1).
func twoServices(count int, mode FixedMode, seen *[]string) *Model {
	call := func(name string) Service {
		return Service{Name: name, Steps: []Step{{Name: "Call", Kind: Call, ProcTime: expD(1), SuccessRate: copyRecorder{name, seen}, OnSuccess: Done, OnFailure: Fail}}}
	}
	return &Model{
		Name: "two", Loads: []string{"L"},
		App:     AppConfig{Servers: 1, Capacity: 1_000_000},
		Servers: []Server{{Name: "Ext", Capacity: 1_000_000}},
		Services: []Service{
			{Name: "P", Steps: []Step{{Name: "Both", Kind: Nested, Services: []int{1, 2}, Count: Const(count), Mode: mode, OnSuccess: Done, OnFailure: Fail}}},
			call("A"), call("B"),
		},
		Entities: []Entity{{Name: "R", InterArrival: []Dist{expD(100)}, Stages: []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}}}},
	}
}

func TestParallelOverSeveralServices(t *testing.T) {
	// Two services, three copies each: six Exp(1) calls at once, so the
	// mean response is H_6; each copy sees Copy 1..3 within its service.
	var seen []string
	r := run(t, twoServices(3, Parallel, &seen), RunConfig{Seed: 31, Observations: 20_000})
	hw := 1.96 * r.Response.SD / math.Sqrt(float64(r.Response.N))
	near(t, "parallel mean response", r.Response.Mean, hw, stats.Harmonic(6), tol)
	if got := float64(r.Captures) / float64(r.Arrivals); math.Abs(got-8) > 0.01 {
		t.Errorf("captures per request %v, want 8 (entry, parent, six calls)", got)
	}
	counts := map[string]int{}
	for _, s := range seen {
		counts[s]++
	}
	for _, k := range []string{"A1", "A2", "A3", "B1", "B2", "B3"} {
		if counts[k] == 0 || math.Abs(float64(counts[k]-counts["A1"])) > 0 {
			t.Errorf("copy %s seen %d times (A1: %d): %v", k, counts[k], counts["A1"], counts)
		}
	}
	if len(counts) != 6 {
		t.Errorf("copies seen: %v", counts)
	}
}

func TestSequentialOverSeveralServicesInOrder(t *testing.T) {
	// In sequence: A three times, then B three times, one after another:
	// the mean response is 6, and the calls go A1 A2 A3 B1 B2 B3.
	var seen []string
	r := run(t, twoServices(3, Sequential, &seen), RunConfig{Seed: 32, Observations: 20_000})
	hw := 1.96 * r.Response.SD / math.Sqrt(float64(r.Response.N))
	near(t, "sequential mean response", r.Response.Mean, hw, 6, tol)
	if got := strings.Join(seen[:6], " "); got != "A1 A2 A3 B1 B2 B3" {
		t.Errorf("order %s, want A1 A2 A3 B1 B2 B3", got)
	}
}

func TestCopysLocalWorkTakesAUnit(t *testing.T) {
	// Six copies of 1 s of local work, on a server of 4 units of which the
	// entry and the Parallel parent hold 2: the copies run two at a time,
	// so the request takes 3 s (it would take 1 s if they held no unit).
	m := &Model{
		Name: "local-copies", Loads: []string{"L"},
		App: AppConfig{Servers: 1, Capacity: 4},
		Services: []Service{
			{Name: "P", Steps: []Step{{Name: "Fork", Kind: Nested, Services: []int{1}, Count: Const(6), Mode: Parallel, OnSuccess: Done, OnFailure: Fail}}},
			{Name: "W", Steps: []Step{{Name: "Work", Kind: Local, ProcTime: constD(1), OnSuccess: Done, OnFailure: Fail}}},
		},
		Entities: []Entity{{Name: "R", InterArrival: []Dist{constD(10)}, Stages: []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}}}},
	}
	r := run(t, m, RunConfig{Seed: 33, Observations: 100})
	if r.Response.Min != 3 || r.Response.Max != 3 {
		t.Errorf("response from %v to %v, want 3: six copies on two free units", r.Response.Min, r.Response.Max)
	}
	if r.AppServers[0].PeakBusy != 4 {
		t.Errorf("peak busy %d, want 4", r.AppServers[0].PeakBusy)
	}
	// Each request: entry, parent and six copies' units.
	if got := r.Captures / r.Arrivals; got != 8 {
		t.Errorf("%d captures per request, want 8", got)
	}
}

func TestRATIsZeroOnAnIdleServer(t *testing.T) {
	// RAT = RATParameter × AppUtil, AppUtil not counting the unit being
	// granted. Requests never overlap: the entry finds the server idle (RAT
	// 0); the call's unit finds 1 of 20 busy (RAT 50/20 = 2.5).
	m := oneService(constD(100),
		Step{Name: "Work", Kind: Local, ProcTime: constD(1), OnSuccess: 1, OnFailure: Fail},
		Step{Name: "Call", Kind: Call, ProcTime: constD(2), OnSuccess: Done, OnFailure: Fail})
	m.Servers = []Server{{Name: "Ext", Capacity: 1}}
	m.App = AppConfig{Servers: 1, Capacity: 20, RATParameter: 50}
	r := run(t, m, RunConfig{Seed: 34, Observations: 50})
	if want := 1 + 2.5 + 2.0; r.Response.Min != want || r.Response.Max != want {
		t.Errorf("response from %v to %v, want %v (RAT 0 at the entry, 2.5 at the call)", r.Response.Min, r.Response.Max, want)
	}
}

func TestLateCopiesKeepTheirUnitsUntilTheyReturn(t *testing.T) {
	// One request a second; its first copy fails at once, so the parent
	// leaves the gate at once, but the second copy's call (10 s) goes on
	// and holds its unit to the end: 10 units stay busy on average (Little)
	// although every request is gone in no time.
	m := &Model{
		Name: "late", Loads: []string{"L"},
		App:     AppConfig{Servers: 1, Capacity: 1000},
		Servers: []Server{{Name: "Ext", Capacity: 1000}},
		Services: []Service{
			{Name: "P", Steps: []Step{{Name: "Fork", Kind: Nested, Services: []int{1, 2}, Mode: Parallel, OnSuccess: Done, OnFailure: Fail}}},
			{Name: "Quick", Steps: []Step{{Name: "No", Kind: Local, SuccessRate: Const(0), OnSuccess: Done, OnFailure: Fail}}},
			{Name: "Slow", Steps: []Step{{Name: "Call", Kind: Call, ProcTime: constD(10), OnSuccess: Done, OnFailure: Fail}}},
		},
		Entities: []Entity{{Name: "R", InterArrival: []Dist{constD(1)}, Stages: []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}}}},
	}
	r := run(t, m, RunConfig{Seed: 35, WarmUp: 50.5, Observations: 1000})
	if r.Failed != 1000 || r.LateCopies != 1000 {
		t.Fatalf("failed %d, late copies %d: want every request failed with a late copy", r.Failed, r.LateCopies)
	}
	if busy := r.AppUtilization * 1000; math.Abs(busy-10) > 0.02 {
		t.Errorf("%.3f units busy on average, want 10: late copies hold their call units", busy)
	}
}

func TestFinishedRequestsAreExactlyObservations(t *testing.T) {
	// Failures, retries, time-outs and impatient users at once: every run
	// stops when completed + failed + abandoned reaches Observations.
	for _, obs := range []int64{1, 7, 1000, 25_000} {
		m := traceModel()
		m.Entities[0].InterArrival[0] = expD(6)
		m.App.MaxAdmitted = 1 // two units for the fork, never a deadlock
		r := run(t, m, RunConfig{Seed: 36, WarmUp: 20, Observations: obs})
		if !r.Stable {
			t.Fatalf("Observations %d: %s", obs, r.Unstable)
		}
		if got := r.Completed + r.Failed + r.Abandoned; got != obs {
			t.Errorf("Observations %d: completed %d + failed %d + abandoned %d = %d", obs, r.Completed, r.Failed, r.Abandoned, got)
		}
		if obs >= 1000 && (r.Completed == 0 || r.Failed == 0 || r.Abandoned == 0) {
			t.Errorf("the model should show all three outcomes: %d %d %d", r.Completed, r.Failed, r.Abandoned)
		}
	}
}

func TestMM1SojournP95(t *testing.T) {
	// The sojourn of FCFS M/M/1 is Exp(μ-λ): its 95th percentile is
	// ln(20)/(μ-λ). Checked against the replications' interval.
	const lambda, mu = 0.8, 1.0
	m := oneService(expD(1/lambda), Step{Name: "Work", Kind: Local, ProcTime: expD(1 / mu)})
	m.App.Capacity = 1
	cfg := RunConfig{Seed: 37, WarmUp: 200, Observations: 50_000}
	p95, hw := replicate(t, m, cfg, 10, func(r *Result) float64 { return r.Response.P95 })
	near(t, "p95 response", p95, hw, math.Log(20)/(mu-lambda), tol)
	p90, hw90 := replicate(t, m, cfg, 10, func(r *Result) float64 { return r.Response.P90 })
	near(t, "p90 response", p90, hw90, math.Log(10)/(mu-lambda), tol)
}

func TestResultsPerEntity(t *testing.T) {
	// Two request types on an unlimited server (no queueing): A works
	// Exp(1), B Exp(3), B arrives twice as often. Each type's figures are
	// its own: means 1 and 3, p95 ln(20)·mean, arrivals and outcomes that
	// add up to the totals.
	m := oneService(expD(1), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	b := m.Entities[0]
	b.Name, b.InterArrival, b.Stages = "B", []Dist{expD(0.5)}, []Stage{{Service: 1, OnSuccess: End, OnFailure: Exit}}
	m.Entities[0].Name = "A"
	m.Entities = append(m.Entities, b)
	m.Services = append(m.Services, Service{Name: "Slow", Steps: []Step{{Name: "Work", Kind: Local, ProcTime: expD(3), SuccessRate: Const(0.9), OnSuccess: Done, OnFailure: Fail}}})
	r := run(t, m, RunConfig{Seed: 38, Observations: 60_000})
	if len(r.Entities) != 2 || r.Entities[0].Name != "A" || r.Entities[1].Name != "B" {
		t.Fatalf("entities %+v", r.Entities)
	}
	var arr, done, failed int64
	for _, e := range r.Entities {
		arr += e.Arrivals
		done += e.Completed
		failed += e.Failed
		if e.Response.N != e.Completed || math.IsNaN(e.Response.CIHalfWidth95) || e.Response.CIHalfWidth95 <= 0 {
			t.Errorf("%s: N %d, completed %d, half-width %v", e.Name, e.Response.N, e.Completed, e.Response.CIHalfWidth95)
		}
	}
	if arr != r.Arrivals || done != r.Completed || failed != r.Failed {
		t.Errorf("per entity: arrivals %d, completed %d, failed %d; totals %d, %d, %d", arr, done, failed, r.Arrivals, r.Completed, r.Failed)
	}
	for i, mean := range []float64{1, 3} {
		e := r.Entities[i]
		near(t, e.Name+" mean", e.Response.Mean, e.Response.CIHalfWidth95, mean, tol)
		// p95 of an exponential sample of n: its standard error is
		// sqrt(p(1-p)/n)/f(q) with f(q) = 0.05/mean.
		se := math.Sqrt(0.95*0.05/float64(e.Response.N)) / (0.05 / mean)
		near(t, e.Name+" p95", e.Response.P95, 1.96*se, math.Log(20)*mean, tol)
	}
	if r.Entities[0].Failed != 0 || r.Entities[1].Failed == 0 {
		t.Errorf("only B fails: %+v", r.Entities)
	}
}

func TestMergePoolsReplications(t *testing.T) {
	m := oneService(expD(1/0.7), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	m.App.Capacity = 1
	var rs []*Result
	var means stats.Tally
	var hist stats.Histogram
	for rep := range 4 {
		r := run(t, m, RunConfig{Seed: 39, Replication: rep, Observations: 5000})
		rs = append(rs, r)
		means.Add(r.Response.Mean)
		hist.Merge(r.ResponseHist)
	}
	before := *rs[1]
	pool := *rs[0]
	pool.Merge(rs[1], rs[2])
	pool.Merge(rs[3]) // in one go or in steps, the same pool
	if fmt.Sprint(rs[1].Response) != fmt.Sprint(before.Response) || rs[1].ResponseHist.N() != 5000 || rs[0].ResponseHist.N() != 5000 {
		t.Error("Merge changed the results it pooled")
	}
	if pool.Replications != 4 || pool.Completed != 20_000 || pool.Arrivals != rs[0].Arrivals+rs[1].Arrivals+rs[2].Arrivals+rs[3].Arrivals {
		t.Errorf("replications %d, completed %d", pool.Replications, pool.Completed)
	}
	if want := hist.Quantile(0.95); pool.Response.P95 != want {
		t.Errorf("pooled p95 %v, merged histogram %v", pool.Response.P95, want)
	}
	if want := means.Mean(); math.Abs(pool.Response.Mean-want) > 1e-12 {
		t.Errorf("pooled mean %v, want %v", pool.Response.Mean, want)
	}
	wantHW := stats.StudentT(0.95, 3) * means.SD() / 2
	if math.Abs(pool.Response.CIHalfWidth95-wantHW) > 1e-12 {
		t.Errorf("pooled half-width %v, Student t over the 4 means %v", pool.Response.CIHalfWidth95, wantHW)
	}
	// The pooled SD is that of all 20,000 responses: within and between.
	var ss float64
	for _, r := range rs {
		ss += r.Response.SD*r.Response.SD*4999 + 5000*(r.Response.Mean-pool.Response.Mean)*(r.Response.Mean-pool.Response.Mean)
	}
	if want := math.Sqrt(ss / 19_999); math.Abs(pool.Response.SD-want) > 1e-9 {
		t.Errorf("pooled SD %v, want %v", pool.Response.SD, want)
	}
	u := (rs[0].AppUtilization + rs[1].AppUtilization + rs[2].AppUtilization + rs[3].AppUtilization) / 4
	if math.Abs(pool.AppUtilization-u) > 1e-12 || math.Abs(pool.AppServers[0].Utilization-u) > 1e-12 {
		t.Errorf("pooled utilization %v, mean of the runs %v", pool.AppUtilization, u)
	}
	if e := pool.Entities[0]; e.Completed != 20_000 || e.Response.P95 != pool.Response.P95 || e.Response.CIHalfWidth95 != pool.Response.CIHalfWidth95 {
		t.Errorf("the one entity's pool differs from the totals: %+v", e.Response)
	}
	// A Merge extends in place what an earlier Merge made for the same
	// Result, with the figures of a pool made at once; a copy of the
	// pool merges into its own, and leaves the first alone.
	once := *rs[0]
	once.Merge(rs[1], rs[2], rs[3])
	if fmt.Sprint(once.Response) != fmt.Sprint(pool.Response) || fmt.Sprint(once.Entities[0].Response) != fmt.Sprint(pool.Entities[0].Response) {
		t.Errorf("pooled in steps %+v\nat once %+v", pool.Response, once.Response)
	}
	three := *rs[0]
	three.Merge(rs[1])
	three.Merge(rs[2])
	branch := three
	branch.Merge(rs[3])
	if n := three.ResponseHist.N(); n != 15_000 || three.Replications != 3 {
		t.Errorf("a Merge into a copy changed the pool it was copied from: %d responses, %d replications", n, three.Replications)
	}
	if branch.ResponseHist.N() != 20_000 || fmt.Sprint(branch.Response) != fmt.Sprint(once.Response) {
		t.Errorf("the copy's pool %+v, want %+v", branch.Response, once.Response)
	}
}

// retryRule retries only attempts that a TimeLimit failed, and checks what
// Elapsed says.
type retryRule struct{ t *testing.T }

func (r retryRule) Number(c *EvalContext) (float64, error) {
	if c.TimedOut {
		if math.Abs(c.Elapsed-1) > 1e-9 {
			r.t.Errorf("timed-out attempt: Elapsed %v, want the TimeLimit 1", c.Elapsed)
		}
		return 1, nil
	}
	if !(c.Elapsed > 0 && c.Elapsed <= 1) {
		r.t.Errorf("failed attempt: Elapsed %v, want its call's time, in (0, 1]", c.Elapsed)
	}
	return 0, nil
}

func TestRetryProbabilityExprSeesElapsedAndTimedOut(t *testing.T) {
	// A call of Uniform(0,2) under a TimeLimit of 1 times out half the
	// time; answered in time, it fails half the time. Only time-outs are
	// retried (once): retries are half the requests, not a quarter.
	m := oneService(expD(1), Step{Name: "Call", Kind: Call, ProcTime: unifD{0, 2}, SuccessRate: Const(0.5)})
	m.Servers = []Server{{Name: "Slow", Capacity: 1_000_000, TimeLimit: 1}}
	m.Entities[0].RetryProbability = 0 // replaced by the expression
	m.Entities[0].RetryProbabilityExpr = retryRule{t}
	m.Entities[0].MaxRetries = 1
	r := run(t, m, RunConfig{Seed: 40, Observations: 40_000})
	n := float64(r.Completed + r.Failed)
	share := float64(r.Retries) / n
	near(t, "retries per request", share, 1.96*math.Sqrt(0.25/n), 0.5, tol)
}

func TestRetryProbabilityExprOutOfRange(t *testing.T) {
	m := oneService(expD(1), Step{Name: "No", Kind: Local, SuccessRate: Const(0)})
	m.Entities[0].RetryProbabilityExpr = Const(1.5)
	m.Entities[0].MaxRetries = 1
	m.Entities[0].Cell = "SvcData.xlsx!Arrivals!A2"
	_, err := Run(m, RunConfig{Seed: 41, Observations: 10})
	if err == nil || !strings.Contains(err.Error(), "SvcData.xlsx!Arrivals!A2") || !strings.Contains(err.Error(), "1.5") {
		t.Errorf("error %v", err)
	}
}

// entryThenCall is a request that takes its entry unit and at once asks
// for one more for a call of Exp(1) to an ample server.
func entryThenCall(lambda float64, capacity int) *Model {
	m := oneService(expD(1/lambda), Step{Name: "Call", Kind: Call, ProcTime: expD(1)})
	m.Servers = []Server{{Name: "Ext", Capacity: 1_000_000}}
	m.App = AppConfig{Servers: 1, Capacity: capacity}
	return m
}

func TestInFlightFirstAvoidsTheEntryDeadlock(t *testing.T) {
	// Under FCFS a released unit may go to a queued entry while calls of
	// requests already in wait; those entries then wait for call units
	// themselves, until every unit is held by a waiting request. Under
	// InFlightFirst a waiting call always goes first, so entries compete
	// only for units no call wants, and the same model never deadlocks.
	for seed := uint64(50); seed < 55; seed++ {
		m := entryThenCall(3.5, 8)
		cfg := RunConfig{Seed: seed, Observations: 200_000}
		fcfs := run(t, m, cfg)
		if fcfs.Stable || !strings.Contains(fcfs.Unstable, "deadlocked") {
			t.Errorf("seed %d: FCFS should deadlock: stable %v %q", seed, fcfs.Stable, fcfs.Unstable)
		}
		m.App.UnitQueue = InFlightFirst
		// At this load the model is overloaded all the same (a request
		// needs two units at once, and entries holding one wait for the
		// second): the growth test may call it unstable, but never
		// deadlocked.
		iff := run(t, m, cfg)
		if strings.Contains(iff.Unstable, "deadlocked") {
			t.Errorf("seed %d: InFlightFirst: %s", seed, iff.Unstable)
		}
	}
}

func TestMaxAdmittedPreventsDeadlock(t *testing.T) {
	// Entries pay a RAT, so a burst of them can take every unit before
	// any asks for its call unit: the model deadlocks. With at most
	// (Capacity-1)/2 requests admitted, each holding at most 2 units, one
	// unit is always free: it never deadlocks, and never uses more than
	// 2·MaxAdmitted units.
	for _, capacity := range []int{3, 5, 8} {
		m := entryThenCall(1.5, capacity)
		m.App.RAT = Const(0.3)
		cfg := RunConfig{Seed: 60, Observations: 100_000}
		without := run(t, m, cfg)
		if without.Stable || !strings.Contains(without.Unstable, "deadlocked") {
			t.Errorf("capacity %d without MaxAdmitted should deadlock: %q", capacity, without.Unstable)
		}
		m.App.MaxAdmitted = (capacity - 1) / 2
		for seed := uint64(60); seed < 63; seed++ {
			cfg.Seed = seed
			with := run(t, m, cfg)
			if strings.Contains(with.Unstable, "deadlocked") {
				t.Errorf("capacity %d, MaxAdmitted %d: %s", capacity, m.App.MaxAdmitted, with.Unstable)
			}
			if with.AppServers[0].PeakBusy > 2*m.App.MaxAdmitted {
				t.Errorf("capacity %d: %d units busy at once, above 2·MaxAdmitted", capacity, with.AppServers[0].PeakBusy)
			}
		}
	}
}

func TestMaxAdmittedIsAnAcceptQueue(t *testing.T) {
	// One admitted at a time on a large server: the server behaves as
	// M/M/1 whatever its capacity, and an impatient user leaves the accept
	// queue. Abandoned share as in TestAbandonmentMatchesMM1WithImpatience.
	const lambda, mu, theta = 0.9, 1.0, 0.5
	m := oneService(expD(1/lambda), Step{Name: "Work", Kind: Local, ProcTime: expD(1 / mu)})
	m.App = AppConfig{Servers: 1, Capacity: 50, MaxAdmitted: 1}
	m.Entities[0].Patience = expD(1 / theta)
	pq := stats.MM1AbandonProbability(lambda, mu, theta)
	want := pq + (1-pq)*theta/(theta+mu)
	share, hw := replicate(t, m, RunConfig{Seed: 61, WarmUp: 100, Observations: 40_000}, 8, func(r *Result) float64 {
		if r.AppServers[0].PeakBusy > 1 {
			t.Errorf("%d units busy with one request admitted", r.AppServers[0].PeakBusy)
		}

		return float64(r.Abandoned) / float64(r.Completed+r.Abandoned)
	})
	near(t, "abandoned share", share, hw, want, tol)
	m.Entities[0].Patience = nil
	cfg := RunConfig{Seed: 62, WarmUp: 200, Observations: 40_000}
	w, hww := replicate(t, m, cfg, 8, func(r *Result) float64 { return r.Response.Mean })
	near(t, "mean response", w, hww, 1/(mu-lambda), tol)
	// An arrival waits for admission when the one admitted request is
	// still there: with probability ρ (arrivals see time averages).
	aw, hwa := replicate(t, m, cfg, 8, func(r *Result) float64 {
		return float64(r.AppServers[0].AdmissionWaits) / float64(r.Arrivals)
	})
	near(t, "share waiting for admission", aw, hwa, lambda/mu, tol)
}

// jumpD draws first, then small for ever after.
type jumpD struct {
	first, then float64
	n           *int
}

func (d jumpD) Sample(*rand.Rand) float64 {
	*d.n++
	if *d.n == 1 {
		return d.first
	}
	return d.then
}
func (d jumpD) Mean() float64  { return d.then }
func (d jumpD) String() string { return fmt.Sprintf("Jump(%g,%g)", d.first, d.then) }

// nanD draws NaN.
type nanD struct{}

func (nanD) Sample(*rand.Rand) float64 { return math.NaN() }
func (nanD) Mean() float64             { return math.NaN() }
func (nanD) String() string            { return "NaN" }

func TestClockGuard(t *testing.T) {
	const cell = "SvcData.xlsx!Arrivals!B2"
	for _, tc := range []struct {
		name  string
		build func(*Model)
		cell  string
		want  string
	}{
		{"zero inter-arrival", func(m *Model) { m.Entities[0].InterArrival[0] = constD(0) }, cell, "arrivals of Req in a row at the same instant"},
		{"zero inter-arrival, no work", func(m *Model) {
			m.Entities[0].InterArrival[0] = constD(0)
			m.Services[0].Steps[0].ProcTime = nil
		}, cell, "requests finished without the clock moving"},
		{"inter-arrival overflows", func(m *Model) { m.Entities[0].InterArrival[0] = constD(1e308) }, cell, "overflows"},
		{"too small for the clock", func(m *Model) { m.Entities[0].InterArrival[0] = jumpD{1e9, 1e-9, new(int)} }, cell, "too small to move the clock"},
		{"NaN inter-arrival", func(m *Model) { m.Entities[0].InterArrival[0] = nanD{} }, cell, "drew NaN"},
		{"negative processing", func(m *Model) { m.Services[0].Steps[0].ProcTime = constD(-1) }, "ProcData.xlsx!Svc!A2", "ProcTime -1 of step Work drew -1"},
		{"negative processing, at its ProcTime cell", func(m *Model) {
			m.Services[0].Steps[0].ProcTime = constD(-1)
			m.Services[0].Steps[0].ProcTimeCell = "ProcData.xlsx!Svc!B2"
		}, "ProcData.xlsx!Svc!B2", "ProcTime -1 of step Work drew -1"},
		{"call's service time overflows, at its ProcTime cell", func(m *Model) {
			m.Servers = []Server{{Name: "DB", Capacity: 1}}
			m.Services[0].Steps[0] = Step{Name: "Ask", Kind: Call, ProcTime: constD(1e308), OnSuccess: Done, OnFailure: Fail,
				Cell: "ProcData.xlsx!Svc!A2", ProcTimeCell: "ProcData.xlsx!Svc!B2"}
		}, "ProcData.xlsx!Svc!B2", "overflows"},
		{"zero background", func(m *Model) {
			m.Servers = []Server{{Name: "DB", Capacity: 1, Cell: "SvcData.xlsx!ServerInfo!A2", BackgroundInterArrival: constD(0), BackgroundServiceTime: constD(1)}}
		}, "SvcData.xlsx!ServerInfo!A2", "background jobs of DB"},
		{"zero background on a server past the entities' count", func(m *Model) {
			// The third server: its index is no entity's (found by the
			// mutation campaign: the guard read Entities[2]).
			m.Servers = []Server{{Name: "A", Capacity: 1}, {Name: "B", Capacity: 1},
				{Name: "DB", Capacity: 1, Cell: "SvcData.xlsx!ServerInfo!A4", BackgroundInterArrival: constD(0), BackgroundServiceTime: constD(1)}}
		}, "SvcData.xlsx!ServerInfo!A4", "background jobs of DB"},
		{"zero-time service loop", func(m *Model) {
			m.Servers = []Server{{Name: "DB", Capacity: 1}}
			m.Services[0].Steps[0] = Step{Name: "Again", Kind: Call, ProcTime: constD(0), OnSuccess: 0, OnFailure: Fail, Cell: "ProcData.xlsx!Svc!A2"}
		}, "ProcData.xlsx!Svc!A2", "service time 0 at DB draws times that are zero"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := oneService(expD(1), Step{Name: "Work", Kind: Local, ProcTime: expD(0.5), Cell: "ProcData.xlsx!Svc!A2"})
			m.Entities[0].InterArrivalCells = []string{cell}
			tc.build(m)
			r, err := Run(m, RunConfig{Seed: 70, Observations: 100})
			if err == nil {
				t.Fatalf("no error; stable %v %q, completed %d, mean %v", r.Stable, r.Unstable, r.Completed, r.Response.Mean)
			}
			if !errors.Is(err, ErrClock) || !strings.HasPrefix(err.Error(), tc.cell+":") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant ErrClock at %s saying %q", err, tc.cell, tc.want)
			}
		})
	}
}

func TestLeastBusyScanPicksAsTheTree(t *testing.T) {
	// Up to scanMaxServers servers, LeastBusy scans the loads at each
	// pick; beyond, it keeps a loadTree. Both must pick the same server,
	// ties included, for any loads: random loads with many ties, and the
	// last pick carried from one pick to the next.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 3, 7, scanMaxServers} {
		scan, tree := &sim{apps: make([]appServer, n)}, &sim{apps: make([]appServer, n)}
		tree.lbs.init(n)
		scan.lastPicked, tree.lastPicked = -1, -1
		for range 2000 {
			for i := range n {
				busy := int32(rng.IntN(3))
				scan.apps[i].busy, tree.apps[i].busy = busy, busy
				tree.retouch(int32(i))
			}
			a, b := scan.scanLeastBusy(), tree.treeLeastBusy()
			if a != b {
				t.Fatalf("%d servers, loads %v: the scan picks App%d, the tree App%d", n, loadsOf(scan), a+1, b+1)
			}
		}
	}
}

func loadsOf(s *sim) []int32 {
	var l []int32
	for i := range s.apps {
		l = append(l, s.apps[i].load())
	}
	return l
}
