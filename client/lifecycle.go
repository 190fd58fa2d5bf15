package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/client/question"
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

// offered is the version we put in initialize.
func (s *Session) offered() string {
	if s.opts.Protocol != "" {
		return s.opts.Protocol
	}
	return wire.Protocol2025_11_25
}

// initialize runs the handshake: initialize, version check, the HTTP
// version header, notifications/initialized. It is never cancelled on the
// wire (the spec forbids cancelling initialize); when ctx ends, the caller
// gives up on the connection instead.
func (s *Session) initialize(ctx context.Context) error {
	var res initializeResult
	c := &call{method: wire.MethodInitialize}
	params := initializeParams{ProtocolVersion: s.offered(), Capabilities: s.offers.capabilities(s.offered()), ClientInfo: s.opts.ClientInfo}
	if err := s.do(ctx, c, params, &res); err != nil {
		return err
	}
	v := res.ProtocolVersion
	switch {
	case s.opts.Protocol != "" && v != s.opts.Protocol:
		return fmt.Errorf("server answered protocol version %q, but %q was pinned", v, s.opts.Protocol)
	case !wire.Stateful(v):
		return fmt.Errorf("server answered protocol version %q, which elicit does not speak over initialize (it speaks %v)", v, wire.SupportedProtocols()[1:])
	}
	s.setVersion(v)
	s.mu.Lock()
	kind := eraStateful
	if s.legacySSE {
		kind = eraLegacySSE
	}
	s.neg = negotiated{
		protocol:     v,
		kind:         kind,
		serverInfo:   res.ServerInfo,
		caps:         parseServerCapabilities(res.Capabilities),
		instructions: res.Instructions,
	}
	s.gen++
	s.mu.Unlock()
	s.lint.InitSent() // the server may speak freely from here (client/lint)
	n, err := jsonrpc.NewNotification(wire.NotifyInitialized, nil)
	if err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	if err := s.send(ctx, s.wire(), n); err != nil {
		return fmt.Errorf("notifications/initialized on %s: %w", s.name, err)
	}
	s.log.Info("initialized", "protocol", v, "serverName", res.ServerInfo.Name, "serverVersion", res.ServerInfo.Version)
	return nil
}

// reinitialize runs initialize again after the server forgot our session;
// gen is the generation the failed request was sent under, so that when
// several requests fail at once only the first re-initializes.
func (s *Session) reinitialize(ctx context.Context, gen int) error {
	s.initMu.Lock()
	defer s.initMu.Unlock()
	s.mu.Lock()
	current := s.gen
	s.mu.Unlock()
	if current != gen {
		return nil // someone else already did
	}
	s.notice("the server forgot our session (HTTP 404); initializing again")
	if err := s.initialize(ctx); err != nil {
		return err
	}
	// Requests of the forgotten server session can no longer be answered:
	// their prompts end as if disconnected, and nothing is sent for them.
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.in {
		if e.gen <= gen {
			e.cancel(question.ErrDisconnected)
		}
	}
	s.receiver.endLocked(func(t *rtask) bool { return t.gen <= gen }, question.ErrDisconnected)
	return nil
}
