package question

// Ring is a bounded FIFO that overwrites its oldest item when full and
// counts what it dropped. It grows as needed up to its size. It is not
// safe for concurrent use on its own.
type Ring[T any] struct {
	buf     []T
	size    int
	start   int
	dropped int
}

// NewRing returns a ring holding up to size items (at least 1).
func NewRing[T any](size int) *Ring[T] {
	return &Ring[T]{size: max(size, 1)}
}

// Push appends v, dropping the oldest item if the ring is full.
func (r *Ring[T]) Push(v T) {
	if len(r.buf) < r.size {
		r.buf = append(r.buf, v)
		return
	}
	r.buf[r.start] = v
	r.start = (r.start + 1) % r.size
	r.dropped++
}

// Len is how many items the ring holds.
func (r *Ring[T]) Len() int { return len(r.buf) }

// Dropped is how many items were overwritten (read by tests and
// diagnostics).
func (r *Ring[T]) Dropped() int { return r.dropped }

// Items returns a copy of the items, oldest first.
func (r *Ring[T]) Items() []T {
	out := make([]T, 0, len(r.buf))
	out = append(out, r.buf[r.start:]...)
	return append(out, r.buf[:r.start]...)
}
