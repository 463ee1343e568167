package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// ValidationSheet is the sheet that sets the model's Measured rows beside
// the simulated figures; it is written only when the model has a Measured
// sheet with rows.
const ValidationSheet = "Validation"

// validationColumns are the Validation sheet's columns: those of every row
// about a run (Scenario, Load, Stable, Unstable reason: a run without a
// steady state is seen as such before its figures are read), then the
// measure and the figures, each a time or a share by its row.
var validationColumns = append(append([]column{}, runColumns...), []column{
	{"Entity", fText}, {"Measure", fText}, {"Unit", fText},
	{"Measured", fNumber}, {"Simulated", fNumber}, {"± 95%", fNumber},
	{"Low 95%", fNumber}, {"High 95%", fNumber},
	{"Relative difference (÷ measured)", fSigned}, {"Inside 95%", fText}, {"Note", fText},
}...)

// validationGap is how many empty rows stand between the table and the
// chart data below it.
const validationGap = 2

// measuredColour draws the measured figures in the charts: dark, apart
// from the simulated lines' colours.
const measuredColour = "1F1F1F"

// allRequests is how the sheet names the figures of all requests.
const allRequests = "all requests"

// writeValidation adds the Validation sheet to b when the study has
// Measured rows, and returns its name ("" when there is none): a row per
// run × Measured row of its load (measured, simulated, the simulated
// figure's 95% interval where the run has one, the difference in percent
// of the measured figure, whether the measured figure lies inside the
// interval, and why not when that cannot be said), then, below it, one
// native line chart per measure: the measured figure and each scenario's
// simulated one against load.
func writeValidation(b *xlsx.Book, s *study.Study) (string, error) {
	if len(s.Measured) == 0 {
		return "", nil
	}
	name := xlsx.FreeName(b.Sheets(), ValidationSheet)
	if err := b.NewSheet(name); err != nil {
		return "", err
	}
	var rows [][]any
	var unstable []bool
	times, halfWidths := timeStyles(s.Runs)
	for i := range s.Runs {
		run := &s.Runs[i]
		for _, c := range study.Validate(s.Measured, run) {
			rows = append(rows, validationRow(c, run, s.TimeUnit, times, halfWidths))
			unstable = append(unstable, !run.Result.Stable)
		}
	}
	if err := runTable(b, name, validationColumns, rows, unstable); err != nil {
		return "", err
	}
	if err := writeValidationCharts(b, name, s, 1+len(rows)); err != nil {
		return "", err
	}
	return name, b.Err()
}

// validationRow is one row of the Validation sheet.
func validationRow(c study.Comparison, run *study.Run, unit string, times, halfWidths xlsx.Style) []any {
	entity := c.Entity
	if entity == "" {
		entity = allRequests
	}
	what := unit
	if c.IsShare() {
		what = "share"
	}
	low, high, inside := any(nil), any(nil), any(nil)
	if in, known := c.Inside(); known {
		low, high = c.Simulated-c.HalfWidth95, c.Simulated+c.HalfWidth95
		if c.IsShare() {
			low, high = max(low.(float64), 0), min(high.(float64), 1)
		}
		inside = "no"
		if in {
			inside = "yes"
		}
	}
	note := c.Why
	if math.IsNaN(c.Simulated) && note == "" {
		note = "the run has no such figure"
	}
	// Each figure is a time or a share by its row, and grey and struck
	// through when the run is not stable.
	// The half-width in the style of Summary's: two significant digits of
	// the typical half-width (a share's, two decimals of a percent).
	style, hwStyle := times, halfWidths
	if c.IsShare() {
		style, hwStyle = xlsx.Share, xlsx.Percent2
	}
	diffStyle := fSigned // -21.7%: a share's format would drop the sign
	if !run.Result.Stable {
		style, hwStyle, diffStyle = style|xlsx.Muted, hwStyle|xlsx.Muted, diffStyle|xlsx.Muted
	}
	styled := func(v any, st xlsx.Style) any {
		if f, ok := v.(float64); v == nil || ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return nil
		}
		return xlsx.Styled{Value: v, Style: st}
	}
	figure := func(v any) any { return styled(v, style) }
	diff := any(nil)
	if d := c.DifferencePercent(); !math.IsNaN(d) {
		diff = xlsx.Styled{Value: d / 100, Style: diffStyle}
	}
	return append(runCells(run), entity, c.What(), what,
		figure(c.Value), figure(c.Simulated), styled(c.HalfWidth95, hwStyle), figure(low), figure(high), diff, inside, note)
}

// validationGroup is one chart: a measure of an entity (or of all
// requests, or a server's utilization).
type validationGroup struct {
	entity, what string
	share        bool
}

// figure names the group's figure: "Mean response", "Failed share",
// "Utilization of GWay".
func (g validationGroup) figure() string {
	if server, ok := strings.CutPrefix(g.what, string(study.MeasureUtilization)+":"); ok {
		return "Utilization of " + server
	}
	name := strings.ToUpper(g.what[:1]) + g.what[1:]
	if g.share {
		return name + " share"
	}
	return name + " response"
}

func (g validationGroup) title() string {
	if g.entity == "" && strings.HasPrefix(g.what, string(study.MeasureUtilization)+":") {
		return g.figure() + ": measured and simulated"
	}
	who := g.entity
	if who == "" {
		who = allRequests
	}
	return g.figure() + " of " + who + ": measured and simulated"
}

// writeValidationCharts writes, below the table (tableRows rows, header
// included) and from a printed page of their own, one data block per
// measure (a title row, a header row "Load, Measured, Simulated
// (scenario)...", a row per load) and a line chart of each block beside
// it: printed one page wide, the table and the charts then keep a size
// that can be read, where side by side they shrank to a few points. The
// simulated figure is given at every load; a load without a measured
// figure, and a run that is not stable or has no such figure, leave their
// cells blank: a gap in the line.
func writeValidationCharts(b *xlsx.Book, sheet string, s *study.Study, tableRows int) error {
	times, _ := timeStyles(s.Runs)
	var groups []validationGroup
	rep := map[validationGroup]study.Measured{} // the group's first row
	measured := map[validationGroup]map[string]float64{}
	for _, m := range s.Measured {
		g := validationGroup{entity: m.Entity, what: m.What(), share: m.IsShare()}
		if measured[g] == nil {
			groups = append(groups, g)
			rep[g] = m
			measured[g] = map[string]float64{}
		}
		if _, seen := measured[g][m.Load]; !seen {
			measured[g][m.Load] = m.Value
		}
	}
	// The simulated figure at every load, measured there or not, so that
	// the simulated line runs over all the loads.
	simulated := map[validationGroup]map[[2]string]float64{}
	for _, g := range groups {
		simulated[g] = map[[2]string]float64{}
		for i := range s.Runs {
			run := &s.Runs[i]
			if !run.Result.Stable {
				continue
			}
			m := rep[g]
			m.Load = run.Load
			if c := study.Validate([]study.Measured{m}, run); len(c) == 1 && !math.IsNaN(c[0].Simulated) {
				simulated[g][[2]string{run.Scenario, run.Load}] = c[0].Simulated
			}
		}
	}
	// One line for the measured figures, one per scenario: at most
	// xlsx.MaxSeries in all.
	scenarios := s.Scenarios[:min(len(s.Scenarios), xlsx.MaxSeries-1)]
	const first = 0 // the data blocks' column: A, under the table
	chartCol := first + len(scenarios) + 3
	block := max(chartRows+1, len(s.Loads)+3) // the chart starts a row down
	start := tableRows + 1 + validationGap    // the first block's title row
	// Gaps too many to name in the notes are listed below the last chart.
	gaps := chartGaps(runsByKey(s), s.Loads, scenarios)
	end := start + len(groups)*block // the last row printed
	listed := gapList(b, sheet, end, "the charts", gaps)
	if listed != "" {
		end += len(gaps)
	}
	var notes []string
	if n := chartNote(gaps, listed, false); n != "" {
		notes = append(notes, n)
	}
	if len(scenarios) < len(s.Scenarios) {
		notes = append(notes, fmt.Sprintf("the first %d scenarios; the table has them all", len(scenarios)))
	}
	b.PageBreakBefore(sheet, start)
	u := unitSuffix(s.TimeUnit)
	for k, g := range groups {
		top := start + k*block
		title := g.title()
		cell := func(col, row int) string { return xlsx.CellName(first+col, row) }
		b.SetCell(sheet, cell(0, top), title+" (chart data)")
		b.SetStyle(sheet, cell(0, top), cell(0, top), xlsx.Title)
		hdr := top + 1
		b.SetCell(sheet, cell(0, hdr), "Load")
		b.SetCell(sheet, cell(1, hdr), "Measured")
		for j, sc := range scenarios {
			label := "Simulated"
			if len(s.Scenarios) > 1 {
				label = "Simulated (" + sc + ")"
			}
			b.SetCell(sheet, cell(j+2, hdr), label)
		}
		b.SetStyle(sheet, cell(0, hdr), cell(len(scenarios)+1, hdr), xlsx.Header)
		firstRow, lastRow := hdr+1, hdr+len(s.Loads)
		for i, load := range s.Loads {
			b.SetCell(sheet, cell(0, firstRow+i), loadLabel(load, rateAt(s, i), s.TimeUnit))
			if v, ok := measured[g][load]; ok {
				b.SetCell(sheet, cell(1, firstRow+i), v)
			}
			for j, sc := range scenarios {
				if v, ok := simulated[g][[2]string{sc, load}]; ok {
					b.SetCell(sheet, cell(j+2, firstRow+i), v)
				}
			}
		}
		var drawn []float64 // the figures the chart draws, for its axis format
		for _, load := range s.Loads {
			if v, ok := measured[g][load]; ok {
				drawn = append(drawn, v)
			}
			for _, sc := range scenarios {
				if v, ok := simulated[g][[2]string{sc, load}]; ok {
					drawn = append(drawn, v)
				}
			}
		}
		numFmt, axis, yMax := times, g.figure()+u, 0.0
		if g.share {
			numFmt, axis = xlsx.Share, g.figure()
		}
		if strings.HasPrefix(g.what, string(study.MeasureUtilization)) {
			yMax = 1 // a utilization ends at 100%, as in Charts
		}
		yFmt := axisFormat(axisSpan(drawn, yMax), g.share)
		if len(s.Loads) == 0 {
			continue
		}
		b.SetStyle(sheet, cell(1, firstRow), cell(len(scenarios)+1, lastRow), numFmt)
		series := []xlsx.Series{}
		for j := 0; j <= len(scenarios); j++ {
			series = append(series, xlsx.Series{
				Name:       xlsx.AbsRange(sheet, first+1+j, hdr, hdr),
				Categories: xlsx.AbsRange(sheet, first, firstRow, lastRow),
				Values:     xlsx.AbsRange(sheet, first+1+j, firstRow, lastRow),
			})
		}
		// The measured figures stand out: dark, dashed, with large
		// circles drawn first, so that where a simulated figure meets the
		// measured one its marker shows inside a dark ring (a hollow
		// marker drawn last would do, but LibreOffice fills it); each
		// scenario keeps the colour and marker it has in Charts.
		series[0].Color, series[0].Dash, series[0].Marker, series[0].MarkerSize = measuredColour, xlsx.Dashed, "circle", 11
		for j := range scenarios {
			series[j+1].Color, series[j+1].Marker = xlsx.Palette[j%len(xlsx.Palette)], xlsx.MarkerShapes[j%len(xlsx.MarkerShapes)]
		}
		// The chart stands a row below the block's title, which runs on
		// to its right.
		if err := b.AddChart(sheet, xlsx.CellName(chartCol, top+1), xlsx.Chart{
			Kind: xlsx.LineChart, Series: series, Markers: true,
			Title: title, Note: strings.Join(notes, "; "), XTitle: "Load (arrival rate" + rateUnit(s.TimeUnit) + ")", YTitle: axis, YFormat: yFmt,
			Width: chartWidth, Height: chartHeight, Legend: "bottom", YFromZero: true, YMax: yMax,
			AltText: title + " against load: the measured figure and one line per scenario",
		}); err != nil {
			return fmt.Errorf("chart %q: %w", title, err)
		}
	}
	// Wide enough that no header wraps out of its row; the table's own
	// columns there keep their width when it is wider.
	widen := func(col int, w float64) {
		if have, err := b.ColWidth(sheet, col); err != nil || have < w {
			b.ColWidths(sheet, col, w)
		}
	}
	widen(first, 14)
	widen(first+1, 12)
	for j, sc := range scenarios {
		w := 12
		if len(s.Scenarios) > 1 {
			w = max(w, len("Simulated ()")+len(sc)+2)
		}
		widen(first+2+j, float64(w))
	}
	// Printed landscape, one page wide: the table, then the data and the
	// charts from a page of their own.
	last := xlsx.CellName(max(chartCol+chartCols, len(validationColumns)-1), end)
	b.PrintCharts(sheet, "A1", last)
	return b.Err()
}

// JSONMeasured is a Measured row beside a run's figure (contract section
// 5, runs[].measured); differencePercent, inside, note and the row's
// server and cell are extras. ciHalfWidth95 and inside are null when the
// run has no interval for the figure.
type JSONMeasured struct {
	Entity            string `json:"entity"`
	Measure           string `json:"measure"`
	Measured          Number `json:"measured"`
	Simulated         Number `json:"simulated"`
	CIHalfWidth95     Number `json:"ciHalfWidth95"`
	DifferencePercent Number `json:"differencePercent"`
	Inside            *bool  `json:"inside"`
	Note              string `json:"note,omitempty"`
	Cell              string `json:"cell,omitempty"`
}

// jsonMeasured converts compared rows; never nil, so that JSON has [].
func jsonMeasured(cs []study.Comparison) []JSONMeasured {
	out := []JSONMeasured{}
	for _, c := range cs {
		jm := JSONMeasured{
			Entity: c.Entity, Measure: c.What(), Measured: Number(c.Value), Simulated: Number(c.Simulated),
			CIHalfWidth95: Number(c.HalfWidth95), DifferencePercent: Number(c.DifferencePercent()),
			Note: c.Why, Cell: c.Cell,
		}
		if in, known := c.Inside(); known {
			jm.Inside = &in
		}
		out = append(out, jm)
	}
	return out
}

// ValidationLines are the Validation sheet's rows in words, one a line,
// for the console: "Base L5, mean response of all requests: measured 10,
// simulated 9.922 ± 0.351 (-0.8%): inside" (OUTSIDE when it is not, or
// why there is no interval). Empty when the study has no Measured rows.
func ValidationLines(s *study.Study) []string {
	var out []string
	for i := range s.Runs {
		run := &s.Runs[i]
		for _, c := range study.Validate(s.Measured, run) {
			g := validationGroup{entity: c.Entity, what: c.What(), share: c.IsShare()}
			who := ""
			if !strings.HasPrefix(c.What(), string(study.MeasureUtilization)+":") {
				who = " of " + allRequests
				if c.Entity != "" {
					who = " of " + c.Entity
				}
			}
			figure := func(v float64, digits int) string {
				if c.IsShare() {
					return fmt.Sprintf("%.*g%%", digits, 100*v)
				}
				return fmt.Sprintf("%.*g", digits, v)
			}
			name := g.figure()
			name = strings.ToLower(name[:1]) + name[1:]
			line := fmt.Sprintf("%s %s, %s%s: measured %s, simulated ", run.Scenario, run.Load, name, who, figure(c.Value, 4))
			if math.IsNaN(c.Simulated) {
				out = append(out, line+"none: "+c.Why)
				continue
			}
			line += figure(c.Simulated, 4)
			if !math.IsNaN(c.HalfWidth95) {
				line += " ± " + figure(c.HalfWidth95, 3)
			}
			if d := c.DifferencePercent(); !math.IsNaN(d) {
				line += fmt.Sprintf(" (%+.1f%%)", d)
			}
			switch in, known := c.Inside(); {
			case !known:
				line += "; " + c.Why
			case in:
				line += ": inside"
			default:
				line += ": OUTSIDE"
			}
			out = append(out, line)
		}
	}
	return out
}

// runsByKey indexes the study's runs by scenario and load.
func runsByKey(s *study.Study) map[[2]string]*study.Run {
	runs := map[[2]string]*study.Run{}
	for i := range s.Runs {
		runs[[2]string{s.Runs[i].Scenario, s.Runs[i].Load}] = &s.Runs[i]
	}
	return runs
}
