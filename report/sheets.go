package report

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/study"
)

// format is how a column's numbers are shown.
type format int

const (
	fText format = iota
	fCount
	fTime
	fShare
	fNumber
	fDate
)

// styles holds the style ids a results workbook uses.
type styles struct {
	header, title int
	byFormat      map[format]int
}

func newStyles(f *excelize.File) (*styles, error) {
	st := &styles{byFormat: map[format]int{}}
	var err error
	if st.header, err = f.NewStyle(&excelize.Style{
		Font:      &excelize.Font{Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "8EA9DB", Style: 1}},
		Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"},
	}); err != nil {
		return nil, err
	}
	if st.title, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 12}}); err != nil {
		return nil, err
	}
	fmts := map[format]string{fCount: "#,##0", fTime: "#,##0.000", fShare: "0.0%", fNumber: "General", fDate: "yyyy-mm-dd hh:mm:ss"}
	for k, v := range fmts {
		code := v
		id, err := f.NewStyle(&excelize.Style{CustomNumFmt: &code})
		if err != nil {
			return nil, err
		}
		st.byFormat[k] = id
	}
	return st, nil
}

// column is one column of a results table.
type column struct {
	header string
	format format
}

// table writes a header row (bold, frozen) and rows of values to a sheet,
// with number formats per column and widths fitted to the content. A nil or
// non-finite value leaves its cell blank.
func table(f *excelize.File, sheet string, st *styles, cols []column, rows [][]any) error {
	widths := make([]int, len(cols))
	for i, c := range cols {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		if err := f.SetCellStr(sheet, cell, c.header); err != nil {
			return err
		}
		widths[i] = min(utf8.RuneCountInString(c.header)+2, 22)
	}
	last, _ := excelize.CoordinatesToCellName(len(cols), 1)
	if err := f.SetCellStyle(sheet, "A1", last, st.header); err != nil {
		return err
	}
	for r, row := range rows {
		for i, v := range row {
			cell, _ := excelize.CoordinatesToCellName(i+1, r+2)
			if err := setCell(f, sheet, cell, v); err != nil {
				return err
			}
			widths[i] = max(widths[i], min(displayWidth(v, cols[i].format), 60))
		}
	}
	for i, c := range cols {
		name, _ := excelize.ColumnNumberToName(i + 1)
		if err := f.SetColWidth(sheet, name, name, float64(max(widths[i], 8))+1); err != nil {
			return err
		}
		if c.format == fText || len(rows) == 0 {
			continue
		}
		if err := f.SetCellStyle(sheet, name+"2", name+strconv.Itoa(len(rows)+1), st.byFormat[c.format]); err != nil {
			return err
		}
	}
	if err := f.SetRowHeight(sheet, 1, 30); err != nil {
		return err
	}
	return freezeHeader(f, sheet)
}

func freezeHeader(f *excelize.File, sheet string) error {
	return f.SetPanes(sheet, &excelize.Panes{
		Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	})
}

// setCell writes v as a number, text or boolean; nil and non-finite numbers
// leave the cell untouched (blank).
func setCell(f *excelize.File, sheet, cell string, v any) error {
	switch x := v.(type) {
	case nil:
		return nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return f.SetCellFloat(sheet, cell, x, -1, 64)
	case string:
		return f.SetCellStr(sheet, cell, x)
	default:
		return f.SetCellValue(sheet, cell, v)
	}
}

func displayWidth(v any, fm format) int {
	switch x := v.(type) {
	case nil:
		return 0
	case string:
		return utf8.RuneCountInString(x)
	case float64:
		switch fm {
		case fShare:
			return 7
		case fTime:
			return len(strconv.FormatFloat(x, 'f', 3, 64)) + 2
		}
		return len(strconv.FormatFloat(x, 'g', 8, 64))
	case bool:
		return 5
	case fmt.Stringer:
		return len(x.String())
	}
	if fm == fDate {
		return 19
	}
	return len(fmt.Sprint(v))
}

// share is num/den, or nil when den is 0.
func share(num, den int64) any {
	if den == 0 {
		return nil
	}
	return float64(num) / float64(den)
}

// finished is the number of requests that finished after the warm-up.
func finished(r *engine.Result) int64 { return r.Completed + r.Failed + r.Abandoned }

// responseOrNil returns v when the run completed any request.
func responseOrNil(r *engine.Result, v float64) any {
	if r.Response.N == 0 {
		return nil
	}
	return v
}

func writeSummary(f *excelize.File, sheet string, s *study.Study, st *styles) error {
	u := unitSuffix(s.TimeUnit)
	base := "the first scenario"
	if len(s.Scenarios) > 0 {
		base = s.Scenarios[0]
	}
	cols := []column{
		{"Scenario", fText}, {"Load", fText}, {"Replications", fCount}, {"Observations", fCount},
		{"Arrivals", fCount}, {"Completed", fCount}, {"Failed", fCount}, {"Abandoned", fCount},
		{"Retries", fCount}, {"Timeouts", fCount},
		{"Mean" + u, fTime}, {"SD" + u, fTime}, {"P50" + u, fTime}, {"P90" + u, fTime},
		{"P95" + u, fTime}, {"P99" + u, fTime}, {"CI half-width 95%" + u, fTime},
		{"Diff from " + base + u, fTime}, {"Diff ± 95%" + u, fTime},
		{"App utilization", fShare}, {"Failure share", fShare},
		{"Instant-capture share", fShare}, {"Parallel share", fShare},
		{"Attempt mean" + u, fTime}, {"Attempts per request", fNumber}, {"Late copies", fCount}, {"Wasted work" + u, fTime},
		{"Warm-up" + u, fTime}, {"In system at end", fCount}, {"Events", fCount},
		{"Wall seconds", fNumber}, {"Precision cap hit", fText},
		{"Stable", fText}, {"Unstable reason", fText},
	}
	rows := make([][]any, 0, len(s.Runs))
	for i := range s.Runs {
		run := &s.Runs[i]
		r := &run.Result
		var diff, diffHW any
		if run.Diff != nil {
			diff, diffHW = run.Diff.Mean, run.Diff.HalfWidth95
		}
		var attempt any
		if r.AttemptResponse.N > 0 {
			attempt = r.AttemptResponse.Mean
		}
		rows = append(rows, []any{
			run.Scenario, run.Load, float64(run.Replications), float64(finished(r)),
			float64(r.Arrivals), float64(r.Completed), float64(r.Failed), float64(r.Abandoned),
			float64(r.Retries), float64(r.Timeouts),
			responseOrNil(r, r.Response.Mean), responseOrNil(r, r.Response.SD),
			responseOrNil(r, r.Response.P50), responseOrNil(r, r.Response.P90),
			responseOrNil(r, r.Response.P95), responseOrNil(r, r.Response.P99),
			responseOrNil(r, r.Response.CIHalfWidth95),
			diff, diffHW,
			r.AppUtilization, share(r.Failed, finished(r)),
			share(r.InstantCaptures, r.Captures), share(r.ParallelSteps, r.ParallelSteps+r.SequentialSteps),
			attempt, ratioOrNil(r.Attempts, finished(r)), float64(r.LateCopies), r.WastedWork,
			r.WarmUp, float64(r.InSystem), float64(r.Events),
			run.WallSeconds, run.PrecisionCapHit,
			r.Stable, r.Unstable,
		})
	}
	return table(f, sheet, st, cols, rows)
}

func writeServers(f *excelize.File, sheet string, s *study.Study, st *styles) error {
	u := unitSuffix(s.TimeUnit)
	cols := []column{
		{"Scenario", fText}, {"Load", fText}, {"Server", fText}, {"Kind", fText},
		{"Capacity", fCount}, {"Utilization", fShare}, {"Mean queue", fNumber},
		{"Jobs", fCount}, {"Timeouts", fCount}, {"Orphan jobs", fCount}, {"Orphan work" + u, fTime},
	}
	var rows [][]any
	add := func(run *study.Run, name, kind string, sv *engine.ServerResult) {
		rows = append(rows, []any{
			run.Scenario, run.Load, name, kind, float64(sv.Capacity), sv.Utilization, sv.MeanQueue,
			float64(sv.Jobs), float64(sv.Timeouts), float64(sv.OrphanJobs), sv.OrphanWork,
		})
	}
	for i := range s.Runs {
		run := &s.Runs[i]
		for j := range run.Result.Servers {
			add(run, run.Result.Servers[j].Name, "external", &run.Result.Servers[j])
		}
		for j := range run.Result.AppServers {
			add(run, appName(j), "application", &run.Result.AppServers[j])
		}
	}
	return table(f, sheet, st, cols, rows)
}

// appName labels the i-th (0-based) application server.
func appName(i int) string { return "App" + strconv.Itoa(i+1) }

// unitSuffix is " (ms)" for the time unit ms.
func unitSuffix(unit string) string {
	if unit == "" {
		return ""
	}
	return " (" + unit + ")"
}

func writeRun(f *excelize.File, sheet string, s *study.Study, st *styles) error {
	cols := []column{{"Section", fText}, {"Name", fText}, {"Value", fText}}
	var rows [][]any
	add := func(section, name string, value any) { rows = append(rows, []any{section, name, value}) }
	add("Run", "websim version", s.Version)
	add("Run", "Model", s.Model)
	add("Run", "Time unit", s.TimeUnit)
	// Excel keeps 15 digits of a number: a seed is text, so that a run can
	// be reproduced from the sheet whatever its size.
	add("Run", "Seed", strconv.FormatUint(s.Seed, 10))
	if !s.Started.IsZero() {
		add("Run", "Started", s.Started.Format("2006-01-02 15:04:05 -07:00"))
	}
	add("Run", "Scenarios", joinComma(s.Scenarios))
	add("Run", "Loads", joinComma(s.Loads))
	for _, in := range s.Inputs {
		add("Input SHA-256", in.Name, in.SHA256)
	}
	for _, set := range s.Settings {
		add("Setting", set.Name, settingValue(set.Value))
	}
	for _, sc := range s.Scenarios {
		for _, set := range s.ScenarioSettings[sc] {
			add("Scenario "+sc, set.Name, settingValue(set.Value))
		}
	}
	for _, w := range s.Warnings {
		add("Warning", "", w)
	}
	return table(f, sheet, st, cols, rows)
}

// settingValue is a setting as a number when it is one that Excel holds
// exactly (15 significant digits), else as text: a long seed stays whole.
func settingValue(v string) any {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) || strconv.FormatFloat(x, 'g', 15, 64) != strconv.FormatFloat(x, 'g', -1, 64) {
		return v
	}
	return x
}

func joinComma(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// ratioOrNil is a/b, or nil (a blank cell) when b is 0.
func ratioOrNil(a, b int64) any {
	if b == 0 {
		return nil
	}
	return float64(a) / float64(b)
}
