package report

import (
	"fmt"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// metric is one chart: a figure of each run plotted against load.
type metric struct {
	title, axis string
	percent     bool
	value       func(r *engine.Result) any
}

func chartMetrics(unit string) []metric {
	u := unitSuffix(unit)
	return []metric{
		{"Mean response time", "Mean response" + u, false, func(r *engine.Result) any { return responseOrNil(r, r.Response.Mean) }},
		{"95th percentile of response time", "P95 response" + u, false, func(r *engine.Result) any { return responseOrNil(r, r.Response.P95) }},
		{"Standard deviation of response time", "Standard deviation" + u, false, func(r *engine.Result) any { return responseOrNil(r, r.Response.SD) }},
		{"Application-server utilization", "App utilization", true, func(r *engine.Result) any { return r.AppUtilization }},
		{"Share of failures", "Failed requests", true, func(r *engine.Result) any { return share(r.Failed, finished(r)) }},
	}
}

// chartRows and chartCols size each chart in cells, to place them in a grid.
const (
	chartWidth  = 640
	chartHeight = 320
	chartRows   = 18
)

// writeCharts writes one data block per metric (a title row, a header row
// "Load, scenario...", a row per load) down column A, and a line chart of
// each block to the right of them. A run that is unstable, or that has no
// value, leaves its cell blank: a gap in its line.
func writeCharts(b *xlsx.Book, sheet string, s *study.Study) error {
	runs := map[[2]string]*study.Run{}
	for i := range s.Runs {
		runs[[2]string{s.Runs[i].Scenario, s.Runs[i].Load}] = &s.Runs[i]
	}
	chartCol := xlsx.ColumnName(len(s.Scenarios) + 2)
	row := 1
	for k, m := range chartMetrics(s.TimeUnit) {
		b.SetCell(sheet, cellName(1, row), m.title+" (chart data)")
		b.SetStyle(sheet, cellName(1, row), cellName(1, row), xlsx.Title)
		hdr := row + 1
		b.SetCell(sheet, cellName(1, hdr), "Load")
		for j, sc := range s.Scenarios {
			b.SetCell(sheet, cellName(j+2, hdr), sc)
		}
		b.SetStyle(sheet, cellName(1, hdr), cellName(len(s.Scenarios)+1, hdr), xlsx.Header)
		first, last := hdr+1, hdr+len(s.Loads)
		for i, load := range s.Loads {
			b.SetCell(sheet, cellName(1, first+i), load)
			for j, sc := range s.Scenarios {
				run := runs[[2]string{sc, load}]
				if run == nil || !run.Result.Stable {
					continue
				}
				b.SetCell(sheet, cellName(j+2, first+i), m.value(&run.Result))
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
		var series []xlsx.Series
		for j := range s.Scenarios {
			series = append(series, xlsx.Series{
				Name:       xlsx.AbsRange(sheet, j+1, hdr, hdr),
				Categories: xlsx.AbsRange(sheet, 0, first, last),
				Values:     xlsx.AbsRange(sheet, j+1, first, last),
			})
		}
		if len(series) > 0 && len(s.Loads) > 0 {
			yFmt := "#,##0.0"
			if m.percent {
				yFmt = "0%"
			}
			anchor := fmt.Sprintf("%s%d", chartCol, 1+k*chartRows)
			if err := b.AddChart(sheet, anchor, xlsx.Chart{
				Kind: xlsx.LineChart, Series: series, Markers: true,
				Title: m.title, XTitle: "Load", YTitle: m.axis, YFormat: yFmt,
				Width: chartWidth, Height: chartHeight, Legend: "right",
				AltText: m.title + " against load, one line per scenario",
			}); err != nil {
				return fmt.Errorf("chart %q: %w", m.title, err)
			}
		}
		row = last + 2
	}
	b.ColWidths(sheet, 0, 16)
	for j := range s.Scenarios {
		b.ColWidths(sheet, j+1, 13)
	}
	return b.Err()
}

// cellName is the A1 name of the 1-based column col in row.
func cellName(col, row int) string { return xlsx.CellName(col-1, row) }
