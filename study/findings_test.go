package study_test

import (
	"context"
	"flag"
	"strings"
	"sync"
	"testing"

	"github.com/websim/websim/study"
)

// The paper's findings (section 5) on the bundled sample, at the sample's
// own settings (as shipped: one replication of 100,000 requests per run,
// its seed and warm-up), with paired confidence intervals deciding. These
// are the statements of the README's section "The paper's findings on the
// sample"; the figures there are what
//
//	go test ./study -run TestPaper -findings -v
//
// prints. The whole study takes about a minute of CPU, so it runs only
// with -findings (CI's run does; `go test ./...` stays fast). What the
// sample shows, and what it does not, is discussed in
// samples/asum/README.md.
var findingsFlag = flag.Bool("findings", false, "check the README's findings on samples/asum at its shipped settings (about a minute)")

var (
	findingsOnce  sync.Once
	findingsStudy *study.Study
	findingsErr   error
)

func findings(t *testing.T) *study.Study {
	t.Helper()
	if !*findingsFlag {
		t.Skip("runs the whole sample study as shipped: go test ./study -run TestPaper -findings")
	}
	findingsOnce.Do(func() {
		findingsStudy, findingsErr = study.Execute(context.Background(), asum(t), study.Options{})
	})
	if findingsErr != nil {
		t.Fatal(findingsErr)
	}
	return findingsStudy
}

// get returns the run of scenario sc at load.
func get(t *testing.T, st *study.Study, sc, load string) *study.Run {
	t.Helper()
	for i := range st.Runs {
		if st.Runs[i].Scenario == sc && st.Runs[i].Load == load {
			return &st.Runs[i]
		}
	}
	t.Fatalf("no run %s at %s", sc, load)
	return nil
}

// firstUnstable returns the label of the first load at which scenario sc
// is unstable, or "none".
func firstUnstable(t *testing.T, st *study.Study, sc string) string {
	for _, l := range st.Loads {
		if !get(t, st, sc, l).Result.Stable {
			return l
		}
	}
	return "none"
}

// diff returns a - b in mean response at load, with the half-width of the
// paired difference (common random numbers).
func diff(t *testing.T, st *study.Study, a, b, load string) (mean, hw float64) {
	t.Helper()
	d := study.Compare(get(t, st, a, load), get(t, st, b, load))
	if d == nil {
		t.Fatalf("cannot compare %s and %s at %s", a, b, load)
	}
	t.Logf("%s: %s - %s = %.1f ± %.1f ms", load, a, b, d.Mean, d.HalfWidth95)
	return d.Mean, d.HalfWidth95
}

// bothStable tells whether scenarios a and b are stable at load.
func bothStable(t *testing.T, st *study.Study, a, b, load string) bool {
	return get(t, st, a, load).Result.Stable && get(t, st, b, load).Result.Stable
}

// Where each scenario turns unstable, and why: a deadlock of resource
// locking every time; the growth test flags no run that the deadlock
// check has not stopped first.
func TestPaperStability(t *testing.T) {
	st := findings(t)
	want := map[string]string{
		"P10": "L8", "S10": "L9", "M10": "L9",
		"P8": "L6", "S8": "L8", "M8": "L8",
		"M10-Cyclic": "L9", "M10-Random": "L5",
		"M10-TActive5": "none", "M10-TActive20": "none",
	}
	for _, sc := range st.Scenarios {
		got := firstUnstable(t, st, sc)
		t.Logf("%s: unstable from %s", sc, got)
		if w, ok := want[sc]; !ok || got != w {
			t.Errorf("%s: unstable from %s, the README says %s", sc, got, w)
		}
	}
	for _, r := range st.Runs {
		if !r.Result.Stable && !strings.Contains(r.Result.Unstable, "deadlocked") {
			t.Errorf("%s at %s: %s; the README says every unstable run is a deadlock", r.Scenario, r.Load, r.Result.Unstable)
		}
	}
}

// Figure 7: parallel is far faster at light load, and turns unstable at a
// lower load than sequential, with 10 and with 8 servers; where parallel
// has turned unstable, sequential is still stable.
func TestPaperFigure7ParallelAgainstSequential(t *testing.T) {
	st := findings(t)
	for _, n := range []string{"10", "8"} {
		p, s := "P"+n, "S"+n
		if d, hw := diff(t, st, s, p, "L1"); d-hw <= 150 {
			t.Errorf("%s servers: at L1 parallel is not faster by more than 150 ms (S-P = %.1f ± %.1f)", n, d, hw)
		}
		for _, l := range st.Loads {
			if !bothStable(t, st, s, p, l) {
				continue
			}
			if d, hw := diff(t, st, s, p, l); d-hw <= 0 {
				t.Errorf("%s servers at %s: sequential not slower while both are stable (%.1f ± %.1f)", n, l, d, hw)
			}
		}
		if l := firstUnstable(t, st, p); l == "none" || !get(t, st, s, l).Result.Stable {
			t.Errorf("%s servers: parallel unstable from %s, and sequential not stable there", n, l)
		}
	}
}

// Figure 7, Mixed: as fast as parallel, within the interval, at L1-L2 with
// 10 servers and at L1 with 8; slower than parallel from L4 with 10
// servers and from L2 with 8 (each request the 70% switch sends sequential
// pays the sequential price); far faster than sequential everywhere; and
// stable at every load where either pure policy is.
func TestPaperFigure7Mixed(t *testing.T) {
	st := findings(t)
	for _, c := range []struct {
		n             string
		same, slower  []string
		minGap, maxAt float64 // slower by at least, at most (ms)
	}{
		{"10", []string{"L1", "L2"}, []string{"L4", "L5", "L6", "L7"}, 1, 25},
		{"8", []string{"L1"}, []string{"L2", "L3", "L4", "L5"}, 0.5, 25},
	} {
		m, p, s := "M"+c.n, "P"+c.n, "S"+c.n
		for _, l := range c.same {
			if d, hw := diff(t, st, m, p, l); d-hw > 0 || d+hw < 0 {
				t.Errorf("%s servers at %s: mixed - parallel = %.1f ± %.1f, want within the interval", c.n, l, d, hw)
			}
		}
		for _, l := range c.slower {
			if d, hw := diff(t, st, m, p, l); d-hw <= 0 || d > c.maxAt {
				t.Errorf("%s servers at %s: mixed - parallel = %.1f ± %.1f, want slower, by at most %g ms", c.n, l, d, hw, c.maxAt)
			}
		}
		for _, l := range st.Loads {
			if bothStable(t, st, m, s, l) {
				if d, hw := diff(t, st, s, m, l); d-hw <= 150 {
					t.Errorf("%s servers at %s: sequential - mixed = %.1f ± %.1f, want more than 150 ms", c.n, l, d, hw)
				}
			}
			if !get(t, st, m, l).Result.Stable && (get(t, st, p, l).Result.Stable || get(t, st, s, l).Result.Stable) {
				t.Errorf("%s servers at %s: mixed unstable where a pure policy is stable", c.n, l)
			}
		}
	}
}

// Figure 8: LBS beats Cyclic in mean from L1 to L5, the two are even at
// L6 (neither faster within the interval), Cyclic beats LBS at L7 and L8
// (with the mixed switch, LBS keeps every server near the average
// utilization, so more requests find theirs above 70% and go sequential);
// both beat Random by far (at least 10%) in mean and standard deviation
// wherever it is stable, and Random is unstable from L5; at L1-L2 LBS has
// the lowest standard deviation.
func TestPaperFigure8SelectionRules(t *testing.T) {
	st := findings(t)
	for i, l := range st.Loads {
		if !bothStable(t, st, "M10", "M10-Cyclic", l) {
			continue
		}
		d, hw := diff(t, st, "M10-Cyclic", "M10", l)
		switch {
		case i < 5 && d-hw <= 0:
			t.Errorf("%s: Cyclic - LBS = %.1f ± %.1f; want LBS faster", l, d, hw)
		case i == 5 && (d-hw > 0 || d+hw < 0):
			t.Errorf("%s: Cyclic - LBS = %.1f ± %.1f; want the two even within the interval", l, d, hw)
		case i > 5 && d+hw >= 0:
			t.Errorf("%s: Cyclic - LBS = %.1f ± %.1f; want Cyclic faster", l, d, hw)
		}
		if rnd := get(t, st, "M10-Random", l); rnd.Result.Stable {
			diff(t, st, "M10-Random", "M10", l)
			for _, other := range []string{"M10", "M10-Cyclic"} {
				o, r := get(t, st, other, l).Result.Response, rnd.Result.Response
				t.Logf("%s: Random mean %.1f sd %.1f, %s mean %.1f sd %.1f", l, r.Mean, r.SD, other, o.Mean, o.SD)
				if r.Mean < 1.1*o.Mean || r.SD < 1.1*o.SD {
					t.Errorf("%s: Random mean %.1f sd %.1f, %s mean %.1f sd %.1f; want Random far worse", l, r.Mean, r.SD, other, o.Mean, o.SD)
				}
			}
		}
	}
	if l := firstUnstable(t, st, "M10-Random"); l != "L5" {
		t.Errorf("Random unstable from %s, want L5", l)
	}
	for _, l := range []string{"L1", "L2"} {
		lbs, cyc, rnd := get(t, st, "M10", l).Result.Response, get(t, st, "M10-Cyclic", l).Result.Response, get(t, st, "M10-Random", l).Result.Response
		t.Logf("%s: sd LBS %.1f, Cyclic %.1f, Random %.1f", l, lbs.SD, cyc.SD, rnd.SD)
		if lbs.SD >= cyc.SD || lbs.SD >= rnd.SD {
			t.Errorf("%s: LBS sd %.1f, Cyclic %.1f, Random %.1f; want LBS lowest", l, lbs.SD, cyc.SD, rnd.SD)
		}
	}
}

// Figure 9: a longer TActive lowers mean response, by less at each step,
// at every load where all three are stable (L1-L8); its standard
// deviation falls from 0 to 5 ms at every load, and from 5 to 20 ms it
// moves by less than 1% at L1-L2 and falls from L3. With TActive the
// sample is stable at every load.
func TestPaperFigure9TActive(t *testing.T) {
	st := findings(t)
	checked := 0
	for _, l := range st.Loads {
		r0, r5, r20 := get(t, st, "M10", l), get(t, st, "M10-TActive5", l), get(t, st, "M10-TActive20", l)
		if !r0.Result.Stable || !r5.Result.Stable || !r20.Result.Stable {
			continue
		}
		checked++
		d05, hw05 := diff(t, st, "M10", "M10-TActive5", l)
		d520, hw520 := diff(t, st, "M10-TActive5", "M10-TActive20", l)
		if d05-hw05 <= 0 || d520-hw520 <= 0 {
			t.Errorf("%s: response does not fall with TActive", l)
		}
		if d520 >= d05 {
			t.Errorf("%s: 5→20 saves %.1f, more than 0→5 (%.1f)", l, d520, d05)
		}
		sd0, sd5, sd20 := r0.Result.Response.SD, r5.Result.Response.SD, r20.Result.Response.SD
		t.Logf("%s: sd %.1f, %.1f, %.1f", l, sd0, sd5, sd20)
		if !(sd0 > sd5 && sd20 < 1.01*sd5) || (l >= "L3" && sd20 >= sd5) {
			t.Errorf("%s: sd %.1f, %.1f, %.1f; want falling (5→20 within 1%% at L1-L2)", l, sd0, sd5, sd20)
		}
	}
	if checked != 8 {
		t.Errorf("%d loads where all three are stable, the README says 8 (L1-L8)", checked)
	}
}
