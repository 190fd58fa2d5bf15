package acpagent

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// turn is one prompt turn being played.
type turn struct {
	a       *agent
	session string
	cwd     string
	cancel  chan struct{}
	// abandon is closed by $/cancel_request for the prompt itself.
	abandon chan struct{}
	// after, if set, runs once the prompt is answered (the turn over).
	after func()
	// blocks names the prompt's content blocks (type:name:mimeType).
	blocks string
	// said is what the turn said (its history, for session/load).
	said strings.Builder
}

func (t *turn) cancelled() bool {
	select {
	case <-t.cancel:
		return true
	default:
		return false
	}
}

func (t *turn) update(u map[string]any) {
	t.a.notify("session/update", map[string]any{"sessionId": t.session, "update": u})
}

func (t *turn) say(text string) {
	t.said.WriteString(text)
	t.update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]string{"type": "text", "text": text}})
}

func (t *turn) tool(id, title, kind, status string) {
	t.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": title, "kind": kind, "status": status})
}

func (t *turn) toolStatus(id, status string) {
	t.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": status})
}

// errCancelledStop makes the prompt's answer error -32800.
const errCancelledStop = "-32800"

// answerGrace bounds the wait for an answer owed after session/cancel.
const answerGrace = 2 * time.Second

// ask sends a request and waits for its answer. After session/cancel it
// still waits (bounded) for the answer the client owes.
func (t *turn) ask(method string, params any) (id string, r reply, ok bool) {
	id, ch := t.a.request(method, params)
	select {
	case r = <-ch:
		return id, r, true
	case <-t.cancel:
	}
	timer := time.NewTimer(answerGrace)
	defer timer.Stop()
	select {
	case r = <-ch:
		return id, r, true
	case <-timer.C:
		return id, reply{}, false
	}
}

func permissionParams(session, call, title string) map[string]any {
	return map[string]any{
		"sessionId": session,
		"toolCall":  map[string]any{"toolCallId": call, "title": title, "kind": "edit", "status": "pending"},
		"options": []map[string]string{
			{"optionId": "allow", "name": "Allow once", "kind": "allow_once"},
			{"optionId": "always", "name": "Always allow", "kind": "allow_always"},
			{"optionId": "reject", "name": "Reject", "kind": "reject_once"},
			{"optionId": "never", "name": "Always reject", "kind": "reject_always"},
		},
	}
}

var formSchema = json.RawMessage(`{"type":"object","title":"Refactoring","properties":{
 "strategy":{"type":"string","title":"Strategy","oneOf":[{"const":"safe","title":"Conservative","description":"minimal changes"},{"const":"bold","title":"Aggressive"}],"default":"safe"},
 "files":{"type":"integer","title":"Files at most","minimum":1,"maximum":50,"default":5},
 "tests":{"type":"boolean","title":"Run the tests","default":true}},
 "required":["strategy"]}`)

// play runs the scene the prompt names and returns the stop reason.
func (a *agent) play(t *turn, prompt string) string {
	word := strings.ToLower(strings.TrimSpace(prompt))
	if stop, ok := t.playMore(prompt, word); ok {
		return stop
	}
	switch {
	case strings.Contains(word, "foreign"):
		return t.foreign()
	case strings.Contains(word, "afterturn"):
		// A permission request once the turn is over: no turn of the
		// session is under way for it to belong to.
		t.after = func() { t.ask("session/request_permission", permissionParams(t.session, "call_late", "Late edit")) }
		t.say("this turn ends before its permission request")
		return "end_turn"
	case strings.Contains(word, "plans"):
		return t.plans()
	case strings.Contains(word, "manywrites"):
		return t.manyWrites()
	case strings.Contains(word, "stray"):
		// Answers that no request of the client's awaits: an id it never
		// sent, and initialize's (0) a second time.
		t.a.result(json.RawMessage(`424242`), map[string]any{})
		t.a.result(json.RawMessage(`0`), map[string]any{"protocolVersion": 1})
		t.say("sent two stray answers")
		return "end_turn"
	case strings.Contains(word, "silent"):
		// Says nothing until session/cancel: only a bound on the
		// client's side ends the turn.
		select {
		case <-t.cancel:
			return "cancelled"
		case <-t.abandon:
			return errCancelledStop
		}
	case strings.Contains(word, "withdrawperm"):
		return t.withdraw("session/request_permission", permissionParams(t.session, "call_w", "Delete build/"))
	case strings.Contains(word, "permission"):
		return t.permission()
	case strings.Contains(word, "withdraw"):
		return t.withdraw("elicitation/create", map[string]any{"sessionId": t.session, "mode": "form",
			"message": "Which branch? (this question will be withdrawn)", "requestedSchema": formSchema})
	case strings.Contains(word, "toolq"):
		return t.toolQuestion()
	case strings.Contains(word, "question"):
		return t.question(map[string]any{"sessionId": t.session, "mode": "form",
			"message": "How should I approach this refactoring?", "requestedSchema": formSchema})
	case strings.Contains(word, "url"):
		stop := t.question(map[string]any{"sessionId": t.session, "mode": "url", "elicitationId": "login-1",
			"url": "https://example.com/login", "message": "Log in to continue"})
		// The out-of-band step is done (as if the person logged in).
		t.a.notify("elicitation/complete", map[string]string{"elicitationId": "login-1"})
		return stop
	case strings.Contains(word, "long"):
		return t.long()
	case strings.Contains(word, "err32800"):
		// Answers the prompt -32800 when cancelled, as some SDKs do,
		// instead of stopReason cancelled.
		<-t.cancel
		return errCancelledStop
	case strings.Contains(word, "crash"):
		t.a.request("session/request_permission", permissionParams(t.session, "call_c", "Format disk"))
		time.Sleep(200 * time.Millisecond)
		t.a.wmu.Lock() // no write may be half done when it dies
		t.a.crashOnce.Do(func() { close(t.a.crash) })
		t.a.wmu.Unlock()
		return "end_turn" // never sent: the agent is gone
	case strings.Contains(word, "deafer"):
		// Ignores session/cancel and $/cancel_request: the client's wait
		// must be bounded.
		t.say("not listening at all…")
		time.Sleep(20 * time.Second)
		return "end_turn"
	case strings.Contains(word, "deaf"):
		// Ignores session/cancel, but honours $/cancel_request for the
		// prompt (-32800), which the client sends when its wait for the
		// stopReason runs out.
		t.say("not listening…")
		select {
		case <-time.After(20 * time.Second):
			return "end_turn"
		case <-t.abandon:
			return errCancelledStop
		}
	case strings.Contains(word, "updates"):
		t.update(map[string]any{"sessionUpdate": "agent_thought_chunk", "content": map[string]string{"type": "text", "text": "thinking"}})
		t.update(map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": []map[string]string{{"name": "web", "description": "search"}}})
		t.update(map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": "code"})
		t.update(map[string]any{"sessionUpdate": "usage_update", "used": 120, "size": 1000})
		t.update(map[string]any{"sessionUpdate": "notice", "text": "a kind this client does not know"})
		t.say("done")
		return "end_turn"
	case strings.Contains(word, "write"):
		return t.write()
	case strings.Contains(word, "read"):
		t.say(t.read(t.cwd + "/notes.txt"))
		return "end_turn"
	case strings.Contains(word, "fs"):
		_, r, _ := t.ask("fs/read_text_file", map[string]any{"sessionId": t.session, "path": "/etc/hostname"})
		if r.Error != nil {
			t.say(fmt.Sprintf("fs/read_text_file: error %d", r.Error.Code))
		} else {
			t.say("fs/read_text_file: answered")
		}
		return "end_turn"
	case strings.Contains(word, "refuse"):
		t.say("I will not do that.")
		return "refusal"
	}
	t.say("You said: " + prompt)
	return "end_turn"
}

func (t *turn) permission() string {
	t.update(map[string]any{"sessionUpdate": "plan", "entries": []map[string]string{
		{"content": "Edit config.json", "priority": "high", "status": "in_progress"}}})
	// The edit it asks for, as a diff, and where.
	t.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "Edit config.json",
		"kind": "edit", "status": "pending", "locations": []map[string]any{{"path": "config.json", "line": 2}},
		"content": []map[string]any{{"type": "diff", "path": "config.json",
			"oldText": "{\n  \"debug\": false,\n  \"port\": 8080\n}\n",
			"newText": "{\n  \"debug\": true,\n  \"port\": 8080\n}\n"}}})
	_, r, ok := t.ask("session/request_permission", permissionParams(t.session, "call_1", "Edit config.json"))
	if !ok || t.cancelled() {
		t.toolStatus("call_1", "failed")
		t.say("Stopped.")
		return "cancelled"
	}
	var res struct {
		Outcome struct {
			Outcome  string `json:"outcome"`
			OptionID string `json:"optionId"`
		} `json:"outcome"`
	}
	if r.Error != nil {
		t.toolStatus("call_1", "failed")
		t.say(fmt.Sprintf("The permission request failed: error %d.", r.Error.Code))
		return "end_turn"
	}
	if json.Unmarshal(r.Result, &res) != nil {
		t.toolStatus("call_1", "failed")
		t.say("The permission request failed: its result is not JSON.")
		return "end_turn"
	}
	switch o := res.Outcome; {
	case o.Outcome == "cancelled":
		t.toolStatus("call_1", "failed")
		return "cancelled"
	case o.OptionID == "allow" || o.OptionID == "always":
		t.toolStatus("call_1", "completed")
		t.say("Edited config.json (" + o.OptionID + ").")
	default:
		t.toolStatus("call_1", "failed")
		t.say("Left config.json alone (" + o.OptionID + ").")
	}
	return "end_turn"
}

// question asks an elicitation and says what came back.
func (t *turn) question(params map[string]any) string {
	_, r, ok := t.ask("elicitation/create", params)
	if !ok || t.cancelled() {
		t.say("Stopped.")
		return "cancelled"
	}
	if r.Error != nil {
		t.say(fmt.Sprintf("The question was refused: error %d.", r.Error.Code))
		return "end_turn"
	}
	var res struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	json.Unmarshal(r.Result, &res)
	switch res.Action {
	case "accept":
		b, _ := json.Marshal(res.Content)
		t.say("Answer: " + string(b))
	default:
		t.say("No answer (" + res.Action + ").")
	}
	return "end_turn"
}

func (t *turn) toolQuestion() string {
	t.tool("call_q", "Plan the refactoring", "think", "in_progress")
	params := map[string]any{"sessionId": t.session, "toolCallId": "call_q", "mode": "form",
		"message": "Which strategy for this tool call?", "requestedSchema": formSchema}
	stop := t.question(params)
	if stop == "cancelled" {
		t.toolStatus("call_q", "failed")
	} else {
		t.toolStatus("call_q", "completed")
	}
	return stop
}

// withdraw asks, then withdraws the request with $/cancel_request and
// reports the answer the client still owes (-32800).
func (t *turn) withdraw(method string, params map[string]any) string {
	id, ch := t.a.request(method, params)
	select {
	case r := <-ch:
		t.say("Answered before it could be withdrawn: " + string(r.Result))
		return "end_turn"
	case <-time.After(300 * time.Millisecond):
	case <-t.cancel:
		return "cancelled"
	}
	t.a.notify("$/cancel_request", map[string]any{"requestId": json.RawMessage(id)})
	timer := time.NewTimer(answerGrace)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.Error != nil {
			t.say(fmt.Sprintf("Withdrawn; the client answered error %d.", r.Error.Code))
		} else {
			t.say("Withdrawn; the client answered " + string(r.Result))
		}
	case <-timer.C:
		t.say("Withdrawn; the client never answered.")
	}
	return "end_turn"
}

// long streams chunks until done or cancelled; after session/cancel it
// still sends one update, as agents may.
func (t *turn) long() string {
	t.tool("call_l", "Long job", "execute", "in_progress")
	for i := 0; i < 100; i++ {
		select {
		case <-t.cancel:
			t.toolStatus("call_l", "failed")
			t.say(" …stopped.")
			return "cancelled"
		case <-time.After(t.a.opts.Step):
		}
		t.say(fmt.Sprintf("step %d. ", i+1))
	}
	t.toolStatus("call_l", "completed")
	return "end_turn"
}

// write asks the client to write notes.txt in the session's cwd (with
// --allow-fs the client asks its person first), then reads it back.
func (t *turn) write() string {
	path := t.cwd + "/notes.txt"
	t.tool("call_fs", "Write notes.txt", "edit", "in_progress")
	_, r, ok := t.ask("fs/write_text_file", map[string]any{"sessionId": t.session, "path": path, "content": "hello from the demo agent\n"})
	switch {
	case !ok || t.cancelled():
		t.toolStatus("call_fs", "failed")
		t.say("Stopped.")
		return "cancelled"
	case r.Error != nil:
		t.toolStatus("call_fs", "failed")
		t.say(fmt.Sprintf("fs/write_text_file: error %d (%s).", r.Error.Code, r.Error.Message))
		return "end_turn"
	}
	t.toolStatus("call_fs", "completed")
	t.say("Wrote notes.txt; " + t.read(path))
	return "end_turn"
}

// read asks the client for a file's text and says what came back.
func (t *turn) read(path string) string {
	_, r, _ := t.ask("fs/read_text_file", map[string]any{"sessionId": t.session, "path": path})
	if r.Error != nil {
		return fmt.Sprintf("fs/read_text_file: error %d", r.Error.Code)
	}
	var res struct {
		Content string `json:"content"`
	}
	json.Unmarshal(r.Result, &res)
	return "read back: " + strings.TrimSpace(res.Content)
}

// foreignSession is a session id the client never opened.
const foreignSession = "sess_foreign"

// foreign sends, in the name of a session the client never opened, an
// update and every request that names a session (a permission, a form
// question, a read of notes.txt in the cwd, a write of foreign.txt
// there), and says how each was answered: a client must refuse them all.
func (t *turn) foreign() string {
	t.a.notify("session/update", map[string]any{"sessionId": foreignSession, "update": map[string]any{
		"sessionUpdate": "agent_message_chunk", "content": map[string]string{"type": "text", "text": "FOREIGN-UPDATE"}}})
	asks := []struct {
		what, method string
		params       map[string]any
	}{
		{"permission", "session/request_permission", permissionParams(foreignSession, "call_x", "Delete everything")},
		{"question", "elicitation/create", map[string]any{"sessionId": foreignSession, "mode": "form",
			"message": "Which strategy?", "requestedSchema": formSchema}},
		{"read", "fs/read_text_file", map[string]any{"sessionId": foreignSession, "path": t.cwd + "/notes.txt"}},
		{"write", "fs/write_text_file", map[string]any{"sessionId": foreignSession, "path": t.cwd + "/foreign.txt", "content": "written for a foreign session\n"}},
	}
	var said []string
	for _, q := range asks {
		_, r, ok := t.ask(q.method, q.params)
		switch {
		case !ok:
			said = append(said, q.what+": no answer")
		case r.Error != nil:
			said = append(said, fmt.Sprintf("%s: error %d", q.what, r.Error.Code))
		default:
			said = append(said, q.what+": answered "+string(r.Result))
		}
	}
	t.say(strings.Join(said, "; ") + ".")
	return "end_turn"
}

// plans sends 20 plans, each longer than the last, up to 100,000
// entries (about 6 MB), then a done message. A plan replaces the one
// before it: a client keeps only the latest.
func (t *turn) plans() string {
	const steps, most = 20, 100_000
	for i := 1; i <= steps; i++ {
		n := most * i / steps
		entries := make([]map[string]string, n)
		for j := range entries {
			entries[j] = map[string]string{"content": fmt.Sprintf("plan %d step %d", i, j+1), "priority": "medium", "status": "pending"}
		}
		t.update(map[string]any{"sessionUpdate": "plan", "entries": entries})
	}
	t.say("planned")
	return "end_turn"
}

// manyWrites writes big.txt (1 MiB) in the cwd, then 300 small files,
// and says how many writes were answered: a client keeps a bounded
// account of them.
func (t *turn) manyWrites() string {
	paths := []string{t.cwd + "/big.txt"}
	contents := []string{strings.Repeat("0123456789abcde\n", 1<<16)}
	for i := range 300 {
		paths, contents = append(paths, fmt.Sprintf("%s/f%d.txt", t.cwd, i)), append(contents, fmt.Sprintf("file %d\n", i))
	}
	written := 0
	for i, p := range paths {
		_, r, ok := t.ask("fs/write_text_file", map[string]any{"sessionId": t.session, "path": p, "content": contents[i]})
		if !ok || t.cancelled() {
			return "cancelled"
		}
		if r.Error == nil {
			written++
		}
	}
	t.say(fmt.Sprintf("wrote %d files", written))
	return "end_turn"
}
