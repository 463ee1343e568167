package xlsx

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

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
	// Color ("D55E00") and Marker ("square", or "none" for no marker even
	// when the chart has markers) draw the line; "" takes the series' place
	// in Palette and MarkerShapes.
	Color, Marker string
	// Width is the line's width in points (0: 1.75).
	Width float64
	// Dash is how the line is drawn.
	Dash Dash
	// NoLine leaves the points unjoined (a scatter of points).
	NoLine bool
	// MarkerSize is the size of the series' markers in points (0: the
	// chart's): a series drawn first with larger markers than the next
	// shows around theirs where they meet, rather than hidden under them.
	MarkerSize int
}

// Dash is how a series' line is drawn.
type Dash int

// The dashes, told apart in print and by the colour-blind.
const (
	Solid  Dash = iota // a solid line
	Dashed             // dashes
	Dotted             // dots
)

// Palette are the line colours of a chart's series in order: eight that
// stay apart for colour-blind readers and in grey print (after Okabe and
// Ito, the yellow swapped for a brown that reads on white).
var Palette = [...]string{"0072B2", "D55E00", "009E73", "CC79A7", "E69F00", "56B4E9", "000000", "8C564B"}

// MarkerShapes are the marker shapes of a chart's series in order, so that
// lines apart in colour are apart in shape too.
var MarkerShapes = [...]string{"circle", "square", "triangle", "diamond", "x", "star", "plus", "dash"}

// MaxSeries is the most lines a chart should have: each then has a colour
// and a shape of its own.
const MaxSeries = len(Palette)

// AxisTextColor is the colour of axis labels and titles: dark, to read.
const AxisTextColor = "262626"

// Chart is a native Excel chart.
type Chart struct {
	Kind                  ChartKind
	Title, XTitle, YTitle string
	// YFormat and XFormat are the number formats of the y axis ("0%") and
	// of a scatter chart's x axis; "" is Excel's.
	YFormat, XFormat string
	// YFromZero starts the y axis at 0, so that a line's height is read as
	// the magnitude it is (Excel's own choice may start a P95 axis at 2.7
	// and make noise look like a trend); a column chart's starts at 0
	// always. YMax, when above 0, ends the y axis there (1: a utilization's
	// 100%).
	YFromZero bool
	YMax      float64
	// XMax, when above 0, ends a scatter chart's x axis there, which then
	// starts at 0 (1: a share's 100%).
	XMax float64
	// Note is a second, smaller line under the title ("gaps: unstable
	// runs").
	Note   string
	Series []Series
	// Lines, on a ColumnChart, are series drawn as lines over the columns,
	// on the same axes (a histogram with densities over it); their places
	// in Palette follow the columns'.
	Lines []Series
	// GapWidth is the gap between columns in percent of a column's width,
	// 1 to 500 (0: Excel's 150; a histogram wants a few percent).
	GapWidth int
	// Width and Height are in pixels (0: 640 × 320).
	Width, Height uint
	// Legend is where the legend stands: "right" (the default), "bottom"...
	Legend string
	// Markers draws a marker at each point of a line, its shape the
	// series' own.
	Markers bool
	// MarkerSize is the markers' size in points (0: 6).
	MarkerSize int
	// XRotate turns the x axis labels by this many degrees (-90..90;
	// negative: rising to the right), so that long labels need not wrap.
	XRotate int
	// AltText describes the chart for screen readers.
	AltText string
}

// AddChart adds c to a sheet with its top-left corner at the cell anchor.
// Blank values are gaps in the lines. A chart on a sheet must be added
// before the sheet's rows are streamed out (websim does not stream).
func (b *Book) AddChart(sheet, anchor string, c Chart) error {
	// The library sizes the chart's place by the widths of the columns
	// it covers.
	if err := b.flushWidths(sheet); err != nil {
		return b.keep(err)
	}
	kind := map[ChartKind]excelize.ChartType{LineChart: excelize.Line, ScatterChart: excelize.Scatter, ColumnChart: excelize.Col}[c.Kind]
	series := c.chartSeries(c.Series, 0)
	w, h := c.Width, c.Height
	if w == 0 || h == 0 {
		w, h = 640, 320
	}
	legend := c.Legend
	if legend == "" {
		legend = "right"
	}
	dark := func(size float64, bold bool) *excelize.Font {
		return &excelize.Font{Color: AxisTextColor, Size: size, Bold: bold}
	}
	title := func(s string) excelize.ChartTitle {
		if s == "" {
			return excelize.ChartTitle{}
		}
		return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s, Font: dark(10, true)}}}
	}
	head := title(c.Title)
	if c.Note != "" {
		head.Paragraph = append(head.Paragraph, excelize.RichTextRun{Text: c.Note, Font: &excelize.Font{Color: "9C0006", Size: 9, Italic: true}})
	}
	axis := func(t string) excelize.ChartAxis {
		return excelize.ChartAxis{Title: title(t), Font: *dark(9, false)}
	}
	chart := &excelize.Chart{
		Type:         kind,
		Series:       series,
		Title:        head,
		Dimension:    excelize.ChartDimension{Width: w, Height: h},
		Legend:       excelize.ChartLegend{Position: legend, Font: dark(9, false)},
		ShowBlanksAs: "gap",
		XAxis:        axis(c.XTitle),
		YAxis:        axis(c.YTitle),
		Format:       excelize.GraphicOptions{AltText: c.AltText},
	}
	chart.YAxis.MajorGridLines = true
	if c.Kind == ColumnChart || c.YFromZero {
		zero := 0.0 // a bar is read by its length: from 0
		chart.YAxis.Minimum = &zero
	}
	if c.YMax > 0 {
		top := c.YMax
		chart.YAxis.Maximum = &top
	}
	if c.XMax > 0 {
		zero, right := 0.0, c.XMax
		chart.XAxis.Minimum, chart.XAxis.Maximum = &zero, &right
	}
	if c.YFormat != "" {
		chart.YAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: c.YFormat}
	}
	if c.XRotate != 0 {
		chart.XAxis.Alignment.TextRotation = c.XRotate
	}
	if c.XFormat != "" {
		chart.XAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: c.XFormat}
	}
	if c.GapWidth > 0 {
		gap := uint(c.GapWidth)
		chart.GapWidth = &gap
	}
	var combo []*excelize.Chart
	if len(c.Lines) > 0 {
		// In a combination chart the axes are drawn from the second chart's.
		combo = append(combo, &excelize.Chart{Type: excelize.Line, Series: c.chartSeries(c.Lines, len(c.Series)),
			XAxis: chart.XAxis, YAxis: chart.YAxis})
	}
	return b.keep(b.f.AddChart(sheet, anchor, chart, combo...))
}

// chartSeries are the series of list as the library draws them, the
// first at place first in Palette and MarkerShapes.
func (c *Chart) chartSeries(list []Series, first int) []excelize.ChartSeries {
	var out []excelize.ChartSeries
	for j, s := range list {
		i := first + j
		color, shape := s.Color, s.Marker
		if color == "" {
			color = Palette[i%len(Palette)]
		}
		if shape == "" {
			shape = MarkerShapes[i%len(MarkerShapes)]
		}
		fill := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}}
		width := s.Width
		if width == 0 {
			width = 1.75
		}
		dash := map[Dash]excelize.LineDashType{Solid: excelize.LineDashSolid, Dashed: excelize.LineDashDash, Dotted: excelize.LineDashSysDot}[s.Dash]
		cs := excelize.ChartSeries{Name: s.Name, Categories: s.Categories, Values: s.Values,
			Fill: fill, Line: excelize.LineOptions{Type: excelize.LineSolid, Width: width}}
		if s.Dash != Solid {
			cs.Line.Dash = dash
		}
		if s.NoLine {
			cs.Line = excelize.LineOptions{Type: excelize.LineNone}
		}
		if c.Markers && shape != "none" {
			size := c.MarkerSize
			if s.MarkerSize > 0 {
				size = s.MarkerSize
			}
			if size == 0 {
				size = 6
			}
			cs.Marker = excelize.ChartMarker{Symbol: shape, Size: size, Fill: fill,
				Border: excelize.LineOptions{Type: excelize.LineSolid, Fill: fill, Width: 0.75}}
		} else {
			cs.Marker = excelize.ChartMarker{Symbol: "none"}
		}
		out = append(out, cs)
	}
	return out
}

// PrintCharts sets a sheet of charts up for printing: landscape, the cells
// from..to (A1 names, the charts' area) as the print area, fitted to one
// page wide and as many pages tall as it takes.
func (b *Book) PrintCharts(sheet, from, to string) error {
	if err := b.printOneWide(sheet); err != nil {
		return err
	}
	// The charts print alone: no titles of a table beside them.
	for _, dn := range b.f.GetDefinedName() {
		if dn.Name == "_xlnm.Print_Titles" && dn.Scope == sheet {
			if err := b.keep(b.f.DeleteDefinedName(&excelize.DefinedName{Name: dn.Name, Scope: sheet})); err != nil {
				return err
			}
		}
	}
	return b.PrintArea(sheet, from, to)
}

// PrintPage prints the cells from..to (A1 names) of sheet landscape,
// fitted to one page wide and as many pages tall as it takes, the frozen
// header rows repeated on each page but not the frozen columns: one page
// wide, they would print twice. It suits a sheet whose first columns say
// what a reader needs and whose further columns are detail for the screen.
func (b *Book) PrintPage(sheet, from, to string) error {
	if err := b.printOneWide(sheet); err != nil {
		return err
	}
	for _, dn := range b.f.GetDefinedName() {
		if dn.Name != "_xlnm.Print_Titles" || dn.Scope != sheet {
			continue
		}
		var rows []string
		for _, ref := range strings.Split(dn.RefersTo, ",") {
			// The range after the last "!": a quoted sheet name may hold one.
			if i := strings.LastIndex(ref, "!"); i >= 0 && !strings.HasPrefix(ref[i+1:], "$A:") {
				rows = append(rows, ref)
			}
		}
		if err := b.keep(b.f.DeleteDefinedName(&excelize.DefinedName{Name: dn.Name, Scope: sheet})); err != nil {
			return err
		}
		if len(rows) > 0 {
			if err := b.Define(DefinedName{Name: dn.Name, RefersTo: strings.Join(rows, ","), Scope: sheet}); err != nil {
				return err
			}
		}
	}
	return b.PrintArea(sheet, from, to)
}

// PrintArea prints the cells from..to (A1 names) of sheet and nothing
// else: a text that runs on past to's column, the last column's say,
// prints cut at the area's edge rather than on pages of its own.
func (b *Book) PrintArea(sheet, from, to string) error {
	abs := func(ref string) string {
		col, row, _ := excelize.SplitCellName(ref)
		return fmt.Sprintf("$%s$%d", col, row)
	}
	return b.Define(DefinedName{Name: "_xlnm.Print_Area", RefersTo: QuoteSheet(sheet) + "!" + abs(from) + ":" + abs(to), Scope: sheet})
}

// PrintOneWide sets sheet up to print landscape, fitted to one page wide
// and as many pages tall as it takes.
func (b *Book) PrintOneWide(sheet string) error { return b.printOneWide(sheet) }

// printOneWide prints a sheet landscape, fitted to one page wide and as
// many pages tall as it takes.
func (b *Book) printOneWide(sheet string) error {
	landscape, wide, tall, fit := "landscape", 1, 0, true
	if err := b.keep(b.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Orientation: &landscape, FitToWidth: &wide, FitToHeight: &tall})); err != nil {
		return err
	}
	return b.keep(b.f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}))
}

// PageBreakBefore starts a new printed page at row (1-based), so that a
// chart below it is not cut in two.
func (b *Book) PageBreakBefore(sheet string, row int) error {
	if row <= 1 {
		return nil
	}
	return b.keep(b.f.InsertPageBreak(sheet, CellName(0, row)))
}
