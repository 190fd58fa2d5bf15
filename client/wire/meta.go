package wire

import (
	"encoding/json"
	"slices"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The _meta keys of the 2026-07-28 era.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// MetaRelatedTask is the _meta key tying a message to a task (2025-11-25).
const MetaRelatedTask = "io.modelcontextprotocol/related-task"

// RequiredCapabilities lists data.requiredCapabilities as dotted paths
// ("elicitation.url", "sampling"), sorted; malformed data lists nothing.
func RequiredCapabilities(data json.RawMessage) []string {
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

// UnsupportedVersion reads -32022's data: the versions the server speaks
// and the one it refused.
func UnsupportedVersion(data json.RawMessage) (supported []string, requested string) {
	var d struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	_ = json.Unmarshal(data, &d)
	return d.Supported, d.Requested
}

// IsModernCode reports whether code is one of 2026-07-28's own errors,
// which only a server of that era sends.
func IsModernCode(code int64) bool {
	switch code {
	case jsonrpc.CodeHeaderMismatch, jsonrpc.CodeMissingRequiredClientCapability, jsonrpc.CodeUnsupportedProtocolVersion:
		return true
	}
	return false
}
