package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func decoded(t *testing.T, sid string, update any) Update {
	t.Helper()
	b, err := json.Marshal(map[string]any{"sessionId": sid, "update": update})
	if err != nil {
		t.Fatal(err)
	}
	u, err := decodeUpdate(b)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestTurnKeepsBounded: what a turn keeps of each accumulating kind
// stops at its bound and says how much it did not keep.
func TestTurnKeepsBounded(t *testing.T) {
	ts := newTurnState()
	chunk := strings.Repeat("é", 1000) // 2,000 bytes, two per rune
	sent := MaxTextBytes/len(chunk) + 10
	for range sent {
		ts.add(decoded(t, "s", map[string]any{"sessionUpdate": UpdateAgentMessage, "content": map[string]string{"type": "text", "text": chunk}}))
	}
	for i := range MaxToolCalls + 5 {
		ts.add(decoded(t, "s", map[string]any{"sessionUpdate": UpdateToolCall, "toolCallId": fmt.Sprint("c", i), "title": "t"}))
	}
	big := strings.Repeat("x", MaxKeptUpdateBytes)
	ts.add(decoded(t, "s", map[string]any{"sessionUpdate": UpdateToolCallUpdate, "toolCallId": "c0", "rawOutput": big}))
	for range MaxKeptUpdates + 7 {
		ts.add(decoded(t, "s", map[string]any{"sessionUpdate": UpdateNotice, "severity": "info", "title": "n"}))
	}
	for i := range 3 {
		ts.add(decoded(t, "s", map[string]any{"sessionUpdate": UpdateCommands, "availableCommands": []map[string]string{{"name": fmt.Sprint("cmd", i)}}}))
	}
	r := ts.result()
	if len(r.Message) > MaxTextBytes || !utf8.ValidString(r.Message) || r.MessageCut != sent*len(chunk)-len(r.Message) {
		t.Errorf("message %d bytes (valid %v), cut %d", len(r.Message), utf8.ValidString(r.Message), r.MessageCut)
	}
	if len(r.ToolCalls) != MaxToolCalls || r.ToolUpdatesDropped != 5 {
		t.Errorf("%d tool calls kept, %d updates dropped", len(r.ToolCalls), r.ToolUpdatesDropped)
	}
	if out := string(r.ToolCalls[0].RawOutput); !strings.Contains(out, "not kept") {
		t.Errorf("a rawOutput over the bound is kept as %.80s", out)
	}
	notices, commands := 0, 0
	for _, u := range r.Other {
		switch u.Kind {
		case "notice":
			notices++
		case UpdateCommands:
			commands++
			if u.Replaced != 2 || u.Commands[0].Name != "cmd2" {
				t.Errorf("commands %+v, want the latest, replacing 2", u)
			}
		}
	}
	if notices != MaxKeptUpdates || r.UpdatesDropped != 7 || commands != 1 {
		t.Errorf("%d notices kept, %d dropped, %d command lists", notices, r.UpdatesDropped, commands)
	}
}

// TestKeptUpdateOverBound: an update over MaxKeptUpdateBytes is kept as
// its kind alone, saying how large it was; a plan of more than
// MaxEntries entries is kept as decoded, its first entries, each cut.
func TestKeptUpdateOverBound(t *testing.T) {
	u := keptUpdate(decoded(t, "s", map[string]any{"sessionUpdate": UpdateNotice, "severity": "info", "title": strings.Repeat("x", MaxKeptUpdateBytes)}))
	if string(u.Raw) != `{"sessionUpdate":"notice"}` || !strings.Contains(u.Cut, "bytes not kept") {
		t.Errorf("kept %s, cut %q", u.Raw, u.Cut)
	}
	entries := make([]map[string]string, MaxEntries+1)
	for i := range entries {
		entries[i] = map[string]string{"content": "e"}
	}
	entries[0]["content"] = strings.Repeat("ü", MaxEntryBytes)
	u = keptUpdate(decoded(t, "s", map[string]any{"sessionUpdate": UpdatePlan, "entries": entries}))
	var plan struct {
		Entries []PlanEntry `json:"entries"`
	}
	if err := json.Unmarshal(u.Raw, &plan); err != nil || len(u.Raw) > MaxKeptUpdateBytes {
		t.Fatalf("kept %d bytes: %v", len(u.Raw), err)
	}
	first := plan.Entries[0].Content
	if len(plan.Entries) != MaxEntries || len(first) > MaxEntryBytes || !utf8.ValidString(first) || !strings.HasSuffix(first, "…") {
		t.Errorf("%d entries kept, the first %d bytes", len(plan.Entries), len(first))
	}
	if u.Cut != fmt.Sprintf("%d of %d entries kept (an update kept is at most %d bytes)", MaxEntries, MaxEntries+1, MaxKeptUpdateBytes) {
		t.Errorf("cut %q", u.Cut)
	}
}
