package engine

import (
	"math/rand/v2"

	"github.com/websim/websim/engine/stats"
)

// extServer is an external server: Capacity jobs at once, first come first
// served, fed by calls from requests and by its own background load.
//
// No job ever leaves an external server's queue (a call that times out
// still gets its work done), so a job's start is known when it arrives:
// the FCFS recursion start = max(arrival, the earliest time a unit is free
// of the work already given to it). The server keeps those times, one per
// unit, rather than a queue and a busy count, and its figures are the sums
// of each job's intervals. Background jobs then need no event at all: they
// are drawn lazily, up to the moment something asks the server (a call
// arrives, an expression reads it, the run ends), and only calls put their
// answer on the calendar.
type extServer struct {
	capacity int32
	// free holds the times when each unit used so far is free of the work
	// given to it; units never used (Capacity less its length) are free
	// since the start. A unit is used for the first time only when every
	// used one is busy, so its length is the peak of busy units.
	free freeTimes
	// starts holds the start times of jobs that found every unit busy, in
	// arrival order, which FCFS makes start order; those at or before now
	// have started and are dropped lazily.
	starts   ring[float64]
	rService *rand.Rand
	rBgArr   *rand.Rand
	rBgSvc   *rand.Rand
	// nextBg is the arrival time of the next background job, not yet
	// given to the server; hasBg says the server has background load.
	nextBg float64
	hasBg  bool

	// limits holds the pending TimeLimits of calls, in deadline order
	// (every call to a server has the same limit, so sending order is
	// deadline order); timerSet says a calendar event waits for the first.
	limits   ring[deadline]
	timerSet bool

	// busyArea and queueArea integrate busy units and queued jobs from
	// the end of the warm-up over the work given so far, beyond the
	// present included; result takes off what lies past the end.
	busyArea, queueArea float64
	// busyAll and queueAll are the same from time 0 over the jobs not
	// measured (those that arrived before the warm-up event), for a run
	// that ends before the warm-up's end: a run with a measured job has
	// passed it.
	busyAll, queueAll float64
	// bgJobs counts the background jobs given so far.
	bgJobs int64
	// jobs counts jobs given so far that finish after the warm-up
	// (result takes off those not finished at the end).
	jobs, timeouts  int64
	arrived, waited int64
	orphanJobs      int64
	orphanWork      float64

	// growth watches the jobs waiting, as each call sees them on arrival
	// from the end of the warm-up on, for the stability test: a queue of
	// calls that time out and go on (orphans) can grow without end while
	// the requests in the system stay few, since the requests fail. It is
	// told of changes only (the time average is the same). Last, being a
	// kilobyte: the figures above stay near the tree of free times.
	growth stats.Growth
}

// job is a call of token tok at an external server, from its arrival to
// its answer. A call whose caller gave up at the TimeLimit is an orphan:
// the server still does it, to the end.
type job struct {
	tok    int32
	gen    uint32
	server int32
	orphan bool
	// step is the call's step: its ProcTime is the job's service time.
	step  *Step
	start float64
}

func (s *sim) newJob(tok int32, gen uint32, server int32, st *Step) int32 {
	var j int32
	if n := len(s.freeJobs); n > 0 {
		j = s.freeJobs[n-1]
		s.freeJobs = s.freeJobs[:n-1]
	} else {
		s.jobs = append(s.jobs, job{})
		j = int32(len(s.jobs) - 1)
	}
	s.jobs[j] = job{tok: tok, gen: gen, server: server, step: st}
	return j
}

// arrive gives call j to its server, after the background jobs that came
// before it, and schedules its answer.
func (s *sim) arrive(j int32) {
	jb := &s.jobs[j]
	i := jb.server
	s.backgroundUpTo(i, s.now)
	sv := &s.servers[i]
	d := 0.0
	if dist := jb.step.ProcTime; dist != nil {
		d = dist.Sample(sv.rService)
	}
	start := sv.startAt(s.now)
	if !s.delayOK(start, d, srcJob, j) {
		return
	}
	sv.place(s, i, s.now, d, s.measuring)
	if q := int64(sv.starts.len()); float64(q) != sv.growth.Last() && s.measuring {
		sv.growth.Observe(s.now, q)
	}
	jb.start = start
	if start+d == s.now {
		s.stillSrc, s.stillRef = srcJob, j
	}
	s.cal.schedule(start+d, evJobDone, j, 0)
}

// startAt is when a job arriving at t starts.
func (sv *extServer) startAt(t float64) float64 {
	if sv.free.len() < sv.capacity {
		return t // a used unit free by t, or one never used
	}
	return later(t, sv.free.first())
}

// place gives a job arriving at t, with service time d, to the unit free
// first, and folds it into the server's figures (measured says it arrived
// after the warm-up). It returns the job's start.
func (sv *extServer) place(s *sim, i int32, t, d float64, measured bool) float64 {
	for sv.starts.len() > 0 && sv.starts.front() <= t {
		sv.starts.pop()
	}
	if measured {
		sv.arrived++
	}
	var start float64
	switch used := sv.free.len(); {
	case used < sv.capacity && (used == 0 || sv.free.first() > t):
		// Every used unit is busy: take one never used.
		start = t
		sv.free.add(t + d)
	default:
		start = later(t, sv.free.first())
		sv.free.replaceFirst(start + d)
		if start > t {
			if measured {
				sv.waited++
			}
			sv.starts.push(start)
			if sv.starts.len() > s.maxQueue {
				s.unstable("server %s: queue passed %d jobs at %s; arrivals outpace its capacity",
					s.m.Servers[i].Name, s.maxQueue, formatTime(t, s.m.TimeUnit))
			}
		}
	}
	finish := start + d
	if measured {
		// It arrived after the warm-up (t >= measureFrom), so all of it
		// counts: the general case below, with the clipping left out (a
		// job that did not wait adds a queue time of 0).
		sv.jobs++
		sv.busyArea += finish - start
		sv.queueArea += start - t
		return start
	}
	sv.busyAll += d
	sv.queueAll += start - t
	if ms := s.measureFrom; finish >= ms {
		sv.jobs++
		sv.busyArea += finish - later(start, ms)
		if start > ms {
			sv.queueArea += start - later(t, ms)
		}
	}
	return start
}

// later returns the later of two times. Times are never NaN (the clock's
// guards refuse them), so it needs none of the builtin max's care for NaN
// and signed zeros, which costs eight instructions where this takes two.
// A zero drawn as -0 may come back where max would give +0; the two are
// equal in every comparison and sum the engine makes of a time.
func later(a, b float64) float64 {
	if a < b {
		return b
	}
	return a
}

// busyAt returns the units busy at t, given that every job so far arrived
// by t: the used units not free by then.
func (sv *extServer) busyAt(t float64) int32 {
	return sv.free.len() - sv.free.freeBy(t)
}

// queuedAt returns the jobs waiting at t (every job so far arrived by t).
func (sv *extServer) queuedAt(t float64) int {
	for sv.starts.len() > 0 && sv.starts.front() <= t {
		sv.starts.pop()
	}
	return sv.starts.len()
}

// backgroundUpTo gives server i the background jobs that arrive by t.
// It stops when the run fails or the server's queue passes MaxQueue.
func (s *sim) backgroundUpTo(i int32, t float64) {
	sv := &s.servers[i]
	if !sv.hasBg || sv.nextBg > t {
		return
	}
	def := &s.m.Servers[i]
	now := s.now
	k := i + int32(len(s.m.Entities)) // its count of still arrivals
	for sv.hasBg && sv.nextBg <= t && s.err == nil && sv.starts.len() <= s.maxQueue {
		// The guards of the clock see the job's own arrival time.
		at := sv.nextBg
		s.now = at
		d := def.BackgroundInterArrival.Sample(sv.rBgArr)
		if !s.delayOK(at, d, srcBackground, i) || !s.stillArrival(srcBackground, i, k, at+d) {
			sv.hasBg = false
			break
		}
		sv.nextBg = at + d
		w := def.BackgroundServiceTime.Sample(sv.rBgSvc)
		if !s.delayOK(sv.startAt(at), w, srcBgService, i) {
			sv.hasBg = false
			break
		}
		sv.place(s, i, at, w, at >= s.measureFrom)
		sv.bgJobs++
	}
	s.now = later(now, s.now)
}

// backgroundAll brings every server's background load up to now.
func (s *sim) backgroundAll() {
	for i := range s.servers {
		s.backgroundUpTo(int32(i), s.now)
	}
}

// jobDone answers call j: the caller, if still waiting, goes on.
func (s *sim) jobDone(j int32) {
	// The job's slot is free from here on: what is needed of it is read
	// first (a call sent below may take the slot again).
	jb := &s.jobs[j]
	server, ti, start, orphan := jb.server, jb.tok, jb.start, jb.orphan
	sv := &s.servers[server]
	s.freeJobs = append(s.freeJobs, j)
	if orphan {
		if s.measuring {
			sv.orphanJobs++
			sv.orphanWork += s.now - max(start, s.measureStart)
		}
		return
	}
	if s.tr != nil {
		s.trace(ti, "gets the answer of %s after %.4f of service", s.m.Servers[server].Name, s.now-start)
	}
	t := &s.toks[ti]
	t.gen++ // the answer came: the time limit no longer applies
	s.wasteWork(t, start)
	s.release(ti) // makes no token: t stays valid
	t.cont = contSuccessDraw
	s.drive(ti)
}

// deadline is a call's TimeLimit: token tok, if its gen is still gen,
// waits for an answer until at.
type deadline struct {
	at  float64
	tok int32
	gen uint32
}

// watch starts the TimeLimit of token ti's call to server i. The calendar
// holds one event per server, for its earliest deadline, rather than one
// per call: most calls are answered in time, and their deadlines would
// otherwise crowd the calendar. A deadline fires after everything else at
// the same instant, so an answer that comes exactly at the limit is in
// time.
func (s *sim) watch(i int32, at float64, ti int32, gen uint32) {
	sv := &s.servers[i]
	sv.limits.push(deadline{at: at, tok: ti, gen: gen})
	if !sv.timerSet {
		sv.timerSet = true
		s.cal.scheduleP(at, 1, evTimeLimit, i, 0)
	}
}

// timeLimit handles the deadlines of server i that are due, skipping those
// of calls already answered, and sets the timer for the next one. While it
// runs the timer counts as set, so that a call sent by a timed-out request
// (to this server, on its failure route) does not start a second timer.
func (s *sim) timeLimit(i int32) {
	sv := &s.servers[i]
	for sv.limits.len() > 0 && !s.stop {
		d := sv.limits.front()
		if t := &s.toks[d.tok]; t.gen != d.gen || t.cont != contCallReturn {
			sv.limits.pop() // answered in time
			continue
		}
		if d.at > s.now {
			s.cal.scheduleP(d.at, 1, evTimeLimit, i, 0)
			return
		}
		sv.limits.pop()
		s.timeout(d.tok, d.gen)
		sv = &s.servers[i]
	}
	sv.timerSet = false
}

// timeout fires when token ti's call reaches the server's TimeLimit; gen
// tells whether the token still waits for that call.
func (s *sim) timeout(ti int32, gen uint32) {
	t := &s.toks[ti]
	if t.gen != gen || t.cont != contCallReturn {
		return
	}
	jb := &s.jobs[t.job]
	jb.orphan = true
	if s.tr != nil {
		s.trace(ti, "gives up on %s: its TimeLimit has passed (the server still does the work)", s.m.Servers[jb.server].Name)
	}
	t.gen++
	if q := &s.reqs[t.req]; q.attempt == t.attempt {
		q.timedOut = true
	}
	if s.measuring {
		s.res.Timeouts++
		s.servers[jb.server].timeouts++
	}
	s.release(ti)
	t = &s.toks[ti]
	t.ok = false
	t.cont = contOutcome
	s.drive(ti)
}

// figures returns the server's time-average busy units and queue from
// from (the warm-up's end; 0 when the run ended before it) to end, and the
// jobs given to it that are not finished at end, once every job up to end
// has been given to it.
func (sv *extServer) figures(end, from float64) (busy, queue float64, unfinished int64) {
	busyArea, queueArea := sv.busyArea, sv.queueArea
	if end < from {
		from, busyArea, queueArea = 0, sv.busyAll, sv.queueAll
	}
	edge := max(end, from)
	for i := range sv.free.len() {
		if f := sv.free.at(i); f > end {
			busyArea -= f - edge
			unfinished++
		}
	}
	sv.queuedAt(end)
	for k := range sv.starts.len() {
		queueArea -= sv.starts.at(k) - edge
		unfinished++
	}
	span := end - from
	if span <= 0 {
		return float64(sv.busyAt(end)), float64(sv.starts.len()), unfinished
	}
	return busyArea / span, queueArea / span, unfinished
}

// callsOut counts, per server, the calls whose answer is still to come.
func (s *sim) callsOut() []int64 {
	out := make([]int64, len(s.servers))
	free := make([]bool, len(s.jobs))
	for _, j := range s.freeJobs {
		free[j] = true
	}
	for j := range s.jobs {
		if !free[j] {
			out[s.jobs[j].server]++
		}
	}
	return out
}
