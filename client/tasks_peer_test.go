package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Task behaviour the demo does not produce on demand (a withdrawn key,
// pushed status notifications, a 2025-11-25 status notification), from a
// hand-written peer over transport.Pipe.

// extTask is an extension Task as a peer writes it; extra members are
// spliced in as they are.
func extTask(id, status, extra string) string {
	s := fmt.Sprintf(`"taskId":%q,"status":%q,"createdAt":"2026-08-01T10:00:00Z","ttlMs":60000,"pollIntervalMs":20`, id, status)
	if extra != "" {
		s += "," + extra
	}
	return s
}

// twoQuestions are inputRequests a and b.
const twoQuestions = `"inputRequests":{` +
	`"a":{"method":"elicitation/create","params":{"message":"question a","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}},` +
	`"b":{"method":"elicitation/create","params":{"message":"question b","requestedSchema":{"type":"object","properties":{"b":{"type":"string"}},"required":["b"]}}}}`

// TestTaskInputsDedupedAndWithdrawn: each inputRequests key is shown once
// however many polls repeat it, and answered in its own tasks/update; a
// key the server stops listing closes its prompt Withdrawn, nothing sent.
func TestTaskInputsDedupedAndWithdrawn(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	pr := newTaskPrompter(func(ctx context.Context, p *question.Question) question.Outcome {
		if p.Message == "question a" {
			return question.Outcome{Kind: question.Accept, Content: map[string]any{"a": "A"}}
		}
		return holdPrompt(ctx, p)
	})
	s, p := modernPeer(t, &client.Options{Prompter: pr}, rec)
	done := callAsync(t.Context(), s, "job")
	call := p.expect("tools/call")
	p.respond(call.ID, `{"resultType":"task",`+extTask("t1", "working", "")+`}`)

	var updates []json.RawMessage
	asked := 0 // polls answered with both questions
	for finished := false; !finished; {
		m := p.read()
		switch m.Method {
		case "tasks/update":
			updates = append(updates, params(t, m)["inputResponses"])
			p.respond(m.ID, `{"resultType":"complete"}`)
		case "tasks/get":
			switch {
			case asked < 2 || len(updates) == 0:
				// a is listed again after its answer: the ack is
				// eventually consistent, and it must not be asked twice.
				asked++
				p.respond(m.ID, `{"resultType":"complete",`+extTask("t1", "input_required", twoQuestions)+`}`)
			case pr.cause(bKey(s)) == nil:
				p.respond(m.ID, `{"resultType":"complete",`+extTask("t1", "working", "")+`}`) // b withdrawn
				waitFor(t, "b to be withdrawn", func() bool { return pr.cause(bKey(s)) != nil })
			default:
				p.respond(m.ID, `{"resultType":"complete",`+extTask("t1", "completed", `"result":{"content":[{"type":"text","text":"done"}]}`)+`}`)
				finished = true
			}
		}
	}
	if got := recvWithin(t, done, "CallTool's return"); got != "done" {
		t.Fatalf("CallTool: %s", got)
	}
	if len(updates) != 1 || !strings.Contains(string(updates[0]), `"a":{"action":"accept","content":{"a":"A"}}`) || strings.Contains(string(updates[0]), `"b"`) {
		t.Errorf("tasks/update inputResponses %s, want exactly one, for a", updates)
	}
	if n := len(pr.prompts()); n != 2 {
		t.Errorf("%d prompts, want 2 (a and b, once each)", n)
	}
	if c := pr.cause(bKey(s)); !errors.Is(c, question.ErrWithdrawn) {
		t.Errorf("b ended with %v, want ErrWithdrawn", c)
	}
	byKey := map[string]question.JournalEntry{}
	for _, e := range waitJournal(t, s, 2) {
		byKey[e.Key.Input] = e
	}
	if byKey["a"].Kind != question.Accept || byKey["b"].Kind != question.Withdrawn || !strings.Contains(byKey["b"].Reason, "no longer asks") {
		t.Errorf("journal %+v", byKey)
	}
	resolved := waitEvent(t, rec, func(e client.PromptResolved) bool { return e.Key.Input == "b" })
	if resolved.Sent != "" {
		t.Errorf("b: sent %q, want nothing", resolved.Sent)
	}
}

func bKey(s *client.Session) question.Key {
	return question.Key{Server: s.Name(), Delivery: question.TaskInput, TaskID: "t1", Input: "b"}
}

// TestTaskListenPush: with Options.ListenTasks an extension task asks for
// its notifications on subscriptions/listen; only notifications for ids
// the acknowledgement agreed to, on that subscription, count; one saying
// completed ends the call at once, long before the first poll.
func TestTaskListenPush(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := modernPeer(t, &client.Options{ListenTasks: true}, rec)
	done := callAsync(t.Context(), s, "job")
	call := p.expect("tools/call")
	// A poll interval of a minute: any answer before it is pushed.
	p.respond(call.ID, `{"resultType":"task","taskId":"t2","status":"working","createdAt":"2026-08-01T10:00:00Z","ttlMs":null,"pollIntervalMs":60000}`)

	listen := p.expect("subscriptions/listen")
	var lp struct {
		Notifications struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
	}
	_ = json.Unmarshal(listen.Params, &lp)
	if len(lp.Notifications.TaskIDs) != 1 || lp.Notifications.TaskIDs[0] != "t2" {
		t.Fatalf("subscriptions/listen %s", listen.Params)
	}
	sub := fmt.Sprintf(`"_meta":{"io.modelcontextprotocol/subscriptionId":%s}`, listen.ID)
	notify := func(params string) {
		p.send(&jsonrpc.Message{Method: "notifications/tasks", Params: json.RawMessage(params)})
	}
	p.send(&jsonrpc.Message{Method: "notifications/subscriptions/acknowledged",
		Params: json.RawMessage(`{` + sub + `,"notifications":{"taskIds":["t2"]}}`)})

	// Not agreed to, or not on the subscription: ignored.
	notify(`{` + sub + `,"taskId":"t3","status":"completed","createdAt":"2026-08-01T10:00:00Z","ttlMs":null}`)
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, `notifications/tasks for task "t3"`) })
	notify(`{"taskId":"t2","status":"failed","createdAt":"2026-08-01T10:00:00Z","ttlMs":null}`)
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, `notifications/tasks for task "t2"`) })
	if tk, _ := s.Task("t2"); tk.Status != client.TaskWorking {
		t.Fatalf("an unagreed notification changed the task: %+v", tk)
	}

	notify(`{` + sub + `,"taskId":"t2","status":"completed","createdAt":"2026-08-01T10:00:00Z","ttlMs":null,"result":{"content":[{"type":"text","text":"pushed"}]}}`)
	if got := recvWithin(t, done, "CallTool's return"); got != "pushed" {
		t.Fatalf("CallTool: %s", got)
	}
	if tk, _ := s.Task("t2"); tk.Polls != 0 || tk.Status != client.TaskCompleted || tk.TTL != 0 {
		t.Errorf("task %+v, want completed by the push alone, no poll, unlimited ttl", tk)
	}
	// The follow is over, so its subscription is closed.
	c := p.expect("notifications/cancelled")
	if id := params(t, c)["requestId"]; string(id) != listen.ID.String() {
		t.Errorf("cancelled %s, want the listen %s", id, listen.ID)
	}
}

// TestTaskCoreStatusNotification: in 2025-11-25 notifications/tasks/status
// updates the task at once (here: to terminal, long before the first
// poll), and tasks/result then fetches the result. The server's own
// tasks/* requests are answered as a client without tasks of its own.
func TestTaskCoreStatusNotification(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p, _ := pipePeer(t, wire.Protocol2025_11_25, &client.Options{}, rec)
	done := make(chan string, 1)
	go func() {
		res, err := s.CallTool(t.Context(), "job", nil, &client.CallOptions{TaskSupport: client.TaskSupportRequired, TaskTTL: 5 * time.Second})
		if err != nil {
			done <- "error " + err.Error()
			return
		}
		done <- res.Text()
	}()
	call := p.expect("tools/call")
	if task := string(params(t, call)["task"]); task != `{"ttl":5000}` {
		t.Errorf("params.task %s", task)
	}
	p.respond(call.ID, `{"task":{"taskId":"c1","status":"working","createdAt":"2026-08-01T10:00:00Z","lastUpdatedAt":"2026-08-01T10:00:00Z","ttl":5000,"pollInterval":60000},"_meta":{"io.modelcontextprotocol/model-immediate-response":"started"}}`)
	first := waitEvent(t, rec, func(e client.TaskChanged) bool { return e.Task.ID == "c1" }).Task
	if first.ImmediateResponse != "started" || first.Design != client.TaskDesignCore || first.TTL != 5*time.Second {
		t.Errorf("created %+v", first)
	}

	p.sendRaw(jsonrpc.IntID(900), "tasks/list", `{}`)
	p.sendRaw(jsonrpc.IntID(901), "tasks/get", `{"taskId":"x"}`)
	p.send(&jsonrpc.Message{Method: "notifications/tasks/status", Params: json.RawMessage(
		`{"taskId":"c1","status":"completed","createdAt":"2026-08-01T10:00:00Z","lastUpdatedAt":"2026-08-01T10:00:01Z","ttl":5000,"pollInterval":60000}`)})
	var list, get *jsonrpc.Message
	results := 0
	for list == nil || get == nil || results == 0 {
		m := p.read()
		switch {
		case m.Method == "tasks/result":
			results++
			p.respond(m.ID, `{"content":[{"type":"text","text":"report"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"c1"}}}`)
		case m.Method == "" && m.ID == jsonrpc.IntID(900):
			list = m
		case m.Method == "" && m.ID == jsonrpc.IntID(901):
			get = m
		}
	}
	if got := recvWithin(t, done, "CallTool's return"); got != "report" {
		t.Fatalf("CallTool: %s", got)
	}
	if string(list.Result) != `{"tasks":[]}` || get.Error == nil || get.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("our answers to tasks/list %s and tasks/get %+v", list.Result, get.Error)
	}
	if tk, _ := s.Task("c1"); tk.Polls != 0 || tk.Status != client.TaskCompleted || !tk.Ended {
		t.Errorf("task %+v, want completed by the notification, no poll", tk)
	}
}
