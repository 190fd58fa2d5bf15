package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// A 2025-11-25 task's questions (elicitation/create requests naming it in
// related-task _meta) belong to the task: they are among its OpenPrompts,
// and cancelling the task ends them Abandoned, whenever they arrive.

const (
	coreWorking   = `{"taskId":"c1","status":"working","createdAt":"2026-08-01T10:00:00Z","lastUpdatedAt":"2026-08-01T10:00:00Z","ttl":5000,"pollInterval":60000}`
	coreCancelled = `{"taskId":"c1","status":"cancelled","createdAt":"2026-08-01T10:00:00Z","lastUpdatedAt":"2026-08-01T10:00:01Z","ttl":5000,"pollInterval":60000}`
	relatedC1     = `"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"c1"}}`
	cancelC1      = `{"action":"cancel",` + relatedC1 + `}`
)

func coreQuestion(i int) string {
	return fmt.Sprintf(`{"message":"q%d","requestedSchema":{"type":"object","properties":{}},%s}`, i, relatedC1)
}

// startCoreTask has s call a task tool and returns the peer's tools/call
// and where CallTool's error will go.
func startCoreTask(t *testing.T, s *client.Session, p *peer) (*jsonrpc.Message, <-chan error) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(t.Context(), "job", nil, &client.CallOptions{TaskSupport: client.TaskSupportRequired})
		done <- err
	}()
	return p.expect("tools/call"), done
}

// TestTaskQuestionsRaceCancel: questions arriving while we cancel their
// task each end Abandoned (answered cancel), whether they came just before
// the cancel (ended by it) or just after (ended at once); none is left
// open. The server answers tasks/cancel only once all are answered, so the
// task is live for every one of them.
func TestTaskQuestionsRaceCancel(t *testing.T) {
	t.Parallel()
	const n = 32
	rec := &recorder{}
	s, p, sc := pipePeer(t, wire.Protocol2025_11_25, &client.Options{Prompter: newTaskPrompter(holdPrompt)}, rec)
	call, done := startCoreTask(t, s, p)
	p.respond(call.ID, `{"task":`+coreWorking+`}`)
	waitEvent(t, rec, func(e client.TaskChanged) bool { return e.Task.ID == "c1" })

	sent := make(chan error, 1)
	go func() {
		for i := range n {
			m := &jsonrpc.Message{ID: jsonrpc.IntID(int64(100 + i)), Method: "elicitation/create", Params: json.RawMessage(coreQuestion(i))}
			if err := sc.Write(context.Background(), m, nil); err != nil {
				sent <- err
				return
			}
		}
		sent <- nil
	}()
	cancelled := make(chan error, 1)
	go func() { cancelled <- s.CancelTask(t.Context(), "c1") }()

	var cancelReq *jsonrpc.Message
	answers := map[jsonrpc.ID]string{}
	for len(answers) < n || cancelReq == nil {
		m := p.read()
		switch {
		case m.Method == "tasks/cancel":
			cancelReq = m
		case m.Method == "" && m.ID.IsValid():
			answers[m.ID] = string(m.Result)
		}
	}
	if err := recvWithin(t, sent, "the questions sent"); err != nil {
		t.Fatal(err)
	}
	p.respond(cancelReq.ID, coreCancelled)
	if err := recvWithin(t, cancelled, "CancelTask's return"); err != nil {
		t.Fatalf("CancelTask: %v", err)
	}
	if err := recvWithin(t, done, "CallTool's return"); !errors.Is(err, client.ErrTaskCancelled) {
		t.Fatalf("CallTool: %v, want ErrTaskCancelled", err)
	}
	for id, a := range answers {
		if a != cancelC1 {
			t.Errorf("question %s answered %s, want %s", id, a, cancelC1)
		}
	}
	for _, e := range waitJournal(t, s, n) {
		if e.Kind != question.Abandoned {
			t.Errorf("journal %s: %s, want question.Abandoned", e.Key, e.Kind)
		}
	}
	waitFor(t, "no open prompts", func() bool { tk, _ := s.Task("c1"); return len(tk.OpenPrompts) == 0 })
}

// TestTaskQuestionBeforeTask: a question naming a task that arrives before
// the CreateTaskResult is the task's as soon as we follow it: among its
// OpenPrompts from the first snapshot, and ended Abandoned when we cancel.
func TestTaskQuestionBeforeTask(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	pr := newTaskPrompter(holdPrompt)
	s, p, _ := pipePeer(t, wire.Protocol2025_11_25, &client.Options{Prompter: pr}, rec)
	call, done := startCoreTask(t, s, p)
	p.sendRaw(jsonrpc.IntID(100), "elicitation/create", coreQuestion(0))
	q := recvWithin(t, pr.opened, "the question")
	p.respond(call.ID, `{"task":`+coreWorking+`}`)
	first := waitEvent(t, rec, func(e client.TaskChanged) bool { return e.Task.ID == "c1" }).Task
	if !slices.Equal(first.OpenPrompts, []question.Key{q.Key}) {
		t.Errorf("first snapshot's OpenPrompts %v, want [%v]", first.OpenPrompts, q.Key)
	}

	cancelled := make(chan error, 1)
	go func() { cancelled <- s.CancelTask(t.Context(), "c1") }()
	var cancelReq *jsonrpc.Message
	var answer string
	for answer == "" || cancelReq == nil {
		m := p.read()
		switch {
		case m.Method == "tasks/cancel":
			cancelReq = m
		case m.Method == "" && m.ID == jsonrpc.IntID(100):
			answer = string(m.Result)
		}
	}
	p.respond(cancelReq.ID, coreCancelled)
	if answer != cancelC1 {
		t.Errorf("answer %s, want %s", answer, cancelC1)
	}
	if c := pr.cause(q.Key); !errors.Is(c, question.ErrAbandoned) {
		t.Errorf("question ended with %v, want question.ErrAbandoned", c)
	}
	if err := recvWithin(t, cancelled, "CancelTask's return"); err != nil {
		t.Fatalf("CancelTask: %v", err)
	}
	if err := recvWithin(t, done, "CallTool's return"); !errors.Is(err, client.ErrTaskCancelled) {
		t.Fatalf("CallTool: %v, want ErrTaskCancelled", err)
	}
	waitFor(t, "no open prompts", func() bool { tk, _ := s.Task("c1"); return len(tk.OpenPrompts) == 0 })
}
