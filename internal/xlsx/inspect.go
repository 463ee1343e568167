package xlsx

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Inspection: what a sheet looks like, for tests and for tools that show a
// workbook (its comments, drop-downs, frozen rows, widths, styles).

// CellType is what a cell holds, as stored in the file.
type CellType int

// The cell types, in the numbering of the workbook library.
const (
	Unset CellType = iota
	BoolCell
	DateCell
	ErrorCell
	FormulaCell
	InlineStringCell
	NumberCell
	SharedStringCell
)

// TypeOf returns the stored type of a cell (Unset for a number written
// without a type, as Excel often does).
func (b *Book) TypeOf(sheet, ref string) (CellType, error) {
	t, err := b.f.GetCellType(sheet, ref)
	return CellType(t), err
}

// Note is a comment on a cell.
type Note struct {
	Cell, Author, Text string
}

// Comments lists the comments of a sheet.
func (b *Book) Comments(sheet string) ([]Note, error) {
	cs, err := b.f.GetComments(sheet)
	var out []Note
	for _, c := range cs {
		text := c.Text
		for _, p := range c.Paragraph {
			text += p.Text
		}
		out = append(out, Note{Cell: c.Cell, Author: c.Author, Text: text})
	}
	return out, err
}

// Validation is a data validation of a sheet: its range, type ("list"),
// first formula (the list's items, quoted), error style ("stop",
// "warning", "information"), and the title and message Excel shows for a
// value it does not allow.
type Validation struct {
	Sqref, Type, Formula1, ErrorStyle string
	ErrorTitle, ErrorMessage          string
}

// Validations lists the data validations of a sheet.
func (b *Book) Validations(sheet string) ([]Validation, error) {
	dvs, err := b.f.GetDataValidations(sheet)
	var out []Validation
	for _, d := range dvs {
		v := Validation{Sqref: d.Sqref, Type: d.Type, Formula1: d.Formula1}
		if d.ErrorStyle != nil {
			v.ErrorStyle = *d.ErrorStyle
		}
		if d.ErrorTitle != nil {
			v.ErrorTitle = *d.ErrorTitle
		}
		if d.Error != nil {
			v.ErrorMessage = *d.Error
		}
		out = append(out, v)
	}
	return out, err
}

// ActiveSheet is the sheet the workbook opens on.
func (b *Book) ActiveSheet() string { return b.f.GetSheetName(b.f.GetActiveSheetIndex()) }

// FrozenRows returns how many top rows of a sheet are frozen (0: none).
func (b *Book) FrozenRows(sheet string) (int, error) {
	p, err := b.f.GetPanes(sheet)
	if err != nil || !p.Freeze {
		return 0, err
	}
	return p.YSplit, nil
}

// FrozenColumns returns how many left columns of a sheet are frozen.
func (b *Book) FrozenColumns(sheet string) (int, error) {
	p, err := b.f.GetPanes(sheet)
	if err != nil || !p.Freeze {
		return 0, err
	}
	return p.XSplit, nil
}

// ColWidth returns the width of the 0-based column col, in characters.
func (b *Book) ColWidth(sheet string, col int) (float64, error) {
	if key, ok := b.widthsKey(sheet); ok {
		if w, ok := b.widths[key][col]; ok {
			return w, nil
		}
	}
	return b.f.GetColWidth(sheet, ColumnName(col))
}

// ColCount returns how many columns a sheet has, counting from A.
func (b *Book) ColCount(sheet string) (int, error) {
	cols, err := b.f.GetCols(sheet)
	return len(cols), err
}

// Look is what a cell's style shows.
type Look struct {
	Bold bool
	// Strike is a struck-through font.
	Strike bool
	// FontColor and Fill are RGB hex colours ("C00000"), "" when none.
	FontColor, Fill string
	// NumFormat is the number format code, "" for General.
	NumFormat string
	// Wrap is text wrapped over lines within the column.
	Wrap bool
}

// LookOf returns what the style of a cell shows.
func (b *Book) LookOf(sheet, ref string) (Look, error) {
	id, err := b.f.GetCellStyle(sheet, ref)
	if err != nil {
		return Look{}, err
	}
	st, err := b.f.GetStyle(id)
	if err != nil || st == nil {
		return Look{}, err
	}
	var l Look
	if st.Font != nil {
		l.Bold, l.FontColor, l.Strike = st.Font.Bold, st.Font.Color, st.Font.Strike
	}
	if len(st.Fill.Color) > 0 {
		l.Fill = st.Fill.Color[0]
	}
	if nf, ok := b.numFormat(id); ok && nf.custom {
		l.NumFormat = nf.code
	}
	if st.Alignment != nil {
		l.Wrap = st.Alignment.WrapText
	}
	return l, nil
}

// RowHeightOf returns the height of a row (from 1) in points.
func (b *Book) RowHeightOf(sheet string, row int) (float64, error) {
	return b.f.GetRowHeight(sheet, row)
}

// IsPercent says whether a cell shows its number as a percentage (a
// format such as 0% or 0.00%): a value typed as 50% in Excel is stored as
// 0.5 with such a format.
func (b *Book) IsPercent(sheet, ref string) bool {
	id, err := b.f.GetCellStyle(sheet, ref)
	if err != nil || id == 0 {
		return false
	}
	nf, _ := b.numFormat(id)
	return nf.percent
}

// HasDateFormats says whether some cell style of the workbook shows its
// number as a date or a time (see IsDate). A reader of measured times
// that finds none need not look for dates cell by cell.
func (b *Book) HasDateFormats() bool {
	for id := 0; ; id++ { // until the style table ends
		nf, ok := b.numFormat(id)
		if !ok {
			return false
		}
		if nf.date {
			return true
		}
	}
}

// IsDate says whether a cell shows its number as a date or a time:
// Excel's built-in date and time formats (14 to 22, 45 to 47, the East
// Asian 27 to 36 and 50 to 58, the Thai 71 to 81), or a format of the
// workbook's own with a day, month, year, hour or second outside quotes
// and brackets ([h]:mm, an elapsed time, counts). Such a number is a
// count of days.
func (b *Book) IsDate(sheet, ref string) bool {
	id, err := b.f.GetCellStyle(sheet, ref)
	if err != nil {
		return false
	}
	nf, _ := b.numFormat(id)
	return nf.date
}

// numFmt is the number format a cell style shows.
type numFmt struct {
	// id is the style's numFmtId; code is the workbook's own format of
	// that id (custom), "" for Excel's built-in format of the id.
	id     int
	code   string
	custom bool
	// date and percent: the format shows a date or a time (IsDate), or a
	// percentage (IsPercent).
	date, percent bool
}

// numFormat returns the number format of style id, and whether there is
// such a style; the answers are kept, since a style's format is looked up
// among all the workbook's formats.
//
// A format the workbook defines (a <numFmt> of styles.xml) is the one the
// style shows whatever its id; only an id it leaves undefined is Excel's
// built-in format of that id. Excel numbers its own formats from 164, but
// other producers number theirs lower (one from 60, some on a built-in's
// id), and the library's GetStyle takes an id below 164 for the built-in
// format of that id (or for none) whatever the workbook says, so the
// style's numFmtId and the workbook's formats are read here from the
// style sheet as the library parsed it.
func (b *Book) numFormat(id int) (numFmt, bool) {
	if nf, seen := b.numFmts[id]; seen {
		return nf, true
	}
	// GetStyle checks id and has the library parse the style sheet (into
	// its Styles), as it stands with the styles added since opening.
	if st, err := b.f.GetStyle(id); err != nil || st == nil {
		return numFmt{}, false
	}
	var nf numFmt
	if ss := b.f.Styles; ss != nil && ss.CellXfs != nil && id < len(ss.CellXfs.Xf) {
		if n := ss.CellXfs.Xf[id].NumFmtID; n != nil {
			nf.id = *n
		}
		if ss.NumFmts != nil {
			for _, def := range ss.NumFmts.NumFmt {
				if def != nil && def.NumFmtID == nf.id {
					nf.code, nf.custom = def.FormatCode, true
					break
				}
			}
		}
	}
	if nf.custom {
		nf.date = isDateFormat(nf.code)
		nf.percent = strings.Contains(nf.code, "%")
	} else {
		n := nf.id
		nf.date = (n >= 14 && n <= 22) || (n >= 45 && n <= 47) || (n >= 27 && n <= 36) || (n >= 50 && n <= 58) || (n >= 71 && n <= 81)
		nf.percent = n == 9 || n == 10 // Excel's built-in 0% and 0.00%
	}
	if b.numFmts == nil {
		b.numFmts = map[int]numFmt{}
	}
	b.numFmts[id] = nf
	return nf, true
}

// isDateFormat reports whether a number format code shows a date or a
// time: d, m, y, h or s outside quoted text, escapes and brackets (colours
// and locales), or an elapsed-time bracket such as [h].
func isDateFormat(code string) bool {
	inQuote, inBracket := false, false
	bracket := ""
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case inQuote:
			inQuote = c != '"'
		case inBracket:
			if c == ']' {
				inBracket = false
				if b := strings.ToLower(bracket); strings.Trim(b, "hms") == "" && b != "" {
					return true // [h], [mm], [ss]: an elapsed time
				}
				bracket = ""
			} else {
				bracket += string(c)
			}
		case c == '"':
			inQuote = true
		case c == '[':
			inBracket = true
		case c == '\\' || c == '_' || c == '*':
			i++ // the next character is shown as it is (or is padding)
		default:
			switch c | 0x20 { // lower case
			case 'd', 'm', 'y', 'h', 's':
				return true
			}
		}
	}
	return false
}

// SetLook gives cells a style of their own (bold, a font colour, a fill, a
// number format), as a user would in Excel: for test fixtures and imports.
// websim's own sheets use SetStyle.
func (b *Book) SetLook(sheet, from, to string, l Look) error {
	if b.table(sheet) != nil {
		return b.keep(fmt.Errorf("xlsx: sheet %q is a table written with the book; SetLook cannot style it (SetStyle can)", sheet))
	}
	if err := b.streamedError(sheet); err != nil {
		return err
	}
	st := &excelize.Style{Font: &excelize.Font{Bold: l.Bold, Color: l.FontColor}}
	if l.Fill != "" {
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{l.Fill}}
	}
	if l.NumFormat != "" {
		code := l.NumFormat
		st.CustomNumFmt = &code
	}
	id, err := b.f.NewStyle(st)
	if err != nil {
		return b.keep(err)
	}
	return b.keep(b.f.SetCellStyle(sheet, from, to, id))
}
