package workbook

import (
	"fmt"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/engine/dist"
	"github.com/websim/websim/rules"
)

// loc locates a cell for run-time messages: "ProcData.xlsx!ASumSvc!H3".
func loc(t *table, ref string) string { return t.file + "!" + t.sheet + "!" + ref }

// dist reads a distribution cell; blank is nil. ok is false after a problem.
func (r *reader) dist(t *table, c cell) (d engine.Dist, ok bool) {
	if c.bad || c.blank() {
		return nil, !c.bad
	}
	pd, err := dist.Parse(c.text)
	if err != nil {
		r.errorCause(err, t.file, t.sheet, c.ref, "%s%s", err.Error(), commaHint(c.text, err))
		return nil, false
	}
	return pd, true
}

// expr compiles an expression cell of the given kind; a problem is reported
// with the rules' message.
func (r *reader) expr(t *table, c cell, kind rules.Kind, names rules.Names) (*rules.Expr, bool) {
	e, err := rules.Compile(c.text, kind, names)
	if err != nil {
		r.errorCause(err, t.file, t.sheet, c.ref, "%s", exprMessage(c.text, err))
		return nil, false
	}
	e.Cell = loc(t, c.ref)
	return e, true
}

// exprMessage prefixes a rules error with the expression when the error
// does not already quote it.
func exprMessage(src string, err error) string {
	msg := err.Error()
	if strings.Contains(msg, src) {
		return msg
	}
	// Quoted as written, without Go's escapes, so the user recognizes it.
	return fmt.Sprintf("expression \"%s\": %s", cleanText(src), msg)
}

// numberExpr reads a cell that holds a number or an expression of kind
// (Count, Probability, Time or Number). A plain number is checked here and
// becomes an engine.Const; blank is nil.
func (r *reader) numberExpr(t *table, c cell, kind rules.Kind, names rules.Names) (engine.Number, bool) {
	if c.bad || c.blank() {
		return nil, !c.bad
	}
	if v, isNum := parseNumber(c.text); isNum {
		if msg := checkKind(v, kind); msg != "" {
			r.errorf(t.file, t.sheet, c.ref, "%s", msg)
			return nil, false
		}
		return engine.Const(kind.Taken(v)), true
	}
	if looksNumeric(c.text) {
		r.errorf(t.file, t.sheet, c.ref, "%s; expected %s or an expression", numberHint(c.text), kindText(kind))
		return nil, false
	}
	e, ok := r.expr(t, c, kind, names)
	if !ok {
		return nil, false
	}
	if v, isConst := e.Const(); isConst {
		if msg := checkKind(v, kind); msg != "" {
			r.errorf(t.file, t.sheet, c.ref, "expression \"%s\" is always %s", cleanText(c.text), msg)
			return nil, false
		}
		return engine.Const(kind.Taken(v)), true
	}
	return e, true
}

func kindText(kind rules.Kind) string {
	switch kind {
	case rules.Count:
		return "a whole number >= 0"
	case rules.Probability:
		return "a probability from 0 to 1"
	case rules.Time:
		return "a time >= 0"
	}
	return "a number"
}

// checkKind checks a plain number against kind and says what is wrong.
func checkKind(v float64, kind rules.Kind) string {
	switch kind {
	case rules.Count:
		if v > MaxCount {
			return fmt.Sprintf("Count %s exceeds the limit of %d; expected a whole number from 0 to %d (each run of a service costs memory; in parallel, all at once)", formatNumber(v), MaxCount, MaxCount)
		}
		if v < 0 || !isWhole(v) {
			return fmt.Sprintf("%s is not a whole number >= 0; expected a count such as 1 or 3", formatNumber(v))
		}
	case rules.Probability:
		if v < 0 || v > 1 {
			return fmt.Sprintf("probability %s is outside 0..1; expected a number from 0 to 1 (e.g. 0.95)", formatNumber(v))
		}
	case rules.Time:
		if v < 0 {
			return fmt.Sprintf("time %s is negative; expected a time >= 0", formatNumber(v))
		}
	}
	return ""
}

// parseDist parses a distribution as an engine.Dist.
func parseDist(s string) (engine.Dist, error) {
	d, err := dist.Parse(s)
	if err != nil {
		return nil, err
	}
	return d, nil
}
