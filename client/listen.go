package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
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

	mu     sync.Mutex // guards agreed and acked
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
	_, a := l.state()
	a.TaskIDs = slices.Clone(a.TaskIDs)
	a.ResourceSubscriptions = slices.Clone(a.ResourceSubscriptions)
	return a
}

// state is whether the server acknowledged l, and what it agreed to
// (its slices are not to be changed).
func (l *Listener) state() (acked bool, agreed ListenOptions) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.acked, l.agreed
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
	if err := s.subs.open(ctx, ctx, l); err != nil {
		return nil, err
	}
	return l, nil
}

// open opens l's stream, which lives until stream ends, and waits
// for its acknowledgement until wait ends or Options.RequestTimeout has
// passed (then the stream is closed and the error says why). When it
// returns an error, l has ended (Done is closed).
func (rs *subscriptions) open(stream, wait context.Context, l *Listener) error {
	opts := l.asked
	// Never opened, l has ended all the same (its Done is closed).
	never := func(err error) error {
		l.err = err
		close(l.done)
		return err
	}
	if !rs.h.stateless() {
		return never(fmt.Errorf("subscriptions/listen on %s: needs 2026-07-28, but the session speaks %s (list changes arrive without asking)", rs.h.server, rs.h.era()))
	}
	lctx, cancel := context.WithCancelCause(stream)
	leave, err := rs.h.join()
	if err != nil {
		cancel(nil)
		return never(fmt.Errorf("subscriptions/listen on %s: %w", rs.h.server, err))
	}
	go func() {
		defer leave()
		defer cancel(nil)
		err := rs.h.do(lctx, &call{method: wire.MethodSubscriptionsListen, listen: l}, map[string]any{"notifications": opts}, nil)
		switch {
		case lctx.Err() != nil:
			if cause := context.Cause(lctx); errors.Is(cause, errBadAck) || errors.Is(cause, ErrTimeout) || errors.Is(cause, errGaveUp) {
				l.err = cause
			}
		case err != nil:
			l.err = err
		default:
			rs.h.notice("the server ended subscription %v", opts.names())
		}
		if l.ended != nil {
			l.ended(l.err)
		}
		close(l.done)
	}()
	acked := time.NewTimer(rs.h.timeout)
	defer acked.Stop()
	select {
	case <-acked.C:
		cause := fmt.Errorf("%w: not acknowledged within %v", ErrTimeout, rs.h.timeout)
		cancel(cause)
		<-l.done
		return fmt.Errorf("subscriptions/listen on %s: %w", rs.h.server, cause)
	case err := <-l.ack:
		if err != nil {
			cancel(fmt.Errorf("%w: %w", errBadAck, err))
			<-l.done
			return fmt.Errorf("subscriptions/listen on %s: %w", rs.h.server, err)
		}
		if _, agreed := l.state(); !agreed.equal(opts) {
			rs.h.notice("subscription: asked for %v, the server agreed to %v", opts.names(), agreed.names())
		}
		return nil
	case <-wait.Done():
		if wait != stream {
			// Only the wait ended: the stream goes with it, unacknowledged.
			cause := fmt.Errorf("%w: %w", errGaveUp, context.Cause(wait))
			cancel(cause)
			<-l.done
			return fmt.Errorf("subscriptions/listen on %s: %w", rs.h.server, cause)
		}
		<-l.done
		return fmt.Errorf("subscriptions/listen on %s: %w", rs.h.server, context.Cause(wait))
	case <-l.done:
		if l.err != nil {
			return l.err
		}
		if wait.Err() != nil {
			return fmt.Errorf("subscriptions/listen on %s: %w", rs.h.server, context.Cause(wait))
		}
		return fmt.Errorf("subscriptions/listen on %s: ended before the server acknowledged it", rs.h.server)
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
func (rs *subscriptions) acknowledged(params json.RawMessage) {
	id, ok := subscriptionID(params)
	var p struct {
		Notifications map[string]json.RawMessage `json:"notifications"`
	}
	if !ok || json.Unmarshal(params, &p) != nil {
		rs.h.notice("ignored a malformed notifications/subscriptions/acknowledged")
		return
	}
	l, _ := rs.h.listener(id)
	if l != nil {
		l.mu.Lock()
	}
	if l == nil || l.acked {
		if l != nil {
			l.mu.Unlock()
		}
		rs.h.notice("ignored an acknowledgement for subscription %s: not open, or acknowledged already", id)
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
	l.mu.Unlock()
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
func (rs *subscriptions) listChanged(what string, params json.RawMessage) {
	id, ok := subscriptionID(params)
	if !ok {
		rs.h.changedList(what)
		rs.h.emit(ListChanged{Server: rs.h.server, What: what})
		return
	}
	var acked bool
	var on ListenOptions
	if l, _ := rs.h.listener(id); l != nil {
		acked, on = l.state()
	}
	agreed := acked && map[string]bool{
		"tools":     on.ToolsListChanged,
		"prompts":   on.PromptsListChanged,
		"resources": on.ResourcesListChanged,
	}[what]
	if !agreed && acked {
		rs.h.lint.Find(findings.SubscriptionUnrequested, lint.InFrame(jsonrpc.ID{}, "", time.Now()), "%s list_changed on subscription %s, which did not agree to it", what, id)
	}
	if !agreed {
		rs.h.notice("ignored %s list_changed for subscription %s: not open, or not agreed to", what, id)
		return
	}
	rs.h.changedList(what)
	rs.h.emit(ListChanged{Server: rs.h.server, What: what})
}

// endListen handles a 2026-07-28 notifications/cancelled, which a server
// sends only to end a subscriptions/listen stream (read loop).
func (rs *subscriptions) endListen(params json.RawMessage) {
	var p struct {
		RequestID *jsonrpc.ID `json:"requestId"`
		Reason    string      `json:"reason"`
	}
	if wire.DecodeExact(params, &p) != nil || p.RequestID == nil {
		rs.h.notice("ignored a malformed notifications/cancelled")
		return
	}
	msg := "the server ended the subscription"
	if p.Reason != "" {
		msg += ": " + p.Reason
	}
	method, ended := rs.h.endStream(*p.RequestID, jsonrpc.NewError(jsonrpc.CodeInternalError, msg, nil))
	if ended {
		return
	}
	if method != "" {
		rs.h.lint.Find(findings.CancelledStateless, lint.InFrame(jsonrpc.ID{}, wire.NotifyCancelled, time.Now()), "notifications/cancelled for %s #%s", method, p.RequestID)
	}
	rs.h.notice("ignored notifications/cancelled for request %s: servers cancel only subscriptions in 2026-07-28", p.RequestID)
}
