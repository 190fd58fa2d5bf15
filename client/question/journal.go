package question

import (
	"maps"
	"sync"
)

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
	mu   sync.Mutex
	ring *Ring[JournalEntry]
	// Elicitation and sampling are counted apart: a sampling decline is
	// not an elicitation decline.
	counts, sampling     Counts
	byServer, sampServer map[string]Counts
	// ACP permissions are counted by bucket (PermissionBucket): the
	// option kind chosen, or how they ended without one; in all and per
	// agent.
	permission map[string]int
	permServer map[string]map[string]int
	// ACP elicitations are also counted by bucket (ElicitationBucket),
	// so that a turn's cancellation is not folded into a person's cancel.
	agentElicit map[string]int
}

// NewJournal returns a Journal keeping the last size entries (size <= 0
// means DefaultJournalSize).
func NewJournal(size int) *Journal {
	if size <= 0 {
		size = DefaultJournalSize
	}
	return &Journal{ring: NewRing[JournalEntry](size), counts: Counts{}, sampling: Counts{},
		byServer: map[string]Counts{}, sampServer: map[string]Counts{}, permission: map[string]int{},
		permServer: map[string]map[string]int{}, agentElicit: map[string]int{}}
}

// Record adds one entry.
func (j *Journal) Record(e JournalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring.Push(e)
	if e.Asked == KindPermission {
		j.permission[e.Bucket]++
		c := j.permServer[e.Server]
		if c == nil {
			c = map[string]int{}
			j.permServer[e.Server] = c
		}
		c[e.Bucket]++
		return
	}
	if e.Key.Delivery == AgentRequest && e.Bucket != "" {
		j.agentElicit[e.Bucket]++
	}
	counts, byServer := j.counts, j.byServer
	if e.Asked == KindSampling {
		counts, byServer = j.sampling, j.sampServer
	}
	counts[e.Kind]++
	c := byServer[e.Server]
	if c == nil {
		c = Counts{}
		byServer[e.Server] = c
	}
	c[e.Kind]++
}

// Entries returns the kept entries, oldest first.
func (j *Journal) Entries() []JournalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.ring.Items()
}

// Counts returns a copy of the counts of every elicitation recorded.
func (j *Journal) Counts() Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	return maps.Clone(j.counts)
}

// SamplingCounts returns a copy of the counts of every sampling question
// recorded: their own buckets, apart from elicitation's.
func (j *Journal) SamplingCounts() Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	return maps.Clone(j.sampling)
}

// PermissionCounts returns a copy of the counts of every ACP permission
// question recorded, by bucket (see PermissionBucket).
func (j *Journal) PermissionCounts() map[string]int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return maps.Clone(j.permission)
}

// PermissionCountsByServer returns a copy of the ACP permission counts
// per agent name, by bucket.
func (j *Journal) PermissionCountsByServer() map[string]map[string]int {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make(map[string]map[string]int, len(j.permServer))
	for s, c := range j.permServer {
		out[s] = maps.Clone(c)
	}
	return out
}

// AgentElicitationCounts returns a copy of the counts of every ACP
// elicitation recorded, by bucket (see ElicitationBucket). They are also
// in Counts, by outcome kind.
func (j *Journal) AgentElicitationCounts() map[string]int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return maps.Clone(j.agentElicit)
}

// CountsByServer returns a copy of the elicitation counts per server name.
func (j *Journal) CountsByServer() map[string]Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	return cloneByServer(j.byServer)
}

// SamplingCountsByServer returns a copy of the sampling counts per server
// name.
func (j *Journal) SamplingCountsByServer() map[string]Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	return cloneByServer(j.sampServer)
}

func cloneByServer(m map[string]Counts) map[string]Counts {
	out := make(map[string]Counts, len(m))
	for s, c := range m {
		out[s] = maps.Clone(c)
	}
	return out
}
