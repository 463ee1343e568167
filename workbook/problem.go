package workbook

import (
	"cmp"
	"slices"
	"strings"
)

// Problem is one thing wrong with the workbooks, located as precisely as
// websim can: the file, the sheet and the cell (Sheet and Cell may be empty
// for a problem with a whole file or sheet).
type Problem struct {
	File, Sheet, Cell string
	// Msg says what is wrong and, after "; expected", what was expected.
	Msg string
	// Warning marks a problem that does not stop a run: an ignored sheet or
	// column, say.
	Warning bool

	// order sorts problems as they stand in the workbooks.
	order position
}

// position orders problems: file, sheet as in the workbook, row, column.
type position struct{ file, sheet, row, col int }

// Error returns "File!Sheet!Cell: Msg", leaving out an empty Sheet or Cell.
func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Sheet != "" {
		b.WriteString("!" + p.Sheet)
		if p.Cell != "" {
			b.WriteString("!" + p.Cell)
		}
	}
	b.WriteString(": " + p.Msg)
	return b.String()
}

// Problems lists every problem found in a model; it is the error Read
// returns when at least one of them is not a warning.
type Problems []Problem

// Error returns one line per problem, warnings prefixed with "warning: ".
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
		if p.Warning {
			lines[i] = "warning: " + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// Errors returns the problems that are not warnings.
func (ps Problems) Errors() Problems {
	return ps.filter(false)
}

// Warnings returns the warnings.
func (ps Problems) Warnings() Problems {
	return ps.filter(true)
}

func (ps Problems) filter(warning bool) Problems {
	var out Problems
	for _, p := range ps {
		if p.Warning == warning {
			out = append(out, p)
		}
	}
	return out
}

// sort orders the problems as they stand in the workbooks, keeping the order
// found for problems at the same place.
func (ps Problems) sort() {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.order.file, b.order.file), cmp.Compare(a.order.sheet, b.order.sheet),
			cmp.Compare(a.order.row, b.order.row), cmp.Compare(a.order.col, b.order.col))
	})
}
