package stats_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/websim/websim/engine/stats"
)

// mm1 simulates an M/M/1 queue event by event (service rate 1) and calls
// f with the time and the number in system after each arrival and
// departure, until departures customers have left.
func mm1(seed uint64, lambda float64, departures int, f func(now float64, n int64)) {
	r := rand.New(rand.NewPCG(seed, 1))
	now, n := 0.0, int64(0)
	f(now, n)
	for left := 0; left < departures; {
		rate := lambda
		if n > 0 {
			rate++
		}
		now += r.ExpFloat64() / rate
		if n == 0 || r.Float64()*rate < lambda {
			n++
		} else {
			n--
			left++
		}
		f(now, n)
	}
}

// The engine calls Observe at each arrival and each departure with the
// number of requests in the system, and asks for the Verdict at the end.
func ExampleGrowth() {
	for _, rho := range []float64{0.95, 1.05} {
		var g stats.Growth
		mm1(7, rho, 100_000, g.Observe)
		v := g.Verdict()
		fmt.Printf("utilization %.2f: growing %v\n", rho, v.Growing)
		fmt.Println(" ", v.Reason)
	}
	// Output:
	// utilization 0.95: growing false
	//   number in system fell from 49 to 25 (trend test over 48 batch means: t = -2.22, p = 0.984; not significant)
	// utilization 1.05: growing true
	//   number in system rose from 121 to 5,391 (trend test over 50 batch means: t = 13.8, p < 1e-6; keeps growing)
}

// Percentiles keeps the quantiles of a series and their intervals; Merge
// pools replications.
func ExamplePercentiles() {
	var p stats.Percentiles
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		p.Add(r.ExpFloat64()) // Exp(1): p95 = ln 20 = 3.00
	}
	iv := p.Interval(0.95, 0.95)
	fmt.Printf("p95 %.2f, 95%% interval [%.2f, %.2f]\n", iv.Value, iv.Low, iv.High)
	// Output:
	// p95 2.99, 95% interval [2.95, 3.03]
}
