package acp

import (
	"encoding/json"

	"github.com/elicit-dev/elicit/client/wire"
)

// AgentCapabilities is what the agent declared it supports, read from
// initialize's agentCapabilities by exact member names. A session
// capability counts when present and not null ({} is "supported").
type AgentCapabilities struct {
	LoadSession bool
	// Prompt content beyond text and resource links.
	Image, Audio, EmbeddedContext bool
	// sessionCapabilities.
	List, Resume, Close, Delete, AdditionalDirectories bool
	// auth.logout.
	Logout bool
}

// Capabilities is the agent's declared capabilities.
func (c *Client) Capabilities() AgentCapabilities { return c.caps }

// decodeCapabilities reads agentCapabilities; what is malformed counts
// as not declared (ACP: default on error).
func decodeCapabilities(raw json.RawMessage) AgentCapabilities {
	var a AgentCapabilities
	m, err := wire.ExactMembers(raw)
	if err != nil {
		return a
	}
	a.LoadSession = exactBool(m, "loadSession")
	if pm, err := wire.ExactMembers([]byte(m["promptCapabilities"])); err == nil {
		a.Image, a.Audio, a.EmbeddedContext = exactBool(pm, "image"), exactBool(pm, "audio"), exactBool(pm, "embeddedContext")
	}
	if sm, err := wire.ExactMembers([]byte(m["sessionCapabilities"])); err == nil {
		a.List, a.Resume, a.Close = present(sm, "list"), present(sm, "resume"), present(sm, "close")
		a.Delete, a.AdditionalDirectories = present(sm, "delete"), present(sm, "additionalDirectories")
	}
	if am, err := wire.ExactMembers([]byte(m["auth"])); err == nil {
		a.Logout = present(am, "logout")
	}
	return a
}

// exactBool is m[name] if it is a boolean; false otherwise.
func exactBool(m map[string]wire.RawRef, name string) bool {
	var b bool
	if raw, ok := m[name]; ok && json.Unmarshal([]byte(raw), &b) == nil {
		return b
	}
	return false
}

// present reports whether m[name] is an object: ACP's "supported"
// marker for an optional capability (absent or null is not).
func present(m map[string]wire.RawRef, name string) bool {
	raw, ok := m[name]
	if !ok {
		return false
	}
	_, err := wire.ExactMembers([]byte(raw))
	return err == nil && string(raw) != "null"
}
