package xlsx

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/suggest"
)

// EmptyRunLimit is how many empty rows in a row mark a sheet as long: its
// blank cells are then not probed for formulas without saved values
// (probing loads the sheet whole, and a sheet formatted down to row
// 1,048,576 would take its memory). Rows past such a run are still read:
// they once ended the sheet, and a row typed 12,000 rows down was dropped
// without a word.
const EmptyRunLimit = 10000

// Row is one non-empty row of a sheet, every cell as raw text (a formula's
// saved or computed value).
type Row struct {
	// Num is the row's 1-based number in the sheet.
	Num int
	// Cells are the row's cells from column A.
	Cells []string
	// Bad marks the cells already reported (a formula error): readers skip
	// them.
	Bad map[int]bool
	// emptyRefs are, by column, the cells whose formula computes to
	// nothing where Excel would not show a blank (emptyWhy), with why.
	emptyRefs map[int]string
}

// Cell is one cell's text and location.
type Cell struct {
	// Text is the cell's raw value; empty when blank or Bad.
	Text string
	// Ref is its A1 name ("B4").
	Ref string
	// Bad is true when the cell was already reported.
	Bad bool
}

// Blank reports whether the cell is empty.
func (c Cell) Blank() bool { return c.Text == "" }

// At returns the cell of r in the 0-based column i.
func (r Row) At(i int) Cell {
	c := Cell{Ref: CellName(i, r.Num), Bad: r.Bad[i]}
	if i < len(r.Cells) && !c.Bad {
		c.Text = r.Cells[i]
	}
	return c
}

func (r *Row) markBad(i int) {
	if r.Bad == nil {
		r.Bad = map[int]bool{}
	}
	r.Bad[i] = true
}

// CellName is the A1 name of the 0-based column i in the 1-based row n.
func CellName(i, n int) string {
	s, err := excelize.CoordinatesToCellName(i+1, n)
	if err != nil {
		return fmt.Sprintf("R%dC%d", n, i+1)
	}
	return s
}

// ColumnName is the letters of the 0-based column i ("A", "AB").
func ColumnName(i int) string {
	s, err := excelize.ColumnNumberToName(i + 1)
	if err != nil {
		return fmt.Sprintf("C%d", i+1)
	}
	return s
}

// CellCoordinates returns the 1-based column and row of an A1 name.
func CellCoordinates(ref string) (col, row int, err error) {
	return excelize.CellNameToCoordinates(ref)
}

// NormKey folds a header or name for matching: case, spaces (the
// non-breaking one too) and underscores do not count.
func NormKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// CleanText trims spaces, non-breaking spaces and byte-order marks around a
// cell's text.
func CleanText(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\u00a0' || r == '\ufeff' })
}

// ExcelErrors are the error values a formula can leave in a cell.
var ExcelErrors = map[string]bool{
	"#NULL!": true, "#DIV/0!": true, "#VALUE!": true, "#REF!": true, "#NAME?": true,
	"#NUM!": true, "#N/A": true, "#GETTING_DATA": true, "#SPILL!": true, "#CALC!": true,
}

// problems collects located problems.
type problems struct {
	file, sheet string
	list        Problems
}

func (p *problems) add(warning bool, cause error, ref, format string, args ...any) {
	p.list = append(p.list, Problem{File: p.file, Sheet: p.sheet, Cell: ref, Warning: warning, Err: cause,
		Msg: fmt.Sprintf(format, args...)})
}

// ReadGrid reads a sheet's non-empty rows, however far down, resolving
// formulas (see EmptyRunLimit). It returns the problems found
// (cells holding Excel errors, formulas that cannot be computed: their
// cells are marked Bad) and ok=false when the sheet cannot be read at all
// (cause ErrDamaged). A sheet that reads as no rows is probed, since a
// truncated sheet can read as empty without an error.
func (b *Book) ReadGrid(sheet string) (grid []Row, ps Problems, ok bool) {
	pr := &problems{file: b.Name, sheet: sheet}
	if err := b.streamedReadError(sheet); err != nil {
		pr.add(false, ErrNotFound, "", "%v", err)
		return nil, pr.list, false
	}
	rows, err := b.f.Rows(sheet)
	if err != nil {
		pr.add(false, ErrDamaged, "", "cannot read the sheet (%v)", err)
		return nil, pr.list, false
	}
	defer rows.Close()
	n, last, cut := 0, 0, false
	for rows.Next() {
		n++
		cells, err := rows.Columns(rawValues)
		if err != nil {
			pr.add(false, ErrDamaged, fmt.Sprintf("A%d", n), "cannot read the row (%v)", err)
			continue
		}
		if len(cells) == 0 {
			if n-last >= EmptyRunLimit {
				cut = true
			}
			continue
		}
		last = n
		grid = append(grid, Row{Num: n, Cells: cells})
	}
	if err := rows.Error(); err != nil {
		pr.add(false, ErrDamaged, "", "cannot read the sheet (%v)", err)
		return nil, pr.list, false
	}
	if len(grid) == 0 {
		if _, err := b.f.GetCellValue(sheet, "A1"); err != nil {
			pr.add(false, ErrDamaged, "", "cannot read the sheet (%v); expected a worksheet saved by Excel", err)
			return nil, pr.list, false
		}
		return nil, pr.list, true
	}
	b.showBooleans(sheet, grid)
	b.resolveFormulas(pr, sheet, grid, !cut)
	// Rows that held only formulas with blank results are empty after all.
	return slices.DeleteFunc(grid, func(rw Row) bool {
		if len(rw.Bad) > 0 {
			return false
		}
		for _, c := range rw.Cells {
			if CleanText(c) != "" {
				return false
			}
		}
		return true
	}), pr.list, true
}

// resolveFormulas replaces each formula cell that has no value saved by
// Excel with the value excelize computes, and reports formulas that cannot
// be computed and cells holding an Excel error value. Blank cells are only
// probed for formulas when the whole sheet was read (probing loads it).
func (b *Book) resolveFormulas(pr *problems, sheet string, grid []Row, probe bool) {
	fc := formulas{b: b, sheet: sheet}
	for gi := range grid {
		rw := &grid[gi]
		for i, v := range rw.Cells {
			ref := CellName(i, rw.Num)
			if ExcelErrors[CleanText(v)] {
				if CleanText(v) == "#NAME?" {
					pr.add(false, ErrFormula, ref, "the cell holds the Excel error #NAME? (a formula using a name Excel does not know)%s", expressionHint)
				} else {
					pr.add(false, ErrFormula, ref, "the cell holds the Excel error %s; expected a value (fix the formula)", CleanText(v))
				}
				rw.markBad(i)
				continue
			}
			if v != "" || !probe {
				continue
			}
			val, msg, bad := fc.compute(ref)
			if msg != "" {
				pr.add(false, ErrFormula, ref, "%s", msg)
			}
			if why := emptyWhy(fc.formula); !bad && val == "" && why != "" {
				// Read as blank it would take the default (emptyWhy says
				// why not); ReadTable reports it in a column it reads.
				if rw.emptyRefs == nil {
					rw.emptyRefs = map[int]string{}
				}
				rw.emptyRefs[i] = why
			}
			if bad {
				rw.markBad(i)
			} else {
				rw.Cells[i] = val
			}
		}
	}
	if ref, msg := fc.tooDeep(); ref != "" {
		pr.add(false, ErrFormula, ref, "%s", msg)
	}
}

// expressionHint follows a #NAME? error: most often a websim expression
// (AppUtil < 0.5, RATParameter / 100) typed with a leading "=", which
// Excel takes for a formula of its own and cannot compute.
const expressionHint = `; a websim expression is typed without the "=" (Excel takes "=..." for its own formula), or as text with a leading apostrophe ('=AppUtil*2); an Excel formula is expected to give a value`

// emptyWhy says why a formula whose computed value is empty cannot stand
// for a blank cell ("" when it can). Excel shows an empty text only where
// a formula makes text: a "" of its own (=IF(A2>0,"FAIL","")), a text
// function or & of empty cells (=TRIM(Z2), =Z2&Y2). Any other that
// computes to nothing refers to an empty cell, which Excel shows as 0
// (=Z99, =(Z99), =INDEX(Z1:Z100,99)), or back to its own cell
// (=INDIRECT("B5") in B5, which Excel calls circular): read as blank, it
// would take the setting's default, which neither meant.
func emptyWhy(formula string) string {
	switch {
	case formula == "":
		return ""
	case bareReference.MatchString(formula):
		return "the formula =" + formula + " refers to an empty cell (Excel shows 0)"
	case makesText(formula):
		return ""
	}
	return "the formula =" + formula + " gives no value (it refers to an empty cell, which Excel shows as 0, or back to its own cell, which Excel calls circular)"
}

// textFunction is a call of an Excel function that returns text.
var textFunction = regexp.MustCompile(`(?i)\b(TRIM|CLEAN|T|UPPER|LOWER|PROPER|CONCAT|CONCATENATE|TEXTJOIN|LEFT|RIGHT|MID|LEFTB|RIGHTB|MIDB|SUBSTITUTE|REPLACE|REPT|TEXT|FIXED|DOLLAR|CHAR|UNICHAR)\s*\(`)

// makesText reports whether formula can give an empty text on purpose: a
// "" of its own, & of texts, or a text function.
func makesText(formula string) bool {
	return strings.Contains(formula, `""`) || strings.Contains(formula, "&") || textFunction.MatchString(formula)
}

// bareReference is a formula that is one cell's reference: =Z99,
// =Settings!$B$3, ='My sheet'!B3.
var bareReference = regexp.MustCompile(`^\s*(?:(?:'[^']+'|[^'!\s]+)!)?\$?[A-Za-z]{1,3}\$?[0-9]+\s*$`)

// formulas computes the formulas of a sheet's blank cells, those whose
// value was not saved (a workbook written by a program rather than
// Excel). The cells further down a chain of formulas too deep to compute
// are counted, and told once, at the first of them (tooDeep).
type formulas struct {
	b           *Book
	sheet       string
	g           *formulaGraph // the formulas' depths, across the sheet's cells
	beyond      int
	firstBeyond string
	// formula is the formula of the cell compute last looked at ("" for
	// none).
	formula string
}

// compute returns the value of the formula at ref ("" for a cell without
// one), or what is wrong with it; bad is set when it has no value (a
// problem, or a cell beyond the depth websim computes).
func (fc *formulas) compute(ref string) (val, problem string, bad bool) {
	formula, err := fc.b.f.GetCellFormula(fc.sheet, ref)
	fc.formula = formula
	if err != nil || formula == "" {
		fc.formula = ""
		return "", "", false
	}
	if fc.b.savedEmpty[fc.sheet][ref] {
		// An empty text saved by Excel or LibreOffice: what the formula
		// gave when last computed, as Excel shows it.
		fc.formula = ""
		return "", "", false
	}
	if msg, deeper := fc.b.formulaProblem(&fc.g, fc.sheet, ref); deeper {
		if fc.beyond == 0 {
			fc.firstBeyond = ref
		}
		fc.beyond++
		return "", "", true
	} else if msg != "" {
		return "", fmt.Sprintf("the formula =%s %s", formula, msg), true
	}
	if why := notComputableAsExcel(formula); why != "" {
		return "", fmt.Sprintf("the formula =%s %s; expected a value, or save the workbook in Excel or LibreOffice so that its value is stored", formula, why), true
	}
	val, err = fc.b.f.CalcCellValue(fc.sheet, ref, rawValues)
	val = CleanText(val)
	switch {
	case err != nil:
		why := firstLine(err.Error())
		if strings.Contains(why, "#NAME?") {
			return "", fmt.Sprintf("cannot compute the formula =%s (#NAME?: a name Excel does not know)%s", formula, expressionHint), true
		}
		return "", fmt.Sprintf("cannot compute the formula =%s (%v); expected a formula websim can compute, or save the workbook in Excel so that its value is stored", formula, why), true
	case val == "#NAME?":
		return "", fmt.Sprintf("the formula =%s gives the error #NAME? (a name Excel does not know)%s", formula, expressionHint), true
	case ExcelErrors[val] || strings.HasPrefix(val, "#"):
		return "", fmt.Sprintf("the formula =%s gives the error %s; expected a value", formula, val), true
	}
	return val, "", false
}

// tooDeep returns the first of the cells beyond the depth websim computes
// and the problem that tells them all ("" when there are none).
func (fc *formulas) tooDeep() (ref, problem string) {
	if fc.beyond == 0 {
		return "", ""
	}
	more := ""
	if fc.beyond > 1 {
		more = fmt.Sprintf(" (and %s more formulas after it)", numtext.Group(int64(fc.beyond-1)))
	}
	return fc.firstBeyond, fmt.Sprintf("this formula%s stands further down a chain longer than %s formulas, each using the next; expected at most %s (compute the chain in fewer steps, or save the workbook in Excel so that its values are stored)", more, numtext.Group(int64(MaxFormulaDepth)), numtext.Group(int64(MaxFormulaDepth)))
}

// Unsaved computes the cells of sheet that hold a formula but no saved
// value, among refs (blank cells, as ScanRows gave them): by cell, its
// value or what is wrong with it (a problem that names the formula). A
// cell without a formula is left out. Workbooks that programs write
// (openpyxl, say) save formulas without their values.
func (b *Book) Unsaved(sheet string, refs []string) (values, problems map[string]string) {
	values, problems = map[string]string{}, map[string]string{}
	fc := formulas{b: b, sheet: sheet}
	for _, ref := range refs {
		switch val, msg, bad := fc.compute(ref); {
		case msg != "":
			problems[ref] = msg
		case !bad && val != "":
			values[ref] = val
		}
	}
	if ref, msg := fc.tooDeep(); ref != "" {
		problems[ref] = msg
	}
	return values, problems
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Spec says which columns a sheet has.
type Spec struct {
	// Columns are the known headers as documented ("ProcTime").
	Columns []string
	// Required are the columns that must be present.
	Required []string
	// Extra, when set, keeps columns that are not in Columns (the load
	// columns of Arrivals, say) instead of warning about them.
	Extra bool
}

// NotesColumns are headers of columns for the user's notes, left alone in
// any sheet.
var NotesColumns = map[string]bool{"note": true, "notes": true, "comment": true, "comments": true, "description": true, "remark": true, "remarks": true}

// Sheet is a sheet read as a table: its header matched to a Spec and its
// rows with something in a known or kept column.
type Sheet struct {
	File, Sheet string
	// HeaderRow is the 1-based row of the header.
	HeaderRow int
	// Col maps a known column (as documented) to its 0-based index.
	Col map[string]int
	// Extra are the kept columns that are not known, in sheet order.
	Extra []ExtraColumn
	Rows  []Row
}

// ExtraColumn is a kept column outside the Spec's Columns.
type ExtraColumn struct {
	Index  int
	Header string
	Cell   string // the header's A1 name
}

// Get returns the cell of r in the known column name; a missing column
// reads as blank cells.
func (t *Sheet) Get(r Row, name string) Cell {
	i, ok := t.Col[name]
	if !ok {
		return Cell{}
	}
	return r.At(i)
}

// ReadTable reads a sheet as a table: the first non-empty row is the
// header, matched to spec ignoring case, spaces and underscores. It reports
// missing required columns (ErrNotFound), repeated ones, unknown ones (an
// error when close to a missing known column, a warning otherwise), and
// cells it cannot read, and returns nil when the sheet cannot be read at
// all or is empty. A table missing a required column is still returned, so
// that the rest can be checked.
func (b *Book) ReadTable(sheet string, spec Spec) (*Sheet, Problems) {
	grid, ps, ok := b.ReadGrid(sheet)
	if !ok {
		return nil, ps
	}
	pr := &problems{file: b.Name, sheet: sheet, list: ps}
	if len(grid) == 0 {
		pr.add(false, ErrNotFound, "", "the sheet is empty; expected a header row with the columns %s", strings.Join(spec.Columns, ", "))
		return nil, pr.list
	}
	t := &Sheet{File: b.Name, Sheet: sheet, Col: map[string]int{}}
	header := grid[0]
	t.HeaderRow = header.Num
	known := map[string]string{}
	for _, c := range spec.Columns {
		known[NormKey(c)] = c
	}
	width := len(header.Cells)
	for _, rw := range grid[1:] {
		width = max(width, len(rw.Cells))
	}
	var unknown []Cell
	for i := range width {
		hc := header.At(i)
		h := CleanText(hc.Text)
		if h == "" {
			if hc.Bad {
				continue
			}
			for _, rw := range grid[1:] {
				if c := rw.At(i); !c.Blank() {
					pr.add(true, nil, c.Ref, "values in a column without a header are left alone; expected a header in %s", CellName(i, header.Num))
					break
				}
			}
			continue
		}
		key := NormKey(h)
		if name, ok := known[key]; ok {
			if j, dup := t.Col[name]; dup {
				pr.add(false, nil, hc.Ref, "column %q repeats %s; expected each column once", h, CellName(j, header.Num))
				continue
			}
			t.Col[name] = i
			continue
		}
		if NotesColumns[key] {
			continue
		}
		if spec.Extra {
			t.Extra = append(t.Extra, ExtraColumn{Index: i, Header: h, Cell: hc.Ref})
			continue
		}
		unknown = append(unknown, hc)
	}
	// An unknown header close to a known column that the sheet lacks is a
	// misspelling whose values would be silently dropped (SucessRate):
	// that is a problem. Other unknown columns are the user's own.
	for _, hc := range unknown {
		h := CleanText(hc.Text)
		if near := suggest.Closest(h, spec.Columns); near != "" {
			if _, present := t.Col[near]; !present {
				pr.add(false, ErrNotFound, hc.Ref, "unknown column %q; did you mean %q? As written its values would be ignored; expected the header %q", h, near, near)
				continue
			}
		}
		pr.add(true, nil, hc.Ref, "unknown column %q left alone%s", h, suggest.DidYouMean(h, spec.Columns))
	}
	for _, c := range spec.Required {
		if _, ok := t.Col[c]; !ok {
			pr.add(false, ErrNotFound, "", "missing column %q; expected it in the header row (row %d)", c, header.Num)
		}
	}
	// Keep only rows with something in a column read.
	var used []int
	for _, i := range t.Col {
		used = append(used, i)
	}
	for _, e := range t.Extra {
		used = append(used, e.Index)
	}
	for _, rw := range grid[1:] {
		for _, i := range used {
			if c := rw.At(i); !c.Blank() || c.Bad {
				t.Rows = append(t.Rows, rw)
				break
			}
		}
	}
	for k := range t.Rows {
		rw := &t.Rows[k]
		for _, i := range used {
			if f, ok := rw.emptyRefs[i]; ok && !rw.Bad[i] {
				pr.add(false, ErrFormula, CellName(i, rw.Num), "%s; expected a formula that gives a value, or a blank cell for the default", f)
				rw.markBad(i)
			}
		}
	}
	b.refuseDates(pr, sheet, t.Rows, used)
	// So is a hidden sheet (Excel's "very hidden" ones its menu cannot
	// even unhide): an Experiments sheet out of sight still runs its
	// scenarios.
	if visible, err := b.f.GetSheetVisible(sheet); err == nil && !visible && len(t.Rows) > 0 {
		pr.add(true, nil, "", "the sheet is hidden in Excel, and read as every other sheet; unhide it to see what runs (Excel: right-click a sheet tab > Unhide; a sheet hidden as \"very hidden\" needs the VBA editor, or LibreOffice: Sheet > Show Sheet), or delete it")
	}
	// A hidden row is out of the user's sight but not out of the model:
	// one warning for the sheet (a filter can hide hundreds).
	var hidden []string
	for _, rw := range t.Rows {
		if visible, err := b.f.GetRowVisible(sheet, rw.Num); err == nil && !visible {
			hidden = append(hidden, strconv.Itoa(rw.Num))
		}
	}
	switch {
	case len(hidden) == 1:
		pr.add(true, nil, "A"+hidden[0], "row %s is hidden in Excel, and read as every other row; unhide it to see what runs, or delete it", hidden[0])
	case len(hidden) > 1:
		shown := hidden
		if len(shown) > 10 {
			shown = append(slices.Clone(shown[:10]), fmt.Sprintf("and %d more", len(hidden)-10))
		}
		pr.add(true, nil, "A"+hidden[0], "rows %s are hidden in Excel (a filter, say), and read as every other row; unhide them to see what runs, or delete them", strings.Join(shown, ", "))
	}
	return t, pr.list
}

// showBooleans gives the cells that hold TRUE or FALSE (saved as 1 and 0,
// with a type of their own) as Excel shows them, so that a reader that
// wants a number refuses them, rather than take TRUE for 1 unit, and an
// expression reads them as true and false.
func (b *Book) showBooleans(sheet string, grid []Row) {
	for gi := range grid {
		rw := &grid[gi]
		for i, v := range rw.Cells {
			if v != "0" && v != "1" {
				continue
			}
			if typ, err := b.f.GetCellType(sheet, CellName(i, rw.Num)); err == nil && typ == excelize.CellTypeBool {
				rw.Cells[i] = map[string]string{"0": "FALSE", "1": "TRUE"}[v]
			}
		}
	}
}

// refuseDates reports the numbers in the columns read that Excel shows as a
// date or a time (0:00:01 is saved as 1.157e-05, a count of days): no
// column of a model holds one, and read as a number it would pass for a
// time or a count without a word. It looks only in workbooks that have a
// date or time format at all.
func (b *Book) refuseDates(pr *problems, sheet string, rows []Row, cols []int) {
	if !b.HasDateFormats() {
		return
	}
	for k := range rows {
		rw := &rows[k]
		for _, i := range cols {
			c := rw.At(i)
			if c.Blank() || c.Bad {
				continue
			}
			if _, err := strconv.ParseFloat(CleanText(c.Text), 64); err != nil || !b.IsDate(sheet, c.Ref) {
				continue
			}
			shown, err := b.f.GetCellValue(sheet, c.Ref, excelize.Options{})
			if err != nil {
				shown = c.Text
			}
			pr.add(false, ErrDate, c.Ref, "a date or a time (shown as %q), which Excel saves as a number of days (%s); expected a plain number, in the model's time unit (format the cell as a number: Format Cells, Number)", shown, CleanText(c.Text))
			rw.markBad(i)
		}
	}
}

// ScanRows calls fn with each row of a sheet in turn, streamed (a sheet of
// a million rows is never held whole): its 1-based number and its cells'
// raw values as saved (a formula's saved value, "" when none was saved),
// nothing resolved or checked; empty rows too, with no cells. fn returns
// false to stop. A sheet that reads as no rows is probed, since a
// truncated sheet can read as empty without an error. Use ReadGrid to read
// model input.
func (b *Book) ScanRows(sheet string, fn func(num int, cells []string) bool) error {
	return b.scanRows(sheet, rawValues, fn)
}

// ScanShownRows is ScanRows with each cell as Excel shows it, formatted
// ("01-01-24" for a date, "1,234.57"), for a reader that must tell a date
// or a time of day from the number it is saved as.
func (b *Book) ScanShownRows(sheet string, fn func(num int, cells []string) bool) error {
	return b.scanRows(sheet, excelize.Options{}, fn)
}

func (b *Book) scanRows(sheet string, opts excelize.Options, fn func(num int, cells []string) bool) error {
	if err := b.streamedReadError(sheet); err != nil {
		return err
	}
	rows, err := b.f.Rows(sheet)
	if err != nil {
		return err
	}
	defer rows.Close()
	n := 1
	for ; rows.Next(); n++ {
		cells, err := rows.Columns(opts)
		if err != nil {
			return fmt.Errorf("row %d: %w", n, err)
		}
		if !fn(n, cells) {
			break
		}
	}
	if err := rows.Error(); err != nil {
		return err
	}
	if n == 1 {
		// No rows: the sheet is read whole once, which finds the damage a
		// truncated sheet hides from the stream. A sheet with rows is
		// never read whole (the library would then keep it in memory and
		// stream from a copy it writes back out).
		if _, err := b.f.GetCellValue(sheet, "A1"); err != nil {
			if err.Error() == fmt.Sprintf("sheet %s is not a worksheet", sheet) {
				// The library says so only in words.
				return fmt.Errorf("sheet %s: %w", sheet, ErrNotWorksheet)
			}
			return err
		}
	}
	return nil
}

// ErrNotWorksheet is the cause of an error reading the cells of a sheet
// that has none: a chart sheet (a chart on a tab of its own), a dialog or
// a macro sheet.
var ErrNotWorksheet = errors.New("not a worksheet of cells (a chart sheet, say)")

// RawGrid returns a sheet's non-empty rows as ScanRows reads them, for
// tools that show a workbook as it is (an export of the model as text).
// Like ReadGrid it reads every row, however far down.
func (b *Book) RawGrid(sheet string) ([]Row, error) {
	var grid []Row
	err := b.ScanRows(sheet, func(n int, cells []string) bool {
		if len(cells) > 0 {
			grid = append(grid, Row{Num: n, Cells: cells})
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return grid, nil
}

// Rows returns every row of a sheet as raw values (formulas as their saved
// values), without resolving or checking anything: for inspection and
// tests. Use ReadGrid to read input.
func (b *Book) Rows(sheet string) ([][]string, error) {
	if err := b.streamedReadError(sheet); err != nil {
		return nil, err
	}
	return b.f.GetRows(sheet, rawValues)
}

// Value returns a cell's raw value.
func (b *Book) Value(sheet, ref string) (string, error) {
	if err := b.streamedReadError(sheet); err != nil {
		return "", err
	}
	return b.f.GetCellValue(sheet, ref, rawValues)
}

// Formula returns a cell's formula without the leading "=", or "".
func (b *Book) Formula(sheet, ref string) (string, error) {
	if err := b.streamedReadError(sheet); err != nil {
		return "", err
	}
	return b.f.GetCellFormula(sheet, ref)
}

// Formulas returns the formula of every formula cell of a sheet, by A1
// name, without the leading "=" (Rows and Value give their saved values):
// what an export of the model as text needs. It looks at every cell of
// the sheet's used rows and columns.
func (b *Book) Formulas(sheet string) (map[string]string, error) {
	if err := b.streamedReadError(sheet); err != nil {
		return nil, err
	}
	rows, err := b.f.GetRows(sheet, rawValues)
	if err != nil {
		return nil, err
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	if n, err := b.ColCount(sheet); err == nil {
		width = max(width, n)
	}
	out := map[string]string{}
	for r := range rows {
		for c := range width {
			ref := CellName(c, r+1)
			if f, err := b.f.GetCellFormula(sheet, ref); err == nil && f != "" {
				out[ref] = f
			}
		}
	}
	return out, nil
}
