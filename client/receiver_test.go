package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The server's side of our tasks (receiver.go), driven by hand: a
// 2025-11-25 peer task-augments elicitation/create and asks tasks/get,
// tasks/list, tasks/result and tasks/cancel as the requestor.

const taskElicit = `{"task":{"ttl":%d},"message":"%s","requestedSchema":{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}}`

// receiverTask is a Task as our tasks/* answer it.
type receiverTask struct {
	TaskID        string  `json:"taskId"`
	Status        string  `json:"status"`
	StatusMessage string  `json:"statusMessage"`
	CreatedAt     string  `json:"createdAt"`
	LastUpdatedAt string  `json:"lastUpdatedAt"`
	TTL           *int64  `json:"ttl"`
	PollInterval  float64 `json:"pollInterval"`
}

// reply reads until the response to id arrives, keeping the status
// notifications seen on the way.
func (p *peer) reply(id jsonrpc.ID, status *[]receiverTask) *jsonrpc.Message {
	p.t.Helper()
	for {
		m := p.read()
		switch {
		case m.Method == "notifications/tasks/status":
			var tk receiverTask
			if err := json.Unmarshal(m.Params, &tk); err != nil {
				p.t.Fatalf("status notification %s: %v", m.Params, err)
			}
			if status != nil {
				*status = append(*status, tk)
			}
		case m.Method == "" && m.ID == id:
			return m
		}
	}
}

// ask sends one request and returns our answer.
func (p *peer) ask(id int64, method, params string, status *[]receiverTask) *jsonrpc.Message {
	p.t.Helper()
	p.sendRaw(jsonrpc.IntID(id), method, params)
	return p.reply(jsonrpc.IntID(id), status)
}

func decodeTask(t *testing.T, raw json.RawMessage) receiverTask {
	t.Helper()
	var tk receiverTask
	if err := json.Unmarshal(raw, &tk); err != nil || tk.TaskID == "" {
		t.Fatalf("not a task: %s (%v)", raw, err)
	}
	return tk
}

// TestReceiverTaskLifecycle: the whole life of a task of ours, as the
// server sees it: CreateTaskResult at once (working, the TTL asked for,
// a poll interval), tasks/get and tasks/list while the person thinks,
// tasks/result blocking until the answer, then the answer with
// related-task _meta, a completed status notification, and tasks/cancel
// refused on the ended task. The question was a ReceiverTask prompt, and
// the task view's snapshots mark the task ours.
func TestReceiverTaskLifecycle(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(func(*question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "42"}}
	})
	s, p, _ := pipePeer(t, "2025-11-25", &client.Options{Prompter: g}, rec)

	created := p.ask(1, "elicitation/create", fmtTask(120000, "the question"), nil)
	if created.Error != nil {
		t.Fatalf("elicitation/create answered %v", created.Error)
	}
	var ctr struct {
		Task json.RawMessage `json:"task"`
	}
	if err := json.Unmarshal(created.Result, &ctr); err != nil || ctr.Task == nil {
		t.Fatalf("not a CreateTaskResult: %s", created.Result)
	}
	tk := decodeTask(t, ctr.Task)
	if tk.Status != "working" || tk.TTL == nil || *tk.TTL != 120000 || tk.PollInterval <= 0 || len(tk.TaskID) < 20 {
		t.Errorf("created task %+v: want working, ttl 120000, a poll interval, a long random id", tk)
	}
	if _, err := time.Parse(time.RFC3339Nano, tk.CreatedAt); err != nil {
		t.Errorf("createdAt %q: %v", tk.CreatedAt, err)
	}
	g.waitOpen(t, "the question")

	got := p.ask(2, "tasks/get", `{"taskId":"`+tk.TaskID+`"}`, nil)
	if g := decodeTask(t, got.Result); g.Status != "working" || g.TaskID != tk.TaskID {
		t.Errorf("tasks/get while open: %s", got.Result)
	}
	list := p.ask(3, "tasks/list", `{}`, nil)
	var l struct {
		Tasks []receiverTask `json:"tasks"`
	}
	if err := json.Unmarshal(list.Result, &l); err != nil || len(l.Tasks) != 1 || l.Tasks[0].TaskID != tk.TaskID {
		t.Errorf("tasks/list: %s", list.Result)
	}
	snap := waitEvent(t, rec, func(e client.TaskChanged) bool { return e.Task.Ours && e.Task.ID == tk.TaskID })
	if snap.Task.Method != "elicitation/create" || len(snap.Task.OpenPrompts) != 1 || snap.Task.OpenPrompts[0].Delivery != question.ReceiverTask {
		t.Errorf("snapshot %+v: want ours, its method, its open ReceiverTask prompt", snap.Task)
	}

	// tasks/result blocks until the person has answered: a tasks/get
	// sent after it is answered first.
	p.sendRaw(jsonrpc.IntID(4), "tasks/result", `{"taskId":"`+tk.TaskID+`"}`)
	p.sendRaw(jsonrpc.IntID(40), "tasks/get", `{"taskId":"`+tk.TaskID+`"}`)
	if m := p.read(); m.ID != jsonrpc.IntID(40) {
		t.Fatalf("first answer %v %s %v, want the tasks/get's: tasks/result must wait", m.ID, m.Result, m.Error)
	}
	g.release("the question")
	var status []receiverTask
	res := p.reply(jsonrpc.IntID(4), &status)
	var er struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
		Meta    map[string]struct {
			TaskID string `json:"taskId"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(res.Result, &er); err != nil || er.Action != "accept" || er.Content["answer"] != "42" ||
		er.Meta["io.modelcontextprotocol/related-task"].TaskID != tk.TaskID {
		t.Errorf("tasks/result %s (%v): want the accept with related-task %s", res.Result, res.Error, tk.TaskID)
	}
	if len(status) != 1 || status[0].Status != "completed" || status[0].TaskID != tk.TaskID {
		t.Errorf("status notifications %+v: want one, completed", status)
	}
	if got := p.ask(5, "tasks/get", `{"taskId":"`+tk.TaskID+`"}`, nil); decodeTask(t, got.Result).Status != "completed" {
		t.Errorf("tasks/get after: %s", got.Result)
	}
	if c := p.ask(6, "tasks/cancel", `{"taskId":"`+tk.TaskID+`"}`, nil); c.Error == nil || c.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("tasks/cancel of a completed task: %s %v, want -32602", c.Result, c.Error)
	}
	if u := p.ask(7, "tasks/get", `{"taskId":"nope"}`, nil); u.Error == nil || u.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("tasks/get of an unknown task: %v, want -32602", u.Error)
	}
	e := waitJournal(t, s, 1)[0]
	if e.Key.Delivery != question.ReceiverTask || e.Key.TaskID != tk.TaskID || e.Kind != question.Accept || e.Sent != "accept" {
		t.Errorf("journal %+v", e)
	}
	end := waitEvent(t, rec, func(e client.TaskChanged) bool { return e.Task.Ours && e.Task.Ended })
	if end.Task.Status != client.TaskCompleted || len(end.Task.OpenPrompts) != 0 {
		t.Errorf("last snapshot %+v", end.Task)
	}
}

func fmtTask(ttl int, msg string) string { return fmt.Sprintf(taskElicit, ttl, msg) }

// createTask sends a task-augmented elicitation and returns our task.
func (p *peer) createTask(id int64, ttl int, msg string) receiverTask {
	p.t.Helper()
	m := p.ask(id, "elicitation/create", fmtTask(ttl, msg), nil)
	var ctr struct {
		Task json.RawMessage `json:"task"`
	}
	if m.Error != nil || json.Unmarshal(m.Result, &ctr) != nil || ctr.Task == nil {
		p.t.Fatalf("elicitation/create with a task: %s %v", m.Result, m.Error)
	}
	return decodeTask(p.t.(*testing.T), ctr.Task)
}

// TestReceiverTaskCancelledByServer: tasks/cancel moves a task of ours to
// cancelled before it answers, and its question ends Withdrawn with
// nothing kept; tasks/result then says it has no result, and a second
// cancel is -32602.
func TestReceiverTaskCancelledByServer(t *testing.T) {
	t.Parallel()
	g := newGate(answerFromMessage)
	s, p, _ := pipePeer(t, "2025-11-25", &client.Options{Prompter: g}, nil)
	tk := p.createTask(1, 60000, "question a")
	g.waitOpen(t, "question a")
	var status []receiverTask
	c := p.ask(2, "tasks/cancel", `{"taskId":"`+tk.TaskID+`"}`, &status)
	if c.Error != nil || decodeTask(t, c.Result).Status != "cancelled" {
		t.Fatalf("tasks/cancel: %s %v", c.Result, c.Error)
	}
	waitFor(t, "the question to end", func() bool { return g.cause("question a") != nil })
	if cause := g.cause("question a"); cause != question.ErrWithdrawn {
		t.Errorf("question ended with %v, want withdrawn", cause)
	}
	r := p.ask(3, "tasks/result", `{"taskId":"`+tk.TaskID+`"}`, &status)
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, "cancelled") {
		t.Errorf("tasks/result of a cancelled task: %s %v", r.Result, r.Error)
	}
	if c := p.ask(4, "tasks/cancel", `{"taskId":"`+tk.TaskID+`"}`, &status); c.Error == nil || c.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("second tasks/cancel: %s %v, want -32602", c.Result, c.Error)
	}
	if len(status) != 1 || status[0].Status != "cancelled" {
		t.Errorf("status notifications %+v: want one, cancelled", status)
	}
	e := waitJournal(t, s, 1)[0]
	if e.Kind != question.Withdrawn || e.Sent != "" {
		t.Errorf("journal %+v: want withdrawn, nothing sent", e)
	}
	if tk, ok := s.Task(tk.TaskID); !ok || !tk.Ours || tk.Status != client.TaskCancelled || !tk.Ended {
		t.Errorf("Session.Task: %+v %v", tk, ok)
	}
}

// TestReceiverTaskRefusedAndTTL: a task-augmented request whose params
// are refused still gets its task, which fails with the -32602 the plain
// request would have got (tasks/result sends it); the TTL asked for is
// kept within a minute and an hour, and unlimited (null) gets the hour.
func TestReceiverTaskRefusedAndTTL(t *testing.T) {
	t.Parallel()
	_, p, _ := pipePeer(t, "2025-11-25", &client.Options{Prompter: question.AcceptDefaults}, nil)
	m := p.ask(1, "elicitation/create", `{"task":{"ttl":5},"message":"m","requestedSchema":{"type":"array"}}`, nil)
	var ctr struct {
		Task receiverTask `json:"task"`
	}
	if err := json.Unmarshal(m.Result, &ctr); err != nil || ctr.Task.TTL == nil || *ctr.Task.TTL != 60000 {
		t.Fatalf("created %s %v: want a task with ttl 60000", m.Result, m.Error)
	}
	r := p.ask(2, "tasks/result", `{"taskId":"`+ctr.Task.TaskID+`"}`, nil)
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("tasks/result of a refused question: %s %v, want -32602", r.Result, r.Error)
	}
	if g := p.ask(3, "tasks/get", `{"taskId":"`+ctr.Task.TaskID+`"}`, nil); decodeTask(t, g.Result).Status != "failed" {
		t.Errorf("tasks/get: %s", g.Result)
	}
	for i, tc := range []struct {
		ttl  string
		want int64
	}{{"null", 3600000}, {"1e12", 3600000}, {`"soon"`, 3600000}, {"90000", 90000}} {
		m := p.ask(int64(10+i), "elicitation/create", `{"task":{"ttl":`+tc.ttl+`},"message":"m","requestedSchema":{"type":"object","properties":{}}}`, nil)
		if err := json.Unmarshal(m.Result, &ctr); err != nil || ctr.Task.TTL == nil || *ctr.Task.TTL != tc.want {
			t.Errorf("ttl %s: created %s, want ttl %d", tc.ttl, m.Result, tc.want)
		}
	}
	if m := p.ask(20, "elicitation/create", `{"task":3,"message":"m","requestedSchema":{"type":"object","properties":{}}}`, nil); m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("a task that is no object: %s %v, want -32602", m.Result, m.Error)
	}
}

// TestReceiverTaskNotDeclared: in 2025-06-18 we declare no tasks, so a
// task member is ignored and the request answered as usual (the spec's
// MUST for a receiver that did not declare it).
func TestReceiverTaskNotDeclared(t *testing.T) {
	t.Parallel()
	_, p, _ := pipePeer(t, "2025-06-18", &client.Options{Prompter: question.AcceptDefaults}, nil)
	m := p.ask(1, "elicitation/create", `{"task":{"ttl":60000},"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","default":"x"}}}}`, nil)
	if m.Error != nil || !strings.Contains(string(m.Result), `"action":"accept"`) || strings.Contains(string(m.Result), "task") {
		t.Errorf("answer %s %v: want a plain ElicitResult", m.Result, m.Error)
	}
}

// TestReceiverTaskPersonCancelsAndCallAbandoned: the person cancelling a
// task of ours (CancelTask) sends nothing: the question is answered
// cancel and the task completes with it. A task question belonging to a
// call of ours that we give up ends Abandoned the same way.
func TestReceiverTaskPersonCancelsAndCallAbandoned(t *testing.T) {
	t.Parallel()
	g := newGate(answerFromMessage)
	s, p, _ := pipePeer(t, "2025-11-25", &client.Options{Prompter: g}, nil)
	tk := p.createTask(1, 60000, "question a")
	g.waitOpen(t, "question a")
	if err := s.CancelTask(t.Context(), tk.TaskID); err != nil {
		t.Fatal(err)
	}
	r := p.ask(2, "tasks/result", `{"taskId":"`+tk.TaskID+`"}`, nil)
	if r.Error != nil || !strings.Contains(string(r.Result), `"action":"cancel"`) {
		t.Errorf("tasks/result after the person cancelled: %s %v", r.Result, r.Error)
	}
	if err := s.CancelTask(t.Context(), tk.TaskID); err == nil {
		t.Error("CancelTask of an ended task of ours: no error")
	}

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, "slow", map[string]any{}, nil)
		done <- err
	}()
	p.expect("tools/call")
	tk2 := p.createTask(3, 60000, "question b")
	g.waitOpen(t, "question b")
	cancel()
	<-done
	waitFor(t, "question b to end", func() bool { return g.cause("question b") != nil })
	if cause := g.cause("question b"); cause != question.ErrAbandoned {
		t.Errorf("question b ended with %v, want abandoned", cause)
	}
	r = p.ask(4, "tasks/result", `{"taskId":"`+tk2.TaskID+`"}`, nil)
	if r.Error != nil || !strings.Contains(string(r.Result), `"action":"cancel"`) {
		t.Errorf("tasks/result after our call was given up: %s %v", r.Result, r.Error)
	}
}

// TestReceiverTasksBoundAndPages: the table holds at most 128 tasks; with
// every one waiting on the person, the next is refused. tasks/list pages
// them 50 at a time, oldest first, and refuses a cursor it did not give.
func TestReceiverTasksBoundAndPages(t *testing.T) {
	t.Parallel()
	g := newGate(answerFromMessage)
	_, p, _ := pipePeer(t, "2025-11-25", &client.Options{Prompter: g}, nil)
	var ids []string
	for i := range 128 {
		ids = append(ids, p.createTask(int64(i+1), 60000, fmt.Sprintf("question %d", i)).TaskID)
	}
	if m := p.ask(1000, "elicitation/create", fmtTask(60000, "one too many"), nil); m.Error == nil || m.Error.Code != jsonrpc.CodeInternalError {
		t.Errorf("the 129th task: %s %v, want refused", m.Result, m.Error)
	}
	var listed []string
	cursor := ""
	for page := 0; ; page++ {
		params := `{}`
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		m := p.ask(int64(2000+page), "tasks/list", params, nil)
		var l struct {
			Tasks      []receiverTask `json:"tasks"`
			NextCursor string         `json:"nextCursor"`
		}
		if err := json.Unmarshal(m.Result, &l); err != nil {
			t.Fatalf("tasks/list: %s %v", m.Result, m.Error)
		}
		if len(l.Tasks) > 50 {
			t.Errorf("page of %d", len(l.Tasks))
		}
		for _, tk := range l.Tasks {
			listed = append(listed, tk.TaskID)
		}
		if cursor = l.NextCursor; cursor == "" || page > 5 {
			break
		}
	}
	if strings.Join(listed, ",") != strings.Join(ids, ",") {
		t.Errorf("listed %d tasks, want the 128 in order", len(listed))
	}
	if m := p.ask(3000, "tasks/list", `{"cursor":"x"}`, nil); m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("bad cursor: %s %v, want -32602", m.Result, m.Error)
	}
}

// TestReceiverTaskSampling: a task-augmented sampling/createMessage is a
// task of ours too (declared with sampling): tasks/result answers the
// CreateMessageResult with related-task, or, refused, the spec's -1.
func TestReceiverTaskSampling(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p, _ := pipePeer(t, "2025-11-25", &client.Options{Sampling: client.SamplingOn, Prompter: question.Route{question.KindSampling: question.SampleEcho}}, rec)
	const params = `{"task":{"ttl":60000},"messages":[{"role":"user","content":{"type":"text","text":"hello there"}}],"maxTokens":20}`
	m := p.ask(1, "sampling/createMessage", params, nil)
	var ctr struct {
		Task receiverTask `json:"task"`
	}
	if err := json.Unmarshal(m.Result, &ctr); err != nil || ctr.Task.TaskID == "" {
		t.Fatalf("sampling/createMessage with a task: %s %v", m.Result, m.Error)
	}
	r := p.ask(2, "tasks/result", `{"taskId":"`+ctr.Task.TaskID+`"}`, nil)
	if r.Error != nil || !strings.Contains(string(r.Result), `"text":"hello there"`) || !strings.Contains(string(r.Result), `"role":"assistant"`) ||
		!strings.Contains(string(r.Result), `"io.modelcontextprotocol/related-task":{"taskId":"`+ctr.Task.TaskID+`"}`) {
		t.Errorf("tasks/result: %s %v", r.Result, r.Error)
	}
	waitFor(t, "the sampling question journalled", func() bool { return s.Journal().SamplingCounts().Total() == 1 })
	e := s.Journal().Entries()[0]
	if e.Key.Delivery != question.ReceiverTask || e.Asked != question.KindSampling || e.Sampling == nil || e.Sampling.Result == nil {
		t.Errorf("journal %+v", e)
	}

	_, p2, _ := pipePeer(t, "2025-11-25", &client.Options{Sampling: client.SamplingOn, Prompter: question.Route{question.KindSampling: question.DeclineAll}}, nil)
	m = p2.ask(1, "sampling/createMessage", params, nil)
	if err := json.Unmarshal(m.Result, &ctr); err != nil || ctr.Task.TaskID == "" {
		t.Fatalf("created %s %v", m.Result, m.Error)
	}
	r = p2.ask(2, "tasks/result", `{"taskId":"`+ctr.Task.TaskID+`"}`, nil)
	if r.Error == nil || r.Error.Code != question.CodeUserRejected {
		t.Errorf("tasks/result of a declined sampling task: %s %v, want -1", r.Result, r.Error)
	}
	if g := p2.ask(3, "tasks/get", `{"taskId":"`+ctr.Task.TaskID+`"}`, nil); decodeTask(t, g.Result).Status != "failed" {
		t.Errorf("tasks/get: %s", g.Result)
	}
}
