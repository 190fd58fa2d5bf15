package client

import "sync"

// DefaultJournalSize is how many entries a Journal keeps by default.
const DefaultJournalSize = 10_000

// Counts holds how many prompts ended in each way.
type Counts map[OutcomeKind]int

// Total is the sum over all kinds.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Journal records how every prompt ended. It keeps the last entries in a
// bounded ring and exact counts of everything ever recorded. It is safe
// for concurrent use and may be shared by many sessions.
type Journal struct {
	mu       sync.Mutex
	ring     *Ring[JournalEntry]
	counts   Counts
	byServer map[string]Counts
}

// NewJournal returns a Journal keeping the last size entries (size <= 0
// means DefaultJournalSize).
func NewJournal(size int) *Journal {
	if size <= 0 {
		size = DefaultJournalSize
	}
	return &Journal{ring: NewRing[JournalEntry](size), counts: Counts{}, byServer: map[string]Counts{}}
}

// Record adds one entry.
func (j *Journal) Record(e JournalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring.Push(e)
	j.counts[e.Kind]++
	c := j.byServer[e.Server]
	if c == nil {
		c = Counts{}
		j.byServer[e.Server] = c
	}
	c[e.Kind]++
}

// Entries returns the kept entries, oldest first.
func (j *Journal) Entries() []JournalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.ring.Items()
}

// Counts returns a copy of the counts of everything recorded.
func (j *Journal) Counts() Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make(Counts, len(j.counts))
	for k, v := range j.counts {
		out[k] = v
	}
	return out
}

// CountsByServer returns a copy of the counts per server name.
func (j *Journal) CountsByServer() map[string]Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make(map[string]Counts, len(j.byServer))
	for s, c := range j.byServer {
		cc := make(Counts, len(c))
		for k, v := range c {
			cc[k] = v
		}
		out[s] = cc
	}
	return out
}

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

// Dropped is how many items were overwritten.
func (r *Ring[T]) Dropped() int { return r.dropped }

// Items returns a copy of the items, oldest first.
func (r *Ring[T]) Items() []T {
	out := make([]T, 0, len(r.buf))
	out = append(out, r.buf[r.start:]...)
	return append(out, r.buf[:r.start]...)
}
