package workbook

import (
	"cmp"
	"slices"

	"github.com/websim/websim/internal/xlsx"
)

// Problem is one thing wrong with the workbooks, located as precisely as
// websim can: the file, the sheet and the cell (Sheet and Cell may be empty
// for a problem with a whole file or sheet). It is the xlsx layer's
// Problem: its typed cause (Err) is kept for errors.Is and errors.As
// (xlsx.ErrNotFound, xlsx.ErrFormula, a *rules.Error, ...), and Detailed
// adds the caret of an expression error.
type Problem = xlsx.Problem

// Problems lists every problem found in a model; it is the error Read
// returns when at least one of them is not a warning.
type Problems = xlsx.Problems

// sortProblems orders the problems as they stand in the workbooks (file,
// sheet in workbook order, row, column), keeping the order found for
// problems at the same place.
func (r *reader) sortProblems() {
	type position struct{ file, sheet, row, col int }
	at := func(p Problem) position {
		var o position
		switch p.File {
		case SvcDataFile:
			o.file = 1
		case ProcDataFile:
			o.file = 2
		}
		o.sheet = -1
		for _, b := range []*book{r.svc, r.proc} {
			if b != nil && b.name == p.File {
				o.sheet = len(b.sheets) // missing sheets after the others
				for i, s := range b.sheets {
					if s == p.Sheet {
						o.sheet = i
					}
				}
			}
		}
		if p.Sheet == "" {
			o.sheet = -1
		}
		if p.Cell != "" {
			if c, rw, err := xlsx.CellCoordinates(p.Cell); err == nil {
				o.row, o.col = rw, c
			}
		}
		return o
	}
	slices.SortStableFunc(r.problems, func(a, b Problem) int {
		pa, pb := at(a), at(b)
		return cmp.Or(cmp.Compare(pa.file, pb.file), cmp.Compare(pa.sheet, pb.sheet),
			cmp.Compare(pa.row, pb.row), cmp.Compare(pa.col, pb.col))
	})
}
