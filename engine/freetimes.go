package engine

import "math"

// freeTimes holds, for each unit of an external server used so far, the
// time it is free of the work given to it: a tournament tree (a winner
// tree) as the calendar's, whose root is the unit free first. A job takes
// that unit (or one never used, while every used one is busy), so placing
// a job writes the root's leaf and replays its path, where a binary heap
// would sift the new time down through levels that each wait for the last
// (BenchmarkBackgroundLoad).
//
// Units are used in order: leaves 0 to used-1 are the used units, and the
// leaves past them hold +Inf. The tree doubles when a unit is used past
// its leaves, so its size follows the peak of busy units, not Capacity.
// Times are compared as the integers of their bits, which order
// non-negative floats as their values do (every time here is finite and
// at least 0; t+0 turns a -0, whose bits come after +Inf's, into +0).
type freeTimes struct {
	// nodes[1] is the root and nodes[n+i] is unit i, for n leaves.
	nodes []freeNode
	used  int32
}

// freeNode is a node of the tree: the earliest free time under it, as its
// bits, and the unit that has it.
type freeNode struct {
	at   uint64
	unit int32
	_    uint32
}

// inf is the bits of +Inf: a leaf with no unit yet.
const inf = emptySlot

// len is the number of units used so far.
func (f *freeTimes) len() int32 { return f.used }

// first is the earliest time a used unit is free. There must be one.
func (f *freeTimes) first() float64 { return math.Float64frombits(f.nodes[1].at) }

// at is the free time of unit i (i < len()).
func (f *freeTimes) at(i int32) float64 {
	return math.Float64frombits(f.nodes[len(f.nodes)/2+int(i)].at)
}

// freeBy counts the used units free by t, a finite time. It visits only
// the subtrees whose earliest time is at most t, so its cost follows the
// free units, not the used ones (an expression may ask on every step).
func (f *freeTimes) freeBy(t float64) int32 {
	if f.used == 0 {
		return 0
	}
	return f.countFrom(1, math.Float64bits(t+0))
}

func (f *freeTimes) countFrom(k int, t uint64) int32 {
	if f.nodes[k].at > t {
		return 0
	}
	if k >= len(f.nodes)/2 {
		return 1 // a leaf free by t: a used unit (unused ones hold +Inf)
	}
	return f.countFrom(2*k, t) + f.countFrom(2*k+1, t)
}

// replaceFirst gives the unit free first the free time t.
func (f *freeTimes) replaceFirst(t float64) {
	f.set(f.nodes[1].unit, math.Float64bits(t+0))
}

// add uses one more unit, free at t.
func (f *freeTimes) add(t float64) {
	if n := int32(len(f.nodes) / 2); f.used == n {
		f.grow()
	}
	f.used++
	f.set(f.used-1, math.Float64bits(t+0))
}

// grow doubles the leaves (or makes the first), keeping every unit's time.
func (f *freeTimes) grow() {
	old := len(f.nodes) / 2
	n := max(2*old, 1)
	nodes := make([]freeNode, 2*n)
	copy(nodes[n:], f.nodes[old:])
	for i := old; i < n; i++ {
		nodes[n+i] = freeNode{at: inf, unit: int32(i)}
	}
	for k := n - 1; k >= 1; k-- {
		a, b := &nodes[2*k], &nodes[2*k+1]
		if b.at < a.at {
			a = b
		}
		nodes[k] = *a
	}
	f.nodes = nodes
}

// set writes unit i's free time and replays its path to the root.
func (f *freeTimes) set(i int32, at uint64) {
	nodes := f.nodes
	k := uint(len(nodes)/2) + uint(i)
	nodes[k] = freeNode{at: at, unit: i}
	for k > 1 {
		s := &nodes[k^1]
		if sat, su := s.at, s.unit; sat < at {
			at, i = sat, su
		}
		k >>= 1
		nodes[k] = freeNode{at: at, unit: i}
	}
}
