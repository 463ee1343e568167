package modeltext

// This file reads a workbook's cells as written, and writes a workbook
// laid out as the templates lay theirs out, both through the Excel layer.

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/templates"
)

// readBook reads the workbook at path into a Book named name.
func readBook(path, name string) (*Book, error) {
	x, err := xlsx.Open(path)
	if err != nil {
		var p xlsx.Problem
		if errors.As(err, &p) {
			return nil, &Problem{File: name, Msg: p.Msg}
		}
		return nil, &Problem{File: name, Msg: fmt.Sprintf("cannot read the workbook (%v)", err)}
	}
	defer x.Close()
	b := &Book{Name: name}
	for _, sheet := range x.Sheets() {
		s, err := readSheet(x, sheet)
		if errors.Is(err, xlsx.ErrNotWorksheet) {
			continue // a chart sheet: charts are not part of the text
		}
		if err != nil {
			return nil, &Problem{File: name, Sheet: sheet, Msg: fmt.Sprintf("cannot read the sheet (%v)", err)}
		}
		b.Sheets = append(b.Sheets, s)
	}
	return b, nil
}

// readSheet reads a sheet: its first non-empty row is the header.
func readSheet(x *xlsx.Book, name string) (*Sheet, error) {
	s := &Sheet{Name: name}
	grid, err := x.RawGrid(name)
	if err != nil {
		return nil, err
	}
	for _, rw := range grid {
		n := rw.Num
		cells := make([]Cell, len(rw.Cells))
		for i, v := range rw.Cells {
			if cells[i], err = readCell(x, name, cellRef(i, n), v); err != nil {
				return nil, err
			}
		}
		cells = trimCells(cells)
		if len(cells) == 0 {
			continue
		}
		if s.HeaderRow == 0 {
			s.HeaderRow, s.Header = n, cells
			continue
		}
		for len(s.Rows) < n-s.HeaderRow-1 {
			s.Rows = append(s.Rows, nil)
		}
		s.Rows = append(s.Rows, cells)
	}
	if s.HeaderRow == 0 {
		s.HeaderRow = 1
	}
	s.trim()
	return s, nil
}

// readCell reads one cell given its raw value.
func readCell(x *xlsx.Book, sheet, ref, raw string) (Cell, error) {
	formula, err := x.Formula(sheet, ref)
	if err != nil {
		return Cell{}, err
	}
	typ, err := x.TypeOf(sheet, ref)
	if err != nil {
		return Cell{}, err
	}
	var c Cell
	switch {
	case raw == "":
	case typ == xlsx.BoolCell:
		c = Cell{Kind: Bool, Value: strconv.FormatBool(raw == "1" || strings.EqualFold(raw, "true"))}
	case typ == xlsx.Unset || typ == xlsx.NumberCell:
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
	made := make([]*xlsx.Book, len(books))
	defer func() {
		for _, x := range made {
			if x != nil {
				x.Close()
			}
		}
	}()
	for i, b := range books {
		x, err := makeBook(b, lay)
		if err != nil {
			return fmt.Errorf("%s: %w", b.Name, err)
		}
		made[i] = x
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// One workbook replaced and the other not would leave a mix of two
	// models: a workbook open in Excel or LibreOffice stops them all.
	for _, b := range books {
		if path := filepath.Join(dir, b.Name); xlsx.OpenElsewhere(path) {
			return fmt.Errorf("%s is %w (a lock file stands beside it), so nothing was written; close it and import again", path, ErrOpenElsewhere)
		}
	}
	for i, b := range books {
		if err := made[i].Save(filepath.Join(dir, b.Name)); err != nil {
			return err
		}
	}
	return nil
}

// makeBook lays out one workbook in memory.
func makeBook(b *Book, lay func(*Book, *Sheet) sheetLayout) (*xlsx.Book, error) {
	x := xlsx.New()
	for i, s := range b.Sheets {
		if err := writeSheet(x, i, s, lay(b, s)); err != nil {
			x.Close()
			return nil, fmt.Errorf("sheet %s: %w", s.Name, err)
		}
	}
	x.SetActiveSheet(0)
	x.SetProperty(templates.VersionProperty, strconv.Itoa(templates.Version))
	x.SetDocInfo("websim", "websim model "+b.Name, "written by websim import from the model's text")
	if err := x.Err(); err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

// writeSheet writes sheet number i: the header in row 1, styled, frozen
// and commented, the rows under it, widths and drop-down lists as laid
// out. The rows are streamed, so that a formula keeps its saved value.
func writeSheet(x *xlsx.Book, i int, s *Sheet, l sheetLayout) error {
	if i == 0 {
		x.RenameSheet(x.Sheets()[0], s.Name)
	} else {
		x.NewSheet(s.Name)
	}
	// Layout first: the streamed rows keep it, and carry the header's style.
	for col, w := range l.widths {
		if w > 0 {
			x.ColWidths(s.Name, col, w)
		}
	}
	for _, d := range l.dropDowns {
		x.AddDropList(s.Name, d.sqref, dropList(d))
	}
	var rows []xlsx.NumberedRow
	if len(s.Header) > 0 {
		x.FreezeRows(s.Name, 1)
		rows = append(rows, xlsx.NumberedRow{Num: 1, Values: cellValues(s.Header), Style: xlsx.Header})
	}
	for r, row := range s.Rows {
		if len(row) > 0 {
			rows = append(rows, xlsx.NumberedRow{Num: r + 2, Values: cellValues(row)})
		}
	}
	x.StreamRows(s.Name, rows)
	for col, note := range l.comments {
		if note != "" {
			x.Comment(s.Name, cellRef(col, 1), s.Header[col].Value, note)
		}
	}
	return x.Err()
}

// cellValues are the values the layer writes for a row's cells: a
// formula with its saved value, a number, a bool, text, or nil (blank).
func cellValues(row []Cell) []any {
	values := make([]any, len(row))
	for c, cell := range row {
		switch {
		case cell.IsBlank():
		case cell.Formula != "":
			values[c] = xlsx.SavedFormula{Formula: cell.Formula, Value: cellValue(cell)}
		default:
			values[c] = cellValue(cell)
		}
	}
	return values
}

// cellValue is the Go value written for a cell's value.
func cellValue(c Cell) any {
	switch c.Kind {
	case Number:
		v, _ := strconv.ParseFloat(c.Value, 64)
		if isExactInteger(v) {
			return int64(v) // every digit: the library writes a float's 15
		}
		return v
	case Bool:
		return c.Value == "true"
	case Text:
		return c.Value
	}
	return nil
}

// dropList is a drop-down list worded as the templates word theirs.
func dropList(d cellDropDown) xlsx.DropList {
	list := strings.Join(d.Items, ", ")
	if d.Strict {
		return xlsx.DropList{Items: d.Items, Strict: true, Title: "Not " + d.What, Message: "Choose " + d.What + " from the list: " + list + "."}
	}
	return xlsx.DropList{Items: d.Items, Title: "Not " + d.What + " in the list",
		Message: "This is not " + d.What + " known when the template was made (" + list + "). Keep it if you added it, or an expression."}
}

// layoutText describes how a workbook is laid out, for tests to compare
// with the templates': per sheet, the frozen rows, column widths, header
// comments and drop-down lists, and the document properties.
func layoutText(path string) (string, error) {
	x, err := xlsx.Open(path)
	if err != nil {
		return "", err
	}
	defer x.Close()
	var b strings.Builder
	props, err := x.Properties()
	if err != nil {
		return "", err
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(&b, "property %s=%s\n", name, props[name])
	}
	for _, sheet := range x.Sheets() {
		fmt.Fprintf(&b, "sheet %s\n", sheet)
		frozen, err := x.FrozenRows(sheet)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "  frozen rows %d\n", frozen)
		rows, err := x.Rows(sheet)
		if err != nil {
			return "", err
		}
		width := 0
		if len(rows) > 0 {
			width = len(rows[0])
		}
		for col := range width {
			w, err := x.ColWidth(sheet, col)
			if err != nil {
				return "", err
			}
			look, err := x.LookOf(sheet, cellRef(col, 1))
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "  column %s width %g bold %v\n", colName(col), w, look.Bold)
		}
		comments, err := x.Comments(sheet)
		if err != nil {
			return "", err
		}
		for _, c := range comments {
			fmt.Fprintf(&b, "  comment %s by %s: %s\n", c.Cell, c.Author, c.Text)
		}
		dvs, err := x.Validations(sheet)
		if err != nil {
			return "", err
		}
		for _, d := range dvs {
			fmt.Fprintf(&b, "  drop-down %s %s %s: %s / %s\n", d.Sqref, d.Formula1, d.ErrorStyle, d.ErrorTitle, d.ErrorMessage)
		}
	}
	return b.String(), nil
}
