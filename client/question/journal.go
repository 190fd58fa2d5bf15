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
	// Each kind is counted apart, by outcome (a sampling decline is not
	// an elicitation decline), in all and per server; a kind whose
	// descriptor says byBucket (ACP permissions: the option kind chosen,
	// or how they ended without one) by bucket instead.
	counts   map[Kind]Counts
	byServer map[Kind]map[string]Counts
	// buckets holds the ACP buckets (PermissionBucket,
	// ElicitationBucket), so that a turn's cancellation is not folded
	// into a person's cancel; in all and per agent.
	buckets         map[Kind]map[string]int
	bucketsByServer map[Kind]map[string]map[string]int
}

// NewJournal returns a Journal keeping the last size entries (size <= 0
// means DefaultJournalSize).
func NewJournal(size int) *Journal {
	if size <= 0 {
		size = DefaultJournalSize
	}
	return &Journal{ring: NewRing[JournalEntry](size), counts: map[Kind]Counts{},
		byServer: map[Kind]map[string]Counts{}, buckets: map[Kind]map[string]int{},
		bucketsByServer: map[Kind]map[string]map[string]int{}}
}

// Record adds one entry.
func (j *Journal) Record(e JournalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring.Push(e)
	k := e.Asked
	if e.Bucket != "" || k.spec().byBucket {
		inner(j.buckets, k, func() map[string]int { return map[string]int{} })[e.Bucket]++
		perAgent := inner(j.bucketsByServer, k, func() map[string]map[string]int { return map[string]map[string]int{} })
		inner(perAgent, e.Server, func() map[string]int { return map[string]int{} })[e.Bucket]++
	}
	if k.spec().byBucket {
		return
	}
	inner(j.counts, k, func() Counts { return Counts{} })[e.Kind]++
	perServer := inner(j.byServer, k, func() map[string]Counts { return map[string]Counts{} })
	inner(perServer, e.Server, func() Counts { return Counts{} })[e.Kind]++
}

// inner returns m[k], made first if absent.
func inner[K comparable, V any](m map[K]V, k K, make func() V) V {
	v, ok := m[k]
	if !ok {
		v = make()
		m[k] = v
	}
	return v
}

// CountsOf returns a copy of the counts of every question of kind k
// recorded, by outcome (none for a kind counted by bucket).
func (j *Journal) CountsOf(k Kind) Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	c := maps.Clone(j.counts[k])
	if c == nil {
		c = Counts{}
	}
	return c
}

// CountsOfByServer returns a copy of the counts of kind k per server
// name.
func (j *Journal) CountsOfByServer(k Kind) map[string]Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	return cloneByServer(j.byServer[k])
}

// BucketsOf returns a copy of the counts of every ACP question of kind k
// recorded, by bucket (PermissionBucket, ElicitationBucket).
func (j *Journal) BucketsOf(k Kind) map[string]int {
	j.mu.Lock()
	defer j.mu.Unlock()
	b := maps.Clone(j.buckets[k])
	if b == nil {
		b = map[string]int{}
	}
	return b
}

// BucketsOfByServer returns a copy of the bucket counts of kind k per
// agent name.
func (j *Journal) BucketsOfByServer(k Kind) map[string]map[string]int {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make(map[string]map[string]int, len(j.bucketsByServer[k]))
	for s, c := range j.bucketsByServer[k] {
		out[s] = maps.Clone(c)
	}
	return out
}

// Entries returns the kept entries, oldest first.
func (j *Journal) Entries() []JournalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.ring.Items()
}

// Counts returns a copy of the counts of every elicitation recorded.
func (j *Journal) Counts() Counts { return j.CountsOf(KindElicitation) }

// SamplingCounts returns a copy of the counts of every sampling question
// recorded: their own buckets, apart from elicitation's.
func (j *Journal) SamplingCounts() Counts { return j.CountsOf(KindSampling) }

// PermissionCounts returns a copy of the counts of every ACP permission
// question recorded, by bucket (see PermissionBucket).
func (j *Journal) PermissionCounts() map[string]int { return j.BucketsOf(KindPermission) }

// PermissionCountsByServer returns a copy of the ACP permission counts
// per agent name, by bucket.
func (j *Journal) PermissionCountsByServer() map[string]map[string]int {
	return j.BucketsOfByServer(KindPermission)
}

// AgentElicitationCounts returns a copy of the counts of every ACP
// elicitation recorded, by bucket (see ElicitationBucket). They are also
// in Counts, by outcome kind.
func (j *Journal) AgentElicitationCounts() map[string]int { return j.BucketsOf(KindElicitation) }

// CountsByServer returns a copy of the elicitation counts per server name.
func (j *Journal) CountsByServer() map[string]Counts { return j.CountsOfByServer(KindElicitation) }

// SamplingCountsByServer returns a copy of the sampling counts per server
// name.
func (j *Journal) SamplingCountsByServer() map[string]Counts { return j.CountsOfByServer(KindSampling) }

func cloneByServer(m map[string]Counts) map[string]Counts {
	out := make(map[string]Counts, len(m))
	for s, c := range m {
		out[s] = maps.Clone(c)
	}
	return out
}
