package ui

// ring is a bounded FIFO that overwrites its oldest item when full, like
// client.Ring, but with indexed access: a redraw walks only the rows it
// shows instead of copying the whole ring (10,000 frames) each time. It
// is not safe for concurrent use; streamStore guards it with its mutex.
type ring[T any] struct {
	buf   []T
	size  int
	start int // index of the oldest item once full
}

func newRing[T any](size int) *ring[T] {
	return &ring[T]{size: max(size, 1)}
}

// push appends v, overwriting the oldest item if the ring is full.
func (r *ring[T]) push(v T) {
	if len(r.buf) < r.size {
		r.buf = append(r.buf, v)
		return
	}
	r.buf[r.start] = v
	r.start = (r.start + 1) % r.size
}

// len is how many items the ring holds.
func (r *ring[T]) len() int { return len(r.buf) }

// at returns item i, 0 being the oldest; it stays valid only until the
// next push.
func (r *ring[T]) at(i int) *T {
	return &r.buf[(r.start+i)%len(r.buf)]
}
