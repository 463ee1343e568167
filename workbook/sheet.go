package workbook

import (
	"github.com/websim/websim/internal/xlsx"
)

// sheetSpec says which columns a sheet has.
type sheetSpec struct {
	// columns are the known headers as documented ("ProcTime").
	columns []string
	// required are the columns that must be present.
	required []string
	// expected describes the sheet for a "missing sheet" message.
	expected string
	// extra, when set, keeps columns that are not in columns (the load
	// columns of Arrivals, the settings of Experiments) instead of warning.
	extra bool
}

// table is a sheet read into memory: its header and its non-empty rows,
// every cell as resolved text (the saved or computed value of a formula).
type table struct {
	file, sheet string
	headerRow   int
	// col maps a known column (as documented) to its index.
	col map[string]int
	// extra are the kept columns that are not known, in sheet order.
	extra []extraColumn
	rows  []row
}

type extraColumn struct {
	index  int
	header string
	cell   string
}

// row is one non-empty row below the header.
type row struct {
	num   int
	cells []string
	// bad marks cells already reported (a formula error); readers skip them.
	bad map[int]bool
}

// cell is one cell's text and location.
type cell struct {
	text, ref string
	bad       bool
}

func (c cell) blank() bool { return c.text == "" }

// get returns the cell of row r in the known column name; a missing column
// reads as blank cells.
func (t *table) get(r row, name string) cell {
	i, ok := t.col[name]
	if !ok {
		return cell{}
	}
	return t.at(r, i)
}

func (t *table) at(r row, i int) cell {
	c := cell{ref: cellName(i, r.num), bad: r.bad[i]}
	if i < len(r.cells) && !c.bad {
		c.text = r.cells[i]
	}
	return c
}

func (t *table) has(name string) bool {
	_, ok := t.col[name]
	return ok
}

// cellName is the A1 name of the 0-based column i in row n.
func cellName(i, n int) string { return xlsx.CellName(i, n) }

// hasSheet finds a sheet by name, ignoring case as Excel does.
func (b *book) hasSheet(name string) (string, bool) { return b.x.FindSheet(name) }

// readTable reads a sheet through the xlsx layer (header matching, formula
// resolution, located cells), adding its problems to r's. It returns nil
// when the sheet cannot be read at all or is empty. A table missing a
// required column is still returned, so that the rest can be checked;
// callers stop when their naming column is missing.
func (r *reader) readTable(b *book, sheet string, spec sheetSpec) *table {
	xt, ps := b.x.ReadTable(sheet, xlsx.Spec{Columns: spec.columns, Required: spec.required, Extra: spec.extra})
	r.problems = append(r.problems, ps...)
	if xt == nil {
		return nil
	}
	t := &table{file: b.name, sheet: sheet, headerRow: xt.HeaderRow, col: xt.Col}
	for _, e := range xt.Extra {
		t.extra = append(t.extra, extraColumn{index: e.Index, header: e.Header, cell: e.Cell})
	}
	for _, rw := range xt.Rows {
		t.rows = append(t.rows, row{num: rw.Num, cells: rw.Cells, bad: rw.Bad})
	}
	return t
}
