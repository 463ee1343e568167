package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// metric is one measure charted against load.
type metric struct {
	// name names the measure in a chart's title, axis its y axis.
	name, axis string
	percent    bool
	// always: the chart is drawn even when every value is 0.
	always bool
	value  func(r *engine.Result) any
}

func chartMetrics(unit string) []metric {
	u := unitSuffix(unit)
	return []metric{
		{"mean response time", "Mean response" + u, false, true, func(r *engine.Result) any { return responseOrNil(r, r.Response.Mean) }},
		{"95th percentile of response time", "P95 response" + u, false, true, func(r *engine.Result) any { return responseOrNil(r, r.Response.P95) }},
		{"standard deviation of response time", "SD of response" + u, false, true, func(r *engine.Result) any { return responseOrNil(r, r.Response.SD) }},
		{"application-server utilization", "App utilization", true, false, func(r *engine.Result) any { return r.AppUtilization }},
		{"share of failed requests", "Failed requests", true, false, func(r *engine.Result) any { return share(r.Failed, finished(r)) }},
	}
}

// chartGroup is one group of scenarios drawn in the same charts.
type chartGroup struct {
	name      string
	scenarios []string
	// part and parts number the charts of a group split to keep to
	// xlsx.MaxSeries lines (1 of 1 when not split).
	part, parts int
}

// allScenarios names the one group of a study without chart groups, and
// otherScenarios the group of those left without a Chart cell.
const (
	allScenarios   = "All scenarios"
	otherScenarios = "Other scenarios"
)

// chartGroups lists the study's chart groups in the order they first
// appear, each split into parts of at most xlsx.MaxSeries scenarios.
func chartGroups(s *study.Study) []chartGroup {
	var order []string
	members := map[string][]string{}
	for _, sc := range s.Scenarios {
		groups := s.Charts[sc]
		if len(groups) == 0 {
			groups = []string{otherScenarios}
			if len(s.Charts) == 0 {
				groups = []string{allScenarios}
			}
		}
		for _, g := range groups {
			if _, ok := members[g]; !ok {
				order = append(order, g)
			}
			members[g] = append(members[g], sc)
		}
	}
	var out []chartGroup
	for _, g := range order {
		m := members[g]
		parts := (len(m) + xlsx.MaxSeries - 1) / xlsx.MaxSeries
		// Split evenly: 10 scenarios make 5 + 5, not 8 + 2.
		per := (len(m) + parts - 1) / parts
		for p := range parts {
			out = append(out, chartGroup{name: g, scenarios: m[p*per : min((p+1)*per, len(m))], part: p + 1, parts: parts})
		}
	}
	return out
}

// title is the group's part of a chart title: "Figure 7, 10 servers",
// "All scenarios (1 of 2)".
func (g chartGroup) title() string {
	if g.parts > 1 {
		return fmt.Sprintf("%s (%d of %d)", g.name, g.part, g.parts)
	}
	return g.name
}

// Chart sizes and the grid they stand in, to the right of the data: a row
// of charts per group, a chart per measure across.
const (
	chartWidth     = 520
	chartHeight    = 300
	chartRows      = 16 // rows of 20 px a chart takes, a gap included
	chartCols      = 8  // columns of chartColWidth a chart takes, a gap included
	chartColWidth  = 9.5
	dataColWidth   = 12
	loadColWidth   = 16
	maxNoteEntries = 4
)

// writeCharts writes one data block per measure (a title row, a header row
// "Load, scenario...", a row per load labelled with its arrival rate) down
// column A, and to the right a line chart per chart group and measure. A
// run that is unstable, or that has no value, leaves its cell blank: a gap
// in its line, named in the chart's note. A measure whose values are all
// 0 or blank (no failures) gets no chart.
func writeCharts(b *xlsx.Book, sheet string, s *study.Study) error {
	runs := map[[2]string]*study.Run{}
	for i := range s.Runs {
		runs[[2]string{s.Runs[i].Scenario, s.Runs[i].Load}] = &s.Runs[i]
	}
	scCol := map[string]int{}
	for j, sc := range s.Scenarios {
		scCol[sc] = j + 1 // 0-based column of the scenario in every block
	}
	groups := chartGroups(s)
	firstChartCol := len(s.Scenarios) + 3 // a blank column after the data
	row := 1
	for k, m := range chartMetrics(s.TimeUnit) {
		title := strings.ToUpper(m.name[:1]) + m.name[1:]
		b.SetCell(sheet, cellName(1, row), title+" (chart data)")
		b.SetStyle(sheet, cellName(1, row), cellName(1, row), xlsx.Title)
		hdr := row + 1
		b.SetCell(sheet, cellName(1, hdr), "Load (arrival rate)")
		for j, sc := range s.Scenarios {
			b.SetCell(sheet, cellName(j+2, hdr), sc)
		}
		b.SetStyle(sheet, cellName(1, hdr), cellName(len(s.Scenarios)+1, hdr), xlsx.Header)
		first, last := hdr+1, hdr+len(s.Loads)
		values := map[string][]float64{} // per scenario, the values drawn
		for i, load := range s.Loads {
			b.SetCell(sheet, cellName(1, first+i), loadLabel(load, rateAt(s, i), s.TimeUnit))
			for j, sc := range s.Scenarios {
				run := runs[[2]string{sc, load}]
				if run == nil || !run.Result.Stable {
					continue
				}
				v := m.value(&run.Result)
				b.SetCell(sheet, cellName(j+2, first+i), v)
				if x, ok := v.(float64); ok && !math.IsNaN(x) && !math.IsInf(x, 0) {
					values[sc] = append(values[sc], x)
				}
			}
		}
		numFmt := xlsx.Time
		if m.percent {
			numFmt = xlsx.Share
		}
		if len(s.Loads) > 0 && len(s.Scenarios) > 0 {
			b.SetStyle(sheet, cellName(2, first), cellName(len(s.Scenarios)+1, last), numFmt)
		}
		if err := b.Err(); err != nil {
			return err
		}
		for gi, g := range groups {
			if len(s.Loads) == 0 {
				break
			}
			var series []xlsx.Series
			var drawn []float64
			for _, sc := range g.scenarios {
				col := scCol[sc]
				series = append(series, xlsx.Series{
					Name:       xlsx.AbsRange(sheet, col, hdr, hdr),
					Categories: xlsx.AbsRange(sheet, 0, first, last),
					Values:     xlsx.AbsRange(sheet, col, first, last),
				})
				drawn = append(drawn, values[sc]...)
			}
			if !m.always && allZero(drawn) {
				continue
			}
			chartTitle := title
			if g.name != allScenarios || g.parts > 1 {
				chartTitle = g.title() + ": " + m.name
			}
			anchor := cellName(firstChartCol+k*chartCols, 1+gi*chartRows)
			if err := b.AddChart(sheet, anchor, xlsx.Chart{
				Kind: xlsx.LineChart, Series: series, Markers: true,
				Title: chartTitle, Note: chartNote(s, runs, g),
				XTitle: "Load (arrival rate" + rateUnit(s.TimeUnit) + ")", YTitle: m.axis, YFormat: axisFormat(drawn, m.percent),
				Width: chartWidth, Height: chartHeight, Legend: "right",
				AltText: chartTitle + " against load, one line per scenario",
			}); err != nil {
				return fmt.Errorf("chart %q: %w", chartTitle, err)
			}
		}
		row = last + 2
	}
	b.ColWidths(sheet, 0, loadColWidth)
	for j := range s.Scenarios {
		b.ColWidths(sheet, j+1, dataColWidth)
	}
	for j := range len(chartMetrics(s.TimeUnit)) * chartCols {
		b.ColWidths(sheet, firstChartCol-1+j, chartColWidth)
	}
	return b.Err()
}

// chartNote says which points of a group's charts are gaps because their
// run was not stable, and why the group was split; "" when neither.
func chartNote(s *study.Study, runs map[[2]string]*study.Run, g chartGroup) string {
	var gaps []string
	for _, sc := range g.scenarios {
		var loads []string
		for _, load := range s.Loads {
			if r := runs[[2]string{sc, load}]; r != nil && !r.Result.Stable {
				loads = append(loads, load)
			}
		}
		if len(loads) > 0 {
			gaps = append(gaps, sc+" at "+strings.Join(loads, ", "))
		}
	}
	var notes []string
	if len(gaps) > 0 {
		if len(gaps) > maxNoteEntries {
			gaps = append(gaps[:maxNoteEntries], "…")
		}
		notes = append(notes, "Gaps: not stable, no steady state ("+strings.Join(gaps, "; ")+")")
	}
	if g.parts > 1 {
		notes = append(notes, fmt.Sprintf("the group is split, %d lines a chart at most", xlsx.MaxSeries))
	}
	return strings.Join(notes, "; ")
}

// allZero is true when no value is other than 0 (or there are none).
func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

// axisFormat is a number format for an axis over values: as many decimals
// as the step between axis labels (about a fifth of the values' span)
// needs to tell the labels apart, no more: "#,##0" for response times of
// hundreds of ms, "0.0%" for failure shares between 2% and 3%.
func axisFormat(values []float64, percent bool) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	scale := 1.0
	if percent {
		scale = 100
	}
	step := (hi - lo) * scale / 5
	if !(step > 0) { // one value: enough decimals for it
		step = math.Abs(hi) * scale / 2
	}
	decimals := 0
	if step > 0 && !math.IsInf(step, 0) {
		decimals = min(max(0, int(math.Ceil(-math.Log10(step)))), 4)
	}
	frac := ""
	if decimals > 0 {
		frac = "." + strings.Repeat("0", decimals)
	}
	if percent {
		return "0" + frac + "%"
	}
	return "#,##0" + frac
}

// rateAt is the arrival rate of the i-th load, NaN when not known.
func rateAt(s *study.Study, i int) float64 {
	if i < len(s.ArrivalRates) {
		return s.ArrivalRates[i]
	}
	return math.NaN()
}

// perSecond is true for a time unit whose rates read better per second:
// 0.05 requests per ms is 50/s.
func perSecond(unit string) bool { return unit == "ms" }

// rateUnit is the unit of an arrival rate: " per s", " per min".
func rateUnit(unit string) string {
	switch {
	case perSecond(unit):
		return ", per s"
	case unit == "":
		return ", per time unit"
	}
	return ", per " + unit
}

// loadLabel is a load's label with its arrival rate: "L5 (50/s)".
func loadLabel(load string, rate float64, unit string) string {
	if math.IsNaN(rate) || math.IsInf(rate, 0) {
		return load
	}
	per := "/" + unit
	if perSecond(unit) {
		rate, per = rate*1000, "/s"
	} else if unit == "" {
		per = "/time unit"
	}
	return load + " (" + formatRate(rate) + per + ")"
}

// formatRate prints a rate with three significant digits and no exponent:
// 50, 12.5, 0.833, 1250.
func formatRate(r float64) string {
	if r >= 100 {
		return strconv.FormatFloat(math.Round(r), 'f', -1, 64)
	}
	return strconv.FormatFloat(roundSig(r, 3), 'f', -1, 64)
}

// roundSig rounds x to n significant digits.
func roundSig(x float64, n int) float64 {
	if x == 0 {
		return 0
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// cellName is the A1 name of the 1-based column col in row.
func cellName(col, row int) string { return xlsx.CellName(col-1, row) }
