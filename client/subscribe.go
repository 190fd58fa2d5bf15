package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/wire"
)

// Resource subscriptions. 2025-x: resources/subscribe and
// resources/unsubscribe, when the server declared resources.subscribe.
// 2026-07-28 has neither: a subscription is a subscriptions/listen stream
// whose filter names the URI (subscribe_listen.go). Either way each change
// comes as notifications/resources/updated, a ResourceUpdated event.

// ErrNoSubscribe is returned by Subscribe and Unsubscribe when the server
// did not declare resources.subscribe, and by Subscribe in 2026-07-28 when
// the server's acknowledgement left the URI out.
var ErrNoSubscribe = errors.New("the server declared no resources.subscribe capability")

// Subscribe asks for notifications/resources/updated of uri. In
// 2026-07-28 it opens a subscriptions/listen stream for uri and returns
// once the server acknowledged it (within ctx and Options.RequestTimeout);
// the stream stays open until Unsubscribe, the session's end, or the
// server's, which a ResourceSubscriptionEnded event reports. Subscribing
// again to a URI already subscribed does nothing.
func (s *Session) Subscribe(ctx context.Context, uri string) error {
	if s.stateless() {
		return s.subs.listen(ctx, uri)
	}
	return s.subs.subscription(ctx, wire.MethodResourcesSubscribe, uri)
}

// Unsubscribe ends a subscription to uri (in 2026-07-28: closes its
// stream and waits, within ctx, until it has ended).
func (s *Session) Unsubscribe(ctx context.Context, uri string) error {
	if s.stateless() {
		return s.subs.unlisten(ctx, uri)
	}
	return s.subs.subscription(ctx, wire.MethodResourcesUnsubscribe, uri)
}

// subscription is resources/subscribe or resources/unsubscribe (before
// 2026-07-28).
func (rs *subscriptions) subscription(ctx context.Context, method, uri string) error {
	if !rs.h.declared() {
		return fmt.Errorf("%s on %s: %w", method, rs.h.server, ErrNoSubscribe)
	}
	var res json.RawMessage
	return rs.h.request(ctx, method, map[string]string{"uri": uri}, &res)
}

// resourceUpdated handles notifications/resources/updated (read loop).
// One on a 2026-07-28 subscription stream counts only if that stream
// agreed to the URI, or to one the URI lies under (the spec lets an
// update name a sub-resource of the one subscribed).
func (rs *subscriptions) resourceUpdated(params json.RawMessage) {
	var p struct {
		URI string `json:"uri"`
	}
	if wire.DecodeExact(params, &p) != nil || p.URI == "" {
		rs.h.notice("ignored a malformed notifications/resources/updated")
		return
	}
	if id, ok := subscriptionID(params); ok {
		var agreed bool
		if l, _ := rs.h.listener(id); l != nil {
			if acked, on := l.state(); acked {
				agreed = slices.ContainsFunc(on.ResourceSubscriptions, func(sub string) bool {
					return underURI(p.URI, sub)
				})
			}
		}
		if !agreed {
			rs.h.notice("ignored notifications/resources/updated of %s on subscription %s: not open, or not agreed to", p.URI, id)
			rs.h.lint.Find(findings.SubscriptionUnrequested, findings.FrameRef{In: true, Method: wire.NotifyResourcesUpdated}, "resources/updated of %s on subscription %s, which did not ask for it", p.URI, id)
			return
		}
	}
	rs.h.emit(ResourceUpdated{Server: rs.h.server, URI: p.URI})
}

// underURI reports whether uri is sub or a resource under it.
func underURI(uri, sub string) bool {
	return uri == sub || strings.HasPrefix(uri, strings.TrimSuffix(sub, "/")+"/")
}
