package rules

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/websim/websim/engine"
)

var testNames = Names{
	Attrs:   []string{"Cards", "Size"},
	Params:  []string{"RATParameter", "SwitchUtil", "MaxCards"},
	Servers: []string{"GWay", "MTC", "DSS"},
	Retry:   true, // sees every name
}

// fakeState gives each server (GWay, MTC, DSS, then App) fixed figures.
type fakeState struct{}

func (fakeState) Util(i int) float64  { return []float64{0.1, 0.5, 0.9, 0.75}[i] }
func (fakeState) Queue(i int) float64 { return float64(2 * i) }
func (fakeState) Busy(i int) float64  { return float64(i + 1) }

func testContext() *engine.EvalContext {
	return &engine.EvalContext{
		AppUtil: 0.4, Now: 120, Load: "L5", Attempt: 2, Copy: 3, Elapsed: 1.5, TimedOut: true,
		Attrs:  []float64{3, 2.5},
		Params: []float64{0.01, 0.6, 5},
		State:  fakeState{},
	}
}

// eval runs e as its kind and returns the result as any.
func eval(e *Expr, c *engine.EvalContext) (any, error) {
	switch e.kind {
	case Bool:
		return e.Bool(c)
	case Mode:
		p, err := e.Parallel(c)
		if p {
			return "parallel", err
		}
		return "sequential", err
	}
	return e.Number(c)
}

// check evaluates e as its kind and keeps only the error; unlike eval it
// boxes no result, so it shows the evaluator's own allocations.
func check(e *Expr, c *engine.EvalContext) error {
	var err error
	switch e.kind {
	case Bool:
		_, err = e.Bool(c)
	case Mode:
		_, err = e.Parallel(c)
	default:
		_, err = e.Number(c)
	}
	return err
}

// onVM returns a copy of e that always runs on expr's virtual machine.
func onVM(e *Expr) *Expr {
	v := *e
	v.num, v.boolean, v.str, v.isConst = nil, nil, nil, false
	return &v
}

func TestEval(t *testing.T) {
	tests := []struct {
		kind Kind
		src  string
		want any
		fast bool // runs on the direct evaluator
	}{
		{Mode, `AppUtil < SwitchUtil ? "parallel" : "sequential"`, "parallel", true},
		{Mode, `=IF(AppUtil > SwitchUtil, "parallel", "sequential")`, "sequential", true},
		{Mode, `if(AppUtil > SwitchUtil, "parallel", "sequential")`, "sequential", true},
		{Mode, `"PARALLEL"`, "parallel", true},
		{Mode, `Sequential`, "sequential", true},
		{Mode, `AppUtil < 0.5 ? parallel : sequential`, "parallel", true},
		{Mode, `Load = "L5" ? "Parallel" : "Sequential"`, "parallel", true},
		{Mode, `Load in ["L1", "L5"] ? "parallel" : "sequential"`, "parallel", true},
		{Mode, `lower(Load) == "l5" ? "parallel" : "sequential"`, "parallel", false},
		{Bool, `Cards > 2`, true, true},
		{Bool, `=Cards<>3`, false, true},
		{Bool, `Cards = 3`, true, true},
		{Bool, `= Cards=3`, true, true},
		{Bool, `AND(Cards > 2, Size < 3)`, true, true},
		{Bool, `OR(Cards > 5, FALSE, Size = 2.5)`, true, true},
		{Bool, `Or(Cards > 5)`, false, true},
		{Bool, `NOT(Cards > 5)`, true, true},
		{Bool, `and(TRUE, True)`, true, true},
		{Bool, `Cards > 2 and (Size > 1)`, true, true},
		{Bool, `not (Cards > 2) or Attempt >= 2`, true, true},
		{Bool, `util("GWay") < 0.5`, true, true},
		{Bool, `queue("App") = 6`, true, true},
		{Bool, `busy(MTC) = 2 && UTIL("dss") > 0.8`, true, true},
		{Bool, `Now >= 120 && Load == "L5"`, true, true},
		{Bool, `"a=b" == 'a=b' && "x<>y" != "x!=y"`, true, true},
		{Bool, `cards > 2`, true, true},
		{Bool, `len(Load) == 2`, true, false},
		{Bool, `TRUE = true`, true, true},
		{Count, `Cards`, 3.0, true},
		{Count, `=MaxCards - Cards`, 2.0, true},
		{Count, `round(Size)`, 3.0, true},
		{Count, `IF(Cards > 2, 2, 1)`, 2.0, true},
		{Count, `ceil(Size * 2) / 5`, 1.0, true},
		{Count, `int(Size)`, 2.0, true},
		{Count, `max(Cards, 4)`, 4.0, true},
		{Count, `MIN(Cards, 1)`, 1.0, true},
		{Count, `Cards ^ 2`, 9.0, true},
		{Count, `int(Cards) % 2`, 1.0, true},
		{Count, `abs(2 - Cards)`, 1.0, true},
		{Count, `Attempt`, 2.0, true},
		{Count, `max(1, 2, Cards)`, 3.0, false},
		{Number, `-Now / 60`, -2.0, true},
		{Number, `RATParameter * AppUtil * 100`, 0.4, true},
		{Number, `Size + Attempt`, 4.5, true},
		{Number, `2 ** 10`, 1024.0, true},
		{Number, `util("App") * 4`, 3.0, true},
		{Probability, `1 - util("DSS")`, 0.1, true},
		{Probability, `AppUtil`, 0.4, true},
		{Time, `Now / 2`, 60.0, true},
		{Time, `Load == "L5" ? 1.5 : 2`, 1.5, true},
		{Number, `exp(Size - 2.5)`, 1.0, true},
		{Number, `sqrt(Size * 10 - 9)`, 4.0, true},
		{Number, `log(Cards * Cards) / log(Cards)`, 2.0, true},
		{Number, `pow(Cards, 2)`, 9.0, true},
		{Number, `EXP(0) + Log(1) + SQRT(4) + POW(2, 0)`, 4.0, true},
		{Time, `RATParameter * exp(10 * AppUtil)`, 0.01 * math.Exp(4), true},
		{Number, `exp(len(Load))`, math.Exp(2), false},
		{Count, `Copy`, 3.0, true},
		{Count, `Copy + Attempt`, 5.0, true},
		{Number, `Elapsed * 2`, 3.0, true},
		{Probability, `TimedOut ? 0.1 : 0.9`, 0.1, true},
		{Probability, `Elapsed < 2 and not TimedOut ? 0.8 : 0.2`, 0.2, true},
		{Bool, `TimedOut`, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := Compile(tt.src, tt.kind, testNames)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			fast := e.num != nil || e.boolean != nil || e.str != nil || e.isConst
			if fast != tt.fast {
				t.Errorf("direct evaluator used: %v, want %v", fast, tt.fast)
			}
			for _, e := range []*Expr{e, onVM(e)} {
				got, err := eval(e, testContext())
				if err != nil {
					t.Fatalf("eval: %v", err)
				}
				if f, ok := got.(float64); ok {
					if math.Abs(f-tt.want.(float64)) > 1e-12 {
						t.Errorf("got %v, want %v", got, tt.want)
					}
				} else if got != tt.want {
					t.Errorf("got %v, want %v", got, tt.want)
				}
			}
			if e.String() != tt.src {
				t.Errorf("String() = %q", e.String())
			}
		})
	}
}

func TestConst(t *testing.T) {
	tests := []struct {
		src  string
		want float64
		ok   bool
	}{
		{"3", 3, true},
		{"=2*1.5", 3, true},
		{"1/4", 0.25, true},
		{"Cards", 0, false},
		{"MaxCards", 0, false},
		{"min(1, 2)", 1, true},
		{"true ? 0.5 : 1", 0.5, true},
		{"pow(2, 3)", 8, true},
		{"min(Cards, 2)", 0, false},
	}
	for _, tt := range tests {
		e, err := Compile(tt.src, Number, testNames)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		got, ok := e.Const()
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: Const() = %v, %v; want %v, %v", tt.src, got, ok, tt.want, tt.ok)
		}
	}
}

func TestConstBool(t *testing.T) {
	for _, tt := range []struct {
		src      string
		want, ok bool
	}{
		{"1 > 2", false, true},
		{"!true", false, true},
		{"2 >= 1", true, true},
		{"min(1, 2) == 1", true, true},
		{"Cards > 2", false, false},
		{"util(GWay) > 2", false, false},
		{"AppUtil < 0.5", false, false},
	} {
		e, err := Compile(tt.src, Bool, testNames)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if got, ok := e.ConstBool(); got != tt.want || ok != tt.ok {
			t.Errorf("%s: ConstBool() = %v, %v; want %v, %v", tt.src, got, ok, tt.want, tt.ok)
		}
	}
}

// The marker § stands before the rune the error must point at, as in
// encoding/csv's tests.
const marker = '§'

// TestRetryOnlyNames: Elapsed and TimedOut have values only when a
// RetryProbability is evaluated; any other cell refuses them.
func TestRetryOnlyNames(t *testing.T) {
	other := testNames
	other.Retry = false
	tests := []struct {
		kind Kind
		src  string
		want string
	}{
		{Probability, `TimedOut or Elapsed > 0 ? 0 : 1`, `TimedOut, whether a TimeLimit failed the attempt, is known only in a RetryProbability; here it would always be false at column 1`},
		{Bool, `Attempt > 1 and elapsed > 2`, `Elapsed, the failed attempt's time, is known only in a RetryProbability; here it would always be 0 at column 17`},
	}
	for _, tt := range tests {
		_, err := Compile(tt.src, tt.kind, other)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.src, err, tt.want)
		}
		if _, err := Compile(tt.src, tt.kind, testNames); err != nil {
			t.Errorf("%s in a RetryProbability: %v", tt.src, err)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		kind Kind
		src  string
		want string
	}{
		{Mode, `AppUtil < §SwitchUtl ? "parallel" : "sequential"`,
			`unknown name "SwitchUtl" at column 11; did you mean "SwitchUtil"?`},
		{Count, `util(§"GWy")`, `unknown server "GWy" at column 6; did you mean "GWay"?`},
		{Count, `queue(§Gway + 1)`, `queue takes a server name in quotes at column 7; try: queue("GWay")`},
		{Count, `§busy()`, `busy takes one server name at column 1; try: busy("GWay")`},
		{Count, `§flor(Size)`, `unknown function "flor" at column 1; did you mean "floor"?`},
		{Count, `§UniformInt(1, 3)`, `UniformInt is a distribution, not a function of an expression at column 1; try: draw it once per request as an attribute (the Attributes sheet: Entity | Attribute | Value) and use the attribute here`},
		{Number, `=§now()`, `unknown function "now" at column 2; try: Now, the simulated time (no clock is available)`},
		{Number, `§date("2024-01-01")`, `unknown function "date" at column 1`},
		{Mode, `AppUtil < 0.5 ? "parallel" : §"sequencial"`,
			`the result "sequencial" is not "parallel" or "sequential" at column 30`},
		{Count, `Cards > 2 ? §2.5 : 1`, `the result 2.5 is not a whole number >= 0 at column 13`},
		{Probability, `§1.5`, `the result 1.5 is not a probability from 0 to 1 at column 1`},
		{Number, `§1 / 0`, `the result +Inf is not a number (a division by zero?) at column 1`},
		{Bool, `§Cards + 1`,
			`expected true or false, but the expression gives a number at column 1; try: compare it, e.g. x > 0`},
		{Mode, ` = §AppUtil < 0.5`,
			`expected "parallel" or "sequential", but the expression gives true or false at column 4; try: condition ? "parallel" : "sequential"`},
		{Number, `§Load`, `expected a number, but the expression gives text at column 1`},
		{Bool, `§nil`, `expected true or false, but the expression can only give nil at column 1`},
		{Number, `§Cards > 2 ? nil : nil`, `expected a number, but the expression can only give nil at column 1`},
		{Count, `Cards + §`, `the expression ends too soon at column 9`},
		{Count, `(Cards + 1§`, `missing ")" to close the "(" of column 1 at column 11`},
		{Mode, `IF(AppUtil <> SwitchUtil, "parallel", "sequential"§`, `missing ")" to close the "(" of column 3 at column 51`},
		{Count, `max(Cards, ")(", (Size + 1)§`, `missing ")" to close the "(" of column 4 at column 28`},
		{Number, `[Cards, Size§`, `missing "]" to close the "[" of column 1 at column 13`},
		{Time, `RATParameter + §Exp(20)`, `Exp is the exponential distribution, which an expression cannot draw (exp(x), in lower case, is e to the power x) at column 16; try: exp(x) for e to the x, or draw Exp(mean) once per request as an attribute (the Attributes sheet: Entity | Attribute | Value) and use the attribute here`},
		{Number, `§exp(1, 2)`, `exp takes 1 argument, not 2 at column 1; try: exp(x)`},
		{Number, `§pow(2)`, `pow takes 2 arguments, not 1 at column 1; try: pow(x, y)`},
		{Number, `§LN(Size)`, `unknown function "LN" at column 1; try: log(x), the natural logarithm`},
		{Number, `§sqr(Size)`, `unknown function "sqr" at column 1; did you mean "sqrt"?`},
		{Bool, `§IF(Cards > 2, TRUE)`,
			`IF takes 3 arguments, not 2 at column 1; try: IF(condition, value if true, value if false) or condition ? a : b`},
		{Bool, `§NOT(Cards, Size)`, `NOT takes one condition at column 1; try: NOT(a)`},
		{Bool, `Cards = 3 and §Sise > 1`, `unknown name "Sise" at column 15; did you mean "Size"?`},
		{Bool, `Cards <> 3 and §Sise > 1`, `unknown name "Sise" at column 16; did you mean "Size"?`},
		{Count, `§parallel`, `unknown name "parallel" at column 1; try: "parallel" in quotes`},
		{Bool, `§GWay > 0.5`, `unknown name "GWay" at column 1; try: util("GWay"), queue("GWay") or busy("GWay")`},
		{Number, `§Machine`, `unknown name "Machine" at column 1`},
		{Number, `§$env`, `unknown name "$env" at column 1`},
		{Number, `§AppUtil(2)`, `AppUtil is not a function at column 1`},
		{Number, `§`, `empty expression at column 1`},
		{Number, `=§`, `empty expression at column 2`},
		{Number, `let §x = 2; x`, `"let" is not supported at column 5; try: write the value where it is used`},
		{Number, `§sum([1, 2])`, `function sum is not supported at column 1`},
		{Number, `1§..3`, `ranges (a..b) are not supported at column 2`},
		{Bool, `Cards §> "3"`, `invalid operation: > (mismatched types number and text) at column 7`},
		{Bool, `Cards > 2 §& Size > 1`, `unexpected "&" at column 11; try: write "and" (or AND(a, b)) to require both conditions`},
		{Bool, `Cards =§< 2`, `unexpected "<" at column 8; try: write <=`},
		{Number, `§ROUND(Size, 1)`, `round takes one argument at column 1; try: round(x * 100) / 100 to keep 2 decimals`},
		{Bool, `Cards =§> 2`, `unexpected ">" at column 8; try: write >=`},
		{Count, `§MOD(Cards, 2)`, `unknown function "MOD" at column 1; try: a % b (whole numbers)`},
		{Mode, `IF(AppUtil < 0.5§; "parallel"; "sequential")`,
			`unexpected ";" at column 17; try: separate arguments with "," and write one expression`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			pos := strings.IndexRune(tt.src, marker)
			if pos < 0 {
				t.Fatal("no marker in the test input")
			}
			wantPos := utf8.RuneCountInString(tt.src[:pos])
			src := strings.Replace(tt.src, string(marker), "", 1)
			_, err := Compile(src, tt.kind, testNames)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Compile(%q) = %v, want an *Error", src, err)
			}
			if ce.Pos != wantPos {
				t.Errorf("Pos = %d, want %d\n%s", ce.Pos, wantPos, ce.Caret())
			}
			if ce.Error() != tt.want {
				t.Errorf("Error() =\n%s\nwant\n%s", ce.Error(), tt.want)
			}
			if ce.Src != src {
				t.Errorf("Src = %q, want %q", ce.Src, src)
			}
		})
	}
}

func TestCaret(t *testing.T) {
	e := &Error{Src: "a +\tb", Pos: 4}
	if got, want := e.Caret(), "a +\tb\n   \t^"; got != want {
		t.Errorf("Caret() = %q, want %q", got, want)
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		kind Kind
		src  string
		want string
		vm   bool // the virtual machine finds the fault too
	}{
		{Count, `Cards - 4`, `ProcData.xlsx!ASumSvc!H3: expression "Cards - 4" gave -1, which is not a whole number >= 0`, false},
		{Count, `Size`, `ProcData.xlsx!ASumSvc!H3: expression "Size" gave 2.5, which is not a whole number >= 0`, false},
		{Probability, `Cards / 2`, `ProcData.xlsx!ASumSvc!H3: expression "Cards / 2" gave 1.5, which is not a probability from 0 to 1`, false},
		{Time, `Now - 200`, `ProcData.xlsx!ASumSvc!H3: expression "Now - 200" gave -80, which is not a time >= 0`, false},
		{Number, `Cards / (Size - 2.5)`, `ProcData.xlsx!ASumSvc!H3: expression "Cards / (Size - 2.5)" fails at column 7: division by zero`, false},
		{Bool, `Cards / (Size - 2.5) > 1`, `ProcData.xlsx!ASumSvc!H3: expression "Cards / (Size - 2.5) > 1" fails at column 7: division by zero`, false},
		{Mode, `Load`, `ProcData.xlsx!ASumSvc!H3: expression "Load" gave "L5", which is not "parallel" or "sequential"`, false},
		{Mode, `lower(Load) + "x"`, `ProcData.xlsx!ASumSvc!H3: expression "lower(Load) + \"x\"" gave "l5x", which is not "parallel" or "sequential"`, false},
		{Count, `max(Cards, 1, -Size) - 4`, `ProcData.xlsx!ASumSvc!H3: expression "max(Cards, 1, -Size) - 4" gave -1, which is not a whole number >= 0`, false},
		{Number, `1 + log(Cards - 3)`, `ProcData.xlsx!ASumSvc!H3: expression "1 + log(Cards - 3)" fails at column 5: log(0): the logarithm needs a number above 0`, true},
		{Number, `sqrt(Size - 3)`, `ProcData.xlsx!ASumSvc!H3: expression "sqrt(Size - 3)" fails at column 1: sqrt(-0.5): the square root needs a number >= 0`, true},
		{Bool, `exp(Now * 10) > 1`, `ProcData.xlsx!ASumSvc!H3: expression "exp(Now * 10) > 1" fails at column 1: exp(1200) gives +Inf, not a finite number`, true},
		{Number, `pow(-Cards, 0.5)`, `ProcData.xlsx!ASumSvc!H3: expression "pow(-Cards, 0.5)" fails at column 1: pow(-3, 0.5) gives NaN, not a finite number`, true},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := Compile(tt.src, tt.kind, testNames)
			if err != nil {
				t.Fatal(err)
			}
			e.Cell = "ProcData.xlsx!ASumSvc!H3"
			_, err = eval(e, testContext())
			var re *RunError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a *RunError", err)
			}
			if err.Error() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", err, tt.want)
			}
			// The virtual machine finds the same fault, in its own words.
			if !tt.vm {
				return
			}
			_, err = eval(onVM(e), testContext())
			if !errors.As(err, &re) || re.Cell != e.Cell {
				t.Errorf("on the virtual machine: got %v, want a *RunError at the cell", err)
			}
		})
	}
}

func TestWrongUse(t *testing.T) {
	e, err := Compile("Cards > 1", Bool, testNames)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Number(testContext()); err == nil {
		t.Error("Number on a Bool expression: no error")
	}
	if _, err := e.Parallel(testContext()); err == nil {
		t.Error("Parallel on a Bool expression: no error")
	}
}

func TestNoAllocation(t *testing.T) {
	for _, tt := range []struct {
		kind Kind
		src  string
	}{
		{Mode, `AppUtil < SwitchUtil ? "parallel" : "sequential"`},
		{Count, `IF(Cards > 2, MaxCards - Cards, round(Size * 2))`},
		{Bool, `AND(util("GWay") < 0.5, Load = "L5", Attempt <> 3)`},
		{Number, `RATParameter * AppUtil + queue("App") / busy("MTC")`},
	} {
		e, err := Compile(tt.src, tt.kind, testNames)
		if err != nil {
			t.Fatal(err)
		}
		c := testContext()
		if n := testing.AllocsPerRun(100, func() { _ = check(e, c) }); n != 0 {
			t.Errorf("%s: %v allocations per evaluation", tt.src, n)
		}
	}
}

func benchmark(b *testing.B, kind Kind, src string) {
	e, err := Compile(src, kind, testNames)
	if err != nil {
		b.Fatal(err)
	}
	c := testContext()
	b.ReportAllocs()
	for b.Loop() {
		if err := check(e, c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMode(b *testing.B) {
	benchmark(b, Mode, `AppUtil < SwitchUtil ? "parallel" : "sequential"`)
}

func BenchmarkCount(b *testing.B) {
	benchmark(b, Count, `IF(Cards > 2, MaxCards - Cards, round(Size * 2))`)
}

func BenchmarkBool(b *testing.B) {
	benchmark(b, Bool, `AND(util("GWay") < 0.5, Load = "L5", Attempt <> 3)`)
}

// BenchmarkModeVM is the Mode cell on expr's virtual machine, for comparison.
func BenchmarkModeVM(b *testing.B) {
	e, err := Compile(`AppUtil < SwitchUtil ? "parallel" : "sequential"`, Mode, testNames)
	if err != nil {
		b.Fatal(err)
	}
	e = onVM(e)
	c := testContext()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Parallel(c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := Compile(`AppUtil < SwitchUtil ? "parallel" : "sequential"`, Mode, testNames); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBuiltinNamesAreResolved(t *testing.T) {
	// Every built-in name compiles on its own, and the list is a copy.
	for _, n := range BuiltinNames() {
		kind := Number
		switch n {
		case "Load":
			kind = Mode
		case "TimedOut":
			kind = Bool
		}
		if _, err := Compile(n, kind, testNames); err != nil && !strings.Contains(err.Error(), "parallel") {
			t.Errorf("%s: %v", n, err)
		}
	}
	names := BuiltinNames()
	names[0] = "x"
	if BuiltinNames()[0] != "AppUtil" {
		t.Error("BuiltinNames returned the package's own slice")
	}
}
