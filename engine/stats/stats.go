// Package stats keeps running figures of a simulation in constant memory:
// mean and variance (Welford), percentiles from a compact log-bucketed
// histogram with their confidence intervals (Percentiles), batch means for
// a confidence interval of the mean from one long run (BatchMeans.CI),
// Student-t intervals across replications (ReplicationCI), and a test of
// whether the number in the system keeps growing (Growth). Every Add or
// Observe is O(1) and allocation-free once warm, and the theory functions
// (Erlang C, Pollaczek-Khinchine, ...) give the closed forms that tests
// check the engine against.
package stats

import "math"

// Tally accumulates count, mean, variance, min and max of observations
// without keeping them (Welford's method).
type Tally struct {
	n        int64
	mean, m2 float64
	min, max float64
}

// Add records one observation.
func (t *Tally) Add(x float64) {
	t.n++
	if t.n == 1 || x < t.min {
		t.min = x
	}
	if t.n == 1 || x > t.max {
		t.max = x
	}
	d := x - t.mean
	t.mean += d / float64(t.n)
	t.m2 += d * (x - t.mean)
}

// N is the number of observations.
func (t *Tally) N() int64 { return t.n }

// Mean is the sample mean (0 without observations).
func (t *Tally) Mean() float64 { return t.mean }

// Var is the sample variance (n-1 denominator; 0 below two observations).
func (t *Tally) Var() float64 {
	if t.n < 2 {
		return 0
	}
	return t.m2 / float64(t.n-1)
}

// SD is the sample standard deviation.
func (t *Tally) SD() float64 { return math.Sqrt(t.Var()) }

// Min and Max are the extreme observations (0 without observations).
func (t *Tally) Min() float64 { return t.min }

// Max is the largest observation.
func (t *Tally) Max() float64 { return t.max }

// TimeAverage integrates a piecewise-constant quantity (a queue length, a
// number of busy units) over simulated time.
type TimeAverage struct {
	value, area float64
	start, last float64
	peak        float64
}

// Reset starts the average afresh at time now, keeping the current value.
func (a *TimeAverage) Reset(now float64) {
	a.area, a.start, a.last = 0, now, now
	a.peak = a.value
}

// Set records that the quantity changes to v at time now.
func (a *TimeAverage) Set(now, v float64) {
	a.area += a.value * (now - a.last)
	a.last = now
	a.value = v
	if v > a.peak {
		a.peak = v
	}
}

// Mean is the time average from the last Reset up to now.
func (a *TimeAverage) Mean(now float64) float64 {
	span := now - a.start
	if span <= 0 {
		return a.value
	}
	return (a.area + a.value*(now-a.last)) / span
}

// Area is the integral of the quantity from the last Reset up to now
// (now at or after the last change).
func (a *TimeAverage) Area(now float64) float64 {
	return a.area + a.value*(now-a.last)
}

// Peak is the largest value since the last Reset.
func (a *TimeAverage) Peak() float64 { return a.peak }

// Value is the current value.
func (a *TimeAverage) Value() float64 { return a.value }
