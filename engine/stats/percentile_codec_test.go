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

// Decoding keeps what only shows later: a series decoded before, at or
// after the window is placed goes on exactly as the original does (the
// window's place and whether it covers the median included), and a pool's
// merged intervals of all four percentiles survive. A series never pinned
// carries no window (its bytes are the smaller).
func TestPercentilesRoundTripGoesOn(t *testing.T) {
	for _, at := range []int{0, 100, pinAfter - 1, pinAfter, 5000, 70_000} {
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(at)))
			var p Percentiles
			for range at {
				p.Add(r.ExpFloat64())
			}
			q := roundTrip(t, &p)
			if q.wide != p.wide || q.pinned != p.pinned || (q.cells == nil) != (p.cells == nil) {
				t.Fatalf("decoded wide %v pinned %v window %v, want %v %v %v", q.wide, q.pinned, q.cells != nil, p.wide, p.pinned, p.cells != nil)
			}
			for range 100_000 {
				x := 3 * r.ExpFloat64() // the series changes scale: the window moves
				p.Add(x)
				q.Add(x)
			}
			for _, x := range []float64{0.5, 0.9, 0.95, 0.99} {
				if got, want := fmt.Sprint(q.Interval(x, 0.95)), fmt.Sprint(p.Interval(x, 0.95)); got != want {
					t.Errorf("q%.2f: %s decoded and gone on, %s", x, got, want)
				}
			}
		})
	}
	var small, placed Percentiles
	small.Add(1)
	for i := range pinAfter {
		placed.Add(float64(i))
	}
	a, _ := small.MarshalBinary()
	b, _ := placed.MarshalBinary()
	if len(b)-len(a) < MaxBatches*windowCells*4 {
		t.Errorf("%d bytes unpinned, %d pinned: the unpinned one carries a window", len(a), len(b))
	}

	r := rand.New(rand.NewPCG(5, 6))
	var pool Percentiles
	for range 3 {
		var part Percentiles
		for range 100_000 { // each part, and so the pool, has a p99 interval
			part.Add(r.ExpFloat64())
		}
		pool.Merge(&part)
	}
	q := roundTrip(t, &pool)
	for _, x := range MergedProbs {
		got, want := q.Interval(x, 0.95), pool.Interval(x, 0.95)
		if fmt.Sprint(got) != fmt.Sprint(want) || !(want.HalfWidth > 0) {
			t.Errorf("pool q%.2f: %+v decoded, %+v", x, got, want)
		}
	}
}

// roundTrip encodes p and decodes it into a new Percentiles.
func roundTrip(t *testing.T, p *Percentiles) *Percentiles {
	t.Helper()
	data, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var q Percentiles
	if err := q.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	return &q
}
