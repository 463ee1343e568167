package study

import (
	"math"
	"testing"
)

// fakeProbe returns a probe with the given verdict and no run.
func fakeProbe(v int, verdict Verdict) Probe {
	return Probe{Value: v, Verdict: verdict, Targets: []TargetResult{{Target: Target{Measure: MeasureP95, Limit: 1}, Verdict: verdict}}}
}

// threshold is a monotone evaluator: the targets hold from answer up.
func threshold(answer int) func(int) (Probe, int, error) {
	return func(v int) (Probe, int, error) {
		if v >= answer {
			return fakeProbe(v, Holds), 1, nil
		}
		return fakeProbe(v, Fails), 1, nil
	}
}

// TestSearchProbesAtMostLog2RangePlus3 sweeps every answer of ranges up to
// 1,000 values, with a bound that is exact, too low, or missing, and
// counts the probes: never more than log2(range)+3, and always the answer.
func TestSearchProbesAtMostLog2RangePlus3(t *testing.T) {
	worst := 0.0
	for _, r := range [][2]int{{1, 2}, {1, 8}, {3, 40}, {1, 1000}} {
		for answer := r[0]; answer <= r[1]+1; answer++ {
			bounds := map[string]func(Probe) int{
				"exact":    func(Probe) int { return answer },
				"low":      func(Probe) int { return answer / 2 },
				"none":     func(Probe) int { return 1 },
				"too high": func(Probe) int { return answer + 1 },
			}
			for name, bound := range bounds {
				pt := SizePoint{Min: r[0], Max: r[1]}
				if err := search(&pt, bound, threshold(answer)); err != nil {
					t.Fatal(err)
				}
				limit := math.Log2(float64(r[1]-r[0]+1)) + 3
				if name != "too high" {
					worst = max(worst, float64(pt.Probes)-math.Log2(float64(r[1]-r[0]+1)))
				}
				switch {
				case answer > r[1]:
					if pt.Outcome != SizeNone {
						t.Errorf("range %v answer %d bound %s: %s %q", r, answer, name, pt.Outcome, pt.Text)
					}
				case pt.Outcome != SizeFound || pt.Size != answer:
					t.Errorf("range %v answer %d bound %s: %s %d %q", r, answer, name, pt.Outcome, pt.Size, pt.Text)
				}
				// A bound above the answer costs the check below it and a
				// bisection of what is left: the log2+3 claim is for a true
				// lower bound.
				if name != "too high" && float64(pt.Probes) > limit {
					t.Errorf("range %v answer %d bound %s: %d probes, more than %.1f", r, answer, name, pt.Probes, limit)
				}
			}
		}
	}
	t.Logf("worst: probes = log2(range) + %.2f", worst)
}

// TestSearchReportsNotMonotone: an evaluator where more capacity hurts
// (the targets hold up to 5 and fail from 6 on, as when more units let
// more calls pile onto a back-end that times them out).
func TestSearchReportsNotMonotone(t *testing.T) {
	hurts := func(v int) (Probe, int, error) {
		if v <= 5 {
			return fakeProbe(v, Holds), 1, nil
		}
		return fakeProbe(v, Fails), 1, nil
	}
	pt := SizePoint{Min: 1, Max: 20}
	if err := search(&pt, func(Probe) int { return 1 }, hurts); err != nil {
		t.Fatal(err)
	}
	if pt.Outcome != SizeNotMonotone || pt.Size != 1 || pt.Text != "not monotone: the targets hold at 1 but fail at 20; more capacity should never hurt, so look at what grows with it (time-outs, orphaned work, locking)" {
		t.Errorf("%s %d %q", pt.Outcome, pt.Size, pt.Text)
	}
	// Only probed values can show it: the search probes the top of the
	// range first and, when that fails, the bottom, so "more hurts" over
	// the range is always caught; a dip between two probes is not.
}

func TestSearchUndecidedAtTheTop(t *testing.T) {
	pt := SizePoint{Min: 1, Max: 4}
	undecided := func(v int) (Probe, int, error) { return fakeProbe(v, Undecided), 1, nil }
	if err := search(&pt, func(Probe) int { return 1 }, undecided); err != nil {
		t.Fatal(err)
	}
	if pt.Outcome != SizeUndecided || pt.Probes != 1 {
		t.Errorf("%s %d %q", pt.Outcome, pt.Probes, pt.Text)
	}
}
