package lb

import (
	"math"

	"github.com/websim/websim/engine/stats"
)

// Figures are the results of a group of requests (all, a type, a server, or
// a type on a server), as the original tool's users compare them. Counts
// are means when there are several replications.
type Figures struct {
	Requests      float64 // requests sent to the group
	Share         float64 // Requests over all requests, 0..1
	Failed        float64 // requests that found no unit of their type on their server
	Waited        float64 // requests that found every unit of their type busy
	WaitedPercent float64 // 100 * Waited / Requests (failed ones included)
	TotalWait     float64 // seconds waited, summed
	// WaitShareOfService is TotalWait over the total service time of the
	// group's served requests: a ratio (0.05 is 5%).
	WaitShareOfService float64
	MeanWait           float64 // TotalWait over the served requests, seconds
	P95Wait            float64 // 95th percentile of the served requests' waits (types and all only)
	ArrivalRate        float64 // Requests over the time of the last arrival, per second
}

// fields lists the figures, so that replications are summarised field by
// field.
func (f *Figures) fields() []*float64 {
	return []*float64{&f.Requests, &f.Share, &f.Failed, &f.Waited, &f.WaitedPercent, &f.TotalWait,
		&f.WaitShareOfService, &f.MeanWait, &f.P95Wait, &f.ArrivalRate}
}

// figures derives the figures of c; all is the number of requests of the
// whole run, duration the time of its last arrival.
func (c counts) figures(all int, duration float64) Figures {
	f := Figures{
		Requests:  float64(c.requests),
		Failed:    float64(c.failed),
		Waited:    float64(c.waited),
		TotalWait: c.totalWait,
	}
	f.Share = ratio(f.Requests, float64(all))
	f.WaitedPercent = 100 * ratio(f.Waited, f.Requests)
	f.WaitShareOfService = ratio(c.totalWait, c.totalService)
	f.MeanWait = ratio(c.totalWait, float64(c.requests-c.failed))
	f.ArrivalRate = ratio(f.Requests, duration)
	return f
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// Estimate is a figure set over the replications: the mean of each figure,
// and the half-width of its 95% confidence interval (Student t over the
// replications; zero with a single replication).
type Estimate struct {
	Mean, HalfWidth Figures
}

// estimate summarises one group's figures over the replications.
func estimate(reps []Figures) Estimate {
	var e Estimate
	means, hws := e.Mean.fields(), e.HalfWidth.fields()
	values := make([]float64, len(reps))
	for j := range means {
		for r := range reps {
			values[r] = *reps[r].fields()[j]
		}
		*means[j], *hws[j] = meanHalfWidth(values)
	}
	return e
}

// meanHalfWidth returns the mean of xs and the half-width of its 95%
// confidence interval by Student's t (0 for fewer than two values).
func meanHalfWidth(xs []float64) (mean, halfWidth float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	return mean, stats.StudentT(0.95, len(xs)-1) * sd / math.Sqrt(n)
}
