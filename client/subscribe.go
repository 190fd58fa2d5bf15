package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/wire"
)

// Resource subscriptions, 2025-x: resources/subscribe and
// resources/unsubscribe, when the server declared resources.subscribe;
// each change comes as notifications/resources/updated (a ResourceUpdated
// event). 2026-07-28 subscribes through subscriptions/listen's
// resourceSubscriptions instead, which Subscribe does not open yet.

// ErrNoSubscribe is returned by Subscribe and Unsubscribe when the server
// did not declare resources.subscribe.
var ErrNoSubscribe = errors.New("the server declared no resources.subscribe capability")

// ErrSubscribeByListen is returned by Subscribe and Unsubscribe on a
// 2026-07-28 session, where resource subscriptions are a
// subscriptions/listen filter.
var ErrSubscribeByListen = errors.New("2026-07-28 subscribes to resources through subscriptions/listen, which elicit does not open for resources yet")

// Subscribe asks for notifications/resources/updated of uri.
func (s *Session) Subscribe(ctx context.Context, uri string) error {
	return s.subscription(ctx, wire.MethodResourcesSubscribe, uri)
}

// Unsubscribe ends a subscription to uri.
func (s *Session) Unsubscribe(ctx context.Context, uri string) error {
	return s.subscription(ctx, wire.MethodResourcesUnsubscribe, uri)
}

func (s *Session) subscription(ctx context.Context, method, uri string) error {
	if s.Protocol() >= wire.Protocol2026_07_28 {
		return fmt.Errorf("%s on %s: %w", method, s.name, ErrSubscribeByListen)
	}
	if !s.ServerCapabilities().ResourcesSubscribe {
		return fmt.Errorf("%s on %s: %w", method, s.name, ErrNoSubscribe)
	}
	var res json.RawMessage
	return s.Request(ctx, method, map[string]string{"uri": uri}, &res)
}

// resourceUpdated handles notifications/resources/updated (read loop).
// One on a 2026-07-28 subscription stream is not ours to take: we open
// none for resources.
func (s *Session) resourceUpdated(params json.RawMessage) {
	var p struct {
		URI string `json:"uri"`
	}
	if wire.DecodeExact(params, &p) != nil || p.URI == "" {
		s.notice("ignored a malformed notifications/resources/updated")
		return
	}
	if id, ok := subscriptionID(params); ok {
		s.notice("ignored notifications/resources/updated of %s on subscription %s: not asked for", p.URI, id)
		s.find(findings.SubscriptionUnrequested, findings.FrameRef{In: true, Method: wire.NotifyResourcesUpdated}, "resources/updated of %s on subscription %s, which did not ask for it", p.URI, id)
		return
	}
	s.emit(ResourceUpdated{Server: s.name, URI: p.URI})
}
