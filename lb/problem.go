package lb

import "strings"

// Problem is one thing wrong with the parameters, and where it is:
// "sample1.yaml:4", "Parameters.xlsx!Settings!B3" or "--method".
type Problem struct {
	Where string
	What  string
}

func (p Problem) String() string {
	if p.Where == "" {
		return p.What
	}
	return p.Where + ": " + p.What
}

// Problems is every problem found in a parameter set, in the order found. It
// is the error returned for invalid input; print it one problem a line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// orNil returns ps as an error, or nil when there is no problem.
func (ps Problems) orNil() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}
