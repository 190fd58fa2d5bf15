package acpagent

import (
	"encoding/json"
	"fmt"
	"strings"
)

// playMore plays the scenes of ACP's newer client methods and updates:
// false if the prompt names none of them.
func (t *turn) playMore(prompt, word string) (string, bool) {
	switch {
	case strings.HasPrefix(strings.TrimSpace(prompt), "/echo"):
		// The one command it offers (the commands scene).
		t.say("command echo:" + strings.TrimPrefix(strings.TrimSpace(prompt), "/echo"))
	case strings.Contains(word, "blocks"):
		t.say(t.blocks)
	case strings.Contains(word, "notice"):
		t.update(map[string]any{"sessionUpdate": "notice", "severity": "warning", "title": "Rate limit near"})
		t.say("Noticed.")
	case strings.Contains(word, "compact"):
		t.update(map[string]any{"sessionUpdate": "compaction_update", "compactionId": "c1", "status": "in_progress"})
		t.update(map[string]any{"sessionUpdate": "compaction_summary_chunk", "compactionId": "c1",
			"content": map[string]string{"type": "text", "text": "Summary so far."}})
		t.update(map[string]any{"sessionUpdate": "compaction_update", "compactionId": "c1", "status": "completed"})
		t.say("Compacted.")
	case strings.Contains(word, "named"):
		t.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "call_n", "title": "Read README", "name": "read_file",
			"kind": "read", "status": "pending"})
		t.toolStatus("call_n", "completed")
	case strings.Contains(word, "commands"):
		t.update(map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": []map[string]any{
			{"name": "echo", "description": "say it back", "input": map[string]string{"hint": "what to say"}}}})
		t.say("Commands sent.")
	case strings.Contains(word, "ticker"):
		return t.terminal("for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do echo tick $i; sleep 0.5; done"), true
	case strings.Contains(word, "terminal"):
		return t.terminal("echo hello from a terminal; echo $GREETING"), true
	default:
		return "", false
	}
	return "end_turn", true
}

// terminal runs script (sh -c) in a client terminal: create (asked of
// the person), wait_for_exit, output, release; it says what came of it.
func (t *turn) terminal(script string) string {
	t.a.mu.Lock()
	declared := t.a.terminal
	t.a.mu.Unlock()
	if !declared {
		t.say("terminal: not offered by the client.")
		return "end_turn"
	}
	_, r, ok := t.ask("terminal/create", map[string]any{"sessionId": t.session, "command": "sh",
		"args": []string{"-c", script}, "env": []map[string]string{{"name": "GREETING", "value": "hi-env"}},
		"outputByteLimit": 4096})
	switch {
	case !ok:
		return "cancelled"
	case r.Error != nil:
		t.say(fmt.Sprintf("terminal/create: error %d.", r.Error.Code))
		return "end_turn"
	}
	var created struct {
		TerminalID string `json:"terminalId"`
	}
	json.Unmarshal(r.Result, &created)
	ref := map[string]string{"sessionId": t.session, "terminalId": created.TerminalID}
	_, exit, ok1 := t.ask("terminal/wait_for_exit", ref)
	_, out, ok2 := t.ask("terminal/output", ref)
	t.ask("terminal/release", ref)
	if !ok1 || !ok2 {
		return "cancelled"
	}
	var o struct {
		Output string `json:"output"`
	}
	json.Unmarshal(out.Result, &o)
	t.say(fmt.Sprintf("exit %s; output %q", exit.Result, o.Output))
	return "end_turn"
}
