package engine

import (
	"math"
	"testing"

	"github.com/websim/websim/engine/stats"
)

// timeAverage is the width-weighted mean of f over the intervals.
func timeAverage(ivs []TimelineInterval, f func(TimelineInterval) float64) float64 {
	sum, width := 0.0, 0.0
	for _, iv := range ivs {
		sum += f(iv) * (iv.End - iv.Start)
		width += iv.End - iv.Start
	}
	return sum / width
}

func TestTimelineCoversTheRunInBoundedIntervals(t *testing.T) {
	// M/M/1 at ρ = 0.8 (one AppRes unit): the timeline's intervals tile
	// the run from 0 to its end, count every completion once (warm-up
	// included), and their time averages agree with theory: busy fraction
	// ρ, ρ/(1-ρ) = 4 in the system, response 1/(μ-λ) = 5. The interval
	// is over 10 replications.
	const lambda, mu = 0.8, 1.0
	m := oneService(expD(1/lambda), Step{Name: "Work", Kind: Local, ProcTime: expD(1 / mu)})
	m.App.Capacity = 1
	var util, inSys, resp stats.Tally
	for rep := range 10 {
		r := run(t, m, RunConfig{Seed: 41, Replication: rep, WarmUp: 200, Observations: 20_000})
		ivs := r.Timeline
		if len(ivs) < TimelineIntervals/2 || len(ivs) > TimelineIntervals {
			t.Fatalf("%d intervals, want %d to %d", len(ivs), TimelineIntervals/2, TimelineIntervals)
		}
		done, sum := int64(0), 0.0
		for i, iv := range ivs {
			if (i == 0 && iv.Start != 0) || (i > 0 && iv.Start != ivs[i-1].End) || !(iv.End > iv.Start) {
				t.Fatalf("interval %d is [%v, %v) after one ending at %v", i, iv.Start, iv.End, ivs[max(i-1, 0)].End)
			}
			done += iv.Completed
			sum += iv.ResponseSum
		}
		if last := ivs[len(ivs)-1].End; last != r.SimTime {
			t.Errorf("the timeline ends at %v, the run at %v", last, r.SimTime)
		}
		if done != r.Check.FinishedAll {
			t.Errorf("the timeline counts %d completions, the run %d", done, r.Check.FinishedAll)
		}
		util.Add(timeAverage(ivs, func(iv TimelineInterval) float64 { return iv.AppUtilization }))
		inSys.Add(timeAverage(ivs, func(iv TimelineInterval) float64 { return iv.InSystem }))
		resp.Add(sum / float64(done))
	}
	hw := func(x *stats.Tally) float64 { return stats.StudentT(0.95, 9) * x.SD() / math.Sqrt(10) }
	near(t, "time-average utilization", util.Mean(), hw(&util), lambda/mu, tol)
	near(t, "time-average in system", inSys.Mean(), hw(&inSys), lambda/(mu-lambda), tol)
	near(t, "mean response", resp.Mean(), hw(&resp), 1/(mu-lambda), tol)
}

func TestTimelineShowsAGrowingQueue(t *testing.T) {
	// M/M/1 at ρ = 1.5: the number in the system grows by about
	// λ - μ = 0.5 per time unit, so the last intervals hold far more than
	// the first ones, and the application server is busy throughout.
	m := oneService(expD(1/1.5), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	m.App.Capacity = 1
	r := run(t, m, RunConfig{Seed: 42, Observations: 50_000, MaxInSystem: 2_000})
	ivs := r.Timeline
	if r.Stable || len(ivs) < 4 {
		t.Fatalf("stable %v, %d intervals: want an unstable run with a timeline", r.Stable, len(ivs))
	}
	first, last := ivs[0], ivs[len(ivs)-1]
	if last.InSystem < 10*max(first.InSystem, 1) {
		t.Errorf("in system %.1f at the start, %.1f at the end: want a growing queue", first.InSystem, last.InSystem)
	}
	mid := ivs[len(ivs)/2]
	slope := (last.InSystem - mid.InSystem) / ((last.Start+last.End)/2 - (mid.Start+mid.End)/2)
	if math.Abs(slope-0.5) > 0.15 {
		t.Errorf("the queue grows by %.3f per time unit, theory 0.5", slope)
	}
	if u := timeAverage(ivs[len(ivs)/2:], func(iv TimelineInterval) float64 { return iv.AppUtilization }); u < 0.99 {
		t.Errorf("utilization %.3f in the second half, want 1", u)
	}
}

func TestTimelineOfAShortRun(t *testing.T) {
	// A run of a few requests still has its intervals, ending with it.
	m := oneService(expD(1), Step{Name: "Work", Kind: Local, ProcTime: expD(0.5)})
	r := run(t, m, RunConfig{Seed: 43, Observations: 3})
	ivs := r.Timeline
	if len(ivs) == 0 || ivs[len(ivs)-1].End != r.SimTime {
		t.Fatalf("timeline %+v for a run ending at %v", ivs, r.SimTime)
	}
	var done int64
	for _, iv := range ivs {
		done += iv.Completed
	}
	if done != 3 {
		t.Errorf("%d completions in the timeline, want 3", done)
	}
}

func TestTimelineIntervalsAreExactTimeAverages(t *testing.T) {
	// A request every 1 time unit, each served for 0.3 on one unit: one
	// request is in the system, and the unit busy, 30% of every unit of
	// time, so every whole interval after the first (a multiple of 1 wide) reads 0.3 for
	// both, before and after intervals were merged. Figures sampled at
	// instants instead of integrated would read 0 (the samples fall where
	// nobody is in the system) or vary between merged and new intervals.
	m := oneService(constD(1), Step{Name: "Work", Kind: Local, ProcTime: constD(0.3)})
	m.App.Capacity = 1
	r := run(t, m, RunConfig{Seed: 1, WarmUp: 37, Observations: 5_000})
	ivs := r.Timeline
	if len(ivs) < TimelineIntervals/2 {
		t.Fatalf("%d intervals, want merged ones", len(ivs))
	}
	for i, iv := range ivs[:len(ivs)-1] {
		if i == 0 {
			continue // the first request arrives at 1
		}
		if w := iv.End - iv.Start; math.Abs(w-math.Round(w)) > 1e-9 {
			t.Fatalf("interval %d is %v wide, want a whole number", i, w)
		}
		if math.Abs(iv.InSystem-0.3) > 1e-9 || math.Abs(iv.AppUtilization-0.3) > 1e-9 {
			t.Errorf("interval %d [%v, %v): in system %v, utilization %v; want 0.3 and 0.3", i, iv.Start, iv.End, iv.InSystem, iv.AppUtilization)
		}
	}
}

// TestTimelineIntegratesUpToEachIntervalsEnd: an interval's figures are
// the integral up to its own end, not up to the event after it. Requests
// of one type arrive at 1, 2, 3, ... and of another at 5, 10, ..., each
// served 0.9 on two units, so the intervals (10/3 wide, then twice, four
// times ... that) end a third or two thirds into a service; every whole interval's time averages match
// the sum of the services' overlaps with it.
func TestTimelineIntegratesUpToEachIntervalsEnd(t *testing.T) {
	m := oneService(constD(1), Step{Name: "Work", Kind: Local, ProcTime: constD(0.9)})
	m.App.Capacity = 2
	m.Entities = append(m.Entities, Entity{Name: "Fifth", InterArrival: []Dist{constD(5)}, Stages: m.Entities[0].Stages})
	r := run(t, m, RunConfig{Seed: 1, Observations: 3_000})
	overlap := func(a, b, s, e float64) float64 { return max(0, min(b, e)-max(a, s)) }
	ivs := r.Timeline
	if w := ivs[0].End * 3; len(ivs) < TimelineIntervals/2 || math.Abs(w-math.Round(w)) > 1e-9 || math.Mod(math.Round(w), 3) == 0 {
		t.Fatalf("%d intervals, the first ending at %v: want merged ones, a multiple of 10/3 wide", len(ivs), ivs[0].End)
	}
	for i, iv := range ivs[:len(ivs)-1] {
		area := 0.0
		for k := math.Ceil(iv.Start - 1); k <= iv.End; k++ {
			if k >= 1 {
				area += overlap(k, k+0.9, iv.Start, iv.End)
				if math.Mod(k, 5) == 0 {
					area += overlap(k, k+0.9, iv.Start, iv.End)
				}
			}
		}
		want := area / (iv.End - iv.Start)
		if math.Abs(iv.InSystem-want) > 1e-9 || math.Abs(iv.AppUtilization-want/2) > 1e-9 {
			t.Errorf("interval %d [%v, %v): in system %v, utilization %v; want %v and %v", i, iv.Start, iv.End, iv.InSystem, iv.AppUtilization, want, want/2)
		}
	}
}
