package rules

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/websim/websim/engine"
)

// Expr is a compiled expression. It is safe for use by many goroutines at
// once, each with its own engine.EvalContext.
type Expr struct {
	// Cell locates the expression for run-time errors, for example
	// "ProcData.xlsx!ASumSvc!H3". The caller sets it.
	Cell string

	src   string
	kind  Kind
	names Names
	prog  *vm.Program
	// attrs are the attributes the expression reads (see Attrs).
	attrs []int

	isConst bool
	value   float64
	// settingsOnly is set when the expression reads Settings names and
	// nothing that changes during a run: one value per scenario.
	settingsOnly bool
	// isConstBool and boolValue are the same for a condition that the
	// compiler folded to true or false ("1 > 2").
	isConstBool, boolValue bool

	// The direct evaluator (see fast.go); nil when the expression uses
	// something only expr's virtual machine runs.
	num     numFn
	boolean boolFn
	str     strFn
}

var (
	_ engine.Number = (*Expr)(nil)
	_ engine.Bool   = (*Expr)(nil)
	_ engine.Mode   = (*Expr)(nil)
)

// String returns the expression as the user wrote it.
func (e *Expr) String() string { return e.src }

// Kind returns what the expression yields.
func (e *Expr) Kind() Kind { return e.kind }

// Const returns the value of an expression that is a constant number (such
// as "3" or "=2*1.5"), so callers can use engine.Const instead.
func (e *Expr) Const() (float64, bool) { return e.value, e.isConst }

// SettingsOnly reports whether the expression reads Settings names (and
// literals, operators, math) alone, so that each scenario gives it one
// value, which the model can check when it is read (SuccessRate P with P
// 2 in a scenario of Experiments).
func (e *Expr) SettingsOnly() bool { return e.settingsOnly }

// Attrs returns the indexes (in Names.Attrs) of the request attributes
// the expression names, each once, in the order first named: the
// attributes a request must carry for the expression to have a value.
func (e *Expr) Attrs() []int { return slices.Clone(e.attrs) }

// ConstBool returns the value of a condition that is constant (such as
// "1 > 2" or "!true"), so callers can use engine.ConstBool instead.
func (e *Expr) ConstBool() (value, ok bool) { return e.boolValue, e.isConstBool }

// RunError is a problem found when evaluating an expression: a result out
// of range, or an operation that cannot be done. The engine adds the
// simulated time and the request.
type RunError struct {
	Cell string // as Expr.Cell
	Src  string // the expression as written
	Msg  string // what went wrong and what was expected
}

func (e *RunError) Error() string {
	if e.Cell != "" {
		return e.Cell + ": " + e.Detail()
	}
	return e.Detail()
}

// Location returns the cell of the expression, so that the engine can put
// it first in its message (engine.RunError).
func (e *RunError) Location() string { return e.Cell }

// Detail is the message without the cell.
func (e *RunError) Detail() string { return fmt.Sprintf("expression %q %s", e.Src, e.Msg) }

func (e *Expr) fail(msg string) error {
	return &RunError{Cell: e.Cell, Src: e.src, Msg: msg}
}

// machine is the scratch space kept in EvalContext.Machine: expr's virtual
// machine, reused, and the direct evaluator's state.
type machine struct {
	c        *engine.EvalContext
	vm       vm.VM
	fault    string // the first run-time fault of the direct evaluator
	faultPos int
}

// memoryBudget bounds what one evaluation on the virtual machine may build.
const memoryBudget = 10000

func machineOf(c *engine.EvalContext) *machine {
	m, ok := c.Machine.(*machine)
	if !ok {
		m = &machine{}
		m.vm.MemoryBudget = memoryBudget
		c.Machine = m
	}
	m.c = c
	m.fault = ""
	return m
}

// faultError reports a fault of the direct evaluator.
func (e *Expr) faultError(m *machine) error {
	return e.fail(fmt.Sprintf("fails at column %d: %s", m.faultPos+1, m.fault))
}

// run evaluates the expression on expr's virtual machine.
func (e *Expr) run(m *machine) (any, error) {
	out, err := m.vm.Run(e.prog, m.c)
	if err != nil {
		msg := err.Error()
		var fe *file.Error
		if errors.As(err, &fe) {
			msg = fe.Message
		}
		return nil, e.fail("fails: " + msg)
	}
	return out, nil
}

// Number evaluates a numeric expression (Number, Count, Probability or
// Time) and checks the result against its kind.
func (e *Expr) Number(c *engine.EvalContext) (float64, error) {
	if !e.kind.numeric() {
		return 0, e.fail(fmt.Sprintf("is a %s expression, used as a number", e.kind))
	}
	if e.isConst {
		return e.value, nil
	}
	m := machineOf(c)
	var v float64
	if e.num != nil {
		v = e.num(m)
		if m.fault != "" {
			return 0, e.faultError(m)
		}
	} else {
		out, err := e.run(m)
		if err != nil {
			return 0, err
		}
		f, ok := toFloat(out)
		if !ok {
			return 0, e.fail(checkValue(e.kind, out, runProblem))
		}
		v = f
	}
	if badNumber(e.kind, v) {
		return 0, e.fail(numberProblem(e.kind, v, runProblem))
	}
	return e.kind.Taken(v), nil
}

// Bool evaluates a Bool expression.
func (e *Expr) Bool(c *engine.EvalContext) (bool, error) {
	if e.kind != Bool {
		return false, e.fail(fmt.Sprintf("is a %s expression, used as a condition", e.kind))
	}
	m := machineOf(c)
	if e.boolean != nil {
		v := e.boolean(m)
		if m.fault != "" {
			return false, e.faultError(m)
		}
		return v, nil
	}
	out, err := e.run(m)
	if err != nil {
		return false, err
	}
	v, ok := out.(bool)
	if !ok {
		return false, e.fail(checkValue(Bool, out, runProblem))
	}
	return v, nil
}

// Parallel evaluates a Mode expression: true for "parallel", false for
// "sequential" (any case).
func (e *Expr) Parallel(c *engine.EvalContext) (bool, error) {
	if e.kind != Mode {
		return false, e.fail(fmt.Sprintf("is a %s expression, used as a mode", e.kind))
	}
	m := machineOf(c)
	var s string
	if e.str != nil {
		s = e.str(m)
		if m.fault != "" {
			return false, e.faultError(m)
		}
	} else {
		out, err := e.run(m)
		if err != nil {
			return false, err
		}
		str, ok := out.(string)
		if !ok {
			return false, e.fail(checkValue(Mode, out, runProblem))
		}
		s = str
	}
	p, ok := parseMode(s)
	if !ok {
		return false, e.fail(checkValue(Mode, s, runProblem))
	}
	return p, nil
}

// domain computes websim's own math functions, checking their domain: it
// returns the value, or a message saying what is wrong ("" when fine).
func domain(name string, x, y float64) (float64, string) {
	var v float64
	switch name {
	case "exp":
		v = math.Exp(x)
	case "log":
		if !(x > 0) {
			return 0, fmt.Sprintf("log(%s): the logarithm needs a number above 0", fmtNum(x))
		}
		v = math.Log(x)
	case "sqrt":
		if !(x >= 0) {
			return 0, fmt.Sprintf("sqrt(%s): the square root needs a number >= 0", fmtNum(x))
		}
		v = math.Sqrt(x)
	case "pow":
		v = math.Pow(x, y)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		args := fmtNum(x)
		if name == "pow" {
			args += ", " + fmtNum(y)
		}
		return 0, fmt.Sprintf("%s(%s) gives %s, not a finite number", name, args, fmtNum(v))
	}
	return v, ""
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// vmDomainFunc is domain for programs run on expr's virtual machine.
func vmDomainFunc(name string) func(args ...any) (any, error) {
	return func(args ...any) (any, error) {
		var xy [2]float64
		for i, a := range args {
			f, ok := toFloat(a)
			if !ok {
				return nil, fmt.Errorf("%s takes numbers, not %s", name, describeValue(a))
			}
			xy[i] = f
		}
		v, msg := domain(name, xy[0], xy[1])
		if msg != "" {
			return nil, errors.New(msg)
		}
		return v, nil
	}
}
