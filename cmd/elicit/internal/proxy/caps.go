package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/client/wire"
)

// caps is what a client declares of the capabilities elicit can fill in.
type caps struct{ form, url, sampling, roots bool }

// minus is what c has and d has not.
func (c caps) minus(d caps) caps {
	return caps{form: c.form && !d.form, url: c.url && !d.url, sampling: c.sampling && !d.sampling, roots: c.roots && !d.roots}
}

func (c caps) none() bool { return c == caps{} }

func (c caps) or(d caps) caps {
	return caps{form: c.form || d.form, url: c.url || d.url, sampling: c.sampling || d.sampling, roots: c.roots || d.roots}
}

// readCaps reads a ClientCapabilities object by exact member names. An
// elicitation object with neither form nor url declares form (the
// 2025-06-18 shape, which 2025-11-25 keeps meaning form).
func readCaps(raw json.RawMessage) caps {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return caps{}
	}
	var c caps
	if e, ok := top["elicitation"]; ok && isObject(e) {
		var modes map[string]json.RawMessage
		_ = json.Unmarshal(e, &modes)
		_, c.form = modes["form"]
		_, c.url = modes["url"]
		if !c.form && !c.url {
			c.form = true
		}
	}
	_, c.sampling = top["sampling"]
	_, c.roots = top["roots"]
	return c
}

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

// addCaps is raw (a ClientCapabilities object, or nothing) with fill
// declared too; every member the host sent stays as it was. An
// elicitation object that declared form by being empty gets form said
// out loud when url is added, or it would come to mean url alone.
func addCaps(raw json.RawMessage, fill caps) (json.RawMessage, error) {
	top := map[string]json.RawMessage{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &top); err != nil {
			return nil, fmt.Errorf("capabilities: %w", err)
		}
	}
	if fill.form || fill.url {
		modes := map[string]json.RawMessage{}
		if e, ok := top["elicitation"]; ok {
			_ = json.Unmarshal(e, &modes) // not an object: replaced
		}
		had := readCaps(mustObject("elicitation", top["elicitation"]))
		if had.form {
			modes["form"] = emptyObject(modes["form"])
		}
		if fill.form {
			modes["form"] = json.RawMessage(`{}`)
		}
		if fill.url {
			modes["url"] = json.RawMessage(`{}`)
		}
		b, err := encode(modes)
		if err != nil {
			return nil, fmt.Errorf("capabilities.elicitation: %w", err)
		}
		top["elicitation"] = b
	}
	if fill.sampling {
		top["sampling"] = json.RawMessage(`{}`)
	}
	if fill.roots {
		top["roots"] = json.RawMessage(`{}`)
	}
	b, err := encode(top)
	if err != nil {
		return nil, fmt.Errorf("capabilities: %w", err)
	}
	return b, nil
}

// mustObject wraps one member back into an object, for readCaps.
func mustObject(name string, v json.RawMessage) json.RawMessage {
	if v == nil {
		return json.RawMessage(`{}`)
	}
	b, _ := encode(map[string]json.RawMessage{name: v}) // raw JSON already valid
	return b
}

// emptyObject is v, or {} when v is absent.
func emptyObject(v json.RawMessage) json.RawMessage {
	if v == nil {
		return json.RawMessage(`{}`)
	}
	return v
}

// withMember is the object raw with member name set to v (raw's other
// members as they were).
func withMember(raw json.RawMessage, name string, v json.RawMessage) (json.RawMessage, error) {
	top := map[string]json.RawMessage{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &top); err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
	}
	top[name] = v
	b, err := encode(top)
	if err != nil {
		return nil, fmt.Errorf("params: %w", err)
	}
	return b, nil
}

// member is raw's member name (nil when absent or raw is no object).
func member(raw json.RawMessage, name string) json.RawMessage {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil
	}
	return top[name]
}

// initializeCaps is the capabilities of an initialize's params.
func initializeCaps(params json.RawMessage) caps { return readCaps(member(params, "capabilities")) }

// fillInitialize is initialize's params with fill declared in the
// capabilities; nothing else changes.
func fillInitialize(params json.RawMessage, fill caps) (json.RawMessage, error) {
	c, err := addCaps(member(params, "capabilities"), fill)
	if err != nil {
		return nil, err
	}
	return withMember(params, "capabilities", c)
}

// modernMeta is a 2026-07-28 request's _meta, or nil when the request is
// not of that era (it names no protocol version there).
func modernMeta(params json.RawMessage) json.RawMessage {
	meta := member(params, "_meta")
	if member(meta, wire.MetaProtocolVersion) == nil {
		return nil
	}
	return meta
}

// fillModern is a 2026-07-28 request's params with fill declared in its
// _meta clientCapabilities.
func fillModern(params json.RawMessage, fill caps) (json.RawMessage, error) {
	meta := member(params, "_meta")
	c, err := addCaps(member(meta, wire.MetaClientCapabilities), fill)
	if err != nil {
		return nil, err
	}
	meta, err = withMember(meta, wire.MetaClientCapabilities, c)
	if err != nil {
		return nil, err
	}
	return withMember(params, "_meta", meta)
}

// encode is json.Marshal without HTML escaping: what the host or server
// sent (a requestState above all, echoed exactly) goes on as it came.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
