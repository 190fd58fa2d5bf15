package wire

import (
	"encoding/json"
	"slices"
)

// Implementation names a client or server, as in initialize.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Title   string `json:"title,omitempty"`
	// 2025-11-25: what the implementation says of itself. elicit shows
	// these as text; it never fetches an icon or follows a URL. Icons are
	// kept as sent, as a Tool's are: a malformed icon must not fail the
	// handshake.
	Description string          `json:"description,omitempty"`
	WebsiteURL  string          `json:"websiteUrl,omitempty"`
	Icons       json.RawMessage `json:"icons,omitempty"`
}

// Protocol versions the session speaks. 2026-07-28 is the stateless era
// (no handshake, MRTR); the others are the stateful era (initialize).
const (
	Protocol2026_07_28 = "2026-07-28"
	Protocol2025_11_25 = "2025-11-25"
	Protocol2025_06_18 = "2025-06-18"
	Protocol2025_03_26 = "2025-03-26"
	Protocol2024_11_05 = "2024-11-05"
)

// SupportedProtocols lists the versions a Session speaks, newest first.
func SupportedProtocols() []string {
	return []string{Protocol2026_07_28, Protocol2025_11_25, Protocol2025_06_18, Protocol2025_03_26, Protocol2024_11_05}
}

// IsSupported reports whether v is a version elicit speaks.
func IsSupported(v string) bool { return slices.Contains(SupportedProtocols(), v) }

// Stateless reports whether v is of the 2026-07-28 era.
func Stateless(v string) bool { return v >= Protocol2026_07_28 }

// Stateful reports whether v is a version initialize may settle.
func Stateful(v string) bool { return IsSupported(v) && !Stateless(v) }
