package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// ListenOptions says which notifications a subscriptions/listen stream
// asks for (2026-07-28).
type ListenOptions struct {
	ToolsListChanged     bool `json:"toolsListChanged,omitempty"`
	PromptsListChanged   bool `json:"promptsListChanged,omitempty"`
	ResourcesListChanged bool `json:"resourcesListChanged,omitempty"`
	// TaskIDs asks for notifications/tasks of these tasks (the tasks
	// extension); each one updates the task the session follows at once
	// (tasks_ext.go). Polling goes on regardless.
	TaskIDs []string `json:"taskIds,omitempty"`
	// ResourceSubscriptions asks for notifications/resources/updated of
	// these URIs (what resources/subscribe did before 2026-07-28); each
	// becomes a ResourceUpdated event. Session.Subscribe opens one such
	// stream per URI (subscribe_listen.go).
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// names lists the kinds o asks for, in wire spelling.
func (o ListenOptions) names() []string {
	var out []string
	for _, k := range []struct {
		on   bool
		name string
	}{{o.ToolsListChanged, "toolsListChanged"}, {o.PromptsListChanged, "promptsListChanged"}, {o.ResourcesListChanged, "resourcesListChanged"}} {
		if k.on {
			out = append(out, k.name)
		}
	}
	if len(o.TaskIDs) > 0 {
		out = append(out, fmt.Sprintf("taskIds %v", o.TaskIDs))
	}
	if len(o.ResourceSubscriptions) > 0 {
		out = append(out, fmt.Sprintf("resourceSubscriptions %v", o.ResourceSubscriptions))
	}
	return out
}

// equal reports whether o and p ask for the same (ids and URIs in any
// order).
func (o ListenOptions) equal(p ListenOptions) bool {
	same := func(a, b []string) bool {
		return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
	}
	return o.ToolsListChanged == p.ToolsListChanged && o.PromptsListChanged == p.PromptsListChanged &&
		o.ResourcesListChanged == p.ResourcesListChanged && same(o.TaskIDs, p.TaskIDs) &&
		same(o.ResourceSubscriptions, p.ResourceSubscriptions)
}

// Listener is one open subscriptions/listen stream.
type Listener struct {
	asked ListenOptions
	// ack receives the check of the server's acknowledgement (nil when
	// it is acceptable); buffered, the read loop never waits.
	ack  chan error
	done chan struct{}

	// Guarded by Session.mu.
	agreed ListenOptions
	acked  bool

	err error // set before done is closed
	// ended, if set, is called with err when the stream has ended, just
	// before done is closed (Session.Subscribe forgets the URI then).
	ended func(error)
}

// newListener is a Listener not yet opened.
func newListener(opts ListenOptions) *Listener {
	return &Listener{asked: opts, ack: make(chan error, 1), done: make(chan struct{})}
}

// Agreed is what the server agreed to send (a subset of what was asked).
func (l *Listener) Agreed() ListenOptions {
	a := l.agreed
	a.TaskIDs = slices.Clone(a.TaskIDs)
	a.ResourceSubscriptions = slices.Clone(a.ResourceSubscriptions)
	return a
}

// Done is closed when the subscription has ended.
func (l *Listener) Done() <-chan struct{} { return l.done }

// Err says why the subscription ended: nil when Listen's ctx ended it or
// the server closed it gracefully, else the failure (the transport
// dropped, the session closed, the server cancelled it).
func (l *Listener) Err() error {
	<-l.done
	return l.err
}

// errBadAck ends a listen whose acknowledgement we refuse.
var errBadAck = errors.New("the server acknowledged notifications we did not ask for")

// Listen opens a subscriptions/listen stream (2026-07-28 only; in older
// eras list changes arrive unasked). It returns once the server has
// acknowledged it: with a Notice if it agreed to less than was asked, and
// with an error if it acknowledged kinds we did not ask for, or had not
// acknowledged it within Options.RequestTimeout (wrapping ErrTimeout; the
// stream is cancelled then). Until ctx ends, the subscription's
// list-changed notifications become ListChanged events; when ctx ends the
// stream is closed (HTTP) or cancelled with notifications/cancelled
// (stdio) and the Listener ends cleanly. The stream itself has no
// timeout: it is meant to stay open.
func (s *Session) Listen(ctx context.Context, opts ListenOptions) (*Listener, error) {
	l := newListener(opts)
	if err := s.openListen(ctx, ctx, l); err != nil {
		return nil, err
	}
	return l, nil
}

// openListen opens l's stream, which lives until stream ends, and waits
// for its acknowledgement until wait ends or Options.RequestTimeout has
// passed (then the stream is closed and the error says why). When it
// returns an error, l has ended (Done is closed).
func (s *Session) openListen(stream, wait context.Context, l *Listener) error {
	opts := l.asked
	// Never opened, l has ended all the same (its Done is closed).
	never := func(err error) error {
		l.err = err
		close(l.done)
		return err
	}
	if !s.stateless() {
		return never(fmt.Errorf("subscriptions/listen on %s: needs 2026-07-28, but the session speaks %s (list changes arrive without asking)", s.name, s.Era()))
	}
	lctx, cancel := context.WithCancelCause(stream)
	if err := s.life.join(); err != nil {
		cancel(nil)
		return never(fmt.Errorf("subscriptions/listen on %s: %w", s.name, err))
	}
	go func() {
		defer s.life.leave()
		defer cancel(nil)
		err := s.do(lctx, &call{method: wire.MethodSubscriptionsListen, listen: l}, map[string]any{"notifications": opts}, nil)
		switch {
		case lctx.Err() != nil:
			if cause := context.Cause(lctx); errors.Is(cause, errBadAck) || errors.Is(cause, ErrTimeout) || errors.Is(cause, errGaveUp) {
				l.err = cause
			}
		case err != nil:
			l.err = err
		default:
			s.notice("the server ended subscription %v", opts.names())
		}
		if l.ended != nil {
			l.ended(l.err)
		}
		close(l.done)
	}()
	acked := time.NewTimer(s.opts.RequestTimeout)
	defer acked.Stop()
	select {
	case <-acked.C:
		cause := fmt.Errorf("%w: not acknowledged within %v", ErrTimeout, s.opts.RequestTimeout)
		cancel(cause)
		<-l.done
		return fmt.Errorf("subscriptions/listen on %s: %w", s.name, cause)
	case err := <-l.ack:
		if err != nil {
			cancel(fmt.Errorf("%w: %w", errBadAck, err))
			<-l.done
			return fmt.Errorf("subscriptions/listen on %s: %w", s.name, err)
		}
		s.mu.Lock()
		agreed := l.agreed
		s.mu.Unlock()
		if !agreed.equal(opts) {
			s.notice("subscription: asked for %v, the server agreed to %v", opts.names(), agreed.names())
		}
		return nil
	case <-wait.Done():
		if wait != stream {
			// Only the wait ended: the stream goes with it, unacknowledged.
			cause := fmt.Errorf("%w: %w", errGaveUp, context.Cause(wait))
			cancel(cause)
			<-l.done
			return fmt.Errorf("subscriptions/listen on %s: %w", s.name, cause)
		}
		<-l.done
		return fmt.Errorf("subscriptions/listen on %s: %w", s.name, context.Cause(wait))
	case <-l.done:
		if l.err != nil {
			return l.err
		}
		if wait.Err() != nil {
			return fmt.Errorf("subscriptions/listen on %s: %w", s.name, context.Cause(wait))
		}
		return fmt.Errorf("subscriptions/listen on %s: ended before the server acknowledged it", s.name)
	}
}

// errGaveUp ends a listen whose opener stopped waiting for the
// acknowledgement.
var errGaveUp = errors.New("gave up waiting for the acknowledgement")

// subscriptionID reads params._meta[subscriptionId], if any.
func subscriptionID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return jsonrpc.ID{}, false
	}
	raw, ok := p.Meta[wire.MetaSubscriptionID]
	if !ok {
		return jsonrpc.ID{}, false
	}
	var id jsonrpc.ID
	if id.UnmarshalJSON(raw) != nil || !id.IsValid() {
		return jsonrpc.ID{}, false
	}
	// The id is our request's: read it by value (a 3 written 3.0 is 3).
	id, ok = id.Canonical()
	if !ok {
		return jsonrpc.ID{}, false
	}
	return id, true
}

// acknowledged handles notifications/subscriptions/acknowledged (read
// loop): the agreed set must be within what was asked.
func (s *Session) acknowledged(params json.RawMessage) {
	id, ok := subscriptionID(params)
	var p struct {
		Notifications map[string]json.RawMessage `json:"notifications"`
	}
	if !ok || json.Unmarshal(params, &p) != nil {
		s.notice("ignored a malformed notifications/subscriptions/acknowledged")
		return
	}
	s.mu.Lock()
	var l *Listener
	if c, _ := s.peer.Find(id); c != nil {
		l = c.listen
	}
	if l == nil || l.acked {
		s.mu.Unlock()
		s.notice("ignored an acknowledgement for subscription %s: not open, or acknowledged already", id)
		return
	}
	l.acked = true
	var extra []string
	for k, v := range p.Notifications {
		on := string(v) != "false" && string(v) != "null" && string(v) != "[]"
		switch {
		case !on:
		case k == "toolsListChanged" && l.asked.ToolsListChanged:
			l.agreed.ToolsListChanged = true
		case k == "promptsListChanged" && l.asked.PromptsListChanged:
			l.agreed.PromptsListChanged = true
		case k == "resourcesListChanged" && l.asked.ResourcesListChanged:
			l.agreed.ResourcesListChanged = true
		case k == "taskIds":
			// The extension's task ids: each must be one we asked for.
			var ids []string
			if json.Unmarshal(v, &ids) != nil {
				extra = append(extra, k+" (malformed)")
				break
			}
			l.agreed.TaskIDs, extra = agreeTo(k, ids, l.asked.TaskIDs, l.agreed.TaskIDs, extra)
		case k == "resourceSubscriptions":
			var uris []string
			if json.Unmarshal(v, &uris) != nil {
				extra = append(extra, k+" (malformed)")
				break
			}
			l.agreed.ResourceSubscriptions, extra = agreeTo(k, uris, l.asked.ResourceSubscriptions, l.agreed.ResourceSubscriptions, extra)
		default:
			extra = append(extra, k)
		}
	}
	s.mu.Unlock()
	if len(extra) > 0 {
		l.ack <- fmt.Errorf("%w: %s", errBadAck, strings.Join(extra, ", "))
		return
	}
	l.ack <- nil
}

// agreeTo adds to agreed each of got that was asked (once), and to extra
// each that was not.
func agreeTo(key string, got, asked, agreed, extra []string) ([]string, []string) {
	for _, v := range got {
		switch {
		case !slices.Contains(asked, v):
			extra = append(extra, fmt.Sprintf("%s %q", key, v))
		case !slices.Contains(agreed, v):
			agreed = append(agreed, v)
		}
	}
	return agreed, extra
}

// listChanged routes notifications/{tools,prompts,resources}/list_changed
// (read loop): on a subscription, only kinds it agreed to; without a
// subscription id (older eras), as is.
func (s *Session) listChanged(what string, params json.RawMessage) {
	id, ok := subscriptionID(params)
	if !ok {
		s.changedList(what)
		s.emit(ListChanged{Server: s.name, What: what})
		return
	}
	s.mu.Lock()
	var l *Listener
	if c, _ := s.peer.Find(id); c != nil {
		l = c.listen
	}
	agreed := l != nil && l.acked && map[string]bool{
		"tools":     l.agreed.ToolsListChanged,
		"prompts":   l.agreed.PromptsListChanged,
		"resources": l.agreed.ResourcesListChanged,
	}[what]
	acked := l != nil && l.acked
	s.mu.Unlock()
	if !agreed && acked {
		s.lint.Find(findings.SubscriptionUnrequested, lint.InFrame(jsonrpc.ID{}, "", time.Now()), "%s list_changed on subscription %s, which did not agree to it", what, id)
	}
	if !agreed {
		s.notice("ignored %s list_changed for subscription %s: not open, or not agreed to", what, id)
		return
	}
	s.changedList(what)
	s.emit(ListChanged{Server: s.name, What: what})
}

// endListen handles a 2026-07-28 notifications/cancelled, which a server
// sends only to end a subscriptions/listen stream (read loop).
func (s *Session) endListen(params json.RawMessage) {
	var p struct {
		RequestID *jsonrpc.ID `json:"requestId"`
		Reason    string      `json:"reason"`
	}
	if wire.DecodeExact(params, &p) != nil || p.RequestID == nil {
		s.notice("ignored a malformed notifications/cancelled")
		return
	}
	s.mu.Lock()
	c, _ := s.peer.Find(*p.RequestID)
	if c == nil || c.listen == nil {
		s.mu.Unlock()
		if c != nil {
			s.lint.Find(findings.CancelledStateless, lint.InFrame(jsonrpc.ID{}, wire.NotifyCancelled, time.Now()), "notifications/cancelled for %s #%s", c.method, p.RequestID)
		}
		s.notice("ignored notifications/cancelled for request %s: servers cancel only subscriptions in 2026-07-28", p.RequestID)
		return
	}
	s.mu.Unlock()
	msg := "the server ended the subscription"
	if p.Reason != "" {
		msg += ": " + p.Reason
	}
	s.peer.Deliver(*p.RequestID, rpcpeer.Answer{Msg: &jsonrpc.Message{ID: *p.RequestID, Error: jsonrpc.NewError(jsonrpc.CodeInternalError, msg, nil)}})
}
