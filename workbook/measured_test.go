package workbook

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook/wbtest"
)

func TestReadMeasured(t *testing.T) {
	m := wbtest.Valid()
	m.Add("SvcData.xlsx", "Measured",
		[]any{"Entity", "Load", "Measure", "Value", "Note"},
		[]any{nil, "L1", "mean", 180.5, "APM, Monday 9-10"},
		[]any{"asum", "l2", "P95", "900"},
		[]any{nil, "L1", "failed", "1%"},
		[]any{nil, "L2", "Utilization:gway", 0.62},
		[]any{nil, "L2", "utilization: App ", "45%"},
		[]any{"Ping", "L3", "abandoned", 0},
	)
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []study.Measured{
		{Load: "L1", Measure: study.MeasureMean, Value: 180.5, Cell: "SvcData.xlsx!Measured!A2"},
		{Entity: "ASUM", Load: "L2", Measure: study.MeasureP95, Value: 900, Cell: "SvcData.xlsx!Measured!A3"},
		{Load: "L1", Measure: study.MeasureFailed, Value: 0.01, Cell: "SvcData.xlsx!Measured!A4"},
		{Load: "L2", Measure: study.MeasureUtilization, Server: "GWay", Value: 0.62, Cell: "SvcData.xlsx!Measured!A5"},
		{Load: "L2", Measure: study.MeasureUtilization, Server: "App", Value: 0.45, Cell: "SvcData.xlsx!Measured!A6"},
		{Entity: "Ping", Load: "L3", Measure: study.MeasureAbandoned, Value: 0, Cell: "SvcData.xlsx!Measured!A7"},
	}
	if len(plan.Measured) != len(want) {
		t.Fatalf("measured %+v", plan.Measured)
	}
	for i := range want {
		if plan.Measured[i] != want[i] {
			t.Errorf("row %d: got %+v, want %+v", i, plan.Measured[i], want[i])
		}
	}
	if got := plan.Measured[3].What(); got != "utilization:GWay" {
		t.Errorf("What() = %q", got)
	}
	if len(plan.Warnings) > 0 {
		t.Errorf("warnings %q", plan.Warnings)
	}
}

func TestNoMeasuredSheet(t *testing.T) {
	dir := t.TempDir()
	wbtest.Valid().Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Measured != nil {
		t.Errorf("measured without a sheet: %+v", plan.Measured)
	}
}

// TestBadMeasured reads one Measured sheet holding every kind of mistake;
// the golden file lists the problems, one a row, all at once.
func TestBadMeasured(t *testing.T) {
	rows := [][]any{
		{"Entity", "Load", "Measure", "Value"},
		{"ASUMM", "L1", "mean", 100},        // unknown entity
		{nil, "L9", "mean", 100},            // unknown load
		{nil, nil, "mean", 100},             // no load
		{nil, "L1", "p96", 100},             // unknown measure
		{nil, "L1", nil, 100},               // no measure
		{nil, "L1", "utilization:GWy", 0.5}, // unknown server
		{nil, "L1", "utilization", 0.5},     // no server
		{nil, "L1", "utilization:", 0.5},    // no server after the colon
		{"ASUM", "L1", "utilization:App", 0.5},
		{nil, "L1", "mean", "1,5"},        // not a number
		{nil, "L1", "mean", -3},           // negative time
		{nil, "L1", "failed", 1.5},        // share above 1
		{nil, "L1", "utilization:MTC", 2}, // utilization above 1
		{nil, "L1", "abandoned", "-1%"},   // negative share
		{nil, "L1", "p99"},                // no value
	}
	m := wbtest.Valid()
	m.Add("SvcData.xlsx", "Measured", rows...)
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("Read: %v", err)
	}
	if len(ps.Errors()) != len(rows)-1 {
		t.Errorf("%d problems for %d bad rows", len(ps.Errors()), len(rows)-1)
	}
	golden(t, filepath.Join("testdata", "measured_problems.golden"), strings.TrimSpace(ps.Errors().Error())+"\n")
}

// A figure measured twice (another day's measurement) is kept, and a
// warning says it repeats an earlier row.
func TestMeasuredTwice(t *testing.T) {
	m := wbtest.Valid()
	m.Add("SvcData.xlsx", "Measured",
		[]any{"Entity", "Load", "Measure", "Value"},
		[]any{nil, "L1", "mean", 300},
		[]any{nil, "L1", "mean", 320},
		[]any{nil, "L2", "mean", 320},
	)
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if plan == nil {
		t.Fatal(err)
	}
	if len(plan.Measured) != 3 {
		t.Errorf("%d Measured rows, want 3", len(plan.Measured))
	}
	want := "SvcData.xlsx!Measured!C3: the same figure as row 2 (mean of all requests at L1); both are set beside the simulated one"
	if w := strings.Join(plan.Warnings, "\n"); !strings.Contains(w, want) || strings.Contains(w, "Measured!C4") {
		t.Errorf("warnings:\n%s\nwant %s", w, want)
	}
}
