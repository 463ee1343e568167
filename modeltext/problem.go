package modeltext

import (
	"errors"
	"fmt"
	"strings"
)

// ErrExists is returned (wrapped) by Write when a workbook it would write
// is already in the folder and overwriting was not asked for.
var ErrExists = errors.New("workbook already exists")

// ErrOpenElsewhere is the cause of Write's error when a workbook it would
// replace is open in Excel or LibreOffice: it then writes none.
var ErrOpenElsewhere = errors.New("open in Excel or LibreOffice")

// Problem is something wrong with a model's text or workbook, located by
// line and column in a text file, or by sheet and cell in a workbook.
type Problem struct {
	File         string
	Line, Column int
	Sheet, Cell  string
	Msg          string
}

// Error prints the problem as file:line:column: message for a text, and
// File!Sheet!Cell: message for a workbook.
func (p *Problem) Error() string {
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Msg)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	loc := p.File
	if p.Sheet != "" {
		loc += "!" + p.Sheet
	}
	if p.Cell != "" {
		loc += "!" + p.Cell
	}
	return loc + ": " + p.Msg
}

// Problems are every problem found at once; its Error prints one a line.
type Problems []*Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}
