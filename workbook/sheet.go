package workbook

import (
	"fmt"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/internal/suggest"
)

// emptyRunLimit is how many empty rows in a row end a sheet: a sheet
// formatted down to row 1,048,576 is read as quickly as a short one.
const emptyRunLimit = 10000

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

// notesColumns are headers of columns for the user's notes, in any sheet.
var notesColumns = map[string]bool{"note": true, "notes": true, "comment": true, "comments": true, "description": true, "remark": true, "remarks": true}

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
func cellName(i, n int) string {
	s, err := excelize.CoordinatesToCellName(i+1, n)
	if err != nil {
		return fmt.Sprintf("R%dC%d", n, i+1)
	}
	return s
}

// hasSheet finds a sheet by name, ignoring case as Excel does.
func (b *book) hasSheet(name string) (string, bool) {
	for _, s := range b.sheets {
		if s == name {
			return s, true
		}
	}
	for _, s := range b.sheets {
		if strings.EqualFold(s, name) {
			return s, true
		}
	}
	return "", false
}

// readTable reads a sheet: the first non-empty row is the header, matched
// to spec ignoring case, spaces and underscores. It reports missing
// required columns, repeated and unknown ones, and cells it cannot read, and
// returns nil when the sheet cannot be read at all. A table missing a
// required column is still returned, so that the rest can be checked;
// callers stop when their naming column is missing.
func (r *reader) readTable(b *book, sheet string, spec sheetSpec) *table {
	t := &table{file: b.name, sheet: sheet, col: map[string]int{}}
	grid, ok := r.readGrid(b, sheet)
	if !ok {
		return nil
	}
	if len(grid) == 0 {
		r.errorf(b.name, sheet, "", "the sheet is empty; expected a header row with the columns %s", strings.Join(spec.columns, ", "))
		return nil
	}
	header := grid[0]
	t.headerRow = header.num
	known := map[string]string{}
	for _, c := range spec.columns {
		known[normKey(c)] = c
	}
	width := len(header.cells)
	for _, rw := range grid[1:] {
		width = max(width, len(rw.cells))
	}
	var unknown []cell
	for i := range width {
		hc := t.at(header, i)
		h := cleanText(hc.text)
		if h == "" {
			if hc.bad {
				continue
			}
			for _, rw := range grid[1:] {
				if c := t.at(rw, i); !c.blank() {
					r.warnf(b.name, sheet, c.ref, "values in a column without a header are left alone; expected a header in %s", cellName(i, header.num))
					break
				}
			}
			continue
		}
		key := normKey(h)
		if name, ok := known[key]; ok {
			if j, dup := t.col[name]; dup {
				r.errorf(b.name, sheet, hc.ref, "column %q repeats %s; expected each column once", h, cellName(j, header.num))
				continue
			}
			t.col[name] = i
			continue
		}
		if notesColumns[key] {
			continue
		}
		if spec.extra {
			t.extra = append(t.extra, extraColumn{index: i, header: h, cell: hc.ref})
			continue
		}
		unknown = append(unknown, hc)
	}
	// An unknown header close to a known column that the sheet lacks is a
	// misspelling whose values would be silently dropped (SucessRate):
	// that is a problem. Other unknown columns are the user's own.
	for _, hc := range unknown {
		h := cleanText(hc.text)
		if near := suggest.Closest(h, spec.columns); near != "" {
			if _, present := t.col[near]; !present {
				r.errorf(b.name, sheet, hc.ref, "unknown column %q; did you mean %q? As written its values would be ignored; expected the header %q", h, near, near)
				continue
			}
		}
		r.warnf(b.name, sheet, hc.ref, "unknown column %q left alone%s", h, suggestKey(h, spec.columns))
	}
	for _, c := range spec.required {
		if _, ok := t.col[c]; !ok {
			r.errorf(b.name, sheet, "", "missing column %q; expected it in the header row (row %d)", c, header.num)
		}
	}
	// Keep only rows with something in a column websim reads.
	used := slices.Collect(func(yield func(int) bool) {
		for _, i := range t.col {
			if !yield(i) {
				return
			}
		}
		for _, e := range t.extra {
			if !yield(e.index) {
				return
			}
		}
	})
	for _, rw := range grid[1:] {
		for _, i := range used {
			if c := t.at(rw, i); !c.blank() || c.bad {
				t.rows = append(t.rows, rw)
				break
			}
		}
	}
	return t
}

// suggestKey suggests the known column closest to header.
func suggestKey(header string, columns []string) string {
	return suggest.DidYouMean(header, columns)
}

// readGrid streams a sheet's rows, resolving formulas, and stops after a
// long run of empty rows. It reports problems and returns ok=false when the
// sheet cannot be read.
func (r *reader) readGrid(b *book, sheet string) (grid []row, ok bool) {
	rows, err := b.x.Rows(sheet)
	if err != nil {
		r.errorf(b.name, sheet, "", "cannot read the sheet (%v)", err)
		return nil, false
	}
	defer rows.Close()
	n, last, cut := 0, 0, false
	for rows.Next() {
		n++
		cells, err := rows.Columns(rawValues)
		if err != nil {
			r.errorf(b.name, sheet, fmt.Sprintf("A%d", n), "cannot read the row (%v)", err)
			continue
		}
		empty := true
		for _, c := range cells {
			if c != "" {
				empty = false
				break
			}
		}
		if empty && len(cells) == 0 {
			if n-last >= emptyRunLimit {
				cut = true
				break
			}
			continue
		}
		last = n
		grid = append(grid, row{num: n, cells: cells})
	}
	if err := rows.Error(); err != nil {
		r.errorf(b.name, sheet, "", "cannot read the sheet (%v)", err)
		return nil, false
	}
	if len(grid) == 0 {
		// A damaged sheet can read as no rows without an error: probe it.
		if _, err := b.x.GetCellValue(sheet, "A1"); err != nil {
			r.errorf(b.name, sheet, "", "cannot read the sheet (%v); expected a worksheet saved by Excel", err)
			return nil, false
		}
		return nil, true
	}
	r.resolveFormulas(b, sheet, grid, !cut)
	// Rows that held only formulas with blank results are empty after all.
	return slices.DeleteFunc(grid, func(rw row) bool {
		if len(rw.bad) > 0 {
			return false
		}
		for _, c := range rw.cells {
			if cleanText(c) != "" {
				return false
			}
		}
		return true
	}), true
}

// resolveFormulas replaces each formula cell that has no value saved by
// Excel with the value excelize computes, and reports formulas that cannot
// be computed and cells holding an Excel error value. Blank cells are only
// probed for formulas when the whole sheet was read (probing loads it).
func (r *reader) resolveFormulas(b *book, sheet string, grid []row, probe bool) {
	for gi := range grid {
		rw := &grid[gi]
		for i, v := range rw.cells {
			ref := cellName(i, rw.num)
			if excelErrors[cleanText(v)] {
				r.errorf(b.name, sheet, ref, "the cell holds the Excel error %s; expected a value (fix the formula)", cleanText(v))
				rw.markBad(i)
				continue
			}
			if v != "" || !probe {
				continue
			}
			formula, err := b.x.GetCellFormula(sheet, ref)
			if err != nil || formula == "" {
				continue
			}
			val, err := b.x.CalcCellValue(sheet, ref, rawValues)
			val = cleanText(val)
			switch {
			case err != nil:
				r.errorf(b.name, sheet, ref, "cannot compute the formula =%s (%v); expected a formula websim can compute, or save the workbook in Excel so that its value is stored", formula, firstLine(err.Error()))
				rw.markBad(i)
			case excelErrors[val] || strings.HasPrefix(val, "#"):
				r.errorf(b.name, sheet, ref, "the formula =%s gives the error %s; expected a value", formula, val)
				rw.markBad(i)
			default:
				rw.cells[i] = val
			}
		}
	}
}

func (rw *row) markBad(i int) {
	if rw.bad == nil {
		rw.bad = map[int]bool{}
	}
	rw.bad[i] = true
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
