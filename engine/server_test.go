package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUnitFreeTimes gives an external server a long run of jobs (place,
// its tree of free times) and checks it against a plain sorted list of the
// same free times: each job starts when the earliest unit is free, the
// root is always the earliest, the units' times are the list's, and
// busyAt counts the units not free by t.
func TestUnitFreeTimes(t *testing.T) {
	for _, capacity := range []int32{1, 2, 3, 4, 5, 7, 12, 17, 90} {
		r := rand.New(rand.NewPCG(uint64(capacity), 7))
		sv := &extServer{capacity: capacity}
		s := &sim{m: &Model{Servers: []Server{{Name: "DB"}}}, maxQueue: 1 << 30}
		var want []float64 // every used unit's free time
		now := 0.0
		for range 5000 {
			now += r.ExpFloat64() / float64(capacity)
			d := r.ExpFloat64()
			if r.IntN(10) == 0 {
				d = 0 // ties and zero-length jobs
			}
			slices.Sort(want)
			start := now
			if int32(len(want)) == capacity {
				start = max(now, want[0])
			}
			if got := sv.startAt(now); got != start {
				t.Fatalf("capacity %d: startAt(%g) = %g, want %g", capacity, now, got, start)
			}
			if int32(len(want)) < capacity && (len(want) == 0 || want[0] > now) {
				want = append(want, now+d)
			} else {
				want[0] = max(now, want[0]) + d
			}
			if got := sv.place(s, 0, now, d, true); got != start {
				t.Fatalf("capacity %d: place started a job at %g, want %g", capacity, got, start)
			}
			if got, min := sv.free.first(), slices.Min(want); got != min {
				t.Fatalf("capacity %d: root %g, earliest free time %g", capacity, got, min)
			}
			var units []float64
			for i := range sv.free.len() {
				units = append(units, sv.free.at(i))
			}
			slices.Sort(units)
			slices.Sort(want)
			if !slices.Equal(units, want) {
				t.Fatalf("capacity %d: units free at %v, want %v", capacity, units, want)
			}
			probe := now + r.Float64()
			busy := int32(0)
			for _, f := range want {
				if f > probe {
					busy++
				}
			}
			if got := sv.busyAt(probe); got != busy {
				t.Fatalf("capacity %d: busyAt(%g) = %d, want %d", capacity, probe, got, busy)
			}
		}
	}
}
