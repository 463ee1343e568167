package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/websim/websim/engine/stats"
	"github.com/websim/websim/internal/numtext"
)

// RunConfig says which run to make of a Model.
type RunConfig struct {
	// Load is the index of the load level in Model.Loads.
	Load int
	// Replication numbers independent runs of the same scenario and load.
	Replication int
	// Seed is the base random seed.
	Seed uint64
	// WarmUp is simulated time discarded before statistics start.
	WarmUp float64
	// Observations is the number of requests finished (completed, failed
	// or abandoned) after the warm-up at which the run stops.
	Observations int64
	// MaxInSystem bounds the requests in the system, and MaxQueue the jobs
	// waiting at any external server, before the run is declared unstable
	// and stopped. Zero picks a default from the model's size.
	MaxInSystem, MaxQueue int
	// Progress, when set, is called now and then with the finished
	// requests so far and Observations.
	Progress func(finished, total int64)
	// Context, when set, stops the run early when it is cancelled.
	Context context.Context
	// Trace, when set, receives one line per thing a request does (arrive,
	// take a unit, start a step, call, answer, time out, fork, finish), at
	// most TraceLimit lines (0: no limit). For short runs: it slows a run
	// down many times.
	Trace      io.Writer
	TraceLimit int
	// ResponseSeries, when set, receives every response time after the
	// warm-up in completion order (for MSER warm-up detection); it must
	// not keep a reference to the engine.
	ResponseSeries func(t, response float64)
}

// RunError is a failure inside a run, such as an expression that fails at
// run time; it names the cell, the simulated time and the request.
type RunError struct {
	// Cell is the step's row, or the expression's own cell when the error
	// carries one (see LocatedError).
	Cell string
	// Time is the simulated time, in Unit.
	Time    float64
	Unit    string
	Request int64
	Entity  string
	Attempt int
	// Scenario and Load, when set by the caller, say which run failed.
	Scenario, Load string
	Err            error
}

// LocatedError is an error that knows its cell, such as an expression
// failing at run time; RunError then leads with that cell and prints the
// detail without it.
type LocatedError interface {
	error
	Location() string
	Detail() string
}

func (e *RunError) Error() string {
	where, detail := e.Cell, e.Err.Error()
	var le LocatedError
	if errors.As(e.Err, &le) && le.Location() != "" {
		where, detail = le.Location(), le.Detail()
	}
	if where == "" {
		where = "model"
	}
	run := ""
	if e.Scenario != "" {
		run = fmt.Sprintf(", scenario %s, load %s", e.Scenario, e.Load)
	}
	if e.Entity == "" {
		return fmt.Sprintf("%s: at simulated %s%s: %s", where, formatTime(e.Time, e.Unit), run, detail)
	}
	return fmt.Sprintf("%s: at simulated %s%s, request %d (%s, attempt %d): %s",
		where, formatTime(e.Time, e.Unit), run, e.Request, e.Entity, e.Attempt, detail)
}

// ErrClock is the cause of a RunError whose simulated clock cannot go on:
// a drawn time that is negative, not a number or infinite, or times so
// small (or zero) that the clock stops advancing. The RunError's Cell is
// the distribution's cell, when the model gives one.
var ErrClock = errors.New("the simulated clock cannot advance")

func (e *RunError) Unwrap() error { return e.Err }

// sim is the state of one run.
type sim struct {
	m    *Model
	cfg  RunConfig
	load int
	now  float64
	cal  calendar
	ctx  EvalContext

	apps    []appServer
	servers []extServer

	// reqs, toks and attrs share slots (see request), freeSlots those free.
	reqs      []request
	toks      []token
	freeSlots []int32
	jobs      []job
	freeJobs  []int32
	gates     []gate
	freeGates []int32
	attrs     []float64
	nAttrs    int
	ready     ring[int32]

	rArrival, rAttr, rPatience, rRetry []*rand.Rand
	rLocal, rRouting, rSelect          *rand.Rand
	// lbs finds the least busy application server (LeastBusy only).
	lbs        loadTree // more than scanMaxServers servers only
	lastPicked int32

	nextCyclic  int32
	nextID      int64
	open        int64 // requests without a final outcome
	arrivedAll  int64 // requests arrived, warm-up included
	finishedAll int64 // requests with a final outcome, warm-up included
	finished    int64 // the same after the warm-up
	maxInSystem int64
	maxQueue    int

	measuring bool
	stop      bool
	err       error
	// stepsAtInstant counts token steps, and eventsAtInstant events, since
	// the clock last moved; stillSrc says where the last delay came from
	// that did not move it, and stillArrivals counts each entity's
	// arrivals in a row that did not move it (the clock guard).
	stepsAtInstant, eventsAtInstant int
	stillSrc                        delaySource
	stillRef                        int32
	stillArrivals                   []int32
	// tr is the trace, nil when not tracing.
	tr *tracer

	res  Result
	ents []entityStats
	// resp and tryRsp are the extremes of the responses and of the
	// attempts' responses; their counts, means and variances are those of
	// batches and tryBatches.
	resp, tryRsp extremes
	// tryApart is set once an attempt's response differed from its
	// request's (a retry): until then the attempt figures are the
	// response figures, and tryRsp, tryBatches and tryHist stay empty.
	tryApart            bool
	respPct             stats.Percentiles
	tryHist             stats.Histogram
	batches, tryBatches stats.BatchMeans
	outcomes            outcomeBatches
	measureStart        float64
	tl                  timeline
	// measureFrom is when statistics start (the warm-up's end), known
	// from the start, for figures folded in ahead of the clock.
	measureFrom float64
	// anyPatience is true when some entity's users may give up.
	anyPatience bool
	// growth watches the number in the system for the stability test.
	growth stats.Growth
	// inSystem integrates the number in the system from time 0, and
	// busyBefore is the AppRes unit-time busy before the warm-up's end
	// (where the servers' averages start afresh): the timeline's
	// intervals are exact time averages of the two.
	inSystem   stats.TimeAverage
	busyBefore float64
}

// Run simulates one load level of m until cfg.Observations requests have
// finished after the warm-up, the run proves unstable, or the context is
// cancelled. An unstable run is not an error: its Result says Stable false
// and why. Errors are failures of the model at run time (*RunError) or a
// model Run cannot simulate.
//
// The Result's figures may share storage with one another (with one
// entity, its percentiles are the totals'): read them, merge them into
// another Result (Result.Merge makes its own), but do not change them in
// place.
func Run(m *Model, cfg RunConfig) (*Result, error) {
	s, err := newSim(m, cfg)
	if err != nil {
		return nil, err
	}
	if err := s.run(); err != nil {
		return nil, err
	}
	s.checkGrowth()
	return s.result(), nil
}

// run simulates until the run is done, and brings the background load
// up to the end.
func (s *sim) run() error {
	s.loop()
	s.backgroundAll()
	s.checkClockMoved()
	return s.err
}

// A Runner is a run that can be extended: Extend goes on from where the
// run stopped, in the same state, so a run extended to N observations
// gives the same figures as one Run of N (the doubling of TargetPrecision
// costs the final length, not the sum of every pass from time 0).
type Runner struct {
	s    *sim
	done bool
}

// Start prepares a run of m as Run does, without simulating yet.
func Start(m *Model, cfg RunConfig) (*Runner, error) {
	s, err := newSim(m, cfg)
	if err != nil {
		return nil, err
	}
	return &Runner{s: s}, nil
}

// Extend simulates until observations requests have finished after the
// warm-up in all (at least those of earlier calls), the run proves
// unstable, or the context is cancelled, and returns the figures so far.
// The Result shares nothing with the Runner. Once a run is unstable or
// has failed, Extend returns the same figures (or error) again.
func (r *Runner) Extend(observations int64) (*Result, error) {
	s := r.s
	if s.err != nil {
		return nil, s.err
	}
	if !r.done || (s.res.Stable && observations > s.cfg.Observations) {
		if observations > s.cfg.Observations {
			s.cfg.Observations = observations
		}
		if s.res.Stable && s.finished < s.cfg.Observations {
			s.stop = false
		}
		r.done = true
		if err := s.run(); err != nil {
			return nil, err
		}
		s.checkGrowth()
	}
	res := s.result()
	res.detach()
	return res, nil
}

func newSim(m *Model, cfg RunConfig) (*sim, error) {
	if err := m.Check(); err != nil {
		return nil, fmt.Errorf("the model cannot run: %w", err)
	}
	if cfg.Load < 0 || cfg.Load >= len(m.Loads) {
		return nil, fmt.Errorf("load %d out of range: the model has %d loads", cfg.Load, len(m.Loads))
	}
	if math.IsNaN(cfg.WarmUp) || math.IsInf(cfg.WarmUp, 0) {
		return nil, fmt.Errorf("warm-up is %g; expected a finite time", cfg.WarmUp)
	}
	if cfg.Observations < 1 {
		return nil, errors.New("observations must be at least 1")
	}
	s := &sim{m: m, cfg: cfg, load: cfg.Load, nAttrs: len(m.Attributes), resp: noExtremes, tryRsp: noExtremes}
	s.res.Stable = true
	seed := runSeed(cfg.Seed, cfg.Load, cfg.Replication)
	s.apps = make([]appServer, m.App.Servers)
	for i := range s.apps {
		s.apps[i].capacity = int32(m.App.Capacity)
	}
	s.servers = make([]extServer, len(m.Servers))
	for i := range s.servers {
		s.servers[i] = extServer{
			capacity: int32(m.Servers[i].Capacity),
			rService: newStream(seed, streamService+i),
			rBgArr:   newStream(seed, streamBgArrival+i),
			rBgSvc:   newStream(seed, streamBgService+i),
		}
	}
	n := len(m.Entities)
	s.stillArrivals = make([]int32, n+len(m.Servers))
	s.ents = make([]entityStats, n)
	for e := range s.ents {
		s.ents[e].resp = noExtremes
	}
	for e := range m.Entities {
		s.anyPatience = s.anyPatience || m.Entities[e].Patience != nil
	}
	s.rArrival = make([]*rand.Rand, n)
	s.rAttr = make([]*rand.Rand, n)
	s.rPatience = make([]*rand.Rand, n)
	s.rRetry = make([]*rand.Rand, n)
	for e := range n {
		s.rArrival[e] = newStream(seed, streamArrival+e)
		s.rAttr[e] = newStream(seed, streamAttribute+e)
		s.rPatience[e] = newStream(seed, streamPatience+e)
		s.rRetry[e] = newStream(seed, streamRetry+e)
	}
	s.rLocal = newStream(seed, streamLocal)
	s.rRouting = newStream(seed, streamRouting)
	s.rSelect = newStream(seed, streamSelection)

	s.maxInSystem = int64(cfg.MaxInSystem)
	if s.maxInSystem <= 0 {
		s.maxInSystem = max(20_000, 50*int64(m.App.Servers*m.App.Capacity))
	}
	s.maxQueue = cfg.MaxQueue
	if s.maxQueue <= 0 {
		s.maxQueue = 100_000
	}
	if cfg.Trace != nil {
		s.tr = &tracer{w: cfg.Trace, limit: cfg.TraceLimit}
	}
	s.ctx.Load = m.Loads[cfg.Load]
	s.ctx.State = s
	s.ctx.Params = make([]float64, len(m.Params))
	for i, p := range m.Params {
		s.ctx.Params[i] = p.Value
	}

	if m.App.Selection == LeastBusy && m.App.Servers > 1 {
		if m.App.Servers > scanMaxServers {
			s.lbs.init(m.App.Servers)
		}
		s.lastPicked = -1
	}
	s.cal.useSlots(len(m.Entities))
	for e := range m.Entities {
		if d := m.Entities[e].InterArrival[cfg.Load]; d != nil {
			s.scheduleArrival(d.Sample(s.rArrival[e]), int32(e))
		}
	}
	for i := range m.Servers {
		if d := m.Servers[i].BackgroundInterArrival; d != nil && m.Servers[i].BackgroundServiceTime != nil {
			sv := &s.servers[i]
			first := d.Sample(sv.rBgArr)
			sv.nextBg, sv.hasBg = first, s.delayOK(0, first, srcBackground, int32(i))
		}
	}
	s.measureFrom = max(cfg.WarmUp, 0)
	if s.err != nil {
		return nil, s.err
	}
	s.tl.init(timelineWidth(m, cfg.Load))
	if cfg.WarmUp > 0 {
		// Priority 0 and scheduled first: statistics start before anything
		// else that happens at the same instant.
		s.cal.scheduleP(cfg.WarmUp, 0, evWarmUp, 0, 0)
	} else {
		s.measuring = true
		s.watchServerQueues()
	}
	return s, nil
}

// loop is the event loop: pop the earliest event, act, run the tokens it
// made ready, until the run is done.
func (s *sim) loop() {
	var done <-chan struct{}
	if s.cfg.Context != nil {
		done = s.cfg.Context.Done()
	}
	// A resumed run may have stopped with tokens still ready at that
	// instant: they go first, as they would have in one longer run.
	for s.ready.len() > 0 && !s.stop {
		s.drive(s.ready.pop())
	}
	for !s.stop && s.cal.len() > 0 {
		ev := s.cal.pop()
		t := ev.time()
		if t != s.now {
			s.stepsAtInstant, s.eventsAtInstant, s.stillSrc = 0, 0, srcNone
		} else if s.eventsAtInstant++; s.eventsAtInstant > maxStepsPerInstant {
			s.clockStopped(fmt.Sprintf("%d events at the same instant", maxStepsPerInstant))
			return
		}
		s.now = t
		if s.now >= s.tl.next {
			s.tl.catchUp(s)
		}
		s.res.Events++
		switch ev.kind() {
		case evArrival:
			s.arrival(ev.ref)
		case evResume:
			t := &s.toks[ev.ref]
			if t.cont == contSuccessDraw {
				s.wasteWork(t, t.workStart)
				if t.localUnit {
					// A copy's local work is done: its extra unit goes back.
					t.localUnit = false
					s.release(ev.ref)
				}
			}
			s.drive(ev.ref)
		case evJobDone:
			s.jobDone(ev.ref)
		case evTimeLimit:
			s.timeLimit(ev.ref)
		case evPatience:
			s.patience(ev.ref, ev.gen)
		case evRetry:
			s.startAttempt(ev.ref)
		case evWarmUp:
			s.startMeasuring()
		}
		for s.ready.len() > 0 && !s.stop {
			s.drive(s.ready.pop())
		}
		if s.res.Events&0xffff == 0 {
			s.backgroundAll() // background load alone may overload a server
			if s.cfg.Progress != nil {
				s.cfg.Progress(s.finished, s.cfg.Observations)
			}
			if done != nil {
				select {
				case <-done:
					s.err = s.cfg.Context.Err()
					return
				default:
				}
			}
		}
	}
	if s.cfg.Progress != nil {
		s.cfg.Progress(s.finished, s.cfg.Observations)
	}
}

// startMeasuring ends the warm-up: figures start afresh from now.
func (s *sim) startMeasuring() {
	s.measuring = true
	s.measureStart = s.now
	s.growth = stats.Growth{}
	s.growth.Observe(s.now, s.open)
	s.busyBefore = s.busyArea(s.now)
	for i := range s.apps {
		a := &s.apps[i]
		a.busyAvg.Reset(s.now)
		a.queueAvg.Reset(s.now)
		a.acceptAvg.Reset(s.now)
		a.peakBusy = a.busy
	}
	s.backgroundAll()
	s.watchServerQueues()
}

// watchServerQueues starts each external server's growth test afresh at
// now, with the jobs waiting then.
func (s *sim) watchServerQueues() {
	for i := range s.servers {
		sv := &s.servers[i]
		sv.growth = stats.Growth{Quantity: "jobs waiting"}
		sv.growth.Observe(s.now, int64(sv.queuedAt(s.now)))
	}
}

// busyArea is the unit-time that AppRes units of every application server
// were busy from time 0 to t, t at or after the last change.
func (s *sim) busyArea(t float64) float64 {
	area := s.busyBefore
	for i := range s.apps {
		area += s.apps[i].busyAvg.Area(t)
	}
	return area
}

// recordResponse folds one completed request of entity e into the figures.
func (s *sim) recordResponse(e int32, response, attempt float64) {
	if s.tryApart || attempt != response {
		if !s.tryApart {
			// The first retried request: the attempts so far were the
			// requests themselves.
			s.tryApart = true
			s.tryRsp, s.tryBatches = s.resp, s.batches
			s.tryHist.Merge(s.respPct.Histogram())
		}
		s.tryRsp.add(attempt)
		s.tryBatches.Add(attempt)
		s.tryHist.Add(attempt)
	}
	s.resp.add(response)
	s.respPct.Add(response)
	s.batches.Add(response)
	if len(s.ents) > 1 { // with one entity, its figures are the totals
		s.ents[e].add(response)
	}
	if s.cfg.ResponseSeries != nil {
		s.cfg.ResponseSeries(s.now, response)
	}
}

// setContext prepares the expression context for token t.
func (s *sim) setContext(t *token) {
	a := &s.apps[t.app]
	s.ctx.Now = s.now
	s.ctx.AppUtil = float64(a.busy) / float64(a.capacity)
	s.ctx.Attempt = int(t.attempt) // a late copy works for its own attempt
	s.ctx.Attrs = s.requestAttrs(t.req)
	s.ctx.Copy = 0
	if t.depth > 0 {
		s.ctx.Copy = int(t.top.copyNo)
	}
}

// fail stops the run with an error located at cell, for token t's request.
func (s *sim) fail(t *token, cell string, err error) {
	s.failRequest(t.req, cell, err)
}

// failRun stops the run with an error located at cell that belongs to no
// request (background load, say).
func (s *sim) failRun(cell string, err error) {
	if s.err != nil {
		return
	}
	s.err = &RunError{Cell: cell, Time: s.now, Unit: s.m.TimeUnit, Err: err}
	s.stop = true
}

func (s *sim) failRequest(r int32, cell string, err error) {
	if s.err != nil {
		return
	}
	q := &s.reqs[r]
	s.err = &RunError{Cell: cell, Time: s.now, Unit: s.m.TimeUnit, Request: q.id, Entity: s.m.Entities[q.entity].Name, Attempt: int(q.attempt), Err: err}
	s.stop = true
}

// checkGrowth ends a run that reached its Observations: when the number
// of requests in the system kept growing over the measured part of the
// run (stats.Growth's trend test), the run is unstable, and its reason
// says what the test saw. The fixed thresholds (MaxInSystem, MaxQueue)
// and the deadlock checks stay as a backstop that stops a run early.
//
// A run of fewer than MinSteadyObservations is not tested (Untested): so
// short a window cannot tell a queue that grows from one that wanders
// (an M/M/20 at 90% over 100 observations, about 6 service times, was
// called growing or saturated in 65 of 300 seeds, with p-values as low as
// 1e-6), and its figures are marked as untested instead.
func (s *sim) checkGrowth() {
	if !s.res.Stable || !s.measuring || s.finished < s.cfg.Observations {
		return
	}
	// A run extended past it (TargetPrecision) is tested after all.
	if s.res.Untested = s.finished < MinSteadyObservations; s.res.Untested {
		return
	}
	v := s.growth.Verdict()
	if v.Growing {
		s.unstable("the requests in the system keep growing (run ended at %s): %s%s", s.clock(), v.Reason, s.bottleneck())
		s.res.Growing = true
		return
	}
	if s.checkServerGrowth() {
		return
	}
	if v.LevelsOff {
		if u := s.lateAppUtilization(); u >= saturatedLateUtilization {
			s.unstable("the requests in the system rose over the run (%s) while the application servers' units were busy %.2f%% of its second half: saturated, the queue has no steady state (run ended at %s)%s", v.Reason, 100*u, s.clock(), s.bottleneck())
			s.res.Growing = true
			return
		}
	}
	s.checkSaturated()
}

// checkServerGrowth ends the run, growing, when the jobs waiting at an
// external server keep growing, and reports whether it did. Calls that
// time out go on to their end (orphans), so a server can fall behind for
// good while its requests fail at their TimeLimits and the requests in the
// system stay few: retries of failed calls push its load past capacity,
// say. Each server is tested at GrowthAlpha divided by the servers tested,
// so that a model of many servers is not called growing more often than
// one of few; a server without calls after the warm-up is not tested (its
// background load alone is the saturation test's).
func (s *sim) checkServerGrowth() bool {
	tested := 0
	for i := range s.servers {
		if s.servers[i].growth.Observations() > 0 {
			tested++
		}
	}
	for i := range s.servers {
		sv := &s.servers[i]
		if sv.growth.Observations() == 0 {
			continue
		}
		if v := sv.growth.Test(stats.GrowthAlpha / float64(tested)); v.Growing {
			s.unstable("the jobs waiting at server %s keep growing, calls that timed out included (run ended at %s): %s%s",
				s.m.Servers[i].Name, s.clock(), v.Reason, s.bottleneck())
			s.res.Growing = true
			return true
		}
	}
	return false
}

// MinSteadyObservations is the fewest requests finished after the warm-up
// over which a run is tested for a steady state (checkGrowth). Below it
// the tests' false alarms on stable queues pass a few percent (an M/M/20
// at 90%: 7 of 300 at 1,000 observations, 39 of 300 at 300).
const MinSteadyObservations = 1000

// bottleneck says where a growing run's requests pile up: the servers
// whose units were busy at least bottleneckUtilization of the measured
// time, the busiest first (external ones first in the same tenth of a point:
// an application server's units may be busy only because they wait for
// one of them), each with what waits there at the end; when none was that
// busy, the server where most wait.
func (s *sim) bottleneck() string {
	type place struct {
		app     bool
		util    float64
		waiting int
		words   string
	}
	var busy []place
	most := place{}
	consider := func(p place) {
		if p.util >= bottleneckUtilization {
			busy = append(busy, p)
		}
		if p.waiting > most.waiting {
			most = p
		}
	}
	for i := range s.servers {
		sv := &s.servers[i]
		b, _, _ := sv.figures(s.now, s.measureFrom)
		u, queued := b/float64(sv.capacity), sv.queuedAt(s.now)
		consider(place{false, u, queued, fmt.Sprintf("server %s (units busy %.2f%% of the measured time, %s jobs queued at the end)", s.m.Servers[i].Name, 100*u, numtext.Group(int64(queued)))})
	}
	for i := range s.apps {
		a := &s.apps[i]
		u := a.busyAvg.Mean(s.now) / float64(a.capacity)
		forUnit, toEnter := a.waiting(), a.accept.len()-int(a.acceptCancelled)
		what := fmt.Sprintf("%s requests waiting for a unit", numtext.Group(int64(forUnit)))
		if toEnter > 0 {
			what = fmt.Sprintf("%s requests waiting to be admitted (MaxAdmitted %d) and %s for a unit", numtext.Group(int64(toEnter)), s.m.App.MaxAdmitted, numtext.Group(int64(forUnit)))
		}
		consider(place{true, u, forUnit + toEnter, fmt.Sprintf("application server App%d (units busy %.2f%% of the measured time, %s at the end)", i+1, 100*u, what)})
	}
	switch {
	case len(busy) > 0:
		// The busiest first, by tenths of a point; in the same tenth,
		// external servers first (an application server's units may be
		// busy only because they wait for one); then in model order.
		band := func(p place) float64 { return math.Floor(p.util * 1000) }
		slices.SortStableFunc(busy, func(a, b place) int {
			if c := cmp.Compare(band(b), band(a)); c != 0 {
				return c
			}
			if a.app != b.app {
				if a.app {
					return 1
				}
				return -1
			}
			return 0
		})
		words := make([]string, 0, 3)
		for _, p := range busy[:min(3, len(busy))] {
			words = append(words, p.words)
		}
		if len(busy) > 3 {
			words = append(words, fmt.Sprintf("and %d more", len(busy)-3))
		}
		return "; at capacity: " + strings.Join(words, ", ")
	case most.waiting > 0:
		return "; most wait at " + most.words
	}
	return ""
}

// bottleneckUtilization is the busy share of a server's units over the
// measured time at or above which a growing run names it as at capacity.
const bottleneckUtilization = 0.98

// saturatedLateUtilization is the busy share of the application servers'
// units over the second half of a run at or above which a rise over the
// whole run that the second half did not confirm is taken for saturation
// rather than a fill from empty: a queue at that load rises for longer
// than any practical run (an M/M/1 at 0.99 takes about 160,000 service
// times to settle), so the run shows no steady state either way. Seen on
// a model whose admitted requests were its bottleneck: in the system
// rose from 44 to 700 over 60% of the run, units 99.7% busy after that.
const saturatedLateUtilization = 0.99

// lateAppUtilization is the busy share of all application server units
// over the second half of the measured run, from the timeline's intervals.
func (s *sim) lateAppUtilization() float64 {
	mid := (s.measureStart + s.now) / 2
	var busy, span float64
	for _, iv := range s.tl.intervals(s) {
		if d := iv.End - max(iv.Start, mid); d > 0 {
			busy += iv.AppUtilization * d
			span += d
		}
	}
	if span <= 0 {
		return 0
	}
	return busy / span
}

// saturatedUtilization is the utilization, over the measured part of a
// run, at or above which a server is saturated: its units are never all
// free to keep up, and no queue of it settles in a run of any practical
// length (a stable queue at 99.9% has a mean queue in the thousands of
// requests). It catches an overload too mild for the growth test to see
// in the run's length (1.02 times capacity, say).
const saturatedUtilization = 0.999

// checkSaturated ends a run in which an application or external server
// was busy at least saturatedUtilization of the measured time.
func (s *sim) checkSaturated() {
	if s.now <= s.measureFrom {
		return
	}
	for i := range s.apps {
		a := &s.apps[i]
		if u := a.busyAvg.Mean(s.now) / float64(a.capacity); u >= saturatedUtilization {
			s.unstable("application server App%d is saturated: its units were busy %.2f%% of the measured time (run ended at %s), so its queue has no steady state", i+1, 100*u, s.clock())
			return
		}
	}
	for i := range s.servers {
		sv := &s.servers[i]
		busy, _, _ := sv.figures(s.now, s.measureFrom)
		if u := busy / float64(sv.capacity); u >= saturatedUtilization {
			s.unstable("server %s is saturated: its units were busy %.2f%% of the measured time (run ended at %s), so its queue has no steady state", s.m.Servers[i].Name, 100*u, s.clock())
			return
		}
	}
}

// unstable stops the run and records why it has no steady state.
func (s *sim) unstable(format string, args ...any) {
	if !s.res.Stable {
		return
	}
	s.res.Stable = false
	s.res.Unstable = fmt.Sprintf(format, args...)
	if !s.measuring {
		s.res.Unstable += fmt.Sprintf(", before the warm-up of %s ended, so this run collected no figures", formatTime(s.cfg.WarmUp, s.m.TimeUnit))
	}
	s.stop = true
}

// clock prints the simulated time with its unit: "82974.7 ms".
func (s *sim) clock() string { return formatTime(s.now, s.m.TimeUnit) }

func formatTime(t float64, unit string) string {
	text := strconv.FormatFloat(t, 'g', 6, 64)
	if math.Abs(t) >= 1e5 && math.Abs(t) < 1e15 {
		// Whole, without an exponent: 2,828,910, not 2.82891e+06.
		text = strconv.FormatFloat(t, 'f', 0, 64)
	}
	if math.Abs(t) >= 1000 && math.Abs(t) < 1e15 {
		// Thousands grouped, as the sheets show them: 6,467.82 ms.
		whole, frac, _ := strings.Cut(text, ".")
		n, _ := strconv.ParseInt(whole, 10, 64)
		text = numtext.Group(n)
		if frac != "" {
			text += "." + frac
		}
	}
	if unit == "" {
		return "time " + text
	}
	return text + " " + unit
}

// Util, Queue and Busy answer util(server), queue(server) and busy(server)
// in expressions: external servers by index, then the application servers
// as a whole.
func (s *sim) Util(i int) float64 {
	if i < len(s.servers) {
		return s.Busy(i) / float64(s.servers[i].capacity)
	}
	return s.Busy(i) / float64(len(s.apps)*int(s.apps[0].capacity))
}

// Queue returns the number of jobs (or requests) waiting at server i.
func (s *sim) Queue(i int) float64 {
	if i < len(s.servers) {
		s.backgroundUpTo(int32(i), s.now)
		return float64(s.servers[i].queuedAt(s.now))
	}
	n := 0
	for k := range s.apps {
		n += s.apps[k].waiting()
	}
	return float64(n)
}

// Busy returns the number of busy units of server i.
func (s *sim) Busy(i int) float64 {
	if i < len(s.servers) {
		s.backgroundUpTo(int32(i), s.now)
		sv := &s.servers[i]
		return float64(sv.busyAt(s.now))
	}
	n := int32(0)
	for k := range s.apps {
		n += s.apps[k].busy
	}
	return float64(n)
}

// result assembles the figures of the run.
func (s *sim) result() *Result {
	r := s.res
	r.Load = s.m.Loads[s.load]
	r.Replication = s.cfg.Replication
	r.TimelineReplication = s.cfg.Replication
	r.Replications = 1
	r.InSystem = s.open
	r.SimTime = s.now
	// The warm-up set, also when the run was stopped before it ended (and
	// had no figures): SimTime below WarmUp says so.
	r.WarmUp = s.cfg.WarmUp
	responses := summarize(&s.batches, s.resp, s.respPct.Histogram())
	r.Response = withRunIntervals(responses, &s.batches, &s.respPct)
	_, r.ResponseBatchSize = s.batches.Batches()
	r.ResponseBatches = s.batches.Means()
	s.outcomes.fill(&r)
	pct := s.respPct
	r.ResponsePercentiles = &pct
	r.ResponseHist = pct.Histogram()
	if s.tryApart {
		r.AttemptResponse = summarize(&s.tryBatches, s.tryRsp, &s.tryHist)
	} else {
		r.AttemptResponse = responses // the attempts were the requests
	}
	r.AttemptResponse.CIHalfWidth95 = math.NaN()
	r.AttemptResponse.setPercentileIntervals(nil)

	units := 0.0
	busy := 0.0
	queue := 0.0
	r.AppServers = make([]ServerResult, len(s.apps))
	for i := range s.apps {
		a := &s.apps[i]
		b := a.busyAvg.Mean(s.now)
		q := a.queueAvg.Mean(s.now)
		units += float64(a.capacity)
		busy += b
		queue += q
		r.AppServers[i] = ServerResult{
			Name: fmt.Sprintf("App%d", i+1), Capacity: int(a.capacity),
			Utilization: b / float64(a.capacity), MeanQueue: q, PeakBusy: int(a.peakBusy),
			MeanAcceptQueue: a.acceptAvg.Mean(s.now), HasAcceptQueue: s.m.App.MaxAdmitted > 0,
			Jobs: a.grants, Arrived: a.arrived, Waited: a.waited,
			AdmissionWaits: a.admissionWaits,
		}
		r.Check.UnitsBusy += int64(a.busy)
	}
	r.AppUtilization = busy / units
	r.AppQueue = queue
	r.Servers = make([]ServerResult, len(s.servers))
	callsOut := s.callsOut()
	for i := range s.servers {
		sv := &s.servers[i]
		busy, queue, unfinished := sv.figures(s.now, s.measureFrom)
		jobs := sv.jobs - unfinished
		if !s.measuring {
			jobs = 0
		}
		// Background jobs are events of the model, off the calendar: one
		// for the arrival, one for the end of service by now (the calls
		// among the unfinished jobs are those still out).
		r.Events += 2*sv.bgJobs - (unfinished - callsOut[i])
		r.Servers[i] = ServerResult{
			Name: s.m.Servers[i].Name, Capacity: int(sv.capacity),
			Utilization: busy / float64(sv.capacity),
			MeanQueue:   queue,
			Jobs:        jobs, Timeouts: sv.timeouts,
			OrphanJobs: sv.orphanJobs, OrphanWork: sv.orphanWork,
			PeakBusy: int(sv.free.len()), Arrived: sv.arrived, Waited: sv.waited,
		}
	}
	r.Averaged = 1
	if !s.measuring && s.cfg.WarmUp > 0 {
		r.Averaged = 0
		// Stopped before the warm-up ended: the averages would be of the
		// warm-up, which the figures leave out; there are none.
		nan := math.NaN()
		r.AppUtilization, r.AppQueue = nan, nan
		for _, list := range [][]ServerResult{r.AppServers, r.Servers} {
			for i := range list {
				list[i].Utilization, list[i].MeanQueue, list[i].MeanAcceptQueue = nan, nan, nan
			}
		}
	}
	r.Check.ArrivedAll = s.arrivedAll
	r.Check.FinishedAll = s.finishedAll
	r.Check.Open = s.open
	r.Check.UnitsHeld = s.unitsHeld()
	r.Entities = s.entityResults(&r.Response)
	r.Timeline = s.tl.intervals(s)
	return &r
}

// summarize is the summary of a series of response times: its count,
// mean and standard deviation from b, its extremes, its percentiles from h.
func summarize(b *stats.BatchMeans, x extremes, h *stats.Histogram) Summary {
	lo, hi := x.lo, x.hi
	if b.N() == 0 {
		lo, hi = 0, 0
	}
	var q [len(summaryQuantiles)]float64
	h.Quantiles(summaryQuantiles[:], q[:])
	s := Summary{
		N: b.N(), Mean: b.Mean(), SD: b.SD(), Min: lo, Max: hi,
		P50: q[0], P90: q[1], P95: q[2], P99: q[3],
	}
	s.clampPercentiles()
	return s
}

// summaryQuantiles are the percentiles a Summary holds, P50 to P99.
var summaryQuantiles = [...]float64{0.50, 0.90, 0.95, 0.99}

// runSummary is the summary of one run's response times with its
// intervals: the mean's from batch means (BatchMeans.CI), the
// percentiles' from the indicator batches of p.
func runSummary(b *stats.BatchMeans, x extremes, p *stats.Percentiles) Summary {
	return withRunIntervals(summarize(b, x, p.Histogram()), b, p)
}

// withRunIntervals is s, the summary of b and p's histogram, with the
// intervals runSummary gives it.
func withRunIntervals(s Summary, b *stats.BatchMeans, p *stats.Percentiles) Summary {
	ci := b.CI(0.95)
	s.CIHalfWidth95, s.BatchesForCI, s.BatchSize, s.NoCIWhy = ci.HalfWidth, int64(ci.Batches), ci.BatchSize, ci.Why
	s.setPercentileIntervals(p)
	return s
}

// unitsHeld sums the units held by live tokens.
func (s *sim) unitsHeld() int64 {
	n := int64(0)
	for i := range s.toks {
		if !s.toks[i].free {
			n += int64(s.toks[i].held)
		}
	}
	return n
}
