package report

import (
	"slices"
	"strconv"
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// testTargets are targets on testStudy's runs: mean responses are
// 100+k ± 1.5 ms (k = 1..3 for M10, 11..13 for P10), 0.8% fail (± 0, the
// hand-made runs' batch interval), P10 L2 completes nothing and P10 L3 is
// not stable.
var testTargets = []study.Target{
	{Measure: study.MeasureMean, Limit: 108, Cell: "SvcData.xlsx!Targets!A2"},
	{Measure: study.MeasureFailed, Limit: 0.05, Cell: "SvcData.xlsx!Targets!A3"},
	{Measure: study.MeasureMean, Limit: 102.5, Cell: "SvcData.xlsx!Targets!A4"},
}

// TestSummaryShowsTargets: per target, the Summary has the measured value,
// its half-width and the verdict in words, the verdict cell coloured by
// it, then the verdict of all targets and why.
func TestSummaryShowsTargets(t *testing.T) {
	s := testStudy()
	s.Targets = testTargets
	f := written(t, s)
	rows, err := f.Rows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	col := func(header string) int {
		i := slices.Index(rows[0], header)
		if i < 0 {
			t.Fatalf("no column %q in %q", header, rows[0])
		}
		return i
	}
	value, hw, verdict := col("mean response of all requests ≤ 108 (ms)"), col("mean response of all requests ≤ 108: ± 95% (ms)"), col("Verdict: mean response of all requests ≤ 108")
	failed, all, why := col("Verdict: failed share of all requests ≤ 5%"), col("Verdict: all targets"), col("Targets: why")
	tight := col("Verdict: mean response of all requests ≤ 102.5")
	want := []struct {
		mean, hw               string
		mean108, failed, tight string
		all                    string
	}{
		{"101", "1.5", "holds", "holds", "holds", "holds"},         // M10 L1: 101 + 1.5 = 102.5
		{"102", "1.5", "holds", "holds", "undecided", "undecided"}, // M10 L2: 102 ± 1.5 straddles 102.5
		{"103", "1.5", "holds", "holds", "undecided", "undecided"},
		{"111", "1.5", "fails", "holds", "fails", "fails"},   // P10 L1
		{"", "", "undecided", "fails", "undecided", "fails"}, // P10 L2: nothing completed, all failed
		{"113", "", "fails", "fails", "fails", "fails"},      // P10 L3: not stable, so no interval
	}
	looks := map[string]string{"holds": "C6EFCE", "fails": "FFC7CE", "undecided": "FFEB9C"}
	for r, w := range want {
		row := rows[r+1]
		cell := func(c int) string {
			if c < len(row) {
				return row[c]
			}
			return ""
		}
		got := [6]string{cell(value), cell(hw), cell(verdict), cell(failed), cell(tight), cell(all)}
		if got != [6]string{w.mean, w.hw, w.mean108, w.failed, w.tight, w.all} {
			t.Errorf("row %d (%s %s): %q", r+2, row[0], row[1], got)
		}
		for _, c := range []int{verdict, failed, tight, all} {
			ref := xlsx.ColumnName(c) + strconv.Itoa(r+2)
			look, _ := f.LookOf("Summary", ref)
			if look.Fill != looks[cell(c)] {
				t.Errorf("%s (%s): fill %q, want %q", ref, cell(c), look.Fill, looks[cell(c)])
			}
		}
	}
	if w := rows[5][why]; w != "mean response of all requests ≤ 108: no request completed: of the 1,000 that finished, 998 failed and 2 were abandoned; failed share of all requests ≤ 5%: its 95% interval, 99.8% ± 0%, lies above the limit 5%; mean response of all requests ≤ 102.5: no request completed: of the 1,000 that finished, 998 failed and 2 were abandoned" {
		t.Errorf("why at P10 L2: %q", w)
	}
	if w := rows[6][why]; w == "" {
		t.Error("no why at the unstable run")
	}
}

// Without targets the Summary has no target columns.
func TestSummaryWithoutTargets(t *testing.T) {
	cols := targetColumns(testStudy())
	if len(cols) != 0 {
		t.Errorf("%d target columns without targets", len(cols))
	}
}

// TestEntitiesShowTargets: on the Entities sheet, a target that names an
// entity fills its columns on that entity's rows only, from its figures,
// the verdict coloured; targets of all requests stay on the Summary.
func TestEntitiesShowTargets(t *testing.T) {
	s := &study.Study{Model: "two", TimeUnit: "ms", Scenarios: []string{"Base"}, Loads: []string{"L1"}, Targets: []study.Target{
		{Measure: study.MeasureMean, Limit: 5},
		{Entity: "A", Measure: study.MeasureMean, Limit: 10},
		{Entity: "B", Measure: study.MeasureFailed, Limit: 0.1},
	}}
	s.Runs = []study.Run{{Scenario: "Base", Load: "L1", Replications: 1, Result: engine.Result{
		Stable: true, Completed: 150, Failed: 50, Arrivals: 200,
		Response: engine.Summary{N: 150, Mean: 7, CIHalfWidth95: 0.5},
		Entities: []engine.EntityResult{
			{Name: "A", Arrivals: 100, Completed: 100, Response: engine.Summary{N: 100, Mean: 8, CIHalfWidth95: 1}, FailedCI95: 0.01},
			{Name: "B", Arrivals: 100, Completed: 50, Failed: 50, Response: engine.Summary{N: 50, Mean: 5, CIHalfWidth95: 1}, FailedCI95: 0.05},
		},
	}}}
	f := written(t, s)
	rows, err := f.Rows("Entities")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"mean response of A ≤ 10 (ms)", "mean response of A ≤ 10: ± 95% (ms)", "Verdict: mean response of A ≤ 10",
		"failed share of B ≤ 10%", "failed share of B ≤ 10%: ± 95%", "Verdict: failed share of B ≤ 10%",
		"Verdict: the entity's targets", "Targets: why",
	}
	first := slices.Index(rows[0], want[0])
	if first < 0 || !slices.Equal(rows[0][first:], want) {
		t.Fatalf("headers %q", rows[0])
	}
	if slices.Contains(rows[0], "mean response of all requests ≤ 5 (ms)") {
		t.Error("a target of all requests on the Entities sheet")
	}
	cells := func(r int) []string {
		out := make([]string, len(want))
		copy(out, rows[r][min(first, len(rows[r])):])
		return out
	}
	if got, want := cells(1), []string{"8", "1", "holds", "", "", "", "holds", ""}; !slices.Equal(got, want) {
		t.Errorf("A's row %q, want %q", got, want)
	}
	if got, want := cells(2), []string{"", "", "", "0.5", "0.05", "fails", "fails", "failed share of B ≤ 10%: its 95% interval, 50% ± 5%, lies above the limit 10%"}; !slices.Equal(got, want) {
		t.Errorf("B's row %q, want %q", got, want)
	}
	for _, c := range []struct {
		row, col int
		fill     string
	}{{2, first + 2, "C6EFCE"}, {2, first + 6, "C6EFCE"}, {3, first + 5, "FFC7CE"}, {3, first + 6, "FFC7CE"}, {2, first + 5, ""}} {
		ref := xlsx.ColumnName(c.col) + strconv.Itoa(c.row)
		if look, _ := f.LookOf("Entities", ref); look.Fill != c.fill {
			t.Errorf("Entities!%s: fill %q, want %q", ref, look.Fill, c.fill)
		}
	}
	if cols, _ := entityTargets(testStudy()); len(cols) != 0 {
		t.Errorf("%d Entities target columns without targets", len(cols))
	}
}
