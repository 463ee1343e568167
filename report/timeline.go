package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// timelineRun is where a run's intervals stand on the Timeline sheet.
type timelineRun struct {
	run         *study.Run
	first, last int // 1-based rows
	// drawnLast is the last row the charts draw: the run's last interval
	// is left out of them (not of the table) when it is a stub, shorter
	// than half the one before it (the run ended in it), whose few
	// requests would draw a spike or a dip at the end of the line.
	drawnLast int
}

// stubEnd reports whether a timeline's last interval is a stub: shorter
// than half the interval before it.
func stubEnd(tl []engine.TimelineInterval) bool {
	n := len(tl)
	return n >= 2 && tl[n-1].End-tl[n-1].Start < (tl[n-2].End-tl[n-2].Start)/2
}

// edgeStyle is the number format of the intervals' ends: whole numbers
// when every end is whole, else as many decimals as show the narrowest
// interval's width to four digits (409.6, 819.2, not 410, 819).
func edgeStyle(runs []study.Run) xlsx.Style {
	narrowest := math.Inf(1)
	whole := true
	for i := range runs {
		for _, iv := range runs[i].Result.Timeline {
			whole = whole && iv.Start == math.Trunc(iv.Start) && iv.End == math.Trunc(iv.End)
			if w := iv.End - iv.Start; w > 0 {
				narrowest = min(narrowest, w)
			}
		}
	}
	if whole {
		return xlsx.Count
	}
	return xlsx.TimeStyle(xlsx.TimeDigits(narrowest, 4))
}

// Timeline columns (0-based) that the charts read.
const (
	tlColTo       = 5
	tlColResponse = 7
	tlColInSystem = 8
	tlColRun      = 10
	tlColShare    = 12
)

// writeTimeline writes every run's timeline (engine.Result.Timeline: at
// most engine.TimelineIntervals intervals a run, warm-up included), a row
// per interval, and beside it, one under the other, scatter charts over
// simulated time (the sheet's print area): the
// requests in the system and the mean response of the baseline scenario
// (the first) at each of its loads where its run is stable, and the
// requests in the system of the
// first unstable runs, so that a warm-up, a growing queue or a deadlock
// shows.
func writeTimeline(b *xlsx.Book, sheet string, s *study.Study) error {
	u := unitSuffix(s.TimeUnit)
	times, _ := timeStyles(s.Runs)
	edges := edgeStyle(s.Runs)
	cols := []xlsx.Column{
		{Header: "Scenario"}, {Header: "Load"}, {Header: "Stable"},
		{Header: "Interval", Format: xlsx.Count}, {Header: "From" + u, Format: edges}, {Header: "To" + u, Format: edges},
		{Header: "Completed", Format: xlsx.Count}, {Header: "Mean response" + u, Format: times},
		{Header: "In system (mean)", Format: xlsx.Decimal2}, {Header: "App utilization", Format: xlsx.Share},
		{Header: "Run"},
		{Header: "Warm-up", Comment: "whether the interval lies in the warm-up (its figures are discarded from the results): all, part, or blank"},
		{Header: "Share of the run", Format: xlsx.Share, Comment: "the end of the interval as a share of the run's simulated time: the unstable runs' chart draws against it, so that runs of different lengths span the same width"},
	}
	// A row per interval of every run, made when the sheet is written (a
	// study of 10,000 runs has half a million): each run's place and its
	// columns that repeat are kept, not its rows.
	type runRows struct {
		cells []any  // Scenario, Load, Stable
		label string // the Run column, each chart's legend
		end   float64
	}
	var placed []timelineRun
	var byRow []runRows // by placed's order
	rows := 0
	for i := range s.Runs {
		run := &s.Runs[i]
		if len(run.Result.Timeline) == 0 {
			continue
		}
		label := run.Scenario + " " + run.Load
		if run.Replications > 1 {
			// A timeline is one run's course: with replications, the
			// first replication's, or the first unstable one's.
			label += fmt.Sprintf(" (replication %d of %d)", run.Result.TimelineReplication+1, run.Replications)
		}
		if !run.Result.Stable {
			label += " (not stable)" // the legend of every chart it is in
		}
		end := run.Result.Timeline[len(run.Result.Timeline)-1].End
		tr := timelineRun{run: run, first: rows + 2, last: rows + len(run.Result.Timeline) + 1}
		tr.drawnLast = tr.last
		if stubEnd(run.Result.Timeline) {
			tr.drawnLast--
		}
		placed = append(placed, tr)
		byRow = append(byRow, runRows{cells: runCells(run), label: label, end: end})
		rows += len(run.Result.Timeline)
	}
	row := func(r int) []any {
		// The run whose rows hold r (0-based; its sheet row is r+2).
		p := sort.Search(len(placed), func(i int) bool { return placed[i].last >= r+2 })
		rr, run, k := byRow[p], placed[p].run, r+2-placed[p].first
		iv := run.Result.Timeline[k]
		warm := ""
		switch w := run.Result.WarmUp; {
		case w > 0 && iv.End <= w:
			warm = "all"
		case w > iv.Start:
			warm = "part"
		}
		var share any
		if rr.end > 0 {
			share = iv.End / rr.end
		}
		return []any{rr.cells[0], rr.cells[1], rr.cells[2], float64(k + 1), iv.Start, iv.End,
			float64(iv.Completed), iv.MeanResponse(), iv.InSystem, iv.AppUtilization, rr.label, warm, share}
	}
	if err := b.WriteTable(sheet, xlsx.Table{Columns: cols, RowFunc: row, NumRows: rows, HeaderHeight: 30, FrozenColumns: frozenColumns}); err != nil {
		return err
	}
	if len(placed) == 0 {
		return nil
	}
	var charts []xlsx.Chart
	unstable := firstUnstable(placed)
	if len(s.Scenarios) > 0 {
		// An unstable run stands in the unstable runs' chart: among the
		// baseline's, its growing queue would squeeze the stable loads
		// flat against the axis.
		var base, baseUnstable []timelineRun
		for _, tr := range placed {
			switch {
			case tr.run.Scenario != s.Scenarios[0]:
			case !tr.run.Result.Stable:
				baseUnstable = append(baseUnstable, tr)
			default:
				base = append(base, tr)
			}
		}
		drawn := map[*study.Run]bool{} // in the unstable runs' chart
		for _, tr := range unstable {
			drawn[tr.run] = true
		}
		parts := splitRuns(base)
		for pi, part := range parts {
			// The unstable loads among this part's, or before the next
			// part's (before the first: the first part's).
			var notStable, notDrawn []string
			for _, tr := range baseUnstable {
				if (pi > 0 && tr.first < part[0].first) || (pi+1 < len(parts) && tr.first > parts[pi+1][0].first) {
					continue
				}
				if drawn[tr.run] {
					notStable = append(notStable, tr.run.Load)
				} else {
					notDrawn = append(notDrawn, tr.run.Load)
				}
			}
			what := fmt.Sprintf("Timeline of %s (the baseline)", s.Scenarios[0])
			if len(part) < len(base) {
				what += fmt.Sprintf(", loads %s to %s", part[0].run.Load, part[len(part)-1].run.Load)
			}
			inSystem := timelineChart(sheet, what+": requests in the system", "In system", tlColInSystem, part, u)
			response := timelineChart(sheet, what+": mean response", "Mean response"+u, tlColResponse, part, u)
			if w := part[0].run.Result.WarmUp; w > 0 {
				// Four digits, no exponent, no trailing zeros: 0.3 s, 123.5 s.
				at := strings.TrimRight(strings.TrimRight(strconv.FormatFloat(w, 'f', xlsx.TimeDigits(w, 4), 64), "0"), ".")
				if w >= 1000 {
					at = numtext.Group(int64(math.Round(w))) // 20,000 ms
				}
				warm := fmt.Sprintf("Warm-up: up to %s%s (column Warm-up)", at, strings.TrimSuffix(" "+s.TimeUnit, " "))
				inSystem.Note, response.Note = warm, warm
			}
			var notes []string
			if inSystem.Note != "" {
				notes = append(notes, inSystem.Note)
			}
			if len(notStable) > 0 {
				notes = append(notes, "Not stable at "+strings.Join(notStable, ", ")+": drawn in the unstable runs' chart")
			}
			if len(notDrawn) > 0 {
				notes = append(notes, fmt.Sprintf("Not stable at %s: in no chart (more than %d unstable runs; see the table)", strings.Join(notDrawn, ", "), xlsx.MaxSeries))
			}
			inSystem.Note, response.Note = strings.Join(notes, "; "), strings.Join(notes, "; ")
			charts = append(charts, inSystem, response)
		}
	}
	if len(unstable) > 0 {
		c := timelineChart(sheet, "Timeline of the unstable runs: requests in the system", "In system", tlColInSystem, unstable, u)
		// Runs stopped at different times: each drawn over its own length.
		for i := range c.Series {
			c.Series[i].Categories = xlsx.AbsRange(sheet, tlColShare, unstable[i].first, unstable[i].drawnLast)
		}
		c.XTitle, c.XFormat, c.XMax, c.AltText = "Share of the run's simulated time, end of interval (each run to where it was stopped)", "0%", 1, c.Title+" over each run's own length, a line per run"
		c.Note = "Each run is drawn over its own length, to where it was stopped (100%)"
		if n := countUnstable(s); n > len(unstable) {
			c.Note += fmt.Sprintf("; the first %d of %d unstable runs", len(unstable), n)
		}
		charts = append(charts, c)
	}
	// The charts stand in one column right of the table; printing the
	// sheet prints them (the table is for reading on screen and filtering).
	anchorCol := len(cols) + 1
	for i, c := range charts {
		anchor := xlsx.CellName(anchorCol, 2+i*chartRows)
		if err := b.AddChart(sheet, anchor, c); err != nil {
			return fmt.Errorf("chart %q: %w", c.Title, err)
		}
		if i > 0 && i%chartsPerPage == 0 {
			b.PageBreakBefore(sheet, 1+i*chartRows)
		}
	}
	for j := range chartCols {
		b.ColWidths(sheet, anchorCol+j, chartColWidth)
	}
	b.PrintCharts(sheet, xlsx.CellName(anchorCol, 1), xlsx.CellName(anchorCol+chartCols, 2+len(charts)*chartRows))
	return b.Err()
}

// timelineChart draws column col of each run's rows against the ends of
// its intervals, a line per run.
func timelineChart(sheet, title, axis string, col int, runs []timelineRun, u string) xlsx.Chart {
	var series []xlsx.Series
	var values []float64
	for _, tr := range runs {
		series = append(series, xlsx.Series{
			Name:       xlsx.AbsRange(sheet, tlColRun, tr.first, tr.first),
			Categories: xlsx.AbsRange(sheet, tlColTo, tr.first, tr.drawnLast),
			Values:     xlsx.AbsRange(sheet, col, tr.first, tr.drawnLast),
		})
		for _, iv := range tr.run.Result.Timeline[:tr.drawnLast-tr.first+1] {
			v := iv.InSystem
			if col == tlColResponse {
				v = iv.MeanResponse()
			}
			if !math.IsNaN(v) {
				values = append(values, v)
			}
		}
	}
	return xlsx.Chart{
		Kind: xlsx.ScatterChart, Series: series, Title: title, Markers: true, MarkerSize: 4,
		XTitle: "Simulated time" + u + ", end of interval", YTitle: axis,
		YFormat: axisFormat(values, false), XFormat: "#,##0",
		Width: chartWidth, Height: chartHeight, Legend: "right", YFromZero: true,
		AltText: title + " over simulated time, a line per run",
	}
}

// firstUnstable are the runs of the unstable runs' chart: the first
// xlsx.MaxSeries that are not stable.
func firstUnstable(placed []timelineRun) []timelineRun {
	var out []timelineRun
	for _, tr := range placed {
		if !tr.run.Result.Stable && len(out) < xlsx.MaxSeries {
			out = append(out, tr)
		}
	}
	return out
}

// splitRuns cuts runs into even parts of at most xlsx.MaxSeries.

func splitRuns(runs []timelineRun) [][]timelineRun {
	if len(runs) == 0 {
		return nil
	}
	parts := (len(runs) + xlsx.MaxSeries - 1) / xlsx.MaxSeries
	per := (len(runs) + parts - 1) / parts
	var out [][]timelineRun
	for p := 0; p < len(runs); p += per {
		out = append(out, runs[p:min(p+per, len(runs))])
	}
	return out
}

func countUnstable(s *study.Study) int {
	n := 0
	for i := range s.Runs {
		if !s.Runs[i].Result.Stable {
			n++
		}
	}
	return n
}
