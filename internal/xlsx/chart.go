package xlsx

import "github.com/xuri/excelize/v2"

// ChartKind is the kind of a chart.
type ChartKind int

// The kinds of chart websim draws.
const (
	LineChart    ChartKind = iota // a line per series, categories along x
	ScatterChart                  // points joined by lines, numbers along x
	ColumnChart                   // clustered columns
)

// Series is one line (or set of columns) of a chart: references made with
// AbsRange.
type Series struct {
	// Name is the cell holding the series' name.
	Name string
	// Categories are the x values (labels or numbers).
	Categories string
	// Values are the y values; a blank cell is a gap.
	Values string
}

// Chart is a native Excel chart.
type Chart struct {
	Kind                  ChartKind
	Title, XTitle, YTitle string
	// YFormat is the number format of the y axis ("0%"); "" is Excel's.
	YFormat string
	Series  []Series
	// Width and Height are in pixels (0: 640 × 320).
	Width, Height uint
	// Legend is where the legend stands: "right" (the default), "bottom"...
	Legend string
	// Markers draws a circle at each point of a line.
	Markers bool
	// AltText describes the chart for screen readers.
	AltText string
}

// AddChart adds c to a sheet with its top-left corner at the cell anchor.
// Blank values are gaps in the lines. A chart on a sheet must be added
// before the sheet's rows are streamed out (websim does not stream).
func (b *Book) AddChart(sheet, anchor string, c Chart) error {
	kind := map[ChartKind]excelize.ChartType{LineChart: excelize.Line, ScatterChart: excelize.Scatter, ColumnChart: excelize.Col}[c.Kind]
	var series []excelize.ChartSeries
	for _, s := range c.Series {
		cs := excelize.ChartSeries{Name: s.Name, Categories: s.Categories, Values: s.Values}
		if c.Markers {
			cs.Marker = excelize.ChartMarker{Symbol: "circle", Size: 5}
		}
		series = append(series, cs)
	}
	w, h := c.Width, c.Height
	if w == 0 || h == 0 {
		w, h = 640, 320
	}
	legend := c.Legend
	if legend == "" {
		legend = "right"
	}
	title := func(s string) excelize.ChartTitle {
		if s == "" {
			return excelize.ChartTitle{}
		}
		return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s}}}
	}
	chart := &excelize.Chart{
		Type:         kind,
		Series:       series,
		Title:        title(c.Title),
		Dimension:    excelize.ChartDimension{Width: w, Height: h},
		Legend:       excelize.ChartLegend{Position: legend},
		ShowBlanksAs: "gap",
		XAxis:        excelize.ChartAxis{Title: title(c.XTitle)},
		YAxis:        excelize.ChartAxis{Title: title(c.YTitle), MajorGridLines: true},
		Format:       excelize.GraphicOptions{AltText: c.AltText},
	}
	if c.YFormat != "" {
		chart.YAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: c.YFormat}
	}
	return b.keep(b.f.AddChart(sheet, anchor, chart))
}
