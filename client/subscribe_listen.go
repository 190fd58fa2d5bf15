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

// resourceListens are a session's open resource streams, by URI.
type resourceListens struct {
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

// listenResource opens uri's stream, unless it is open already.
func (s *Session) listenResource(ctx context.Context, uri string) error {
	if !s.ServerCapabilities().ResourcesSubscribe {
		return fmt.Errorf("subscribing to %s on %s: %w", uri, s.name, ErrNoSubscribe)
	}
	rs := &s.resSubs
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
	e.l.ended = func(err error) { s.resourceListenEnded(uri, e, err) }
	rs.by[uri] = e
	rs.mu.Unlock()

	err := s.openListen(stream, ctx, e.l)
	if err == nil && !slices.Contains(e.l.Agreed().ResourceSubscriptions, uri) {
		err = fmt.Errorf("subscribing to %s on %s: %w (its acknowledgement left the URI out)", uri, s.name, ErrNoSubscribe)
	}
	if err != nil {
		s.dropResourceListen(uri, e)
		cancel()
		<-e.l.Done()
		return err
	}
	return nil
}

// unlistenResource closes uri's stream and waits, within ctx and
// Options.RequestTimeout, for its end; a URI not subscribed is no error.
func (s *Session) unlistenResource(ctx context.Context, uri string) error {
	rs := &s.resSubs
	rs.op.Lock()
	defer rs.op.Unlock()
	rs.mu.Lock()
	e := rs.by[uri]
	rs.mu.Unlock()
	if e == nil {
		return nil
	}
	s.dropResourceListen(uri, e)
	e.cancel()
	// Cancelling ends the request at once (stdio: notifications/cancelled
	// is written; HTTP: the stream is closed); the bound is for a wedged
	// write.
	bound := time.NewTimer(s.opts.RequestTimeout)
	defer bound.Stop()
	select {
	case <-e.l.Done():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("unsubscribing from %s on %s: the stream has not ended yet: %w", uri, s.name, context.Cause(ctx))
	case <-bound.C:
		return fmt.Errorf("unsubscribing from %s on %s: %w: the stream had not ended after %v", uri, s.name, ErrTimeout, s.opts.RequestTimeout)
	}
}

// dropResourceListen forgets e, if it is still uri's stream.
func (s *Session) dropResourceListen(uri string, e *resourceListen) {
	rs := &s.resSubs
	rs.mu.Lock()
	defer rs.mu.Unlock()
	e.dropped = true
	if rs.by[uri] == e {
		delete(rs.by, uri)
	}
}

// resourceListenEnded is e's end (its stream's goroutine): unless we
// ended it, the URI is forgotten and the end reported.
func (s *Session) resourceListenEnded(uri string, e *resourceListen, err error) {
	rs := &s.resSubs
	rs.mu.Lock()
	dropped := e.dropped
	if rs.by[uri] == e {
		delete(rs.by, uri)
	}
	rs.mu.Unlock()
	s.mu.Lock()
	quiet := dropped || s.isDead || s.closing || !e.l.acked
	s.mu.Unlock()
	if quiet {
		return
	}
	if err == nil {
		err = errors.New("the server ended the stream")
	}
	s.emit(ResourceSubscriptionEnded{Server: s.name, URI: uri, Err: err})
}

// ResourceSubscriptions lists the URIs with an open 2026-07-28 stream,
// sorted.
func (s *Session) ResourceSubscriptions() []string {
	rs := &s.resSubs
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var out []string
	for uri := range rs.by {
		out = append(out, uri)
	}
	slices.Sort(out)
	return out
}
