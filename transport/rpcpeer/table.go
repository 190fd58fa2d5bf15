package rpcpeer

import (
	"iter"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Fate is whose a response is (Table.Resolve).
type Fate int

const (
	// Waiting: the response of a request still awaiting it.
	Waiting Fate = iota
	// Late: the answer to a request we gave up on (Table.GiveUp).
	Late
	// Stray: an id we never issued, or one answered already (a duplicate
	// response), or one given up on so long ago that it was forgotten.
	Stray
)

func (f Fate) String() string {
	switch f {
	case Waiting:
		return "waiting"
	case Late:
		return "late"
	default:
		return "stray"
	}
}

// Table is our requests awaiting an answer, by id. It is not safe for
// concurrent use: its owner's lock guards it. The zero Table is not
// usable; make one with NewTable.
type Table[T comparable] struct {
	next    int64
	pending map[jsonrpc.ID]T
	late    map[jsonrpc.ID]string // ids given up on -> method
	lateMax int
}

// NewTable returns a Table whose first id is first. It remembers up to
// lateMax ids given up on; when full it forgets them all at once (a late
// answer to one of them is then a Stray).
func NewTable[T comparable](first int64, lateMax int) *Table[T] {
	return &Table[T]{next: first, pending: map[jsonrpc.ID]T{}, late: map[jsonrpc.ID]string{}, lateMax: max(lateMax, 1)}
}

// Add registers v under a fresh id and returns it. Register before the
// request is written: its answer may be read before Write returns.
func (t *Table[T]) Add(v T) jsonrpc.ID {
	id := jsonrpc.IntID(t.next)
	t.next++
	t.pending[id] = v
	return id
}

// Get is the request waiting under id.
func (t *Table[T]) Get(id jsonrpc.ID) (T, bool) {
	v, ok := t.pending[id]
	return v, ok
}

// Waiting reports whether v is waiting under id.
func (t *Table[T]) Waiting(id jsonrpc.ID, v T) bool {
	w, ok := t.pending[id]
	return ok && w == v
}

// Forget drops v from under id without remembering it (the request was
// never written, or its caller had its answer). Another request under id
// is left alone.
func (t *Table[T]) Forget(id jsonrpc.ID, v T) {
	if t.Waiting(id, v) {
		delete(t.pending, id)
	}
}

// GiveUp drops v from under id and remembers id as given up on, so that
// its answer, if it still comes, is Late. It reports whether v was
// waiting there (if not, nothing changes).
func (t *Table[T]) GiveUp(id jsonrpc.ID, v T, method string) bool {
	if !t.Waiting(id, v) {
		return false
	}
	delete(t.pending, id)
	if len(t.late) >= t.lateMax {
		clear(t.late)
	}
	t.late[id] = method
	return true
}

// Resolve takes the response for id: the request waiting for it (fate
// Waiting, and it is no longer in the table), or Late with the method of
// the request we gave up on (once: a second answer to it is a Stray), or
// Stray.
func (t *Table[T]) Resolve(id jsonrpc.ID) (v T, fate Fate, method string) {
	if v, ok := t.pending[id]; ok {
		delete(t.pending, id)
		return v, Waiting, ""
	}
	if m, ok := t.late[id]; ok {
		delete(t.late, id)
		return v, Late, m
	}
	return v, Stray, ""
}

// All is every request waiting, in no order.
func (t *Table[T]) All() iter.Seq2[jsonrpc.ID, T] {
	return func(yield func(jsonrpc.ID, T) bool) {
		for id, v := range t.pending {
			if !yield(id, v) {
				return
			}
		}
	}
}

// Len is how many requests are waiting.
func (t *Table[T]) Len() int { return len(t.pending) }

// Drain empties the table of the requests waiting and returns them.
func (t *Table[T]) Drain() []T {
	out := make([]T, 0, len(t.pending))
	for _, v := range t.pending {
		out = append(out, v)
	}
	clear(t.pending)
	return out
}
