package client

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// metaFields is what every 2026-07-28 request carries in params._meta:
// the version, our capabilities (the same on every request: servers must
// not remember them) and who we are.
func (s *Session) metaFields(version string) map[string]json.RawMessage {
	m := map[string]json.RawMessage{
		wire.MetaProtocolVersion:    wire.MustJSON(version),
		wire.MetaClientCapabilities: wire.MustJSON(s.offers.capabilities(version)),
		wire.MetaClientInfo:         wire.MustJSON(s.opts.ClientInfo),
	}
	s.mu.Lock()
	level := s.logLevel
	s.mu.Unlock()
	if level != "" {
		m[wire.MetaLogLevel] = wire.MustJSON(level)
	}
	return m
}

// modernError words the 2026-07-28 error codes for people, saying what
// elicit declared (elicit, and whether sampling is on). The result still
// unwraps to the *jsonrpc.Error, so callers can read the code.
func modernError(e *jsonrpc.Error, elicit ElicitModes, sampling bool) error {
	switch e.Code {
	case jsonrpc.CodeHeaderMismatch:
		return fmt.Errorf("the server says our HTTP headers do not match the request body (a proxy may have rewritten them): %w", e)
	case jsonrpc.CodeMissingRequiredClientCapability:
		caps := wire.RequiredCapabilities(e.Data)
		what := "a capability"
		if len(caps) > 0 {
			what = strings.Join(caps, ", ")
		}
		// What elicit declared of the capabilities named (all, when none is).
		var declared []string
		for _, c := range caps {
			switch {
			case strings.HasPrefix(c, "elicitation"):
				declared = append(declared, fmt.Sprintf("elicitation modes: %s", elicit))
			case strings.HasPrefix(c, "sampling") && !sampling:
				declared = append(declared, "sampling: off")
			}
		}
		if len(caps) == 0 {
			declared = append(declared, fmt.Sprintf("elicitation modes: %s", elicit))
		}
		note := ""
		if len(declared) > 0 {
			note = " (" + strings.Join(slices.Compact(declared), "; ") + ")"
		}
		return fmt.Errorf("the server requires client capability %s, which elicit did not declare%s: %w", what, note, e)
	case jsonrpc.CodeUnsupportedProtocolVersion:
		sup, req := wire.UnsupportedVersion(e.Data)
		return fmt.Errorf("the server does not speak protocol %s (it speaks %v; elicit speaks %v): %w",
			req, sup, wire.SupportedProtocols(), e)
	}
	return e
}
