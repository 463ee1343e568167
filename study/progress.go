package study

import (
	"sync"
	"time"
)

// tracker turns per-run progress into study progress with a time estimate.
type tracker struct {
	mu       sync.Mutex
	report   func(Progress)
	fraction []float64
	runs     int
	start    time.Time
	last     time.Time
}

func newTracker(p *Plan, tasks []task, report func(Progress)) *tracker {
	return &tracker{report: report, fraction: make([]float64, len(tasks)), start: time.Now()}
}

// update records that task i is fraction f done; reports are throttled.
func (t *tracker) update(i int, f float64) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fraction[i] = f
	if time.Since(t.last) < 100*time.Millisecond {
		return
	}
	t.emit()
}

// done records that task i has finished.
func (t *tracker) done(i int) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fraction[i] = 1
	t.runs++
	t.emit()
}

func (t *tracker) emit() {
	t.last = time.Now()
	sum := 0.0
	for _, f := range t.fraction {
		sum += f
	}
	frac := sum / float64(len(t.fraction))
	elapsed := time.Since(t.start)
	var left time.Duration
	if frac > 0 {
		left = time.Duration(float64(elapsed) * (1 - frac) / frac)
	}
	t.report(Progress{RunsDone: t.runs, Runs: len(t.fraction), Fraction: frac, Elapsed: elapsed, Left: left})
}
