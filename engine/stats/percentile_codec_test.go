package stats

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Percentiles survive encoding: the same quantiles and intervals, alone
// and merged.
func TestPercentilesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var a, b Percentiles
	for range 50_000 {
		a.Add(r.ExpFloat64())
		b.Add(2 * r.ExpFloat64())
	}
	for _, p := range []*Percentiles{&a, &b} {
		data, err := p.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var q Percentiles
		if err := q.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		for _, x := range []float64{0.5, 0.95, 0.99} {
			if got, want := fmt.Sprint(q.Interval(x, 0.95)), fmt.Sprint(p.Interval(x, 0.95)); got != want {
				t.Errorf("q%.2f: %s after decoding, %s before", x, got, want)
			}
		}
		var pooled, pooledQ Percentiles
		pooled.Merge(&a)
		pooled.Merge(p)
		pooledQ.Merge(&a)
		pooledQ.Merge(&q)
		if got, want := pooledQ.Interval(0.95, 0.95), pooled.Interval(0.95, 0.95); got != want || !(want.HalfWidth > 0) {
			t.Errorf("merged: %+v after decoding, %+v before", got, want)
		}
		if err := q.UnmarshalBinary(data[:len(data)/2]); err == nil {
			t.Error("half the bytes decoded without an error")
		}
	}
}
