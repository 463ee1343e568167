package rules

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/numtext"
)

// Kind is what a cell's expression must yield.
type Kind int

const (
	// Number is any finite number.
	Number Kind = iota
	// Count is a whole number >= 0.
	Count
	// Probability is a number from 0 to 1.
	Probability
	// Time is a number >= 0.
	Time
	// Bool is true or false.
	Bool
	// Mode is the text "parallel" or "sequential", in any case.
	Mode
)

// String names the kind as in messages.
func (k Kind) String() string {
	switch k {
	case Number:
		return "Number"
	case Count:
		return "Count"
	case Probability:
		return "Probability"
	case Time:
		return "Time"
	case Bool:
		return "Bool"
	case Mode:
		return "Mode"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// expected says what a value of the kind looks like, for messages.
func (k Kind) expected() string {
	switch k {
	case Count:
		return "a whole number >= 0"
	case Probability:
		return "a probability from 0 to 1"
	case Time:
		return "a time >= 0"
	case Bool:
		return "true or false"
	case Mode:
		return `"parallel" or "sequential"`
	}
	return "a number"
}

func (k Kind) numeric() bool { return k >= Number && k <= Time }

// Names are the names an expression may use besides AppUtil, Now, Load and
// Attempt. Names are matched exactly first, then ignoring case.
type Names struct {
	// Attrs are the request attributes, in the order of EvalContext.Attrs.
	Attrs []string
	// Params are the Settings names, user parameters included, in the order
	// of EvalContext.Params. An attribute hides a parameter of the same name.
	Params []string
	// Servers are the external servers, in the order of the engine's server
	// indexes; "App" (any case) is the application servers, index
	// len(Servers).
	Servers []string
	// Retry says the expression is a RetryProbability, the only cell that
	// sees Elapsed and TimedOut (elsewhere they would always be 0 and
	// false, so they are refused).
	Retry bool
}

// Error is a problem found when compiling an expression.
type Error struct {
	// Src is the expression as the user wrote it.
	Src string
	// Pos is the 0-based rune column in Src where the problem is.
	Pos int
	// Msg says what is wrong.
	Msg string
	// Suggestion is the closest known name to a misspelt one, or "".
	Suggestion string
	// Hint says what to write instead, or "".
	Hint string
}

// Error returns the problem on one line, with the 1-based column, for
// example `unknown name "SwitchUtl" at column 11; did you mean "SwitchUtil"?`.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s at column %d", e.Msg, e.Pos+1)
	if e.Suggestion != "" {
		fmt.Fprintf(&b, "; did you mean %q?", e.Suggestion)
	}
	if e.Hint != "" {
		b.WriteString("; try: ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// caretWindow is how much of a long source Caret shows on each side of
// the column.
const caretWindow = 50

// Caret returns two lines: the source (line breaks shown as spaces) and a
// caret under column Pos. Of a source longer than twice caretWindow, the
// part around Pos is shown, with "…" where it is cut.
func (e *Error) Caret() string {
	src := []rune(e.Src)
	pos := e.Pos
	if len(src) > 2*caretWindow+20 {
		from, to := max(0, pos-caretWindow), min(len(src), pos+caretWindow)
		cut := src[from:to]
		if from > 0 {
			cut = append([]rune("…"), cut...)
			pos = pos - from + 1
		}
		if to < len(src) {
			cut = append(cut, '…')
		}
		src = cut
	}
	var line, mark strings.Builder
	for i, r := range src {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		line.WriteRune(r)
		if i < pos {
			if r == '\t' {
				mark.WriteRune('\t')
			} else {
				mark.WriteRune(' ')
			}
		}
	}
	for i := len(src); i < pos; i++ {
		mark.WriteRune(' ')
	}
	mark.WriteRune('^')
	return line.String() + "\n" + mark.String()
}

// Variables every expression sees, as fields of engine.EvalContext.
var envNames = []string{"AppUtil", "Now", "Load", "Attempt", "Copy", "Elapsed", "TimedOut"}

// BuiltinNames returns the names every expression sees before any
// attribute or Settings name (AppUtil, Now, Load, Attempt, Copy, Elapsed,
// TimedOut), so that a reader can refuse an attribute or parameter that
// would be shadowed by one of them.
func BuiltinNames() []string { return append([]string(nil), envNames...) }

// Functions a user may call, besides AND, OR, NOT and IF.
var (
	serverFuncs = []string{"util", "queue", "busy"}
	// mathFuncs are expr builtins also accepted in any case (ABS, MIN...).
	mathFuncs = []string{"abs", "ceil", "floor", "round", "min", "max"}
	// domainFuncs are websim's own math functions, in any case, with
	// their number of arguments; their domain is checked at run time.
	domainFuncs = map[string]int{"exp": 1, "log": 1, "sqrt": 1, "pow": 2}
	// otherBuiltins are accepted as written.
	otherBuiltins = []string{"int", "float", "len", "upper", "lower", "trim"}
	excelFuncs    = []string{"AND", "OR", "NOT", "IF"}
)

// maxNodes bounds the size of an expression, and so its work.
const maxNodes = 1000

// Compile compiles src, an expression from a cell, into an Expr that yields
// kind. Every problem is an *Error that points into src.
func Compile(src string, kind Kind, names Names) (e *Expr, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, &Error{Src: src, Msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	if strings.TrimSpace(src) == "" || strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(src), "=")) == "" {
		return nil, &Error{Src: src, Pos: len([]rune(src)), Msg: "empty expression"}
	}
	c := &compilation{src: src, kind: kind, names: names}
	c.rw = rewriteExcel(src, c.isName)
	cfg := newConfig()
	tree, perr := parser.ParseWithConfig(c.rw.src, cfg)
	if perr != nil {
		return nil, c.fromExpr(perr)
	}
	c.walk(&tree.Node)
	if c.err != nil {
		return nil, c.err
	}
	t, cerr := checker.Check(tree, cfg)
	if cerr != nil {
		return nil, c.fromExpr(cerr)
	}
	if err := c.checkType(t, tree.Node); err != nil {
		return nil, err
	}
	if oerr := optimizer.Optimize(&tree.Node, cfg); oerr != nil {
		return nil, c.fromExpr(oerr)
	}
	if err := c.checkConstants(tree.Node); err != nil {
		return nil, err
	}
	prog, perr := compiler.Compile(tree, cfg)
	if perr != nil {
		return nil, c.fromExpr(perr)
	}
	e = &Expr{src: src, kind: kind, prog: prog, names: names, attrs: c.attrs}
	b := builder{c: c}
	switch {
	case kind.numeric():
		e.num = b.num(tree.Node)
		if n, ok := constNumber(tree.Node); ok {
			e.isConst, e.value = true, kind.Taken(n)
		}
	case kind == Bool:
		e.boolean = b.boolean(tree.Node)
		if v, ok := tree.Node.(*ast.BoolNode); ok {
			e.isConstBool, e.boolValue = true, v.Value
		}
	case kind == Mode:
		e.str = b.str(tree.Node)
	}
	e.settingsOnly = !e.isConst && settingsTree(tree.Node)
	if !e.isConst && !e.isConstBool && constantTree(tree.Node) {
		// Only literals, operators and math: the value is fixed when the
		// model is read ("1 > 2", "min(1, 2)"). One evaluation finds it;
		// one that fails is left to fail at run time, at its cell.
		var ctx engine.EvalContext
		switch {
		case kind.numeric():
			if v, err := e.Number(&ctx); err == nil {
				e.isConst, e.value = true, v // Number gives a Count whole
			}
		case kind == Bool:
			if v, err := e.Bool(&ctx); err == nil {
				e.isConstBool, e.boolValue = true, v
			}
		}
	}
	return e, nil
}

// constantTree says whether an expression is made of literals, operators,
// conditionals and the math functions alone: nothing it reads changes
// during a run.
func constantTree(root ast.Node) bool {
	v := &constVisitor{constant: true}
	ast.Walk(&root, v)
	return v.constant
}

// settingsTree is constantTree with Settings names allowed: the value is
// fixed within a scenario, but not across scenarios (an Experiments column
// sets the parameter).
func settingsTree(root ast.Node) bool {
	v := &constVisitor{constant: true, params: true}
	ast.Walk(&root, v)
	return v.constant
}

// constVisitor clears constant at anything an expression reads during a
// run; with params, the Settings names (param calls) are not such a thing.
type constVisitor struct{ constant, params bool }

func (v *constVisitor) Visit(np *ast.Node) {
	switch n := (*np).(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.StringNode, *ast.ConstantNode, *ast.NilNode,
		*ast.UnaryNode, *ast.BinaryNode, *ast.ConditionalNode:
	case *ast.CallNode:
		name := ""
		if id, ok := n.Callee.(*ast.IdentifierNode); ok {
			name = strings.ToLower(id.Value)
		}
		if name == "param" && v.params {
			return
		}
		if _, math := domainFuncs[name]; !math && !slices.Contains(mathFuncs, name) {
			v.constant = false
		}
	case *ast.BuiltinNode:
		if !slices.Contains(mathFuncs, strings.ToLower(n.Name)) {
			v.constant = false
		}
	case *ast.IdentifierNode:
		// A callee's name is visited too: only the math functions' are
		// constant; any other name (an attribute, AppUtil, Now) is not
		// (a param call's name and its $env, with params, are).
		if v.params && (n.Value == "param" || n.Value == "$env") {
			return
		}
		if _, math := domainFuncs[strings.ToLower(n.Value)]; !math && !slices.Contains(mathFuncs, strings.ToLower(n.Value)) {
			v.constant = false
		}
	default:
		v.constant = false
	}
}

// newConfig returns an expr configuration that sees an *engine.EvalContext,
// knows the server, attribute and parameter functions, and has no builtin
// outside the short list above (none reads the clock or the disk).
func newConfig() *conf.Config {
	cfg := conf.CreateNew()
	cfg.WithEnv(&engine.EvalContext{})
	cfg.DisableIfOperator = true // IF(c, a, b) is a function call here
	cfg.MaxNodes = maxNodes
	keep := map[string]bool{}
	for _, n := range mathFuncs {
		keep[n] = true
	}
	for _, n := range otherBuiltins {
		keep[n] = true
	}
	for name := range cfg.Builtins {
		if !keep[name] {
			cfg.Disabled[name] = true
			delete(cfg.Builtins, name)
		}
	}
	for name, fn := range vmFuncs {
		cfg.Functions[name] = &builtin.Function{
			Name:  name,
			Func:  fn,
			Types: []reflect.Type{reflect.TypeOf(func(any, int) float64 { return 0 })},
		}
	}
	for name, n := range domainFuncs {
		typ := reflect.TypeOf(func(any) float64 { return 0 })
		if n == 2 {
			typ = reflect.TypeOf(func(any, any) float64 { return 0 })
		}
		cfg.Functions[name] = &builtin.Function{Name: name, Func: vmDomainFunc(name), Types: []reflect.Type{typ}}
	}
	cfg.Check()
	return cfg
}

// vmFuncs read the EvalContext for programs run on expr's virtual machine:
// a name resolved at compile time becomes param($env, 5), say.
var vmFuncs = map[string]func(args ...any) (any, error){
	"attr": func(args ...any) (any, error) {
		c, i := args[0].(*engine.EvalContext), args[1].(int)
		if i >= len(c.Attrs) {
			return nil, errors.New("attribute has no value")
		}
		return c.Attrs[i], nil
	},
	"param": func(args ...any) (any, error) {
		c, i := args[0].(*engine.EvalContext), args[1].(int)
		if i >= len(c.Params) {
			return nil, errors.New("setting has no value")
		}
		return c.Params[i], nil
	},
	"util":  serverFunc(engine.ServerState.Util),
	"queue": serverFunc(engine.ServerState.Queue),
	"busy":  serverFunc(engine.ServerState.Busy),
}

func serverFunc(f func(engine.ServerState, int) float64) func(args ...any) (any, error) {
	return func(args ...any) (any, error) {
		c, i := args[0].(*engine.EvalContext), args[1].(int)
		if c.State == nil {
			return nil, errors.New("no server state")
		}
		return f(c.State, i), nil
	}
}

// compilation is the state of one Compile.
type compilation struct {
	src   string
	kind  Kind
	names Names
	rw    rewritten
	err   *Error
	// attrs are the indexes of the attributes the expression names, in
	// the order first named.
	attrs []int
}

// isName reports whether s is a name the user defined (so TRUE stays a name
// if someone called an attribute that).
func (c *compilation) isName(s string) bool {
	for _, list := range [][]string{c.names.Attrs, c.names.Params} {
		for _, n := range list {
			if n == s {
				return true
			}
		}
	}
	return false
}

// pos maps a node's location to a column of the user's text.
func (c *compilation) pos(n ast.Node) int {
	return c.rw.origPos(n.Location().From)
}

func (c *compilation) fail(at int, msg, suggestion, hint string) {
	if c.err == nil {
		c.err = &Error{Src: c.src, Pos: at, Msg: msg, Suggestion: suggestion, Hint: hint}
	}
}

// fromExpr turns an error of expr into an *Error in the user's columns.
func (c *compilation) fromExpr(err error) *Error {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return &Error{Src: c.src, Msg: err.Error()}
	}
	at := c.rw.origPos(fe.From)
	e := &Error{Src: c.src, Pos: at, Msg: fe.Message}
	if strings.Contains(fe.Message, "exceeds maximum allowed nodes") {
		e.Msg = fmt.Sprintf("the expression is longer than websim computes (more than %s names, numbers and operations); expected a shorter one (a part of it in a Settings parameter or an attribute)", numtext.Group(maxNodes))
	}
	if fe.Message == "unexpected token EOF" {
		e.Pos, e.Msg = len([]rune(c.src)), "the expression ends too soon"
		if open, at, ok := unclosed(c.src); ok {
			e.Msg = fmt.Sprintf("missing %q to close the %q of column %d", closing[open], string(open), at+1)
		}
	}
	// expr names tokens by their Go kind: say what the user wrote.
	e.Msg = unexpectedToken.ReplaceAllString(e.Msg, `unexpected "$1"`)
	e.Msg = mismatched.ReplaceAllStringFunc(e.Msg, func(m string) string {
		p := mismatched.FindStringSubmatch(m)
		return "(mismatched types " + typeWords(p[1]) + " and " + typeWords(p[2]) + ")"
	})
	r := []rune(c.src)
	switch {
	case strings.Contains(fe.Message, `Operator(";")`):
		e.Hint = `separate arguments with "," and write one expression`
	case strings.Contains(fe.Message, `Operator("&")`):
		e.Hint = `write "and" (or AND(a, b)) to require both conditions`
	case at > 0 && at < len(r) && r[at-1] == '=' && (r[at] == '<' || r[at] == '>'):
		e.Hint = "write " + string(r[at]) + "="
	}
	return e
}

// closing pairs each opening bracket with the one that closes it.
var closing = map[rune]string{'(': ")", '[': "]", '{': "}"}

// unclosed finds the innermost bracket of src left open at its end (string
// literals skipped): the bracket and its rune column.
func unclosed(src string) (open rune, at int, ok bool) {
	type mark struct {
		r  rune
		at int
	}
	var stack []mark
	in := []rune(src)
	for i := 0; i < len(in); i++ {
		switch r := in[i]; r {
		case '"', '\'', '`':
			for i++; i < len(in) && in[i] != r; i++ {
				if in[i] == '\\' && r != '`' {
					i++
				}
			}
		case '(', '[', '{':
			stack = append(stack, mark{r, i})
		case ')', ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return 0, 0, false
	}
	m := stack[len(stack)-1]
	return m.r, m.at, true
}

var unexpectedToken = regexp.MustCompile(`unexpected token \w+\("((?:[^"\\]|\\.)*)"\)`)

var mismatched = regexp.MustCompile(`\(mismatched types (\w+) and (\w+)\)`)

// typeWords names a Go type of a checker message in the user's words.
func typeWords(t string) string {
	switch t {
	case "int", "float64":
		return "number"
	case "bool":
		return "true/false"
	case "string":
		return "text"
	}
	return t
}

// excelHints say what to write for Excel functions expr lacks.
var excelHints = map[string]string{
	"mod":       "a % b (whole numbers)",
	"sum":       "a + b",
	"power":     "pow(a, b) or a ^ b",
	"ln":        "log(x), the natural logarithm",
	"log10":     "log(x) / log(10)",
	"roundup":   "ceil(x)",
	"rounddown": "floor(x)",
	"average":   "(a + b) / 2",
}

// start is the column where the expression starts (after a leading "=").
func (c *compilation) start() int {
	for i, r := range []rune(c.rw.src) {
		if !unicode.IsSpace(r) {
			return c.rw.origPos(i)
		}
	}
	return 0
}

// allNames lists every name for suggestions.
func (c *compilation) allNames() []string {
	all := append([]string{}, envNames...)
	all = append(all, c.names.Attrs...)
	return append(all, c.names.Params...)
}

// checkType compares the checked result type with the kind.
func (c *compilation) checkType(t reflect.Type, root ast.Node) *Error {
	if givesNil(root) {
		// The checker types nil as "any value": it is never a valid one.
		return &Error{Src: c.src, Pos: c.start(), Msg: fmt.Sprintf("expected %s, but the expression can only give nil", c.kind.expected())}
	}
	if t == nil || t.Kind() == reflect.Interface {
		return nil // known only when evaluated
	}
	ok := false
	switch {
	case c.kind.numeric():
		ok = isNumberType(t)
	case c.kind == Bool:
		ok = t.Kind() == reflect.Bool
	case c.kind == Mode:
		ok = t.Kind() == reflect.String
	}
	if ok {
		return nil
	}
	hint := ""
	switch {
	case c.kind == Mode && t.Kind() == reflect.Bool:
		hint = `condition ? "parallel" : "sequential"`
	case c.kind == Bool && isNumberType(t):
		hint = "compare it, e.g. x > 0"
	}
	return &Error{Src: c.src, Pos: c.start(), Msg: fmt.Sprintf("expected %s, but the expression gives %s", c.kind.expected(), describeType(t)), Hint: hint}
}

// givesNil reports whether n can only give nil: nil itself, or a
// condition whose both results give nil.
func givesNil(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.NilNode:
		return true
	case *ast.ConditionalNode:
		return givesNil(n.Exp1) && givesNil(n.Exp2)
	}
	return false
}

func isNumberType(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func describeType(t reflect.Type) string {
	switch {
	case isNumberType(t):
		return "a number"
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.String:
		return "text"
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		return "a list"
	case t.Kind() == reflect.Map:
		return "a map"
	}
	return t.String()
}

// startOf is the column where the part of the expression n stands for
// starts (a node's own location is its operator).
func (c *compilation) startOf(n ast.Node) int {
	from := n.Location().From
	ast.Find(n, func(sub ast.Node) bool {
		from = min(from, sub.Location().From)
		return false
	})
	return c.rw.origPos(from)
}

// checkConstants checks the constant results an expression can give (the
// whole expression, or a branch of a condition) against the kind, so that
// `x ? "paralel" : "sequential"` fails when the model is read.
func (c *compilation) checkConstants(root ast.Node) *Error {
	return c.checkLeaves(root, root)
}

func (c *compilation) checkLeaves(n, root ast.Node) *Error {
	switch n := n.(type) {
	case *ast.ConditionalNode:
		if err := c.checkLeaves(n.Exp1, root); err != nil {
			return err
		}
		return c.checkLeaves(n.Exp2, root)
	case *ast.StringNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.ConstantNode:
		var v any
		switch n := n.(type) {
		case *ast.StringNode:
			v = n.Value
		case *ast.IntegerNode:
			v = n.Value
		case *ast.FloatNode:
			v = n.Value
		case *ast.BoolNode:
			v = n.Value
		case *ast.ConstantNode:
			v = n.Value
		}
		if msg := checkValue(c.kind, v, constProblem); msg != "" {
			at := c.pos(n)
			if n == root {
				at = c.start()
			}
			return &Error{Src: c.src, Pos: at, Msg: msg}
		}
	}
	return nil
}

// Formats of a result out of range, at compile time and at run time.
const (
	constProblem = "the result %s is not %s"
	runProblem   = "gave %s, which is not %s"
)

// checkValue checks a result against the kind; it says what is wrong with
// it, in format (constProblem or runProblem), or returns "".
func checkValue(kind Kind, v any, format string) string {
	switch kind {
	case Bool:
		if _, ok := v.(bool); ok {
			return ""
		}
	case Mode:
		if s, ok := v.(string); ok {
			if _, ok := parseMode(s); ok {
				return ""
			}
		}
	default:
		if f, ok := toFloat(v); ok {
			if badNumber(kind, f) {
				return numberProblem(kind, f, format)
			}
			return ""
		}
	}
	return fmt.Sprintf(format, describeValue(v), kind.expected())
}

// Whole returns the whole number that f stands for, and whether it stands
// for one: f itself, or the nearest whole number when f is within a
// formula's rounding of it (1e-9, and a few parts in 10^14 of a large
// number). Excel saves =0.57*100 as 56.999999999999993: a count, a
// capacity or a number of runs computed so is 57, never 56, and a
// fraction anyone would type (56.5, 56.99) is none. Every reading of a
// whole number (settings, cells, Count expressions) goes through here.
func Whole(f float64) (float64, bool) {
	r := math.Round(f)
	return r, math.Abs(f-r) <= 1e-9+math.Abs(f)*1e-14
}

// badNumber reports whether f is out of range for a numeric kind; it does
// not allocate.
func badNumber(kind Kind, f float64) bool {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return true
	case kind == Count:
		_, whole := Whole(f)
		return f < 0 || !whole
	case kind == Probability:
		return f < 0 || f > 1
	case kind == Time:
		return f < 0
	}
	return false
}

func numberProblem(kind Kind, f float64, format string) string {
	msg := fmt.Sprintf(format, strconv.FormatFloat(f, 'g', -1, 64), kind.expected())
	if math.IsNaN(f) || math.IsInf(f, 0) {
		msg += " (a division by zero?)"
	}
	return msg
}

func describeValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "nil"
	case string:
		return fmt.Sprintf("%q", v)
	case bool:
		return fmt.Sprint(v)
	}
	if f, ok := toFloat(v); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return describeType(reflect.TypeOf(v))
}

// toFloat converts any Go number to float64.
func toFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case float32:
		return float64(v), true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
}

// parseMode reads "parallel" or "sequential" in any case.
func parseMode(s string) (parallel, ok bool) {
	switch {
	case strings.EqualFold(s, "parallel"):
		return true, true
	case strings.EqualFold(s, "sequential"):
		return false, true
	}
	return false, false
}

// constNumber reports the value of an expression that is a plain number.
func constNumber(n ast.Node) (float64, bool) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return float64(n.Value), true
	case *ast.FloatNode:
		return n.Value, true
	case *ast.ConstantNode:
		return toFloat(n.Value)
	}
	return 0, false
}

// Taken is v as a cell or an expression of kind k gives it: a Count as the
// whole number it stands for (see Whole), any other value as it is.
func (k Kind) Taken(v float64) float64 {
	if k == Count {
		if r, ok := Whole(v); ok {
			return r
		}
	}
	return v
}
