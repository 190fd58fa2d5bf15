package ui

// ring is a bounded FIFO that drops its oldest items to make room, like
// client.Ring, but bounded by bytes as well as by count (a few huge log
// lines weigh more than thousands of small ones), and with indexed access:
// a redraw walks only the rows it shows instead of copying the whole ring
// (10,000 frames) each time. It is not safe for concurrent use;
// streamStore guards it with its mutex.
type ring[T any] struct {
	buf      []T
	start, n int // the oldest item's slot, and how many are held
	size     int // the count bound
	// bytes is what the held items weigh (by weigh), at most maxBytes,
	// except for a single item heavier than that on its own.
	bytes, maxBytes int
	weigh           func(*T) int
}

func newRing[T any](size, maxBytes int, weigh func(*T) int) *ring[T] {
	return &ring[T]{size: max(size, 1), maxBytes: maxBytes, weigh: weigh}
}

// push appends v, dropping the oldest items while the ring is full by
// count or v would take it over its bytes.
func (r *ring[T]) push(v T) {
	w := r.weigh(&v)
	for r.n > 0 && (r.n >= r.size || r.bytes+w > r.maxBytes) {
		r.drop()
	}
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.start+r.n)%len(r.buf)] = v
	r.n++
	r.bytes += w
}

// drop removes the oldest item and clears its slot, so what it held is
// garbage at once rather than when the slot is next written.
func (r *ring[T]) drop() {
	var zero T
	r.bytes -= r.weigh(&r.buf[r.start])
	r.buf[r.start] = zero
	r.start = (r.start + 1) % len(r.buf)
	r.n--
}

// grow makes room for more items, up to size, as append would.
func (r *ring[T]) grow() {
	buf := make([]T, min(max(2*len(r.buf), 16), r.size))
	for i := range r.n {
		buf[i] = *r.at(i)
	}
	r.buf, r.start = buf, 0
}

// len is how many items the ring holds.
func (r *ring[T]) len() int { return r.n }

// at returns item i, 0 being the oldest; it stays valid only until the
// next push.
func (r *ring[T]) at(i int) *T {
	return &r.buf[(r.start+i)%len(r.buf)]
}
