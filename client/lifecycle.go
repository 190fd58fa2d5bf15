package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// initializeParams is what we send in initialize.
type initializeParams struct {
	ProtocolVersion string              `json:"protocolVersion"`
	Capabilities    map[string]any      `json:"capabilities"`
	ClientInfo      wire.Implementation `json:"clientInfo"`
}

type initializeResult struct {
	ProtocolVersion string              `json:"protocolVersion"`
	Capabilities    json.RawMessage     `json:"capabilities"`
	ServerInfo      wire.Implementation `json:"serverInfo"`
	Instructions    string              `json:"instructions"`
}

// offered is the version we put in initialize: the pinned one, else
// 2025-11-25.
func offered(pin string) string {
	if pin != "" {
		return pin
	}
	return wire.Protocol2025_11_25
}

// initialize runs the handshake: initialize, version check, the HTTP
// version header, notifications/initialized. It is never cancelled on the
// wire (the spec forbids cancelling initialize); when ctx ends, the caller
// gives up on the connection instead.
func (hs *handshake) initialize(ctx context.Context) error {
	var res initializeResult
	c := &call{method: wire.MethodInitialize}
	v := offered(hs.h.pin)
	params := initializeParams{ProtocolVersion: v, Capabilities: hs.h.caps(v), ClientInfo: hs.h.client}
	if err := hs.h.do(ctx, c, params, &res); err != nil {
		return err
	}
	v = res.ProtocolVersion
	switch {
	case hs.h.pin != "" && v != hs.h.pin:
		return fmt.Errorf("server answered protocol version %q, but %q was pinned", v, hs.h.pin)
	case !wire.Stateful(v):
		return fmt.Errorf("server answered protocol version %q, which elicit does not speak over initialize (it speaks %v)", v, wire.SupportedProtocols()[1:])
	}
	setVersion(hs.h.peer, v)
	kind := eraStateful
	if hs.h.legacy() {
		kind = eraLegacySSE
	}
	hs.h.settle(negotiated{
		protocol:     v,
		kind:         kind,
		serverInfo:   res.ServerInfo,
		caps:         parseServerCapabilities(res.Capabilities),
		instructions: res.Instructions,
	})
	hs.h.life.initialized()
	hs.h.initSent() // the server may speak freely from here (client/lint)
	n, err := jsonrpc.NewNotification(wire.NotifyInitialized, nil)
	if err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	if err := hs.h.peer.WriteContext(ctx, n); err != nil {
		return fmt.Errorf("notifications/initialized on %s: %w", hs.h.name, err)
	}
	hs.h.log.Info("initialized", "protocol", v, "serverName", res.ServerInfo.Name, "serverVersion", res.ServerInfo.Version)
	return nil
}

// reinitialize runs initialize again after the server forgot our session;
// gen is the generation the failed request was sent under, so that when
// several requests fail at once only the first re-initializes. Requests of
// the forgotten server session can no longer be answered: their prompts
// end as if disconnected, and nothing is sent for them (forgotten).
func (hs *handshake) reinitialize(ctx context.Context, gen int) error {
	ran, err := hs.h.life.reinitialize(gen, func() error {
		hs.h.notice("the server forgot our session (HTTP 404); initializing again")
		return hs.initialize(ctx)
	})
	if ran && err == nil {
		hs.h.forgotten(gen)
	}
	return err
}
