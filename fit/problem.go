package fit

import (
	"errors"
	"strings"
)

// Problem is one thing wrong with the data, and where it is: "data.csv:17",
// "Book.xlsx!Times!B17", "data.csv" (the whole file) or "--column".
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

// Problems is every problem found in the data, in the order found. It is
// the error returned for invalid data; print it one problem a line. Its
// Unwrap gives ErrInvalid, so that errors.Is(err, ErrInvalid) holds.
type Problems []Problem

// ErrInvalid is the cause of every Problems: the data cannot be fitted as
// given.
var ErrInvalid = errors.New("invalid data")

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

func (ps Problems) Unwrap() error { return ErrInvalid }

// orNil returns ps as an error, or nil when there is no problem.
func (ps Problems) orNil() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}
