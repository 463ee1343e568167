package engine

import "fmt"

// request is one user request: its type, attributes, first arrival, and
// the attempt under way.
//
// A request and its main token share a slot: request r's main line is
// token r (one at a time: an attempt's main token ends before the next
// attempt starts), so starting an attempt takes no slot of its own. A
// Parallel copy takes a slot whose request entry goes unused.
type request struct {
	entity       int32
	id           int64
	attempt      int32
	tokens       int32 // live tokens (main line and copies)
	arrival      float64
	attemptStart float64
	abandonedAt  float64
	gen          uint32 // changes when an attempt ends, to cancel patience
	abandoned    bool
	timedOut     bool // a TimeLimit failed a call of the attempt under way
	done         bool // final outcome known and no retry pending
}

// newSlot returns a free slot of reqs, toks and attrs, growing them when
// none is free; its token is free.
func (s *sim) newSlot() int32 {
	if n := len(s.freeSlots); n > 0 {
		r := s.freeSlots[n-1]
		s.freeSlots = s.freeSlots[:n-1]
		return r
	}
	s.reqs = append(s.reqs, request{})
	s.toks = append(s.toks, token{free: true})
	s.attrs = append(s.attrs, make([]float64, s.nAttrs)...)
	return int32(len(s.reqs) - 1)
}

func (s *sim) newRequest(e int32) int32 {
	r := s.newSlot()
	s.nextID++
	s.reqs[r] = request{entity: e, id: s.nextID, arrival: s.now, gen: s.reqs[r].gen + 1}
	// A recycled slot must not pass on attributes this entity lacks.
	if s.nAttrs > 0 {
		clear(s.requestAttrs(r))
	}
	return r
}

// maybeFreeRequest frees request r's slot once it has its final outcome
// and no token works for it (its main token among them).
func (s *sim) maybeFreeRequest(r int32) { s.maybeFree(r, &s.reqs[r]) }

// maybeFree is maybeFreeRequest for request r, q.
func (s *sim) maybeFree(r int32, q *request) {
	if q.tokens == 0 && q.done {
		s.freeSlots = append(s.freeSlots, r)
	}
}

func (s *sim) requestAttrs(r int32) []float64 {
	return s.attrs[int(r)*s.nAttrs : int(r+1)*s.nAttrs]
}

// arrival brings a new request of entity e and schedules the next one.
func (s *sim) arrival(e int32) {
	ent := &s.m.Entities[e]
	d := ent.InterArrival[s.load].Sample(s.rArrival[e])
	s.scheduleArrival(d, e)
	if s.stop || !s.stillArrival(srcArrival, e, e, s.now+d) {
		return
	}
	r := s.newRequest(e)
	s.open++
	s.arrivedAll++
	s.growth.Observe(s.now, s.open)
	s.inSystem.Set(s.now, float64(s.open))
	if s.measuring {
		s.res.Arrivals++
		s.ents[e].arrivals++
	}
	if s.open > s.maxInSystem {
		s.unstable("%d requests in the system at %s: arrivals outpace what the application can serve", s.open, s.clock())
		return
	}
	if len(ent.Attributes) == 0 {
		s.startAttempt(r)
		return
	}
	attrs := s.requestAttrs(r)
	for _, a := range ent.Attributes {
		if a.Dist != nil {
			attrs[a.Index] = a.Dist.Sample(s.rAttr[e])
			continue
		}
		s.ctx.Now, s.ctx.Attrs, s.ctx.Attempt, s.ctx.AppUtil, s.ctx.Copy = s.now, attrs, 1, 0, 0
		v, err := a.Expr.Number(&s.ctx)
		if err != nil {
			s.failRequest(r, a.Cell, err)
			return
		}
		attrs[a.Index] = v
	}
	s.startAttempt(r)
}

// startAttempt sends request r's next attempt to an application server.
func (s *sim) startAttempt(r int32) {
	q := &s.reqs[r]
	q.attempt++
	q.attemptStart = s.now
	q.timedOut = false
	if q.attempt > 1 && s.measuring {
		s.res.Retries++
	}
	if s.anyPatience {
		if ent := &s.m.Entities[q.entity]; ent.Patience != nil {
			s.schedule(ent.Patience.Sample(s.rPatience[q.entity]), evPatience, r, q.gen, srcPatience, q.entity)
		}
	}
	ti := s.newToken(r, s.selectApp(), -1)
	if s.tr != nil {
		s.trace(ti, "arrives, asks App%d for a unit", s.toks[ti].app+1)
	}
	if s.enter(ti) {
		s.drive(ti)
	}
}

// patience fires when request r's user gives up waiting, if the attempt it
// was set for (gen) is still unanswered. The work goes on to its end.
func (s *sim) patience(r int32, gen uint32) {
	q := &s.reqs[r]
	if q.gen != gen || q.done || q.abandoned {
		return
	}
	q.abandoned = true
	q.abandonedAt = s.now
	if s.tr != nil {
		s.trace(r, "abandoned by its user (patience ran out); started work goes on")
	}
	if s.measuring {
		s.res.Abandoned++
		s.ents[q.entity].abandoned++
		s.recordOutcome(q.entity, false, true)
	}
	// A request still queued for its first unit (or for admission) has
	// started nothing: it leaves the queue. Work already started goes on
	// to its end.
	t := &s.toks[r] // the main token
	if t.cont == contEnter && t.held == 0 && !t.cancelled {
		t.cancelled = true
		a := &s.apps[t.app]
		if t.queued {
			a.cancelled++
			a.queueAvg.Set(s.now, float64(a.waiting()))
			s.leave(t.app) // no longer admitted
		} else {
			a.acceptCancelled++
			a.acceptAvg.Set(s.now, float64(a.accepting()))
		}
		s.touch(t.app)
	}
	s.finish(q)
}

// finishAttempt ends token ti (t), the main line of its request, at END
// (completed) or EXIT, and releases its entry unit. A failed attempt may be
// retried by its user.
func (s *sim) finishAttempt(ti int32, t *token, completed bool) {
	r := ti // a main token's slot is its request's
	if s.tr != nil {
		outcome := "EXIT"
		if completed {
			outcome = "END"
		}
		gaveUp := ""
		if q := &s.reqs[r]; q.abandoned {
			gaveUp = fmt.Sprintf(" (its user gave up at %.4f: counted as abandoned)", q.abandonedAt)
		}
		s.trace(ti, "reaches %s after %.4f, releases its unit%s", outcome, s.now-s.reqs[r].arrival, gaveUp)
	}
	app := t.app
	s.release(ti)
	s.leave(app)
	q := &s.reqs[r]
	s.freeTokenKeep(t, q)
	q.gen++
	if q.abandoned {
		q.done = true
		s.maybeFree(r, q)
		return
	}
	if completed {
		s.tl.completed(s.now - q.arrival)
		if s.measuring {
			s.res.Completed++
			s.recordOutcome(q.entity, false, false)
			s.recordResponse(q.entity, s.now-q.arrival, s.now-q.attemptStart)
		}
		s.finish(q)
		s.maybeFree(r, q)
		return
	}
	if ent := &s.m.Entities[q.entity]; int(q.attempt) <= ent.MaxRetries {
		p, ok := s.retryProbability(ti, q, ent)
		if !ok {
			return
		}
		if p > 0 && s.rRetry[q.entity].Float64() < p {
			delay := 0.0
			if ent.RetryDelay != nil {
				delay = ent.RetryDelay.Sample(s.rRetry[q.entity])
			}
			if s.tr != nil {
				s.trace(ti, "the user retries in %.4f", delay)
			}
			s.schedule(delay, evRetry, r, 0, srcRetry, q.entity)
			return
		}
	}
	if s.measuring {
		s.res.Failed++
		s.ents[q.entity].failed++
		s.recordOutcome(q.entity, true, false)
	}
	s.finish(q)
	s.maybeFreeRequest(r)
}

// retryProbability is the chance that the user of request q retries the
// attempt that just failed: RetryProbabilityExpr, seeing Elapsed and
// TimedOut, or the constant RetryProbability.
func (s *sim) retryProbability(ti int32, q *request, ent *Entity) (float64, bool) {
	if ent.RetryProbabilityExpr == nil {
		return ent.RetryProbability, true
	}
	t := &s.toks[ti]
	s.setContext(t)
	s.ctx.Copy = 0
	s.ctx.Elapsed, s.ctx.TimedOut = s.now-q.attemptStart, q.timedOut
	p, err := ent.RetryProbabilityExpr.Number(&s.ctx)
	s.ctx.Elapsed, s.ctx.TimedOut = 0, false
	if err != nil {
		s.failRequest(t.req, ent.Cell, err)
		return 0, false
	}
	if !(p >= 0 && p <= 1) {
		s.failRequest(t.req, ent.Cell, fmt.Errorf("RetryProbability gave %g; expected a probability from 0 to 1", p))
		return 0, false
	}
	return p, true
}

// freeTokenKeep frees main token t of request q without freeing the
// request, which the caller still uses (their slot is freed with the
// request).
func (s *sim) freeTokenKeep(t *token, q *request) {
	t.clearFrames()
	t.free = true
	q.tokens--
}

// finish records that request q has its final outcome.
func (s *sim) finish(q *request) {
	q.done = true
	s.open--
	s.finishedAll++
	s.growth.Observe(s.now, s.open)
	s.inSystem.Set(s.now, float64(s.open))
	if s.measuring {
		s.finished++
		s.res.Attempts += int64(q.attempt)
		if s.finished >= s.cfg.Observations {
			s.stop = true // exactly Observations requests are counted
		}
	}
}

// wasteWork adds the work of token t since start to WastedWork when its
// user has already given up.
func (s *sim) wasteWork(t *token, start float64) {
	if !s.anyPatience {
		return // no user ever gives up
	}
	q := &s.reqs[t.req]
	if !q.abandoned || !s.measuring {
		return
	}
	s.res.WastedWork += s.now - max(start, q.abandonedAt, s.measureStart)
}
