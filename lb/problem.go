package lb

import (
	"strings"

	"github.com/websim/websim/internal/xlsx"
)

// Problem is one thing wrong with the parameters, and where it is: the
// xlsx layer's Problem, located as "sample1.yaml:4" (File), as
// "Parameters.xlsx!Settings!B3" (File, Sheet, Cell) or as "--method"
// (File), so that it prints "where: what".
type Problem = xlsx.Problem

// Problems is every problem found in a parameter set, in the order found. It
// is the error returned for invalid input; print it one problem a line.
type Problems = xlsx.Problems

// problemAt returns the problem what at where, a location written
// "file!sheet!cell", "file:line", "--flag" or "".
func problemAt(where, what string) Problem {
	parts := strings.SplitN(where, "!", 3)
	p := Problem{File: parts[0], Msg: what}
	if len(parts) > 1 {
		p.Sheet = parts[1]
	}
	if len(parts) > 2 {
		p.Cell = parts[2]
	}
	return p
}

// orNil returns ps as an error, or nil when there is no problem.
func orNil(ps Problems) error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}
