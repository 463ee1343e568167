package rules

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/websim/websim/engine"
)

var fuzzSeeds = []string{
	`AppUtil < SwitchUtil ? "parallel" : "sequential"`,
	`=IF(AND(Cards > 2, NOT(Size = 1)), "Parallel", "sequential")`,
	`Cards <> 3 and util("GWay") < 0.5 or queue(App) >= busy("DSS")`,
	`"a=b<>c" + 'd"e' == "x"`,
	`Load in ["L1", "L5"] ? 1 : 2`,
	`max(Cards, 1, -Size) % 0`,
	`1 / (AppUtil - 0.4)`,
	`2 ** 1000 ** 1000`,
	`[1, 2, 3][Attempt]`,
	`{"a": 1}.a + Now`,
	`Load[0:1] == "L"`,
	`upper(lower(trim(Load)))`,
	`int("x")`,
	`len([1, Cards, "a"])`,
	`= = 3`,
	`let x = 1; x`,
	`map(1..3, # * 2)`,
	`1..1000000`,
	`TRUE = FALSE <> true`,
	`if Cards > 1 { 2 } else { 3 }`,
	`§`,
	"\t=\n Cards\u00a0+ 1",
	`$env.AppUtil`,
	`now().Year()`,
	`nil ?? 3`,
	`Cards?.x`,
	`-(-Attempt)`,
	`9223372036854775807 + 1`,
	`0.1e400`,
	`exp(Cards) + log(Size) - sqrt(Copy) * pow(Elapsed, 2)`,
	`TimedOut ? log(AppUtil) : exp(1000)`,
	`IF(AppUtil <> SwitchUtil, "parallel", "sequential"`,
	`pow(-Cards, 0.5) > 1`,
}

func FuzzCompile(f *testing.F) {
	for _, s := range fuzzSeeds {
		for k := Number; k <= Mode; k++ {
			f.Add(s, uint8(k))
		}
	}
	f.Fuzz(func(t *testing.T, src string, k uint8) {
		kind := Kind(k % uint8(Mode+1))
		e, err := Compile(src, kind, testNames)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Compile(%q): %v is not an *Error", src, err)
			}
			if n := utf8.RuneCountInString(src); ce.Pos < 0 || ce.Pos > n {
				t.Fatalf("Compile(%q): Pos %d outside 0..%d", src, ce.Pos, n)
			}
			if strings.HasPrefix(ce.Msg, "internal error") {
				t.Fatalf("Compile(%q): %v", src, err)
			}
			_ = ce.Error()
			_ = ce.Caret()
			return
		}
		for _, c := range []*engine.EvalContext{testContext(), {}} {
			got, err := eval(e, c)
			vmGot, vmErr := eval(onVM(e), c)
			if err != nil || vmErr != nil {
				continue // the direct evaluator also reports faults such as a division by zero
			}
			if f, ok := got.(float64); ok {
				g := vmGot.(float64)
				if f != g && math.Abs(f-g) > 1e-9*math.Max(math.Abs(f), math.Abs(g)) {
					t.Fatalf("%q: direct %v, virtual machine %v", src, f, g)
				}
			} else if got != vmGot {
				t.Fatalf("%q: direct %v, virtual machine %v", src, got, vmGot)
			}
		}
	})
}
