package fit

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/internal/xlsx"
)

// Workbooks are read and written through the Excel layer (internal/xlsx).

// readWorkbook reads the column col (a header of the first row, matched
// ignoring case, spaces and underscores, or a letter) of a sheet. The
// first row is a header when its cell in the column is not a number. The
// rows are streamed, so that a sheet of a million values is never held
// whole; values are read as saved, not as formatted ("1,234.57").
func readWorkbook(book, sheet, col string) (*Data, error) {
	if _, err := os.Stat(book); err != nil {
		what := fmt.Sprintf("cannot read the workbook (%v)", errors.Unwrap(err))
		if errors.Is(err, fs.ErrNotExist) {
			what = "no such file; expected an Excel workbook (.xlsx)"
		}
		return nil, Problems{{book, what}}
	}
	f, err := xlsx.OpenData(book)
	if err != nil {
		var p xlsx.Problem
		if errors.As(err, &p) {
			p.File = book // the path as the user gave it, then the sheet and cell
			return nil, Problems{{p.Where(), p.Msg}}
		}
		return nil, Problems{{book, fmt.Sprintf("cannot open the workbook (%v); expected an Excel workbook saved as .xlsx", err)}}
	}
	defer f.Close()
	sheets := f.Sheets()
	name, ok := f.FindSheet(sheet)
	if !ok {
		what := fmt.Sprintf("no sheet %q", sheet)
		if dym := suggest.DidYouMean(sheet, sheets); dym != "" {
			what += dym
		} else {
			what += "; the sheets are " + quoteList(sheets)
		}
		return nil, Problems{{book, what}}
	}
	where := book + "!" + name

	// A formula whose value was not saved (a workbook a program wrote)
	// reads as a blank cell: those are computed, and the column read again
	// with their values in place, in order.
	var c collector
	idx, letter, header, meant := -1, "", "", ""
	var blanks []string
	hasDates := f.HasDateFormats()
	scan := func(computed, unsaved map[string]string) error {
		c, idx, blanks = collector{keepRows: hasDates}, -1, nil
		var stop error
		err := f.ScanRows(name, func(r int, cells []string) bool {
			c.lineNo = r
			if idx < 0 {
				if idx, header, meant, stop = findColumn(cells, col, where); stop != nil {
					return false
				}
				letter = xlsx.ColumnName(idx)
				if header != "" {
					return true
				}
			}
			if idx < len(cells) {
				ref := fmt.Sprintf("%s%d", letter, r)
				text := cells[idx]
				if strings.TrimSpace(text) == "" {
					blanks = append(blanks, ref)
					if msg, bad := unsaved[ref]; bad {
						c.bad(where+"!"+ref, msg)
					}
					text = computed[ref]
				}
				c.take([]byte(text), func() string { return where + "!" + ref })
			}
			return true
		})
		if stop != nil {
			return stop
		}
		if err != nil {
			return Problems{{where, fmt.Sprintf("cannot read the sheet (%v)", err)}}
		}
		return nil
	}
	if err := scan(nil, nil); err != nil {
		return nil, err
	}
	if len(blanks) > 0 {
		if computed, unsaved := f.Unsaved(name, blanks); len(computed)+len(unsaved) > 0 {
			if err := scan(computed, unsaved); err != nil {
				return nil, err
			}
		}
	}
	if idx < 0 {
		return nil, Problems{{where, "the sheet is empty; expected a column of numbers, with or without a header row"}}
	}
	column := header
	if column == "" {
		column = letter
	}
	if meant != "" && len(c.values) == 0 && len(c.problems) == 0 {
		return nil, Problems{{where, fmt.Sprintf("no column %q in the first row%s (read as column letters, column %s is empty)", col, meant, letter)}}
	}
	if hasDates {
		// The date cells, in line among the other bad cells, all reported
		// at once, and their numbers of days left out of the values.
		if err := datesIn(f, name, where, idx, letter, &c); err != nil {
			return nil, err
		}
	}
	values, err := c.finish(where+"!"+letter, column)
	if err != nil {
		return nil, err
	}
	return &Data{Source: where, Column: column, Values: values}, nil
}

// datesIn finds the cells of the column that Excel shows as a date or a
// time: saved as a number of days (45292 for 1 January 2024), they would
// pass for a measured time, and Excel turns some typed entries into dates
// by itself. It decides by each cell's number format, reading the column
// again as shown for the messages, a second pass that a workbook without
// date or time formats is spared. Only cells c took as values are dates
// (one not a number is already reported as such, once): each is a problem
// of c, merged in row order with the others, and its value is left out.
func datesIn(f *xlsx.Book, sheet, where string, idx int, letter string, c *collector) error {
	var ps []lined
	var last lined
	total := 0
	var drop []int // indexes of c.values, ascending
	k := 0         // c.rows[k] is the first row of a value at or after the row scanned
	err := f.ScanShownRows(sheet, func(r int, cells []string) bool {
		for k < len(c.rows) && int(c.rows[k]) < r {
			k++
		}
		if k == len(c.rows) {
			return false // no value further down
		}
		if int(c.rows[k]) != r || idx >= len(cells) {
			return true
		}
		ref := fmt.Sprintf("%s%d", letter, r)
		if !f.IsDate(sheet, ref) {
			return true
		}
		drop = append(drop, k)
		total++
		last = lined{r, Problem{Where: where + "!" + ref}}
		if len(ps) < maxRowProblems {
			ps = append(ps, lined{r, Problem{where + "!" + ref, fmt.Sprintf("a date or a time (shown as %q), which Excel saves as a number of days; expected a measured time as a number (a duration shown as h:mm:ss is in days too: times 86,400 for seconds)", strings.TrimSpace(cells[idx]))}})
		}
		return true
	})
	if err != nil {
		return Problems{{where, fmt.Sprintf("cannot read the sheet (%v)", err)}}
	}
	if total == 0 {
		return nil
	}
	c.merge(ps, total, last)
	for _, i := range drop {
		c.values[i] = math.NaN()
	}
	c.values = slices.DeleteFunc(c.values, math.IsNaN)
	return nil
}

// findColumn finds col in the first row: a header, else a column letter.
// It returns the column's index and its header ("" when the first row is
// data), and, for letters, the header they are close to (meant, a "; did
// you mean" text), which names the column meant if the one read is empty.
func findColumn(first []string, col, where string) (idx int, header, meant string, err error) {
	var headers []string
	for i, h := range first {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if _, isNumber := parseNumber(h); !isNumber {
			headers = append(headers, h)
			if normalize(h) == normalize(col) {
				return i, h, "", nil
			}
		}
	}
	if n, _, err := xlsx.CellCoordinates(col + "1"); err == nil && len(col) <= 3 {
		i := n - 1
		if i < len(first) {
			if h := strings.TrimSpace(first[i]); h != "" {
				if _, isNumber := parseNumber(h); !isNumber {
					return i, h, "", nil
				}
			}
		}
		// A mistyped header ("tme" for "time") can be a column's letters
		// too: the header it is close to, should that column turn out
		// empty, is what was meant.
		return i, "", suggest.DidYouMean(col, headers), nil
	}
	what := fmt.Sprintf("no column %q in the first row", col)
	if dym := suggest.DidYouMean(col, headers); dym != "" {
		what += dym
	} else if len(headers) > 0 {
		what += "; the headers are " + quoteList(headers) + ", or give a column letter such as B"
	} else {
		what += "; expected a header of the first row or a column letter such as B"
	}
	return 0, "", "", Problems{{where, what}}
}

// The sheets of the workbook that `websim fit --out` writes.
const (
	FitSheet     = "Fit"
	FitDataSheet = "FitData"
)

// fitHeaderRow is the row of the Fit sheet that heads the ranking.
const fitHeaderRow = 10

// densityFits is how many of the best fits the histogram draws.
const densityFits = 3

// chartColumn is the column of the Fit sheet where the charts start, right
// of the ranking's last column (I).
const chartColumn = "K"

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
	b := xlsx.New()
	defer b.Close()
	b.RenameSheet(b.Sheets()[0], FitSheet)
	b.NewSheet(FitDataSheet)

	b.SetCell(FitSheet, "A1", "websim fit: "+d.Source+", column "+d.Column)
	b.SetStyle(FitSheet, "A1", "A1", xlsx.Title)
	tested := fmt.Sprintf("%d (every value)", r.Tested)
	if r.Tested < r.Observations {
		tested = fmt.Sprintf("%d (a random subsample)", r.Tested)
	}
	row(b, FitSheet, 2, "Observations", r.Observations)
	row(b, FitSheet, 3, "p-value", "parametric bootstrap of the KS distance, each sample refitted")
	row(b, FitSheet, 4, "Replicates", r.Replicates)
	row(b, FitSheet, 5, "Seed", r.Seed)
	row(b, FitSheet, 6, "Values tested", tested)
	row(b, FitSheet, 7, "Mean", r.Mean, "of the data: the load per request that a cell's mean should keep")
	row(b, FitSheet, 8, "SD", r.SD, "of the data (sample standard deviation)")
	b.SetStyle(FitSheet, "B2", "B6", xlsx.Left)
	// Means and sds to four significant digits of the data's mean.
	figures := xlsx.TimeStyle(xlsx.TimeDigits(r.Mean, 4))
	b.SetStyle(FitSheet, "B7", "B8", figures)
	const header = fitHeaderRow
	row(b, FitSheet, header, "Rank", "Distribution", "Mean", "SD", "Δmean", "AIC", "ΔAIC", "KS distance", "p-value")
	b.SetStyle(FitSheet, cell("A", header), cell("I", header), xlsx.Bold)
	for i, fit := range r.Fits {
		row(b, FitSheet, header+1+i, i+1, fit.Cell, num(fit.Mean), num(fit.SD), num(fit.MeanShift), num(fit.AIC), num(fit.AIC-r.Fits[0].AIC), fit.KS, num(fit.PValue))
	}
	last := header + len(r.Fits)
	// The rank stands at the left of its column, apart from the
	// distribution beside it ("1  Weibull(...)", not "1Weibull(...)").
	b.SetStyle(FitSheet, cell("A", header+1), cell("A", last), xlsx.Left)
	b.SetStyle(FitSheet, cell("C", header+1), cell("D", last), figures)
	b.SetStyle(FitSheet, cell("E", header+1), cell("E", last), xlsx.Percent2)
	b.SetStyle(FitSheet, cell("F", header+1), cell("G", last), xlsx.Decimal2)
	b.SetStyle(FitSheet, cell("H", header+1), cell("I", last), xlsx.Decimal4)
	next := last + 2
	for _, s := range r.Skipped {
		// The reason, wrapped over columns C to F: left to run on, it
		// would pass under the histogram.
		row(b, FitSheet, next, "Not ranked", s.Family, s.Reason)
		b.MergeCells(FitSheet, cell("C", next), cell("F", next))
		b.SetStyle(FitSheet, cell("C", next), cell("F", next), xlsx.Plain|xlsx.Wrapped)
		b.RowHeight(FitSheet, next, float64(max(1, (len([]rune(s.Reason))+reasonWidth-1)/reasonWidth))*lineHeight)
		next++
	}
	next++
	row(b, FitSheet, next, "Best fit", r.Fits[0].Cell, "paste it into a cell of the model")
	b.SetStyle(FitSheet, cell("B", next), cell("B", next), xlsx.Bold)
	// Beside the cell to paste, what it is worth: a text over B to F,
	// wrapped, its label a red flag when it is a warning.
	note := func(label, text string, warning bool) {
		next++
		row(b, FitSheet, next, label, text)
		b.MergeCells(FitSheet, cell("B", next), cell("F", next))
		if warning {
			b.SetStyle(FitSheet, cell("A", next), cell("A", next), xlsx.Warning)
		}
		b.SetStyle(FitSheet, cell("B", next), cell("F", next), xlsx.Plain|xlsx.Wrapped)
		b.RowHeight(FitSheet, next, float64((len([]rune(text))+2*reasonWidth-1)/(2*reasonWidth))*lineHeight)
	}
	if r.noneFits() {
		note("None fits", noneFitsText, true)
	}
	if off, keeps := r.meanOffText(); off != "" {
		note("Mean off", off, true)
		if k := r.KeepsMean; k != nil {
			next++
			row(b, FitSheet, next, "Keeps the mean", k.Cell, "paste it instead where the load matters more than the tail (below)")
			b.SetStyle(FitSheet, cell("B", next), cell("B", next), xlsx.Bold)
		}
		note("Why", keeps, false)
	}
	b.ColWidths(FitSheet, 0, 14, 30, 12, 12, 12, 12, 12, 12, 12)

	if r.Fits[0].Family != "Const" {
		charts(b, d, r)
	}
	// One landscape page, so that the ranking and both charts print together.
	b.FitOnePage(FitSheet, true)
	b.SetActiveSheet(0)
	return b.Save(path)
}

// charts writes the histogram and Q-Q data to FitData and the two charts to
// Fit.
func charts(b *xlsx.Book, d *Data, r *Result) {
	h := NewHistogram(r.Values)
	ref := func(col int, from, to int) string { return xlsx.AbsRange(FitDataSheet, col, from, to) }
	best := r.Fits[:min(densityFits, len(r.Fits))]
	unit := "value"
	if d.Column != "" {
		unit = d.Column
	}

	header := []any{"Bin from", "Bin to", "Bin middle", "Measured density"}
	for _, fit := range best {
		header = append(header, fit.Cell)
	}
	row(b, FitDataSheet, 1, header...)
	for i := range h.Counts {
		values := []any{h.Lo + float64(i)*h.Width, h.Lo + float64(i+1)*h.Width, h.Middle(i), h.Density(i)}
		for _, fit := range best {
			values = append(values, fit.PDF(h.Middle(i)))
		}
		row(b, FitDataSheet, 2+i, values...)
	}
	// The bars' labels: about ten middles, the rest blank, or they crowd
	// into stacks of digits (LibreOffice ignores Excel's label skip).
	skip := (len(h.Counts) + 9) / 10
	row(b, FitDataSheet, 1, cellsAt(labelColumn, "Axis label")...)
	for i := range h.Counts {
		label := ""
		if i%skip == 0 {
			label = roundAt(h.Middle(i), max(decimalsFor(h.Width*float64(skip), 2), 0))
		}
		row(b, FitDataSheet, 2+i, cellsAt(labelColumn, label)...)
	}
	lastBin := 1 + len(h.Counts)
	labels := ref(labelColumn-1, 2, lastBin)
	bars := xlsx.Chart{
		Kind: xlsx.ColumnChart,
		Series: []xlsx.Series{{
			Name: xlsx.AbsRange(FitDataSheet, 3, 1, 1), Categories: labels, Values: ref(3, 2, lastBin), Color: barColour,
		}},
		GapWidth: 5,
		Title:    "Measured " + unit + ": histogram and the best fits' densities",
		XTitle:   unit + " (middle of the bins labelled)",
		YTitle:   "density (share of values per unit of " + unit + ")",
		XRotate:  -45,
		Width:    760, Height: 480, Legend: "bottom",
		AltText: "Histogram of the measured values with the densities of the best fits over it",
	}
	for i := range best {
		bars.Lines = append(bars.Lines, xlsx.Series{
			Name: xlsx.AbsRange(FitDataSheet, 4+i, 1, 1), Categories: labels, Values: ref(4+i, 2, lastBin),
			Color: fitColours[i], Width: 2.5 - 0.5*float64(i), Dash: dashes[i], Marker: "none",
		})
	}
	b.AddChart(FitSheet, chartColumn+"1", bars)

	// Q-Q plot of the best fit, with the line y = x.
	qq := QQPoints(r.Values, &r.Fits[0], 200)
	row(b, FitDataSheet, 1, cellsAt(8, "Probability", r.Fits[0].Cell+" quantile", "Measured quantile", "Line y = x", "Line y = x: y")...)
	for i, p := range qq {
		row(b, FitDataSheet, 2+i, cellsAt(8, (float64(i)+0.5)/float64(len(qq)), p.Fitted, p.Measured)...)
	}
	lo := math.Min(qq[0].Fitted, qq[0].Measured)
	hi := math.Max(qq[len(qq)-1].Fitted, qq[len(qq)-1].Measured)
	row(b, FitDataSheet, 2, cellsAt(11, lo, lo)...)
	row(b, FitDataSheet, 3, cellsAt(11, hi, hi)...)
	lastQQ := 1 + len(qq)
	b.AddChart(FitSheet, chartColumn+"29", xlsx.Chart{
		Kind: xlsx.ScatterChart, Markers: true, MarkerSize: 5,
		Series: []xlsx.Series{
			{Name: xlsx.AbsRange(FitDataSheet, 9, 1, 1), Categories: ref(8, 2, lastQQ), Values: ref(9, 2, lastQQ),
				Color: fitColours[1], NoLine: true, Marker: "circle"},
			{Name: xlsx.AbsRange(FitDataSheet, 10, 1, 1), Categories: ref(10, 2, 3), Values: ref(11, 2, 3),
				Color: fitColours[0], Width: 1.5, Marker: "none"},
		},
		Title:  "Q-Q plot: measured " + unit + " against " + r.Fits[0].Cell,
		XTitle: "quantile of " + r.Fits[0].Cell, YTitle: "measured quantile",
		Width: 760, Height: 480, Legend: "bottom",
		AltText: "Q-Q plot of the measured values against the best fit; points on the line mean a good fit",
	})
	for col := range labelColumn {
		b.ColWidths(FitDataSheet, col, 16)
	}
	// Headers, frozen, and numbers to the digits they need: the bins'
	// ends and the quantiles in the data's, densities to three figures.
	b.SetStyle(FitDataSheet, "A1", xlsx.CellName(labelColumn-1, 1), xlsx.Header)
	b.FreezeRows(FitDataSheet, 1)
	b.RowHeight(FitDataSheet, 1, 2*lineHeight) // a fit's cell on two lines
	// The bins' width sets the decimals; an exponent only where the times
	// themselves are that short: bins of 2e-7 about 1 keep six decimals,
	// as 1.00E+00 would show every end alike.
	decimals := xlsx.TimeDigits(h.Width, 3)
	if largest := max(math.Abs(r.Values[0]), math.Abs(r.Values[len(r.Values)-1])); decimals == xlsx.ExpDecimals && largest >= 1e-5 {
		decimals = xlsx.ExpDecimals - 1
	}
	values := xlsx.TimeStyle(decimals)
	b.SetStyle(FitDataSheet, "A2", xlsx.CellName(2, lastBin), values)
	maxDensity := 0.0
	for i := range h.Counts {
		maxDensity = max(maxDensity, h.Density(i))
	}
	b.SetStyle(FitDataSheet, "D2", xlsx.CellName(3+len(best), lastBin), xlsx.TimeStyle(xlsx.TimeDigits(maxDensity, 3)))
	b.SetStyle(FitDataSheet, "H2", xlsx.CellName(7, lastQQ), xlsx.Decimal4)
	b.SetStyle(FitDataSheet, "I2", xlsx.CellName(11, lastQQ), values)
}

var dashes = []xlsx.Dash{xlsx.Solid, xlsx.Dashed, xlsx.Dotted}

// reasonWidth is about the characters a line of a Not ranked reason holds
// over columns C to F, and lineHeight the points a line takes.
const (
	reasonWidth = 50
	lineHeight  = 15
)

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

func cell(col string, row int) string { return fmt.Sprintf("%s%d", col, row) }

// row writes values from column A of a row (from 1); nil values leave
// their cell as it is. Errors are kept by the book, for Save.
func row(b *xlsx.Book, sheet string, n int, values ...any) { b.SetRow(sheet, n, values...) }

// readSheet returns the cells of a sheet as text, for tests that look at
// what WriteWorkbook wrote.
func readSheet(path, sheet string) ([][]string, error) {
	b, err := xlsx.Open(path)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return b.Rows(sheet)
}
