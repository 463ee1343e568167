package report

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

func TestAxisFormat(t *testing.T) {
	for _, c := range []struct {
		values  []float64
		percent bool
		want    string
	}{
		{[]float64{120, 480, 1340}, false, "#,##0"},
		{[]float64{101, 103}, false, "#,##0"},         // an axis from 0: labels 0, 20, 40 ...
		{[]float64{0.98, 1.01}, false, "#,##0.0"},     // 0.2, 0.4 ..., not 1.200
		{[]float64{2.9, 3.5}, false, "#,##0.0"},       // 0.5, 1.0 ...
		{[]float64{0.021, 0.026, 0.03}, true, "0.0%"}, // not 2%, 3%, 3%
		{[]float64{0.0021, 0.0026}, true, "0.00%"},
		{[]float64{0.1, 0.5, 0.95}, true, "0%"},
		{[]float64{5, 5}, false, "#,##0"},
		{[]float64{0.004, 0.004}, false, "#,##0.0000"},
		{nil, true, "0%"},
		{[]float64{5.28e-06, 1.54e-05}, false, "0.0E+00"}, // not 0.0000 on every line
		{[]float64{5.28e-06, 5.28e-06}, false, "0E+00"},   // 1E-06, 2E-06 ...
		{[]float64{0.0004, 0.0009}, false, "#,##0.0000"},
		{[]float64{0.000001, 0.000003}, true, "0.0000%"},
	} {
		if got := axisFormat(c.values, c.percent); got != c.want {
			t.Errorf("axisFormat(%v, %v) = %q, want %q", c.values, c.percent, got, c.want)
		}
	}
	// A utilization's axis ends at 100%: its labels need no decimals
	// however small the utilizations drawn.
	if got := axisFormat(axisSpan([]float64{0.0001, 0.00012}, 1), true); got != "0%" {
		t.Errorf("tiny utilizations on an axis to 100%%: %q, want 0%%", got)
	}
	if got := axisFormat(axisSpan([]float64{0.0001, 0.00012}, 0), true); got == "0%" {
		t.Errorf("tiny shares on an axis of their own: %q", got)
	}
}

func TestLoadLabel(t *testing.T) {
	for _, c := range []struct {
		rate float64
		unit string
		want string
	}{
		{0.05, "ms", "L5 (50/s)"},
		{1.0 / 12, "ms", "L5 (83.3/s)"},
		{12.5, "s", "L5 (12.5/s)"},
		{1234.4, "min", "L5 (1234/min)"},
		{0.5, "", "L5 (0.5/time unit)"},
		{math.NaN(), "ms", "L5"},
	} {
		if got := loadLabel("L5", c.rate, c.unit); got != c.want {
			t.Errorf("loadLabel(%v, %q) = %q, want %q", c.rate, c.unit, got, c.want)
		}
	}
}

func TestChartGroups(t *testing.T) {
	names := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("S%d", i+1))
		}
		return out
	}
	type part struct {
		title string
		n     int
	}
	list := func(gs []chartGroup) []part {
		var out []part
		for _, g := range gs {
			out = append(out, part{g.title(), len(g.scenarios)})
		}
		return out
	}
	// Without a Chart column: one group, split evenly into charts of at
	// most 8 lines.
	s := &study.Study{Scenarios: names(10)}
	if got, want := list(groups(s)), []part{{"All scenarios (1 of 2)", 5}, {"All scenarios (2 of 2)", 5}}; !slices.Equal(got, want) {
		t.Errorf("10 scenarios, no groups: %v, want %v", got, want)
	}
	s = &study.Study{Scenarios: names(8)}
	if got, want := list(groups(s)), []part{{"All scenarios", 8}}; !slices.Equal(got, want) {
		t.Errorf("8 scenarios, no groups: %v, want %v", got, want)
	}
	// Groups in order of first appearance; a scenario in two groups is
	// drawn in both; one without a Chart cell goes to Other scenarios.
	s = &study.Study{Scenarios: []string{"P10", "S10", "M10", "M10-Cyclic", "Extra"},
		Charts: map[string][]string{"P10": {"Fig 7"}, "S10": {"Fig 7"}, "M10": {"Fig 7", "Fig 8"}, "M10-Cyclic": {"Fig 8"}}}
	if got, want := list(groups(s)), []part{{"Fig 7", 3}, {"Fig 8", 2}, {"Other scenarios", 1}}; !slices.Equal(got, want) {
		t.Errorf("groups: %v, want %v", got, want)
	}
}

// gridStudy is a study of n scenarios S1..Sn over m loads L1..Lm whose
// run of scenario i (from 0) at load j is unstable where unstable says.
func gridStudy(n, m int, unstable func(i, j int) bool) *study.Study {
	s := &study.Study{Model: "grid", TimeUnit: "ms", Version: "test", Seed: 1}
	for j := range m {
		s.Loads = append(s.Loads, fmt.Sprintf("L%d", j+1))
		s.ArrivalRates = append(s.ArrivalRates, float64(j+1)/100)
	}
	for i := range n {
		sc := fmt.Sprintf("S%d", i+1)
		s.Scenarios = append(s.Scenarios, sc)
		for j, load := range s.Loads {
			r := engine.Result{Load: load, Arrivals: 1000, Completed: 1000, Attempts: 1000,
				Response:       engine.Summary{N: 1000, Mean: 100 + float64(i+j), SD: 50, P95: 200 + float64(i+j)},
				AppUtilization: 0.5, Stable: true, SimTime: 1000}
			if unstable(i, j) {
				r.Stable, r.Unstable = false, "the requests in the system keep growing"
			}
			s.Runs = append(s.Runs, study.Run{Scenario: sc, Load: load, Replications: 1, Result: r})
		}
	}
	return s
}

var (
	reGapsNamed  = regexp.MustCompile(`Gaps: not stable, no steady state \(([^)]*)\)`)
	reGapsListed = regexp.MustCompile(`Gaps: (\d+) runs not stable, no steady state, each named in (A\d+):(A\d+) below`)
	reChartLine  = regexp.MustCompile(`^chart lineChart titles=\["(.*?)(?: / (.*?))?"`)
)

// namedGaps reads "S1, S2 at L7, L8; S3 at L8" as its scenario-load pairs.
func namedGaps(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	for _, part := range strings.Split(text, "; ") {
		names, loads, ok := strings.Cut(part, " at ")
		if !ok {
			t.Fatalf("%q: no \" at \" in %q", text, part)
		}
		for _, sc := range strings.Split(names, ", ") {
			for _, load := range strings.Split(loads, ", ") {
				out = append(out, sc+"@"+load)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Every gap of a chart is named: in its note while they are few, else in
// cells below the charts that the note points to; the note stays short
// and never ends in "…".
func TestChartNotesNameEveryGap(t *testing.T) {
	for _, c := range []struct {
		name     string
		n, m     int
		unstable func(i, j int) bool
		listed   bool // the gaps are listed on the sheet
	}{
		{"one run", 3, 4, func(i, j int) bool { return i == 1 && j == 3 }, false},
		{"the same loads, named together", 6, 6, func(i, j int) bool { return j >= 4 }, false},
		{"many scenarios at two loads", 16, 3, func(i, j int) bool { return j >= 1 }, false},
		{"loads that differ, listed", 7, 12, func(i, j int) bool { return j >= 11-i || (i+j)%5 == 0 }, true},
		{"split groups, listed", 16, 12, func(i, j int) bool { return (i*7+j*3)%4 == 0 || j == i }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := gridStudy(c.n, c.m, c.unstable)
			s.Measured = []study.Measured{{Load: "L1", Measure: study.MeasureMean, Value: 100}}
			path := filepath.Join(t.TempDir(), "OutPut.xlsx")
			if err := Write(path, s); err != nil {
				t.Fatal(err)
			}
			f, err := xlsx.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			unstableIn := func(scenarios []string) []string {
				var out []string
				for i, sc := range s.Scenarios {
					for j, load := range s.Loads {
						if slices.Contains(scenarios, sc) && c.unstable(i, j) {
							out = append(out, sc+"@"+load)
						}
					}
				}
				slices.Sort(out)
				return out
			}
			charts := 0
			for _, line := range strings.Split(dumpCharts(t, path), "\n") {
				m := reChartLine.FindStringSubmatch(line)
				if m == nil || strings.Contains(m[1], "over each run") {
					continue
				}
				title, note := m[1], m[2]
				// The group: Validation draws the first 7 scenarios, Charts
				// a group or its part.
				sheet, scenarios := "Validation", s.Scenarios[:min(len(s.Scenarios), xlsx.MaxSeries-1)]
				if !strings.Contains(title, "measured and simulated") {
					sheet = "Charts"
					for _, g := range groups(s) {
						if g.parts == 1 || strings.HasPrefix(title, g.title()+":") {
							scenarios = g.scenarios
						}
					}
				}
				want := unstableIn(scenarios)
				if len(want) == 0 {
					continue
				}
				charts++
				if strings.Contains(note, "…") || len(note) > 200 {
					t.Errorf("%s: note of %d characters: %q", title, len(note), note)
				}
				var got []string
				if l := reGapsListed.FindStringSubmatch(note); l != nil {
					if !c.listed {
						t.Errorf("%s: %d gaps listed on the sheet, want them in the note: %q", title, len(want), note)
					}
					if n, _ := strconv.Atoi(l[1]); n != len(want) {
						t.Errorf("%s: the note counts %d gaps, want %d", title, n, len(want))
					}
					var from, to int
					fmt.Sscanf(l[2], "A%d", &from)
					fmt.Sscanf(l[3], "A%d", &to)
					for r := from; r <= to; r++ {
						v, _ := f.Value(sheet, fmt.Sprintf("A%d", r))
						got = append(got, namedGaps(t, v)...)
					}
					slices.Sort(got)
				} else if g := reGapsNamed.FindStringSubmatch(note); g != nil {
					if c.listed {
						t.Errorf("%s: the note names %d gaps itself: %q", title, len(want), note)
					}
					got = namedGaps(t, g[1])
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s (%s): gaps named %q, want %q (note %q)", title, sheet, got, want, note)
				}
			}
			if charts == 0 {
				t.Fatal("no chart with gaps")
			}
		})
	}
}

// oneEntityStudy is testStudy as a model of one entity whose users never
// give up: its Charts sheet is what websim wrote before it drew entities
// and abandonment, and stays so.
func oneEntityStudy() *study.Study {
	s := testStudy()
	for i := range s.Runs {
		r := &s.Runs[i].Result
		r.Failed += r.Abandoned
		r.Abandoned = 0
		r.Entities = []engine.EntityResult{{Name: "ASUM", Arrivals: r.Arrivals, Completed: r.Completed, Failed: r.Failed, Response: r.Response}}
	}
	return s
}

func TestChartsOneEntityGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, oneEntityStudy()); err != nil {
		t.Fatal(err)
	}
	golden(t, "charts_one_entity.txt", dumpSheets(t, path, "Charts")+dumpCharts(t, path))
}
