package report

import (
	"fmt"
	"math"
	"slices"
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
	// max ends the y axis (1 for a utilization), 0 for Excel's choice;
	// every axis starts at 0.
	max float64
	// entity names the request type a measure is of ("" for all
	// requests): its chart's note names the loads where it does not
	// arrive and the runs where none of its requests completed.
	entity string
}

func chartMetrics(unit string) []metric {
	u := unitSuffix(unit)
	return []metric{
		{"mean response time", "Mean" + u, false, true, func(r *engine.Result) any { return responseOrNil(r, r.Response.Mean) }, 0, ""},
		{"95th percentile of response time", "P95" + u, false, true, func(r *engine.Result) any { return responseOrNil(r, r.Response.P95) }, 0, ""},
		{"standard deviation of response time", "SD" + u, false, true, func(r *engine.Result) any { return responseOrNil(r, r.Response.SD) }, 0, ""},
		{"application-server utilization", "Utilization", true, false, func(r *engine.Result) any { return r.AppUtilization }, 1, ""},
		{"share of failed requests", "Failed share", true, false, func(r *engine.Result) any { return share(r.Failed, finished(r)) }, 0, ""},
	}
}

// abandonedMetric is the share of requests whose users gave up (Patience),
// charted beside the failed share when any run abandoned a request.
var abandonedMetric = metric{"share of abandoned requests", "Abandoned share", true, false,
	func(r *engine.Result) any { return share(r.Abandoned, finished(r)) }, 0, ""}

// maxEntityCharts is the most entities whose mean response a group draws,
// a chart each: three rows of charts, the first of them in model order
// (the order of the Entities sheet, which has them all).
const maxEntityCharts = 6

// entityMetric is the mean response time of one entity's requests: blank
// at a load where it does not arrive or where none of its requests
// completed.
func entityMetric(unit, name string) metric {
	return metric{"mean response time of " + name + " requests", "Mean" + unitSuffix(unit), false, true, func(r *engine.Result) any {
		e := entityOf(r, name)
		if e == nil || e.Absent || e.Response.N == 0 {
			return nil
		}
		return e.Response.Mean
	}, 0, name}
}

// entityOf is the figures of the named entity in r, nil when r has none.
func entityOf(r *engine.Result, name string) *engine.EntityResult {
	for i := range r.Entities {
		if r.Entities[i].Name == name {
			return &r.Entities[i]
		}
	}
	return nil
}

// studyEntities names the study's entities (request types) in model order:
// those of its first run that has any.
func studyEntities(s *study.Study) []string {
	for _, run := range s.Runs {
		if len(run.Result.Entities) > 0 {
			var names []string
			for _, e := range run.Result.Entities {
				names = append(names, e.Name)
			}
			return names
		}
	}
	return nil
}

// anyAbandoned is true when a run of the study abandoned a request.
func anyAbandoned(s *study.Study) bool {
	for _, run := range s.Runs {
		if run.Result.Abandoned > 0 {
			return true
		}
	}
	return false
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

// groups lists the study's chart groups in the order they first
// appear, each split into parts of at most xlsx.MaxSeries scenarios.
func groups(s *study.Study) []chartGroup {
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

// Chart sizes and the grid they stand in, from A1: per chart group a
// heading row, then its charts two across; the data blocks stand to the
// right of the grid.
const (
	chartWidth    = 560
	chartHeight   = 300
	chartRows     = 16 // rows of 20 px a chart takes, a gap included
	chartCols     = 9  // columns of chartColWidth a chart takes, a gap included
	chartsAcross  = 2
	chartsPerPage = 2 // chart rows on a printed page (landscape, one page wide)
	chartColWidth = 11
	dataColWidth  = 12
	loadColWidth  = 16
)

// block is where one measure's data stand on the Charts sheet.
type block struct {
	m           metric
	hdr         int // 1-based row of the header
	first, last int // 1-based rows of the loads
	// values are, per scenario, the values drawn.
	values map[string][]float64
}

// writeCharts writes, from A1, per chart group a heading and a line chart
// per measure, and to the right one data block per measure (a title row,
// a header row "Load, scenario...", a row per load labelled with its
// arrival rate) that the charts draw. A run that is unstable, or that has
// no value, leaves its cell blank: a gap in its line, named in the chart's
// note. A measure whose values in a group are all 0 or blank (no failures)
// gets no chart there. The share of abandoned requests is a measure when
// any run abandoned one. A model of two or more entities gets, per group
// and from a page of its own under a heading, a chart of each entity's
// mean response (the first maxEntityCharts; the heading says so when
// there are more).
func writeCharts(b *xlsx.Book, sheet string, s *study.Study) error {
	times, _ := timeStyles(s.Runs) // as in Summary
	runs := map[[2]string]*study.Run{}
	for i := range s.Runs {
		runs[[2]string{s.Runs[i].Scenario, s.Runs[i].Load}] = &s.Runs[i]
	}
	dataCol := chartsAcross*chartCols + 2 // 1-based column of the blocks' Load
	scCol := map[string]int{}
	for j, sc := range s.Scenarios {
		scCol[sc] = dataCol + j // 0-based column of the scenario in every block
	}
	metrics := chartMetrics(s.TimeUnit)
	if anyAbandoned(s) {
		metrics = append(metrics, abandonedMetric)
	}
	entities := studyEntities(s)
	if len(entities) < 2 {
		entities = nil
	}
	for _, e := range entities[:min(len(entities), maxEntityCharts)] {
		metrics = append(metrics, entityMetric(s.TimeUnit, e))
	}
	var blocks []block
	row := 1
	for _, m := range metrics {
		bl := block{m: m, hdr: row + 1, first: row + 2, last: row + 1 + len(s.Loads), values: map[string][]float64{}}
		title := upperFirst(m.name)
		b.SetCell(sheet, cellName(dataCol, row), title+" (chart data)")
		b.SetStyle(sheet, cellName(dataCol, row), cellName(dataCol, row), xlsx.Title)
		b.SetCell(sheet, cellName(dataCol, bl.hdr), "Load (arrival rate)")
		for j, sc := range s.Scenarios {
			b.SetCell(sheet, cellName(dataCol+j+1, bl.hdr), sc)
		}
		b.SetStyle(sheet, cellName(dataCol, bl.hdr), cellName(dataCol+len(s.Scenarios), bl.hdr), xlsx.Header)
		for i, load := range s.Loads {
			b.SetCell(sheet, cellName(dataCol, bl.first+i), loadLabel(load, rateAt(s, i), s.TimeUnit))
			for j, sc := range s.Scenarios {
				run := runs[[2]string{sc, load}]
				if run == nil || !run.Result.Stable {
					continue
				}
				v := m.value(&run.Result)
				b.SetCell(sheet, cellName(dataCol+j+1, bl.first+i), v)
				if x, ok := v.(float64); ok && !math.IsNaN(x) && !math.IsInf(x, 0) {
					bl.values[sc] = append(bl.values[sc], x)
				}
			}
		}
		numFmt := times
		if m.percent {
			numFmt = xlsx.Share
		}
		if len(s.Loads) > 0 && len(s.Scenarios) > 0 {
			b.SetStyle(sheet, cellName(dataCol+1, bl.first), cellName(dataCol+len(s.Scenarios), bl.last), numFmt)
		}
		blocks = append(blocks, bl)
		row = bl.last + 2
	}
	if err := b.Err(); err != nil {
		return err
	}
	rotate := 0
	if len(s.Loads) > 6 {
		rotate = -45
	}
	top := 1 // the row of the next group's heading
	for _, g := range groups(s) {
		if len(s.Loads) == 0 {
			break
		}
		b.PageBreakBefore(sheet, top)
		b.SetCell(sheet, cellName(1, top), g.title()+": "+strings.Join(g.scenarios, ", "))
		b.SetStyle(sheet, cellName(1, top), cellName(1, top), xlsx.Title)
		type drawing struct {
			bl     block
			series []xlsx.Series
			drawn  []float64
		}
		// The group's charts of all requests, then of each entity.
		var charts, perEntity []drawing
		for _, bl := range blocks {
			d := drawing{bl: bl}
			for _, sc := range g.scenarios {
				col := scCol[sc]
				d.series = append(d.series, xlsx.Series{
					Name:       xlsx.AbsRange(sheet, col, bl.hdr, bl.hdr),
					Categories: xlsx.AbsRange(sheet, dataCol-1, bl.first, bl.last),
					Values:     xlsx.AbsRange(sheet, col, bl.first, bl.last),
				})
				d.drawn = append(d.drawn, bl.values[sc]...)
			}
			switch {
			case bl.m.entity != "":
				perEntity = append(perEntity, d)
			case bl.m.always || !allZero(d.drawn):
				charts = append(charts, d)
			}
		}
		chartRowsOf := func(n int) int { return (n + chartsAcross - 1) / chartsAcross }
		// The entity charts stand under a heading of their own, from a
		// new printed page.
		entityTop := top + 1 + chartRowsOf(len(charts))*chartRows
		// Gaps too many to name in the note are listed in the rows below
		// the group's charts, where the note points.
		below := entityTop
		if len(perEntity) > 0 {
			below = entityTop + 1 + chartRowsOf(len(perEntity))*chartRows
		}
		gaps := chartGaps(runs, s.Loads, g.scenarios)
		listed := gapList(b, sheet, below, "the charts of "+g.title(), gaps)
		note := chartNote(gaps, listed, g.parts > 1)
		// place draws charts two across from the row first, a printed
		// page every chartsPerPage rows of them.
		place := func(charts []drawing, first int) error {
			for slot, d := range charts {
				chartTitle := upperFirst(d.bl.m.name)
				if g.name != allScenarios || g.parts > 1 {
					chartTitle = g.title() + ": " + d.bl.m.name
				}
				chartRow := slot / chartsAcross
				if slot%chartsAcross == 0 && chartRow > 0 && chartRow%chartsPerPage == 0 {
					b.PageBreakBefore(sheet, first+chartRow*chartRows)
				}
				anchor := cellName(1+(slot%chartsAcross)*chartCols, first+chartRow*chartRows)
				text := note
				if d.bl.m.entity != "" {
					text = chartNote(gaps, listed, g.parts > 1, entityGaps(runs, s.Loads, g.scenarios, d.bl.m.entity)...)
				}
				if err := b.AddChart(sheet, anchor, xlsx.Chart{
					Kind: xlsx.LineChart, Series: d.series, Markers: true,
					Title: chartTitle, Note: text,
					XTitle: "Load (arrival rate" + rateUnit(s.TimeUnit) + ")", YTitle: d.bl.m.axis, YFormat: axisFormat(axisSpan(d.drawn, d.bl.m.max), d.bl.m.percent),
					XRotate: rotate, Width: chartWidth, Height: chartHeight, Legend: "right",
					YFromZero: true, YMax: d.bl.m.max,
					AltText: chartTitle + " against load, one line per scenario",
				}); err != nil {
					return fmt.Errorf("chart %q: %w", chartTitle, err)
				}
			}
			return nil
		}
		if err := place(charts, top+1); err != nil {
			return err
		}
		if len(perEntity) > 0 {
			b.PageBreakBefore(sheet, entityTop)
			b.SetCell(sheet, cellName(1, entityTop), entityHeading(g.title(), len(perEntity), len(entities)))
			b.SetStyle(sheet, cellName(1, entityTop), cellName(1, entityTop), xlsx.Title)
			if err := place(perEntity, entityTop+1); err != nil {
				return err
			}
		}
		top = below
		if listed != "" {
			top += 2 + len(gaps) // the list, its title and a blank row
		}
	}
	for j := range chartsAcross * chartCols {
		b.ColWidths(sheet, j, chartColWidth)
	}
	b.ColWidths(sheet, dataCol-1, loadColWidth)
	for j := range s.Scenarios {
		b.ColWidths(sheet, dataCol+j, dataColWidth)
	}
	if top > 1 {
		b.PrintCharts(sheet, "A1", cellName(chartsAcross*chartCols+1, top))
	}
	return b.Err()
}

// entityHeading heads a group's charts of its entities: drawn n of all.
func entityHeading(group string, n, all int) string {
	h := group + ": mean response time of each entity (request type); the mean of all requests above mixes them as they arrive"
	if n < all {
		h += fmt.Sprintf("; the first %d of the %d entities, the Entities sheet has them all", n, all)
	}
	return h
}

// entityGaps says, for the chart of one entity's mean response over the
// scenarios, the gaps its runs leave that are not unstable runs: the
// loads where the entity does not arrive ("Login does not arrive at L3",
// or "arrives only at L1" when shorter), and the stable runs where none
// of its requests completed ("no Login request completed (M10 at L2)").
// A list longer than maxGapText is counted, and the Entities sheet named.
func entityGaps(runs map[[2]string]*study.Run, loads, scenarios []string, entity string) []string {
	var absent, none []gapLine
	for _, sc := range scenarios {
		a, n := gapLine{scenario: sc}, gapLine{scenario: sc}
		for _, load := range loads {
			r := runs[[2]string{sc, load}]
			if r == nil {
				continue
			}
			e := entityOf(&r.Result, entity)
			switch {
			case e == nil:
			case e.Absent:
				a.loads = append(a.loads, load)
			case r.Result.Stable && e.Response.N == 0:
				n.loads = append(n.loads, load)
			}
		}
		if len(a.loads) > 0 {
			absent = append(absent, a)
		}
		if len(n.loads) > 0 {
			none = append(none, n)
		}
	}
	var out []string
	if len(absent) > 0 {
		text := gapText(absent)
		// Where it does not arrive is a property of the load: at the
		// same loads in every scenario, the loads alone say it.
		same := len(absent) == len(scenarios)
		for _, l := range absent {
			same = same && slices.Equal(l.loads, absent[0].loads)
		}
		if same {
			text = "at " + strings.Join(absent[0].loads, ", ")
			var arrives []string
			for _, load := range loads {
				if !slices.Contains(absent[0].loads, load) {
					arrives = append(arrives, load)
				}
			}
			if only := "only at " + strings.Join(arrives, ", "); len(arrives) > 0 && len(only) < len(text) {
				out = append(out, entity+" arrives "+only)
				text = ""
			}
		} else {
			text = gapsOrCount(absent)
		}
		if text != "" {
			out = append(out, entity+" does not arrive "+text)
		}
	}
	if len(none) > 0 {
		out = append(out, "no "+entity+" request completed "+gapsOrCount(none))
	}
	return out
}

// upperFirst capitalizes the first letter of a measure's name.
func upperFirst(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// gapLine is one scenario's gaps in a group's charts: the loads at which
// its run is not stable.
type gapLine struct {
	scenario string
	loads    []string
}

func (l gapLine) String() string { return l.scenario + " at " + strings.Join(l.loads, ", ") }

// chartGaps lists, for each of the scenarios that has any, the loads at
// which its run is not stable: the gaps in their lines.
func chartGaps(runs map[[2]string]*study.Run, loads, scenarios []string) []gapLine {
	var gaps []gapLine
	for _, sc := range scenarios {
		l := gapLine{scenario: sc}
		for _, load := range loads {
			if r := runs[[2]string{sc, load}]; r != nil && !r.Result.Stable {
				l.loads = append(l.loads, load)
			}
		}
		if len(l.loads) > 0 {
			gaps = append(gaps, l)
		}
	}
	return gaps
}

// gapText names every gap, scenarios unstable at the same loads together,
// in the order they first appear: "C12, C13 at rho0.8, rho0.9; C17 at
// rho0.9".
func gapText(gaps []gapLine) string {
	var order []string // the load lists, as keys
	names := map[string][]string{}
	loads := map[string][]string{}
	for _, l := range gaps {
		key := strings.Join(l.loads, "\x00")
		if _, ok := names[key]; !ok {
			order = append(order, key)
			loads[key] = l.loads
		}
		names[key] = append(names[key], l.scenario)
	}
	var parts []string
	for _, key := range order {
		parts = append(parts, strings.Join(names[key], ", ")+" at "+strings.Join(loads[key], ", "))
	}
	return strings.Join(parts, "; ")
}

// gapsOrCount names an entity chart's gaps in parentheses, or, when they
// would be longer than maxGapText, counts them and names the Entities
// sheet.
func gapsOrCount(gaps []gapLine) string {
	if t := gapText(gaps); len(t) <= maxGapText {
		return "(" + t + ")"
	}
	return fmt.Sprintf("in %d runs (Entities sheet)", gapCount(gaps))
}

// gapCount is the number of runs (or points) gaps name.
func gapCount(gaps []gapLine) int {
	n := 0
	for _, l := range gaps {
		n += len(l.loads)
	}
	return n
}

// maxGapText is the longest gapText a chart's note holds: about a line
// under the title of a chart chartWidth wide. Beyond it the gaps are
// listed on the sheet, and the note says where.
const maxGapText = 100

// gapList writes gaps from row (1-based) in column A, a title (of the
// charts above: charts names them) and a line a scenario, when gapText
// would be longer than maxGapText, and returns the cells that name them
// ("A35:A41"); "" when it writes nothing (the note names the gaps
// itself).
func gapList(b *xlsx.Book, sheet string, row int, charts string, gaps []gapLine) string {
	if len(gapText(gaps)) <= maxGapText {
		return ""
	}
	b.SetCell(sheet, cellName(1, row), "Gaps in "+charts+" above: runs not stable, no steady state")
	b.SetStyle(sheet, cellName(1, row), cellName(1, row), xlsx.Bold)
	for i, l := range gaps {
		b.SetCell(sheet, cellName(1, row+1+i), l.String())
	}
	return cellName(1, row+1) + ":" + cellName(1, row+len(gaps))
}

// chartNote says which points of a group's charts are gaps because their
// run was not stable, naming them or, when they are listed on the sheet,
// where (listed: "A35:A41"), then the gaps of other causes (other: an
// entity's chart's), and says whether the group was split; "" when none
// of these.
func chartNote(gaps []gapLine, listed string, split bool, other ...string) string {
	var notes []string
	switch {
	case len(gaps) == 0:
	case listed != "":
		notes = append(notes, fmt.Sprintf("Gaps: %d runs not stable, no steady state, each named in %s below", gapCount(gaps), listed))
	default:
		notes = append(notes, "Gaps: not stable, no steady state ("+gapText(gaps)+")")
	}
	for _, o := range other {
		if len(notes) == 0 {
			o = "Gaps: " + o
		}
		notes = append(notes, o)
	}
	if split {
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

// axisFormat is a number format for an axis from 0 over values: as many
// decimals as the step between its labels needs, no more. The charts
// start their axes at 0, and Excel and LibreOffice step them by about a
// sixth of the largest value, rounded to 1, 2 or 5 times a power of ten
// (0.2 up to 1.2, 0.5 up to 3.5), which is taken here: "#,##0" for
// response times of hundreds of ms, "#,##0.0" for times about 1 s (not
// 1.200, 1.000 ...), "0.0%" for failure shares up to 3%. Times whose labels
// would need more than four decimals take an exponent, with the digits
// that tell the labels apart ("0.0E+00" for 5 to 15 µs in s), where four
// decimals would label every line 0.0000.
func axisFormat(values []float64, percent bool) string {
	top := 0.0
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			top = max(top, math.Abs(v))
		}
	}
	scale := 1.0
	if percent {
		scale = 100
	}
	k := 0 // the step is 1, 2 or 5 times 10^k
	if top > 0 {
		k = labelStepExponent(top * scale / 6)
	}
	decimals := max(0, -k)
	if decimals > 4 && !percent {
		digits := min(max(int(math.Floor(math.Log10(top)))-k, 0), 4)
		if digits == 0 {
			return "0E+00"
		}
		return "0." + strings.Repeat("0", digits) + "E+00"
	}
	frac := ""
	if decimals = min(decimals, 4); decimals > 0 {
		frac = "." + strings.Repeat("0", decimals)
	}
	if percent {
		return "0" + frac + "%"
	}
	return "#,##0" + frac
}

// labelStepExponent rounds x to the nearest of 1, 2 and 5 times a power
// of ten (on a log scale) and returns that power: 0.58 is 0.5, so -1.
func labelStepExponent(x float64) int {
	k := math.Floor(math.Log10(x))
	m := x / math.Pow(10, k) // 1 <= m < 10
	if m >= math.Sqrt(50) {  // nearer 10 than 5
		k++
	}
	return int(k)
}

// axisSpan is what axisFormat reads of an axis over values whose top is
// fixed at top (a utilization's 100%), from 0: the labels step over the
// whole axis, not over the values (utilizations of 0.01% would otherwise
// label it 100.000%, 90.000% ...). With no fixed top it is values.
func axisSpan(values []float64, top float64) []float64 {
	if top > 0 {
		return []float64{0, top}
	}
	return values
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
