package engine

// ring is a growable FIFO queue, used for unit queues, server queues and
// the pool of active units; it allocates only when it grows. Its buffer's
// length is always a power of two (0, then 8, doubling), so an index wraps
// with a mask: a hardware division there took tens of cycles on every
// push and pop.
type ring[T any] struct {
	buf        []T
	head, size int
}

func (r *ring[T]) len() int { return r.size }

func (r *ring[T]) push(v T) {
	if r.size == len(r.buf) {
		n := max(8, 2*len(r.buf))
		buf := make([]T, n)
		for i := 0; i < r.size; i++ {
			buf[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
		}
		r.buf, r.head = buf, 0
	}
	r.buf[(r.head+r.size)&(len(r.buf)-1)] = v
	r.size++
}

func (r *ring[T]) front() T { return r.buf[r.head] }

func (r *ring[T]) pop() T {
	v := r.buf[r.head]
	var zero T
	r.buf[r.head] = zero
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.size--
	return v
}

// at returns the k-th element from the front.
func (r *ring[T]) at(k int) T { return r.buf[(r.head+k)&(len(r.buf)-1)] }
