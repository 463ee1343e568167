package fit_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/websim/websim/engine/dist"
	"github.com/websim/websim/fit"
)

func ExampleDistributions() {
	// 5,000 service times drawn from the cell Gamma(2.5,4).
	d := dist.MustParse("Gamma(2.5,4)")
	r := rand.New(rand.NewPCG(1, 2))
	times := make([]float64, 5000)
	for i := range times {
		times[i] = d.Sample(r)
	}
	res, err := fit.Distributions(times, fit.Options{Seed: 1, Replicates: 19})
	if err != nil {
		panic(err)
	}
	for _, f := range res.Fits[:3] {
		fmt.Printf("%-18s ΔAIC %6.1f\n", f.Cell, f.AIC-res.Fits[0].AIC)
	}
	// Output:
	// Gamma(2.54,3.93)   ΔAIC    0.0
	// Erlang(3,9.99)     ΔAIC   79.2
	// Weibull(1.67,11.2) ΔAIC  135.6
}
