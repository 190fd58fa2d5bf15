package acp

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// What is kept of an agent's updates. An agent may stream without end,
// and a hostile one sent 20 plans growing to 100,000 entries (124 MB of
// output, 800 MB held): every update is decoded and handed on
// (OnUpdate), but what a TurnResult keeps is bounded, and says what it
// did not keep. The most a turn keeps is about MaxTextBytes twice,
// MaxKeptUpdates+5 updates and MaxToolCalls tool calls of four fields,
// each at most MaxKeptUpdateBytes: about 82 MiB, against one frame's
// 64 MiB (transport.DefaultLineLimit) read at a time.
const (
	// MaxKeptUpdateBytes bounds one update a TurnResult keeps, and each
	// raw field of a tool call: a larger plan or command list keeps its
	// first entries that fit, anything else its kind alone (Update.Cut
	// says so).
	MaxKeptUpdateBytes = 64 << 10
	// MaxEntries bounds the entries of one plan or command list decoded;
	// MaxEntryBytes the text of one entry (cut, marked with "…").
	MaxEntries    = 1000
	MaxEntryBytes = 1024
	// MaxTextBytes bounds the message and the thought a turn keeps, each.
	MaxTextBytes = 1 << 20
	// MaxKeptUpdates bounds the updates a turn keeps of kinds that do not
	// replace the one before (unknown kinds, session_info_update…).
	MaxKeptUpdates = 256
	// MaxToolCalls bounds the tool calls a turn keeps.
	MaxToolCalls = 256
)

// replaces reports whether an update of kind stands for every earlier
// one of its kind: a plan is the whole plan (ACP), a command list the
// whole list, a mode, usage or config options the current ones.
func replaces(kind string) bool {
	switch kind {
	case UpdatePlan, UpdateCommands, UpdateMode, UpdateUsage, UpdateConfigOptions:
		return true
	}
	return false
}

// cutEntry cuts an entry's text to MaxEntryBytes (at a rune boundary,
// marked with "…").
func cutEntry(s string) string {
	if len(s) <= MaxEntryBytes {
		return s
	}
	n := MaxEntryBytes - len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// firstEntries keeps at most MaxEntries of entries, each cut by cut, in
// a new slice (the decoded array, as large as the frame, is not held).
func firstEntries[T any](entries []T, cut func(*T)) []T {
	out := make([]T, min(len(entries), MaxEntries))
	copy(out, entries)
	for i := range out {
		cut(&out[i])
	}
	return out
}

// keptUpdate is what a TurnResult keeps of u: its own copy of the JSON
// (not the frame's), at most MaxKeptUpdateBytes of it.
func keptUpdate(u Update) Update {
	// A list cut when decoded is kept as decoded, so that the JSON and
	// the cut agree.
	list := u.Known && (u.Kind == UpdatePlan || u.Kind == UpdateCommands)
	if len(u.Raw) <= MaxKeptUpdateBytes && (!list || u.Cut == "") {
		u.Raw = append(json.RawMessage(nil), u.Raw...)
		return u
	}
	switch {
	case list && u.Kind == UpdatePlan:
		u.Plan = fitting(u.Plan)
		u.Raw, _ = json.Marshal(map[string]any{"sessionUpdate": u.Kind, "entries": u.Plan})
		u.Cut = fmt.Sprintf("%d of %d entries kept (an update kept is at most %d bytes)", len(u.Plan), u.entries, MaxKeptUpdateBytes)
	case list:
		u.Commands = fitting(u.Commands)
		u.Raw, _ = json.Marshal(map[string]any{"sessionUpdate": u.Kind, "availableCommands": u.Commands})
		u.Cut = fmt.Sprintf("%d of %d commands kept (an update kept is at most %d bytes)", len(u.Commands), u.entries, MaxKeptUpdateBytes)
	default:
		u.Cut = fmt.Sprintf("%d bytes not kept (an update kept is at most %d bytes)", len(u.Raw), MaxKeptUpdateBytes)
		u.Raw, _ = json.Marshal(map[string]string{"sessionUpdate": u.Kind})
		u.Content, u.ToolCall, u.Plan, u.Commands, u.Usage = nil, nil, nil, nil, nil
		u.ConfigOptions, u.Notice, u.Compaction = nil, nil, nil
	}
	return u
}

// fitting is the first entries whose JSON fits in MaxKeptUpdateBytes
// (less room for the update around them).
func fitting[T any](entries []T) []T {
	room := MaxKeptUpdateBytes - 128
	for i, e := range entries {
		b, _ := json.Marshal(e)
		room -= len(b) + 1
		if room < 0 {
			return entries[:i:i]
		}
	}
	return entries
}

// keptRaw keeps a tool call's raw field whole up to MaxKeptUpdateBytes,
// else says how large it was: half a JSON value cannot be shown.
func keptRaw(b json.RawMessage) json.RawMessage {
	if len(b) <= MaxKeptUpdateBytes {
		return append(json.RawMessage(nil), b...)
	}
	s, _ := json.Marshal(fmt.Sprintf("(%d bytes; not kept: more than %d)", len(b), MaxKeptUpdateBytes))
	return s
}

// keptToolCall is what a TurnResult keeps of a tool call or a patch.
func keptToolCall(t ToolCall) ToolCall {
	t.Content, t.Locations = keptRaw(t.Content), keptRaw(t.Locations)
	t.RawInput, t.RawOutput = keptRaw(t.RawInput), keptRaw(t.RawOutput)
	return t
}

// appendText appends s to b up to MaxTextBytes (at a rune boundary) and
// returns the bytes not kept.
func appendText(b *[]byte, s string) int {
	room := MaxTextBytes - len(*b)
	if len(s) <= room {
		*b = append(*b, s...)
		return 0
	}
	n := max(room, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	*b = append(*b, s[:n]...)
	return len(s) - n
}
