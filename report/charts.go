package report

import (
	"fmt"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/engine"
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
func writeCharts(f *excelize.File, sheet string, s *study.Study, st *styles) error {
	runs := map[[2]string]*study.Run{}
	for i := range s.Runs {
		runs[[2]string{s.Runs[i].Scenario, s.Runs[i].Load}] = &s.Runs[i]
	}
	ref := sheetRef(sheet)
	chartCol, _ := excelize.ColumnNumberToName(len(s.Scenarios) + 3)
	row := 1
	for k, m := range chartMetrics(s.TimeUnit) {
		if err := f.SetCellStr(sheet, cellName(1, row), m.title+" (chart data)"); err != nil {
			return err
		}
		if err := f.SetCellStyle(sheet, cellName(1, row), cellName(1, row), st.title); err != nil {
			return err
		}
		hdr := row + 1
		if err := f.SetCellStr(sheet, cellName(1, hdr), "Load"); err != nil {
			return err
		}
		for j, sc := range s.Scenarios {
			if err := f.SetCellStr(sheet, cellName(j+2, hdr), sc); err != nil {
				return err
			}
		}
		if err := f.SetCellStyle(sheet, cellName(1, hdr), cellName(len(s.Scenarios)+1, hdr), st.header); err != nil {
			return err
		}
		first, last := hdr+1, hdr+len(s.Loads)
		for i, load := range s.Loads {
			if err := f.SetCellStr(sheet, cellName(1, first+i), load); err != nil {
				return err
			}
			for j, sc := range s.Scenarios {
				run := runs[[2]string{sc, load}]
				if run == nil || !run.Result.Stable {
					continue
				}
				if err := setCell(f, sheet, cellName(j+2, first+i), m.value(&run.Result)); err != nil {
					return err
				}
			}
		}
		numFmt := st.byFormat[fTime]
		if m.percent {
			numFmt = st.byFormat[fShare]
		}
		if len(s.Loads) > 0 && len(s.Scenarios) > 0 {
			if err := f.SetCellStyle(sheet, cellName(2, first), cellName(len(s.Scenarios)+1, last), numFmt); err != nil {
				return err
			}
		}
		var series []excelize.ChartSeries
		for j := range s.Scenarios {
			col, _ := excelize.ColumnNumberToName(j + 2)
			series = append(series, excelize.ChartSeries{
				Name:       fmt.Sprintf("%s!$%s$%d", ref, col, hdr),
				Categories: fmt.Sprintf("%s!$A$%d:$A$%d", ref, first, last),
				Values:     fmt.Sprintf("%s!$%s$%d:$%s$%d", ref, col, first, col, last),
				Marker:     excelize.ChartMarker{Symbol: "circle", Size: 5},
			})
		}
		if len(series) > 0 && len(s.Loads) > 0 {
			yFmt := excelize.ChartNumFmt{CustomNumFmt: "#,##0.0"}
			if m.percent {
				yFmt = excelize.ChartNumFmt{CustomNumFmt: "0%"}
			}
			chart := &excelize.Chart{
				Type:         excelize.Line,
				Series:       series,
				Title:        excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: m.title}}},
				Dimension:    excelize.ChartDimension{Width: chartWidth, Height: chartHeight},
				Legend:       excelize.ChartLegend{Position: "right"},
				ShowBlanksAs: "gap",
				XAxis:        excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Load"}}}},
				YAxis: excelize.ChartAxis{
					Title:          excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: m.axis}}},
					MajorGridLines: true,
					NumFmt:         yFmt,
				},
				Format: excelize.GraphicOptions{AltText: m.title + " against load, one line per scenario"},
			}
			anchor := fmt.Sprintf("%s%d", chartCol, 1+k*chartRows)
			if err := f.AddChart(sheet, anchor, chart); err != nil {
				return fmt.Errorf("chart %q: %w", m.title, err)
			}
		}
		row = last + 2
	}
	if err := f.SetColWidth(sheet, "A", "A", 16); err != nil {
		return err
	}
	if len(s.Scenarios) > 0 {
		lastCol, _ := excelize.ColumnNumberToName(len(s.Scenarios) + 1)
		return f.SetColWidth(sheet, "B", lastCol, 13)
	}
	return nil
}

func cellName(col, row int) string {
	c, _ := excelize.CoordinatesToCellName(col, row)
	return c
}
