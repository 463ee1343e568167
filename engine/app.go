package engine

import "github.com/websim/websim/engine/stats"

// appServer is one application server: Capacity AppRes units, one FCFS
// queue for them (entries, calls and Parallel parents alike), and the pool
// of active idle units (paper 3.5, RelTime[n]) as release times in release
// order.
type appServer struct {
	capacity int32
	// busy counts units that are not free: held, or in their acquisition
	// time.
	busy int32
	// active holds the release times of free units released less than
	// TActive ago, oldest first; expired ones are dropped lazily.
	active ring[float64]
	// queue holds tokens waiting for a unit, first come first served.
	queue ring[int32]
	// heldByWaiting counts units held by tokens that are in queue: when it
	// reaches capacity the server is deadlocked (resource locking).
	heldByWaiting int32
	// cancelled counts queued tokens whose users gave up before they got a
	// unit; they are dropped when they reach the head.
	cancelled int32

	busyAvg, queueAvg stats.TimeAverage
	peakBusy          int32
	arrived, waited   int64
	grants            int64
}

// expireActive drops active units whose TActive has run out by now.
func (a *appServer) expireActive(now, tActive float64) {
	for a.active.len() > 0 && now-a.active.front() >= tActive {
		a.active.pop()
	}
}

// acquire asks for one unit for token ti, which will continue with cont.
// It returns true when the token may go on at once (a unit was free and no
// acquisition time is due); otherwise the token waits and is resumed later.
func (s *sim) acquire(ti int32, cont contKind) bool {
	t := &s.toks[ti]
	t.cont = cont
	a := &s.apps[t.app]
	if s.measuring {
		a.arrived++
	}
	if a.queue.len() == 0 && a.busy < a.capacity {
		return s.grant(ti)
	}
	if s.measuring {
		a.waited++
	}
	if s.tr != nil {
		s.trace(ti, "waits for a unit of App%d (all %d busy, %d ahead)", t.app+1, a.capacity, a.queue.len())
	}
	a.queue.push(ti)
	t.queued = true
	a.heldByWaiting += t.held
	a.queueAvg.Set(s.now, float64(a.queue.len()-int(a.cancelled)))
	if a.busy == a.capacity && a.heldByWaiting >= a.capacity {
		s.unstable("application server App%d deadlocked at %s: all %d units are held by requests that each wait for one more (resource locking)",
			t.app+1, s.clock(), a.capacity)
	}
	return false
}

// grant gives token ti a unit of its server. A free active unit is taken
// at once, the earliest released first; otherwise the unit counts as busy
// from now and becomes usable after the resource acquisition time, computed
// from the server's busy fraction before this grant. It returns true when
// the token may go on at once.
func (s *sim) grant(ti int32) bool {
	t := &s.toks[ti]
	a := &s.apps[t.app]
	tActive := s.m.App.TActive
	a.expireActive(s.now, tActive)
	util := float64(a.busy) / float64(a.capacity)
	a.busy++
	if a.busy > a.peakBusy {
		a.peakBusy = a.busy
	}
	a.busyAvg.Set(s.now, float64(a.busy))
	t.held++
	if s.measuring {
		s.res.Captures++
		a.grants++
	}
	if a.active.len() > 0 {
		a.active.pop()
		if s.measuring {
			s.res.InstantCaptures++
		}
		if s.tr != nil {
			s.trace(ti, "gets an active unit of App%d at once", t.app+1)
		}
		return true
	}
	rat := s.m.App.RATParameter * util
	if s.m.App.RAT != nil {
		s.setContext(t)
		s.ctx.AppUtil = util // the busy fraction at the grant, not counting this unit
		v, err := s.m.App.RAT.Number(&s.ctx)
		if err != nil {
			s.fail(t, "RAT", err)
			return false
		}
		rat = v
	}
	if s.tr != nil {
		s.trace(ti, "gets a unit of App%d (%d of %d busy before), usable after RAT %.4f", t.app+1, a.busy-1, a.capacity, max(rat, 0))
	}
	if rat <= 0 {
		return true
	}
	s.cal.schedule(s.now+rat, evResume, ti, 0)
	return false
}

// release gives back one unit of token ti's server and grants it to the
// first waiting token, if any.
func (s *sim) release(ti int32) {
	t := &s.toks[ti]
	t.held--
	a := &s.apps[t.app]
	a.busy--
	a.busyAvg.Set(s.now, float64(a.busy))
	if s.m.App.TActive > 0 {
		a.active.push(s.now)
	}
	for a.queue.len() > 0 && s.toks[a.queue.front()].cancelled {
		gone := a.queue.pop()
		a.cancelled--
		s.freeToken(gone)
	}
	if a.queue.len() == 0 {
		return
	}
	next := a.queue.pop()
	a.queueAvg.Set(s.now, float64(a.queue.len()-int(a.cancelled)))
	s.toks[next].queued = false
	a.heldByWaiting -= s.toks[next].held
	if s.grant(next) {
		s.ready.push(next)
	}
}

// selectApp picks the application server for a new attempt.
func (s *sim) selectApp() int32 {
	n := int32(len(s.apps))
	switch s.m.App.Selection {
	case RandomServer:
		return int32(s.rSelect.IntN(int(n)))
	case Cyclic:
		i := s.nextCyclic
		s.nextCyclic = (s.nextCyclic + 1) % n
		return i
	}
	best := int32(0)
	for i := int32(1); i < n; i++ {
		if s.apps[i].busy < s.apps[best].busy {
			best = i
		}
	}
	return best
}

// checkDeadlocks finds application servers on which no unit can ever be
// released: every busy unit is held by a token that waits in the unit
// queue, or by a Parallel parent whose copies still out are all blocked
// the same way. The cheap check in acquire sees the first kind at once;
// this scan, run now and then, sees the second.
func (s *sim) checkDeadlocks() {
	var copies map[int32][]int32 // gate -> live copies
	for i := range s.apps {
		a := &s.apps[i]
		if a.busy < a.capacity || a.queue.len() == 0 {
			continue
		}
		if copies == nil {
			copies = s.liveCopies()
		}
		held := int32(0)
		free := make(map[int32]bool, len(s.freeToks))
		for _, ti := range s.freeToks {
			free[ti] = true
		}
		blocked := true
		for ti := range s.toks {
			t := &s.toks[ti]
			if free[int32(ti)] || t.app != int32(i) || t.held == 0 {
				continue
			}
			if !s.blockedToken(int32(ti), copies, 0) {
				blocked = false
				break
			}
			held += t.held
		}
		if blocked && held >= a.capacity {
			s.unstable("application server App%d deadlocked at %s: all %d units are held by requests waiting for one more, or by Parallel parents whose copies wait for one (resource locking)",
				i+1, s.clock(), a.capacity)
			return
		}
	}
}

// liveCopies maps each gate to the copies that still report to it.
func (s *sim) liveCopies() map[int32][]int32 {
	free := make(map[int32]bool, len(s.freeToks))
	for _, ti := range s.freeToks {
		free[ti] = true
	}
	m := map[int32][]int32{}
	for ti := range s.toks {
		if t := &s.toks[ti]; !free[int32(ti)] && t.gate >= 0 && !s.gates[t.gate].resolved {
			m[t.gate] = append(m[t.gate], int32(ti))
		}
	}
	return m
}

// blockedToken reports whether token ti can never move: it waits in a
// unit queue, or waits at a gate whose copies are all blocked.
func (s *sim) blockedToken(ti int32, copies map[int32][]int32, depth int) bool {
	t := &s.toks[ti]
	if t.queued && !t.cancelled {
		return true
	}
	if t.cont != contGate || depth > 64 {
		return false
	}
	for g, cs := range copies {
		if s.gates[g].parent != ti {
			continue
		}
		for _, c := range cs {
			if !s.blockedToken(c, copies, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
