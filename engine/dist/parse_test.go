package dist

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// goodTests are inputs that parse, with what String and Mean must give.
var goodTests = []struct {
	in   string
	str  string
	mean float64
}{
	{"12.5", "12.5", 12.5},
	{" 0 ", "0", 0},
	{"-0", "0", 0},
	{"+7", "7", 7},
	{".5", "0.5", 0.5},
	{"5.", "5", 5},
	{"2.5e3", "2500", 2500},
	{"1E-3", "0.001", 0.001},
	{"1e-7", "1e-07", 1e-7},
	{"3e21", "3e+21", 3e21},
	{"Const(4)", "4", 4},
	{"const( 4.25 )", "4.25", 4.25},
	{"Exp(3)", "Exp(3)", 3},
	{"  exp ( 3 )  ", "Exp(3)", 3},
	{"EXP(+0.25)", "Exp(0.25)", 0.25},
	{"Exp(\t2e0\u00a0)", "Exp(2)", 2},
	{"Uniform(1,5)", "Uniform(1,5)", 3},
	{"uniform( 0 , 0 )", "Uniform(0,0)", 0},
	{"UniformInt(1,6)", "UniformInt(1,6)", 3.5},
	{"uniformint(0, 0)", "UniformInt(0,0)", 0},
	{"Normal(10,2)", "Normal(10,2)", 10.000002973439882},
	{"Normal(1,3)", "Normal(1,3)", 2.7954708343952186},
	{"Normal(4,0)", "Normal(4,0)", 4},
	{"LogNormal(4,2)", "LogNormal(4,2)", 4},
	{"Triangular(1,2,6)", "Triangular(1,2,6)", 3},
	{"Triangular(2,2,2)", "Triangular(2,2,2)", 2},
	{"Erlang(3,6)", "Erlang(3,6)", 6},
	{"Erlang(20,1)", "Erlang(20,1)", 1},
	{"Gamma(3,2)", "Gamma(3,2)", 6},
	{"Gamma(0.5,4)", "Gamma(0.5,4)", 2},
	{"Weibull(3,2)", "Weibull(3,2)", 1.785959023138499},
	{"Weibull(0.5,3)", "Weibull(0.5,3)", 6},

	// Arena's names, order and meaning.
	{"EXPO(3)", "Exp(3)", 3},
	{"expo(3)", "Exp(3)", 3},
	{"UNIF(1, 5)", "Uniform(1,5)", 3},
	{"NORM(10, 2)", "Normal(10,2)", 10.000002973439882},
	{"TRIA(1, 2, 6)", "Triangular(1,2,6)", 3},
	{"LOGN(4, 2)", "LogNormal(4,2)", 4},
	{"ERLA(2, 3)", "Erlang(3,6)", 6},
	{"GAMM(2, 3)", "Gamma(3,2)", 6},
	{"WEIB(2, 3)", "Weibull(3,2)", 1.785959023138499},
}

func TestParseGood(t *testing.T) {
	for _, tt := range goodTests {
		d, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := d.String(); got != tt.str {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got, tt.str)
		}
		if got := d.Mean(); !near(got, tt.mean, 1e-12) {
			t.Errorf("Parse(%q).Mean() = %v, want %v", tt.in, got, tt.mean)
		}
	}
}

// near reports whether got is within rel of want, relatively.
func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(1, math.Abs(want))
}

// badTests are inputs that do not parse. The marker § in the input stands
// where the error's Pos must point; it is removed before parsing.
var badTests = []struct {
	in  string
	msg string
}{
	{"§", "empty distribution"},
	{"§   ", "empty distribution"},
	{"§Expn(3)", `unknown distribution "Expn"; did you mean "Exp"?`},
	{"§Epx(1)", `unknown distribution "Epx"; did you mean "Exp"?`},
	{"  §Unifrom(1,5)", `unknown distribution "Unifrom"; did you mean "Uniform"?`},
	{"§Exponential(3)", `unknown distribution "Exponential"; write Exp(mean) for an exponential distribution`},
	{"§Poisson(3)", `unknown distribution "Poisson"; for Poisson arrivals write the time between them as Exp(mean)`},
	{"§RAND()", `unknown distribution "RAND"; for Excel's RAND() write Uniform(0,1)`},
	{"§Beta(1,2)", `unknown distribution "Beta"; expected one of Exp, Uniform, UniformInt, Normal, LogNormal, Triangular, Erlang, Gamma, Weibull, Const, or Arena's EXPO, UNIF, NORM, TRIA, LOGN, ERLA, GAMM, WEIB`},
	{"Expo(3§", `missing ")"; expected "Expo(3)"`},
	{"Uniform(5,2§", `missing ")" to close the "(" of column 8`},
	{"Exp§", `missing "(" after Exp`},
	{"Exp §3", `expected "(" after Exp, found "3"`},
	{"Exp(§", `expected a number`},
	{"Exp(§x)", `expected a number, found the name "x": a distribution's arguments are numbers, fixed when the model is read (to vary a time per request, pick among steps with Condition, or draw it in Attributes and branch on it)`},
	{"Const(§Copy)", `expected a number, found the name "Copy": a distribution's arguments are numbers, fixed when the model is read (to vary a time per request, pick among steps with Condition, or draw it in Attributes and branch on it)`},
	{"Uniform(5,§)", `expected a number, found ")"`},
	{"Uniform(§,5)", `expected a number, found ","`},
	{"Uniform(1§;5)", `use "," between arguments, not ";"`},
	{"Exp(3 §4)", `expected "," or ")", found "4"`},
	{"Exp(3§）", `expected "," or ")", found "）"`},
	{"Exp(3) §x", `unexpected "x" after ")"; expected the end`},
	{"Exp(3)§)", `unexpected ")" after ")"; expected the end`},
	{"12.5§s", `unexpected "s" after the number; expected the end`},
	{"12 §5", `unexpected "5" after the number; expected the end`},
	{"§=Exp(3)", `unexpected "=": write the distribution alone, as in Exp(3), not as an Excel formula`},
	{"§(3)", `unexpected "("; expected a distribution such as Exp(3), or a number`},
	{"§\xff", `unexpected "\xff"; expected a distribution such as Exp(3), or a number`},
	{"Exp(2§e)", `malformed number "2e": expected digits after "e"`},
	{"Exp(§1e999)", `number 1e999 is too large`},
	{"§-3", `-3 is below 0: values are times or counts and cannot be negative`},
	{"§-", `expected a number, found "-"`},
	{"Exp(§)", `Exp takes 1 argument (mean), got 0`},
	{"Exp(1,§2)", `Exp takes 1 argument (mean), got 2`},
	{"Uniform(1§)", `Uniform takes 2 arguments (min,max), got 1`},
	{"ERLA(1§)", `ERLA takes 2 arguments (expMean,k), got 1`},
	{"Triangular(1,2,3,§4,5)", `Triangular takes 3 arguments (min,mode,max), got 5`},
	{"Exp(§-1)", `mean must be above 0, got -1`},
	{"Exp(§0)", `mean must be above 0, got 0`},
	{"EXPO(§0)", `mean must be above 0, got 0`},
	{"Uniform(5,§2)", `min 5 is above max 2`},
	{"Uniform(§-1,2)", `min must be 0 or more, got -1: values are times or counts and cannot be negative`},
	{"UniformInt(§1.5,2)", `min must be a whole number, got 1.5`},
	{"UniformInt(1,§2.5)", `max must be a whole number, got 2.5`},
	{"UniformInt(3,§2)", `min 3 is above max 2`},
	{"UniformInt(0,§1e16)", `max must be at most 9007199254740992, got 10000000000000000`},
	{"Normal(§0,1)", `mean must be above 0, got 0`},
	{"Normal(1,§-1)", `sd must be 0 or more, got -1`},
	{"LogNormal(§-1,1)", `mean must be above 0, got -1`},
	{"LogNormal(1,§-1)", `sd must be 0 or more, got -1`},
	{"LogNormal(1e-300,§1e100)", `sd 1e+100 is too large for mean 1e-300`},
	{"LOGN(4,§-2)", `logStd must be 0 or more, got -2`},
	{"Triangular(§-1,0,1)", `min must be 0 or more, got -1: values are times or counts and cannot be negative`},
	{"Triangular(1,§0,2)", `min 1 is above mode 0`},
	{"Triangular(1,3,§2)", `mode 3 is above max 2`},
	{"Triangular(5,3,§2)", `min 5 is above max 2`},
	{"TRIA(1,3,§2)", `mode 3 is above max 2`},
	{"Erlang(§2.5,1)", `k must be a whole number, 1 or more, got 2.5`},
	{"Erlang(§0,1)", `k must be a whole number, 1 or more, got 0`},
	{"Erlang(2,§0)", `mean must be above 0, got 0`},
	{"ERLA(2,§0)", `k must be a whole number, 1 or more, got 0`},
	{"ERLA(§-2,3)", `expMean must be above 0, got -2`},
	{"Gamma(§0,1)", `shape must be above 0, got 0`},
	{"Gamma(1,§0)", `scale must be above 0, got 0`},
	{"GAMM(1,§0)", `alpha must be above 0, got 0`},
	{"Weibull(§-1,1)", `shape must be above 0, got -1`},
	{"WEIB(§0,1)", `beta must be above 0, got 0`},
	{"Weibull(§0.001,1)", `the mean of Weibull(0.001,1) is too large to compute`},
	{"Gamma(§1e200,1e200)", `the mean of Gamma(1e+200,1e+200) is too large to compute`},
	{"Const(§-2)", `x must be 0 or more, got -2: values are times or counts and cannot be negative`},
}

func TestParseBad(t *testing.T) {
	for _, tt := range badTests {
		wantPos := strings.Index(tt.in, "§")
		if wantPos < 0 {
			t.Fatalf("test input %q has no § marker", tt.in)
		}
		in := strings.Replace(tt.in, "§", "", 1)
		d, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want error %q", in, d, tt.msg)
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error %v is a %T, want *SyntaxError", in, err, err)
			continue
		}
		if se.Input != in || se.Pos != wantPos || se.Msg != tt.msg {
			t.Errorf("Parse(%q) error:\n got  %q at %d\n want %q at %d", in, se.Msg, se.Pos, tt.msg, wantPos)
		}
	}
}

func TestSyntaxErrorString(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"Expo(3", `distribution "Expo(3" at column 7: missing ")"; expected "Expo(3)"`},
		{"Uniform(5,2)", `distribution "Uniform(5,2)" at column 11: min 5 is above max 2`},
		{"Expn(3)", `distribution "Expn(3)" at column 1: unknown distribution "Expn"; did you mean "Exp"?`},
		{"Exp(-1)", `distribution "Exp(-1)" at column 5: mean must be above 0, got -1`},
		// Columns count characters, not bytes.
		{"Exp( ×3)", `distribution "Exp( ×3)" at column 6: expected a number, found "×"`},
		{"Exp(3 ×)", `distribution "Exp(3 ×)" at column 7: expected "," or ")", found "×"`},
		{"Exp(3 × )", `distribution "Exp(3 × )" at column 7: expected "," or ")", found "×"`},
		{"  ", `empty distribution`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) error = %v, want %s", tt.in, err, tt.want)
		}
	}
	// Error must not panic on a Pos out of range.
	for _, pos := range []int{-1, 100} {
		_ = (&SyntaxError{Input: "Exp(3)", Pos: pos, Msg: "m"}).Error()
	}
}

func TestIsConst(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"12.5", 12.5, true},
		{"Const(3)", 3, true},
		{"0", 0, true},
		{"Exp(3)", 0, false},
		{"Uniform(2,2)", 0, false},
	} {
		v, ok := IsConst(MustParse(tt.in))
		if v != tt.want || ok != tt.ok {
			t.Errorf("IsConst(%s) = %v, %v, want %v, %v", tt.in, v, ok, tt.want, tt.ok)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse(\"Exp(\") did not panic")
		}
	}()
	MustParse("Exp(")
}

func TestParseErrorIsNilInterface(t *testing.T) {
	// A good parse returns a nil error, not a nil *SyntaxError in an
	// error interface.
	if _, err := Parse("Exp(1)"); err != nil {
		t.Fatalf("err = %#v", err)
	}
}
