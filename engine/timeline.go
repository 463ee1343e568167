package engine

import "math"

// TimelineInterval is one interval of simulated time of a run, warm-up
// included: what finished in it and the state it was in.
type TimelineInterval struct {
	// Start and End bound the interval; the last one ends with the run.
	Start, End float64
	// Completed counts the requests that completed (reached END) in it, and
	// ResponseSum adds up their response times (see MeanResponse).
	Completed   int64
	ResponseSum float64
	// InSystem is the mean number of requests in the system, and
	// AppUtilization the mean busy fraction of all AppRes units, over
	// TimelineSamples evenly spaced instants of the interval (more after
	// intervals were merged).
	InSystem, AppUtilization float64
}

// MeanResponse is the mean response time of the requests completed in the
// interval, NaN when none did.
func (iv TimelineInterval) MeanResponse() float64 {
	if iv.Completed == 0 {
		return math.NaN()
	}
	return iv.ResponseSum / float64(iv.Completed)
}

// TimelineIntervals is the most intervals a run's timeline holds, and
// TimelineSamples the instants sampled per interval.
const (
	TimelineIntervals = 50
	TimelineSamples   = 8
)

// timeline folds a run into at most TimelineIntervals intervals of equal
// width without knowing the run's length: it starts narrow, and when the
// run passes the last interval, neighbours merge in pairs (25 intervals of
// twice the width) and it goes on, as stats.BatchMeans does with batches.
// Its size is fixed; the event loop pays one comparison per event.
type timeline struct {
	// next is the next sampling instant, step the time between samples
	// (width / TimelineSamples) and sample the number of the next sample,
	// from 1.
	next, step float64
	sample     int
	// done and respSum are the completions so far, and lastDone and
	// lastResp their values at the previous sample.
	done, lastDone    int64
	respSum, lastResp float64
	b                 [TimelineIntervals]timelineBucket
}

type timelineBucket struct {
	completed int64
	respSum   float64
	samples   int64
	inSystem  float64
	busy      float64
}

// init starts the timeline with intervals of width, the time that a few
// arrivals take.
func (tl *timeline) init(width float64) {
	if !(width > 0) || math.IsInf(width, 0) {
		width = 1
	}
	tl.step = width / TimelineSamples
	tl.sample = 1
	tl.next = tl.step
}

// completed records a request that completed with the response time.
func (tl *timeline) completed(response float64) {
	tl.done++
	tl.respSum += response
}

// catchUp takes every sample due up to now (the state is that of the last
// event: it holds until now).
func (tl *timeline) catchUp(s *sim) {
	for s.now >= tl.next {
		tl.take(s)
	}
}

// take adds a sample of s's state to its interval, then moves on to the
// next sample, merging intervals in pairs once the last one is full.
func (tl *timeline) take(s *sim) {
	k := (tl.sample - 1) / TimelineSamples
	tl.add(&tl.b[k], s)
	if tl.sample == TimelineSamples*TimelineIntervals {
		for i := range TimelineIntervals / 2 {
			a, c := tl.b[2*i], tl.b[2*i+1]
			tl.b[i] = timelineBucket{a.completed + c.completed, a.respSum + c.respSum, a.samples + c.samples, a.inSystem + c.inSystem, a.busy + c.busy}
		}
		clear(tl.b[TimelineIntervals/2:])
		tl.sample /= 2
		tl.step *= 2
	}
	tl.sample++
	tl.next = float64(tl.sample) * tl.step
}

// add folds the completions since the last sample and the state now into b.
func (tl *timeline) add(b *timelineBucket, s *sim) {
	b.completed += tl.done - tl.lastDone
	b.respSum += tl.respSum - tl.lastResp
	tl.lastDone, tl.lastResp = tl.done, tl.respSum
	b.samples++
	b.inSystem += float64(s.open)
	units := 0
	for i := range s.apps {
		units += int(s.apps[i].capacity)
	}
	if units > 0 {
		b.busy += s.Busy(len(s.servers)) / float64(units)
	}
}

// intervals lists the timeline's intervals up to now, the last one as far
// as the run has gone. It works on a copy, so that a run that goes on
// (Runner.Extend) keeps its timeline as if it had never stopped.
func (live *timeline) intervals(s *sim) []TimelineInterval {
	c := *live
	tl := &c
	tl.catchUp(s)
	last := (tl.sample - 1) / TimelineSamples
	width := tl.step * TimelineSamples
	if s.now > float64(last)*width || last == 0 {
		tl.add(&tl.b[last], s) // the part of the last interval run so far
	} else {
		last--
	}
	out := make([]TimelineInterval, 0, last+1)
	for i := 0; i <= last; i++ {
		b := &tl.b[i]
		iv := TimelineInterval{Start: float64(i) * width, End: min(float64(i+1)*width, s.now), Completed: b.completed, ResponseSum: b.respSum}
		if b.samples > 0 {
			iv.InSystem = b.inSystem / float64(b.samples)
			iv.AppUtilization = b.busy / float64(b.samples)
		}
		out = append(out, iv)
	}
	return out
}

// timelineWidth is the first width of a run's timeline intervals: the
// time in which about four requests arrive at load li (1 when none do).
func timelineWidth(m *Model, li int) float64 {
	rate := 0.0
	for _, e := range m.Entities {
		if d := e.InterArrival[li]; d != nil && d.Mean() > 0 {
			rate += 1 / d.Mean()
		}
	}
	if !(rate > 0) {
		return 1
	}
	return 4 / rate
}
