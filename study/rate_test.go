package study

import (
	"math"
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/engine/dist"
)

func TestArrivalRate(t *testing.T) {
	// Two entities: Exp(20) and Uniform(2,8) (mean 5) at L1 give
	// 1/20 + 1/5 = 0.25 per time unit; at L2 the second does not arrive.
	m := &engine.Model{Loads: []string{"L1", "L2"}, Entities: []engine.Entity{
		{Name: "A", InterArrival: []engine.Dist{dist.MustParse("Exp(20)"), dist.MustParse("Exp(10)")}},
		{Name: "B", InterArrival: []engine.Dist{dist.MustParse("Uniform(2,8)"), nil}},
	}}
	for li, want := range []float64{0.25, 0.1} {
		if got := arrivalRate(m, li); math.Abs(got-want) > 1e-12 {
			t.Errorf("load %s: rate %v, want %v", m.Loads[li], got, want)
		}
	}
}
