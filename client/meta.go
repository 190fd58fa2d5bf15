package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The _meta keys of the 2026-07-28 era.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// metaFields is what every 2026-07-28 request carries in params._meta:
// the version, our capabilities (the same on every request: servers must
// not remember them) and who we are.
func (s *Session) metaFields(version string) map[string]json.RawMessage {
	m := map[string]json.RawMessage{
		wire.MetaProtocolVersion:    wire.MustJSON(version),
		wire.MetaClientCapabilities: wire.MustJSON(s.modernCapabilities()),
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

// modernCapabilities is clientCapabilities for 2026-07-28: elicitation in
// the modes of Options.Elicit and the tasks extension, nothing else (no
// sampling, no roots).
func (s *Session) modernCapabilities() map[string]any {
	caps := map[string]any{}
	el := map[string]any{}
	if s.opts.Elicit.form() {
		el["form"] = struct{}{}
	}
	if s.opts.Elicit.url() {
		el["url"] = struct{}{}
	}
	if len(el) > 0 {
		caps["elicitation"] = el
	}
	// The tasks extension (tasks*.go), on every request, tasks/* included.
	caps["extensions"] = map[string]any{extTasks: struct{}{}}
	return caps
}

// mustJSON marshals values we built ourselves, which cannot fail.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("client: marshal %T: %v", v, err))
	}
	return b
}

// members splits a params object into its members, each kept as the exact
// bytes it arrived as. Empty or null params are an empty object.
func members(params json.RawMessage) (map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if t := bytes.TrimSpace(params); len(t) == 0 || string(t) == "null" {
		return m, nil
	}
	if err := json.Unmarshal(params, &m); err != nil {
		return nil, fmt.Errorf("params must be a JSON object: %w", err)
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	return m, nil
}

// object writes members back as one JSON object, keys sorted, values
// copied byte for byte: nothing in a value (requestState above all) is
// parsed or re-encoded on the way.
func object(m map[string]json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(wire.MustJSON(k))
		b.WriteByte(':')
		b.Write(m[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// withMeta returns params with our _meta fields merged into the caller's
// _meta (progressToken and the like survive; our keys win).
func withMeta(params json.RawMessage, fields map[string]json.RawMessage) (json.RawMessage, error) {
	top, err := wire.Members(params)
	if err != nil {
		return nil, err
	}
	meta, err := wire.Members(top["_meta"])
	if err != nil {
		return nil, fmt.Errorf("_meta: %w", err)
	}
	maps.Copy(meta, fields)
	top["_meta"] = wire.Object(meta)
	return wire.Object(top), nil
}

// resultType reads a 2026-07-28 result's resultType; absent means
// "complete" (an older server, or a result that predates the field).
func resultType(result json.RawMessage) string {
	var r struct {
		ResultType *string `json:"resultType"`
	}
	if wire.DecodeExact(result, &r) != nil || r.ResultType == nil { // "ResultType" is not resultType
		return "complete"
	}
	return *r.ResultType
}

// modernError words the 2026-07-28 error codes for people. The result
// still unwraps to the *jsonrpc.Error, so callers can read the code.
func (s *Session) modernError(e *jsonrpc.Error) error {
	switch e.Code {
	case jsonrpc.CodeHeaderMismatch:
		return fmt.Errorf("the server says our HTTP headers do not match the request body (a proxy may have rewritten them): %w", e)
	case jsonrpc.CodeMissingRequiredClientCapability:
		caps := wire.RequiredCapabilities(e.Data)
		what := "a capability"
		if len(caps) > 0 {
			what = strings.Join(caps, ", ")
		}
		return fmt.Errorf("the server requires client capability %s, which elicit did not declare (elicitation modes: %s): %w",
			what, s.opts.Elicit, e)
	case jsonrpc.CodeUnsupportedProtocolVersion:
		sup, req := wire.UnsupportedVersion(e.Data)
		return fmt.Errorf("the server does not speak protocol %s (it speaks %v; elicit speaks %v): %w",
			req, sup, wire.SupportedProtocols(), e)
	}
	return e
}

// requiredCapabilities lists data.requiredCapabilities as dotted paths
// ("elicitation.url", "sampling"), sorted; malformed data lists nothing.
func requiredCapabilities(data json.RawMessage) []string {
	var d struct {
		Required map[string]json.RawMessage `json:"requiredCapabilities"`
	}
	if json.Unmarshal(data, &d) != nil {
		return nil
	}
	var out []string
	for k, v := range d.Required {
		var sub map[string]json.RawMessage
		if json.Unmarshal(v, &sub) == nil && len(sub) > 0 {
			for sk := range sub {
				out = append(out, k+"."+sk)
			}
			continue
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// unsupportedVersion reads -32022's data: the versions the server speaks
// and the one it refused.
func unsupportedVersion(data json.RawMessage) (supported []string, requested string) {
	var d struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	_ = json.Unmarshal(data, &d)
	return d.Supported, d.Requested
}

// isModernCode reports whether code is one of 2026-07-28's own errors,
// which only a server of that era sends.
func isModernCode(code int64) bool {
	switch code {
	case jsonrpc.CodeHeaderMismatch, jsonrpc.CodeMissingRequiredClientCapability, jsonrpc.CodeUnsupportedProtocolVersion:
		return true
	}
	return false
}
