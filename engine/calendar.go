package engine

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
// cannot change the order; an event is 24 bytes.
type event struct {
	t   float64
	key uint64 // priority<<60 | sequence<<4 | kind
	ref int32
	gen uint32
}

func (e *event) kind() eventKind { return eventKind(e.key & 0xf) }

// calendar is the future-event list: a binary heap of events by value, so
// scheduling allocates nothing once the heap has grown.
type calendar struct {
	h   []event
	seq uint64
}

func (e *event) before(o *event) bool {
	if e.t != o.t {
		return e.t < o.t
	}
	return e.key < o.key
}

// schedule adds an event at time t with priority 0.
func (c *calendar) schedule(t float64, kind eventKind, ref int32, gen uint32) {
	c.scheduleP(t, 0, kind, ref, gen)
}

// scheduleP adds an event with a priority: at equal times, a lower priority
// fires first.
func (c *calendar) scheduleP(t float64, prio uint8, kind eventKind, ref int32, gen uint32) {
	c.seq++
	e := event{t: t, key: uint64(prio)<<60 | c.seq<<4 | uint64(kind), ref: ref, gen: gen}
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
func (c *calendar) len() int { return len(c.h) }

// pop removes and returns the earliest event.
func (c *calendar) pop() event {
	h := c.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	// Sift down with a hole: the smaller child moves up, last is written
	// once. The order is the same as swapping, at half the writes.
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].before(&h[l]) {
			m = r
		}
		if !h[m].before(&last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = last
	}
	c.h = h
	return top
}
