package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"

	"github.com/websim/websim/engine/dist"
	"github.com/websim/websim/internal/suggest"
)

// walk checks every name and rewrites it for the engine: attributes and
// parameters become attr($env, i) and param($env, i), server names become
// indexes, and Excel's AND, OR, NOT and IF become operators.
func (c *compilation) walk(np *ast.Node) {
	if c.err != nil || *np == nil {
		return
	}
	switch n := (*np).(type) {
	case *ast.NilNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.StringNode:
	case *ast.IdentifierNode:
		c.ident(np, n)
	case *ast.UnaryNode:
		c.walk(&n.Node)
	case *ast.BinaryNode:
		if n.Operator == ".." {
			c.fail(c.pos(n), "ranges (a..b) are not supported", "", "")
			return
		}
		c.walk(&n.Left)
		c.walk(&n.Right)
	case *ast.ChainNode:
		c.walk(&n.Node)
	case *ast.MemberNode:
		c.walk(&n.Node)
		if _, ok := n.Property.(*ast.StringNode); !ok {
			c.walk(&n.Property)
		}
	case *ast.SliceNode:
		c.walk(&n.Node)
		c.walk(&n.From)
		c.walk(&n.To)
	case *ast.ConditionalNode:
		c.walk(&n.Cond)
		c.walk(&n.Exp1)
		c.walk(&n.Exp2)
	case *ast.ArrayNode:
		for i := range n.Nodes {
			c.walk(&n.Nodes[i])
		}
	case *ast.MapNode:
		for i := range n.Pairs {
			c.walk(&n.Pairs[i])
		}
	case *ast.PairNode:
		if _, ok := n.Key.(*ast.StringNode); !ok {
			c.walk(&n.Key)
		}
		c.walk(&n.Value)
	case *ast.CallNode:
		c.call(np, n)
	case *ast.BuiltinNode:
		if !contains(mathFuncs, n.Name) && !contains(otherBuiltins, n.Name) {
			c.fail(c.pos(n), fmt.Sprintf("function %s is not supported", n.Name), "", "")
			return
		}
		for i := range n.Arguments {
			c.walk(&n.Arguments[i])
		}
	case *ast.VariableDeclaratorNode:
		c.fail(c.pos(n), `"let" is not supported`, "", "write the value where it is used")
	case *ast.SequenceNode:
		c.fail(c.pos(n), `";" is not supported: a cell holds one expression`, "", `separate arguments with ","`)
	default:
		c.fail(c.pos(n), fmt.Sprintf("%s is not supported", n), "", "")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lookup finds name in list, exactly first, then ignoring case.
func lookup(list []string, name string) int { return suggest.IndexOf(list, name) }

func (c *compilation) ident(np *ast.Node, n *ast.IdentifierNode) {
	name := n.Value
	if name != "$env" {
		if i := lookup(envNames, name); i >= 0 && (envNames[i] == name || lookup(c.names.Attrs, name) < 0 && lookup(c.names.Params, name) < 0) {
			if retryOnly(envNames[i]) && !c.names.Retry {
				c.fail(c.pos(n), fmt.Sprintf("%s, %s, is known only in a RetryProbability; here it would always be %s", envNames[i], retryOnlyWhat[envNames[i]], retryOnlyZero[envNames[i]]), "",
					"a Condition or SuccessRate sees Attempt, Now and the request's attributes")
				return
			}
			n.Value = envNames[i]
			return
		}
		if i := lookup(c.names.Attrs, name); i >= 0 {
			if !slices.Contains(c.attrs, i) {
				c.attrs = append(c.attrs, i)
			}
			c.replace(np, "attr", i)
			return
		}
		if i := lookup(c.names.Params, name); i >= 0 {
			c.replace(np, "param", i)
			return
		}
		if c.kind == Mode && (strings.EqualFold(name, "parallel") || strings.EqualFold(name, "sequential")) {
			s := &ast.StringNode{Value: strings.ToLower(name)}
			ast.Patch(np, s)
			return
		}
	}
	msg := fmt.Sprintf("unknown name %q", name)
	hint := ""
	switch {
	case strings.EqualFold(name, "parallel") || strings.EqualFold(name, "sequential"):
		hint = fmt.Sprintf("%q in quotes", strings.ToLower(name))
	case lookup(c.names.Servers, name) >= 0 || strings.EqualFold(name, "App"):
		s := name
		if i := lookup(c.names.Servers, name); i >= 0 {
			s = c.names.Servers[i]
		}
		hint = fmt.Sprintf("util(%q), queue(%q) or busy(%q)", s, s, s)
	}
	sugg := ""
	if hint == "" {
		sugg = suggest.Closest(name, c.allNames())
	}
	c.fail(c.pos(n), msg, sugg, hint)
}

// retryOnlyWhat and retryOnlyZero say what the names only a RetryProbability
// sees stand for, and what they would be anywhere else.
var (
	retryOnlyWhat = map[string]string{"Elapsed": "the failed attempt's time", "TimedOut": "whether a TimeLimit failed the attempt"}
	retryOnlyZero = map[string]string{"Elapsed": "0", "TimedOut": "false"}
)

func retryOnly(name string) bool { return retryOnlyWhat[name] != "" }

// replace patches *np into a call fn($env, index).
func (c *compilation) replace(np *ast.Node, fn string, index int) {
	loc := (*np).Location()
	call := &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: fn},
		Arguments: []ast.Node{&ast.IdentifierNode{Value: "$env"}, &ast.IntegerNode{Value: index}},
	}
	call.Callee.SetLocation(loc)
	call.Arguments[0].SetLocation(loc)
	call.Arguments[1].SetLocation(loc)
	ast.Patch(np, call)
}

func (c *compilation) call(np *ast.Node, n *ast.CallNode) {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if !ok {
		c.fail(c.pos(n), fmt.Sprintf("%s is not a function", n.Callee), "", "")
		return
	}
	name, lower := id.Value, strings.ToLower(id.Value)
	args := n.Arguments
	switch {
	case lower == "and" || lower == "or":
		if len(args) == 0 {
			c.fail(c.pos(n), fmt.Sprintf("%s needs at least one condition", strings.ToUpper(name)), "", strings.ToUpper(name)+"(a, b)")
			return
		}
		for i := range args {
			c.walk(&args[i])
		}
		node := args[0]
		for _, a := range args[1:] {
			b := &ast.BinaryNode{Operator: lower, Left: node, Right: a}
			b.SetLocation(n.Location())
			node = b
		}
		if len(args) == 1 {
			u := &ast.UnaryNode{Operator: "not", Node: &ast.UnaryNode{Operator: "not", Node: node}}
			u.Node.SetLocation(n.Location())
			node = u
		}
		ast.Patch(np, node)
	case lower == "not":
		if len(args) != 1 {
			c.fail(c.pos(n), "NOT takes one condition", "", "NOT(a)")
			return
		}
		c.walk(&args[0])
		ast.Patch(np, &ast.UnaryNode{Operator: "not", Node: args[0]})
	case lower == "if":
		if len(args) != 3 {
			c.fail(c.pos(n), fmt.Sprintf("IF takes 3 arguments, not %d", len(args)), "", "IF(condition, value if true, value if false) or condition ? a : b")
			return
		}
		for i := range args {
			c.walk(&args[i])
		}
		ast.Patch(np, &ast.ConditionalNode{Ternary: true, Cond: args[0], Exp1: args[1], Exp2: args[2]})
	case contains(serverFuncs, lower):
		c.server(np, n, lower)
	case lower == "round" && len(args) == 2:
		c.fail(c.pos(n), "round takes one argument", "", "round(x * 100) / 100 to keep 2 decimals")
	case contains(mathFuncs, lower):
		for i := range args {
			c.walk(&args[i])
		}
		ast.Patch(np, &ast.BuiltinNode{Name: lower, Arguments: args})
	case name == "Exp":
		// Spelt as the distribution is: Exp(20) in a RAT or a Count would
		// silently be e to the 20th.
		c.fail(c.pos(n), "Exp is the exponential distribution, which an expression cannot draw (exp(x), in lower case, is e to the power x)", "",
			"exp(x) for e to the x, or draw Exp(mean) once per request as an attribute (the Attributes sheet: Entity | Attribute | Value) and use the attribute here")
	case domainFuncs[lower] > 0:
		if want := domainFuncs[lower]; len(args) != want {
			example := lower + "(x)"
			if want == 2 {
				example = "pow(x, y)"
			}
			c.fail(c.pos(n), fmt.Sprintf("%s takes %d argument%s, not %d", lower, want, map[bool]string{true: "s"}[want > 1], len(args)), "", example)
			return
		}
		for i := range args {
			c.walk(&args[i])
		}
		id.Value = lower
	case excelHints[lower] != "":
		c.fail(c.pos(n), fmt.Sprintf("unknown function %q", name), "", excelHints[lower])
	case lower == "now":
		c.fail(c.pos(n), fmt.Sprintf("unknown function %q", name), "", "Now, the simulated time (no clock is available)")
	case isDistribution(lower):
		c.fail(c.pos(n), fmt.Sprintf("%s is a distribution, not a function of an expression", name), "",
			"draw it once per request as an attribute (the Attributes sheet: Entity | Attribute | Value) and use the attribute here")
	default:
		if lookup(c.allNames(), name) >= 0 {
			c.fail(c.pos(n), fmt.Sprintf("%s is not a function", name), "", "")
			return
		}
		funcs := append(append(append([]string{}, serverFuncs...), mathFuncs...), otherBuiltins...)
		funcs = append(funcs, "exp", "log", "sqrt", "pow")
		funcs = append(funcs, excelFuncs...)
		c.fail(c.pos(n), fmt.Sprintf("unknown function %q", name), suggest.Closest(name, funcs), "")
	}
}

// server resolves util("GWay") to util($env, index).
func (c *compilation) server(np *ast.Node, n *ast.CallNode, fn string) {
	example := fmt.Sprintf(`%s("%s")`, fn, "App")
	if len(c.names.Servers) > 0 {
		example = fmt.Sprintf("%s(%q)", fn, c.names.Servers[0])
	}
	if len(n.Arguments) != 1 {
		c.fail(c.pos(n), fmt.Sprintf("%s takes one server name", fn), "", example)
		return
	}
	arg := n.Arguments[0]
	var name string
	switch a := arg.(type) {
	case *ast.StringNode:
		name = a.Value
	case *ast.IdentifierNode:
		name = a.Value
		if lookup(c.allNames(), name) >= 0 {
			c.fail(c.pos(arg), fmt.Sprintf("%s takes a server name, not %s", fn, name), "", example)
			return
		}
	default:
		c.fail(c.startOf(arg), fmt.Sprintf("%s takes a server name in quotes", fn), "", example)
		return
	}
	index := lookup(c.names.Servers, name)
	if index < 0 && strings.EqualFold(name, "App") {
		index = len(c.names.Servers)
	}
	if index < 0 {
		c.fail(c.pos(arg), fmt.Sprintf("unknown server %q", name), suggest.Closest(name, append(append([]string{}, c.names.Servers...), "App")), "")
		return
	}
	loc := n.Location()
	call := &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: fn},
		Arguments: []ast.Node{&ast.IdentifierNode{Value: "$env"}, &ast.IntegerNode{Value: index}},
	}
	call.Callee.SetLocation(loc)
	call.Arguments[0].SetLocation(loc)
	call.Arguments[1].SetLocation(arg.Location())
	ast.Patch(np, call)
}

// isDistribution reports whether name (lower case) names a distribution
// of a time cell (Exp, UniformInt, Arena's EXPO, ...), which an expression
// cannot call.
func isDistribution(name string) bool {
	for _, f := range dist.Forms() {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}
