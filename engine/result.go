package engine

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/websim/websim/engine/stats"
)

// Result holds the figures of one run (one scenario, load and replication)
// or of several replications pooled by Merge.
type Result struct {
	Load        string
	Replication int
	// Replications is the number of runs pooled into the figures: 1 for a
	// run, more after Merge.
	Replications int
	// Averaged is how many of them the time averages (utilizations and
	// mean queues) stand for: a run stopped before its warm-up ended has
	// none (they are NaN), and pooling leaves it out of them. 0 in a
	// Result made by hand means all Replications.
	Averaged int

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
	// CountOverLimit counts the times, after the warm-up, a Nested step's
	// Count expression gave more than MaxCount: each time the step failed
	// (routing on its OnFailure). CountOverLimitAt has the same by Count
	// cell; nil when none did.
	CountOverLimit   int64
	CountOverLimitAt map[string]int64
	// WastedWork is the processing and service time spent, after the
	// warm-up, on behalf of attempts whose user had already given up.
	WastedWork float64

	// Entities has one entry per request type, in Model order: the same
	// counts and response figures as the totals, for its requests alone.
	Entities []EntityResult
	// FailedCI95 and AbandonedCI95 are the 95% half-widths of the failed
	// and abandoned shares of finished requests, from batch means of the
	// outcome indicators in finishing order; NaN with fewer than 2 batches,
	// and after Merge.
	FailedCI95, AbandonedCI95 float64

	// Timeline is the run over successive intervals of simulated time,
	// warm-up included, at most TimelineIntervals of them; after Merge, that
	// of replication TimelineReplication: the first, or when the pool is
	// not stable, the first that was not (whose course shows why).
	Timeline            []TimelineInterval
	TimelineReplication int

	// Servers has one entry per external server, in Model order.
	Servers []ServerResult
	// AppServers has one entry per application server.
	AppServers []ServerResult

	// Stable is false when the run showed no steady state; Unstable says
	// which server, when, and why.
	Stable   bool
	Unstable string
	// Growing is true when the run is unstable by the growth test alone
	// (stats.Growth): a statistical verdict, which a longer run may
	// overturn, rather than a deadlock or a backstop threshold.
	Growing bool
	// Untested is true when the run was too short for the statistical
	// tests of a steady state (fewer than MinSteadyObservations requests
	// finished after the warm-up): it is stable as far as the deadlock
	// checks and the backstop thresholds go, and its figures are what it
	// saw, settled or not; after Merge, when any replication was.
	Untested bool
	// Deadlocked is true when the run is unstable by a deadlock (resource
	// locking): a matter of chance, which a longer run at the same
	// settings may meet too although this one did not; after Merge, when
	// any replication did.
	Deadlocked bool
	// WarmUp is the warm-up used (the truncation point when found by
	// MSER); a run stopped before it ended (SimTime <= WarmUp) collected
	// no figures.
	WarmUp float64
	// SimTime is the simulated time at the end of the run.
	SimTime float64
	// Events is the number of events the run processed.
	Events int64
	// Check holds counts for invariant checks.
	Check Invariants

	// ResponseHist holds the response times for pooling replications'
	// percentiles (the histogram of ResponsePercentiles, in a run), and
	// ResponsePercentiles what the pooled intervals of the percentiles
	// (p50 to p99) need; ResponseBatches are the batch means (of
	// ResponseBatchSize observations each, stats.BatchMeans.Means) for
	// paired comparisons (stats.PairedCI). All may be nil.
	ResponseHist        *stats.Histogram   `json:"-"`
	ResponsePercentiles *stats.Percentiles `json:"-"`
	ResponseBatches     []float64          `json:"-"`
	ResponseBatchSize   int64              `json:"-"`
	// ReplicationMeans holds, after Merge, the mean response of each
	// replication pooled (NaN for one without a completed request), behind
	// the pooled Response.CIHalfWidth95; nil for a single run.
	ReplicationMeans []float64 `json:"-"`

	// pooled is what Merge allocated for this Result to pool into (see
	// pooledBy).
	pooled *pooled
}

// pooled holds the histograms and percentiles a Merge made for the Result
// at owner: the next Merge into that same Result adds into them in place,
// where copying the pool each time made pooling R replications one at a
// time cost R copies of a growing histogram (10,000 runs of 2,500
// replications a cell: 3.5 GB allocated by a shard merge). A copy of the
// Result is at another address, so a Merge into the copy pools into new
// ones and leaves these alone.
type pooled struct {
	owner *Result
	hist  *stats.Histogram
	pct   *stats.Percentiles
	ents  []pooledEntity
}

// pooledEntity is pooled for one entity's figures.
type pooledEntity struct {
	hist *stats.Histogram
	pct  *stats.Percentiles
}

// DropPooling drops what only pooling more replications into r needs (the
// histograms, percentiles, batch means and replication means, and the
// pool Merge keeps), once every replication is in: r's figures stay.
func (r *Result) DropPooling() {
	r.ResponseHist, r.ResponsePercentiles, r.ResponseBatches, r.ReplicationMeans = nil, nil, nil, nil
	r.Entities = slices.Clone(r.Entities)
	for i := range r.Entities {
		r.Entities[i].ResponseHist, r.Entities[i].ResponsePercentiles, r.Entities[i].ReplicationMeans = nil, nil, nil
	}
	r.pooled = nil
}

// pooledBy returns r's pool when r made it (not a copy of a Result that
// did), else nil.
func (r *Result) pooledBy() *pooled {
	if r.pooled != nil && r.pooled.owner == r {
		return r.pooled
	}
	return nil
}

// poolInto pools xs into own when it is the first of them (a histogram or
// Percentiles that Merge made for the same Result), else into a new one
// (fresh). In place, the pool's own Percentiles parts (it has no
// observations of its own) are not counted again, which changes no
// figure: only whether there are parts is read.
func poolInto[T any, P interface {
	*T
	Merge(P)
}](own P, xs []P, fresh func([]P) P) P {
	if own == nil || len(xs) == 0 || xs[0] != own {
		return fresh(xs)
	}
	for _, x := range xs[1:] {
		if x != nil {
			own.Merge(x)
		}
	}
	return own
}

// EntityResult holds the figures of one request type.
type EntityResult struct {
	Name string
	// Arrivals, Completed, Failed and Abandoned count its requests as the
	// totals of Result do.
	Arrivals, Completed, Failed, Abandoned int64
	// Response is over its completed requests, with the same percentiles
	// and interval (batch means in a run, replications after Merge) as
	// Result.Response.
	Response Summary
	// FailedCI95 and AbandonedCI95 are the 95% half-widths of its failed
	// and abandoned shares, as Result's: batch means of its outcomes in a
	// run; NaN after Merge (batches of one run do not pool).
	FailedCI95, AbandonedCI95 float64
	// Absent is true when the entity does not arrive at the run's load
	// (its inter-arrival time there is None).
	Absent bool

	ResponseHist        *stats.Histogram   `json:"-"`
	ResponsePercentiles *stats.Percentiles `json:"-"`
	ReplicationMeans    []float64          `json:"-"`
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
	// MeanQueue is the time-average number of jobs waiting for a unit (on
	// an application server, tokens: entries, calls, Parallel parents);
	// MeanAcceptQueue, on an application server with MaxAdmitted
	// (HasAcceptQueue), that of requests waiting to be admitted, in front
	// of it.
	MeanQueue       float64
	MeanAcceptQueue float64
	HasAcceptQueue  bool
	// Jobs counts jobs that finished service (background ones included);
	// for an application server, units granted.
	Jobs int64
	// Arrived counts jobs that arrived (units asked for), and Waited those
	// of them that found no free unit and queued.
	Arrived, Waited int64
	// Timeouts counts calls whose caller gave up at the TimeLimit.
	Timeouts int64
	// AdmissionWaits counts, on an application server with MaxAdmitted,
	// the requests that found it full and waited in its accept queue.
	AdmissionWaits int64
	// OrphanJobs and OrphanWork count the jobs, and their service time,
	// that the server did for callers that had already given up.
	OrphanJobs int64
	OrphanWork float64
	// PeakBusy is the largest number of busy units seen (never above
	// Capacity): after the warm-up on an application server, over the
	// whole run (warm-up included) on an external server, whose units
	// are used for the first time only when every unit used before is
	// busy.
	PeakBusy int
}

// Summary describes a sample of times.
type Summary struct {
	N                  int64
	Mean, SD           float64
	Min, Max           float64
	P50, P90, P95, P99 float64
	// CIHalfWidth95 is the half-width of the 95% confidence interval of
	// Mean: in a run, from BatchesForCI batch means of BatchSize
	// observations (stats.BatchMeans.CI); after Merge, Student t over the
	// replications' means (stats.ReplicationCI), BatchesForCI and
	// BatchSize then 0. NaN when there is no interval.
	CIHalfWidth95           float64
	BatchesForCI, BatchSize int64
	// NoCIWhy says, in a run, why CIHalfWidth95 is NaN when its batch
	// means are worth too few independent observations for an honest
	// interval (stats.Interval.Why); "" otherwise, and after Merge.
	NoCIWhy string
	// P50CIHalfWidth95 to P99CIHalfWidth95 are the half-widths of the 95%
	// confidence intervals of P50 to P99 (stats.Percentiles.Interval, in a
	// run and pooled over replications); NaN when there is none (p50 and
	// p90 of a series too spread for the window to reach them).
	P50CIHalfWidth95, P90CIHalfWidth95 float64
	P95CIHalfWidth95, P99CIHalfWidth95 float64
}

// extremes are the smallest and largest of a series of response times;
// the series' count, mean and variance are those of its BatchMeans, whose
// shifted sums take no division per value, where a Welford tally would.
type extremes struct{ lo, hi float64 }

// noExtremes are the extremes of no value yet.
var noExtremes = extremes{lo: math.Inf(1), hi: math.Inf(-1)}

// add folds in v, a response time: never NaN, so plain comparisons do
// (the builtin min and max take several instructions more for NaN and
// signed zeros, on every request).
func (x *extremes) add(v float64) {
	if v < x.lo {
		x.lo = v
	}
	if v > x.hi {
		x.hi = v
	}
}

// entityStats are the running figures of one request type in a run.
type entityStats struct {
	arrivals, failed, abandoned int64
	resp                        extremes
	pct                         stats.Percentiles
	batches                     stats.BatchMeans
	outcomes                    outcomeBatches
}

func (e *entityStats) add(response float64) {
	e.resp.add(response)
	e.pct.Add(response)
	e.batches.Add(response)
}

// entityResults assembles the figures of each request type; total is the
// run's response summary, which is the one type's when there is one.
func (s *sim) entityResults(total *Summary) []EntityResult {
	out := make([]EntityResult, len(s.ents))
	for i := range s.ents {
		e := &s.ents[i]
		ext, pct, batches, outcomes := e.resp, e.pct, &e.batches, &e.outcomes
		if len(s.ents) == 1 { // its figures are the totals
			ext, pct, batches, outcomes = s.resp, s.respPct, &s.batches, &s.outcomes
		}
		failedCI, abandonedCI := outcomes.halfWidths()
		var response Summary
		if len(s.ents) == 1 {
			response = *total
		} else {
			response = runSummary(batches, ext, &pct)
		}
		out[i] = EntityResult{
			Name: s.m.Entities[i].Name, Arrivals: e.arrivals,
			Completed: batches.N(), Failed: e.failed, Abandoned: e.abandoned,
			Response:            response,
			ResponsePercentiles: &pct, ResponseHist: pct.Histogram(),
			FailedCI95: failedCI, AbandonedCI95: abandonedCI,
			Absent: s.m.Entities[i].InterArrival[s.load] == nil,
		}
	}
	return out
}

// Merge pools others, more replications of the same scenario and load
// (the same model), into r: counts add up, time averages (utilizations,
// queues, simulated time, warm-up) are averaged over the replications,
// response times pool their means and variances, their percentiles are
// computed once, from the merged histogram, and the 95% interval of the
// mean response becomes the Student t interval over the replications'
// means. A run that was not stable makes the pool not stable, with the
// first reason. Merge never changes others, nor anything r shares with
// them; the histograms and percentiles it makes for r, it extends in
// place at the next Merge into r (not into a copy of r), so a copy of r
// taken between two merges sees them grow.
func (r *Result) Merge(others ...*Result) {
	if len(others) == 0 {
		return
	}
	means := slices.Clip(r.replicationMeans())
	hists := []*stats.Histogram{r.ResponseHist}
	pcts := []*stats.Percentiles{r.ResponsePercentiles}
	ents := slices.Clone(r.Entities)
	entMeans := make([][]float64, len(ents))
	entHists := make([][]*stats.Histogram, len(ents))
	entPcts := make([][]*stats.Percentiles, len(ents))
	for i := range ents {
		entMeans[i] = slices.Clip(ents[i].replicationMeans())
		entHists[i] = []*stats.Histogram{ents[i].ResponseHist}
		entPcts[i] = []*stats.Percentiles{ents[i].ResponsePercentiles}
	}
	for _, o := range others {
		r.add(o)
		means = append(means, o.replicationMeans()...)
		hists = append(hists, o.ResponseHist)
		pcts = append(pcts, o.ResponsePercentiles)
		for i := range ents {
			if i >= len(o.Entities) {
				continue
			}
			e, x := &ents[i], &o.Entities[i]
			e.Arrivals += x.Arrivals
			e.Completed += x.Completed
			e.Failed += x.Failed
			e.Abandoned += x.Abandoned
			e.Response = combineSummary(e.Response, x.Response)
			entMeans[i] = append(entMeans[i], x.replicationMeans()...)
			entHists[i] = append(entHists[i], x.ResponseHist)
			entPcts[i] = append(entPcts[i], x.ResponsePercentiles)
		}
	}
	own := r.pooledBy()
	if own == nil {
		own = &pooled{owner: r}
	}
	r.ResponseHist = poolInto(own.hist, hists, mergeHists)
	r.ResponsePercentiles = poolInto(own.pct, pcts, mergePercentiles)
	own.hist, own.pct = r.ResponseHist, r.ResponsePercentiles
	if len(own.ents) != len(ents) {
		own.ents = make([]pooledEntity, len(ents))
	}
	r.Response = finishSummary(r.Response, r.ResponseHist, r.ResponsePercentiles, means)
	r.ReplicationMeans = means
	r.ResponseBatches, r.ResponseBatchSize = nil, 0 // batches of one run do not pool
	r.FailedCI95, r.AbandonedCI95 = math.NaN(), math.NaN()
	r.AttemptResponse = finishSummary(r.AttemptResponse, nil, nil, nil)
	for i := range ents {
		e := &ents[i]
		e.ResponseHist = poolInto(own.ents[i].hist, entHists[i], mergeHists)
		e.ResponsePercentiles = poolInto(own.ents[i].pct, entPcts[i], mergePercentiles)
		own.ents[i] = pooledEntity{e.ResponseHist, e.ResponsePercentiles}
		e.Response = finishSummary(e.Response, e.ResponseHist, e.ResponsePercentiles, entMeans[i])
		e.ReplicationMeans = entMeans[i]
		e.FailedCI95, e.AbandonedCI95 = math.NaN(), math.NaN()
	}
	r.Entities = ents
	r.pooled = own
}

// add pools o's counts, time averages, servers and response summaries
// into r, leaving percentiles from histograms and intervals to Merge.
func (r *Result) add(o *Result) {
	n, m := float64(max(1, r.Replications)), float64(max(1, o.Replications))
	avg := func(x, y float64) float64 { return (x*n + y*m) / (n + m) }
	// The time averages, over the replications that have them.
	wr, wo := r.averaged(), o.averaged()
	tavg := func(x, y float64) float64 {
		switch {
		case wo == 0:
			return x
		case wr == 0:
			return y
		}
		return (x*wr + y*wo) / (wr + wo)
	}
	r.Arrivals += o.Arrivals
	r.Completed += o.Completed
	r.Failed += o.Failed
	r.Abandoned += o.Abandoned
	r.Retries += o.Retries
	r.Timeouts += o.Timeouts
	r.Attempts += o.Attempts
	r.InSystem += o.InSystem
	r.Captures += o.Captures
	r.InstantCaptures += o.InstantCaptures
	r.ParallelSteps += o.ParallelSteps
	r.SequentialSteps += o.SequentialSteps
	r.LateCopies += o.LateCopies
	r.CountOverLimit += o.CountOverLimit
	if len(o.CountOverLimitAt) > 0 {
		at := maps.Clone(r.CountOverLimitAt) // r's may be shared with the run it came from
		if at == nil {
			at = map[string]int64{}
		}
		for c, n := range o.CountOverLimitAt {
			at[c] += n
		}
		r.CountOverLimitAt = at
	}
	r.WastedWork += o.WastedWork
	r.Events += o.Events
	r.AppUtilization = tavg(r.AppUtilization, o.AppUtilization)
	r.AppQueue = tavg(r.AppQueue, o.AppQueue)
	r.SimTime = avg(r.SimTime, o.SimTime)
	r.WarmUp = avg(r.WarmUp, o.WarmUp)
	r.Deadlocked = r.Deadlocked || o.Deadlocked
	r.Untested = r.Untested || o.Untested
	if n == 1 && !r.Stable {
		// The pool's reason says which replication gave it: the others
		// may have run to their end.
		r.Unstable = replicationReason(r)
	}
	if r.Stable && !o.Stable {
		r.Stable, r.Unstable, r.Growing = false, replicationReason(o), o.Growing
		// The timeline is the course of the replication the reason names:
		// a stable one's would show no trouble in an unstable pool.
		r.Timeline, r.TimelineReplication = o.Timeline, o.TimelineReplication
	} else if !o.Stable && !o.Growing {
		// A deadlock or a threshold in any replication is no statistical
		// verdict: the pool is not unstable by the growth test alone.
		r.Growing = false
	}
	r.Check.ArrivedAll += o.Check.ArrivedAll
	r.Check.FinishedAll += o.Check.FinishedAll
	r.Check.Open += o.Check.Open
	r.Check.UnitsBusy += o.Check.UnitsBusy
	r.Check.UnitsHeld += o.Check.UnitsHeld
	r.Servers = mergeServers(r.Servers, o.Servers, tavg)
	r.AppServers = mergeServers(r.AppServers, o.AppServers, tavg)
	r.Response = combineSummary(r.Response, o.Response)
	r.AttemptResponse = combineSummary(r.AttemptResponse, o.AttemptResponse)
	r.Replications = int(n + m)
	r.Averaged = int(wr + wo)
}

// replicationReason is the reason a single replication r is not stable,
// naming the replication ("replication 3: ..."), as a pool of several
// states it; a pool's reason names its replication already.
func replicationReason(r *Result) string {
	if r.Replications > 1 {
		return r.Unstable
	}
	return fmt.Sprintf("replication %d: %s", r.Replication+1, r.Unstable)
}

// averaged is how many replications r's time averages stand for (see
// Averaged).
func (r *Result) averaged() float64 {
	switch {
	case math.IsNaN(r.AppUtilization):
		return 0
	case r.Averaged > 0:
		return float64(r.Averaged)
	}
	return float64(max(1, r.Replications))
}

// replicationMeans are the means behind a pooled interval: those kept by
// Merge, or the run's own mean.
func (r *Result) replicationMeans() []float64 {
	if r.ReplicationMeans != nil {
		return r.ReplicationMeans
	}
	return []float64{meanOrNaN(r.Response)}
}

func (e *EntityResult) replicationMeans() []float64 {
	if e.ReplicationMeans != nil {
		return e.ReplicationMeans
	}
	return []float64{meanOrNaN(e.Response)}
}

func meanOrNaN(s Summary) float64 {
	if s.N == 0 {
		return math.NaN()
	}
	return s.Mean
}

func mergeServers(a, b []ServerResult, avg func(x, y float64) float64) []ServerResult {
	out := make([]ServerResult, len(a))
	copy(out, a)
	for i := range out {
		if i >= len(b) {
			break
		}
		d, s := &out[i], &b[i]
		d.Utilization = avg(d.Utilization, s.Utilization)
		d.MeanQueue = avg(d.MeanQueue, s.MeanQueue)
		d.MeanAcceptQueue = avg(d.MeanAcceptQueue, s.MeanAcceptQueue)
		d.Jobs += s.Jobs
		d.Arrived += s.Arrived
		d.Waited += s.Waited
		d.Timeouts += s.Timeouts
		d.AdmissionWaits += s.AdmissionWaits
		d.OrphanJobs += s.OrphanJobs
		d.OrphanWork += s.OrphanWork
		d.PeakBusy = max(d.PeakBusy, s.PeakBusy)
	}
	return out
}

// mergeHists returns a new histogram holding the observations of hs (nil
// ones skipped), or nil when all are nil.
func mergeHists(hs []*stats.Histogram) *stats.Histogram {
	var h *stats.Histogram
	for _, x := range hs {
		if x == nil {
			continue
		}
		if h == nil {
			h = &stats.Histogram{}
		}
		h.Merge(x)
	}
	return h
}

// combineSummary pools two summaries of independent samples: counts add,
// the mean is weighted by count, the variance pools within and between the
// samples (Chan et al.), and the percentiles are count-weighted averages
// (finishSummary replaces them when a merged histogram exists).
func combineSummary(a, b Summary) Summary {
	switch {
	case b.N == 0:
		return a
	case a.N == 0:
		return b
	}
	out := Summary{N: a.N + b.N}
	na, nb, n := float64(a.N), float64(b.N), float64(a.N+b.N)
	delta := b.Mean - a.Mean
	out.Mean = a.Mean + delta*nb/n
	ss := a.SD*a.SD*(na-1) + b.SD*b.SD*(nb-1) + delta*delta*na*nb/n
	out.SD = math.Sqrt(math.Max(0, ss/(n-1)))
	out.Min, out.Max = min(a.Min, b.Min), max(a.Max, b.Max)
	wa, wb := na/n, nb/n
	out.P50, out.P90 = wa*a.P50+wb*b.P50, wa*a.P90+wb*b.P90
	out.P95, out.P99 = wa*a.P95+wb*b.P95, wa*a.P99+wb*b.P99
	return out
}

// mergePercentiles returns new Percentiles pooling ps (nil ones skipped),
// or nil when all are nil. Its intervals of the percentiles (p50 to p99)
// pool the replications' (stats.Percentiles.Merge).
func mergePercentiles(ps []*stats.Percentiles) *stats.Percentiles {
	var p *stats.Percentiles
	for _, x := range ps {
		if x == nil {
			continue
		}
		if p == nil {
			p = &stats.Percentiles{}
		}
		p.Merge(x)
	}
	return p
}

// setPercentileIntervals sets the half-widths of the percentiles'
// intervals from p, or NaN without it.
func (s *Summary) setPercentileIntervals(p *stats.Percentiles) {
	s.P50CIHalfWidth95, s.P90CIHalfWidth95, s.P95CIHalfWidth95, s.P99CIHalfWidth95 = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if p == nil {
		return
	}
	var iv [len(summaryQuantiles)]stats.QuantileInterval
	p.Intervals(summaryQuantiles[:], 0.95, iv[:])
	s.P50CIHalfWidth95, s.P90CIHalfWidth95, s.P95CIHalfWidth95, s.P99CIHalfWidth95 = iv[0].HalfWidth, iv[1].HalfWidth, iv[2].HalfWidth, iv[3].HalfWidth
}

// clampPercentiles keeps the percentiles, read from a histogram within its
// relative error, between the smallest and the largest time seen: with few
// times a p95 read as a bucket's midpoint could fall below them all.
func (s *Summary) clampPercentiles() {
	if s.N == 0 {
		return
	}
	for _, p := range []*float64{&s.P50, &s.P90, &s.P95, &s.P99} {
		*p = min(max(*p, s.Min), s.Max)
	}
}

// finishSummary ends a pooled summary: percentiles from hist, the merged
// histogram, when there is one, their intervals from pct, and the Student
// t interval over means (stats.ReplicationCI: NaN with fewer than 2 that
// are not NaN, or without means).
func finishSummary(s Summary, hist *stats.Histogram, pct *stats.Percentiles, means []float64) Summary {
	s.BatchesForCI, s.BatchSize, s.NoCIWhy = 0, 0, ""
	if hist != nil && hist.N() > 0 {
		var q [len(summaryQuantiles)]float64
		hist.Quantiles(summaryQuantiles[:], q[:])
		s.P50, s.P90, s.P95, s.P99 = q[0], q[1], q[2], q[3]
		s.clampPercentiles()
	}
	s.setPercentileIntervals(pct)
	s.CIHalfWidth95 = stats.ReplicationCI(means, 0.95).HalfWidth
	return s
}

// detach gives r its own histograms, so that the run it came from may go
// on without changing it.
func (r *Result) detach() {
	r.ResponsePercentiles, r.ResponseHist = clonePercentiles(r.ResponsePercentiles, r.ResponseHist)
	r.CountOverLimitAt = maps.Clone(r.CountOverLimitAt)
	r.Entities = slices.Clone(r.Entities)
	for i := range r.Entities {
		e := &r.Entities[i]
		e.ResponsePercentiles, e.ResponseHist = clonePercentiles(e.ResponsePercentiles, e.ResponseHist)
	}
}

// clonePercentiles copies p and the histogram h read from it.
func clonePercentiles(p *stats.Percentiles, h *stats.Histogram) (*stats.Percentiles, *stats.Histogram) {
	if p == nil {
		return nil, mergeHists([]*stats.Histogram{h})
	}
	c := p.Clone()
	return c, c.Histogram()
}
