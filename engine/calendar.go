package engine

import (
	"math"
	"math/bits"
)

// eventKind says what an event does when it fires.
type eventKind uint8

const (
	evArrival   eventKind = iota // a request of entity ref arrives
	evRetry                      // request ref starts its next attempt
	evPatience                   // request ref's user gives up, if gen still matches
	evResume                     // token ref's wait (RAT or local processing) ends
	evJobDone                    // job ref finishes service at its server
	evTimeLimit                  // server ref's earliest pending TimeLimit is due
	evWarmUp                     // statistics start
)

// event is an entry of the future-event list. Events are ordered by time,
// then priority, then sequence, so ties are first in, first out. The kind
// rides in the low bits of key, below the unique sequence number, where it
// cannot change the order. The time is kept as the bits of its float64,
// an integer that orders the calendar's times (finite or +Inf, never
// below 0, -0 made +0) as their values do: the calendar compares and moves
// it in integer registers.
type event struct {
	at  uint64 // math.Float64bits of the time
	key uint64 // priority<<60 | sequence<<4 | kind
	ref int32
	gen uint32
}

func (e *event) kind() eventKind { return eventKind(e.key & 0xf) }

// time is when e fires.
func (e *event) time() float64 { return math.Float64frombits(e.at) }

// emptySlot is the time bits of an empty leaf or slot: +Inf, never due
// (math.Float64bits(math.Inf(1)), which the tests check).
const emptySlot = 0x7ff0_0000_0000_0000

// emptyKey is the key of an empty leaf, after every event's: an event at
// +Inf still comes before an empty leaf.
const emptyKey = math.MaxUint64

// firstLeaves is the calendar's number of leaves when it is first used.
const firstLeaves = 16

// calendar is the future-event list: a tournament tree (a winner tree)
// over a power-of-two number of leaves, each a pending event or empty.
// Every inner node holds the earliest event of its subtree (its time, key
// and leaf), so the root is the next event. Scheduling writes the event
// into an empty leaf and replays the path from it to the root, one
// comparison with the sibling at each level; removing writes the leaf
// empty and replays it too.
//
// A binary heap's sift down must compare a level's two children before it
// knows where the next level's are: each level waits for the last. Here a
// path's nodes are known from the leaf's number alone, so the loads of
// every level overlap, and each comparison is a conditional move on values
// already loaded: about half the time of the heap it replaced, though the
// path always has the tree's full height (BenchmarkCalendarHold).
//
// pop leaves the event it returns from the tree in its leaf (held) until
// the next pop or schedule: most events schedule another one, which then
// takes the leaf in one replay, where a removal and an insertion would
// take two. Keys are unique, so the order of events is the order of
// (time, key) whatever the leaf each one has: the same as any correct
// future-event list's.
//
// Each entity's next arrival waits in a slot of its own, off the tree
// (useSlots): an entity always has exactly one arrival pending, which is
// scheduled as the last one fires, so keeping it aside spares the tree a
// replay per request (of the three a request of a one-step service
// costs), and pop compares the tree's root with the earliest slot. Keys
// are assigned in the same sequence either way, so the order is the same.
type calendar struct {
	// nodes[1] is the root and nodes[n+i] is leaf i, for n leaves;
	// nodes[k]'s children are nodes[2k] and nodes[2k+1]. nodes[0] is not
	// used.
	nodes []treeNode
	// payload[i] is the ref and gen of leaf i's event.
	payload []payload
	// empty lists the empty leaves; held is 1 + the leaf of the event pop
	// returned last, while it is still in the tree, else 0.
	empty   []int32
	held    int32
	seq     uint64
	pending int // events in the tree, the held one not counted
	// slots[k] is entity k's pending arrival; its time is +Inf while
	// empty. first indexes the earliest slot, and filled counts those not
	// empty.
	slots  []event
	first  int
	filled int
}

// maxSlots bounds the entities whose arrivals wait in slots: finding the
// earliest slot again after one fires scans them all.
const maxSlots = 16

// useSlots keeps the arrivals of n entities in slots, when n is at most
// maxSlots; otherwise they go in the tree with everything else.
func (c *calendar) useSlots(n int) {
	if n > maxSlots {
		return
	}
	c.slots = make([]event, n)
	for k := range c.slots {
		c.slots[k].at = emptySlot
	}
}

func (e *event) before(o *event) bool {
	return before(e.at, e.key, o.at, o.key)
}

// treeNode is a node of the calendar's tree: the earliest event under it,
// by its time and key, and the leaf that holds it.
type treeNode struct {
	at, key uint64
	leaf    int32
	_       uint32
}

// payload is what an event carries besides its time and key.
type payload struct {
	ref int32
	gen uint32
}

// leaves is the calendar's number of leaves (0 before its first event).
func (c *calendar) leaves() int { return len(c.payload) }

// grow doubles the leaves (or makes the first ones), keeping every
// pending event in its leaf.
func (c *calendar) grow() {
	old := c.leaves()
	n := max(2*old, firstLeaves)
	nodes := make([]treeNode, 2*n)
	copy(nodes[n:], c.nodes[old:])
	for i := old; i < n; i++ {
		nodes[n+i] = treeNode{at: emptySlot, key: emptyKey, leaf: int32(i)}
	}
	for k := n - 1; k >= 1; k-- {
		a, b := &nodes[2*k], &nodes[2*k+1]
		if before(b.at, b.key, a.at, a.key) {
			a = b
		}
		nodes[k] = *a
	}
	c.nodes = nodes
	c.payload = append(c.payload, make([]payload, n-old)...)
	for i := n - 1; i >= old; i-- { // the lowest leaves first
		c.empty = append(c.empty, int32(i))
	}
}

// before says whether (at, key) comes before (oat, okey): the two as one
// 128-bit number, compared without a branch.
func before(at, key, oat, okey uint64) bool {
	_, borrow := bits.Sub64(key, okey, 0)
	_, borrow = bits.Sub64(at, oat, borrow)
	return borrow != 0
}

// set writes (at, key) into leaf and replays its path to the root: each
// node on it takes the earlier of what comes up the path and its other
// child's winner.
func (c *calendar) set(leaf int32, at, key uint64) {
	nodes := c.nodes
	k := uint(len(c.payload)) + uint(leaf)
	nodes[k] = treeNode{at: at, key: key, leaf: leaf}
	for k > 1 {
		s := &nodes[k^1]
		sat, skey, sleaf := s.at, s.key, s.leaf
		_, borrow := bits.Sub64(skey, key, 0)
		_, borrow = bits.Sub64(sat, at, borrow)
		if borrow != 0 {
			at, key, leaf = sat, skey, sleaf
		}
		k >>= 1
		nodes[k] = treeNode{at: at, key: key, leaf: leaf}
	}
}

// schedule adds an event at time t with priority 0.
func (c *calendar) schedule(t float64, kind eventKind, ref int32, gen uint32) {
	c.scheduleP(t, 0, kind, ref, gen)
}

// scheduleArrival adds entity ref's next arrival, at time t with priority
// 0: into its slot, when slots are in use. t is finite (the clock's guard,
// delayOK, refuses an arrival at +Inf), so a filled slot never looks
// empty.
func (c *calendar) scheduleArrival(t float64, ref int32) {
	if int(ref) >= len(c.slots) || c.slots[ref].at != emptySlot {
		c.scheduleP(t, 0, evArrival, ref, 0)
		return
	}
	c.seq++
	t += 0 // -0 to +0, which its bits order as the least time
	e := event{at: math.Float64bits(t), key: c.seq<<4 | uint64(evArrival), ref: ref}
	c.slots[ref] = e
	c.filled++
	if e.before(&c.slots[c.first]) {
		c.first = int(ref)
	}
}

// scheduleP adds an event with a priority: at equal times, a lower priority
// fires first.
func (c *calendar) scheduleP(t float64, prio uint8, kind eventKind, ref int32, gen uint32) {
	c.seq++
	t += 0 // -0 to +0, which its bits order as the least time
	leaf := c.held - 1
	if leaf >= 0 {
		c.held = 0
	} else {
		if len(c.empty) == 0 {
			c.grow()
		}
		leaf = c.empty[len(c.empty)-1]
		c.empty = c.empty[:len(c.empty)-1]
	}
	c.payload[leaf] = payload{ref: ref, gen: gen}
	c.set(leaf, math.Float64bits(t), uint64(prio)<<60|c.seq<<4|uint64(kind))
	c.pending++
}

// len is the number of pending events.
func (c *calendar) len() int { return c.pending + c.filled }

// pop removes and returns the earliest event. The calendar must not be
// empty.
func (c *calendar) pop() event {
	if leaf := c.held - 1; leaf >= 0 {
		c.held = 0
		c.set(leaf, emptySlot, emptyKey)
		c.empty = append(c.empty, leaf)
	}
	if c.filled > 0 {
		// An empty tree's root (or none yet) comes after every slot.
		if sl := &c.slots[c.first]; c.pending == 0 || before(sl.at, sl.key, c.nodes[1].at, c.nodes[1].key) {
			e := *sl
			sl.at = emptySlot
			if c.filled--; c.filled > 0 { // else every slot is empty
				for k := range c.slots {
					if c.slots[k].before(&c.slots[c.first]) {
						c.first = k
					}
				}
			}
			return e
		}
	}
	root := c.nodes[1]
	c.held = root.leaf + 1
	c.pending--
	p := c.payload[root.leaf]
	return event{at: root.at, key: root.key, ref: p.ref, gen: p.gen}
}
