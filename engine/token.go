package engine

import (
	"cmp"
	"fmt"
)

// A token is one thread of work inside the application: a request's main
// line, or one copy of a Parallel step. It carries a stack of (service,
// step) frames, the paper's depth attribute, so that a nested service
// returns to the step it came from.
type token struct {
	req  int32
	app  int32
	gate int32 // the gate this copy reports to; -1 for a request's main token
	// stage is the main token's place in its entity's service sequence.
	stage int32
	// top is the frame the token stands on, when depth > 0; below holds
	// the depth-1 frames under it, innermost last. The top frame lives in
	// the token, where every step reads it, and a token in one service
	// never touches below.
	top   frame
	depth int32
	below []frame
	// held counts the AppRes units the token holds.
	held int32
	// gen changes whenever a wait ends, so that stale timeouts are ignored.
	gen  uint32
	cont contKind
	ok   bool // outcome handed to contOutcome
	job  int32
	// fork is the Count of the Parallel step the token is starting.
	fork int32
	// workStart is when the current local processing began.
	workStart float64
	// cancelled marks a main token whose user gave up while it waited for
	// its entry unit; it is dropped when it reaches the head of the queue.
	cancelled bool
	// queued is true while the token waits in its server's unit queue.
	queued bool
	// copyNo numbers a Parallel copy among all its siblings, from 1 (for
	// the trace; expressions see the frame's number).
	copyNo int32
	// localUnit is true while a Parallel copy holds the extra unit of its
	// local processing.
	localUnit bool
	// inFlight marks a token whose request is already admitted (calls,
	// parents, copies), for InFlightFirst; a main token's entry is not.
	// free is true while the slot is on the free list.
	inFlight, free bool
	// blocked is true while the token can never move by itself (see
	// setBlocked).
	blocked bool
	// workTime is the drawn duration of a copy's local processing, waiting
	// for its unit.
	workTime float64
	// attempt is the attempt of its request that the token works for (a
	// late copy may outlive its attempt), and entity its request's type.
	attempt, entity int32
}

// frame is a place in a service. copyNo is the number of the run of a
// nested service this frame is (0 for an entity's stage). On a Nested step
// running in sequence, run is the index of the run under way among runs
// (every service of the step, Count times each).
type frame struct {
	svc, step int32
	run, runs int32
	copyNo    int32
}

// push enters a service: f becomes the top frame.
func (t *token) push(f frame) {
	if t.depth > 0 {
		t.below = append(t.below, t.top)
	}
	t.top = f
	t.depth++
}

// pop leaves the top frame's service; the frame under it, if any, becomes
// the top.
func (t *token) pop() {
	t.depth--
	if n := len(t.below); t.depth > 0 {
		t.top = t.below[n-1]
		t.below = t.below[:n-1]
	}
}

// clearFrames empties the stack, keeping below's memory.
func (t *token) clearFrames() {
	t.depth = 0
	t.below = t.below[:0]
}

// contKind says what a token does when it goes on.
type contKind uint8

const (
	contEnter       contKind = iota // its entry unit is usable: start the first service
	contStep                        // run the current step
	contOutcome                     // route on the current step's outcome t.ok
	contSuccessDraw                 // the step's work is done: draw its success
	contSend                        // the call's extra unit is usable: send the call
	contCallReturn                  // waiting for a call's answer
	contFork                        // the Parallel step's extra unit is usable: make the copies
	contGate                        // waiting for the copies
	contLocal                       // a copy's local unit is usable: start the work
)

// gate is the Hold Parents gate of a Parallel step (paper 3.4).
type gate struct {
	parent      int32
	outstanding int32
	// blockedCopies counts the copies still out that are blocked.
	blockedCopies int32
	resolved      bool
}

// newToken starts a token for request req on application server app: its
// main line (gateID -1), in the request's own slot, or a copy reporting to
// gate gateID, in a slot of its own.
func (s *sim) newToken(req, app, gateID int32) int32 {
	ti := req
	if gateID >= 0 {
		ti = s.newSlot()
	}
	t := &s.toks[ti]
	// Cleared in place, then set: a composite literal that reads t would
	// be built aside and copied.
	below, gen := t.below[:0], t.gen+1
	*t = token{}
	t.req, t.app, t.gate, t.below, t.gen, t.job = req, app, gateID, below, gen, -1
	q := &s.reqs[req]
	t.attempt, t.entity, t.inFlight = q.attempt, q.entity, gateID >= 0
	q.tokens++
	return ti
}

func (s *sim) freeToken(ti int32) {
	t := &s.toks[ti]
	r := t.req
	t.clearFrames()
	t.free = true
	if ti != r { // a copy's own slot
		s.freeSlots = append(s.freeSlots, ti)
	}
	s.reqs[r].tokens--
	s.maybeFreeRequest(r)
}

// maxStepsPerInstant bounds the steps taken without the clock moving: a
// routing loop through steps that take no time (a skipped step that routes
// to itself, say) would otherwise never end.
const maxStepsPerInstant = 1_000_000

// drive runs token ti until it has to wait or ends.
func (s *sim) drive(ti int32) {
	for !s.stop {
		t := &s.toks[ti]
		if s.stepsAtInstant++; s.stepsAtInstant > maxStepsPerInstant {
			if s.stillSrc != srcNone {
				// Delays of zero keep the loop at this instant.
				s.clockStopped(fmt.Sprintf("%d steps at the same instant", maxStepsPerInstant))
				return
			}
			cell := ""
			if t.depth > 0 {
				cell = s.step(t).Cell
			}
			s.fail(t, cell, fmt.Errorf("%d steps without the clock moving: a routing loop through steps that take no time (a skipped step, or one without ProcTime, that routes back); expected routing that reaches DONE or FAIL", maxStepsPerInstant))
			return
		}
		switch t.cont {
		case contEnter:
			t.inFlight = true // admitted: its next units are in flight
			t.stage = 0
			t.push(frame{svc: int32(s.m.Entities[t.entity].Stages[0].Service)})
			t.cont = contStep
			// Straight on to the first step, as the next turn would.
			if !s.execStep(ti, t) {
				return
			}
		case contStep:
			if !s.execStep(ti, t) {
				return
			}
		case contSuccessDraw:
			t.ok = s.draw(t)
			t.cont = contOutcome
			// Straight on to the routing, unless the draw failed the run.
			if s.stop || !s.route(ti, t) {
				return
			}
		case contOutcome:
			if !s.route(ti, t) {
				return
			}
		case contSend:
			s.send(ti)
			return
		case contFork:
			s.fork(ti)
			return
		case contLocal:
			if !s.startWork(ti, t, t.workTime) {
				return
			}
		default:
			return
		}
	}
}

// step returns the step token t stands on.
func (s *sim) step(t *token) *Step {
	return &s.m.Services[t.top.svc].Steps[t.top.step]
}

// execStep starts the current step of token ti (t). It returns true when
// the token goes on at once (the outcome is known), false when it waits.
// Like every step function that takes t, it never makes a token, so t
// stays valid.
func (s *sim) execStep(ti int32, t *token) bool {
	f := &t.top
	steps := s.m.Services[f.svc].Steps
	if int(f.step) >= len(steps) {
		// NEXT after the last row: the service succeeds.
		return s.serviceEnded(ti, t, true)
	}
	st := &steps[f.step]
	if s.tr != nil {
		s.trace(ti, "starts %s", s.where(t))
	}
	if st.Condition != nil {
		s.setContext(t)
		ok, err := st.Condition.Bool(&s.ctx)
		if err != nil {
			s.fail(t, st.Cell, err)
			return false
		}
		if !ok {
			if s.tr != nil {
				s.trace(ti, "skips %s: its Condition is false", s.where(t))
			}
			t.ok, t.cont = true, contOutcome
			return true
		}
	}
	switch st.Kind {
	case Local:
		d := 0.0
		if st.ProcTime != nil {
			d = st.ProcTime.Sample(s.rLocal)
		}
		if d > 0 && t.gate >= 0 {
			// A copy holds no unit of its own: its work takes one more,
			// given back when the work is done.
			t.workTime, t.localUnit = d, true
			if !s.acquire(ti, t, contLocal) {
				return false
			}
		}
		return s.startWork(ti, t, d)
	case Call:
		return s.acquire(ti, t, contSend)
	case Nested:
		count, parallel, ok := s.nestedPlan(t, st)
		if !ok {
			return false
		}
		if count == countOverLimit {
			if s.tr != nil {
				s.trace(ti, "fails %s: its Count passes the limit of %d", s.where(t), MaxCount)
			}
			t.ok, t.cont = false, contOutcome
			return true
		}
		if count == 0 {
			t.ok, t.cont = true, contOutcome
			return true
		}
		if parallel {
			if s.measuring {
				s.res.ParallelSteps++
			}
			t.fork = count
			return s.acquire(ti, t, contFork)
		}
		if s.measuring {
			s.res.SequentialSteps++
		}
		f.run, f.runs = 0, count*int32(nestedCount(st))
		t.push(frame{svc: nestedService(st, 0), copyNo: 1})
		t.cont = contStep
		return true
	}
	return false
}

// startWork starts d of local processing for token ti (on the unit it
// holds, or on a copy's extra unit). It returns true when the token goes
// on at once.
func (s *sim) startWork(ti int32, t *token, d float64) bool {
	t.cont = contSuccessDraw
	if d == 0 {
		return true
	}
	t.workStart = s.now
	s.schedule(d, evResume, ti, 0, srcStep, ti)
	return false
}

// nestedCount is the number of services a Nested step runs.
func nestedCount(st *Step) int { return len(st.Services) }

// nestedService is the k-th service a Nested step runs.
func nestedService(st *Step, k int) int32 { return int32(st.Services[k]) }

// countOverLimit is nestedPlan's count for a Count past MaxCount: the step
// fails.
const countOverLimit = -1

// nestedPlan evaluates Count and Mode of a Nested step when it starts.
func (s *sim) nestedPlan(t *token, st *Step) (count int32, parallel, ok bool) {
	count = 1
	if st.Count != nil {
		s.setContext(t)
		v, err := st.Count.Number(&s.ctx)
		if err != nil {
			s.fail(t, st.Cell, err)
			return 0, false, false
		}
		if v > MaxCount {
			// Past the limit: the step fails, as the README's limits say,
			// and the study warns at the Count cell.
			if s.measuring {
				s.res.CountOverLimit++
				if s.res.CountOverLimitAt == nil {
					s.res.CountOverLimitAt = map[string]int64{}
				}
				s.res.CountOverLimitAt[cmp.Or(st.CountCell, st.Cell)]++
			}
			return countOverLimit, false, true
		}
		if v < 0 || v != float64(int64(v)) {
			s.fail(t, cmp.Or(st.CountCell, st.Cell), fmt.Errorf("Count is %g; expected a whole number from 0 to %d (the limit)", v, MaxCount))
			return 0, false, false
		}
		count = int32(v)
	}
	if st.Mode != nil {
		s.setContext(t)
		p, err := st.Mode.Parallel(&s.ctx)
		if err != nil {
			s.fail(t, st.Cell, err)
			return 0, false, false
		}
		parallel = p
	}
	return count, parallel, true
}

// draw decides whether token t's current step succeeds, by its
// SuccessRate.
func (s *sim) draw(t *token) bool {
	st := s.step(t)
	if st.SuccessRate == nil {
		return true
	}
	var p float64
	if c, isConst := st.SuccessRate.(Const); isConst {
		p = float64(c)
	} else {
		s.setContext(t)
		v, err := st.SuccessRate.Number(&s.ctx)
		if err != nil {
			s.fail(t, st.Cell, err)
			return false
		}
		p = v
	}
	if p >= 1 {
		return true
	}
	return s.rRouting.Float64() < p
}

// route follows the current step's OnSuccess or OnFailure. It returns true
// when the token goes on.
func (s *sim) route(ti int32, t *token) bool {
	f := &t.top
	steps := s.m.Services[f.svc].Steps
	st := &steps[f.step]
	target := int(st.OnFailure)
	if t.ok {
		target = int(st.OnSuccess)
	}
	if s.tr != nil {
		verdict := "fails"
		if t.ok {
			verdict = "succeeds"
		}
		next := "DONE"
		switch {
		case StepTarget(target) == Fail:
			next = "FAIL"
		case target >= 0 && target < len(steps):
			next = steps[target].Name
		}
		s.trace(ti, "%s %s → %s", s.where(t), verdict, next)
	}
	if target >= 0 && target < len(steps) {
		f.step = int32(target)
		t.cont = contStep
		return true
	}
	return s.serviceEnded(ti, t, StepTarget(target) != Fail)
}

// serviceEnded pops the finished service and hands its result to the step
// that called it, to the entity's service sequence, or to the Parallel
// gate. It returns true when the token goes on.
func (s *sim) serviceEnded(ti int32, t *token, ok bool) bool {
	t.pop()
	if t.depth > 0 {
		f := &t.top
		if ok && f.run+1 < f.runs {
			f.run++
			st := &s.m.Services[f.svc].Steps[f.step]
			count := f.runs / int32(nestedCount(st))
			t.push(frame{svc: nestedService(st, int(f.run/count)), copyNo: f.run%count + 1})
			t.cont = contStep
			return true
		}
		f.run, f.runs = 0, 0
		t.ok, t.cont = ok, afterNested(ok)
		return true
	}
	if t.gate >= 0 {
		s.copyDone(ti, ok)
		return false
	}
	stages := s.m.Entities[t.entity].Stages
	stage := stages[t.stage]
	next := int(stage.OnFailure)
	if ok {
		next = int(stage.OnSuccess)
	}
	if next >= 0 && next < len(stages) {
		t.stage = int32(next)
		t.push(frame{svc: int32(stages[next].Service)})
		t.cont = contStep
		return true
	}
	s.finishAttempt(ti, t, StageTarget(next) == End || (next >= len(stages)))
	return false
}

// afterNested is what a Nested step does once its service has run: a
// failure routes at once; a success still draws the step's SuccessRate,
// like any other step.
func afterNested(ok bool) contKind {
	if ok {
		return contSuccessDraw
	}
	return contOutcome
}

// send sends token ti's call to the step's external server; the TimeLimit
// counts from now.
func (s *sim) send(ti int32) {
	t := &s.toks[ti]
	st := s.step(t)
	t.gen++
	t.cont = contCallReturn
	j := s.newJob(ti, t.gen, int32(st.Server), st)
	t.job = j
	if s.tr != nil {
		busy, queued := s.Busy(st.Server), s.Queue(st.Server)
		s.trace(ti, "calls %s (%d of %d busy, %d queued)", s.m.Servers[st.Server].Name, int(busy), s.servers[st.Server].capacity, int(queued))
	}
	if limit := s.m.Servers[st.Server].TimeLimit; limit > 0 {
		s.watch(int32(st.Server), s.now+limit, ti, t.gen)
	}
	s.arrive(j)
}

// fork makes the copies of a Parallel step; the parent waits at the gate
// holding its extra unit.
func (s *sim) fork(ti int32) {
	t := &s.toks[ti]
	st := s.step(t)
	count := t.fork
	var g int32
	if n := len(s.freeGates); n > 0 {
		g = s.freeGates[n-1]
		s.freeGates = s.freeGates[:n-1]
	} else {
		s.gates = append(s.gates, gate{})
		g = int32(len(s.gates) - 1)
	}
	nsvc := int32(nestedCount(st))
	s.gates[g] = gate{parent: ti, outstanding: count * nsvc}
	t.cont = contGate
	if s.tr != nil {
		names := s.m.Services[nestedService(st, 0)].Name
		for k := 1; k < int(nsvc); k++ {
			names += ", " + s.m.Services[nestedService(st, k)].Name
		}
		s.trace(ti, "forks %d copies of %s and waits at the gate", count*nsvc, names)
	}
	req, app := t.req, t.app
	for k := range nsvc {
		svc := nestedService(st, int(k))
		for c := range count {
			ci := s.newToken(req, app, g)
			ct := &s.toks[ci]
			ct.copyNo = k*count + c + 1
			ct.push(frame{svc: svc, copyNo: c + 1})
			ct.cont = contStep
			s.ready.push(ci)
		}
	}
}

// copyDone takes a copy back at its gate. The first failure releases the
// parent at once as failed; copies still out then are late copies,
// discarded when they return.
func (s *sim) copyDone(ci int32, ok bool) {
	g := s.toks[ci].gate
	if s.tr != nil {
		state := "returns to the gate"
		if s.gates[g].resolved {
			state = "returns late: its parent has failed; discarded"
		}
		s.trace(ci, "%s (%s)", state, map[bool]string{true: "succeeded", false: "failed"}[ok])
	}
	s.freeToken(ci)
	gt := &s.gates[g]
	gt.outstanding--
	switch {
	case gt.resolved:
		if s.measuring {
			s.res.LateCopies++
		}
	case !ok || gt.outstanding == 0:
		p := gt.parent
		s.setBlocked(p, false)
		gt = &s.gates[g]
		gt.resolved = true
		s.release(p)
		pt := &s.toks[p]
		pt.ok, pt.cont = ok, afterNested(ok)
		s.ready.push(p)
	default:
		s.gateChanged(g) // the copies still out may all be blocked
	}
	if gt.outstanding == 0 {
		s.freeGates = append(s.freeGates, g)
	}
}
