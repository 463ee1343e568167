package xlsx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// Style is how a cell looks: a header, a title, bold text, or a number
// format. The styles are defined once, in styleDefs, for every workbook
// websim writes.
type Style int

// The styles. Text (the zero Style) leaves a cell as it is.
const (
	Text     Style = iota
	Header         // bold on a light blue fill, a rule below, wrapped, top-aligned
	Title          // bold, 12 points
	Bold           // bold
	Count          // #,##0
	Time           // #,##0.000
	Share          // 0.0%
	Number         // General
	Date           // yyyy-mm-dd hh:mm:ss
	Good           // a verdict that holds: green fill
	Bad            // a verdict that fails: red fill
	Unsure         // an undecided verdict: amber fill
	Decimal2       // #,##0.00
	Decimal4       // 0.0000
	Left           // left-aligned (numbers among text in a column of details)
	Warning        // bold dark red on a light red fill: a flag to see first
	Percent2       // 0.00%
	Plain          // the default look, kept on a Muted row: words about the row, not figures
	Time0          // #,##0: times of thousands and more
	Time1          // #,##0.0: times of hundreds
	Time2          // #,##0.00: times of tens
	Time4          // #,##0.0000: times of tenths
	Time5          // #,##0.00000: times of hundredths
	Time6          // #,##0.000000: shorter times
	TimeExp        // 0.00E+00: times too short for six decimals (5.28E-06)
	Signed         // +0.0%;-0.0%;0.0%: a difference that may be negative (-21.7%), never Share
	Decimal3       // #,##0.000: a ratio about 1 (1.005 attempts per request)
)

// timeStyles are the time styles by their decimals; the last, TimeExp,
// stands for more than 6 (ExpDecimals).
var timeStyles = [...]Style{Time0, Time1, Time2, Time, Time4, Time5, Time6, TimeExp}

// ExpDecimals is what TimeDigits returns for times too short to show in
// six decimals: TimeStyle gives them TimeExp, with an exponent.
const ExpDecimals = len(timeStyles) - 1

// TimeDigits returns the number of decimals that shows a time of
// magnitude typical (the usual figure of a column) to digits significant
// digits, from 0 to 6 (4 digits of 325.4 is 1, of 0.0325 is 5), and 6
// where it would take more but six show two digits (0.000325); below
// 0.00001, where six would show one digit or none, ExpDecimals.
func TimeDigits(typical float64, digits int) int {
	if !(typical > 0) || math.IsInf(typical, 0) {
		return 3
	}
	d := max(digits-1-int(math.Floor(math.Log10(typical))), 0)
	switch {
	case d <= 6:
		return d
	case typical >= 1e-5:
		return 6
	}
	return ExpDecimals
}

// TimeStyle is the time style with d decimals (0 to 6; Time is 3), or
// TimeExp for ExpDecimals and more.
func TimeStyle(d int) Style { return timeStyles[min(max(d, 0), len(timeStyles)-1)] }

// timeDecimals is the decimals of a time style, or -1 for another style.
func timeDecimals(s Style) int {
	for d, t := range timeStyles {
		if s == t {
			return d
		}
	}
	return -1
}

// Muted, added to a style (Time|Muted), draws the cell grey and struck
// through: figures not to be read as they stand, such as those of a run
// that is not stable.
const Muted Style = 1 << 8

// Wrapped, added to a style, wraps the cell's text over lines within its
// column, top-aligned: WriteTable gives it to texts wider than a column
// may be, so that they are read whole on screen and in print.
const Wrapped Style = 1 << 9

// mutedFont is the font of a Muted cell.
var mutedFont = excelize.Font{Color: "8C8C8C", Strike: true, Italic: true}

func styleDef(s Style) *excelize.Style {
	if s&Wrapped != 0 {
		d := styleDef(s &^ Wrapped)
		if d == nil {
			d = &excelize.Style{}
		}
		a := excelize.Alignment{}
		if d.Alignment != nil {
			a = *d.Alignment
		}
		a.WrapText, a.Vertical = true, "top"
		d.Alignment = &a
		return d
	}
	if s&Muted != 0 {
		d := styleDef(s &^ Muted)
		if d == nil {
			d = &excelize.Style{}
		}
		f := mutedFont
		if d.Font != nil {
			f.Bold, f.Size = d.Font.Bold, d.Font.Size
		}
		d.Font = &f
		return d
	}
	numFmt := func(code string) *excelize.Style { return &excelize.Style{CustomNumFmt: &code} }
	switch s {
	case Warning:
		return &excelize.Style{
			Font: &excelize.Font{Bold: true, Color: "9C0006"},
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFC7CE"}},
		}
	case Percent2:
		return numFmt("0.00%")
	case Signed:
		// Share's sections are for shares, 0 and up: its last, which a
		// negative number falls to, has no minus sign (-0.217 read
		// 21.7%). A difference shows its sign either way, and zero none.
		return numFmt("+0.0%;-0.0%;0.0%")
	case Decimal3:
		return numFmt("#,##0.000")
	case Plain:
		return &excelize.Style{}
	case Header:
		return &excelize.Style{
			Font:      &excelize.Font{Bold: true},
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}},
			Border:    []excelize.Border{{Type: "bottom", Color: "8EA9DB", Style: 1}},
			Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"},
		}
	case Title:
		return &excelize.Style{Font: &excelize.Font{Bold: true, Size: 12}}
	case Bold:
		return &excelize.Style{Font: &excelize.Font{Bold: true}}
	case Count:
		return numFmt("#,##0")
	case Time:
		return numFmt("#,##0.000")
	case Time0:
		return numFmt("#,##0")
	case Time1:
		return numFmt("#,##0.0")
	case Time2:
		return numFmt("#,##0.00")
	case Time4:
		return numFmt("#,##0.0000")
	case Time5:
		return numFmt("#,##0.00000")
	case Time6:
		return numFmt("#,##0.000000")
	case TimeExp:
		return numFmt("0.00E+00")
	case Share:
		// One decimal, and three below 0.1%, so that a small share (a
		// failure share's half-width of 0.003%, 3 requests of 200,000)
		// does not read as 0.0%; zero keeps one. It is for shares, 0 and
		// up: a negative number falls to the last section and loses its
		// minus sign (a difference takes Signed).
		return numFmt(shareFormat)
	case Number:
		return numFmt("General")
	case Date:
		return numFmt("yyyy-mm-dd hh:mm:ss")
	case Decimal2:
		return numFmt("#,##0.00")
	case Decimal4:
		return numFmt("0.0000")
	case Left:
		return &excelize.Style{Alignment: &excelize.Alignment{Horizontal: "left"}}
	case Good, Bad, Unsure:
		color := map[Style]string{Good: "C6EFCE", Bad: "FFC7CE", Unsure: "FFEB9C"}[s]
		return &excelize.Style{Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}}}
	}
	return nil
}

// shareFormat is the Share style's number format.
const shareFormat = "[>=0.001]0.0%;[>0]0.000%;0.0%"

// NumFormat returns the number format code of a number style ("0.0%"), or
// "" for the others.
func (s Style) NumFormat() string {
	if d := styleDef(s &^ (Muted | Wrapped)); d != nil && d.CustomNumFmt != nil {
		return *d.CustomNumFmt
	}
	return ""
}

// keep records the first error of a run of write calls, and returns err.
func (b *Book) keep(err error) error {
	if b.err == nil && err != nil {
		b.err = err
	}
	return err
}

// Err returns the first error of the write calls so far, or nil.
func (b *Book) Err() error { return b.err }

func (b *Book) styleID(s Style) (int, error) {
	if id, ok := b.styles[s]; ok {
		return id, nil
	}
	id, err := b.f.NewStyle(styleDef(s))
	if err != nil {
		return 0, err
	}
	if b.styles == nil {
		b.styles = map[Style]int{}
	}
	b.styles[s] = id
	return id, nil
}

// NewSheet adds a sheet at the end; a sheet of that name that exists
// already is kept as it is. A workbook read whose structure is protected
// takes none (ErrStructureLocked), nor do DeleteSheet, RenameSheet and
// CopySheet change its sheets.
func (b *Book) NewSheet(name string) error {
	if idx, _ := b.f.GetSheetIndex(name); idx >= 0 {
		return nil
	}
	if err := b.structureError(); err != nil {
		return err
	}
	_, err := b.f.NewSheet(name)
	return b.keep(err)
}

// DeleteSheet removes a sheet (a missing one is no error), with the table
// WriteTable keeps for it and the widths set on it. The library keeps a
// workbook's last sheet.
func (b *Book) DeleteSheet(name string) error {
	if idx, err := b.f.GetSheetIndex(name); idx < 0 {
		return b.keep(err)
	}
	if err := b.structureError(); err != nil {
		return err
	}
	if err := b.keep(b.f.DeleteSheet(name)); err != nil {
		return err
	}
	if idx, _ := b.f.GetSheetIndex(name); idx >= 0 {
		return nil // the last sheet: kept
	}
	b.protections = slices.DeleteFunc(b.protections, func(k keptElement) bool { return strings.EqualFold(k.sheet, name) })
	b.tables = slices.DeleteFunc(b.tables, func(pt *pendingTable) bool { return strings.EqualFold(pt.sheet, name) })
	b.dropSpool(name)
	if key, ok := b.widthsKey(name); ok {
		delete(b.widths, key)
		delete(b.widthsDue, key)
	}
	return nil
}

// RenameSheet renames a sheet; a table WriteTable keeps for it, and the
// widths set on it, follow.
func (b *Book) RenameSheet(old, name string) error {
	if err := b.structureError(); err != nil {
		return err
	}
	if err := b.keep(b.f.SetSheetName(old, name)); err != nil {
		return err
	}
	for i, k := range b.protections {
		if strings.EqualFold(k.sheet, old) {
			b.protections[i].sheet = name
		}
	}
	if pt := b.table(old); pt != nil {
		pt.sheet = name
	}
	for i, sp := range b.spooled {
		if strings.EqualFold(sp.sheet, old) {
			b.spooled[i].sheet = name
		}
	}
	if key, ok := b.widthsKey(old); ok {
		cols, due := b.widths[key], b.widthsDue[key]
		delete(b.widths, key)
		delete(b.widthsDue, key)
		b.widths[name] = cols
		if due {
			b.widthsDue[name] = true
		}
	}
	return nil
}

// CopySheet copies the sheet from into to (a new sheet), as Excel's "Move
// or Copy" does: sheet-scoped names are not copied.
func (b *Book) CopySheet(from, to string) error {
	if b.table(from) != nil {
		return b.keep(fmt.Errorf("xlsx: sheet %q is a table written with the book; it cannot be copied before", from))
	}
	src, err := b.f.GetSheetIndex(from)
	if err != nil || src < 0 {
		return b.keep(fmt.Errorf("no sheet %q", from))
	}
	if err := b.structureError(); err != nil {
		return err
	}
	if err := b.flushWidths(from); err != nil { // the copy takes them
		return b.keep(err)
	}
	dst, err := b.f.NewSheet(to)
	if err != nil {
		return b.keep(err)
	}
	return b.keep(b.f.CopySheet(src, dst))
}

// SetActiveSheet makes the i-th sheet (from 0) the one Excel shows first.
func (b *Book) SetActiveSheet(i int) { b.f.SetActiveSheet(i) }

// Formula is a cell value that is a formula ("=B3*2"), written with no
// saved value.
type Formula string

// SavedFormula is a formula cell together with the value Excel saved for
// it (a number, text or a bool), as a workbook read back holds it:
// StreamRows writes both, so that the cell reads back as it was. SetCell
// writes the formula alone, as for a Formula (the library cannot set a
// saved value beside a formula cell by cell).
type SavedFormula struct {
	// Formula is the formula, with or without the leading "=".
	Formula string
	// Value is the saved value; nil for none.
	Value any
}

// Styled is a cell value with a style of its own, for a cell of a Table
// that looks unlike its column (SetCell writes the value alone).
type Styled struct {
	Value any
	Style Style
}

// SetCell writes v to a cell: a number (any Go number type), text, a bool,
// a time, or a Formula (or a SavedFormula, written as its formula alone).
// nil and NaN or infinite numbers leave the cell as it is (blank in a new
// sheet); "" empties it.
func (b *Book) SetCell(sheet, ref string, v any) error {
	if err := b.streamedError(sheet); err != nil {
		return err
	}
	if pt := b.table(sheet); pt != nil {
		// A cell of a table's sheet is set as the table streams.
		col, row, err := CellCoordinates(ref)
		if err != nil {
			return b.keep(err)
		}
		col-- // edits count columns from 0
		if st, ok := v.(Styled); ok {
			v = st.Value // the value alone, as below
		}
		if x, ok := v.(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
			v = nil // the cell is left as it is, as below
		}
		if v != nil {
			ce := pt.edit(col, row)
			ce.value, ce.v = true, v
		}
		return nil
	}
	switch x := v.(type) {
	case nil:
		return nil
	case Styled:
		return b.SetCell(sheet, ref, x.Value)
	case Formula:
		return b.SetFormula(sheet, ref, string(x))
	case SavedFormula:
		return b.SetFormula(sheet, ref, x.Formula)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return b.keep(b.f.SetCellFloat(sheet, ref, x, -1, 64))
	case string:
		return b.keep(b.f.SetCellStr(sheet, ref, x))
	default:
		return b.keep(b.f.SetCellValue(sheet, ref, v))
	}
}

// SetFormula writes a formula ("=B3*2" or "B3*2") to a cell, with no saved
// value.
func (b *Book) SetFormula(sheet, ref, formula string) error {
	if err := b.streamedError(sheet); err != nil {
		return err
	}
	if b.table(sheet) != nil {
		return b.SetCell(sheet, ref, Formula(formula))
	}
	return b.keep(b.f.SetCellFormula(sheet, ref, strings.TrimPrefix(formula, "=")))
}

// NumberedRow is a row's values from column A, and its 1-based number.
type NumberedRow struct {
	Num    int
	Values []any
	// Style, when set, styles every value of the row (a header row): a
	// streamed sheet's cells cannot be styled afterwards.
	Style Style
}

// StreamRows writes rows, in increasing order of Num, to a sheet that has
// nothing yet, streamed: a row far down (row 1,000,000) costs no more than
// row 2. Values are as SetCell takes them; a SavedFormula keeps its saved
// value. What is set on the sheet before (ColWidths, FreezeRows,
// AddDropList) is kept, and comments may be added after; cells are styled
// only through NumberedRow.Style, since the rows streamed replace any
// other change to the sheet's cells.
func (b *Book) StreamRows(sheet string, rows []NumberedRow) error {
	if err := b.flushWidths(sheet); err != nil {
		return b.keep(err)
	}
	sw, err := b.f.NewStreamWriter(sheet)
	if err != nil {
		return b.keep(err)
	}
	for _, r := range rows {
		style := 0
		if r.Style != Text {
			if style, err = b.styleID(r.Style); err != nil {
				return b.keep(err)
			}
		}
		cells := make([]any, len(r.Values))
		for i, v := range r.Values {
			switch f := v.(type) {
			case Formula:
				v = excelize.Cell{StyleID: style, Formula: strings.TrimPrefix(string(f), "=")}
			case SavedFormula:
				v = excelize.Cell{StyleID: style, Formula: strings.TrimPrefix(f.Formula, "="), Value: f.Value}
			default:
				if style != 0 {
					v = excelize.Cell{StyleID: style, Value: v}
				}
			}
			cells[i] = v
		}
		if err := sw.SetRow(fmt.Sprintf("A%d", r.Num), cells); err != nil {
			return b.keep(err)
		}
	}
	return b.keep(sw.Flush())
}

// SetRow writes values to row (1-based) from column A, as SetCell does.
func (b *Book) SetRow(sheet string, row int, values ...any) error {
	for i, v := range values {
		if err := b.SetCell(sheet, CellName(i, row), v); err != nil {
			return err
		}
	}
	return nil
}

// SetStyle gives the cells from..to (A1 names) the style s.
func (b *Book) SetStyle(sheet, from, to string, s Style) error {
	if err := b.streamedError(sheet); err != nil {
		return err
	}
	if pt := b.table(sheet); pt != nil {
		c1, r1, err := CellCoordinates(from)
		if err != nil {
			return b.keep(err)
		}
		c2, r2, err := CellCoordinates(to)
		if err != nil {
			return b.keep(err)
		}
		for r := min(r1, r2); r <= max(r1, r2); r++ {
			for c := min(c1, c2); c <= max(c1, c2); c++ {
				ce := pt.edit(c-1, r) // edits count columns from 0
				ce.style, ce.s = true, s
			}
		}
		return nil
	}
	id, err := b.styleID(s)
	if err != nil {
		return b.keep(err)
	}
	return b.keep(b.f.SetCellStyle(sheet, from, to, id))
}

// Comment adds a note to a cell: title in bold (with ": "), then text;
// title may be empty.
func (b *Book) Comment(sheet, ref, title, text string) error {
	var runs []excelize.RichTextRun
	if title != "" {
		runs = append(runs, excelize.RichTextRun{Text: title + ": ", Font: &excelize.Font{Bold: true}})
	}
	runs = append(runs, excelize.RichTextRun{Text: text})
	return b.keep(b.f.AddComment(sheet, excelize.Comment{Cell: ref, Author: "websim", Paragraph: runs, Width: 300, Height: 110}))
}

// DropList is a drop-down list of allowed values on a range of cells.
type DropList struct {
	// Items are the values offered (their text joined by commas must stay
	// within Excel's 255 characters).
	Items []string
	// Strict refuses any other value; otherwise Excel warns and lets the
	// user keep it.
	Strict bool
	// Title and Message are what Excel says about another value.
	Title, Message string
}

// AddDropList puts a drop-down list on the cells of sqref ("B2:B500").
func (b *Book) AddDropList(sheet, sqref string, d DropList) error {
	dv := excelize.NewDataValidation(true)
	dv.SetSqref(sqref)
	if err := dv.SetDropList(d.Items); err != nil {
		return b.keep(err)
	}
	style := excelize.DataValidationErrorStyleWarning
	if d.Strict {
		style = excelize.DataValidationErrorStyleStop
	}
	dv.SetError(style, d.Title, d.Message)
	return b.keep(b.f.AddDataValidation(sheet, dv))
}

// ColWidths sets the widths (in characters) of consecutive columns from the
// 0-based column first. The library is given them when something needs
// them (a chart placed on the sheet, its copy, its rows streamed, the
// book written), in column order, as the file format wants them, a run
// of columns of the same width at a time (flushWidths): each call costs
// the library a copy of every width the sheet has, so n columns given
// one at a time as they were set cost n² copies.
func (b *Book) ColWidths(sheet string, first int, widths ...float64) error {
	if idx, err := b.f.GetSheetIndex(sheet); err != nil || idx < 0 {
		return b.keep(excelize.ErrSheetNotExist{SheetName: sheet})
	}
	if first < 0 || first+len(widths) > excelize.MaxColumns {
		return b.keep(excelize.ErrColumnNumber)
	}
	key, ok := b.widthsKey(sheet)
	if !ok {
		key = sheet
		if b.widths == nil {
			b.widths, b.widthsDue = map[string]map[int]float64{}, map[string]bool{}
		}
		b.widths[key] = map[int]float64{}
	}
	for i, w := range widths {
		if w > excelize.MaxColumnWidth {
			return b.keep(excelize.ErrColumnWidth)
		}
		b.widths[key][first+i] = w
	}
	b.widthsDue[key] = len(b.widths[key]) > 0
	return nil
}

// widthsKey is the key of sheet's widths in b.widths (sheet names are
// the same whatever their case).
func (b *Book) widthsKey(sheet string) (string, bool) {
	if _, ok := b.widths[sheet]; ok {
		return sheet, true
	}
	for key := range b.widths {
		if strings.EqualFold(key, sheet) {
			return key, true
		}
	}
	return "", false
}

// flushWidths gives the library the widths set on sheet, if any are due:
// all of them, from the last column to the first, a run of columns of
// the same width at a time, which leaves them in column order (the
// library puts the last set first; a streamed sheet writes them as kept,
// and Excel may offer to repair a file whose columns are out of order).
func (b *Book) flushWidths(sheet string) error {
	key, ok := b.widthsKey(sheet)
	if !ok || !b.widthsDue[key] {
		return nil
	}
	ws := b.widths[key]
	cols := slices.Sorted(maps.Keys(ws))
	for hi := len(cols) - 1; hi >= 0; {
		lo := hi
		for lo > 0 && cols[lo-1] == cols[lo]-1 && ws[cols[lo-1]] == ws[cols[hi]] {
			lo--
		}
		if err := b.f.SetColWidth(key, ColumnName(cols[lo]), ColumnName(cols[hi]), ws[cols[hi]]); err != nil {
			return err
		}
		hi = lo - 1
	}
	b.widthsDue[key] = false
	return nil
}

// flushAllWidths is flushWidths of every sheet.
func (b *Book) flushAllWidths() error {
	for _, key := range slices.Sorted(maps.Keys(b.widthsDue)) {
		if err := b.flushWidths(key); err != nil {
			return err
		}
	}
	return nil
}

// RowHeight sets the height of a row (1-based) in points, at most
// MaxRowHeight (a taller row is a text too long to read whole in a cell:
// it is shown from its start, and can be read in the formula bar).
func (b *Book) RowHeight(sheet string, row int, height float64) error {
	if err := b.streamedError(sheet); err != nil {
		return err
	}
	if pt := b.table(sheet); pt != nil {
		pt.rowEdit(row).height = min(height, MaxRowHeight)
		return nil
	}
	return b.keep(b.f.SetRowHeight(sheet, row, min(height, MaxRowHeight)))
}

// FreezeRows freezes the top rows of a sheet, so they stay in view.
func (b *Book) FreezeRows(sheet string, rows int) error { return b.FreezePanes(sheet, 0, rows) }

// MergeCells merges the cells from..to (A1 names) into one, which shows
// the value of from.
func (b *Book) MergeCells(sheet, from, to string) error {
	if err := b.streamedError(sheet); err != nil {
		return err
	}
	if pt := b.table(sheet); pt != nil {
		pt.merges = append(pt.merges, [2]string{from, to})
		return nil
	}
	return b.keep(b.f.MergeCell(sheet, from, to))
}

// WrapAcross shows text, the value of cell from, across the cells from..to
// (A1 names, one row) when it is longer than they are wide: merged,
// wrapped, top-aligned, and the row as tall as its lines (wrapped as a
// table's texts are). It reports whether it did; a shorter text is left
// as it is.
func (b *Book) WrapAcross(sheet, from, to, text string) (bool, error) {
	c1, row, err := CellCoordinates(from)
	if err != nil {
		return false, b.keep(err)
	}
	c2, _, err := CellCoordinates(to)
	if err != nil {
		return false, b.keep(err)
	}
	chars := 0.0
	for col := c1 - 1; col < c2; col++ {
		w, err := b.ColWidth(sheet, col)
		if err != nil {
			return false, b.keep(err)
		}
		chars += w
	}
	lines := wrappedLines(text, lineChars(chars))
	if lines <= 1 {
		return false, nil
	}
	if err := b.MergeCells(sheet, from, to); err != nil {
		return false, err
	}
	if err := b.SetStyle(sheet, from, to, Text|Wrapped); err != nil {
		return false, err
	}
	return true, b.RowHeight(sheet, row, float64(lines*lineHeight))
}

// FreezePanes freezes the left cols columns and the top rows of a sheet,
// so they stay in view however far it scrolls.
func (b *Book) FreezePanes(sheet string, cols, rows int) error {
	top := CellName(cols, rows+1)
	pane := "bottomLeft"
	switch {
	case cols > 0 && rows > 0:
		pane = "bottomRight"
	case cols > 0:
		pane = "topRight"
	}
	if err := b.keep(b.f.SetPanes(sheet, &excelize.Panes{
		Freeze: true, XSplit: cols, YSplit: rows, TopLeftCell: top, ActivePane: pane,
		Selection: []excelize.Selection{{SQRef: top, ActiveCell: top, Pane: pane}},
	})); err != nil {
		return err
	}
	return b.printTitles(sheet, cols, rows)
}

// printTitles repeats the left cols columns and the top rows of a sheet
// on every printed page, as they stay in view on screen, and prints it
// landscape: a wide table prints as pages of columns, each with the
// header and the columns that say which row it is.
func (b *Book) printTitles(sheet string, cols, rows int) error {
	q := QuoteSheet(sheet)
	var refs []string
	if cols > 0 {
		refs = append(refs, fmt.Sprintf("%s!$A:$%s", q, ColumnName(cols-1)))
	}
	if rows > 0 {
		refs = append(refs, fmt.Sprintf("%s!$1:$%d", q, rows))
	}
	if len(refs) > 0 {
		if err := b.keep(b.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: strings.Join(refs, ","), Scope: sheet})); err != nil {
			return err
		}
	}
	landscape := "landscape"
	return b.keep(b.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Orientation: &landscape}))
}

// FitOnePage prints a sheet on one page, landscape or portrait, so that a
// table and its charts print together.
func (b *Book) FitOnePage(sheet string, landscape bool) error {
	orientation, one, yes := "portrait", 1, true
	if landscape {
		orientation = "landscape"
	}
	if err := b.keep(b.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Orientation: &orientation, FitToWidth: &one, FitToHeight: &one})); err != nil {
		return err
	}
	return b.keep(b.f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &yes}))
}

// SetProperty sets a custom document property (text, a number or a bool).
func (b *Book) SetProperty(name string, value any) error {
	return b.keep(b.f.SetCustomProps(excelize.CustomProperty{Name: name, Value: value}))
}

// Properties returns the custom document properties, each value as text.
func (b *Book) Properties() (map[string]string, error) {
	props, err := b.f.GetCustomProps()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range props {
		out[p.Name] = fmt.Sprint(p.Value)
	}
	return out, nil
}

// SetDocInfo sets the document's author, title and description.
func (b *Book) SetDocInfo(creator, title, description string) error {
	return b.keep(b.f.SetDocProps(&excelize.DocProperties{Creator: creator, Title: title, Description: description}))
}

// DefinedName is a name defined in a workbook; Scope is a sheet's name, or
// "" (the whole workbook).
type DefinedName struct {
	Name, RefersTo, Scope, Comment string
}

// Define adds a defined name.
func (b *Book) Define(d DefinedName) error {
	return b.keep(b.f.SetDefinedName(&excelize.DefinedName{Name: d.Name, RefersTo: d.RefersTo, Scope: d.Scope, Comment: d.Comment}))
}

// DefinedNames lists the defined names.
func (b *Book) DefinedNames() []DefinedName {
	var out []DefinedName
	for _, dn := range b.f.GetDefinedName() {
		scope := dn.Scope
		if scope == "Workbook" {
			scope = ""
		}
		out = append(out, DefinedName{Name: dn.Name, RefersTo: dn.RefersTo, Scope: scope, Comment: dn.Comment})
	}
	return out
}

// Column is one column of a Table.
type Column struct {
	Header string
	// Format is the number format of the column's values (Text: none).
	Format Style
	// Width is the column's width in characters; 0 fits it to the content.
	Width float64
	// Comment, when set, is a note on the header cell (the header as its
	// title).
	Comment string
}

// Table is a sheet's content: a header row (Header style, frozen) and rows.
type Table struct {
	Columns []Column
	// Rows are the values below the header, as SetCell takes them, but
	// for dates, durations and rich text, which the book refuses when
	// it is written (a table's rows are streamed as they come, without
	// the styles and settings those take).
	Rows [][]any
	// RowFunc, when set, gives row i (from 0) of NumRows in place of Rows,
	// each time the row is needed: a long table (a row per interval of
	// every run) is never held whole, by the caller or by the book.
	RowFunc func(i int) []any
	NumRows int
	// HeaderHeight is the header row's height in points (0: Excel's).
	HeaderHeight float64
	// FrozenColumns are the left columns that stay in view with the header
	// row (0: the header row alone).
	FrozenColumns int
	// Muted, when set, says which rows (from 0) are drawn Muted: grey and
	// struck through, every cell.
	Muted func(row int) bool
	// WriteTable reads Rows (or RowFunc) and Muted again when the book is
	// written: they must not change in between.
}

// rows is the number of rows below the header.
func (t *Table) rows() int {
	if t.RowFunc != nil {
		return t.NumRows
	}
	return len(t.Rows)
}

// row is row i (from 0) below the header.
func (t *Table) row(i int) []any {
	if t.RowFunc != nil {
		return t.RowFunc(i)
	}
	return t.Rows[i]
}

// maxFittedWidth is the widest, in characters, that WriteTable makes a
// column to fit its content; longer texts wrap over lines. A column of
// Wrapped format stops at maxWrappedWidth: a reason as wide as 60 did not
// fit a portrait page beside the key columns that print on every page, so
// their first page printed with nothing else.
const (
	maxFittedWidth  = 60
	maxWrappedWidth = 45
)

// MaxRowHeight is the tallest row Excel takes, in points.
const MaxRowHeight = 409

// lineHeight is the height in points of one line of text in Excel's
// default font (Calibri 11), and so of a row of one line.
const lineHeight = 15

// pendingTable is a table whose cells are streamed into its sheet when
// the book is written.
type pendingTable struct {
	sheet        string
	t            Table
	widths       []float64 // each column's width, in characters
	headerHeight float64   // 0: Excel's
	// edits are the changes made to the sheet's cells after WriteTable
	// (SetCell, SetStyle, RowHeight), by row (1-based): applied over the
	// table's cells as it streams, and rows below it streamed after.
	edits map[int]*rowEdit
	// merges are the ranges merged after WriteTable (from, to A1 names),
	// merged as the sheet streams: merged before, the stream dropped them.
	merges [][2]string
}

// rowEdit is what was changed in a row of a table's sheet after
// WriteTable.
type rowEdit struct {
	height float64 // 0: as the table has it
	cells  map[int]*cellEdit
}

// cellEdit is what was changed in a cell (by its 0-based column).
type cellEdit struct {
	value, style bool // which of the two was set
	v            any
	s            Style
}

// edit returns the edit of the cell at col (0-based), row (1-based).
func (pt *pendingTable) edit(col, row int) *cellEdit {
	re := pt.rowEdit(row)
	if re.cells == nil {
		re.cells = map[int]*cellEdit{}
	}
	ce := re.cells[col]
	if ce == nil {
		ce = &cellEdit{}
		re.cells[col] = ce
	}
	return ce
}

// rowEdit returns the edit of row (1-based).
func (pt *pendingTable) rowEdit(row int) *rowEdit {
	if pt.edits == nil {
		pt.edits = map[int]*rowEdit{}
	}
	re := pt.edits[row]
	if re == nil {
		re = &rowEdit{}
		pt.edits[row] = re
	}
	return re
}

// applyEdits lays row's edits over its cells, styles and height.
func (pt *pendingTable) applyEdits(row int, cells *[]any, styles *[]Style, height *float64) {
	re := pt.edits[row]
	if re == nil {
		return
	}
	if re.height > 0 {
		*height = re.height
	}
	for col, ce := range re.cells {
		for len(*cells) <= col {
			*cells, *styles = append(*cells, nil), append(*styles, Text)
		}
		if ce.value {
			(*cells)[col] = ce.v
		}
		if ce.style {
			(*styles)[col] = ce.s
		}
	}
}

// WriteTable writes t to a sheet (which must exist and hold no cells) from
// A1: the header in the Header style with its comments, frozen, as tall as
// its longest header wraps; the rows with their columns' number formats;
// widths set or fitted to the content, up to 60 characters (45 in a column of
// Wrapped format): in a column of
// Wrapped format, a text wider than the column wraps over lines, and its
// row is as tall as its longest text (elsewhere a longer text is cut).
//
// The cells are streamed into the sheet when the book is written (Write,
// Save), a row at a time, so that a table of millions of cells takes
// little memory. Until then the sheet takes everything else (charts,
// column widths, page breaks, print settings), and what SetCell, SetStyle
// and RowHeight put in its cells is laid over the table as it streams (in
// it, or in rows below it); its cells cannot be read back from the book,
// before it is written or after (they are in the file written: open it).
func (b *Book) WriteTable(sheet string, t Table) error {
	if b.err != nil {
		return b.err
	}
	if b.table(sheet) != nil {
		return b.keep(fmt.Errorf("xlsx: sheet %q has a table already", sheet))
	}
	widths := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		if c.Comment != "" {
			b.Comment(sheet, CellName(i, 1), c.Header, c.Comment)
		}
		widths[i] = min(utf8.RuneCountInString(c.Header)+2, 22)
	}
	for r := range t.rows() {
		for i, v := range t.row(r) {
			if i < len(widths) {
				widest := maxFittedWidth
				if t.Columns[i].Format&Wrapped != 0 {
					widest = maxWrappedWidth
				}
				widths[i] = max(widths[i], min(displayWidth(v, t.Columns[i].Format), widest))
			}
		}
	}
	pt := &pendingTable{sheet: sheet, t: t, widths: make([]float64, len(t.Columns))}
	for i, c := range t.Columns {
		pt.widths[i] = c.Width
		if pt.widths[i] == 0 {
			pt.widths[i] = float64(max(widths[i], 8)) + 1
		}
		b.ColWidths(sheet, i, pt.widths[i])
	}
	if t.HeaderHeight > 0 {
		header := 1
		for i, c := range t.Columns {
			header = max(header, wrappedLines(c.Header, lineChars(pt.widths[i])))
		}
		pt.headerHeight = min(max(t.HeaderHeight, float64(header*lineHeight)), MaxRowHeight)
	}
	b.FreezePanes(sheet, t.FrozenColumns, 1)
	if len(t.Columns) <= narrowTable {
		// A few columns print on one page wide, not cut in two by a
		// page's edge (a font wider than Excel's can push the last one
		// over).
		b.printOneWide(sheet)
	}
	b.tables = append(b.tables, pt)
	return b.err
}

// table returns the table WriteTable keeps for sheet until the book is
// written, or nil.
func (b *Book) table(sheet string) *pendingTable {
	for _, pt := range b.tables {
		if strings.EqualFold(pt.sheet, sheet) { // as sheet names are
			return pt
		}
	}
	return nil
}

// streamedError is the error of a change to the cells of a sheet whose
// table was streamed when the book was written: the stream is the sheet.
func (b *Book) streamedError(sheet string) error {
	if b.isSpooled(sheet) {
		return b.keep(fmt.Errorf("xlsx: the cells of sheet %q were streamed when the book was written; they cannot be changed", sheet))
	}
	return nil
}

// writeTables streams the tables of WriteTable into their sheets.
func (b *Book) writeTables() error {
	for len(b.tables) > 0 {
		pt := b.tables[0]
		b.tables = b.tables[1:]
		if err := b.streamTable(pt); err != nil {
			return b.keep(fmt.Errorf("sheet %s: %w", pt.sheet, err))
		}
	}
	return b.err
}

// streamTable writes a table's cells into its sheet, a row at a time: a
// cell takes its column's format, or its own (Styled), Muted on a muted
// row and Wrapped in a row whose text wraps; a blank cell takes the style
// it would have had, as a range styled in Excel does. The sheet's edits
// made after WriteTable go over them, and its rows below the table follow.
func (b *Book) streamTable(pt *pendingTable) error {
	t := &pt.t
	if err := b.flushWidths(pt.sheet); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(pt.sheet)
	if err != nil {
		return err
	}
	// The rows go to a spool of their own, and the library streams the
	// sheet without them (its empty sheetData is where Write puts them).
	rows := newRowSpool(func(col int) int {
		style, _ := b.f.GetColStyle(pt.sheet, ColumnName(col))
		return style
	})
	spooled := false
	defer func() {
		if !spooled {
			rows.close()
		}
	}()
	var cells []any
	var styles []Style
	put := func(row int, height float64) error {
		pt.applyEdits(row, &cells, &styles, &height)
		if err := b.streamCells(cells, styles); err != nil {
			return err
		}
		return rows.writeRow(row, cells, height)
	}
	cells, styles = cells[:0], styles[:0]
	for _, c := range t.Columns {
		cells, styles = append(cells, c.Header), append(styles, Header)
	}
	if err := put(1, pt.headerHeight); err != nil {
		return err
	}
	for r := range t.rows() {
		row := t.row(r)
		muted := t.Muted != nil && t.Muted(r)
		// A text wider than its column wraps, and then the whole row is
		// as tall as its longest text, every cell top-aligned (Wrapped).
		lines := 1
		for i, v := range row {
			if st, ok := v.(Styled); ok {
				v = st.Value
			}
			if text, ok := v.(string); ok && i < len(t.Columns) && t.Columns[i].Format&Wrapped != 0 {
				lines = max(lines, wrappedLines(text, lineChars(pt.widths[i])))
			}
		}
		cells, styles = cells[:0], styles[:0]
		for i := range max(len(row), len(t.Columns)) {
			var v any
			if i < len(row) {
				v = row[i]
			}
			style := Text
			if i < len(t.Columns) {
				style = t.Columns[i].Format
			}
			// A cell's own style goes over its column's; a muted row is
			// muted but for such cells.
			if st, ok := v.(Styled); ok {
				v, style = st.Value, st.Style
			} else if muted && i < len(t.Columns) {
				style |= Muted
			}
			if lines > 1 && i < len(t.Columns) {
				style |= Wrapped
			}
			cells, styles = append(cells, v), append(styles, style)
		}
		height := 0.0
		if lines > 1 {
			height = min(float64(lines*lineHeight), MaxRowHeight)
		}
		if err := put(r+2, height); err != nil {
			return err
		}
	}
	below := slices.Sorted(maps.Keys(pt.edits))
	for _, row := range below {
		if row <= t.rows()+1 {
			continue
		}
		cells, styles = cells[:0], styles[:0]
		if err := put(row, 0); err != nil {
			return err
		}
	}
	for _, m := range pt.merges {
		if err := sw.MergeCell(m[0], m[1]); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	b.dropSpool(pt.sheet)
	b.spooled = append(b.spooled, spooledSheet{sheet: pt.sheet, rows: rows})
	spooled = true
	return nil
}

// streamCells turns values, as SetCell takes them, into the stream
// writer's cells in place, each with its style: nil, NaN and infinite
// numbers are blank (styled all the same), a Formula or SavedFormula is
// its formula alone. The cells point into a buffer the next row reuses
// (the stream writer writes a row out as it is given), and a value keeps
// the interface it came in: a cell costs no allocation of its own, where
// half a million rows of Timeline had two for each of their cells.
func (b *Book) streamCells(cells []any, styles []Style) error {
	if cap(b.cellBuf) < len(cells) {
		b.cellBuf = make([]excelize.Cell, len(cells))
	}
	buf := b.cellBuf[:len(cells)]
	for i, v := range cells {
		id := 0
		if styles[i] != Text {
			var err error
			if id, err = b.styleID(styles[i]); err != nil {
				return err
			}
		}
		c := &buf[i]
		*c = excelize.Cell{StyleID: id}
		switch x := v.(type) {
		case nil:
		case Formula:
			c.Formula = strings.TrimPrefix(string(x), "=")
		case SavedFormula:
			c.Formula = strings.TrimPrefix(x.Formula, "=")
		case float64:
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				c.Value = v
			}
		default:
			c.Value = v
		}
		if c.Value == nil && c.Formula == "" && id == 0 {
			cells[i] = nil // nothing to write
			continue
		}
		cells[i] = c
	}
	return nil
}

// narrowTable is the most columns of a table that prints one page wide.
const narrowTable = 4

// textPerDigit is how many characters of running text fit in the width
// of one digit, the unit of a column's width: a reason or a note is
// mostly lower-case letters and spaces, narrower than digits (Calibri 11
// averages about 5.3 pixels a character against 7 a digit, and a column
// of width 46 shows 58 to 61 characters a line in Excel and LibreOffice).
// 1.2 leaves a margin for wider text; counting one character a digit
// made wrapped rows half as tall again as their text.
const textPerDigit = 1.2

// lineChars is how many characters of text a line of a column width wide
// (in digits) holds.
func lineChars(width float64) int {
	return int(width*textPerDigit) - 1
}

// wrappedLines is the number of lines text takes when wrapped at word
// boundaries within width characters (a word wider than that is cut),
// as a spreadsheet wraps it; text's own line breaks start new lines.
func wrappedLines(text string, width int) int {
	width = max(width, 1)
	lines := 0
	for _, para := range strings.Split(text, "\n") {
		lines++
		col := 0
		for _, word := range strings.Fields(para) {
			n := utf8.RuneCountInString(word)
			switch {
			case col == 0:
				col = n
			case col+1+n <= width:
				col += 1 + n
				continue
			default:
				lines++
				col = n
			}
			for col > width { // a word longer than a line
				lines++
				col -= width
			}
		}
	}
	return lines
}

func displayWidth(v any, fm Style) int {
	switch x := v.(type) {
	case nil:
		return 0
	case Styled:
		return displayWidth(x.Value, fm)
	case string:
		return utf8.RuneCountInString(x)
	case float64:
		switch fm {
		case Share:
			return 7
		case Signed:
			return 8
		}
		if fm == TimeExp {
			return len(strconv.FormatFloat(x, 'E', 2, 64)) + 2
		}
		if d := timeDecimals(fm); d >= 0 {
			return len(strconv.FormatFloat(x, 'f', d, 64)) + 2
		}
		return len(strconv.FormatFloat(x, 'g', 8, 64))
	case bool:
		return 5
	case fmt.Stringer:
		return len(x.String())
	}
	if fm == Date {
		return 19
	}
	return len(fmt.Sprint(v))
}

// Write writes the workbook's bytes to w (Save is the way to write a file),
// without the drawing and chart parts of deleted sheets, with the
// protection of each sheet of a workbook read as it was written
// (keepProtectionEdits), and, in a book
// made by New, with value axis titles drawn along their axis by
// LibreOffice too. Its parts, and the default content types, come in one
// order, so that the same workbook saved twice has the same bytes.
// WriteTable's tables are streamed into their sheets first. The package is put together in a
// temporary file, not in memory, and rewritten from there in one pass, so
// that a workbook of hundreds of megabytes of sheets takes little memory.
func (b *Book) Write(w io.Writer) error {
	if err := b.writeTables(); err != nil {
		return err
	}
	if err := b.flushAllWidths(); err != nil {
		return b.keep(err)
	}
	zr, done, err := b.pack()
	if err != nil {
		return err
	}
	defer done()
	edits, err := pruneEdits(zr)
	if err != nil {
		return err
	}
	if edits == nil {
		edits = map[string]partEdit{}
	}
	if b.made {
		if err := turnEdits(zr, edits); err != nil {
			return err
		}
	}
	if err := b.keepProtectionEdits(zr, edits); err != nil {
		return err
	}
	if err := b.spliceRows(zr, edits); err != nil {
		return err
	}
	if err := sortDefaultsEdit(zr, edits); err != nil {
		return err
	}
	if err := b.digestEdits(zr, edits); err != nil {
		return err
	}
	return writePackage(w, zr, edits, true)
}

// pack has the library write the package and returns it to read, and the
// function that frees it. It goes to a temporary file beside the file
// being saved (named as Save's own, so that a run stopped midway leaves
// nothing RemoveStaleTemps would not clear), or, where none can be made,
// to memory.
func (b *Book) pack() (*zip.Reader, func(), error) {
	tmp, err := os.CreateTemp(b.scratchDir, b.scratchPattern)
	if err != nil {
		var buf bytes.Buffer
		if err := b.writeZip(&buf); err != nil {
			return nil, nil, err
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		return zr, func() {}, err
	}
	done := func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}
	if err := b.writeZip(tmp); err != nil {
		done()
		return nil, nil, err
	}
	size, err := tmp.Seek(0, io.SeekEnd)
	if err != nil {
		done()
		return nil, nil, err
	}
	zr, err := zip.NewReader(tmp, size)
	if err != nil {
		done()
		return nil, nil, err
	}
	return zr, done, nil
}

// writeZip has the library write the package to w, deflated by
// newZipWriter. The library hands its zip writer a buffer in memory; this
// one writes to w instead (and the buffer stays empty).
func (b *Book) writeZip(w io.Writer) error {
	b.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return newZipWriter(w) })
	defer b.f.SetZipWriter(func(w io.Writer) excelize.ZipWriter { return zip.NewWriter(w) })
	return b.f.Write(io.Discard)
}

// QuoteSheet quotes a sheet name for a formula or a chart: 'Summary (websim)'.
func QuoteSheet(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// AbsRange is the absolute reference of the 0-based column col from row
// first to row last of a sheet: 'Charts'!$B$3:$B$9 (one cell when
// first == last).
func AbsRange(sheet string, col, first, last int) string {
	c := ColumnName(col)
	if first == last {
		return fmt.Sprintf("%s!$%s$%d", QuoteSheet(sheet), c, first)
	}
	return fmt.Sprintf("%s!$%s$%d:$%s$%d", QuoteSheet(sheet), c, first, c, last)
}
