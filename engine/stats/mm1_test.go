package stats

import "math/rand/v2"

// Test data: M/M/1 queues simulated directly, without the engine.

// mm1Sojourns calls f with the sojourn times (wait plus service) of n
// customers of an FCFS M/M/1 queue with arrival rate lambda and service
// rate mu, starting empty, by Lindley's recursion.
func mm1Sojourns(seed uint64, lambda, mu float64, n int, f func(float64)) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	wait := 0.0 // wait of the current customer
	for range n {
		s := r.ExpFloat64() / mu
		f(wait + s)
		a := r.ExpFloat64() / lambda // gap to the next arrival
		wait = max(0, wait+s-a)
	}
}

// mm1Path calls f(t, n) at each arrival and departure of an M/M/1 queue
// that starts with n0 customers at time 0, with the number in system just
// after the event, until departures customers have left.
func mm1Path(seed uint64, lambda, mu float64, n0 int64, departures int, f func(t float64, n int64)) {
	r := rand.New(rand.NewPCG(seed, 0xb1d))
	t, n := 0.0, n0
	f(t, n)
	for left := 0; left < departures; {
		rate := lambda
		if n > 0 {
			rate += mu
		}
		t += r.ExpFloat64() / rate
		if n == 0 || r.Float64()*rate < lambda {
			n++
		} else {
			n--
			left++
		}
		f(t, n)
	}
}
