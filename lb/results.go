package lb

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/websim/websim/internal/xlsx"
)

// The result sheets websim lb writes. websim marks them as its own (the
// xlsx layer's owner marker), so that a later run replaces them; each also
// starts with resultsMark in A1 (how earlier versions knew their sheets).
const (
	SummarySheet   = "LBSummary"
	PerServerSheet = "LBPerServer"
	ChartSheet     = "LBChart"
	resultsMark    = "websim lb results"
)

var resultSheets = []string{SummarySheet, PerServerSheet, ChartSheet}

// ResultNames are the names the result sheets get in one workbook.
type ResultNames struct{ Summary, PerServer, Chart string }

func (n ResultNames) list() []string { return []string{n.Summary, n.PerServer, n.Chart} }

// String lists the names as a sentence: "LBSummary, LBPerServer and LBChart".
func (n ResultNames) String() string { return n.Summary + ", " + n.PerServer + " and " + n.Chart }

// WriteResults adds the result sheets of r to b: LBSummary (the parameters
// used and the figures per type), LBPerServer (the figures per server and
// per type on each server) and LBChart (a clustered column chart of the
// share of waiting requests per type and server). The result sheets of an
// earlier run are replaced; a user's sheet is never touched: as websim run
// does, when one already has a result sheet's name the result sheet is
// called "LBSummary (websim)". Every other sheet is kept. It returns the
// names used.
func WriteResults(b *xlsx.Book, r *Report) (ResultNames, error) {
	placeholder, err := b.ReplaceOwned()
	if err != nil {
		return ResultNames{}, err
	}
	for _, name := range resultSheets {
		// Sheets of versions that marked them by their A1 text only.
		if a1, err := b.Value(name, "A1"); err == nil && strings.HasPrefix(a1, resultsMark) {
			b.DeleteSheet(name)
		}
	}
	existing := slices.DeleteFunc(b.Sheets(), func(n string) bool { return n == placeholder })
	names := ResultNames{xlsx.FreeName(existing, SummarySheet), xlsx.FreeName(existing, PerServerSheet),
		xlsx.FreeName(existing, ChartSheet)}
	for _, name := range names.list() {
		b.NewSheet(name)
	}
	writeSummary(b, names.Summary, r)
	writePerServer(b, names.PerServer, r)
	writeChart(b, names.Chart, r)
	if placeholder != "" {
		b.DeleteSheet(placeholder)
	}
	if err := b.Err(); err != nil {
		return names, err
	}
	return names, b.MarkOwned(names.list()...)
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

func writeSummary(w *xlsx.Book, s string, r *Report) {
	p := r.Params
	w.SetCell(s, "A1", resultsMark+": figures per type")
	w.SetStyle(s, "A1", "A1", xlsx.Bold)
	note := "one replication"
	if r.Replications > 1 {
		note = fmt.Sprintf("mean over %d replications; ± 95%% is the half-width of the 95%% confidence interval (Student t)", r.Replications)
	}
	w.SetCell(s, "A2", note)
	settings := [][]any{
		{KeyServers, p.Servers}, {KeyRate, p.RequestsPerSec}, {KeyRequests, p.Requests},
		{KeyMethod, string(p.Method)}, {KeySeed, p.Seed}, {"replications", r.Replications},
		{"simulated time (s)", r.SimulatedTime}, {"observed arrival rate (/s)", r.All.Mean.ArrivalRate},
	}
	for i, row := range settings {
		w.SetRow(s, i+4, row...)
	}
	top := len(settings) + 5
	header := headersWithCI(r.Replications, "Type", "Requests", "Share (%)", "Failed", "Waited", "Waited (%)",
		"Total wait (s)", "Wait / service (%)", "Mean wait (s)", "P95 wait (s)")
	header = append(header[:1], append([]any{"Capacity per server"}, header[1:]...)...)
	w.SetRow(s, top, header...)
	last := xlsx.CellName(len(header)-1, top)
	w.SetStyle(s, fmt.Sprintf("A%d", top), last, xlsx.Bold)
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
		w.SetRow(s, row, out...)
	}
	for j, t := range p.Types {
		line(top+1+j, t.Name, joinInts(r.Capacity[j]), r.ByType[j])
	}
	line(top+1+len(p.Types), "all", "", r.All)
	w.ColWidths(s, 0, 28, 20)
	w.FreezeRows(s, top)
}

func writePerServer(w *xlsx.Book, s string, r *Report) {
	p, n := r.Params, r.Replications
	w.SetCell(s, "A1", resultsMark+": figures per server")
	w.SetStyle(s, "A1", "A1", xlsx.Bold)
	header := []any{"Server"}
	header = append(header, headersWithCI(n, "", "Requests", "Failed", "Waited", "Waited (%)", "Mean wait (s)")[1:]...)
	for _, t := range p.Types {
		header = append(header, t.Name+" capacity")
		header = append(header, headersWithCI(n, "", t.Name+" requests", t.Name+" failed", t.Name+" waited",
			t.Name+" waited (%)")[1:]...)
	}
	w.SetRow(s, 3, header...)
	last := xlsx.CellName(len(header)-1, 3)
	w.SetStyle(s, "A3", last, xlsx.Bold)
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
		w.SetRow(s, 4+i, row...)
	}
	w.FreezeRows(s, 3)
}

func writeChart(w *xlsx.Book, s string, r *Report) {
	p := r.Params
	w.SetCell(s, "A1", resultsMark+": share of requests that waited (%), per type and server")
	w.SetStyle(s, "A1", "A1", xlsx.Bold)
	header := []any{"Server"}
	for _, t := range p.Types {
		header = append(header, t.Name)
	}
	w.SetRow(s, 3, header...)
	for i := range p.Servers {
		row := []any{"server " + strconv.Itoa(i)}
		for j := range p.Types {
			row = append(row, r.Cells[j][i].Mean.WaitedPercent)
		}
		w.SetRow(s, 4+i, row...)
	}
	lastRow := 3 + p.Servers
	var series []xlsx.Series
	for j := range p.Types {
		series = append(series, xlsx.Series{
			Name:       xlsx.AbsRange(s, j+1, 3, 3),
			Categories: xlsx.AbsRange(s, 0, 4, lastRow),
			Values:     xlsx.AbsRange(s, j+1, 4, lastRow),
		})
	}
	w.AddChart(s, xlsx.ColumnName(len(p.Types)+2)+"3", xlsx.Chart{
		Kind: xlsx.ColumnChart, Series: series, Width: 720, Height: 400, Legend: "bottom",
		Title: "Requests that waited (%), per type and server", XTitle: "server", YTitle: "waited (%)",
	})
	w.ColWidths(s, 0, 12)
}

// NewResultsWorkbook returns a new workbook holding the parameters of r
// (Settings, RequestTypes) and its result sheets: what --out writes.
func NewResultsWorkbook(r *Report) (*xlsx.Book, error) {
	f, err := NewParametersWorkbook(r.Params)
	if err != nil {
		return nil, err
	}
	if _, err := WriteResults(f, r); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
