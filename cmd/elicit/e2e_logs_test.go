package main

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The scene of the Logs view's test: a server that declares logging and,
// when its tool "notes" is called, logs a line under the logger name
// "elicit" and one at the longest level, emergency, and answers a request
// id elicit never sent, which elicit drops with a note of its own.
func init() { testServers["notes"] = serveNotes }

func serveNotes(in *bufio.Scanner, out *json.Encoder) {
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || m.ID == nil || m.Method == "" {
			continue // notifications, and answers to us
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		switch m.Method {
		case "initialize":
			reply["result"] = map[string]any{"protocolVersion": "2025-11-25",
				"capabilities": map[string]any{"tools": map[string]any{}, "logging": map[string]any{}},
				"serverInfo":   map[string]any{"name": "notes", "version": "1"}}
		case "tools/list":
			reply["result"] = map[string]any{"tools": []any{map[string]any{"name": "notes", "title": "Notes", "inputSchema": map[string]any{"type": "object"}}}}
		case "tools/call":
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "method": "notifications/message",
				"params": map[string]any{"level": "notice", "logger": "elicit", "data": "a line the server logged"}})
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "method": "notifications/message",
				"params": map[string]any{"level": "emergency", "data": "the longest level"}})
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": 999, "result": map[string]any{}})
			reply["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": "noted"}}}
		case "logging/setLevel":
			reply["result"] = map[string]any{}
		default:
			reply["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		_ = out.Encode(reply)
	}
}

// TestTUILogsSayWhoseLineEachIs (issue 26, item 5): in the Logs view,
// elicit's own note about a server is elicit's, and a line the server
// logged is the server's, even under the logger name "elicit"; at 80×24
// and 120×40, the columns line up, an emergency line's too.
func TestTUILogsSayWhoseLineEachIs(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		tm := newTmuxSized(t, size[0], size[1], t.TempDir(), "--protocol", "2025-11-25", "--name", "srv", "--",
			"env", testServerEnv+"=notes", self)
		tm.waitText("srv ready")
		tm.callTool("notes")
		tm.waitText("noted")
		tm.press("F8")
		s := tm.waitFor("both lines", func(s string) bool {
			return strings.Contains(s, "a line the server logged") && strings.Contains(s, "dropped a response for unknown request id 999")
		})
		ours := regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d elicit +note +dropped a response for unknown request id 999`)
		theirs := regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d srv +notice +elicit: a line the server logged`)
		if !ours.MatchString(s) || !theirs.MatchString(s) {
			t.Fatalf("%dx%d: the rows do not say whose they are:\n%s", size[0], size[1], s)
		}
		// The text starts in one column, whatever the level (emergency is
		// the longest) and whoever the line is.
		i, j, k := strings.Index(lineWith(s, "dropped a"), "dropped a"), strings.Index(lineWith(s, "a line the"), "elicit: a line"),
			strings.Index(lineWith(s, "the longest level"), "the longest level")
		if i != j || j != k {
			t.Errorf("%dx%d: the text columns differ (%d, %d, %d):\n%s", size[0], size[1], i, j, k, s)
		}
		checkWidth(t, s, size[0])
	}
}

// lineWith is the first line of s that holds text.
func lineWith(s, text string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}

// TestTUILogLevelOfTheOneServer (issue 26, item 6): with one server, the
// Logs view says that no level is set and that many servers log nothing
// until one is, which the demo server shows true; l opens the level
// picker for that server (no "pick a server first"), and once a level is
// set, the same call logs.
func TestTUILogLevelOfTheOneServer(t *testing.T) {
	tm := newTmuxSized(t, 80, 24, t.TempDir(), "demo", "--protocol", "2025-11-25")
	tm.waitText("demo-2025-11-25 ready")
	callSlow := func() {
		tm.callTool("slow")
		tm.waitText("arguments for slow")
		tm.press("C-u")
		tm.typeText("1")
		tm.press("Enter")
		tm.waitFor("the call to end", func(s string) bool { return strings.Count(s, "done after 1s") >= 1 })
	}
	callSlow()
	tm.press("F8")
	s := tm.waitText("demo-2025-11-25: no log level set; many servers log nothing until one is (l)")
	if !strings.Contains(s, "Logs: 0 lines") {
		t.Fatalf("the demo logged without a level:\n%s", s)
	}
	tm.press("l")
	tm.waitText("log level for demo-2025-11-25 (enter sets, esc closes)")
	tm.press("Down", "Enter") // info
	s = tm.waitText("demo-2025-11-25 sends log messages from info up (l changes it)")
	if strings.Contains(s, "no log level set") {
		t.Fatalf("the hint stays after the level is set:\n%s", s)
	}
	tm.press("F5")
	tm.waitText("› slow — ")
	tm.press("Enter")
	tm.waitText("arguments for slow")
	tm.press("Enter") // the last call's 1 second
	tm.press("F8")
	s = tm.waitText("slow: slow: 1s of 1s")
	if !regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d demo-2025-11-25 info +slow: slow: 1s of 1s`).MatchString(s) {
		t.Fatalf("the log line:\n%s", s)
	}
	checkWidth(t, s, 80)
}
