package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/websim/websim/engine/stats"
)

// forkModel: each request runs one Parallel (or sequential) step of n
// copies of service Q, a call to an unlimited server with Exp(1) service
// and success rate p. A failed fork goes to a zero-time Recover step, so
// that the request still completes and its response time shows when the
// parent left the gate.
func forkModel(n int, p float64, mode FixedMode, lambda float64) *Model {
	return &Model{
		Name: "fork", TimeUnit: "s", Loads: []string{"L"},
		App:     AppConfig{Servers: 1, Capacity: 1_000_000},
		Servers: []Server{{Name: "Ext", Capacity: 1_000_000}},
		Services: []Service{
			{Name: "P", Steps: []Step{
				{Name: "Fork", Kind: Nested, Services: []int{1}, Count: Const(n), Mode: mode, OnSuccess: Done, OnFailure: 1},
				{Name: "Recover", Kind: Local, OnSuccess: Done, OnFailure: Fail},
			}},
			{Name: "Q", Steps: []Step{
				{Name: "Call", Kind: Call, Server: 0, ProcTime: expD(1), SuccessRate: Const(p), OnSuccess: Done, OnFailure: Fail},
			}},
		},
		Entities: []Entity{{Name: "R", InterArrival: []Dist{expD(1 / lambda)},
			Stages: []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}}}},
	}
}

func TestParallelMeanIsHarmonic(t *testing.T) {
	for _, n := range []int{1, 2, 4, 6} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			m := forkModel(n, 1, Parallel, 0.5)
			r := run(t, m, RunConfig{Seed: 7, Observations: 60_000})
			// Requests do not interact (unlimited capacity): the plain
			// standard error applies.
			hw := 1.96 * r.Response.SD / math.Sqrt(float64(r.Response.N))
			near(t, "mean response", r.Response.Mean, hw, stats.Harmonic(n), tol)
			if r.ParallelSteps == 0 || r.SequentialSteps != 0 {
				t.Errorf("parallel steps %d, sequential %d", r.ParallelSteps, r.SequentialSteps)
			}
		})
	}
}

func TestSequentialCopiesAddUp(t *testing.T) {
	m := forkModel(4, 1, Sequential, 0.5)
	r := run(t, m, RunConfig{Seed: 8, Observations: 60_000})
	hw := 1.96 * r.Response.SD / math.Sqrt(float64(r.Response.N))
	near(t, "mean response", r.Response.Mean, hw, 4, tol)
}

// firstFailureMean is E[T] for n Exp(1) copies, each failing with 1-p:
// T is the first failure's time if any copy fails, else the last copy's.
// P(T > t) = (1-q(1-e^-t))^n - (p(1-e^-t))^n, integrated numerically.
func firstFailureMean(n int, p float64) float64 {
	q := 1 - p
	sum, dt := 0.0, 1e-4
	for x := dt / 2; x < 60; x += dt {
		f := 1 - math.Exp(-x)
		sum += (math.Pow(1-q*f, float64(n)) - math.Pow(p*f, float64(n))) * dt
	}
	return sum
}

func TestParallelFailsAtTheFirstFailure(t *testing.T) {
	const n, p, lambda = 3, 0.8, 0.5
	m := forkModel(n, p, Parallel, lambda)
	r := run(t, m, RunConfig{Seed: 9, Observations: 100_000})
	hw := 1.96 * r.Response.SD / math.Sqrt(float64(r.Response.N))
	near(t, "mean time at the gate", r.Response.Mean, hw, firstFailureMean(n, p), tol)
	if r.LateCopies == 0 {
		t.Error("no late copies counted")
	}
	// Late copies keep their server time: the server does every copy's
	// work, λ·n·E[S] in all, whether or not the parent still waits.
	load := r.Servers[0].Utilization * float64(r.Servers[0].Capacity)
	jobs := float64(r.Servers[0].Arrived)
	wantJobs := float64(n) * float64(r.Arrivals)
	if math.Abs(jobs-wantJobs) > 0.01*wantJobs {
		t.Errorf("server got %v jobs, want n·arrivals = %v", jobs, wantJobs)
	}
	// The busy servers' time average is λ n E[S] (Little).
	se := math.Sqrt(lambda*n*2/r.SimTime) * 1.96 // M/G/∞: Var of the area/T ≈ 2λnE[S²]/... bounded by this
	near(t, "busy servers", load, se, lambda*n, 2)
}

func TestParallelSuccessShareIsPToTheN(t *testing.T) {
	for _, n := range []int{1, 3, 5} {
		const p = 0.9
		m := forkModel(n, p, Parallel, 0.5)
		m.Services[0].Steps[0].OnFailure = Fail // a failed fork fails the request
		r := run(t, m, RunConfig{Seed: 10, Observations: 50_000})
		total := float64(r.Completed + r.Failed)
		share := float64(r.Completed) / total
		want := math.Pow(p, float64(n))
		near(t, fmt.Sprintf("success share n=%d", n), share, 1.96*math.Sqrt(want*(1-want)/total), want, tol)
	}
}

func TestCountZeroIsAnImmediateSuccess(t *testing.T) {
	m := forkModel(0, 0.5, Parallel, 0.5)
	r := run(t, m, RunConfig{Seed: 11, Observations: 1000})
	if r.Completed != 1000 || r.Response.Max != 0 || r.Captures != 1000 {
		t.Errorf("completed %d, max response %v, captures %d", r.Completed, r.Response.Max, r.Captures)
	}
}

func TestNestedParallelInsideParallel(t *testing.T) {
	// P forks 2 copies of Q; Q forks 3 copies of C (one Exp(1) call). The
	// response is the max of 6 Exp(1): H_6. Every copy's call holds a unit.
	m := &Model{
		Name: "nested-fork", Loads: []string{"L"},
		App:     AppConfig{Servers: 1, Capacity: 1_000_000},
		Servers: []Server{{Name: "Ext", Capacity: 1_000_000}},
		Services: []Service{
			{Name: "P", Steps: []Step{{Name: "F1", Kind: Nested, Services: []int{1}, Count: Const(2), Mode: Parallel, OnSuccess: Done, OnFailure: Fail}}},
			{Name: "Q", Steps: []Step{{Name: "F2", Kind: Nested, Services: []int{2}, Count: Const(3), Mode: Parallel, OnSuccess: Done, OnFailure: Fail}}},
			{Name: "C", Steps: []Step{{Name: "Call", Kind: Call, Server: 0, ProcTime: expD(1), OnSuccess: Done, OnFailure: Fail}}},
		},
		Entities: []Entity{{Name: "R", InterArrival: []Dist{expD(2)},
			Stages: []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}}}},
	}
	r := run(t, m, RunConfig{Seed: 12, Observations: 60_000})
	hw := 1.96 * r.Response.SD / math.Sqrt(float64(r.Response.N))
	near(t, "mean response", r.Response.Mean, hw, stats.Harmonic(6), tol)
	// Units per request: entry 1, the outer parent 1, two inner parents,
	// six calls: 10 captures each.
	if got := float64(r.Captures) / float64(r.Arrivals); math.Abs(got-10) > 0.01 {
		t.Errorf("captures per request %v, want 10", got)
	}
}

func TestRATIsPaidOnEveryCaptureWithoutActiveUnits(t *testing.T) {
	// A constant RAT of 0.25 on the entry unit and on each of two calls,
	// no congestion: response = 3·0.25 + local 1 + two calls of 2.
	m := &Model{
		Name: "rat", Loads: []string{"L"},
		App:     AppConfig{Servers: 1, Capacity: 1_000_000, RAT: Const(0.25)},
		Servers: []Server{{Name: "Ext", Capacity: 1_000_000}},
		Services: []Service{{Name: "S", Steps: []Step{
			{Name: "Work", Kind: Local, ProcTime: constD(1), OnSuccess: 1, OnFailure: Fail},
			{Name: "C1", Kind: Call, ProcTime: constD(2), OnSuccess: 2, OnFailure: Fail},
			{Name: "C2", Kind: Call, ProcTime: constD(2), OnSuccess: Done, OnFailure: Fail},
		}}},
		Entities: []Entity{{Name: "R", InterArrival: []Dist{expD(1)},
			Stages: []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}}}},
	}
	r := run(t, m, RunConfig{Seed: 13, Observations: 5000})
	if math.Abs(r.Response.Mean-5.75) > 1e-9 || math.Abs(r.Response.Max-5.75) > 1e-9 {
		t.Errorf("response mean %v max %v, want 5.75", r.Response.Mean, r.Response.Max)
	}
	if r.InstantCaptures != 0 {
		t.Errorf("%d instant captures with TActive 0", r.InstantCaptures)
	}
}

// ratModel is an M/M/c queue on the application server with the default
// RAT (RATParameter × AppUtil) and the given TActive.
func ratModel(ratParam, tActive float64) *Model {
	m := oneService(expD(1.0/8), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	m.App.Capacity = 10
	m.App.RATParameter = ratParam
	m.App.TActive = tActive
	return m
}

func TestActiveUnitsSkipRAT(t *testing.T) {
	// TActive far longer than any idle gap: after each unit's first
	// capture, every capture is instant, and the run equals one without RAT
	// except for at most Capacity first captures.
	cfg := RunConfig{Seed: 14, Observations: 50_000}
	with := run(t, ratModel(5, 1e12), cfg)
	if slow := with.Captures - with.InstantCaptures; slow > 10 {
		t.Errorf("%d captures paid RAT; at most the 10 first ones may", slow)
	}
	without := run(t, ratModel(0, 0), cfg)
	if d := math.Abs(with.Response.Mean - without.Response.Mean); d > 0.01*without.Response.Mean {
		t.Errorf("mean response %v with long TActive, %v without RAT", with.Response.Mean, without.Response.Mean)
	}
	// TActive 0 and RATParameter 0 is exactly the model without RAT.
	zero := run(t, ratModel(0, 0), cfg)
	alsoZero := ratModel(0, 0)
	alsoZero.App.RAT = Const(0)
	same := run(t, alsoZero, cfg)
	if fmt.Sprint(zero.Response) != fmt.Sprint(same.Response) || zero.Events != same.Events { // NaN is no interval
		t.Errorf("RAT 0 differs from no RAT:\n%+v\n%+v", zero.Response, same.Response)
	}
	// A RAT that is paid slows the system down, and a TActive between the
	// two extremes lies between them.
	slow := run(t, ratModel(5, 0), cfg)
	mid := run(t, ratModel(5, 0.2), cfg)
	if !(slow.Response.Mean > mid.Response.Mean && mid.Response.Mean > without.Response.Mean) {
		t.Errorf("mean response: TActive 0 %v, 0.2 %v, no RAT %v; want decreasing", slow.Response.Mean, mid.Response.Mean, without.Response.Mean)
	}
	if mid.InstantCaptures == 0 || mid.InstantCaptures == mid.Captures {
		t.Errorf("TActive 0.2: %d of %d captures instant", mid.InstantCaptures, mid.Captures)
	}
}

func TestSelectionRules(t *testing.T) {
	// Four identical application servers of 10 units at utilization 0.8.
	// Random splits arrivals into four independent M/M/10 queues; Cyclic
	// smooths each server's arrivals; LBS sends each request to the server
	// with the fewest requests there (queues counted, ties round robin).
	// Paired over common random numbers, LBS < Cyclic < Random.
	model := func(rule SelectionRule) *Model {
		m := oneService(expD(1/32.0), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
		m.App = AppConfig{Servers: 4, Capacity: 10, Selection: rule}
		return m
	}
	var lbsCyc, cycRnd stats.Tally
	var rnd float64
	const reps = 8
	for rep := range reps {
		cfg := RunConfig{Seed: 15, Replication: rep, WarmUp: 100, Observations: 40_000}
		l := run(t, model(LeastBusy), cfg).Response.Mean
		c := run(t, model(Cyclic), cfg).Response.Mean
		r := run(t, model(RandomServer), cfg).Response.Mean
		lbsCyc.Add(c - l)
		cycRnd.Add(r - c)
		rnd += r / reps
	}
	tq := stats.StudentT(0.95, reps-1) / math.Sqrt(reps)
	if lo := lbsCyc.Mean() - tq*lbsCyc.SD(); lo <= 0 {
		t.Errorf("Cyclic - LBS = %.4f ± %.4f; want above 0", lbsCyc.Mean(), tq*lbsCyc.SD())
	}
	if lo := cycRnd.Mean() - tq*cycRnd.SD(); lo <= 0 {
		t.Errorf("Random - Cyclic = %.4f ± %.4f; want above 0", cycRnd.Mean(), tq*cycRnd.SD())
	}
	// Random is four independent M/M/10 queues at λ = 8 each.
	if want := stats.MMcResponse(10, 8, 1); math.Abs(rnd-want) > 0.03*want {
		t.Errorf("Random mean %v, four M/M/10 give %v", rnd, want)
	}
}

func TestRetries(t *testing.T) {
	// RetryProbability 1, success p per attempt, MaxRetries k: the final
	// success share is 1-(1-p)^(k+1).
	for _, k := range []int{0, 1, 3} {
		const p = 0.6
		m := oneService(expD(1), Step{Name: "Try", Kind: Local, ProcTime: expD(0.1), SuccessRate: Const(p)})
		m.Entities[0].RetryProbability = 1
		m.Entities[0].MaxRetries = k
		m.Entities[0].RetryDelay = constD(0.5)
		r := run(t, m, RunConfig{Seed: 16, Observations: 50_000})
		total := float64(r.Completed + r.Failed)
		want := 1 - math.Pow(1-p, float64(k+1))
		near(t, fmt.Sprintf("success share k=%d", k), float64(r.Completed)/total, 1.96*math.Sqrt(want*(1-want)/total), want, tol)
		// Attempts per request: E = Σ_{i=0..k} (1-p)^i.
		wantAttempts := 0.0
		for i := 0; i <= k; i++ {
			wantAttempts += math.Pow(1-p, float64(i))
		}
		got := float64(r.Attempts) / total
		if math.Abs(got-wantAttempts) > 0.02*wantAttempts {
			t.Errorf("attempts per request %v, want %v", got, wantAttempts)
		}
		if r.Retries != r.Attempts-int64(total) {
			t.Errorf("retries %d, attempts %d, requests %v", r.Retries, r.Attempts, total)
		}
		// No unit is ever waited for: a completed request's last attempt
		// is one Exp(0.1) of work, whatever came before, and its response
		// is j attempts and j-1 delays, j the attempt that succeeded. The
		// requests are independent: 99.9% intervals from the SD.
		if r.AttemptResponse.N != r.Completed || r.Response.N != r.Completed {
			t.Errorf("attempt responses %d, responses %d, completed %d", r.AttemptResponse.N, r.Response.N, r.Completed)
		}
		n := float64(r.Completed)
		near(t, fmt.Sprintf("attempt response k=%d", k), r.AttemptResponse.Mean, 3.29*r.AttemptResponse.SD/math.Sqrt(n), 0.1, tol)
		j := 0.0
		for i := 1; i <= k+1; i++ {
			j += float64(i) * math.Pow(1-p, float64(i-1)) * p / want
		}
		near(t, fmt.Sprintf("response k=%d", k), r.Response.Mean, 3.29*r.Response.SD/math.Sqrt(n), j*(0.1+0.5)-0.5, tol)
	}
}

func TestAbandonmentMatchesMM1WithImpatience(t *testing.T) {
	// M/M/1 on the application server, exponential patience θ counted from
	// arrival. A request still queued when its user gives up leaves the
	// queue; one in service is served to the end (the work goes on) but
	// counts as abandoned if its answer comes too late. The queue is then
	// Palm's M/M/1+M (abandonment from the queue only), with abandonment
	// probability Pq; a request reaching service is abandoned during it
	// with probability θ/(θ+μ). Abandoned share = Pq + (1-Pq)·θ/(θ+μ).
	const lambda, mu, theta = 0.9, 1.0, 0.5
	m := oneService(expD(1/lambda), Step{Name: "Work", Kind: Local, ProcTime: expD(1 / mu)})
	m.App.Capacity = 1
	m.Entities[0].Patience = expD(1 / theta)
	pq := stats.MM1AbandonProbability(lambda, mu, theta)
	want := pq + (1-pq)*theta/(theta+mu)
	share, hw := replicate(t, m, RunConfig{Seed: 17, WarmUp: 100, Observations: 40_000}, 10, func(r *Result) float64 {
		return float64(r.Abandoned) / float64(r.Completed+r.Abandoned)
	})
	near(t, "abandoned share", share, hw, want, tol)
	r := run(t, m, RunConfig{Seed: 17, Observations: 10_000})
	if r.WastedWork <= 0 {
		t.Error("no wasted work counted")
	}
}

func TestDeadlockIsDetected(t *testing.T) {
	// One application server of 2 units; each request holds its entry unit
	// and asks for one more for a call. Many arrivals at once: both units
	// go to entries, which then wait for each other forever.
	m := oneService(constD(0.001), Step{Name: "Call", Kind: Call, ProcTime: constD(1)})
	m.App.Capacity = 2
	m.App.RAT = Const(0.01)
	m.Servers = []Server{{Name: "Ext", Capacity: 1}}
	r := run(t, m, RunConfig{Seed: 18, Observations: 1000})
	if r.Stable || r.Unstable == "" {
		t.Fatalf("run not marked unstable: %+v", r)
	}
	t.Log(r.Unstable)
}

func TestSaturationEndsInBoundedTime(t *testing.T) {
	m := oneService(expD(0.5), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	m.App.Capacity = 1
	r := run(t, m, RunConfig{Seed: 19, Observations: 1_000_000_000, MaxInSystem: 5000})
	if r.Stable {
		t.Fatal("a queue at utilization 2 was called stable")
	}
	t.Log(r.Unstable)
}

func TestSameSeedSameResult(t *testing.T) {
	m := forkModel(3, 0.9, Parallel, 2)
	m.Servers[0].Capacity = 4
	m.Servers[0].TimeLimit = 3
	a := run(t, m, RunConfig{Seed: 20, Observations: 20_000})
	b := run(t, m, RunConfig{Seed: 20, Observations: 20_000})
	if a.ResponseHist.Quantile(0.99) != b.ResponseHist.Quantile(0.99) {
		t.Error("two runs with the same seed have different histograms")
	}
	a.ResponseHist, b.ResponseHist, a.ResponsePercentiles, b.ResponsePercentiles = nil, nil, nil, nil
	for i := range a.Entities {
		a.Entities[i].ResponseHist, b.Entities[i].ResponseHist = nil, nil
		a.Entities[i].ResponsePercentiles, b.Entities[i].ResponsePercentiles = nil, nil
	}
	if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
		t.Error("two runs with the same seed differ")
	}
	c := run(t, m, RunConfig{Seed: 21, Observations: 20_000})
	if a.Response == c.Response {
		t.Error("two seeds gave the same figures")
	}
}

func TestDeadlockThroughParallelParentsIsDetected(t *testing.T) {
	// Each request holds its entry unit, its Parallel parent holds one
	// more, and the copies each need a unit for their call. A burst of
	// arrivals leaves every unit with an entry or a parent while the copies
	// wait: nothing can ever be released.
	m := forkModel(2, 1, Parallel, 10)
	m.App.Capacity = 4
	m.Servers[0].Capacity = 1
	r := run(t, m, RunConfig{Seed: 22, Observations: 1_000_000, MaxInSystem: 1_000_000})
	if r.Stable || !strings.Contains(r.Unstable, "Parallel parents") || !r.Deadlocked || r.Growing {
		t.Fatalf("not detected as a deadlock: stable %v, deadlocked %v, %q", r.Stable, r.Deadlocked, r.Unstable)
	}
	t.Log(r.Unstable)
	if r := run(t, mm1(1.2), RunConfig{Seed: 22, Observations: 20_000}); r.Deadlocked {
		t.Errorf("an overload called a deadlock: %s", r.Unstable)
	}
}

func TestAttributesDoNotLeakBetweenRequests(t *testing.T) {
	// A and B share a service whose step is skipped unless X > 1; only A
	// has X (= 5). The step fails for sure, so every A fails and every B,
	// whose X must read 0 even in a slot an A used before, completes.
	m := oneService(expD(1), Step{Name: "OnlyForA", Kind: Local, SuccessRate: Const(0), Condition: xAbove1{}})
	m.Attributes = []string{"X"}
	m.Entities[0].Name = "A"
	m.Entities[0].Attributes = []Attribute{{Index: 0, Dist: constD(5)}}
	b := m.Entities[0]
	b.Name, b.Attributes = "B", nil
	m.Entities = append(m.Entities, b)
	r := run(t, m, RunConfig{Seed: 23, Observations: 20_000})
	if d := math.Abs(float64(r.Completed - r.Failed)); d > 0.05*float64(r.Completed+r.Failed) {
		t.Errorf("completed %d, failed %d: want about half each", r.Completed, r.Failed)
	}
}

type xAbove1 struct{}

func (xAbove1) Bool(c *EvalContext) (bool, error) { return c.Attrs[0] > 1, nil }

func TestNestedStepDrawsItsSuccessRate(t *testing.T) {
	m := forkModel(2, 1, Parallel, 0.5)
	m.Services[0].Steps[0].SuccessRate = Const(0.3)
	m.Services[0].Steps[0].OnFailure = Fail
	r := run(t, m, RunConfig{Seed: 24, Observations: 20_000})
	n := float64(r.Completed + r.Failed)
	near(t, "success share", float64(r.Completed)/n, 1.96*math.Sqrt(0.3*0.7/n), 0.3, tol)
}

func TestTimeLimitsKeepOneTimerPerServer(t *testing.T) {
	// Every call times out and the failure route calls the same server
	// again: the calendar must still hold one deadline event per server,
	// so events stay a few per request.
	m := oneService(expD(2), Step{Name: "First", Kind: Call, ProcTime: constD(3), OnSuccess: Done, OnFailure: 1},
		Step{Name: "Again", Kind: Call, ProcTime: constD(3), OnSuccess: Done, OnFailure: Fail})
	m.Servers = []Server{{Name: "Slow", Capacity: 1000, TimeLimit: 1}}
	r := run(t, m, RunConfig{Seed: 25, Observations: 10_000})
	if r.Failed != 10_000 || r.Timeouts != 20_000 {
		t.Fatalf("failed %d, timeouts %d", r.Failed, r.Timeouts)
	}
	// Per request: an arrival, two job completions, two deadline events.
	if per := float64(r.Events) / 10_000; per > 5.5 {
		t.Errorf("%.1f events per request; duplicate timers?", per)
	}
}

func TestZeroTimeRoutingLoopStops(t *testing.T) {
	// A skipped step that routes back to itself: the run must stop with
	// the step's cell, not spin forever.
	m := oneService(expD(1), Step{Name: "Loop", Kind: Local, Condition: never{}, OnSuccess: 0, OnFailure: Fail, Cell: "ProcData.xlsx!Svc!A2"})
	_, err := Run(m, RunConfig{Seed: 26, Observations: 100})
	if err == nil || !strings.Contains(err.Error(), "ProcData.xlsx!Svc!A2") || !strings.Contains(err.Error(), "routing loop") {
		t.Fatalf("error %v", err)
	}
}

type never struct{}

func (never) Bool(*EvalContext) (bool, error) { return false, nil }

// attrCount is a Count expression that gives the request's first attribute.
type attrCount struct{}

func (attrCount) Number(c *EvalContext) (float64, error) { return c.Attrs[0], nil }

// TestCountPastTheLimitFailsTheStep: a Count expression that gives more
// than MaxCount fails its Nested step, which routes on its OnFailure; the
// run goes on, and the Result counts the times and names the Count cell.
func TestCountPastTheLimitFailsTheStep(t *testing.T) {
	m := &Model{
		Name: "count", TimeUnit: "s", Loads: []string{"L"},
		App:        AppConfig{Servers: 1, Capacity: 1_000_000},
		Attributes: []string{"N"},
		Services: []Service{
			{Name: "Top", Steps: []Step{
				{Name: "Fan", Kind: Nested, Services: []int{1}, Count: attrCount{}, OnSuccess: 1, OnFailure: Fail,
					Cell: "ProcData.xlsx!Top!A2", CountCell: "ProcData.xlsx!Top!D2"},
				{Name: "Again", Kind: Nested, Services: []int{1}, Count: attrCount{}, OnSuccess: Done, OnFailure: Fail,
					Cell: "ProcData.xlsx!Top!A3", CountCell: "ProcData.xlsx!Top!D3"},
			}},
			{Name: "Sub", Steps: []Step{{Name: "W", Kind: Local, ProcTime: constD(1e-9), OnSuccess: Done, OnFailure: Fail}}},
		},
		Entities: []Entity{{Name: "R", InterArrival: []Dist{expD(1)},
			// N is 0 or MaxCount+1, one request in four past the limit.
			Attributes: []Attribute{{Index: 0, Dist: countD(0)}},
			Stages:     []Stage{{Service: 0, OnSuccess: End, OnFailure: Exit}}}},
	}
	r := run(t, m, RunConfig{Seed: 3, Observations: 4_000})
	if !r.Stable {
		t.Fatalf("unstable: %s", r.Unstable)
	}
	// Both steps read the same N, so a request past the limit fails at
	// Fan, and Again never passes it. Binomial, n = 4000, p = 1/4: sd
	// 0.0068; 4 sd.
	share := float64(r.Failed) / float64(r.Completed+r.Failed)
	if math.Abs(share-0.25) > 0.028 {
		t.Errorf("failed share %.4f, want 0.25 (the requests whose Count passed %d)", share, MaxCount)
	}
	if r.CountOverLimit != r.Failed || r.CountOverLimitAt["ProcData.xlsx!Top!D2"] != r.Failed || len(r.CountOverLimitAt) != 1 {
		t.Errorf("CountOverLimit %d at %v, want the %d failed requests, all at the first Count cell", r.CountOverLimit, r.CountOverLimitAt, r.Failed)
	}
	// The second step's own Count past the limit is counted at its cell.
	m.Services[0].Steps[1].Count = overLimit{}
	r = run(t, m, RunConfig{Seed: 3, Observations: 4_000})
	at := r.CountOverLimitAt
	if r.Completed != 0 || at["ProcData.xlsx!Top!D2"]+at["ProcData.xlsx!Top!D3"] != r.Failed || at["ProcData.xlsx!Top!D3"] < 2_800 || at["ProcData.xlsx!Top!D2"] < 800 {
		t.Errorf("%d completed, %d failed; past the limit at %v: want every request failed, about 1,000 at D2 and 3,000 at D3", r.Completed, r.Failed, at)
	}
	m.Services[0].Steps[1].Count = attrCount{}
	// The limit itself is within it.
	m.Entities[0].Attributes[0].Dist = countD(MaxCount)
	r = run(t, m, RunConfig{Seed: 3, Observations: 20})
	if r.Failed != 0 || r.CountOverLimit != 0 || r.Completed != 20 {
		t.Errorf("Count %d: %d failed, %d past the limit, %d completed; want all 20 completed", MaxCount, r.Failed, r.CountOverLimit, r.Completed)
	}
}

// overLimit is a Count expression that always passes the limit.
type overLimit struct{}

func (overLimit) Number(*EvalContext) (float64, error) { return MaxCount + 1, nil }

// countD gives MaxCount+1 one time in four, else its own value.
type countD float64

func (d countD) Sample(r *rand.Rand) float64 {
	if r.Float64() < 0.25 && d != MaxCount {
		return MaxCount + 1
	}
	return float64(d)
}
func (d countD) Mean() float64  { return float64(d) }
func (d countD) String() string { return "countD" }
