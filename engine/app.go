package engine

import (
	"math"

	"github.com/websim/websim/engine/stats"
)

// appServer is one application server: Capacity AppRes units, the queue
// for them (one FCFS queue, or with InFlightFirst a second one that goes
// first, for tokens of admitted requests), the accept queue in front of it
// (MaxAdmitted), and the pool of active idle units (paper 3.5, RelTime[n])
// as release times in release order.
type appServer struct {
	capacity int32
	// busy counts units that are not free: held, or in their acquisition
	// time.
	busy int32
	// active holds the release times of free units released less than
	// TActive ago, oldest first; expired ones are dropped lazily.
	active ring[float64]
	// queue holds tokens waiting for a unit, first come first served;
	// with InFlightFirst, only entries, and inFlight the others.
	queue, inFlight ring[int32]
	// heldByWaiting counts units held by tokens that are in a unit queue,
	// and blockedHeld those held by blocked tokens (see setBlocked): when
	// either reaches capacity the server is deadlocked (resource locking).
	blockedHeld int32
	// when it reaches capacity the server is deadlocked (resource locking).
	heldByWaiting int32
	// cancelled counts queued tokens whose users gave up before they got a
	// unit; they are dropped when they reach the head.
	cancelled int32
	// accept holds requests waiting to be admitted (MaxAdmitted), of which
	// acceptCancelled were given up by their users; admitted counts the
	// requests admitted and not yet gone.
	accept          ring[int32]
	acceptCancelled int32
	admitted        int32
	admissionWaits  int64

	// busyAvg and queueAvg are the time averages of busy units and of
	// tokens waiting for a unit, acceptAvg of requests waiting in the
	// accept queue.
	busyAvg, queueAvg, acceptAvg stats.TimeAverage
	peakBusy                     int32
	arrived, waited              int64
	grants                       int64
}

// waiting is the number of tokens waiting for a unit.
func (a *appServer) waiting() int {
	return a.queue.len() + a.inFlight.len() - int(a.cancelled)
}

// accepting is the number of requests waiting in the accept queue.
func (a *appServer) accepting() int {
	return a.accept.len() - int(a.acceptCancelled)
}

// load is what LeastBusy compares: the requests there, as units not free
// plus tokens waiting for a unit plus requests waiting for admission.
func (a *appServer) load() int32 {
	return a.busy + int32(a.waiting()) + int32(a.accepting())
}

// expireActive drops active units whose TActive has run out by now.
func (a *appServer) expireActive(now, tActive float64) {
	for a.active.len() > 0 && now-a.active.front() >= tActive {
		a.active.pop()
	}
}

// touch tells LeastBusy that server i's load may have changed.
func (s *sim) touch(i int32) {
	if s.lbs.size > 0 {
		s.retouch(i)
	}
}

func (s *sim) retouch(i int32) { s.lbs.set(int(i), s.apps[i].load()) }

// enter admits main token ti to its server, or puts it in the accept
// queue when MaxAdmitted requests are already admitted; an admitted token
// asks for its entry unit. It returns true when the token may go on at
// once.
func (s *sim) enter(ti int32) bool {
	t := &s.toks[ti]
	a := &s.apps[t.app]
	if max := s.m.App.MaxAdmitted; max > 0 {
		if a.admitted >= int32(max) {
			t.cont = contEnter
			a.accept.push(ti)
			a.acceptAvg.Set(s.now, float64(a.accepting()))
			if s.measuring {
				a.admissionWaits++
			}
			if s.tr != nil {
				s.trace(ti, "waits to be admitted to App%d (%d admitted, %d ahead)", t.app+1, a.admitted, a.accept.len()-1)
			}
			s.touch(t.app)
			return false
		}
		a.admitted++
	}
	return s.acquire(ti, t, contEnter)
}

// leave ends a main token's admission to application server app and
// admits the next request waiting in its accept queue, if any; without
// MaxAdmitted there is nothing to do (kept small, to inline).
func (s *sim) leave(app int32) {
	if s.m.App.MaxAdmitted > 0 {
		s.admitNext(app)
	}
}

// admitNext is leave with MaxAdmitted set.
func (s *sim) admitNext(app int32) {
	a := &s.apps[app]
	a.admitted--
	for a.accept.len() > 0 {
		next := a.accept.pop()
		if s.toks[next].cancelled {
			a.acceptCancelled--
			s.freeToken(next)
			continue
		}
		a.admitted++
		if s.acquire(next, &s.toks[next], contEnter) {
			s.ready.push(next)
		}
		break
	}
	a.acceptAvg.Set(s.now, float64(a.accepting()))
	s.touch(app)
}

// acquire asks for one unit for token ti (t), which will continue with
// cont. It returns true when the token may go on at once (a unit was free
// and no acquisition time is due); otherwise the token waits and is
// resumed later.
func (s *sim) acquire(ti int32, t *token, cont contKind) bool {
	t.cont = cont
	a := &s.apps[t.app]
	if s.measuring {
		a.arrived++
	}
	if a.queue.len()+a.inFlight.len() == 0 && a.busy < a.capacity {
		return s.grant(ti, t)
	}
	if s.measuring {
		a.waited++
	}
	if s.tr != nil {
		ahead := a.waiting()
		if s.m.App.UnitQueue == InFlightFirst && t.inFlight {
			ahead = a.inFlight.len() // entries wait behind it
		}
		s.trace(ti, "waits for a unit of App%d (all %d busy, %d ahead)", t.app+1, a.capacity, ahead)
	}
	if s.m.App.UnitQueue == InFlightFirst && t.inFlight {
		a.inFlight.push(ti)
	} else {
		a.queue.push(ti)
	}
	t.queued = true
	a.heldByWaiting += t.held
	a.queueAvg.Set(s.now, float64(a.waiting()))
	s.touch(t.app)
	s.setBlocked(ti, true)
	return false
}

// grant gives token ti (t) a unit of its server. A free active unit is taken
// at once, the earliest released first; otherwise the unit counts as busy
// from now and becomes usable after the resource acquisition time, computed
// from the server's busy fraction before this grant. It returns true when
// the token may go on at once.
func (s *sim) grant(ti int32, t *token) bool {
	a := &s.apps[t.app]
	tActive := s.m.App.TActive
	a.expireActive(s.now, tActive)
	a.busy++
	if a.busy > a.peakBusy {
		a.peakBusy = a.busy
	}
	a.busyAvg.Set(s.now, float64(a.busy))
	s.touch(t.app)
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
	// The busy fraction at the grant, not counting this unit; without a
	// RAT expression and with RATParameter 0, RAT is 0 whatever it is.
	rat := 0.0
	if s.m.App.RAT != nil {
		s.setContext(t)
		s.ctx.AppUtil = float64(a.busy-1) / float64(a.capacity)
		v, err := s.m.App.RAT.Number(&s.ctx)
		if err != nil {
			s.fail(t, "RAT", err)
			return false
		}
		rat = v
	} else if p := s.m.App.RATParameter; p != 0 {
		rat = p * (float64(a.busy-1) / float64(a.capacity))
	}
	if s.tr != nil {
		s.trace(ti, "gets a unit of App%d (%d of %d busy before), usable after RAT %.4f", t.app+1, a.busy-1, a.capacity, max(rat, 0))
	}
	if !(rat > 0) {
		return true
	}
	s.schedule(rat, evResume, ti, 0, srcRAT, ti)
	return false
}

// release gives back one unit of token ti's server and grants it to the
// first waiting token, if any (with InFlightFirst, the first in flight).
func (s *sim) release(ti int32) {
	t := &s.toks[ti]
	t.held--
	a := &s.apps[t.app]
	a.busy--
	a.busyAvg.Set(s.now, float64(a.busy))
	if s.m.App.TActive > 0 {
		a.active.push(s.now)
	}
	var next int32
	if a.inFlight.len() > 0 {
		next = a.inFlight.pop()
	} else {
		for a.queue.len() > 0 && s.toks[a.queue.front()].cancelled {
			gone := a.queue.pop()
			a.cancelled--
			s.freeToken(gone)
		}
		if a.queue.len() == 0 {
			s.touch(t.app)
			return
		}
		next = a.queue.pop()
	}
	a.queueAvg.Set(s.now, float64(a.waiting()))
	nt := &s.toks[next]
	nt.queued = false
	a.heldByWaiting -= nt.held
	s.setBlocked(next, false)
	if s.grant(next, nt) { // grant tells LeastBusy
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
		if s.nextCyclic++; s.nextCyclic == n {
			s.nextCyclic = 0
		}
		return i
	}
	if n == 1 {
		return 0
	}
	// The fewest requests there; ties to the first after the last pick.
	if s.lbs.size == 0 {
		return s.scanLeastBusy()
	}
	return s.treeLeastBusy()
}

// treeLeastBusy picks as selectApp does, from the loadTree.
func (s *sim) treeLeastBusy() int32 {
	low := s.lbs.min()
	i := s.lbs.first(int(s.lastPicked)+1, low)
	if i < 0 {
		i = s.lbs.first(0, low)
	}
	s.lastPicked = int32(i)
	return int32(i)
}

// scanMaxServers is the most application servers for which LeastBusy
// scans every server's load at each pick rather than keep a loadTree: a
// scan of a few servers once per attempt costs less than updating the
// tree at every unit taken and given back.
const scanMaxServers = 16

// scanLeastBusy picks as selectApp does, by looking at every server: the
// first with the fewest requests, from the one after the last pick on,
// round the servers.
func (s *sim) scanLeastBusy() int32 {
	n := int32(len(s.apps))
	best, low := int32(-1), int32(math.MaxInt32)
	for k := int32(1); k <= n; k++ {
		i := s.lastPicked + k // wrapped by a subtraction, not a division
		if i >= n {
			i -= n
		}
		if l := s.apps[i].load(); l < low {
			best, low = i, l
		}
	}
	s.lastPicked = best
	return best
}

// loadTree is a segment tree of the application servers' loads: the
// smallest load, and the first server from a given index with that load,
// each in O(log n), so that LeastBusy stays cheap over many servers.
type loadTree struct {
	size int     // leaves, a power of two >= the number of servers
	v    []int32 // v[1] the root; v[size+i] server i's load
}

func (t *loadTree) init(n int) {
	t.size = 1
	for t.size < n {
		t.size *= 2
	}
	t.v = make([]int32, 2*t.size)
	for i := n; i < t.size; i++ {
		t.v[t.size+i] = math.MaxInt32 // no server: never the least busy
	}
	for k := t.size - 1; k >= 1; k-- {
		t.v[k] = min(t.v[2*k], t.v[2*k+1])
	}
}

// set changes server i's load to x.
func (t *loadTree) set(i int, x int32) {
	k := t.size + i
	if t.v[k] == x {
		return
	}
	t.v[k] = x
	for k /= 2; k >= 1; k /= 2 {
		m := min(t.v[2*k], t.v[2*k+1])
		if t.v[k] == m {
			return
		}
		t.v[k] = m
	}
}

// min is the smallest load.
func (t *loadTree) min() int32 { return t.v[1] }

// first returns the first server from index from on with load x (the
// smallest), or -1.
func (t *loadTree) first(from int, x int32) int {
	return t.find(1, 0, t.size, from, x)
}

func (t *loadTree) find(k, lo, hi, from int, x int32) int {
	if hi <= from || t.v[k] > x {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	mid := (lo + hi) / 2
	if i := t.find(2*k, lo, mid, from, x); i >= 0 {
		return i
	}
	return t.find(2*k+1, mid, hi, from, x)
}

// setBlocked marks token ti blocked or not. A token is blocked when it
// can never move by itself: it waits in a unit queue, or it is a Parallel
// parent whose copies still out are all blocked. Each server keeps the
// units its blocked tokens hold, and each gate its blocked copies, so a
// change costs a step per gate level above the token, and a deadlock
// (every unit held by blocked tokens) is seen the moment it happens.
func (s *sim) setBlocked(ti int32, b bool) {
	t := &s.toks[ti]
	if t.blocked == b {
		return
	}
	t.blocked = b
	a := &s.apps[t.app]
	if b {
		a.blockedHeld += t.held
	} else {
		a.blockedHeld -= t.held
	}
	if g := t.gate; g >= 0 && !s.gates[g].resolved {
		if b {
			s.gates[g].blockedCopies++
		} else {
			s.gates[g].blockedCopies--
		}
		s.gateChanged(g)
	}
	if b && a.blockedHeld >= a.capacity {
		s.res.Deadlocked = s.res.Deadlocked || s.res.Stable
		if a.heldByWaiting >= a.capacity {
			s.unstable("application server App%d deadlocked at %s: all %d units are held by requests that each wait for one more (resource locking)",
				t.app+1, s.clock(), a.capacity)
			return
		}
		s.unstable("application server App%d deadlocked at %s: all %d units are held by requests waiting for one more, or by Parallel parents whose copies wait for one (resource locking)",
			t.app+1, s.clock(), a.capacity)
	}
}

// gateChanged re-marks the parent of gate g: blocked when it waits at the
// gate and every copy still out is blocked.
func (s *sim) gateChanged(g int32) {
	gt := &s.gates[g]
	if gt.resolved {
		return
	}
	p := gt.parent
	s.setBlocked(p, gt.outstanding > 0 && gt.blockedCopies == gt.outstanding && s.toks[p].cont == contGate)
}
