package study

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/engine/stats"
	"github.com/websim/websim/internal/numtext"
)

// Options steer Execute.
type Options struct {
	// Jobs is the number of runs simulated at once; 0 means one per core.
	// Results do not depend on it.
	Jobs int
	// Version is websim's version, recorded in the Study.
	Version string
	// Build identifies the program that runs the study, finer than
	// Version (which stays the same between builds of a development
	// version): a shard records it, and a merge refuses parts whose
	// builds differ, whose engines may not give the same figures.
	Build string
	// Progress, when set, is called from one goroutine at a time as runs
	// advance.
	Progress func(Progress)
	// Now gives the start time recorded in the Study; nil means time.Now.
	Now func() time.Time
	// Trace, when set, receives the step-by-step trace of the first run
	// (first scenario, first load, first replication), at most TraceLimit
	// lines.
	Trace      io.Writer
	TraceLimit int
}

// Progress reports how far a study is.
type Progress struct {
	// RunsDone and Runs count whole runs (replications included).
	RunsDone, Runs int
	// Fraction is the share of all work done, 0..1, runs in progress
	// counted by their observations.
	Fraction float64
	// Elapsed is the wall time so far; Left estimates the time left.
	Elapsed, Left time.Duration
}

// precisionCap bounds how far TargetPrecision may extend a run: to this
// many times the Observations setting.
const precisionCap = 16

// task is one replication of one scenario at one load.
type task struct {
	scenario, load, rep int
	run                 int // index of the Run it belongs to
}

type outcome struct {
	res      *engine.Result
	capHit   bool
	wall     float64
	err      error
	warmUp   float64
	finished bool
}

// Execute runs every scenario of p at each of its loads and replications,
// spread over opts.Jobs goroutines, and gathers the results. A run that
// proves unstable ends early and is marked so; it does not stop the others.
// A failure inside a run (an expression that fails, say) cancels the study
// and is returned.
func Execute(ctx context.Context, p *Plan, opts Options) (*Study, error) {
	st, tasks, err := newStudy(p, opts)
	if err != nil {
		return nil, err
	}
	all := make([]int, len(tasks))
	for i := range all {
		all[i] = i
	}
	// Each finished replication is folded into its run at once, in
	// replication order (one that ends before those ahead of it waits in
	// pending), so memory holds the pooled figures of each run and not
	// every run's whole Result: flat however many runs a study has.
	first := make([]int, len(st.Runs)) // each run's first task
	for i := len(tasks) - 1; i >= 0; i-- {
		first[tasks[i].run] = i
	}
	folded := make([]int, len(st.Runs))
	pending := map[int]outcome{}
	err = runTasks(ctx, p, tasks, all, opts, func(i int, o outcome) error {
		pending[i] = o
		run := &st.Runs[tasks[i].run]
		n := &folded[tasks[i].run]
		for *n < run.Replications {
			j := first[tasks[i].run] + *n
			o, ok := pending[j]
			if !ok {
				break
			}
			delete(pending, j)
			run.fold(o)
			if *n++; *n == run.Replications {
				run.endPool()
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	finish(st)
	return st, nil
}

// newStudy lays out the study of p without its results, and the list of
// its runs (scenario-major, then load, then replication): the order in
// which runs are fed to workers and dealt to shards.
func newStudy(p *Plan, opts Options) (*Study, []task, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	st := &Study{
		Model:            p.Model,
		TimeUnit:         p.TimeUnit,
		Version:          opts.Version,
		Started:          now(),
		Settings:         p.Settings,
		ScenarioSettings: map[string][]Setting{},
		Inputs:           p.Inputs,
		Warnings:         p.Warnings,
		Targets:          p.Targets,
		Measured:         p.Measured,
	}
	if len(p.Scenarios) == 0 {
		return nil, nil, fmt.Errorf("the plan has no scenario to run")
	}
	st.Seed = p.Scenarios[0].Run.Seed
	// A Run is large (its Result is held by value): the list is made at
	// its length, where growing it moved every Run at each doubling.
	nRuns, nTasks := 0, 0
	for _, sc := range p.Scenarios {
		nRuns += len(sc.Run.Loads)
		nTasks += len(sc.Run.Loads) * max(1, sc.Run.Replications)
	}
	if nRuns > 0 {
		st.Runs = make([]Run, 0, nRuns)
	}
	tasks := make([]task, 0, nTasks)
	loadSeen := map[string]bool{}
	for si, sc := range p.Scenarios {
		st.Scenarios = append(st.Scenarios, sc.Name)
		st.ScenarioSettings[sc.Name] = sc.Overrides
		if len(sc.Charts) > 0 {
			if st.Charts == nil {
				st.Charts = map[string][]string{}
			}
			st.Charts[sc.Name] = sc.Charts
		}
		for _, li := range sc.Run.Loads {
			label := sc.Model.Loads[li]
			if !loadSeen[label] {
				loadSeen[label] = true
				st.Loads = append(st.Loads, label)
				st.ArrivalRates = append(st.ArrivalRates, arrivalRate(sc.Model, li))
			}
			reps := max(1, sc.Run.Replications)
			st.Runs = append(st.Runs, Run{Scenario: sc.Name, Load: label, Replications: reps, TargetPrecision: sc.Run.TargetPrecision})
			for rep := range reps {
				tasks = append(tasks, task{scenario: si, load: li, rep: rep, run: len(st.Runs) - 1})
			}
		}
	}
	return st, tasks, nil
}

// runTasks runs the tasks listed in which (indexes into tasks), spread over
// opts.Jobs goroutines, and hands each outcome to keep, one call at a time.
// A failing run (or keep failing) cancels the others; the error returned is
// that of the first such task in the order of which.
func runTasks(ctx context.Context, p *Plan, tasks []task, which []int, opts Options, keep func(i int, o outcome) error) error {
	if len(which) == 0 {
		return ctx.Err()
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	jobs = min(jobs, len(which))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	errs := make([]error, len(which))
	var keepMu sync.Mutex
	sub := make([]task, len(which))
	for j, i := range which {
		sub[j] = tasks[i]
	}
	tracker := newTracker(p, sub, opts.Progress)
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				i := which[j]
				var trace io.Writer
				if i == 0 {
					trace = opts.Trace
				}
				o := runTask(ctx, p, tasks[i], trace, opts.TraceLimit, func(f float64) { tracker.update(j, f) })
				err := o.err
				if err == nil {
					keepMu.Lock()
					err = keep(i, o)
					keepMu.Unlock()
				}
				errs[j] = err
				tracker.done(j)
				if err != nil {
					cancel()
				}
			}
		}()
	}
feed:
	for j := range which {
		select {
		case next <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	// A failing run cancels the others, which then report the
	// cancellation: the failure itself is the error to return.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return ctx.Err()
}

// assemble pools the replications of each run of st, which reps gives in
// replication order, then measures each scenario against the first at the
// same load. One-machine studies and merged shards both come through here.
func assemble(st *Study, reps func(run int) ([]outcome, error)) error {
	for i := range st.Runs {
		rs, err := reps(i)
		if err != nil {
			return err
		}
		pool(&st.Runs[i], rs)
	}
	finish(st)
	return nil
}

// finish completes a study whose runs are all in: the differences from
// the first scenario, and a warning naming the runs that TargetPrecision
// could not bring to its precision within its cap. It may be called again
// on the same study (a merge of shards) and gives the same warnings.
func finish(st *Study) {
	compareRuns(st)
	var kept []string // a new slice: the plan's warnings are shared
	for _, w := range st.Warnings {
		if !RunWarning(w) {
			kept = append(kept, w)
		}
	}
	st.Warnings = kept
	labelled := make([]labelledResult, len(st.Runs))
	for i, r := range st.Runs {
		labelled[i] = labelledResult{fmt.Sprintf("%s at %s", r.Scenario, r.Load), &r.Result}
	}
	st.Warnings = append(st.Warnings, countLimitWarnings(labelled)...)
	var untested []string
	for _, r := range st.Runs {
		if r.Result.Stable && r.Result.Untested {
			untested = append(untested, fmt.Sprintf("%s at %s", r.Scenario, r.Load))
		}
	}
	if len(untested) > 0 {
		st.Warnings = append(st.Warnings, untestedWarning(untested))
	}
	var missed, across []string
	for _, r := range st.Runs {
		resp := r.Result.Response
		rel := "no interval"
		if resp.Mean > 0 && !math.IsNaN(resp.CIHalfWidth95) {
			rel = fmt.Sprintf("±%.2g%% of the mean", 100*resp.CIHalfWidth95/resp.Mean)
		}
		switch {
		case r.PrecisionCapHit:
			missed = append(missed, fmt.Sprintf("%s at %s (%s)", r.Scenario, r.Load, rel))
		case r.missedAcross():
			reached := "no interval"
			if !math.IsNaN(resp.CIHalfWidth95) && resp.Mean > 0 {
				reached = fmt.Sprintf("±%.3g%% of the mean", 100*resp.CIHalfWidth95/resp.Mean)
			}
			across = append(across, fmt.Sprintf("%s at %s (%s, asked ±%.3g%%)", r.Scenario, r.Load, reached, 100*r.TargetPrecision))
		}
	}
	if len(missed) > 0 {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s within %d times Observations, so their intervals are wider than asked: %s", PrecisionWarning, precisionCap, someOf(missed)))
	}
	if len(across) > 0 {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s across the replications: each replication reached it on its own, but the interval across them (Student t over their means) is wider; more Replications narrow it: %s", PrecisionWarning, someOf(across)))
	}
}

// RunWarning reports whether a warning of a Study or Sizing was given by
// its runs (TargetPrecision not reached, a Count past its limit) or by the
// search of size (a varied setting that Experiments set), rather than by
// the reading of the model, which the CLI prints before the runs.
func RunWarning(w string) bool {
	return strings.HasPrefix(w, PrecisionWarning) || strings.HasPrefix(w, UntestedWarning) || strings.Contains(w, countLimitWarning) || strings.Contains(w, varyOverrideWarning)
}

// labelledResult is a run's figures with the words that name the run.
type labelledResult struct {
	label  string
	result *engine.Result
}

// countLimitWarning is in every warning of countLimitWarnings.
const countLimitWarning = "Count gave more than"

// countLimitWarnings says, for each Count cell whose expression passed
// engine.MaxCount in some runs, how often and in which runs: each time its
// Nested step failed, a figure the user must know to read the results.
func countLimitWarnings(runs []labelledResult) []string {
	times := map[string]int64{}
	where := map[string][]string{}
	for _, r := range runs {
		if r.result == nil {
			continue
		}
		for c, n := range r.result.CountOverLimitAt {
			times[c] += n
			where[c] = append(where[c], r.label)
		}
	}
	var out []string
	for _, c := range slices.Sorted(maps.Keys(times)) {
		often := "once"
		if times[c] > 1 {
			often = numtext.Group(int64(times[c])) + " times"
		}
		limit := numtext.Group(int64(engine.MaxCount))
		out = append(out, fmt.Sprintf("%s: %s %s, the limit, %s (%s): each time its Nested step failed, and with it the request unless the step's OnFailure routes elsewhere; expected a Count within the limit (min(..., %d), say)",
			c, countLimitWarning, limit, often, someOf(where[c]), engine.MaxCount))
	}
	return out
}

// someOf lists the first few of items and says how many more there are,
// so that a warning naming runs stays readable (and fits a cell).
func someOf(items []string) string {
	const shown = 8
	if len(items) <= shown {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:shown], ", "), len(items)-shown)
}

// missedAcross reports whether r's replications each reached its
// TargetPrecision (none hit the cap) while the interval across them is
// wider than asked.
func (r *Run) missedAcross() bool {
	return r.TargetPrecision > 0 && r.Replications > 1 && !r.PrecisionCapHit && r.Result.Stable &&
		r.Result.Response.N > 0 && !precise(&r.Result, r.TargetPrecision)
}

// UntestedWarning begins the warning that names the runs too short to be
// tested for a steady state (engine.Result.Untested).
const UntestedWarning = "Too short to test for a steady state"

// untestedWarning is the warning naming the runs (labels) that were too
// short to be tested for a steady state.
func untestedWarning(labels []string) string {
	return fmt.Sprintf("%s (fewer than %s requests finished after the warm-up): %s; their figures are what each run saw, settled or not, and a queue that grows without end would not show as one: raise Observations", UntestedWarning, numtext.Group(engine.MinSteadyObservations), someOf(labels))
}

// PrecisionWarning begins the warning of a study whose runs
// TargetPrecision could not bring to its precision.
const PrecisionWarning = "TargetPrecision was not reached"

// compareRuns measures each scenario of st against the first at the same
// load.
func compareRuns(st *Study) {
	base := map[string]int{}
	for i, r := range st.Runs {
		if r.Scenario == st.Scenarios[0] {
			base[r.Load] = i
		}
	}
	for i := range st.Runs {
		r := &st.Runs[i]
		b, ok := base[r.Load]
		// A difference with an unstable run compares a figure that has no
		// steady state: leave it out.
		if !ok || r.Scenario == st.Scenarios[0] || !r.Result.Stable || !st.Runs[b].Result.Stable {
			continue
		}
		r.Diff = Compare(r, &st.Runs[b])
	}
}

// runTask runs one replication, extending it for TargetPrecision and
// finding the warm-up by MSER-5 when asked.
func runTask(ctx context.Context, p *Plan, t task, trace io.Writer, traceLimit int, progress func(float64)) outcome {
	sc := &p.Scenarios[t.scenario]
	start := time.Now()
	cfg := engine.RunConfig{
		Load: t.load, Replication: t.rep, Seed: sc.Run.Seed,
		WarmUp: sc.Run.WarmUp, Observations: sc.Run.Observations, Context: ctx,
	}
	if cfg.Observations <= 0 {
		cfg.Observations = 100_000
	}
	target := cfg.Observations
	cfg.Progress = func(done, total int64) { progress(math.Min(1, float64(done)/float64(target))) }
	if sc.Run.AutoWarmUp {
		w, err := mserWarmUp(sc.Model, cfg)
		if err != nil {
			return outcome{err: runFailure(sc, t.load, err)}
		}
		cfg.WarmUp = w
	}
	var res *engine.Result
	capHit := false
	cfg.Trace, cfg.TraceLimit = trace, traceLimit
	if sc.Run.TargetPrecision <= 0 {
		// One pass: Run's figures need not be copied apart from the run
		// (as Extend's are, for the next pass), which a study of many
		// short runs would notice.
		r, err := engine.Run(sc.Model, cfg)
		if err != nil {
			return outcome{err: runFailure(sc, t.load, err)}
		}
		return outcome{res: r, wall: time.Since(start).Seconds(), warmUp: cfg.WarmUp, finished: true}
	}
	// TargetPrecision doubles the observations until the interval is
	// narrow enough: each pass goes on from where the last one stopped.
	rn, err := engine.Start(sc.Model, cfg)
	if err != nil {
		return outcome{err: runFailure(sc, t.load, err)}
	}
	for {
		r, err := rn.Extend(cfg.Observations)
		if err != nil {
			return outcome{err: runFailure(sc, t.load, err)}
		}
		res = r
		if !r.Stable || precise(r, sc.Run.TargetPrecision) {
			break
		}
		if cfg.Observations >= precisionCap*sc.Run.Observations {
			capHit = true
			break
		}
		cfg.Observations *= 2
		target = cfg.Observations
	}
	return outcome{res: res, capHit: capHit, wall: time.Since(start).Seconds(), warmUp: cfg.WarmUp, finished: true}
}

// runFailure says which scenario and load a failed run belongs to.
func runFailure(sc *Scenario, load int, err error) error {
	var re *engine.RunError
	if errors.As(err, &re) {
		re.Scenario, re.Load = sc.Name, sc.Model.Loads[load]
		return re
	}
	return fmt.Errorf("scenario %s, load %s: %w", sc.Name, sc.Model.Loads[load], err)
}

// pooledNote ends the reason of a pool that is not stable, which names
// one replication, with what the figures beside it are: every
// replication pooled, and how many of them were not stable ("" for a
// single run). A reason such as "deadlocked before the warm-up ended, so
// this run collected no figures" would otherwise contradict the figures of
// the other replications shown beside it.
func pooledNote(reps []repFigures) string {
	if len(reps) < 2 {
		return ""
	}
	unstable := 0
	for _, f := range reps {
		if !f.stable {
			unstable++
		}
	}
	return fmt.Sprintf(" (the figures pool all %d replications; %d of them not stable)", len(reps), unstable)
}

func precise(r *engine.Result, target float64) bool {
	hw := r.Response.CIHalfWidth95
	return !math.IsNaN(hw) && r.Response.Mean > 0 && hw <= target*r.Response.Mean
}

// pool combines the replications of one scenario at one load
// (engine.Result.Merge) and keeps what Compare pairs.
func pool(run *Run, reps []outcome) {
	for _, o := range reps {
		run.fold(o)
	}
	run.endPool()
}

// fold pools the next replication of run into its figures: the first is
// taken as it is, the others merged into it one by one (which gives the
// figures of one Merge of them all). Only what Compare pairs is kept of
// each: its mean, and the batch means of the first.
func (run *Run) fold(o outcome) {
	// A replication without a completed request has no mean: it does not
	// enter the interval or the pairing (NaN marks it).
	m := math.NaN()
	if o.res.Response.N > 0 {
		m = o.res.Response.Mean
	}
	run.replicationMeans = append(run.replicationMeans, m)
	run.reps = append(run.reps, figuresOf(o.res))
	run.WallSeconds += o.wall
	run.PrecisionCapHit = run.PrecisionCapHit || o.capHit
	if len(run.replicationMeans) == 1 {
		run.Result = *o.res
		run.batchMeans, run.batchSize = o.res.ResponseBatches, o.res.ResponseBatchSize
		return
	}
	run.Result.Merge(o.res)
}

// endPool drops what only the pooling needed (histograms, the means
// Merge kept) once every replication of run is in.
//
// A run that is not stable has no steady state, so no interval: its
// response figures keep their values and lose their half-widths.
func (run *Run) endPool() {
	r := &run.Result
	r.DropPooling()
	replicationPercentiles(&r.Response, run.reps, -1)
	for i := range r.Entities {
		replicationPercentiles(&r.Entities[i].Response, run.reps, i)
	}
	if !r.Stable {
		r.Unstable += pooledNote(run.reps)
		noIntervals(&r.Response)
		noIntervals(&r.AttemptResponse)
		for i := range r.Entities {
			e := &r.Entities[i]
			noIntervals(&e.Response)
			e.FailedCI95, e.AbandonedCI95 = math.NaN(), math.NaN()
		}
		r.FailedCI95, r.AbandonedCI95 = math.NaN(), math.NaN()
	}
	if run.PrecisionCapHit && len(run.replicationMeans) > 1 && precise(r, run.TargetPrecision) {
		// A replication stopped at the cap, but the interval across them
		// is within TargetPrecision: the precision asked is reached.
		run.PrecisionCapHit = false
	}
}

// MinReplicationTail is the fewest observations each replication must
// expect beyond a percentile (n·min(q, 1-q)) for the interval of Student t
// across the replications' own percentiles: a replication's percentile
// read from fewer rests on a handful of times and is low more often than
// high. On an M/M/17 at utilization 0.88, 5 replications, 100 seeds, the
// interval of p95 missed the truth 17 times at 300 observations each (15
// beyond it), all below, that of p99 6 times (3 beyond), and a size probe
// at 17 units held a p99 target that needs 18; at 10,000 each (100 beyond
// p99) p95 missed 8 times and p99 4 times, all below, and the mean's
// interval 8 times (5 below): five replications of a busy queue are few for
// Student t. Below it a percentile has no interval, and a target on it is
// undecided.
const MinReplicationTail = 100

// replicationTailEnough says whether a replication of n requests expects
// MinReplicationTail beyond the q-quantile (with stats.EnoughBeyond's
// allowance for 1-0.9 falling a little short of 0.1).
func replicationTailEnough(n int64, q float64) bool {
	return float64(n)*min(q, 1-q)+1e-6 >= MinReplicationTail
}

// replicationPercentiles gives a pooled percentile of s that has no
// interval of the engine's (too few observations beyond it, or times too
// spread for its window) the interval of Student t across the
// replications' own percentiles, each an independent estimate (widened by
// the histogram's relative error, as the engine's are), when two
// or more replications completed requests (of entity ent; -1 for all):
// what the targets judge by, shown where the figure is.
func replicationPercentiles(s *engine.Summary, reps []repFigures, ent int) {
	if len(reps) < 2 {
		return
	}
	for _, p := range []struct {
		q   float64
		hw  *float64
		get func(*engine.Summary) float64
	}{
		{0.50, &s.P50CIHalfWidth95, func(s *engine.Summary) float64 { return s.P50 }},
		{0.90, &s.P90CIHalfWidth95, func(s *engine.Summary) float64 { return s.P90 }},
		{0.95, &s.P95CIHalfWidth95, func(s *engine.Summary) float64 { return s.P95 }},
		{0.99, &s.P99CIHalfWidth95, func(s *engine.Summary) float64 { return s.P99 }},
	} {
		if *p.hw > 0 {
			continue
		}
		var xs []float64
		thin := false
		for _, rep := range reps {
			f := rep.all
			if ent >= 0 {
				if ent >= len(rep.ents) {
					continue
				}
				f = rep.ents[ent]
			}
			if f.completed > 0 {
				xs = append(xs, p.get(&f.resp))
				thin = thin || !replicationTailEnough(f.completed, p.q)
			}
		}
		if thin {
			continue
		}
		// Each replication's percentile is read from a histogram on the
		// same buckets, so their relative error does not average out.
		if iv := stats.ReplicationCI(xs, 0.95); iv.Batches >= 2 {
			*p.hw = iv.HalfWidth + stats.RelativeError*p.get(s)
		}
	}
}

// noIntervals drops the half-widths of s.
func noIntervals(s *engine.Summary) {
	nan := math.NaN()
	s.CIHalfWidth95 = nan
	s.P50CIHalfWidth95, s.P90CIHalfWidth95, s.P95CIHalfWidth95, s.P99CIHalfWidth95 = nan, nan, nan, nan
}

// Compare measures run a against run b, the same load in two scenarios:
// the difference of mean response with its 95% half-width. Common random
// numbers make the two runs of a replication move together, so the
// interval of their differences is narrower than either interval alone.
// With replications the pairs are the replications; with one, the pairs
// are the batch means, when both runs cut their series into the same
// batches; otherwise the two intervals combine as if independent. It
// returns nil when the runs have different replication counts.
func Compare(a, b *Run) *Diff {
	if len(a.replicationMeans) != len(b.replicationMeans) || len(a.replicationMeans) == 0 {
		return nil
	}
	// The difference is that of the means shown; its interval comes from
	// the pairs.
	diff := &Diff{Mean: a.Result.Response.Mean - b.Result.Response.Mean}
	if len(a.replicationMeans) > 1 {
		d := make([]float64, len(a.replicationMeans))
		for i := range d {
			d[i] = a.replicationMeans[i] - b.replicationMeans[i] // NaN when either has none
		}
		diff.HalfWidth95 = stats.ReplicationCI(d, 0.95).HalfWidth
		return diff
	}
	if a.Result.Response.NoCIWhy != "" || b.Result.Response.NoCIWhy != "" {
		// A run worth too few independent observations for an interval of
		// its mean has none for a difference from it either: the pairs of
		// its batches are as correlated as the batches.
		diff.HalfWidth95 = math.NaN()
		return diff
	}
	bx, by := a.batchMeans, b.batchMeans
	if len(bx) >= 2 && len(bx) == len(by) && a.batchSize == b.batchSize {
		diff.HalfWidth95 = stats.PairedCI(bx, by, 0.95).HalfWidth
		return diff
	}
	hx, hy := a.Result.Response.CIHalfWidth95, b.Result.Response.CIHalfWidth95
	diff.HalfWidth95 = math.Sqrt(hx*hx + hy*hy)
	return diff
}

// arrivalRate is the requests per time unit that arrive at load li of m:
// the sum over entities of 1 / the mean inter-arrival time (an entity that
// does not arrive adds nothing); NaN when a mean is not a positive number.
func arrivalRate(m *engine.Model, li int) float64 {
	for _, e := range m.Entities {
		if li < len(e.InterArrival) && e.InterArrival[li] != nil {
			if mean := e.InterArrival[li].Mean(); !(mean > 0) || math.IsInf(mean, 0) {
				return math.NaN()
			}
		}
	}
	return m.ArrivalRate(li)
}
