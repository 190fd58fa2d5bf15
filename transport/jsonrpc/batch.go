package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Part is one message of a frame, as DecodeFrame found it.
type Part struct {
	// Raw is the message's bytes: the whole frame, or one element of a
	// batch (a copy, which the caller may keep).
	Raw []byte
	// Msg is the message; nil when Err is set.
	Msg *Message
	// Err is the *DecodeError of a part that is no valid message.
	Err error
}

// DecodeFrame decodes one frame, which may be a batch: a JSON array of
// messages, which JSON-RPC 2.0 and MCP 2025-03-26 allow (MCP removed them in
// 2025-06-18, but a server may still send one, and a message in it that
// goes unread is a call that waits for ever). Each element is a Part of
// its own, in order, decoded as Decode does. A frame that is no batch is
// one Part, with Raw the frame itself. An empty batch is one Part with Err.
// A batch that breaks off yields the elements before the fault and one
// Part with Err for the rest, from which Decode salvages what it can (a
// response's id, so its call can end).
func DecodeFrame(b []byte) []Part {
	t := trimFrame(b)
	if len(t) == 0 || t[0] != '[' {
		m, err := Decode(b)
		return []Part{{Raw: b, Msg: m, Err: err}}
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	_, _ = dec.Token() // the '['
	var parts []Part
	rest := func(reason string) []Part {
		raw := bytes.TrimLeft(t[dec.InputOffset():], ", \t\r\n")
		_, err := Decode(raw)
		var de *DecodeError
		if errors.As(err, &de) && len(raw) > 0 && raw[0] == '{' {
			de.Reason = reason + ": " + de.Reason
		} else {
			err = &DecodeError{Reason: reason}
		}
		return append(parts, Part{Raw: bytes.Clone(raw), Err: err})
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return rest("batch broken off")
		}
		if len(raw) > 0 && raw[0] == '[' {
			parts = append(parts, Part{Raw: raw, Err: &DecodeError{Reason: "a batch inside a batch"}})
			continue
		}
		m, err := Decode(raw)
		parts = append(parts, Part{Raw: raw, Msg: m, Err: err})
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return rest("batch broken off")
	}
	if tail := bytes.TrimSpace(t[dec.InputOffset():]); len(tail) > 0 {
		parts = append(parts, Part{Raw: bytes.Clone(tail), Err: &DecodeError{Reason: "data after the batch"}})
	}
	if len(parts) == 0 {
		return []Part{{Raw: b, Err: &DecodeError{Reason: "empty batch"}}}
	}
	return parts
}
