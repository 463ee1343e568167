package xlsx

import (
	"errors"
	"strings"
)

// Sentinel causes of a Problem, for errors.Is. A Problem whose cause is none
// of them (a rules error, a value out of range) still says what is wrong in
// its message.
var (
	// ErrNotFound: a file, sheet or column that was expected is missing.
	ErrNotFound = errors.New("not found")
	// ErrTooLarge: the file, or what it unpacks to, is past the limits.
	ErrTooLarge = errors.New("too large")
	// ErrDamaged: the file is not a whole .xlsx workbook (truncated,
	// encrypted, the old .xls format, a damaged sheet).
	ErrDamaged = errors.New("damaged or not a workbook")
	// ErrFormula: a formula that cannot be computed, or a cell holding an
	// Excel error value such as #DIV/0!.
	ErrFormula = errors.New("formula error")
	// ErrNewer: the workbook was made by a newer websim (its template
	// version is above the one this websim reads).
	ErrNewer = errors.New("made by a newer websim")
	// ErrDate: a number shown as a date or a time, which Excel saves as a
	// count of days, where a plain number is expected.
	ErrDate = errors.New("a date or a time where a number is expected")
)

// Problem is one thing wrong with an input, located as precisely as can be:
// the file, the sheet and the cell. Sheet and Cell are empty for a problem
// with a whole file or sheet; File may be any place a user can find
// ("sample1.yaml:4", "--method"), or empty.
//
// Problem keeps its typed cause in Err: errors.Is(p, ErrFormula) and
// errors.As(p, &ruleErr) see through it. When the cause can draw a caret
// under the offending column (it has a Caret() string method, as
// rules.Error does), Caret returns that drawing.
type Problem struct {
	File, Sheet, Cell string
	// Msg says what is wrong and, after "; expected", what was expected.
	Msg string
	// Warning marks a problem that does not stop a run: an ignored sheet or
	// column, say.
	Warning bool
	// Err is the typed cause, or nil.
	Err error
}

// Where returns the location "File!Sheet!Cell", leaving out what is empty.
func (p Problem) Where() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Sheet != "" {
		b.WriteString("!" + p.Sheet)
		if p.Cell != "" {
			b.WriteString("!" + p.Cell)
		}
	}
	return b.String()
}

// Error returns "File!Sheet!Cell: Msg" on one line, leaving out an empty
// Sheet or Cell (and the location when there is none).
func (p Problem) Error() string {
	if w := p.Where(); w != "" {
		return w + ": " + p.Msg
	}
	return p.Msg
}

// Unwrap returns the typed cause.
func (p Problem) Unwrap() error { return p.Err }

// Caret returns the cause's drawing of where in the cell's text the problem
// is (the text, then a caret under the column), or "" when the cause has
// none.
func (p Problem) Caret() string {
	var c interface{ Caret() string }
	if p.Err == nil || !errors.As(p.Err, &c) {
		return ""
	}
	return c.Caret()
}

// Detailed returns Error, followed, when the cause has a caret, by the
// caret's lines indented by four spaces: what a user reads.
func (p Problem) Detailed() string {
	s := p.Error()
	if c := p.Caret(); c != "" {
		for _, line := range strings.Split(strings.TrimRight(c, "\n"), "\n") {
			s += "\n    " + line
		}
	}
	return s
}

// Problems lists every problem found in an input; it is the error returned
// when at least one of them is not a warning.
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

// Unwrap returns the problems as errors, so that errors.Is and errors.As
// look through every one of them: errors.Is(ps, ErrFormula) reports
// whether any problem has that cause.
func (ps Problems) Unwrap() []error {
	out := make([]error, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}

// Errors returns the problems that are not warnings.
func (ps Problems) Errors() Problems { return ps.filter(false) }

// Warnings returns the warnings.
func (ps Problems) Warnings() Problems { return ps.filter(true) }

func (ps Problems) filter(warning bool) Problems {
	var out Problems
	for _, p := range ps {
		if p.Warning == warning {
			out = append(out, p)
		}
	}
	return out
}

// OrNil returns ps as an error, or nil when it holds no error (warnings
// alone are not an error).
func (ps Problems) OrNil() error {
	if len(ps.Errors()) == 0 {
		return nil
	}
	return ps
}
