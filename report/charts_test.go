package report

import (
	"fmt"
	"math"
	"slices"
	"testing"

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
