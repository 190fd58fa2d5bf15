package question

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
