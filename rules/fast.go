package rules

import (
	"cmp"
	"math"

	"github.com/expr-lang/expr/ast"
)

// The direct evaluator. expr's virtual machine keeps every value in an
// interface, so each float it computes costs an allocation. Expressions
// built only from numbers, conditions, text constants, the names of the
// model and a few math functions (nearly every cell) are instead turned
// into a tree of typed closures that allocate nothing. Anything else runs
// on the virtual machine. The tests check that both give the same results.

type (
	numFn  func(m *machine) float64
	boolFn func(m *machine) bool
	strFn  func(m *machine) string
)

// builder turns a checked, optimized syntax tree into closures; each method
// returns nil when some part of the tree is beyond it.
type builder struct{ c *compilation }

func (b builder) num(n ast.Node) numFn {
	switch n := n.(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.ConstantNode:
		v, ok := constNumber(n)
		if !ok {
			return nil
		}
		return func(*machine) float64 { return v }
	case *ast.IdentifierNode:
		switch n.Value {
		case "AppUtil":
			return func(m *machine) float64 { return m.c.AppUtil }
		case "Now":
			return func(m *machine) float64 { return m.c.Now }
		case "Attempt":
			return func(m *machine) float64 { return float64(m.c.Attempt) }
		case "Copy":
			return func(m *machine) float64 { return float64(m.c.Copy) }
		case "Elapsed":
			return func(m *machine) float64 { return m.c.Elapsed }
		}
	case *ast.CallNode:
		return b.call(n)
	case *ast.UnaryNode:
		x := b.num(n.Node)
		if x == nil {
			return nil
		}
		switch n.Operator {
		case "-":
			return func(m *machine) float64 { return -x(m) }
		case "+":
			return x
		}
	case *ast.BinaryNode:
		return b.arith(n)
	case *ast.ConditionalNode:
		cond, x, y := b.boolean(n.Cond), b.num(n.Exp1), b.num(n.Exp2)
		if cond == nil || x == nil || y == nil {
			return nil
		}
		return func(m *machine) float64 {
			if cond(m) {
				return x(m)
			}
			return y(m)
		}
	case *ast.BuiltinNode:
		return b.builtin(n)
	}
	return nil
}

func (b builder) call(n *ast.CallNode) numFn {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if ok && domainFuncs[id.Value] > 0 {
		return b.domainCall(id.Value, n)
	}
	if !ok || len(n.Arguments) != 2 {
		return nil
	}
	index, ok := n.Arguments[1].(*ast.IntegerNode)
	if !ok {
		return nil
	}
	i, pos := index.Value, b.c.pos(n)
	switch id.Value {
	case "attr":
		return func(m *machine) float64 {
			if i >= len(m.c.Attrs) {
				m.setFault("the request has no value for this attribute", pos)
				return 0
			}
			return m.c.Attrs[i]
		}
	case "param":
		return func(m *machine) float64 {
			if i >= len(m.c.Params) {
				m.setFault("no value for this setting", pos)
				return 0
			}
			return m.c.Params[i]
		}
	case "util":
		return func(m *machine) float64 {
			if m.c.State == nil {
				m.setFault("no server state", pos)
				return 0
			}
			return m.c.State.Util(i)
		}
	case "queue":
		return func(m *machine) float64 {
			if m.c.State == nil {
				m.setFault("no server state", pos)
				return 0
			}
			return m.c.State.Queue(i)
		}
	case "busy":
		return func(m *machine) float64 {
			if m.c.State == nil {
				m.setFault("no server state", pos)
				return 0
			}
			return m.c.State.Busy(i)
		}
	}
	return nil
}

// domainCall builds exp, log, sqrt or pow, whose domain errors are faults.
func (b builder) domainCall(name string, n *ast.CallNode) numFn {
	x := b.num(n.Arguments[0])
	if x == nil {
		return nil
	}
	pos := b.c.pos(n)
	if len(n.Arguments) == 1 {
		return func(m *machine) float64 {
			v, msg := domain(name, x(m), 0)
			if msg != "" {
				m.setFault(msg, pos)
			}
			return v
		}
	}
	y := b.num(n.Arguments[1])
	if y == nil {
		return nil
	}
	return func(m *machine) float64 {
		v, msg := domain(name, x(m), y(m))
		if msg != "" {
			m.setFault(msg, pos)
		}
		return v
	}
}

func (m *machine) setFault(msg string, pos int) {
	if m.fault == "" {
		m.fault, m.faultPos = msg, pos
	}
}

func (b builder) arith(n *ast.BinaryNode) numFn {
	x, y := b.num(n.Left), b.num(n.Right)
	if x == nil || y == nil {
		return nil
	}
	pos := b.c.pos(n)
	switch n.Operator {
	case "+":
		return func(m *machine) float64 { return x(m) + y(m) }
	case "-":
		return func(m *machine) float64 { return x(m) - y(m) }
	case "*":
		return func(m *machine) float64 { return x(m) * y(m) }
	case "/":
		return func(m *machine) float64 {
			a, d := x(m), y(m)
			if d == 0 {
				m.setFault("division by zero", pos)
			}
			return a / d
		}
	case "%":
		return func(m *machine) float64 {
			a, d := x(m), y(m)
			if d == 0 {
				m.setFault("division by zero", pos)
			}
			return math.Mod(a, d)
		}
	case "**", "^":
		return func(m *machine) float64 { return math.Pow(x(m), y(m)) }
	}
	return nil
}

func (b builder) builtin(n *ast.BuiltinNode) numFn {
	args := make([]numFn, len(n.Arguments))
	for i, a := range n.Arguments {
		if args[i] = b.num(a); args[i] == nil {
			return nil
		}
	}
	if len(args) == 1 {
		x := args[0]
		switch n.Name {
		case "abs":
			return func(m *machine) float64 { return math.Abs(x(m)) }
		case "ceil":
			return func(m *machine) float64 { return math.Ceil(x(m)) }
		case "floor":
			return func(m *machine) float64 { return math.Floor(x(m)) }
		case "round":
			return func(m *machine) float64 { return math.Round(x(m)) }
		case "int":
			return func(m *machine) float64 { return math.Trunc(x(m)) }
		case "float":
			return x
		}
	}
	if len(args) == 2 {
		x, y := args[0], args[1]
		switch n.Name {
		case "min":
			return func(m *machine) float64 {
				a, b := x(m), y(m)
				if b < a {
					return b
				}
				return a
			}
		case "max":
			return func(m *machine) float64 {
				a, b := x(m), y(m)
				if b > a {
					return b
				}
				return a
			}
		}
	}
	return nil
}

func (b builder) boolean(n ast.Node) boolFn {
	switch n := n.(type) {
	case *ast.BoolNode:
		v := n.Value
		return func(*machine) bool { return v }
	case *ast.IdentifierNode:
		if n.Value == "TimedOut" {
			return func(m *machine) bool { return m.c.TimedOut }
		}
	case *ast.ConstantNode:
		if v, ok := n.Value.(bool); ok {
			return func(*machine) bool { return v }
		}
	case *ast.UnaryNode:
		if n.Operator == "not" || n.Operator == "!" {
			if x := b.boolean(n.Node); x != nil {
				return func(m *machine) bool { return !x(m) }
			}
		}
	case *ast.ConditionalNode:
		cond, x, y := b.boolean(n.Cond), b.boolean(n.Exp1), b.boolean(n.Exp2)
		if cond == nil || x == nil || y == nil {
			return nil
		}
		return func(m *machine) bool {
			if cond(m) {
				return x(m)
			}
			return y(m)
		}
	case *ast.BinaryNode:
		return b.compare(n)
	}
	return nil
}

func (b builder) compare(n *ast.BinaryNode) boolFn {
	switch n.Operator {
	case "and", "&&", "or", "||":
		x, y := b.boolean(n.Left), b.boolean(n.Right)
		if x == nil || y == nil {
			return nil
		}
		if n.Operator == "and" || n.Operator == "&&" {
			return func(m *machine) bool { return x(m) && y(m) }
		}
		return func(m *machine) bool { return x(m) || y(m) }
	case "in":
		set, ok := n.Right.(*ast.ConstantNode)
		if !ok {
			return nil
		}
		keys, ok := set.Value.(map[string]struct{})
		x := b.str(n.Left)
		if !ok || x == nil {
			return nil
		}
		return func(m *machine) bool { _, in := keys[x(m)]; return in }
	}
	if x, y := b.num(n.Left), b.num(n.Right); x != nil && y != nil {
		return compare(n.Operator, x, y)
	}
	if x, y := b.str(n.Left), b.str(n.Right); x != nil && y != nil {
		return compare(n.Operator, x, y)
	}
	if x, y := b.boolean(n.Left), b.boolean(n.Right); x != nil && y != nil {
		switch n.Operator {
		case "==":
			return func(m *machine) bool { return x(m) == y(m) }
		case "!=":
			return func(m *machine) bool { return x(m) != y(m) }
		}
	}
	return nil
}

func (b builder) str(n ast.Node) strFn {
	switch n := n.(type) {
	case *ast.StringNode:
		v := n.Value
		return func(*machine) string { return v }
	case *ast.ConstantNode:
		if v, ok := n.Value.(string); ok {
			return func(*machine) string { return v }
		}
	case *ast.IdentifierNode:
		if n.Value == "Load" {
			return func(m *machine) string { return m.c.Load }
		}
	case *ast.ConditionalNode:
		cond, x, y := b.boolean(n.Cond), b.str(n.Exp1), b.str(n.Exp2)
		if cond == nil || x == nil || y == nil {
			return nil
		}
		return func(m *machine) string {
			if cond(m) {
				return x(m)
			}
			return y(m)
		}
	}
	return nil
}

// compare builds a comparison of two numbers or two strings.
func compare[T cmp.Ordered](op string, x, y func(*machine) T) boolFn {
	switch op {
	case "<":
		return func(m *machine) bool { return x(m) < y(m) }
	case ">":
		return func(m *machine) bool { return x(m) > y(m) }
	case "<=":
		return func(m *machine) bool { return x(m) <= y(m) }
	case ">=":
		return func(m *machine) bool { return x(m) >= y(m) }
	case "==":
		return func(m *machine) bool { return x(m) == y(m) }
	case "!=":
		return func(m *machine) bool { return x(m) != y(m) }
	}
	return nil
}
