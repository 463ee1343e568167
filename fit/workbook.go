package fit

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/internal/suggest"
)

// Every use of excelize in this package is in this file.

// openOptions bound what a workbook may unzip to (a small zip can expand to
// gigabytes; a full sheet of 1,048,576 values is about 40 MB) and read
// values as saved, not as formatted ("1,234.57").
var openOptions = excelize.Options{UnzipSizeLimit: 512 << 20, UnzipXMLSizeLimit: 16 << 20, RawCellValue: true}

// readWorkbook reads the column col (a header of the first row, matched
// ignoring case, spaces and underscores, or a letter) of a sheet. The
// first row is a header when its cell in the column is not a number.
func readWorkbook(book, sheet, col string) (*Data, error) {
	if _, err := os.Stat(book); err != nil {
		what := fmt.Sprintf("cannot read the workbook (%v)", errors.Unwrap(err))
		if errors.Is(err, fs.ErrNotExist) {
			what = "no such file; expected an Excel workbook (.xlsx)"
		}
		return nil, Problems{{book, what}}
	}
	f, err := excelize.OpenFile(book, openOptions)
	if err != nil {
		return nil, Problems{{book, fmt.Sprintf("cannot open the workbook (%v); expected an Excel workbook saved as .xlsx", err)}}
	}
	defer f.Close()
	sheets := f.GetSheetList()
	name := ""
	for _, s := range sheets {
		if s == sheet || name == "" && strings.EqualFold(s, sheet) {
			name = s
		}
	}
	if name == "" {
		what := fmt.Sprintf("no sheet %q", sheet)
		if dym := suggest.DidYouMean(sheet, sheets); dym != "" {
			what += dym
		} else {
			what += "; the sheets are " + quoteList(sheets)
		}
		return nil, Problems{{book, what}}
	}
	where := book + "!" + name
	// A damaged sheet can read as no rows without an error: probe it.
	if _, err := f.GetCellValue(name, "A1"); err != nil {
		return nil, Problems{{where, fmt.Sprintf("cannot read the sheet (%v)", err)}}
	}
	rows, err := f.Rows(name)
	if err != nil {
		return nil, Problems{{where, fmt.Sprintf("cannot read the sheet (%v)", err)}}
	}
	defer rows.Close()

	c := collector{}
	idx, letter, header := -1, "", ""
	for r := 1; rows.Next(); r++ {
		cells, err := rows.Columns()
		if err != nil {
			return nil, Problems{{fmt.Sprintf("%s!A%d", where, r), fmt.Sprintf("cannot read the row (%v)", err)}}
		}
		if idx < 0 {
			if idx, header, err = findColumn(cells, col, where); err != nil {
				return nil, err
			}
			letter, _ = excelize.ColumnNumberToName(idx + 1)
			if header != "" {
				continue
			}
		}
		if idx < len(cells) {
			c.take([]byte(cells[idx]), func() string { return fmt.Sprintf("%s!%s%d", where, letter, r) })
		}
	}
	if err := rows.Error(); err != nil {
		return nil, Problems{{where, fmt.Sprintf("cannot read the sheet (%v)", err)}}
	}
	if idx < 0 {
		return nil, Problems{{where, "the sheet is empty; expected a column of numbers, with or without a header row"}}
	}
	column := header
	if column == "" {
		column = letter
	}
	values, err := c.finish(where+"!"+letter, column)
	if err != nil {
		return nil, err
	}
	return &Data{Source: where, Column: column, Values: values}, nil
}

// findColumn finds col in the first row: a header, else a column letter.
// It returns the column's index and its header ("" when the first row is
// data).
func findColumn(first []string, col, where string) (int, string, error) {
	var headers []string
	for i, h := range first {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if _, isNumber := parseNumber(h); !isNumber {
			headers = append(headers, h)
			if normalize(h) == normalize(col) {
				return i, h, nil
			}
		}
	}
	if n, err := excelize.ColumnNameToNumber(col); err == nil && len(col) <= 3 {
		i := n - 1
		if i < len(first) {
			if h := strings.TrimSpace(first[i]); h != "" {
				if _, isNumber := parseNumber(h); !isNumber {
					return i, h, nil
				}
			}
		}
		return i, "", nil
	}
	what := fmt.Sprintf("no column %q in the first row", col)
	if dym := suggest.DidYouMean(col, headers); dym != "" {
		what += dym
	} else if len(headers) > 0 {
		what += "; the headers are " + quoteList(headers) + ", or give a column letter such as B"
	} else {
		what += "; expected a header of the first row or a column letter such as B"
	}
	return 0, "", Problems{{where, what}}
}

// The sheets of the workbook that `websim fit --out` writes.
const (
	FitSheet     = "Fit"
	FitDataSheet = "FitData"
)

// densityFits is how many of the best fits the histogram draws.
const densityFits = 3

// The column of FitData that labels the histogram's bars (N).
const (
	labelColumn = 14
	labelName   = "N"
)

// Colours a reader tells apart, in print and for the colour-blind:
// the measured data pale, the fits dark and distinct.
var (
	barColour  = "A9C4E2"
	fitColours = []string{"C00000", "1F3864", "548235"}
)

// WriteWorkbook writes the ranking and its charts to a new workbook at path:
// the sheet Fit (the ranking, a histogram of the data with the best fits'
// densities, and a Q-Q plot of the best fit) and FitData (the charts'
// numbers). The file is written whole or not at all (a temporary file
// renamed into place).
func WriteWorkbook(path string, d *Data, r *Result) error {
	f := excelize.NewFile()
	defer f.Close()
	w := &sheetWriter{f: f}
	if err := f.SetSheetName(f.GetSheetName(0), FitSheet); err != nil {
		return err
	}
	if _, err := f.NewSheet(FitDataSheet); err != nil {
		return err
	}
	bold := w.style(&excelize.Style{Font: &excelize.Font{Bold: true}})
	title := w.style(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 13}})

	w.row(FitSheet, 1, "websim fit: "+d.Source+", column "+d.Column)
	w.setStyle(FitSheet, "A1", "A1", title)
	tested := fmt.Sprintf("%d (every value)", r.Tested)
	if r.Tested < r.Observations {
		tested = fmt.Sprintf("%d (a random subsample)", r.Tested)
	}
	w.row(FitSheet, 2, "Observations", r.Observations)
	w.row(FitSheet, 3, "p-value", "parametric bootstrap of the KS distance, each sample refitted")
	w.row(FitSheet, 4, "Replicates", r.Replicates)
	w.row(FitSheet, 5, "Seed", r.Seed)
	w.row(FitSheet, 6, "Values tested", tested)
	w.setStyle(FitSheet, "B2", "B6", w.style(&excelize.Style{Alignment: &excelize.Alignment{Horizontal: "left"}}))
	const header = 8
	w.row(FitSheet, header, "Rank", "Distribution", "AIC", "ΔAIC", "KS distance", "p-value")
	w.setStyle(FitSheet, cell("A", header), cell("F", header), bold)
	for i, fit := range r.Fits {
		row := []any{i + 1, fit.Cell, num(fit.AIC), num(fit.AIC - r.Fits[0].AIC), fit.KS, num(fit.PValue)}
		w.row(FitSheet, header+1+i, row...)
	}
	last := header + len(r.Fits)
	w.setStyle(FitSheet, cell("C", header+1), cell("D", last), w.style(&excelize.Style{NumFmt: 4})) // #,##0.00
	w.setStyle(FitSheet, cell("E", header+1), cell("F", last), w.style(&excelize.Style{CustomNumFmt: ptr("0.0000")}))
	next := last + 2
	for _, s := range r.Skipped {
		w.row(FitSheet, next, "Not ranked", s.Family, s.Reason)
		next++
	}
	w.row(FitSheet, next+1, "Best fit", r.Fits[0].Cell, "paste it into a cell of the model")
	w.setStyle(FitSheet, cell("B", next+1), cell("B", next+1), bold)
	w.do(f.SetColWidth(FitSheet, "A", "A", 14))
	w.do(f.SetColWidth(FitSheet, "B", "B", 30))
	w.do(f.SetColWidth(FitSheet, "C", "F", 12))

	if r.Fits[0].Family != "Const" {
		w.charts(d, r)
	}
	// One landscape page, so that the ranking and both charts print together.
	w.do(f.SetPageLayout(FitSheet, &excelize.PageLayoutOptions{Orientation: ptr("landscape"), FitToWidth: ptr(1), FitToHeight: ptr(1)}))
	w.do(f.SetSheetProps(FitSheet, &excelize.SheetPropsOptions{FitToPage: ptr(true)}))
	f.SetActiveSheet(0)
	if w.err != nil {
		return w.err
	}
	return saveAtomic(f, path)
}

// charts writes the histogram and Q-Q data to FitData and the two charts to
// Fit.
func (w *sheetWriter) charts(d *Data, r *Result) {
	h := NewHistogram(r.Values)
	ref := func(col string, from, to int) string {
		return fmt.Sprintf("%s!$%s$%d:$%s$%d", FitDataSheet, col, from, col, to)
	}
	best := r.Fits[:min(densityFits, len(r.Fits))]
	unit := "value"
	if d.Column != "" {
		unit = d.Column
	}

	header := []any{"Bin from", "Bin to", "Bin middle", "Measured density"}
	for _, fit := range best {
		header = append(header, fit.Cell)
	}
	w.row(FitDataSheet, 1, header...)
	for i := range h.Counts {
		row := []any{h.Lo + float64(i)*h.Width, h.Lo + float64(i+1)*h.Width, h.Middle(i), h.Density(i)}
		for _, fit := range best {
			row = append(row, fit.PDF(h.Middle(i)))
		}
		w.row(FitDataSheet, 2+i, row...)
	}
	// The bars' labels: about ten middles, the rest blank, or they crowd
	// into stacks of digits (LibreOffice ignores Excel's label skip).
	skip := (len(h.Counts) + 9) / 10
	w.row(FitDataSheet, 1, cellsAt(labelColumn, "Axis label")...)
	for i := range h.Counts {
		label := ""
		if i%skip == 0 {
			label = roundAt(h.Middle(i), max(decimalsFor(h.Width*float64(skip), 2), 0))
		}
		w.row(FitDataSheet, 2+i, cellsAt(labelColumn, label)...)
	}
	lastBin := 1 + len(h.Counts)
	labels := ref(labelName, 2, lastBin)
	bars := excelize.Chart{
		Type: excelize.Col,
		Series: []excelize.ChartSeries{{
			Name: FitDataSheet + "!$D$1", Categories: labels, Values: ref("D", 2, lastBin),
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{barColour}},
		}},
		GapWidth:  ptr(uint(5)),
		Title:     chartTitle("Measured " + unit + ": histogram and the best fits' densities"),
		Dimension: excelize.ChartDimension{Width: 760, Height: 480},
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis: excelize.ChartAxis{Title: chartTitle(unit + " (middle of the bins labelled)"), Font: darkFont(),
			Alignment: excelize.Alignment{TextRotation: -45}},
		YAxis: excelize.ChartAxis{Title: chartTitle("density (share of values per unit of " + unit + ")"), MajorGridLines: true,
			Font: darkFont()},
		Format: excelize.GraphicOptions{AltText: "Histogram of the measured values with the densities of the best fits over it"},
	}
	// In a combination chart the axes are drawn from the second chart's.
	lines := excelize.Chart{Type: excelize.Line, XAxis: bars.XAxis, YAxis: bars.YAxis}
	for i := range best {
		col, _ := excelize.ColumnNumberToName(5 + i)
		lines.Series = append(lines.Series, excelize.ChartSeries{
			Name: fmt.Sprintf("%s!$%s$1", FitDataSheet, col), Categories: labels, Values: ref(col, 2, lastBin),
			Fill:   solid(fitColours[i]), // the colour of a line is its series' fill
			Line:   excelize.LineOptions{Type: excelize.LineSolid, Width: 2.5 - 0.5*float64(i), Dash: dashes[i]},
			Marker: excelize.ChartMarker{Symbol: "none"},
		})
	}
	w.do(w.f.AddChart(FitSheet, "H1", &bars, &lines))

	// Q-Q plot of the best fit, with the line y = x.
	qq := QQPoints(r.Values, &r.Fits[0], 200)
	w.row(FitDataSheet, 1, cellsAt(8, "Probability", r.Fits[0].Cell+" quantile", "Measured quantile", "Line y = x")...)
	for i, p := range qq {
		w.row(FitDataSheet, 2+i, cellsAt(8, (float64(i)+0.5)/float64(len(qq)), p.Fitted, p.Measured)...)
	}
	lo := math.Min(qq[0].Fitted, qq[0].Measured)
	hi := math.Max(qq[len(qq)-1].Fitted, qq[len(qq)-1].Measured)
	w.row(FitDataSheet, 2, cellsAt(11, lo)...)
	w.row(FitDataSheet, 3, cellsAt(11, hi)...)
	w.row(FitDataSheet, 2, cellsAt(12, lo)...)
	w.row(FitDataSheet, 3, cellsAt(12, hi)...)
	lastQQ := 1 + len(qq)
	scatter := excelize.Chart{
		Type: excelize.Scatter,
		Series: []excelize.ChartSeries{
			{
				Name: FitDataSheet + "!$J$1", Categories: ref("I", 2, lastQQ), Values: ref("J", 2, lastQQ),
				Line: excelize.LineOptions{Type: excelize.LineNone},
				Marker: excelize.ChartMarker{Symbol: "circle", Size: 5, Fill: solid(fitColours[1]),
					Border: excelize.LineOptions{Type: excelize.LineSolid, Fill: solid(fitColours[1])}},
			},
			{
				Name: FitDataSheet + "!$K$1", Categories: ref("K", 2, 3), Values: ref("L", 2, 3),
				Fill:   solid(fitColours[0]),
				Line:   excelize.LineOptions{Type: excelize.LineSolid, Width: 1.5},
				Marker: excelize.ChartMarker{Symbol: "none"},
			},
		},
		Title:     chartTitle("Q-Q plot: measured " + unit + " against " + r.Fits[0].Cell),
		Dimension: excelize.ChartDimension{Width: 760, Height: 480},
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis:     excelize.ChartAxis{Title: chartTitle("quantile of " + r.Fits[0].Cell), MajorGridLines: true, Font: darkFont()},
		YAxis:     excelize.ChartAxis{Title: chartTitle("measured quantile"), MajorGridLines: true, Font: darkFont()},
		Format:    excelize.GraphicOptions{AltText: "Q-Q plot of the measured values against the best fit; points on the line mean a good fit"},
	}
	w.do(w.f.AddChart(FitSheet, "H29", &scatter))
	w.do(w.f.SetColWidth(FitDataSheet, "A", labelName, 16))
}

var dashes = []excelize.LineDashType{excelize.LineDashSolid, excelize.LineDashDash, excelize.LineDashSysDot}

func chartTitle(text string) excelize.ChartTitle {
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: text, Font: &excelize.Font{Color: "000000", Size: 11}}}}
}

func darkFont() excelize.Font { return excelize.Font{Color: "000000"} }

func solid(colour string) excelize.Fill {
	return excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{colour}}
}

// cellsAt pads values with nils so that they start at column col (from 1).
func cellsAt(col int, values ...any) []any {
	return append(make([]any, col-1), values...)
}

// num is x, or an empty cell for NaN (Const has no AIC).
func num(x float64) any {
	if math.IsNaN(x) {
		return nil
	}
	return x
}

func ptr[T any](v T) *T { return &v }

func cell(col string, row int) string { return fmt.Sprintf("%s%d", col, row) }

// sheetWriter keeps the first error of a series of writes.
type sheetWriter struct {
	f   *excelize.File
	err error
}

func (w *sheetWriter) do(err error) {
	if w.err == nil {
		w.err = err
	}
}

// row writes values from column A of row; nil values leave their cell as
// it is.
func (w *sheetWriter) row(sheet string, row int, values ...any) {
	for i, v := range values {
		if v == nil {
			continue
		}
		name, _ := excelize.CoordinatesToCellName(i+1, row)
		w.do(w.f.SetCellValue(sheet, name, v))
	}
}

func (w *sheetWriter) style(s *excelize.Style) int {
	id, err := w.f.NewStyle(s)
	w.do(err)
	return id
}

func (w *sheetWriter) setStyle(sheet, from, to string, style int) {
	w.do(w.f.SetCellStyle(sheet, from, to, style))
}

// readSheet returns the cells of a sheet as text, for tests that look at
// what WriteWorkbook wrote.
func readSheet(path, sheet string) ([][]string, error) {
	f, err := excelize.OpenFile(path, openOptions)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.GetRows(sheet)
}

// saveAtomic writes f to a temporary file beside path and renames it into
// place, so that a failure leaves any earlier file whole.
func saveAtomic(f *excelize.File, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".websim-*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	name := tmp.Name()
	if err := f.Write(tmp); err != nil {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
