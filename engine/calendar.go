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
// cannot change the order; an event is 24 bytes. The time is kept as the
// bits of its float64, an integer that orders the calendar's times
// (finite or +Inf, never below 0, -0 made +0) as their values do: the
// heap compares and moves it in integer registers.
type event struct {
	at  uint64 // math.Float64bits of the time
	key uint64 // priority<<60 | sequence<<4 | kind
	ref int32
	gen uint32
}

func (e *event) kind() eventKind { return eventKind(e.key & 0xf) }

// time is when e fires.
func (e *event) time() float64 { return math.Float64frombits(e.at) }

// emptySlot is the time bits of an empty slot: +Inf, never due
// (math.Float64bits(math.Inf(1)), which the tests check).
const emptySlot = 0x7ff0_0000_0000_0000

// calendar is the future-event list: a binary heap of events by value, so
// scheduling allocates nothing once the heap has grown.
//
// pop leaves the event it returns at the root (held) until the next pop or
// schedule: most events schedule another one, which then takes the root's
// place in one sift down instead of a removal and an insertion. Keys are
// unique, so events come out in the same order as with a plain heap.
//
// Each entity's next arrival waits in a slot of its own, off the heap
// (useSlots): an entity always has exactly one arrival pending, which is
// scheduled as the last one fires, so keeping it aside saves a sift per
// request, and pop compares the heap's root with the earliest slot. Keys
// are assigned in the same sequence either way, so the order is the same.
type calendar struct {
	h    []event
	seq  uint64
	held bool // h[0] was popped and is no longer pending
	// slots[k] is entity k's pending arrival; its t is +Inf while empty.
	// first indexes the earliest slot, and filled counts those not empty.
	slots  []event
	first  int
	filled int
}

// maxSlots bounds the entities whose arrivals wait in slots: finding the
// earliest slot again after one fires scans them all.
const maxSlots = 16

// useSlots keeps the arrivals of n entities in slots, when n is at most
// maxSlots; otherwise they go on the heap with everything else.
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
	return earlier(e, o) == 1
}

// earlier is 1 when e comes before o, else 0, without a branch: (time,
// key) is compared as one 128-bit number. The heap's sift picks the
// earlier child with it by arithmetic, where a branch would be
// mispredicted half the time.
func earlier(e, o *event) uint64 {
	_, borrow := bits.Sub64(e.key, o.key, 0)
	_, borrow = bits.Sub64(e.at, o.at, borrow)
	return borrow
}

// schedule adds an event at time t with priority 0.
func (c *calendar) schedule(t float64, kind eventKind, ref int32, gen uint32) {
	c.scheduleP(t, 0, kind, ref, gen)
}

// scheduleArrival adds entity ref's next arrival, at time t with priority
// 0: into its slot, when slots are in use.
func (c *calendar) scheduleArrival(t float64, ref int32) {
	c.seq++
	t += 0 // -0 to +0, which its bits order as the least time
	e := event{at: math.Float64bits(t), key: c.seq<<4 | uint64(evArrival), ref: ref}
	if int(ref) < len(c.slots) && c.slots[ref].at == emptySlot {
		c.slots[ref] = e
		c.filled++
		if e.before(&c.slots[c.first]) {
			c.first = int(ref)
		}
		return
	}
	c.push(e)
}

// scheduleP adds an event with a priority: at equal times, a lower priority
// fires first. Arrivals go through scheduleArrival.
func (c *calendar) scheduleP(t float64, prio uint8, kind eventKind, ref int32, gen uint32) {
	c.seq++
	t += 0 // -0 to +0, which its bits order as the least time
	c.push(event{at: math.Float64bits(t), key: uint64(prio)<<60 | c.seq<<4 | uint64(kind), ref: ref, gen: gen})
}

// push puts e on the heap: in the held root's place when there is one.
func (c *calendar) push(e event) {
	if c.held {
		c.held = false
		c.down(e)
		return
	}
	h := append(c.h, e)
	// Sift up with a hole: parents move down, e is written once.
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !e.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
	c.h = h
}

// len is the number of pending events.
func (c *calendar) len() int {
	if c.held {
		return len(c.h) - 1 + c.filled
	}
	return len(c.h) + c.filled
}

// pop removes and returns the earliest event. The calendar must not be
// empty.
func (c *calendar) pop() event {
	if c.held {
		n := len(c.h) - 1
		last := c.h[n]
		c.h = c.h[:n]
		c.down(last)
		c.held = false
	}
	if c.filled > 0 {
		if sl := &c.slots[c.first]; len(c.h) == 0 || sl.before(&c.h[0]) {
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
	c.held = true
	return c.h[0]
}

// down puts e at the root in place of the root and sifts it down, with a
// hole: the earlier child moves up, e is written once. e's time and key
// stay in registers as the integers earlier compares, and indexes are
// unsigned, which spares the loop some of its bounds checks (those on the
// chosen child and the hole remain).
func (c *calendar) down(e event) {
	h := c.h
	n := uint(len(h))
	if n == 0 {
		return
	}
	et, ek := e.at, e.key
	i := uint(0)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n {
			m += uint(earlier(&h[r], &h[l]))
		}
		child := h[m] // once, into registers: compared, then moved up
		// child before e: (time, key) as one 128-bit number, as earlier.
		_, borrow := bits.Sub64(child.key, ek, 0)
		_, borrow = bits.Sub64(child.at, et, borrow)
		if borrow == 0 {
			break
		}
		h[i] = child
		i = m
	}
	h[i] = e
}
