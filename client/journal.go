package client

import "sync"

// DefaultJournalSize is how many entries a Journal keeps by default.
const DefaultJournalSize = 10_000

// Counts holds how many prompts ended in each way.
type Counts map[question.OutcomeKind]int

// Total is the sum over all kinds.
func (c question.Counts) Total() int {
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
	ring     *question.Ring[question.JournalEntry]
	counts   question.Counts
	byServer map[string]question.Counts
}

// NewJournal returns a Journal keeping the last size entries (size <= 0
// means DefaultJournalSize).
func NewJournal(size int) *question.Journal {
	if size <= 0 {
		size = question.DefaultJournalSize
	}
	return &question.Journal{ring: question.NewRing[question.JournalEntry](size), counts: question.Counts{}, byServer: map[string]question.Counts{}}
}

// Record adds one entry.
func (j *question.Journal) Record(e question.JournalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring.Push(e)
	j.counts[e.Kind]++
	c := j.byServer[e.Server]
	if c == nil {
		c = question.Counts{}
		j.byServer[e.Server] = c
	}
	c[e.Kind]++
}

// Entries returns the kept entries, oldest first.
func (j *question.Journal) Entries() []question.JournalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.ring.Items()
}

// Counts returns a copy of the counts of everything recorded.
func (j *question.Journal) Counts() question.Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make(question.Counts, len(j.counts))
	for k, v := range j.counts {
		out[k] = v
	}
	return out
}

// CountsByServer returns a copy of the counts per server name.
func (j *question.Journal) CountsByServer() map[string]question.Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make(map[string]question.Counts, len(j.byServer))
	for s, c := range j.byServer {
		cc := make(question.Counts, len(c))
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
func NewRing[T any](size int) *question.Ring[T] {
	return &question.Ring[T]{size: max(size, 1)}
}

// Push appends v, dropping the oldest item if the ring is full.
func (r *question.Ring[T]) Push(v T) {
	if len(r.buf) < r.size {
		r.buf = append(r.buf, v)
		return
	}
	r.buf[r.start] = v
	r.start = (r.start + 1) % r.size
	r.dropped++
}

// Len is how many items the ring holds.
func (r *question.Ring[T]) Len() int { return len(r.buf) }

// Dropped is how many items were overwritten.
func (r *question.Ring[T]) Dropped() int { return r.dropped }

// Items returns a copy of the items, oldest first.
func (r *question.Ring[T]) Items() []T {
	out := make([]T, 0, len(r.buf))
	out = append(out, r.buf[r.start:]...)
	return append(out, r.buf[:r.start]...)
}
