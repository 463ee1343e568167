package workbook

import (
	"errors"
	"strings"
	"testing"

	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook/wbtest"
)

func TestReadTargets(t *testing.T) {
	m := wbtest.Valid()
	m.Add("SvcData.xlsx", "Targets",
		[]any{"Entity", "Measure", "Limit", "Note"},
		[]any{nil, "p95", 1000, "a second at the 95th percentile"},
		[]any{"asum", "Mean", "250"},
		[]any{nil, "failed", "1%"},
		[]any{"Ping", "abandoned", 0},
	)
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []study.Target{
		{Entity: "", Measure: study.MeasureP95, Limit: 1000, Cell: "SvcData.xlsx!Targets!A2"},
		{Entity: "ASUM", Measure: study.MeasureMean, Limit: 250, Cell: "SvcData.xlsx!Targets!A3"},
		{Entity: "", Measure: study.MeasureFailed, Limit: 0.01, Cell: "SvcData.xlsx!Targets!A4"},
		{Entity: "Ping", Measure: study.MeasureAbandoned, Limit: 0, Cell: "SvcData.xlsx!Targets!A5"},
	}
	if len(plan.Targets) != len(want) {
		t.Fatalf("targets %+v", plan.Targets)
	}
	for i := range want {
		if plan.Targets[i] != want[i] {
			t.Errorf("target %d: got %+v, want %+v", i, plan.Targets[i], want[i])
		}
	}
	// A share of none can fail but never hold: read, with a word.
	if len(plan.Warnings) != 1 || !strings.HasPrefix(plan.Warnings[0], "SvcData.xlsx!Targets!C5: a limit of 0 for the abandoned share can fail but never hold") {
		t.Errorf("warnings %q; want one on the limit 0 of C5", plan.Warnings)
	}
}

func TestNoTargetsSheet(t *testing.T) {
	dir := t.TempDir()
	wbtest.Valid().Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Targets != nil {
		t.Errorf("targets without a sheet: %+v", plan.Targets)
	}
}

func TestBadTargets(t *testing.T) {
	cases := []struct {
		name string
		row  []any
		want string
	}{
		{"unknown measure", []any{nil, "p96", 1}, `SvcData.xlsx!Targets!B2: unknown measure "p96"; did you mean "p90"?; expected one of mean, p50, p90, p95, p99, failed, abandoned`},
		{"no measure", []any{nil, nil, 1}, `SvcData.xlsx!Targets!B2: a target without a measure; expected one of mean, p50, p90, p95, p99, failed, abandoned`},
		{"unknown entity", []any{"ASUMM", "p95", 1}, `SvcData.xlsx!Targets!A2: unknown entity "ASUMM"; did you mean "ASUM"?; expected an entity of Arrivals (ASUM, Ping), or blank for all requests`},
		{"negative time", []any{nil, "p95", -3}, `SvcData.xlsx!Targets!C2: limit -3 is not a positive time; expected a time in ms greater than 0`},
		{"zero time", []any{nil, "mean", 0}, `SvcData.xlsx!Targets!C2: limit 0 is not a positive time; expected a time in ms greater than 0`},
		{"share above 1", []any{nil, "failed", 5}, `SvcData.xlsx!Targets!C2: limit 5 is not a share; expected a share of requests from 0 to 1 (0.01 or 1%)`},
		{"negative share", []any{nil, "abandoned", "-1%"}, `SvcData.xlsx!Targets!C2: limit -0.01 is not a share; expected a share of requests from 0 to 1 (0.01 or 1%)`},
		{"not a number", []any{nil, "p99", "1,5"}, `SvcData.xlsx!Targets!C2: "1,5" is not a number (write it with a point for decimals and no thousands separator, e.g. 1234.5); expected a time in ms greater than 0`},
		{"no limit", []any{nil, "p99"}, `SvcData.xlsx!Targets!C2: a target without a limit; expected a time in ms greater than 0`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := wbtest.Valid()
			m.Add("SvcData.xlsx", "Targets", []any{"Entity", "Measure", "Limit"}, tc.row)
			dir := t.TempDir()
			m.Write(t, dir)
			_, err := Read(dir)
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Read: %v", err)
			}
			if got := strings.TrimSpace(ps.Errors().Error()); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
