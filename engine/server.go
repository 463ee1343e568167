package engine

import (
	"math/rand/v2"

	"github.com/websim/websim/engine/stats"
)

// extServer is an external server: Capacity jobs at once, first come first
// served, fed by calls from requests and by its own background load.
type extServer struct {
	capacity int32
	busy     int32
	queue    ring[int32] // jobs waiting
	rService *rand.Rand
	rBgArr   *rand.Rand
	rBgSvc   *rand.Rand

	// limits holds the pending TimeLimits of calls, in deadline order
	// (every call to a server has the same limit, so sending order is
	// deadline order); timerSet says a calendar event waits for the first.
	limits   ring[deadline]
	timerSet bool

	busyAvg, queueAvg stats.TimeAverage
	peakBusy          int32
	jobs, timeouts    int64
	arrived, waited   int64
	orphanJobs        int64
	orphanWork        float64
}

// job is work at an external server: a call of token tok (or background
// work when tok < 0). A call whose caller gave up at the TimeLimit is an
// orphan: the server still does it, to the end.
type job struct {
	tok    int32
	gen    uint32
	server int32
	orphan bool
	dist   Dist
	start  float64
	// cell locates dist (the call's step, or the server's row).
	cell string
}

func (s *sim) newJob(tok int32, gen uint32, server int32, d Dist, cell string) int32 {
	var j int32
	if n := len(s.freeJobs); n > 0 {
		j = s.freeJobs[n-1]
		s.freeJobs = s.freeJobs[:n-1]
	} else {
		s.jobs = append(s.jobs, job{})
		j = int32(len(s.jobs) - 1)
	}
	s.jobs[j] = job{tok: tok, gen: gen, server: server, dist: d, cell: cell}
	return j
}

// arrive puts job j at its server: into service when a unit is free,
// otherwise at the end of the queue.
func (s *sim) arrive(j int32) {
	sv := &s.servers[s.jobs[j].server]
	if s.measuring {
		sv.arrived++
	}
	if sv.busy < sv.capacity {
		s.startJob(j)
		return
	}
	if s.measuring {
		sv.waited++
	}
	sv.queue.push(j)
	sv.queueAvg.Set(s.now, float64(sv.queue.len()))
	if sv.queue.len() > s.maxQueue {
		s.unstable("server %s: queue passed %d jobs at %s; arrivals outpace its capacity",
			s.m.Servers[s.jobs[j].server].Name, s.maxQueue, s.clock())
	}
}

func (s *sim) startJob(j int32) {
	jb := &s.jobs[j]
	sv := &s.servers[jb.server]
	sv.busy++
	if sv.busy > sv.peakBusy {
		sv.peakBusy = sv.busy
	}
	sv.busyAvg.Set(s.now, float64(sv.busy))
	jb.start = s.now
	d := 0.0
	if jb.dist != nil {
		r := sv.rService
		if jb.tok < 0 {
			r = sv.rBgSvc
		}
		d = jb.dist.Sample(r)
	}
	if jb.tok < 0 {
		s.schedule(d, evJobDone, j, 0, srcBgService, jb.server)
		return
	}
	s.schedule(d, evJobDone, j, 0, srcJob, j)
}

// jobDone ends job j's service: the caller, if still waiting, gets its
// answer; the next job in the queue starts.
func (s *sim) jobDone(j int32) {
	jb := s.jobs[j]
	sv := &s.servers[jb.server]
	sv.busy--
	sv.busyAvg.Set(s.now, float64(sv.busy))
	if s.measuring {
		sv.jobs++
	}
	s.freeJobs = append(s.freeJobs, j)
	if sv.queue.len() > 0 {
		next := sv.queue.pop()
		sv.queueAvg.Set(s.now, float64(sv.queue.len()))
		s.startJob(next)
	}
	if jb.tok < 0 {
		return
	}
	if jb.orphan {
		if s.measuring {
			sv.orphanJobs++
			sv.orphanWork += s.now - max(jb.start, s.measureStart)
		}
		return
	}
	ti := jb.tok
	if s.tr != nil {
		s.trace(ti, "gets the answer of %s after %.4f of service", s.m.Servers[jb.server].Name, s.now-jb.start)
	}
	t := &s.toks[ti]
	t.gen++ // the answer came: the time limit no longer applies
	s.wasteWork(t, jb.start)
	s.release(ti)
	t = &s.toks[ti]
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
		if s.toks[d.tok].gen != d.gen || s.toks[d.tok].cont != contCallReturn {
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

// background brings the next background job to server i.
func (s *sim) background(i int32) {
	sv := &s.servers[i]
	def := &s.m.Servers[i]
	d := def.BackgroundInterArrival.Sample(sv.rBgArr)
	s.schedule(d, evBackground, i, 0, srcBackground, i)
	if s.stop || !s.stillArrival(srcBackground, i, s.now+d) {
		return
	}
	j := s.newJob(-1, 0, i, def.BackgroundServiceTime, def.Cell)
	s.arrive(j)
}
