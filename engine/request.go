package engine

// request is one user request: its type, attributes, first arrival, and
// the attempt under way.
type request struct {
	entity       int32
	id           int64
	attempt      int32
	tokens       int32 // live tokens (main line and copies)
	main         int32 // the token of the attempt under way
	arrival      float64
	attemptStart float64
	abandonedAt  float64
	gen          uint32 // changes when an attempt ends, to cancel patience
	abandoned    bool
	done         bool // final outcome known and no retry pending
}

func (s *sim) newRequest(e int32) int32 {
	var r int32
	if n := len(s.freeReqs); n > 0 {
		r = s.freeReqs[n-1]
		s.freeReqs = s.freeReqs[:n-1]
	} else {
		s.reqs = append(s.reqs, request{})
		r = int32(len(s.reqs) - 1)
		s.attrs = append(s.attrs, make([]float64, s.nAttrs)...)
	}
	s.nextID++
	s.reqs[r] = request{entity: e, id: s.nextID, arrival: s.now, gen: s.reqs[r].gen + 1}
	// A recycled slot must not pass on attributes this entity lacks.
	clear(s.requestAttrs(r))
	return r
}

func (s *sim) maybeFreeRequest(r int32) {
	if q := &s.reqs[r]; q.tokens == 0 && q.done {
		s.freeReqs = append(s.freeReqs, r)
	}
}

func (s *sim) requestAttrs(r int32) []float64 {
	return s.attrs[int(r)*s.nAttrs : int(r+1)*s.nAttrs]
}

// arrival brings a new request of entity e and schedules the next one.
func (s *sim) arrival(e int32) {
	ent := &s.m.Entities[e]
	s.cal.schedule(s.now+ent.InterArrival[s.load].Sample(s.rArrival[e]), evArrival, e, 0)
	r := s.newRequest(e)
	s.open++
	s.arrivedAll++
	if s.measuring {
		s.res.Arrivals++
	}
	if s.open > s.maxInSystem {
		s.unstable("%d requests in the system at %s: arrivals outpace what the application can serve", s.open, s.clock())
		return
	}
	attrs := s.requestAttrs(r)
	for _, a := range ent.Attributes {
		if a.Dist != nil {
			attrs[a.Index] = a.Dist.Sample(s.rAttr[e])
			continue
		}
		s.ctx.Now, s.ctx.Attrs, s.ctx.Attempt, s.ctx.AppUtil = s.now, attrs, 1, 0
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
	if q.attempt > 1 && s.measuring {
		s.res.Retries++
	}
	ent := &s.m.Entities[q.entity]
	if ent.Patience != nil {
		s.cal.schedule(s.now+ent.Patience.Sample(s.rPatience[q.entity]), evPatience, r, q.gen)
	}
	ti := s.newToken(r, s.selectApp(), -1)
	s.reqs[r].main = ti
	if s.tr != nil {
		s.trace(ti, "arrives, asks App%d for a unit", s.toks[ti].app+1)
	}
	if s.acquire(ti, contEnter) {
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
		s.trace(q.main, "abandoned by its user (patience ran out); started work goes on")
	}
	s.finish(q)
	if s.measuring {
		s.res.Abandoned++
		s.outcomes.add(false, true)
	}
	// A request still queued for its first unit has started nothing: it
	// leaves the queue. Work already started goes on to its end.
	t := &s.toks[q.main]
	if t.cont == contEnter && t.held == 0 && !t.cancelled {
		t.cancelled = true
		a := &s.apps[t.app]
		a.cancelled++
		a.queueAvg.Set(s.now, float64(a.queue.len()-int(a.cancelled)))
	}
}

// finishAttempt ends token ti, the main line of its request, at END
// (completed) or EXIT, and releases its entry unit. A failed attempt may be
// retried by its user.
func (s *sim) finishAttempt(ti int32, completed bool) {
	r := s.toks[ti].req
	if s.tr != nil {
		outcome := "EXIT"
		if completed {
			outcome = "END"
		}
		s.trace(ti, "reaches %s after %.4f, releases its unit", outcome, s.now-s.reqs[r].arrival)
	}
	s.release(ti)
	s.freeTokenKeep(ti)
	q := &s.reqs[r]
	q.gen++
	if q.abandoned {
		q.done = true
		s.maybeFreeRequest(r)
		return
	}
	ent := &s.m.Entities[q.entity]
	if completed {
		s.finish(q)
		if s.measuring {
			s.res.Completed++
			s.outcomes.add(false, false)
			s.recordResponse(s.now-q.arrival, s.now-q.attemptStart)
		}
		s.maybeFreeRequest(r)
		return
	}
	if int(q.attempt) <= ent.MaxRetries && ent.RetryProbability > 0 &&
		s.rRetry[q.entity].Float64() < ent.RetryProbability {
		delay := 0.0
		if ent.RetryDelay != nil {
			delay = ent.RetryDelay.Sample(s.rRetry[q.entity])
		}
		if s.tr != nil {
			s.trace(ti, "the user retries in %.4f", delay)
		}
		s.cal.schedule(s.now+delay, evRetry, r, 0)
		return
	}
	s.finish(q)
	if s.measuring {
		s.res.Failed++
		s.outcomes.add(true, false)
	}
	s.maybeFreeRequest(r)
}

// freeTokenKeep frees a main token without freeing its request, which the
// caller still uses.
func (s *sim) freeTokenKeep(ti int32) {
	t := &s.toks[ti]
	t.frames = t.frames[:0]
	s.freeToks = append(s.freeToks, ti)
	s.reqs[t.req].tokens--
}

// finish records that request q has its final outcome.
func (s *sim) finish(q *request) {
	q.done = true
	s.open--
	s.finishedAll++
	if s.measuring {
		s.finished++
		s.res.Attempts += int64(q.attempt)
	}
}

// wasteWork adds the work of token t since start to WastedWork when its
// user has already given up.
func (s *sim) wasteWork(t *token, start float64) {
	q := &s.reqs[t.req]
	if !q.abandoned || !s.measuring {
		return
	}
	s.res.WastedWork += s.now - max(start, q.abandonedAt, s.measureStart)
}
