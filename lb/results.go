package lb

import (
	"fmt"
	"math"
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

// ResultSheets are the names of the sheets lb writes into a workbook,
// which a later write replaces.
func ResultSheets() []string { return slices.Clone(resultSheets) }

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
	placeholder, err := b.ReplaceOwned(resultSheets...)
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
	// A result sheet keeps the name it had ("LBSummary (websim)") when no
	// sheet has taken it, as websim run's do.
	names := ResultNames{b.NameFor(existing, SummarySheet), b.NameFor(existing, PerServerSheet),
		b.NameFor(existing, ChartSheet)}
	for _, name := range names.list() {
		b.NewSheet(name)
	}
	writeSummary(b, names.Summary, r)
	writePerServer(b, names.PerServer, r)
	writeChart(b, names.Chart, r)
	if placeholder != "" {
		b.DeleteSheet(placeholder)
	}
	// The workbook opens on the results, not on the parameters.
	b.SetActiveSheet(slices.Index(b.Sheets(), names.Summary))
	if err := b.Err(); err != nil {
		return names, err
	}
	return names, b.MarkOwned(names.list()...)
}

// cell is one figure of a results row with its number format.
type cell struct {
	v      any
	format xlsx.Style
}

// withCI appends the value and, with several replications, its half-width,
// both in format.
func withCI(row []cell, reps int, v, hw float64, format xlsx.Style) []cell {
	row = append(row, cell{v, format})
	if reps > 1 {
		row = append(row, cell{hw, format})
	}
	return row
}

func headersWithCI(reps int, names ...string) []string {
	var out []string
	for i, n := range names {
		out = append(out, n)
		if reps > 1 && i > 0 {
			out = append(out, n+" ± 95%")
		}
	}
	return out
}

// writeRows writes a header (the Header style, wrapped, frozen with the
// first column) and rows of cells in their formats from row top, and
// widens the columns to their headers' words.
func writeRows(w *xlsx.Book, s string, top int, header []string, rows [][]cell) {
	for i, h := range header {
		w.SetCell(s, xlsx.CellName(i, top), h)
		width := 10.0
		for _, word := range strings.Fields(h) {
			width = max(width, float64(len(word))+2)
		}
		for _, row := range rows {
			if i < len(row) {
				width = max(width, float64(shownWidth(row[i]))+2)
			}
		}
		w.ColWidths(s, i, width)
	}
	w.SetStyle(s, xlsx.CellName(0, top), xlsx.CellName(len(header)-1, top), xlsx.Header)
	w.RowHeight(s, top, 45)
	for r, row := range rows {
		for i, c := range row {
			ref := xlsx.CellName(i, top+1+r)
			w.SetCell(s, ref, c.v)
			if c.format != xlsx.Text {
				w.SetStyle(s, ref, ref, c.format)
			}
		}
	}
	w.FreezePanes(s, 1, top)
}

// writeSummary writes the figures per type from A1, then any overload in
// words, then the parameters of the run.
func writeSummary(w *xlsx.Book, s string, r *Report) {
	p, n := r.Params, r.Replications
	header := headersWithCI(n, "Type", "Requests", "Share", "Failed", "Waited", "Waited (share)",
		"Total wait (s)", "Wait / service", "Mean wait (s)", "P95 wait (s)")
	header = append(header[:1], append([]string{"Capacity per server"}, header[1:]...)...)
	line := func(name, capacity string, e Estimate) []cell {
		m, h := e.Mean, e.HalfWidth
		out := []cell{{name, xlsx.Text}, {capacity, xlsx.Text}}
		out = withCI(out, n, m.Requests, h.Requests, xlsx.Count)
		out = withCI(out, n, m.Share, h.Share, xlsx.Share)
		out = withCI(out, n, m.Failed, h.Failed, xlsx.Count)
		out = withCI(out, n, m.Waited, h.Waited, xlsx.Count)
		out = withCI(out, n, m.WaitedPercent/100, h.WaitedPercent/100, xlsx.Share)
		out = withCI(out, n, m.TotalWait, h.TotalWait, xlsx.Time)
		out = withCI(out, n, m.WaitShareOfService, h.WaitShareOfService, xlsx.Share)
		out = withCI(out, n, m.MeanWait, h.MeanWait, xlsx.Time)
		out = withCI(out, n, m.P95Wait, h.P95Wait, xlsx.Time)
		return out
	}
	var rows [][]cell
	for j, t := range p.Types {
		rows = append(rows, line(t.Name, joinInts(r.Capacity[j]), r.ByType[j]))
	}
	rows = append(rows, line("all", "", r.All))
	writeRows(w, s, 1, header, rows)
	capWidth := 10
	for j := range p.Types {
		capWidth = max(capWidth, len(joinInts(r.Capacity[j]))+2)
	}
	w.ColWidths(s, 1, float64(capWidth))
	row := len(rows) + 3
	for _, o := range r.Overloads() {
		w.SetCell(s, xlsx.CellName(0, row), o.String())
		w.SetStyle(s, xlsx.CellName(0, row), xlsx.CellName(0, row), xlsx.Warning)
		row++
	}
	row++
	w.SetCell(s, xlsx.CellName(0, row), resultsMark+": the run")
	w.SetStyle(s, xlsx.CellName(0, row), xlsx.CellName(0, row), xlsx.Title)
	note := "one replication"
	if n > 1 {
		note = fmt.Sprintf("mean over %d replications; ± 95%% is the half-width of the 95%% confidence interval (Student t)", n)
	}
	w.SetCell(s, xlsx.CellName(0, row+1), note)
	settings := []cell{
		{KeyServers, xlsx.Text}, {p.Servers, xlsx.Count}, {KeyRate, xlsx.Text}, {p.RequestsPerSec, xlsx.Number},
		{KeyRequests, xlsx.Text}, {p.Requests, xlsx.Count}, {KeyMethod, xlsx.Text}, {string(p.Method), xlsx.Text},
		{KeySeed, xlsx.Text}, {strconv.FormatUint(p.Seed, 10), xlsx.Text}, {"replications", xlsx.Text}, {n, xlsx.Count},
		{"simulated time (s)", xlsx.Text}, {r.SimulatedTime, xlsx.Time},
		{"observed arrival rate (/s)", xlsx.Text}, {r.All.Mean.ArrivalRate, xlsx.Time},
	}
	for i := 0; i < len(settings); i += 2 {
		r0 := row + 2 + i/2
		w.SetCell(s, xlsx.CellName(0, r0), settings[i].v)
		ref := xlsx.CellName(1, r0)
		w.SetCell(s, ref, settings[i+1].v)
		if f := settings[i+1].format; f != xlsx.Text {
			w.SetStyle(s, ref, ref, f)
		}
	}
	w.ColWidths(s, 0, 28)
}

// writePerServer writes the figures per server, and per type on each.
func writePerServer(w *xlsx.Book, s string, r *Report) {
	p, n := r.Params, r.Replications
	header := append([]string{"Server"}, headersWithCI(n, "", "Requests", "Failed", "Waited", "Waited (share)", "Mean wait (s)")[1:]...)
	for _, t := range p.Types {
		header = append(header, t.Name+" capacity")
		header = append(header, headersWithCI(n, "", t.Name+" requests", t.Name+" failed", t.Name+" waited",
			t.Name+" waited (share)")[1:]...)
	}
	var rows [][]cell
	for i, e := range r.PerServer {
		m, h := e.Mean, e.HalfWidth
		row := []cell{{i, xlsx.Text}}
		row = withCI(row, n, m.Requests, h.Requests, xlsx.Count)
		row = withCI(row, n, m.Failed, h.Failed, xlsx.Count)
		row = withCI(row, n, m.Waited, h.Waited, xlsx.Count)
		row = withCI(row, n, m.WaitedPercent/100, h.WaitedPercent/100, xlsx.Share)
		row = withCI(row, n, m.MeanWait, h.MeanWait, xlsx.Time)
		for j := range p.Types {
			c := r.Cells[j][i]
			row = append(row, cell{r.Capacity[j][i], xlsx.Count})
			row = withCI(row, n, c.Mean.Requests, c.HalfWidth.Requests, xlsx.Count)
			row = withCI(row, n, c.Mean.Failed, c.HalfWidth.Failed, xlsx.Count)
			row = withCI(row, n, c.Mean.Waited, c.HalfWidth.Waited, xlsx.Count)
			row = withCI(row, n, c.Mean.WaitedPercent/100, c.HalfWidth.WaitedPercent/100, xlsx.Share)
		}
		rows = append(rows, row)
	}
	writeRows(w, s, 1, header, rows)
}

func writeChart(w *xlsx.Book, s string, r *Report) {
	p := r.Params
	w.SetCell(s, "A1", resultsMark+": share of requests that waited, per type and server")
	w.SetStyle(s, "A1", "A1", xlsx.Title)
	header := []any{"Server"}
	for _, t := range p.Types {
		header = append(header, t.Name)
	}
	w.SetRow(s, 3, header...)
	w.SetStyle(s, "A3", xlsx.CellName(len(p.Types), 3), xlsx.Header)
	var waited []float64
	for i := range p.Servers {
		row := []any{"server " + strconv.Itoa(i)}
		for j := range p.Types {
			v := r.Cells[j][i].Mean.WaitedPercent / 100
			row = append(row, v)
			waited = append(waited, v)
		}
		w.SetRow(s, 4+i, row...)
	}
	if p.Servers > 0 && len(p.Types) > 0 {
		w.SetStyle(s, "B4", xlsx.CellName(len(p.Types), 3+p.Servers), xlsx.Share)
	}
	w.FreezeRows(s, 3)
	lastRow := 3 + p.Servers
	var series []xlsx.Series
	for j := range p.Types {
		series = append(series, xlsx.Series{
			Name:       xlsx.AbsRange(s, j+1, 3, 3),
			Categories: xlsx.AbsRange(s, 0, 4, lastRow),
			Values:     xlsx.AbsRange(s, j+1, 4, lastRow),
		})
	}
	// Below the frozen rows, which would hold its top while the rest
	// scrolls.
	w.AddChart(s, xlsx.ColumnName(len(p.Types)+2)+"4", xlsx.Chart{
		Kind: xlsx.ColumnChart, Series: series, Width: 720, Height: 400, Legend: "bottom",
		Title: "Requests that waited, per type and server", XTitle: "Server", YTitle: "Waited (share of requests)",
		YFormat: shareFormat(waited), Note: overloadNote(r),
	})
	w.ColWidths(s, 0, 12)
	// The data and the chart (720 × 400 px) on one landscape page.
	w.PrintCharts(s, "A1", xlsx.CellName(len(p.Types)+2+12, max(3+p.Servers, 3+21)))
}

// NewResultsWorkbook returns a new workbook holding the parameters of r
// (Settings, RequestTypes) and its result sheets: what --out writes.
func NewResultsWorkbook(r *Report) (*xlsx.Book, error) {
	f, err := NewParametersWorkbook(r.Params)
	if err != nil {
		return nil, err
	}
	params := f.Sheets()
	if _, err := WriteResults(f, r); err != nil {
		f.Close()
		return nil, err
	}
	// Every sheet of it is websim's: run again with the same --out, it
	// is replaced whole (unless the user changed it since).
	if err := f.MarkOwned(params...); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// shareFormat is a percent format with the decimals the shares need.
func shareFormat(xs []float64) string {
	hi := 0.0
	for _, x := range xs {
		hi = max(hi, x)
	}
	switch {
	case hi >= 0.2:
		return "0%"
	case hi >= 0.02:
		return "0.0%"
	}
	return "0.00%"
}

// overloadNote is the chart's note when a type is overloaded, else "".
func overloadNote(r *Report) string {
	os := r.Overloads()
	if len(os) == 0 {
		return ""
	}
	var types []string
	for _, o := range os {
		types = append(types, o.Type)
	}
	return "Overloaded (" + strings.Join(types, ", ") + "): queues grow with the run; see " + SummarySheet
}

// shownWidth is about how many characters a cell shows in its format
// (1,234,567.890 for Time), so that no column shows ###.
func shownWidth(c cell) int {
	x, ok := c.v.(float64)
	if !ok {
		return len(fmt.Sprint(c.v))
	}
	digits := len(strconv.FormatFloat(math.Abs(math.Trunc(x)), 'f', 0, 64))
	n := digits + (digits-1)/3 + 1 // separators and a sign
	switch c.format {
	case xlsx.Time:
		n += 4
	case xlsx.Share:
		n = len(strconv.FormatFloat(math.Abs(x)*100, 'f', 1, 64)) + 2
	}
	return n
}
