package lb

import (
	"slices"
	"testing"
)

func oneType(servers, capacity int, method Method) Params {
	return Params{Servers: servers, RequestsPerSec: 1, Requests: 1, Method: method, Seed: 1,
		Types: []RequestType{{Name: "a", OutputCapacity: capacity, Proportion: 1, AvgServiceTimeSecs: 1}}}
}

func TestDeal(t *testing.T) {
	tests := []struct {
		capacity, servers int
		want              []int
	}{
		{20, 6, []int{4, 4, 3, 3, 3, 3}},
		{60, 6, []int{10, 10, 10, 10, 10, 10}},
		{2, 4, []int{1, 1, 0, 0}},
		{7, 3, []int{3, 2, 2}},
		{5, 5, []int{1, 1, 1, 1, 1}},
		{1, 1, []int{1}},
		{13, 4, []int{4, 3, 3, 3}},
	}
	for _, tt := range tests {
		if got := deal(tt.capacity, tt.servers); !slices.Equal(got, tt.want) {
			t.Errorf("deal(%d, %d) = %v, want %v", tt.capacity, tt.servers, got, tt.want)
		}
	}
}

// Two units over four servers: servers 2 and 3 have none and fail every
// request of the type that roundrobin sends them, and count it.
func TestZeroCapacityFails(t *testing.T) {
	p := oneType(4, 2, RoundRobin)
	s := newSim(&p)
	for i := range 8 {
		if got := s.arrive(float64(10*i), 0, 1); got != i%4 {
			t.Fatalf("request %d went to server %d, want %d (roundrobin)", i, got, i%4)
		}
	}
	s.drain()
	for server, want := range []int{0, 0, 2, 2} {
		if c := s.tally[server]; c.failed != want || c.requests != 2 || c.waited != 0 {
			t.Errorf("server %d: %+v, want 2 requests, %d failed, none waited", server, c, want)
		}
	}
	f := summarise(s, &p).all
	if f.Failed != 4 || f.WaitedPercent != 0 || f.MeanWait != 0 {
		t.Errorf("all: %+v, want 4 failed", f)
	}
}

// A request arriving exactly when a unit frees does not wait; one arriving
// before does, for the time left.
func TestExactFreeTimeDoesNotWait(t *testing.T) {
	p := oneType(1, 1, RoundRobin)
	s := newSim(&p)
	s.arrive(0, 0, 1)    // busy until 1
	s.arrive(1, 0, 1)    // the unit frees at 1: no wait; busy until 2
	s.arrive(1.5, 0, 1)  // waits 0.5, busy until 3
	s.arrive(1.75, 0, 2) // waits 1.25, behind the previous one (FCFS)
	s.drain()
	c := s.tally[0]
	if c.requests != 4 || c.waited != 2 || c.totalWait != 1.75 {
		t.Errorf("tally %+v, want 4 requests, 2 waited, total wait 1.75", c)
	}
	if got := summarise(s, &p).all.WaitShareOfService; got != 1.75/5 {
		t.Errorf("wait/service = %v, want %v", got, 1.75/5)
	}
}

// A request waits only when every unit of its type on its server is busy.
func TestWaitsOnlyWhenAllUnitsBusy(t *testing.T) {
	p := oneType(1, 2, RoundRobin)
	s := newSim(&p)
	s.arrive(0, 0, 10)
	s.arrive(1, 0, 10)
	s.arrive(2, 0, 10) // both busy until 10 and 11: waits 8
	s.drain()
	if c := s.tally[0]; c.waited != 1 || c.totalWait != 8 {
		t.Errorf("tally %+v, want 1 waited for 8 s", c)
	}
}

// busyness takes the server with the fewest busy units of all types, the
// lowest number on ties; queued requests are not busy units.
func TestBusynessTies(t *testing.T) {
	p := Params{Servers: 3, RequestsPerSec: 1, Requests: 1, Method: Busyness, Seed: 1, Types: []RequestType{
		{Name: "a", OutputCapacity: 3, Proportion: 0.5, AvgServiceTimeSecs: 1},
		{Name: "b", OutputCapacity: 6, Proportion: 0.5, AvgServiceTimeSecs: 1},
	}}
	s := newSim(&p)
	steps := []struct {
		t       float64
		typ     int
		service float64
		server  int
	}{
		{0, 0, 100, 0}, // all idle: the lowest number
		{1, 1, 100, 1}, // server 0 has a busy unit (of the other type)
		{2, 1, 5, 2},   // servers 0 and 1 busy
		{3, 0, 100, 0}, // one busy unit each: server 0; its a unit is busy, so it waits
		{4, 1, 100, 0}, // server 0 still has 1 busy unit (the queued one is not): tie, 0
		{8, 1, 100, 2}, // server 2 freed at 7: the only one with no busy unit
		{9, 0, 100, 1}, // 0 has 2 busy, 1 has 1, 2 has 1: the lowest of 1 and 2
	}
	for i, st := range steps {
		if got := s.arrive(st.t, st.typ, st.service); got != st.server {
			t.Fatalf("step %d: server %d, want %d (busy %v)", i, got, st.server, s.serverBusy)
		}
	}
	if c := s.tally[0]; c.waited != 1 {
		t.Errorf("server 0, type a: %+v, want 1 waited", c)
	}
}

func TestHeapOrder(t *testing.T) {
	var h departures
	in := []float64{5, 3, 9, 1, 1, 7, 2, 8, 0, 4}
	for i, x := range in {
		h.push(departure{x, int32(i)})
	}
	var out []float64
	for len(h) > 0 {
		out = append(out, h.pop().t)
	}
	if !slices.IsSorted(out) || len(out) != len(in) {
		t.Errorf("popped %v", out)
	}
}

func TestQueueGrowsInOrder(t *testing.T) {
	var q queue
	next := 0.0
	for i := range 100 {
		q.push(waiting{arrival: float64(i)})
		if i%3 == 0 {
			if w := q.pop(); w.arrival != next {
				t.Fatalf("popped %v, want %v", w.arrival, next)
			}
			next++
		}
	}
	for q.n > 0 {
		if w := q.pop(); w.arrival != next {
			t.Fatalf("popped %v, want %v", w.arrival, next)
		}
		next++
	}
}

// The observed arrival rate lies within its 95% confidence interval of the
// configured one, fractional rates included.
func TestObservedArrivalRate(t *testing.T) {
	for _, rate := range []float64{30, 2.5} {
		p := Sample()
		p.RequestsPerSec, p.Requests = rate, 5000
		r, err := Run(p, 10)
		if err != nil {
			t.Fatal(err)
		}
		got, hw := r.All.Mean.ArrivalRate, r.All.HalfWidth.ArrivalRate
		if got-hw > rate || got+hw < rate || hw <= 0 {
			t.Errorf("rate %v: observed %v ± %v", rate, got, hw)
		}
	}
}

// The same seed gives the same figures, however many replications run
// beside it; another seed gives others.
func TestSeedReproducible(t *testing.T) {
	p := Sample()
	p.Requests = 3000
	a, _ := Run(p, 1)
	b, _ := Run(p, 4)
	p.Seed = 2
	c, _ := Run(p, 1)
	one := func(r *Report) float64 { return r.All.Mean.TotalWait }
	b1, _ := Run(p, 1)
	if one(a) == one(c) || one(b1) != one(c) {
		t.Errorf("seed 1 %v, seed 2 %v and %v", one(a), one(c), one(b1))
	}
	if b.Replications != 4 || b.All.HalfWidth.TotalWait == 0 {
		t.Errorf("4 replications: %+v", b.All)
	}
}
