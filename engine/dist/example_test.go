package dist_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/websim/websim/engine/dist"
)

func ExampleParse() {
	for _, cell := range []string{"exp(3)", "Uniform( 1, 5 )", "ERLA(2, 3)", "GAMM(2, 3)", "12.5"} {
		d, err := dist.Parse(cell)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-16s -> %-14s mean %g\n", cell, d, d.Mean())
	}

	// Errors name the input and the column of the problem.
	for _, cell := range []string{"Expn(3)", "Expo(3", "Uniform(5,2)", "Exp(-1)", "Uniform(1)"} {
		_, err := dist.Parse(cell)
		fmt.Println(err)
	}

	// Each distribution draws from the generator it is given.
	d, _ := dist.Parse("Triangular(1, 2, 6)")
	r := rand.New(rand.NewPCG(1, 2))
	x := d.Sample(r)
	fmt.Println(x >= 1 && x <= 6)

	// Output:
	// exp(3)           -> Exp(3)         mean 3
	// Uniform( 1, 5 )  -> Uniform(1,5)   mean 3
	// ERLA(2, 3)       -> Erlang(3,6)    mean 6
	// GAMM(2, 3)       -> Gamma(3,2)     mean 6
	// 12.5             -> 12.5           mean 12.5
	// distribution "Expn(3)" at column 1: unknown distribution "Expn"; did you mean "Exp"?
	// distribution "Expo(3" at column 7: missing ")"; expected "Expo(3)"
	// distribution "Uniform(5,2)" at column 11: min 5 is above max 2
	// distribution "Exp(-1)" at column 5: mean must be above 0, got -1
	// distribution "Uniform(1)" at column 10: Uniform takes 2 arguments (min,max), got 1
	// true
}

func ExampleIsConst() {
	for _, cell := range []string{"12.5", "Exp(3)"} {
		v, ok := dist.IsConst(dist.MustParse(cell))
		fmt.Println(cell, v, ok)
	}
	// Output:
	// 12.5 12.5 true
	// Exp(3) 0 false
}
