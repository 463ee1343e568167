package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCalendarOrder interleaves schedules and pops as the event loop does
// (a pop, then zero to two schedules), then drains it and checks every pop against a
// sorted reference: by time, then priority, then first in, first out.
// Times are drawn from a few values so that ties are common. A third of
// the events are arrivals of one of four entities, kept in slots off the
// tree (or in it, when the entity's slot is taken), through
// scheduleArrival. The tree grows past its first leaves in every case
// but the near-empty one, and from the start in the deep one.
func TestCalendarOrder(t *testing.T) {
	tests := []struct {
		name  string
		times int // distinct times drawn
		steps int
		start int // events scheduled before the first pop
	}{
		{"many ties", 3, 20_000, 5},
		{"few ties", 1_000, 20_000, 5},
		{"near empty", 2, 200, 5},
		{"deep", 1_000, 20_000, 1_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(tc.times)))
			var c calendar
			c.useSlots(4)
			var ref []event // pending, in no order
			seq := uint64(0)
			add := func(now float64) {
				at := now + float64(r.IntN(tc.times))
				prio := uint8(r.IntN(2))
				kind, who := evResume, int32(seq+1)
				if r.IntN(3) == 0 {
					kind, who = evArrival, int32(r.IntN(4))
				}
				seq++
				gen := uint32(seq)
				if kind == evArrival {
					prio, gen = 0, 0
					c.scheduleArrival(at, who)
				} else {
					c.scheduleP(at, prio, kind, who, gen)
				}
				ref = append(ref, event{at: math.Float64bits(at), key: uint64(prio)<<60 | seq<<4 | uint64(kind), ref: who, gen: gen})
			}
			for range tc.start {
				add(0)
			}
			now := 0.0
			for step := 0; c.len() > 0 || len(ref) > 0; step++ {
				if c.len() != len(ref) {
					t.Fatalf("step %d: len %d, want %d", step, c.len(), len(ref))
				}
				got := c.pop()
				i := 0
				for k := range ref {
					if refLess(ref[k], ref[i]) {
						i = k
					}
				}
				want := ref[i]
				ref[i] = ref[len(ref)-1]
				ref = ref[:len(ref)-1]
				if got != want {
					t.Fatalf("step %d: popped %+v, want %+v", step, got, want)
				}
				if got.time() < now {
					t.Fatalf("step %d: time went back from %g to %g", step, now, got.time())
				}
				now = got.time()
				if step < tc.steps { // then it drains
					for range r.IntN(3) {
						add(now)
					}
					if c.len() == 0 {
						add(now)
					}
				}
			}
			if seq < uint64(tc.steps) {
				t.Fatalf("only %d events scheduled in %d steps", seq, tc.steps)
			}
			if tc.name != "near empty" && c.leaves() <= firstLeaves {
				t.Fatalf("the tree kept its first %d leaves: not a test of its growth", c.leaves())
			}
		})
	}
}

// refLess is the calendar's order, written out apart from event.before:
// time, then priority, then sequence.
func refLess(a, b event) bool {
	if a.time() != b.time() {
		return a.time() < b.time()
	}
	if pa, pb := a.key>>60, b.key>>60; pa != pb {
		return pa < pb
	}
	return a.key&(1<<60-1)>>4 < b.key&(1<<60-1)>>4
}

func TestEmptySlotIsInf(t *testing.T) {
	if got := math.Float64frombits(emptySlot); !math.IsInf(got, 1) {
		t.Fatalf("emptySlot is %g, want +Inf", got)
	}
}

// BenchmarkCalendarHold times the calendar in the hold model: with n
// events pending, each operation pops the earliest and schedules one at a
// random time after it (ns/op, the draw included).
func BenchmarkCalendarHold(b *testing.B) {
	for _, n := range []int{20, 100, 200} {
		b.Run(fmt.Sprintf("pending=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			var c calendar
			for i := range n {
				c.schedule(r.ExpFloat64(), evResume, int32(i), 0)
			}
			for b.Loop() {
				e := c.pop()
				c.schedule(e.time()+r.ExpFloat64()*float64(n), evResume, e.ref, 0)
			}
		})
	}
}
