package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// httpStatelessVersion is the first protocol version whose Streamable HTTP
// is stateless: POST only, per-request metadata headers, no sessions, no GET
// stream, no resumption, cancel by closing the response stream.
const httpStatelessVersion = "2026-07-28"

// httpIsStateless reports whether version v follows the stateless rules.
// Versions are dates, so they compare as strings (go-sdk does the same).
func httpIsStateless(v string) bool { return v >= httpStatelessVersion }

// httpPlan is how one message is sent: which era's rules, and the session
// and version headers.
type httpPlan struct {
	modern  bool   // 2026-07-28 rules
	sid     string // Mcp-Session-Id, stateful only
	version string // MCP-Protocol-Version
	name    string // Mcp-Name, modern requests of the methods that have one
	hasName bool
}

// httpPeek is what Write reads of a message's params: the _meta protocol
// version (2026-07-28 requests carry it) and the Mcp-Name sources.
type httpPeek struct {
	Meta struct {
		ProtocolVersion json.RawMessage `json:"io.modelcontextprotocol/protocolVersion"`
	} `json:"_meta"`
	Name   json.RawMessage `json:"name"`
	URI    json.RawMessage `json:"uri"`
	TaskID json.RawMessage `json:"taskId"`
}

// httpPeekParams reads the params' _meta version and the Mcp-Name value
// for method. Anything missing or of the wrong type reads as absent: the
// server, not the transport, judges the request.
func httpPeekParams(method string, params json.RawMessage) (version, name string, hasName bool) {
	if len(params) == 0 || params[0] != '{' {
		return "", "", false
	}
	switch method {
	case "tools/call", "prompts/get", "resources/read", "tasks/get", "tasks/update", "tasks/cancel":
	default:
		if !bytes.Contains(params, []byte(`"io.modelcontextprotocol/protocolVersion"`)) {
			return "", "", false // nothing to read: skip parsing large params
		}
	}
	var p httpPeek
	// A type mismatch in one field still fills the others.
	_ = json.Unmarshal(params, &p)
	str := func(raw json.RawMessage) (string, bool) {
		var s string
		if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return s, true
	}
	version, _ = str(p.Meta.ProtocolVersion)
	switch method {
	case "tools/call", "prompts/get":
		name, hasName = str(p.Name)
	case "resources/read":
		name, hasName = str(p.URI)
	case "tasks/get", "tasks/update", "tasks/cancel":
		name, hasName = str(p.TaskID)
	}
	return version, name, hasName
}

// planLocked decides how m is sent. initialize is always stateful (the
// modern era has none) and carries no session or version. Otherwise a
// request whose _meta names a 2026-07-28+ version is sent the modern way
// with that version as MCP-Protocol-Version, which the spec requires to
// match (so the era probe works before SetProtocolVersion); anything else
// follows the version set by SetProtocolVersion. c.mu must be held.
func (c *httpConn) planLocked(m *jsonrpc.Message) (httpPlan, error) {
	if m.Method == "initialize" {
		return httpPlan{}, nil
	}
	p := httpPlan{sid: c.sessionID, version: c.version}
	var metaVersion string
	if m.Method != "" {
		metaVersion, p.name, p.hasName = httpPeekParams(m.Method, m.Params)
	}
	switch {
	case httpIsStateless(metaVersion):
		p.modern, p.version = true, metaVersion
	case httpIsStateless(c.version):
		p.modern = true
	}
	if !p.modern {
		p.name, p.hasName = "", false
		return p, nil
	}
	p.sid = ""
	if m.Kind() == jsonrpc.KindResponse {
		return p, fmt.Errorf("protocol %s has no client-to-server responses (the server sends no requests)", p.version)
	}
	return p, nil
}

// httpMessageHeaders checks and encodes a message's extra headers
// (WriteOptions.Headers). A bad name is the caller's bug or a hostile
// schema; it fails the Write rather than reaching the wire.
func httpMessageHeaders(opts *WriteOptions) (http.Header, error) {
	if opts == nil || len(opts.Headers) == 0 {
		return nil, nil
	}
	h := make(http.Header, len(opts.Headers))
	for k, v := range opts.Headers {
		if !ValidHeaderName(k) {
			return nil, fmt.Errorf("message header name %s is not an HTTP token", httpExcerpt([]byte(k), 60))
		}
		h.Set(k, httpHeaderValue(v))
	}
	return h, nil
}

// setModernHeaders adds the 2026-07-28 request metadata headers: the
// method, and the name for the methods that have one.
func setModernHeaders(req *http.Request, m *jsonrpc.Message, p httpPlan) {
	if !p.modern {
		return
	}
	req.Header.Set(hdrMethod, m.Method)
	if p.hasName {
		req.Header.Set(hdrName, httpHeaderValue(p.name))
	}
}

// httpBodyError reads a 4xx body that is a JSON-RPC error response to
// request id: its id is id, or absent or null (the spec lets a server omit
// it). Anything else returns nil, and the caller reports a StatusError.
func httpBodyError(body []byte, id jsonrpc.ID) *jsonrpc.Error {
	body = bytes.TrimPrefix(bytes.TrimSpace(body), []byte(utf8BOM))
	if len(body) == 0 || body[0] != '{' {
		return nil
	}
	var w struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
		Method  json.RawMessage `json:"method"`
		Result  json.RawMessage `json:"result"`
	}
	if json.Unmarshal(body, &w) != nil || w.JSONRPC != jsonrpc.Version || w.Error == nil || w.Method != nil || w.Result != nil {
		return nil
	}
	if len(w.ID) > 0 && !bytes.Equal(w.ID, []byte("null")) {
		var got jsonrpc.ID
		if got.UnmarshalJSON(w.ID) != nil {
			return nil
		}
		if got, ok := got.Canonical(); !ok || got != id {
			return nil
		}
	}
	return w.Error
}
