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

// Dash is how a series' line is drawn.
type Dash int

// The dashes, told apart in print and by the colour-blind.
const (
	Solid  Dash = iota // a solid line
	Dashed             // dashes
	Dotted             // dots
)

// Marker is what marks each point of a series.
type Marker int

// The markers.
const (
	MarkerAuto   Marker = iota // a circle when the chart's Markers is set, else none
	MarkerNone                 // no marker, even when the chart's Markers is set
	MarkerCircle               // a circle
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
	// Colour is the series' RGB hex colour ("C00000"): its line, markers
	// or columns; "" lets Excel choose.
	Colour string
	// Width is the line's width in points (0: Excel's).
	Width float64
	// Dash is how the line is drawn.
	Dash Dash
	// NoLine leaves the points unjoined (a scatter of points).
	NoLine bool
	// Marker marks the points; MarkerSize is its size (0: 5).
	Marker     Marker
	MarkerSize int
}

// Chart is a native Excel chart.
type Chart struct {
	Kind                  ChartKind
	Title, XTitle, YTitle string
	// YFormat is the number format of the y axis ("0%"); "" is Excel's.
	YFormat string
	Series  []Series
	// Lines, on a ColumnChart, are series drawn as lines over the columns,
	// on the same axes (a histogram with densities over it).
	Lines []Series
	// Width and Height are in pixels (0: 640 × 320).
	Width, Height uint
	// Legend is where the legend stands: "right" (the default), "bottom"...
	Legend string
	// Markers draws a circle at each point of a line.
	Markers bool
	// GapWidth is the gap between columns in percent of a column's width,
	// 1 to 500 (0: Excel's 150; a histogram wants a few percent).
	GapWidth int
	// XLabelRotation turns the x axis's labels by this many degrees (-45
	// for labels that would crowd).
	XLabelRotation int
	// AltText describes the chart for screen readers.
	AltText string
}

// ink is the colour of a chart's titles and axis labels: black, readable
// in print (the library's default grey is pale).
const ink = "000000"

// AddChart adds c to a sheet with its top-left corner at the cell anchor.
// Blank values are gaps in the lines. A chart on a sheet must be added
// before the sheet's rows are streamed out (websim does not stream).
func (b *Book) AddChart(sheet, anchor string, c Chart) error {
	kind := map[ChartKind]excelize.ChartType{LineChart: excelize.Line, ScatterChart: excelize.Scatter, ColumnChart: excelize.Col}[c.Kind]
	series := func(list []Series) []excelize.ChartSeries {
		var out []excelize.ChartSeries
		for _, s := range list {
			out = append(out, chartSeries(s, c.Markers))
		}
		return out
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
		return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s, Font: &excelize.Font{Color: ink}}}}
	}
	chart := &excelize.Chart{
		Type:         kind,
		Series:       series(c.Series),
		Title:        title(c.Title),
		Dimension:    excelize.ChartDimension{Width: w, Height: h},
		Legend:       excelize.ChartLegend{Position: legend},
		ShowBlanksAs: "gap",
		XAxis: excelize.ChartAxis{Title: title(c.XTitle), Font: excelize.Font{Color: ink},
			Alignment: excelize.Alignment{TextRotation: c.XLabelRotation}},
		YAxis:  excelize.ChartAxis{Title: title(c.YTitle), MajorGridLines: true, Font: excelize.Font{Color: ink}},
		Format: excelize.GraphicOptions{AltText: c.AltText},
	}
	if c.YFormat != "" {
		chart.YAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: c.YFormat}
	}
	if c.GapWidth > 0 {
		gap := uint(c.GapWidth)
		chart.GapWidth = &gap
	}
	var combo []*excelize.Chart
	if len(c.Lines) > 0 {
		// In a combination chart the axes are drawn from the second chart's.
		combo = append(combo, &excelize.Chart{Type: excelize.Line, Series: series(c.Lines), XAxis: chart.XAxis, YAxis: chart.YAxis})
	}
	return b.keep(b.f.AddChart(sheet, anchor, chart, combo...))
}

// chartSeries is s as the library draws it.
func chartSeries(s Series, markers bool) excelize.ChartSeries {
	cs := excelize.ChartSeries{Name: s.Name, Categories: s.Categories, Values: s.Values}
	var fill excelize.Fill
	if s.Colour != "" {
		// A line's colour is its series' fill.
		fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{s.Colour}}
		cs.Fill = fill
	}
	switch {
	case s.NoLine:
		cs.Line = excelize.LineOptions{Type: excelize.LineNone}
	case s.Width > 0 || s.Dash != Solid:
		dash := map[Dash]excelize.LineDashType{Solid: excelize.LineDashSolid, Dashed: excelize.LineDashDash, Dotted: excelize.LineDashSysDot}[s.Dash]
		cs.Line = excelize.LineOptions{Type: excelize.LineSolid, Width: s.Width, Dash: dash}
	}
	size := s.MarkerSize
	if size == 0 {
		size = 5
	}
	switch {
	case s.Marker == MarkerNone:
		cs.Marker = excelize.ChartMarker{Symbol: "none"}
	case s.Marker == MarkerCircle || markers:
		cs.Marker = excelize.ChartMarker{Symbol: "circle", Size: size}
		if s.Colour != "" {
			cs.Marker.Fill = fill
			cs.Marker.Border = excelize.LineOptions{Type: excelize.LineSolid, Fill: fill}
		}
	}
	return cs
}
