package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// eraKind is how a session speaks to its server.
type eraKind int

const (
	eraUnknown   eraKind = iota
	eraStateless         // 2026-07-28: no handshake, _meta on every request
	eraStateful          // initialize, on stdio or Streamable HTTP
	eraLegacySSE         // initialize over the 2024-11-05 HTTP+SSE transport
)

// eraLabel is the short label the status line shows.
func eraLabel(kind eraKind, protocol string) string {
	switch kind {
	case eraStateless:
		return protocol + " stateless"
	case eraLegacySSE:
		return protocol + " legacy SSE"
	case eraStateful:
		return protocol + " stateful"
	default:
		return ""
	}
}

// probeTimeout bounds the server/discover probe. A stateful server may
// never answer a method it does not know before initialize; after this
// long we take the silence for "not 2026-07-28" and fall back.
const probeTimeout = 5 * time.Second

// errProbeTimeout is the probe's context cause when probeTimeout ran out.
var errProbeTimeout = errors.New("server/discover got no answer in time")

// probeVerdict is what the server/discover probe concluded.
type probeVerdict int

const (
	probeModern   probeVerdict = iota // 2026-07-28 settled
	probeFallback                     // not a 2026-07-28 server: initialize
	probeFatal                        // a 2026-07-28 server we cannot use, or the connection is gone
)

// handshake settles how a session speaks to its server (establish, in
// Connect) and initializes again when a stateful server forgot us
// (reinitialize). What it settles goes to the session through its handle;
// it keeps nothing of its own.
type handshake struct {
	h handshakeHandle
}

// handshakeHandle is what the handshake needs of its session, built once
// in newSession (handshakeOf).
type handshakeHandle struct {
	name   string
	pin    string  // Options.Protocol
	hint   eraKind // Options.hint: a Manager's memory of the era
	client wire.Implementation
	log    *slog.Logger
	peer   *mcpPeer
	life   *life
	do     func(ctx context.Context, c *call, params, result any) error
	notice func(format string, args ...any)
	// caps and meta are what we declare in version: initialize's
	// capabilities, 2026-07-28's _meta.
	caps func(version string) map[string]any
	meta func(version string) map[string]json.RawMessage
	// settle records what initialize or server/discover settled; legacy
	// says the connection is the HTTP+SSE fallback.
	settle func(negotiated)
	legacy func() bool
	// redial makes conn the session's connection (legacy SSE): it
	// retires the old one and its read loop quietly and reads conn.
	redial func(conn transport.Conn, legacy bool) error
	// initSent: the server may speak freely from here (client/lint).
	initSent func()
	// forgotten ends what was open under the server session it forgot
	// (initialize generation gen and before).
	forgotten func(gen int)
}

// establish settles the era on a connected session: a pin decides it, a
// Manager's memory may skip the probe, and otherwise server/discover
// probes for 2026-07-28 and anything but a result or a modern error falls
// back to initialize (and, on HTTP, a refused initialize to legacy SSE).
func (hs *handshake) establish(ctx context.Context, t transport.Transport) error {
	pin := hs.h.pin
	switch {
	case pin != "" && wire.Stateless(pin):
		setVersion(hs.h.peer, pin)
		v, err := hs.discover(ctx, pin)
		if err != nil {
			return fmt.Errorf("%s was pinned: %w", pin, err)
		}
		if v != pin {
			return fmt.Errorf("the server speaks %s, but %s was pinned", v, pin)
		}
		return nil
	case pin != "", hs.h.hint == eraStateful:
		return hs.initializeOrSSE(ctx, t)
	case hs.h.hint == eraLegacySSE:
		if sse := legacySSE(t); sse != nil {
			if err := hs.swap(ctx, sse, true); err != nil {
				return err
			}
			return hs.initialize(ctx)
		}
		return hs.initializeOrSSE(ctx, t)
	}
	// The probe goes out before any SetProtocolVersion: HTTP takes the
	// era of a request from its _meta version, and a fallback continues
	// on the same connection.
	verdict, err := hs.probe(ctx)
	switch verdict {
	case probeModern:
		return nil
	case probeFatal:
		return err
	}
	hs.h.log.Info("not a 2026-07-28 server; falling back to initialize", "why", err)
	return hs.initializeOrSSE(ctx, t)
}

// setVersion tells an HTTP connection the version to put in its headers
// (from 2026-07-28 on, this also makes it POST-only and stateless).
func setVersion(p *mcpPeer, v string) {
	if vs, ok := p.Conn().(transport.VersionSetter); ok {
		vs.SetProtocolVersion(v)
	}
}

// probe runs server/discover for era detection and judges the answer.
func (hs *handshake) probe(ctx context.Context) (probeVerdict, error) {
	pctx, cancel := patientTimeout(ctx, probeTimeout, errProbeTimeout, waitingOn(hs.h.peer))
	defer cancel()
	v, err := hs.discover(pctx, wire.Protocol2026_07_28)
	switch {
	case err == nil && wire.Stateless(v):
		return probeModern, nil
	case err == nil:
		return probeFallback, fmt.Errorf("server/discover lists only stateful versions")
	case ctx.Err() != nil:
		return probeFatal, err // it names server/discover, and wraps the cause
	}
	if hs.h.life.error() != nil || authorizationFailed(err) {
		return probeFatal, err
	}
	rpcErr := probeError(err)
	if rpcErr == nil || !wire.IsModernCode(rpcErr.Code) {
		return probeFallback, err
	}
	if rpcErr.Code == jsonrpc.CodeUnsupportedProtocolVersion {
		// A server of this era that does not speak our version: if what
		// it speaks is stateful, initialize negotiates one of those.
		sup, _ := wire.UnsupportedVersion(rpcErr.Data)
		if best(sup, wire.Stateful) != "" {
			return probeFallback, err
		}
	}
	return probeFatal, err
}

// authorizationFailed reports an error from an HTTP client's authorization
// (transport/oauth marks its errors so): the server answered, and asked
// for credentials that could not be had. Falling back to initialize would
// only run the same authorization again.
func authorizationFailed(err error) bool {
	var af interface{ AuthorizationFailed() bool }
	return errors.As(err, &af) && af.AuthorizationFailed()
}

// probeError finds the JSON-RPC error in a failed probe: an error response,
// or on HTTP a refused POST whose body is one.
func probeError(err error) *jsonrpc.Error {
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return rpcErr
	}
	var se *transport.StatusError
	if errors.As(err, &se) {
		if m, derr := jsonrpc.Decode(se.Body); derr == nil && m.Error != nil {
			return m.Error
		}
	}
	return nil
}

// best is the newest version of ours in theirs that ok accepts, "" if none.
func best(theirs []string, ok func(string) bool) string {
	for _, v := range wire.SupportedProtocols() {
		if !ok(v) {
			continue
		}
		for _, t := range theirs {
			if t == v {
				return v
			}
		}
	}
	return ""
}

// discoverResult is server/discover's result.
type discoverResult struct {
	SupportedVersions []string                   `json:"supportedVersions"`
	Capabilities      json.RawMessage            `json:"capabilities"`
	Instructions      string                     `json:"instructions"`
	Meta              map[string]json.RawMessage `json:"_meta"`
}

// discover sends server/discover offering version and, when the server
// answers, adopts the stateless era with the newest common version, which
// it returns. A -32022 naming a stateless version we speak is tried once
// more with the newest of them (the same one included).
func (hs *handshake) discover(ctx context.Context, version string) (string, error) {
	for attempt := 0; ; attempt++ {
		var res discoverResult
		// Never cancelled on the wire: the era, and so how to cancel, is
		// not known yet; a late answer is just dropped.
		c := &call{method: wire.MethodDiscover, noCancel: true}
		params := wire.Object(map[string]json.RawMessage{"_meta": wire.Object(hs.h.meta(version))})
		err := hs.h.do(ctx, c, params, &res)
		if err != nil {
			var rpcErr *jsonrpc.Error
			if attempt == 0 && errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeUnsupportedProtocolVersion {
				sup, _ := wire.UnsupportedVersion(rpcErr.Data)
				// Retried once with the newest version of its list that we
				// speak, even the one just sent: a server may refuse the
				// first request and take the same version again (the
				// conformance suite's request-metadata does exactly that).
				if v := best(sup, wire.Stateless); v != "" {
					if v == version {
						hs.h.notice("the server refused %s but lists it; trying it once more", version)
					} else {
						hs.h.notice("the server does not speak %s; trying %s", version, v)
					}
					version = v
					continue
				}
			}
			return "", err
		}
		if len(res.SupportedVersions) == 0 {
			// A DiscoverResult must list supportedVersions. An empty result
			// comes from stateful servers that answer any method with {}
			// (the conformance suite's test servers do): not this era.
			return "", errDiscoverEmpty
		}
		v := best(res.SupportedVersions, func(string) bool { return true })
		if v == "" {
			return "", fmt.Errorf("server/discover: the server speaks %v, elicit speaks %v", res.SupportedVersions, wire.SupportedProtocols())
		}
		if !wire.Stateless(v) {
			return v, nil
		}
		// Right after the era is known, before anything else goes out:
		// it makes HTTP POST-only and stateless.
		setVersion(hs.h.peer, v)
		var info wire.Implementation
		if raw, ok := res.Meta[wire.MetaServerInfo]; ok {
			_ = json.Unmarshal(raw, &info)
		}
		hs.h.settle(negotiated{
			protocol:     v,
			kind:         eraStateless,
			serverInfo:   info,
			caps:         parseServerCapabilities(res.Capabilities),
			instructions: res.Instructions,
		})
		hs.h.log.Info("stateless", "protocol", v, "serverName", info.Name, "serverVersion", info.Version)
		return v, nil
	}
}

// errDiscoverEmpty: server/discover answered a result without
// supportedVersions, which no 2026-07-28 server does.
var errDiscoverEmpty = errors.New("server/discover: the result lists no supportedVersions, so this is not a 2026-07-28 server")

// initializeOrSSE runs initialize; on HTTP, a POST initialize refused with
// 400, 404 or 405 means a server of the 2024-11-05 HTTP+SSE transport, so
// it tries again over that.
func (hs *handshake) initializeOrSSE(ctx context.Context, t transport.Transport) error {
	err := hs.initialize(ctx)
	var se *transport.StatusError
	if err == nil || !errors.As(err, &se) || se.Method != http.MethodPost {
		return err
	}
	switch se.StatusCode {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
	default:
		return err
	}
	sse := legacySSE(t)
	if sse == nil {
		return err
	}
	hs.h.notice("POST initialize was refused with HTTP %d; trying the legacy HTTP+SSE transport", se.StatusCode)
	if serr := hs.swap(ctx, sse, true); serr != nil {
		return fmt.Errorf("%w (and legacy HTTP+SSE: %w)", err, serr)
	}
	if serr := hs.initialize(ctx); serr != nil {
		return fmt.Errorf("%w (and legacy HTTP+SSE: %w)", err, serr)
	}
	return nil
}

// swap replaces the connection during Connect (legacy SSE): it dials t,
// and the session retires the old connection and its read loop quietly,
// and reads the new one (handshakeHandle.redial). Nothing of ours is
// outstanding on the old connection by then.
func (hs *handshake) swap(ctx context.Context, t transport.Transport, legacy bool) error {
	conn, err := t.Dial(ctx)
	if err != nil {
		return fmt.Errorf("dial again: %w", err)
	}
	return hs.h.redial(conn, legacy)
}
