package client

import (
	"context"
	"slices"
	"sync"
)

// A server may say its tools, resources or prompts changed as often as it
// likes: 10,000 list_changed in a burst are 10,000 events. Lists are asked
// for through listFlights so that they cost the server a bounded number
// of requests however many consumers react to however many events:
//
//   - per kind, at most one list request is in flight and at most one is
//     queued behind it; a caller joins the one in flight if no change was
//     said since it went out (its answer is as new as anything known),
//     else the queued one, which goes out when the one in flight ends;
//   - the last answer is kept, and given again, while no change was said
//     since it was asked for, when the server is one that says so
//     (freshness): a consumer whose events lag behind the wire (the
//     TUI's loop) asks again for changes its last answer already has.
//
// A burst of N list_changed, then, costs the request the first started
// and one after it. Changes are counted on the read loop, when the
// notification is read, not when its event reaches a consumer.

// listKind is one kind of list.
type listKind int

const (
	listTools listKind = iota
	listResources
	listTemplates // said changed by resources' list_changed
	listPrompts
	listKinds
)

// listFlights is every kind's requests and last answer; under its own
// lock, taken on the read loop briefly and never while calling out.
type listFlights struct {
	// freshness is the session's initialize generation and what tells of
	// changes of kind (listFreshnessOf, lists_handle.go): the one thing
	// the coalescing needs of its session.
	freshness func(kind listKind) (gen int, watch any)
	mu        sync.Mutex
	kinds     [listKinds]listState
}

type listState struct {
	changes uint64      // list_changed said of this kind
	flight  *listFlight // the request out, nil if none
	queued  *listFlight // the request to send when flight ends
	last    *listFlight // the last answered without error
}

// listFlight is one list request and everyone waiting for its answer.
type listFlight struct {
	fetch   func(context.Context) (any, error)
	base    context.Context // whose values the request carries
	asked   uint64          // changes when it went out
	gen     int             // the session's initialize generation then
	watch   any             // what told of changes then (freshness)
	waiters int
	cancel  context.CancelFunc // set once it went out
	// abandoned: everyone waiting gave up and it was cancelled; a caller
	// who comes later waits for the next request, not its cancellation.
	abandoned bool
	done      chan struct{}
	items     any // a []T; set before done is closed
	err       error
}

// changed counts a list_changed of what ("tools", "resources", "prompts")
// on the read loop. Resources' says templates may have changed too.
func (l *listFlights) changed(what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch what {
	case "tools":
		l.kinds[listTools].changes++
	case "prompts":
		l.kinds[listPrompts].changes++
	case "resources":
		l.kinds[listResources].changes++
		l.kinds[listTemplates].changes++
	}
}

// coalescedList lists kind through fetch, sharing the request with every
// other caller as the rules above say. Each caller gets its own copy of
// the slice. ctx ending returns at once; the request is cancelled when
// nobody waits for it any more.
func coalescedList[T any](ctx context.Context, l *listFlights, kind listKind, fetch func(context.Context) ([]T, error)) ([]T, error) {
	gen, watch := l.freshness(kind)
	l.mu.Lock()
	k := &l.kinds[kind]
	var f *listFlight
	switch {
	case k.flight != nil && k.flight.asked == k.changes && k.flight.gen == gen && !k.flight.abandoned:
		f = k.flight
	case k.flight != nil:
		if k.queued == nil {
			k.queued = newListFlight(ctx, fetch)
		}
		f = k.queued
	case watch != nil && k.last != nil && k.last.watch == watch && k.last.asked == k.changes && k.last.gen == gen:
		items := k.last.items.([]T)
		l.mu.Unlock()
		return slices.Clone(items), nil
	default:
		f = newListFlight(ctx, fetch)
		k.flight = f
		l.send(kind, f, gen, watch)
	}
	f.waiters++
	l.mu.Unlock()

	select {
	case <-f.done:
		items, _ := f.items.([]T)
		return slices.Clone(items), f.err
	case <-ctx.Done():
		l.mu.Lock()
		f.waiters--
		if f.waiters == 0 {
			if k.queued == f {
				k.queued = nil // never sent: nobody wants it
			} else if f.cancel != nil {
				f.abandoned = true
				f.cancel()
			}
		}
		l.mu.Unlock()
		return nil, ctx.Err()
	}
}

func newListFlight[T any](ctx context.Context, fetch func(context.Context) ([]T, error)) *listFlight {
	return &listFlight{
		base:  ctx,
		fetch: func(ctx context.Context) (any, error) { return fetch(ctx) },
		done:  make(chan struct{}),
	}
}

// send sends f, which is k's flight now (under l.mu). Its request
// runs apart from any one caller's ctx: it ends when its answer comes,
// the session ends, or nobody waits any more. When it ends the queued
// request, if anyone still waits for it, goes out.
func (l *listFlights) send(kind listKind, f *listFlight, gen int, watch any) {
	k := &l.kinds[kind]
	f.asked, f.gen, f.watch = k.changes, gen, watch
	ctx, cancel := context.WithCancel(context.WithoutCancel(f.base))
	f.cancel = cancel
	go func() {
		items, err := f.fetch(ctx)
		cancel()
		gen, watch := l.freshness(kind)
		l.mu.Lock()
		defer l.mu.Unlock()
		f.items, f.err = items, err
		if err == nil {
			k.last = f
		}
		k.flight = nil
		if q := k.queued; q != nil {
			k.queued = nil
			k.flight = q
			l.send(kind, q, gen, watch)
		}
		close(f.done)
	}()
}

// statefulWatch is the watch of a session before 2026-07-28: the
// server's declared listChanged holds for the session's life.
type statefulWatch struct{}

func listAgreed(o ListenOptions, kind listKind) bool {
	switch kind {
	case listTools:
		return o.ToolsListChanged
	case listResources, listTemplates:
		return o.ResourcesListChanged
	case listPrompts:
		return o.PromptsListChanged
	}
	return false
}
