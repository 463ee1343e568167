package lb

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// The result sheets websim lb writes. Each starts with resultsMark in A1, by
// which a later run knows the sheet as its own and may replace it.
const (
	SummarySheet   = "LBSummary"
	PerServerSheet = "LBPerServer"
	ChartSheet     = "LBChart"
	resultsMark    = "websim lb results"
)

var resultSheets = []string{SummarySheet, PerServerSheet, ChartSheet}

// CheckResultSheets returns a problem for each result sheet name that f
// already uses for a sheet websim did not write: websim never replaces a
// user's sheet.
func CheckResultSheets(f *excelize.File, file string) error {
	var ps Problems
	for _, name := range resultSheets {
		idx, err := f.GetSheetIndex(name)
		if err != nil || idx < 0 {
			continue
		}
		if a1, _ := f.GetCellValue(name, "A1"); !strings.HasPrefix(a1, resultsMark) {
			ps = append(ps, Problem{Where: filepath.Base(file) + "!" + name,
				What: "a sheet of this name holds data websim did not write; rename the sheet, then run again"})
		}
	}
	return ps.orNil()
}

// WriteResults adds the result sheets of r to f: LBSummary (the parameters
// used and the figures per type), LBPerServer (the figures per server and
// per type on each server) and LBChart (a clustered column chart of the
// share of waiting requests per type and server). It first deletes the
// result sheets of an earlier run and refuses to touch a sheet of that name
// that websim did not write; every other sheet is kept.
func WriteResults(f *excelize.File, file string, r *Report) error {
	if err := CheckResultSheets(f, file); err != nil {
		return err
	}
	for _, name := range resultSheets {
		if idx, _ := f.GetSheetIndex(name); idx >= 0 {
			if err := f.DeleteSheet(name); err != nil {
				return err
			}
		}
	}
	w := &sheetWriter{f: f}
	for _, name := range resultSheets {
		w.newSheet(name)
	}
	bold := w.style(&excelize.Style{Font: &excelize.Font{Bold: true}})
	writeSummary(w, r, bold)
	writePerServer(w, r, bold)
	writeChart(w, r, bold)
	return w.err
}

// withCI appends the value and, with several replications, its half-width.
func withCI(row []any, reps int, v, hw float64) []any {
	row = append(row, v)
	if reps > 1 {
		row = append(row, hw)
	}
	return row
}

func headersWithCI(reps int, names ...string) []any {
	var out []any
	for i, n := range names {
		out = append(out, n)
		if reps > 1 && i > 0 {
			out = append(out, "± 95%")
		}
	}
	return out
}

func writeSummary(w *sheetWriter, r *Report, bold int) {
	p, s := r.Params, SummarySheet
	w.cell(s, "A1", resultsMark+": figures per type")
	w.setStyle(s, "A1", "A1", bold)
	note := "one replication"
	if r.Replications > 1 {
		note = fmt.Sprintf("mean over %d replications; ± 95%% is the half-width of the 95%% confidence interval (Student t)", r.Replications)
	}
	w.cell(s, "A2", note)
	settings := [][]any{
		{KeyServers, p.Servers}, {KeyRate, p.RequestsPerSec}, {KeyRequests, p.Requests},
		{KeyMethod, string(p.Method)}, {KeySeed, p.Seed}, {"replications", r.Replications},
		{"simulated time (s)", r.SimulatedTime}, {"observed arrival rate (/s)", r.All.Mean.ArrivalRate},
	}
	for i, row := range settings {
		w.row(s, i+4, row...)
	}
	top := len(settings) + 5
	header := headersWithCI(r.Replications, "Type", "Requests", "Share (%)", "Failed", "Waited", "Waited (%)",
		"Total wait (s)", "Wait / service (%)", "Mean wait (s)", "P95 wait (s)")
	header = append(header[:1], append([]any{"Capacity per server"}, header[1:]...)...)
	w.row(s, top, header...)
	last, _ := excelize.CoordinatesToCellName(len(header), top)
	w.setStyle(s, fmt.Sprintf("A%d", top), last, bold)
	line := func(row int, name, capacity string, e Estimate) {
		m, h, n := e.Mean, e.HalfWidth, r.Replications
		out := []any{name, capacity}
		out = withCI(out, n, m.Requests, h.Requests)
		out = withCI(out, n, 100*m.Share, 100*h.Share)
		out = withCI(out, n, m.Failed, h.Failed)
		out = withCI(out, n, m.Waited, h.Waited)
		out = withCI(out, n, m.WaitedPercent, h.WaitedPercent)
		out = withCI(out, n, m.TotalWait, h.TotalWait)
		out = withCI(out, n, 100*m.WaitShareOfService, 100*h.WaitShareOfService)
		out = withCI(out, n, m.MeanWait, h.MeanWait)
		out = withCI(out, n, m.P95Wait, h.P95Wait)
		w.row(s, row, out...)
	}
	for j, t := range p.Types {
		line(top+1+j, t.Name, joinInts(r.Capacity[j]), r.ByType[j])
	}
	line(top+1+len(p.Types), "all", "", r.All)
	w.widths(s, 28, 20)
	w.freezeAt(s, top)
}

func writePerServer(w *sheetWriter, r *Report, bold int) {
	p, s, n := r.Params, PerServerSheet, r.Replications
	w.cell(s, "A1", resultsMark+": figures per server")
	w.setStyle(s, "A1", "A1", bold)
	header := []any{"Server"}
	header = append(header, headersWithCI(n, "", "Requests", "Failed", "Waited", "Waited (%)", "Mean wait (s)")[1:]...)
	for _, t := range p.Types {
		header = append(header, t.Name+" capacity")
		header = append(header, headersWithCI(n, "", t.Name+" requests", t.Name+" failed", t.Name+" waited",
			t.Name+" waited (%)")[1:]...)
	}
	w.row(s, 3, header...)
	last, _ := excelize.CoordinatesToCellName(len(header), 3)
	w.setStyle(s, "A3", last, bold)
	for i, e := range r.PerServer {
		m, h := e.Mean, e.HalfWidth
		row := []any{i}
		row = withCI(row, n, m.Requests, h.Requests)
		row = withCI(row, n, m.Failed, h.Failed)
		row = withCI(row, n, m.Waited, h.Waited)
		row = withCI(row, n, m.WaitedPercent, h.WaitedPercent)
		row = withCI(row, n, m.MeanWait, h.MeanWait)
		for j := range p.Types {
			c := r.Cells[j][i]
			row = append(row, r.Capacity[j][i])
			row = withCI(row, n, c.Mean.Requests, c.HalfWidth.Requests)
			row = withCI(row, n, c.Mean.Failed, c.HalfWidth.Failed)
			row = withCI(row, n, c.Mean.Waited, c.HalfWidth.Waited)
			row = withCI(row, n, c.Mean.WaitedPercent, c.HalfWidth.WaitedPercent)
		}
		w.row(s, 4+i, row...)
	}
	w.freezeAt(s, 3)
}

func writeChart(w *sheetWriter, r *Report, bold int) {
	p, s := r.Params, ChartSheet
	w.cell(s, "A1", resultsMark+": share of requests that waited (%), per type and server")
	w.setStyle(s, "A1", "A1", bold)
	header := []any{"Server"}
	for _, t := range p.Types {
		header = append(header, t.Name)
	}
	w.row(s, 3, header...)
	for i := range p.Servers {
		row := []any{"server " + strconv.Itoa(i)}
		for j := range p.Types {
			row = append(row, r.Cells[j][i].Mean.WaitedPercent)
		}
		w.row(s, 4+i, row...)
	}
	lastRow := 3 + p.Servers
	var series []excelize.ChartSeries
	for j := range p.Types {
		col, _ := excelize.ColumnNumberToName(j + 2)
		series = append(series, excelize.ChartSeries{
			Name:       fmt.Sprintf("%s!$%s$3", s, col),
			Categories: fmt.Sprintf("%s!$A$4:$A$%d", s, lastRow),
			Values:     fmt.Sprintf("%s!$%s$4:$%s$%d", s, col, col, lastRow),
		})
	}
	chartCol, _ := excelize.ColumnNumberToName(len(p.Types) + 3)
	w.do(w.f.AddChart(s, chartCol+"3", &excelize.Chart{
		Type:      excelize.Col,
		Series:    series,
		Dimension: excelize.ChartDimension{Width: 720, Height: 400},
		Title:     excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Requests that waited (%), per type and server"}}},
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis:     excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "server"}}}},
		YAxis: excelize.ChartAxis{MajorGridLines: true,
			Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "waited (%)"}}}},
	}))
	w.widths(s, 12)
}

// NewResultsWorkbook returns a new workbook holding the parameters of r
// (Settings, RequestTypes) and its result sheets: what --out writes.
func NewResultsWorkbook(r *Report) (*excelize.File, error) {
	f, err := NewParametersWorkbook(r.Params)
	if err != nil {
		return nil, err
	}
	if err := WriteResults(f, "", r); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
