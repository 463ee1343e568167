package lb

import "math"

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
	return mean, tQuantile975(len(xs)-1) * sd / math.Sqrt(n)
}

// t975 are the 0.975 quantiles of Student's t for 1 to 30 degrees of freedom.
var t975 = [...]float64{12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
	2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
	2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423}

// tQuantile975 is the 0.975 quantile of Student's t with df degrees of
// freedom: the table to 30, the Cornish-Fisher expansion beyond (error
// below 1e-5).
func tQuantile975(df int) float64 {
	if df <= len(t975) {
		return t975[df-1]
	}
	z, v := 1.959963984540054, float64(df)
	z3, z5, z7, z9 := z*z*z, math.Pow(z, 5), math.Pow(z, 7), math.Pow(z, 9)
	return z + (z3+z)/(4*v) + (5*z5+16*z3+3*z)/(96*v*v) +
		(3*z7+19*z5+17*z3-15*z)/(384*v*v*v) +
		(79*z9+776*z7+1482*z5-1920*z3-945*z)/(92160*v*v*v*v)
}
