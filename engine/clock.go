package engine

import (
	"fmt"
	"math"
)

// delaySource says which cell of the model a drawn delay came from, so
// that the clock guard can name it.
type delaySource uint8

const (
	srcNone       delaySource = iota
	srcArrival                // ref: entity (InterArrival at this load)
	srcBackground             // ref: server (BackgroundInterArrival)
	srcBgService              // ref: server (BackgroundServiceTime)
	srcStep                   // ref: token (its step's ProcTime)
	srcJob                    // ref: job (its call step's ProcTime)
	srcRAT                    // ref: token
	srcPatience               // ref: entity
	srcRetry                  // ref: entity (RetryDelay)
)

// maxStillArrivals bounds an entity's arrivals in a row that do not move
// the clock (a zero or vanishing inter-arrival time): no distribution of
// times worth simulating draws that many zeros in a row.
const maxStillArrivals = 1000

// procTimeCell locates step st's ProcTime: its own cell, or the step's
// when the model does not say.
func procTimeCell(st *Step) string {
	if st.ProcTimeCell != "" {
		return st.ProcTimeCell
	}
	return st.Cell
}

// schedule adds an event d after now, guarding the clock: a delay that is
// negative, not a number or infinite, or a time that overflows, stops the
// run with an error naming the delay's cell. A delay that leaves the clock
// where it is (zero, or too small to add to it) is remembered, so that a
// clock that stops advancing can be traced to its cell.
func (s *sim) schedule(d float64, kind eventKind, ref int32, gen uint32, src delaySource, srcRef int32) {
	if !s.delayOK(s.now, d, src, srcRef) {
		return
	}
	t := s.now + d
	if t == s.now {
		s.stillSrc, s.stillRef = src, srcRef
	}
	s.cal.schedule(t, kind, ref, gen)
}

// scheduleArrival adds entity e's next arrival d after now, guarding the
// clock as schedule does.
func (s *sim) scheduleArrival(d float64, e int32) {
	if !s.delayOK(s.now, d, srcArrival, e) {
		return
	}
	t := s.now + d
	if t == s.now {
		s.stillSrc, s.stillRef = srcArrival, e
	}
	s.cal.scheduleArrival(t, e)
}

// delayOK guards a delay d drawn at time from: one that is negative, not
// a number or infinite, or that takes the clock past the largest time,
// stops the run with an error naming the delay's cell.
func (s *sim) delayOK(from, d float64, src delaySource, srcRef int32) bool {
	if d >= 0 && from+d <= math.MaxFloat64 {
		return true // kept small to inline: the refusal is apart
	}
	s.delayFault(from, d, src, srcRef)
	return false
}

// delayFault stops the run for a delay d drawn at time from that delayOK
// refused.
func (s *sim) delayFault(from, d float64, src delaySource, srcRef int32) {
	what := fmt.Sprintf("drew %g", d)
	if d >= 0 {
		what = fmt.Sprintf("drew %g, which takes the clock from %g past the largest time (it overflows)", d, from)
	}
	s.clockFault(src, srcRef, fmt.Errorf("%w: %s %s; expected a finite time >= 0", ErrClock, s.delayName(src, srcRef), what))
}

// stillArrival counts the arrivals of entity e (src srcArrival, k = e) or
// the background jobs of server e (srcBackground, k = e + the number of
// entities) whose next one does not move the clock; it reports false (and
// stops the run) when there are too many in a row. It is kept small, to
// inline: the count of one more is apart.
func (s *sim) stillArrival(src delaySource, e, k int32, next float64) bool {
	if next > s.now {
		s.stillArrivals[k] = 0
		return true
	}
	return s.stillArrivalAgain(src, e, k)
}

// stillArrivalAgain counts one more arrival in a row (index k of
// stillArrivals) that does not move the clock.
func (s *sim) stillArrivalAgain(src delaySource, e, k int32) bool {
	if s.stillArrivals[k]++; s.stillArrivals[k] < maxStillArrivals {
		return true
	}
	s.stillSrc, s.stillRef = src, e
	var what string
	if src == srcBackground {
		what = "background jobs of " + s.m.Servers[e].Name
	} else {
		what = "arrivals of " + s.m.Entities[e].Name
	}
	s.clockStopped(fmt.Sprintf("%d %s in a row at the same instant", maxStillArrivals, what))
	return false
}

// checkClockMoved refuses a run that measured its requests without the
// clock moving: zero inter-arrival times with work that takes no time can
// finish Observations requests at one instant, before the limit of still
// arrivals is reached.
func (s *sim) checkClockMoved() {
	if s.err != nil || s.now != s.measureStart || s.finished < 2 {
		return
	}
	for e, n := range s.stillArrivals[:len(s.m.Entities)] {
		if n > 0 {
			s.stillSrc, s.stillRef = srcArrival, int32(e)
			s.clockStopped(fmt.Sprintf("%d requests finished without the clock moving", s.finished))
			return
		}
	}
}

// clockStopped stops the run because the clock no longer advances, naming
// the cell of the last delay that left it where it was.
func (s *sim) clockStopped(what string) {
	cause := "routing through steps that take no time"
	if s.stillSrc != srcNone {
		cause = s.delayName(s.stillSrc, s.stillRef) + " draws times that are zero or too small to move the clock"
	}
	s.clockFault(s.stillSrc, s.stillRef, fmt.Errorf("%w: %s: %s; expected times that let the clock move on",
		ErrClock, what, cause))
}

// clockFault stops the run with err, located at the delay's cell.
func (s *sim) clockFault(src delaySource, ref int32, err error) {
	cell := s.delayCell(src, ref)
	switch src {
	case srcStep, srcRAT:
		s.fail(&s.toks[ref], cell, err)
	case srcJob:
		if tok := s.jobs[ref].tok; tok >= 0 {
			s.fail(&s.toks[tok], cell, err)
			return
		}
		s.failRun(cell, err)
	default:
		s.failRun(cell, err)
	}
}

// delayName says which distribution a delay came from: "InterArrival
// Exp(0) of entity Web".
func (s *sim) delayName(src delaySource, ref int32) string {
	show := func(d Dist) string {
		if d == nil {
			return ""
		}
		return " " + d.String()
	}
	switch src {
	case srcArrival:
		e := &s.m.Entities[ref]
		return fmt.Sprintf("InterArrival%s of %s", show(e.InterArrival[s.load]), e.Name)
	case srcBackground:
		sv := &s.m.Servers[ref]
		return fmt.Sprintf("BackgroundInterArrival%s of %s", show(sv.BackgroundInterArrival), sv.Name)
	case srcBgService:
		sv := &s.m.Servers[ref]
		return fmt.Sprintf("BackgroundServiceTime%s of %s", show(sv.BackgroundServiceTime), sv.Name)
	case srcStep:
		st := s.step(&s.toks[ref])
		return fmt.Sprintf("ProcTime%s of step %s", show(st.ProcTime), st.Name)
	case srcJob:
		jb := &s.jobs[ref]
		return fmt.Sprintf("service time%s at %s", show(jb.step.ProcTime), s.m.Servers[jb.server].Name)
	case srcRAT:
		return "RAT"
	case srcPatience:
		e := &s.m.Entities[ref]
		return fmt.Sprintf("Patience%s of %s", show(e.Patience), e.Name)
	case srcRetry:
		e := &s.m.Entities[ref]
		return fmt.Sprintf("RetryDelay%s of %s", show(e.RetryDelay), e.Name)
	}
	return "a time"
}

// delayCell is the model's cell of a delay's distribution, or "".
func (s *sim) delayCell(src delaySource, ref int32) string {
	switch src {
	case srcArrival:
		e := &s.m.Entities[ref]
		if s.load < len(e.InterArrivalCells) && e.InterArrivalCells[s.load] != "" {
			return e.InterArrivalCells[s.load]
		}
		return e.Cell
	case srcBackground, srcBgService:
		return s.m.Servers[ref].Cell
	case srcStep:
		return procTimeCell(s.step(&s.toks[ref]))
	case srcJob:
		return procTimeCell(s.jobs[ref].step)
	case srcRAT:
		return "RAT"
	case srcPatience, srcRetry:
		return s.m.Entities[ref].Cell
	}
	return ""
}
