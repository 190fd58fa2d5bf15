package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// 2026-07-28 resource subscriptions: one subscriptions/listen stream per
// URI, {"notifications":{"resourceSubscriptions":[uri]}}, as go-sdk's own
// client does. One stream per URI rather than one stream reopened with
// the whole set whenever it changes: subscribing or unsubscribing one URI
// never closes the stream of another, so no update falls in a gap between
// two streams and none comes twice. (go-sdk's server, over stdio, keys
// subscriptions by session: a second stream naming the same URI would be
// undone when the first one ends.) The list-changed kinds have their own
// stream (the caller's Listen), which these never touch.

// subscriptions are a session's subscriptions: its subscriptions/listen
// streams (listen.go), resources/subscribe before 2026-07-28
// (subscribe.go), and the open resource streams, by URI. Each Listener
// guards its own acknowledgement; the session is reached only through
// listensHandle (listen_handle.go).
type subscriptions struct {
	h listensHandle
	// op serialises Subscribe and Unsubscribe, so that two of the same
	// URI never race; each holds it at most for one bounded wait.
	op sync.Mutex
	mu sync.Mutex
	by map[string]*resourceListen
}

// resourceListen is one URI's stream.
type resourceListen struct {
	l      *Listener
	cancel context.CancelFunc
	// dropped: Unsubscribe (or a failed Subscribe) ended it, so its end
	// is not news.
	dropped bool
}

// listen opens uri's stream, unless it is open already.
func (rs *subscriptions) listen(ctx context.Context, uri string) error {
	if !rs.h.declared() {
		return fmt.Errorf("subscribing to %s on %s: %w", uri, rs.h.server, ErrNoSubscribe)
	}
	rs.op.Lock()
	defer rs.op.Unlock()
	rs.mu.Lock()
	if rs.by[uri] != nil {
		rs.mu.Unlock()
		return nil
	}
	if rs.by == nil {
		rs.by = map[string]*resourceListen{}
	}
	// The stream outlives ctx (which bounds only the wait for the
	// acknowledgement) and keeps its values.
	stream, cancel := context.WithCancel(context.WithoutCancel(ctx))
	e := &resourceListen{l: newListener(ListenOptions{ResourceSubscriptions: []string{uri}}), cancel: cancel}
	e.l.ended = func(err error) { rs.ended(uri, e, err) }
	rs.by[uri] = e
	rs.mu.Unlock()

	err := rs.open(stream, ctx, e.l)
	if err == nil && !slices.Contains(e.l.Agreed().ResourceSubscriptions, uri) {
		err = fmt.Errorf("subscribing to %s on %s: %w (its acknowledgement left the URI out)", uri, rs.h.server, ErrNoSubscribe)
	}
	if err != nil {
		rs.drop(uri, e)
		cancel()
		<-e.l.Done()
		return err
	}
	return nil
}

// unlisten closes uri's stream and waits, within ctx and
// Options.RequestTimeout, for its end; a URI not subscribed is no error.
func (rs *subscriptions) unlisten(ctx context.Context, uri string) error {
	rs.op.Lock()
	defer rs.op.Unlock()
	rs.mu.Lock()
	e := rs.by[uri]
	rs.mu.Unlock()
	if e == nil {
		return nil
	}
	rs.drop(uri, e)
	e.cancel()
	// Cancelling ends the request at once (stdio: notifications/cancelled
	// is written; HTTP: the stream is closed); the bound is for a wedged
	// write.
	bound := time.NewTimer(rs.h.timeout)
	defer bound.Stop()
	select {
	case <-e.l.Done():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("unsubscribing from %s on %s: the stream has not ended yet: %w", uri, rs.h.server, context.Cause(ctx))
	case <-bound.C:
		return fmt.Errorf("unsubscribing from %s on %s: %w: the stream had not ended after %v", uri, rs.h.server, ErrTimeout, rs.h.timeout)
	}
}

// drop forgets e, if it is still uri's stream.
func (rs *subscriptions) drop(uri string, e *resourceListen) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	e.dropped = true
	if rs.by[uri] == e {
		delete(rs.by, uri)
	}
}

// ended is e's end (its stream's goroutine): unless we ended it, the URI
// is forgotten and the end reported.
func (rs *subscriptions) ended(uri string, e *resourceListen, err error) {
	rs.mu.Lock()
	dropped := e.dropped
	if rs.by[uri] == e {
		delete(rs.by, uri)
	}
	rs.mu.Unlock()
	if dropped || rs.h.quiet(e.l) {
		return
	}
	if err == nil {
		err = errors.New("the server ended the stream")
	}
	rs.h.emit(ResourceSubscriptionEnded{Server: rs.h.server, URI: uri, Err: err})
}

// ResourceSubscriptions lists the URIs with an open 2026-07-28 stream,
// sorted.
func (s *Session) ResourceSubscriptions() []string { return s.subs.list() }

// list is ResourceSubscriptions.
func (rs *subscriptions) list() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var out []string
	for uri := range rs.by {
		out = append(out, uri)
	}
	slices.Sort(out)
	return out
}
