package lb

import "github.com/websim/websim/engine/stats"

// The simulation core: pools of units (one per server and type), a
// future-event list of departures, and FCFS queues. Arrivals are fed in time
// order by arrive; nothing on that path allocates once the queues have grown
// to their working size.

// departure is a unit of a pool finishing its request at time t.
type departure struct {
	t    float64
	pool int32
}

// departures is a binary min-heap on t. Typed, so that push and pop neither
// box nor allocate: its capacity is the number of units, which bounds it.
type departures []departure

func (h *departures) push(d departure) {
	a := append(*h, d)
	i := len(a) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if a[parent].t <= d.t {
			break
		}
		a[i] = a[parent]
		i = parent
	}
	a[i] = d
	*h = a
}

func (h *departures) pop() departure {
	a := *h
	top := a[0]
	n := len(a) - 1
	last := a[n]
	a = a[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && a[c+1].t < a[c].t {
			c++
		}
		if last.t <= a[c].t {
			break
		}
		a[i] = a[c]
		i = c
	}
	if n > 0 {
		a[i] = last
	}
	*h = a
	return top
}

// waiting is a request in a pool's queue.
type waiting struct{ arrival, service float64 }

// queue is a FCFS ring buffer whose length is a power of two.
type queue struct {
	buf     []waiting
	head, n int
}

func (q *queue) push(w waiting) {
	if q.n == len(q.buf) {
		q.grow()
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = w
	q.n++
}

func (q *queue) pop() waiting {
	w := q.buf[q.head]
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
	return w
}

func (q *queue) grow() {
	buf := make([]waiting, max(16, 2*len(q.buf)))
	for i := range q.n {
		buf[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
	}
	q.buf, q.head = buf, 0
}

// counts are the tallies of a group of requests: a pool (one server, one
// type), or a sum of pools.
type counts struct {
	requests, failed, waited int
	totalWait, totalService  float64
}

func (c *counts) add(o counts) {
	c.requests += o.requests
	c.failed += o.failed
	c.waited += o.waited
	c.totalWait += o.totalWait
	c.totalService += o.totalService
}

// sim is one replication of the model. Pool s*types+k is type k on server s.
type sim struct {
	servers, types int
	method         Method
	next           int     // the next server of roundrobin
	units          []int32 // per pool: units dealt
	busy           []int32 // per pool: units serving
	serverBusy     []int32 // per server: units serving, all types
	queues         []queue // per pool
	deps           departures
	tally          []counts          // per pool
	hist           []stats.Histogram // per type: the waits of served requests
	now            float64           // time of the last arrival
}

// deal returns the units of a capacity dealt one at a time over n servers,
// round robin from server 0: server i gets floor(c/n) + (1 if i < c mod n).
func deal(capacity, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = capacity / n
		if i < capacity%n {
			out[i]++
		}
	}
	return out
}

func newSim(p *Params) *sim {
	n, k := p.Servers, len(p.Types)
	s := &sim{
		servers: n, types: k, method: p.Method,
		units: make([]int32, n*k), busy: make([]int32, n*k), serverBusy: make([]int32, n),
		queues: make([]queue, n*k), tally: make([]counts, n*k), hist: make([]stats.Histogram, k),
	}
	total := 0
	for j, t := range p.Types {
		for i, u := range deal(t.OutputCapacity, n) {
			s.units[i*k+j] = int32(u)
		}
		total += t.OutputCapacity
	}
	s.deps = make(departures, 0, total)
	return s
}

// advance frees units up to and including time t: a request that arrives
// exactly when a unit frees does not wait.
func (s *sim) advance(t float64) {
	for len(s.deps) > 0 && s.deps[0].t <= t {
		s.depart()
	}
}

// drain serves every request still queued after the last arrival.
func (s *sim) drain() {
	for len(s.deps) > 0 {
		s.depart()
	}
}

// depart ends the earliest service; its unit starts the head of the pool's
// queue, or goes idle.
func (s *sim) depart() {
	d := s.deps.pop()
	q := &s.queues[d.pool]
	if q.n == 0 {
		s.busy[d.pool]--
		s.serverBusy[int(d.pool)/s.types]--
		return
	}
	w := q.pop()
	wait := d.t - w.arrival
	s.tally[d.pool].totalWait += wait
	s.hist[int(d.pool)%s.types].Add(wait)
	s.deps.push(departure{d.t + w.service, d.pool})
}

// arrive routes a request of type typ needing service seconds, arriving at
// t (never before the previous arrival), and returns its server.
func (s *sim) arrive(t float64, typ int, service float64) int {
	s.advance(t)
	s.now = t
	server := s.choose()
	pool := server*s.types + typ
	c := &s.tally[pool]
	c.requests++
	switch {
	case s.units[pool] == 0:
		c.failed++
	case s.busy[pool] < s.units[pool]:
		s.busy[pool]++
		s.serverBusy[server]++
		c.totalService += service
		s.hist[typ].Add(0)
		s.deps.push(departure{t + service, int32(pool)})
	default:
		c.waited++
		c.totalService += service
		s.queues[pool].push(waiting{t, service})
	}
	return server
}

// choose picks the server of the next request.
func (s *sim) choose() int {
	if s.method == Busyness {
		best := 0
		for i := 1; i < s.servers; i++ {
			if s.serverBusy[i] < s.serverBusy[best] {
				best = i
			}
		}
		return best
	}
	server := s.next
	s.next++
	if s.next == s.servers {
		s.next = 0
	}
	return server
}
