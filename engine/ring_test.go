package engine

import (
	"math/rand/v2"
	"testing"
)

// TestRingFIFO pushes and pops at random, so that the ring wraps round
// its buffer and grows while wrapped, and checks every pop, front and at
// against a plain slice.
func TestRingFIFO(t *testing.T) {
	tests := []struct {
		name   string
		pushes int // steps that push, of every ten (on average)
	}{
		{"mostly pops", 4},
		{"balanced", 5},
		{"growing", 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(tc.pushes)))
			var q ring[int]
			var ref []int
			next := 0
			for step := range 10_000 {
				if r.IntN(10) < tc.pushes || len(ref) == 0 {
					q.push(next)
					ref = append(ref, next)
					next++
				} else {
					if got := q.front(); got != ref[0] {
						t.Fatalf("step %d: front %d, want %d", step, got, ref[0])
					}
					if got := q.pop(); got != ref[0] {
						t.Fatalf("step %d: popped %d, want %d", step, got, ref[0])
					}
					ref = ref[1:]
				}
				if q.len() != len(ref) {
					t.Fatalf("step %d: len %d, want %d", step, q.len(), len(ref))
				}
				if n := len(q.buf); n&(n-1) != 0 {
					t.Fatalf("step %d: buffer of %d, not a power of two", step, n)
				}
				if len(ref) > 0 {
					k := r.IntN(len(ref))
					if got := q.at(k); got != ref[k] {
						t.Fatalf("step %d: at(%d) = %d, want %d", step, k, got, ref[k])
					}
				}
			}
		})
	}
}
