package proxy

import (
	"crypto/rand"
	"fmt"
	"strings"
	"sync"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// ownIDs are the ids of the requests elicit itself sends the server on a
// proxied connection (the retries of the 2026-07-28 rounds it completes),
// and who waits for each answer. The host's ids are never remapped, so
// ours must stay out of their way: they are strings under a prefix made
// fresh per run, which a host would have to guess, and one the host has
// used is skipped all the same.
type ownIDs struct {
	prefix string
	mu     sync.Mutex
	n      int
	// hostHas are the host's ids under our prefix (a guesser's).
	hostHas map[string]bool
	waiting map[jsonrpc.ID]chan *jsonrpc.Message
}

func newOwnIDs() *ownIDs {
	return &ownIDs{prefix: "elicit-proxy-" + strings.ToLower(rand.Text()[:8]) + "-",
		hostHas: map[string]bool{}, waiting: map[jsonrpc.ID]chan *jsonrpc.Message{}}
}

// hostUsed notes an id of the host's.
func (o *ownIDs) hostUsed(id jsonrpc.ID) {
	if !id.IsString() || !strings.HasPrefix(id.Raw(), o.prefix) {
		return
	}
	o.mu.Lock()
	o.hostHas[id.Raw()] = true
	o.mu.Unlock()
}

// next is a fresh id of ours and the channel its answer comes on.
func (o *ownIDs) next() (jsonrpc.ID, <-chan *jsonrpc.Message) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for {
		o.n++
		s := fmt.Sprintf("%s%d", o.prefix, o.n)
		if o.hostHas[s] {
			continue
		}
		id := jsonrpc.StringID(s)
		ch := make(chan *jsonrpc.Message, 1)
		o.waiting[id] = ch
		return id, ch
	}
}

// forget drops a wait that ended without its answer.
func (o *ownIDs) forget(id jsonrpc.ID) {
	o.mu.Lock()
	delete(o.waiting, id)
	o.mu.Unlock()
}

// deliver hands m to whoever waits for it; false when m answers none of
// ours (an answer to one of ours nobody waits for any more is dropped:
// the host never knew that id).
func (o *ownIDs) deliver(m *jsonrpc.Message) bool {
	if !m.ID.IsString() || !strings.HasPrefix(m.ID.Raw(), o.prefix) {
		return false
	}
	o.mu.Lock()
	ch, ok := o.waiting[m.ID]
	delete(o.waiting, m.ID)
	o.mu.Unlock()
	if ok {
		ch <- m
	}
	return true
}
