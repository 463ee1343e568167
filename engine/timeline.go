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
	// InSystem is the time average of the number of requests in the
	// system over the interval, and AppUtilization that of the busy
	// fraction of all AppRes units: exact integrals of the two over the
	// interval, divided by its length.
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

// TimelineIntervals is the most intervals a run's timeline holds.
const TimelineIntervals = 50

// timeline folds a run into at most TimelineIntervals intervals of equal
// width without knowing the run's length: it starts narrow, and when the
// run passes the last interval, neighbours merge in pairs (25 intervals of
// twice the width) and it goes on, as stats.BatchMeans does with batches.
// An interval keeps sums (completions, response times, and the integrals
// of the number in the system and of the busy units), so a merged interval
// is exactly what one interval of its width would have been. Its size is
// fixed; the event loop pays one comparison per event.
type timeline struct {
	// next is the end of the interval under way, width the intervals'
	// width, and k the index of the interval under way.
	next, width float64
	k           int
	// done and respSum are the completions so far, and the last fields
	// their values and the integrals at the end of the previous interval.
	done, lastDone         int64
	respSum, lastResp      float64
	lastInSystem, lastBusy float64
	b                      [TimelineIntervals]timelineBucket
}

type timelineBucket struct {
	completed int64
	respSum   float64
	// inSystem is the integral of the number in the system over the
	// interval, busy that of the busy AppRes units.
	inSystem, busy float64
}

// init starts the timeline with intervals of width, the time that a few
// arrivals take.
func (tl *timeline) init(width float64) {
	if !(width > 0) || math.IsInf(width, 0) {
		width = 1
	}
	tl.width = width
	tl.next = width
}

// completed records a request that completed with the response time.
func (tl *timeline) completed(response float64) {
	tl.done++
	tl.respSum += response
}

// catchUp closes every interval that ends by now (the state is that of
// the last event: it holds until now).
func (tl *timeline) catchUp(s *sim) {
	for s.now >= tl.next {
		tl.close(s)
	}
}

// close folds the interval under way, up to its end, into its bucket, then
// moves on to the next, merging intervals in pairs once the last one is
// full.
func (tl *timeline) close(s *sim) {
	tl.add(&tl.b[tl.k], s, tl.next)
	tl.k++
	if tl.k == TimelineIntervals {
		for i := range TimelineIntervals / 2 {
			a, c := tl.b[2*i], tl.b[2*i+1]
			tl.b[i] = timelineBucket{a.completed + c.completed, a.respSum + c.respSum, a.inSystem + c.inSystem, a.busy + c.busy}
		}
		clear(tl.b[TimelineIntervals/2:])
		tl.k /= 2
		tl.width *= 2
	}
	tl.next = float64(tl.k+1) * tl.width
}

// add folds into b the completions since the last fold and the integrals
// of the state from then up to t (at or after the last change of state).
func (tl *timeline) add(b *timelineBucket, s *sim, t float64) {
	b.completed += tl.done - tl.lastDone
	b.respSum += tl.respSum - tl.lastResp
	tl.lastDone, tl.lastResp = tl.done, tl.respSum
	in, busy := s.inSystem.Area(t), s.busyArea(t)
	b.inSystem += in - tl.lastInSystem
	b.busy += busy - tl.lastBusy
	tl.lastInSystem, tl.lastBusy = in, busy
}

// intervals lists the timeline's intervals up to now, the last one as far
// as the run has gone. It works on a copy, so that a run that goes on
// (Runner.Extend) keeps its timeline as if it had never stopped.
func (live *timeline) intervals(s *sim) []TimelineInterval {
	c := *live
	tl := &c
	tl.catchUp(s)
	last := tl.k
	if s.now > float64(last)*tl.width || last == 0 {
		tl.add(&tl.b[last], s, s.now) // the part of the last interval run so far
	} else {
		last--
	}
	units := 0
	for i := range s.apps {
		units += int(s.apps[i].capacity)
	}
	out := make([]TimelineInterval, 0, last+1)
	for i := 0; i <= last; i++ {
		b := &tl.b[i]
		iv := TimelineInterval{Start: float64(i) * tl.width, End: min(float64(i+1)*tl.width, s.now), Completed: b.completed, ResponseSum: b.respSum}
		if span := iv.End - iv.Start; span > 0 {
			iv.InSystem = b.inSystem / span
			if units > 0 {
				iv.AppUtilization = b.busy / span / float64(units)
			}
		}
		out = append(out, iv)
	}
	return out
}

// timelineWidth is the first width of a run's timeline intervals: the
// time in which about four requests arrive at load li (1 when none do).
func timelineWidth(m *Model, li int) float64 {
	rate := m.ArrivalRate(li)
	if !(rate > 0) {
		return 1
	}
	return 4 / rate
}
