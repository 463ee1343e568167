package modeltext

// This file is the package's only use of excelize: reading a workbook's
// cells as written, and writing a workbook laid out as the templates lay
// theirs out, saved atomically.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/templates"
)

// Limits on what a workbook may expand to, as the model reader's.
const (
	unzipSizeLimit    = 64 << 20
	unzipXMLSizeLimit = 16 << 20
	// emptyRunLimit is how many empty rows in a row end a sheet.
	emptyRunLimit = 10000
)

var rawValues = excelize.Options{RawCellValue: true}

// readBook reads the workbook at path into a Book named name.
func readBook(path, name string) (*Book, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, &Problem{File: name, Msg: fmt.Sprintf("cannot read the workbook (%v)", err)}
	}
	if info.Size() > unzipSizeLimit {
		return nil, &Problem{File: name, Msg: fmt.Sprintf("the file is %d bytes, larger than websim reads (%d); expected a model workbook", info.Size(), unzipSizeLimit)}
	}
	x, err := excelize.OpenFile(path, excelize.Options{UnzipSizeLimit: unzipSizeLimit, UnzipXMLSizeLimit: unzipXMLSizeLimit, RawCellValue: true})
	if err != nil {
		return nil, &Problem{File: name, Msg: fmt.Sprintf("cannot open the workbook (%v); expected an Excel workbook saved as .xlsx", err)}
	}
	defer x.Close()
	b := &Book{Name: name}
	for _, sheet := range x.GetSheetList() {
		s, err := readSheet(x, sheet)
		if err != nil {
			return nil, &Problem{File: name, Sheet: sheet, Msg: fmt.Sprintf("cannot read the sheet (%v)", err)}
		}
		b.Sheets = append(b.Sheets, s)
	}
	return b, nil
}

// readSheet reads a sheet: its first non-empty row is the header.
func readSheet(x *excelize.File, name string) (*Sheet, error) {
	s := &Sheet{Name: name}
	// A damaged sheet can read as no rows without an error: probe it.
	if _, err := x.GetCellValue(name, "A1"); err != nil {
		return nil, err
	}
	rows, err := x.Rows(name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	n, last := 0, 0
	for rows.Next() {
		n++
		raw, err := rows.Columns(rawValues)
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", n, err)
		}
		if len(raw) == 0 {
			if n-last >= emptyRunLimit {
				break
			}
			continue
		}
		cells := make([]Cell, len(raw))
		for i, v := range raw {
			if cells[i], err = readCell(x, name, cellRef(i, n), v); err != nil {
				return nil, err
			}
		}
		cells = trimCells(cells)
		if len(cells) == 0 {
			continue
		}
		if s.HeaderRow == 0 {
			s.HeaderRow, s.Header, last = n, cells, n
			continue
		}
		for len(s.Rows) < n-s.HeaderRow-1 {
			s.Rows = append(s.Rows, nil)
		}
		s.Rows = append(s.Rows, cells)
		last = n
	}
	if err := rows.Error(); err != nil {
		return nil, err
	}
	if s.HeaderRow == 0 {
		s.HeaderRow = 1
	}
	s.trim()
	return s, nil
}

// readCell reads one cell given its raw value.
func readCell(x *excelize.File, sheet, ref, raw string) (Cell, error) {
	formula, err := x.GetCellFormula(sheet, ref)
	if err != nil {
		return Cell{}, err
	}
	typ, err := x.GetCellType(sheet, ref)
	if err != nil {
		return Cell{}, err
	}
	var c Cell
	switch {
	case raw == "":
	case typ == excelize.CellTypeBool:
		c = Cell{Kind: Bool, Value: strconv.FormatBool(raw == "1" || strings.EqualFold(raw, "true"))}
	case typ == excelize.CellTypeUnset || typ == excelize.CellTypeNumber:
		c = number(raw)
	default: // strings, a formula's text, an error value, an ISO date
		c = Cell{Kind: Text, Value: raw}
	}
	if formula != "" {
		c.Formula = "=" + formula
	}
	return c, nil
}

// writeBooks writes the books into dir, each laid out by lay, all or
// none: every workbook is made in memory before any file is written, and
// each file is written beside its target and renamed over it.
func writeBooks(dir string, books []*Book, lay func(*Book, *Sheet) sheetLayout) error {
	files := make([]*excelize.File, len(books))
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}()
	for i, b := range books {
		f, err := makeBook(b, lay)
		if err != nil {
			return fmt.Errorf("%s: %w", b.Name, err)
		}
		files[i] = f
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, b := range books {
		if err := saveAtomic(files[i], filepath.Join(dir, b.Name)); err != nil {
			return err
		}
	}
	return nil
}

// makeBook lays out one workbook in memory.
func makeBook(b *Book, lay func(*Book, *Sheet) sheetLayout) (*excelize.File, error) {
	f := excelize.NewFile()
	header, err := f.NewStyle(&excelize.Style{
		Font:      &excelize.Font{Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "8EA9DB", Style: 1}},
		Alignment: &excelize.Alignment{Vertical: "top"},
	})
	if err != nil {
		f.Close()
		return nil, err
	}
	for i, s := range b.Sheets {
		if err := writeSheet(f, i, s, lay(b, s), header); err != nil {
			f.Close()
			return nil, fmt.Errorf("sheet %s: %w", s.Name, err)
		}
	}
	f.SetActiveSheet(0)
	if err := f.SetCustomProps(excelize.CustomProperty{Name: templates.VersionProperty, Value: strconv.Itoa(templates.Version)}); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.SetDocProps(&excelize.DocProperties{Creator: "websim", Title: "websim model " + b.Name,
		Description: "written by websim import from the model's text"}); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// writeSheet writes sheet number i: the header in row 1, bold, frozen and
// commented, the rows under it, widths and drop-down lists as laid out.
func writeSheet(f *excelize.File, i int, s *Sheet, l sheetLayout, headerStyle int) error {
	if i == 0 {
		if err := f.SetSheetName("Sheet1", s.Name); err != nil {
			return err
		}
	} else if _, err := f.NewSheet(s.Name); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(s.Name)
	if err != nil {
		return err
	}
	for col, w := range l.widths {
		if w > 0 {
			if err := sw.SetColWidth(col+1, col+1, w); err != nil {
				return err
			}
		}
	}
	if len(s.Header) > 0 {
		if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
			Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}}); err != nil {
			return err
		}
		values := make([]any, len(s.Header))
		for c, h := range s.Header {
			values[c] = excelize.Cell{StyleID: headerStyle, Formula: strings.TrimPrefix(h.Formula, "="), Value: cellValue(h)}
		}
		if err := sw.SetRow("A1", values); err != nil {
			return err
		}
	}
	for r, row := range s.Rows {
		if len(row) == 0 {
			continue
		}
		values := make([]any, len(row))
		for c, cell := range row {
			switch {
			case cell.IsBlank():
			case cell.Formula != "":
				values[c] = excelize.Cell{Formula: strings.TrimPrefix(cell.Formula, "="), Value: cellValue(cell)}
			default:
				values[c] = cellValue(cell)
			}
		}
		if err := sw.SetRow(cellRef(0, r+2), values); err != nil {
			return err
		}
	}
	// Data validations must be added before the stream is flushed.
	for _, d := range l.dropDowns {
		if err := addDropDown(f, s.Name, d); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	for col, note := range l.comments {
		if note == "" {
			continue
		}
		h := s.Header[col].Value
		if err := f.AddComment(s.Name, excelize.Comment{Cell: cellRef(col, 1), Author: templates.CommentAuthor,
			Paragraph: []excelize.RichTextRun{{Text: h + ": ", Font: &excelize.Font{Bold: true}}, {Text: note}},
			Width:     300, Height: 110}); err != nil {
			return err
		}
	}
	return nil
}

// cellValue is the Go value the stream writer writes for a cell's value.
func cellValue(c Cell) any {
	switch c.Kind {
	case Number:
		v, _ := strconv.ParseFloat(c.Value, 64)
		return v
	case Bool:
		return c.Value == "true"
	case Text:
		return c.Value
	}
	return nil
}

// addDropDown adds a drop-down list as the templates word theirs.
func addDropDown(f *excelize.File, sheet string, d cellDropDown) error {
	dv := excelize.NewDataValidation(true)
	dv.SetSqref(d.sqref)
	if err := dv.SetDropList(d.Items); err != nil {
		return err
	}
	list := strings.Join(d.Items, ", ")
	if d.Strict {
		dv.SetError(excelize.DataValidationErrorStyleStop, "Not "+d.What, "Choose "+d.What+" from the list: "+list+".")
	} else {
		dv.SetError(excelize.DataValidationErrorStyleWarning, "Not "+d.What+" in the list",
			"This is not "+d.What+" known when the template was made ("+list+"). Keep it if you added it, or an expression.")
	}
	return f.AddDataValidation(sheet, dv)
}

// saveAtomic writes f to a temporary file in path's folder and renames it
// over path, so that no half-written workbook is ever left at path.
func saveAtomic(f *excelize.File, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, a no-op
	if _, err := f.WriteTo(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// layoutText describes how a workbook is laid out, for tests to compare
// with the templates': per sheet, the frozen panes, column widths, header
// comments and drop-down lists, and the template version property.
func layoutText(path string) (string, error) {
	x, err := excelize.OpenFile(path, excelize.Options{UnzipSizeLimit: unzipSizeLimit, UnzipXMLSizeLimit: unzipXMLSizeLimit, RawCellValue: true})
	if err != nil {
		return "", err
	}
	defer x.Close()
	var b strings.Builder
	props, err := x.GetCustomProps()
	if err != nil {
		return "", err
	}
	for _, p := range props {
		fmt.Fprintf(&b, "property %s=%v\n", p.Name, p.Value)
	}
	for _, sheet := range x.GetSheetList() {
		fmt.Fprintf(&b, "sheet %s\n", sheet)
		panes, err := x.GetPanes(sheet)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "  frozen %v rows %d from %s\n", panes.Freeze, panes.YSplit, panes.TopLeftCell)
		rows, err := x.GetRows(sheet, rawValues)
		if err != nil {
			return "", err
		}
		width := 0
		if len(rows) > 0 {
			width = len(rows[0])
		}
		for col := range width {
			w, err := x.GetColWidth(sheet, colName(col))
			if err != nil {
				return "", err
			}
			style, err := x.GetCellStyle(sheet, cellRef(col, 1))
			if err != nil {
				return "", err
			}
			st, err := x.GetStyle(style)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "  column %s width %g bold %v\n", colName(col), w, st.Font != nil && st.Font.Bold)
		}
		comments, err := x.GetComments(sheet)
		if err != nil {
			return "", err
		}
		for _, c := range comments {
			var text strings.Builder
			for _, p := range c.Paragraph {
				text.WriteString(p.Text)
			}
			fmt.Fprintf(&b, "  comment %s by %s: %s\n", c.Cell, c.Author, text.String())
		}
		dvs, err := x.GetDataValidations(sheet)
		if err != nil {
			return "", err
		}
		for _, d := range dvs {
			fmt.Fprintf(&b, "  drop-down %s %s %s: %s / %s\n", d.Sqref, d.Formula1, deref(d.ErrorStyle), deref(d.ErrorTitle), deref(d.Error))
		}
	}
	return b.String(), nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
