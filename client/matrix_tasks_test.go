package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The terminal-path matrix's task rows (docs/terminal-paths.md): the
// 2025-11-25 core task and the 2026-07-28 tasks extension, against the
// task server of matrix_tasks_server_test.go.

// The task rows' transports: the same three as MRTR's, with the task
// server at the far end. matrixDelivery.mrtr picks the design here: set,
// the 2026-07-28 extension (over stateless HTTP); unset, 2025-11-25 core
// tasks (over stateful HTTP).

var taskStdioPipe = matrixTransport{name: stdioPipe.name, start: func(t *testing.T, ext bool, opts *client.Options, rec *recorder) *fixture {
	return pipeFixture(t, func(life context.Context) *mcp.Server { return newMatrixTaskServer(life, ext) }, opts, rec)
}}

var taskStdioProcess = matrixTransport{name: stdioProcess.name, start: func(t *testing.T, ext bool, opts *client.Options, rec *recorder) *fixture {
	design := "core"
	if ext {
		design = "ext"
	}
	d := &processDialer{Stdio: transport.Stdio{
		Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: []string{matrixTaskEnv + "=" + design},
		Observer: rec, ShutdownGrace: 500 * time.Millisecond,
	}}
	s := connectFixture(t, d, opts, rec)
	return &fixture{s: s, rec: rec, kill: func() { _ = d.proc.Kill() }}
}}

var taskStreamableHTTP = matrixTransport{name: streamableHTTP.name, start: func(t *testing.T, ext bool, opts *client.Options, rec *recorder) *fixture {
	life, stop := context.WithCancel(context.Background())
	srv := newMatrixTaskServer(life, ext)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: ext})
	t.Cleanup(func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	return httpFixture(t, h, &transport.HTTP{Observer: rec}, opts, rec, stop)
}}

// taskWire renders what went out for a task's prompt: our answers to the
// server's requests (the elicitation/create) and each tasks/update's
// inputResponses.q, in order; then each tasks/cancel (after the answers
// whatever their order: the engine sends the abandoned question's cancel
// and tasks/cancel from two goroutines); last, how the task ended as the
// engine followed it ("task completed", "task lost"). It first waits for
// the task's last snapshot, since a task is followed past the call (the
// person cancelled it), and then checks that nothing is held, that the
// prompt belongs to the task, and how tools/call asked for it.
func taskWire(ext bool) func(t *testing.T, f *fixture, e question.JournalEntry) string {
	return func(t *testing.T, f *fixture, e question.JournalEntry) string {
		t.Helper()
		tk := waitEvent(t, f.rec, func(ev client.TaskChanged) bool { return ev.Task.Ended }).Task
		waitFor(t, "Pending to empty after the task ended", func() bool { o, i := f.s.Pending(); return o == 0 && i == 0 })
		if e.Origin.Kind != question.OriginTask || e.Origin.TaskID != tk.ID || e.Origin.Name != "ask" {
			t.Errorf("journal origin %+v, want task %s of ask", e.Origin, tk.ID)
		}
		if want := question.ServerRequest; ext {
			if e.Key.Delivery != question.TaskInput || e.Key.TaskID != tk.ID || e.Key.Input != "q" {
				t.Errorf("prompt key %+v, want task %s input q", e.Key, tk.ID)
			}
		} else if e.Key.Delivery != want {
			t.Errorf("prompt key %+v, want a server request", e.Key)
		}
		// Core tasks are asked for (params.task); the extension's server
		// decides, and the legacy param is not sent.
		want := `{"ttl":60000}`
		if ext {
			want = "<absent>"
		}
		if calls := f.rec.toolCalls(); len(calls) != 1 {
			t.Errorf("%d tools/call, want 1", len(calls))
		} else if got := compactJSON(t, member(t, calls[0].Params, "task")); got != want {
			t.Errorf("tools/call params.task %s, want %s", got, want)
		}
		var parts []string
		cancels := 0 // listed after the answers: the two race (see cellWant)
		for _, m := range f.rec.out() {
			switch {
			case m.Method == "" && m.ID != nil:
				if m.Error != nil {
					parts = append(parts, fmt.Sprintf("error %d", m.Error.Code))
					continue
				}
				parts = append(parts, compactJSON(t, m.Result))
			case m.Method == "tasks/update":
				var p struct {
					TaskID         string                     `json:"taskId"`
					InputResponses map[string]json.RawMessage `json:"inputResponses"`
				}
				if err := json.Unmarshal(m.Params, &p); err != nil || p.TaskID != tk.ID {
					t.Errorf("tasks/update params %s", m.Params)
				}
				for _, k := range slices.Sorted(maps.Keys(p.InputResponses)) {
					if k != "q" {
						t.Errorf("tasks/update answers %q, which was never asked", k)
					}
					parts = append(parts, compactJSON(t, p.InputResponses[k]))
				}
			case m.Method == "tasks/cancel":
				cancels++
			case m.Method == "tasks/result" && ext:
				t.Errorf("tasks/result sent in the extension")
			}
		}
		for range cancels {
			parts = append(parts, "tasks/cancel")
		}
		if t.Failed() {
			// What the engine said along the way, for a failure's why.
			for _, ev := range f.rec.Events() {
				if n, ok := ev.(client.Notice); ok {
					t.Logf("notice at %s: %s", n.Time.Format("15:04:05.000"), n.Text)
				}
			}
			t.Logf("task %+v", tk)
		}
		end := string(tk.Status)
		if tk.Lost {
			end = "lost"
		}
		return strings.Join(append(parts, "task "+end), " | ")
	}
}

// coreAnswer is wire, an answer to a task's elicitation/create, as it goes
// out: with the related-task _meta of the cell's one task, mt-1.
func coreAnswer(wire string) string {
	return strings.TrimSuffix(wire, "}") + `,"_meta":{"` + metaRelatedTask + `":{"taskId":"mt-1"}}}`
}

// matrixTaskTTL is the ttl the core rows ask for.
const matrixTaskTTL = time.Minute

var coreTaskDelivery = matrixDelivery{
	name:       "task (2025-11-25)",
	transports: []matrixTransport{taskStdioPipe, taskStdioProcess, taskStreamableHTTP},
	call:       &client.CallOptions{TaskSupport: client.TaskSupportRequired, TaskTTL: matrixTaskTTL},
	wire:       taskWire(false),
	want: func(tr, end string) cellWant {
		switch end {
		case "accept":
			return cellWant{kind: question.Accept, wire: coreAnswer(wireAccept) + " | task completed", sent: "accept", result: "accept yes"}
		case "decline":
			return cellWant{kind: question.Decline, wire: coreAnswer(wireDecline) + " | task completed", sent: "decline", result: "decline <nil>"}
		case "cancel":
			return cellWant{kind: question.Cancel, wire: coreAnswer(wireCancel) + " | task completed", sent: "cancel", result: "cancel <nil>"}
		case "withdrawn":
			// The server cancels its own elicitation/create.
			return cellWant{kind: question.Withdrawn, wire: "task completed", result: "withdrawn"}
		case "transport closed":
			if tr == streamableHTTP.name {
				// The question, which came on the tasks/result stream,
				// ends Disconnected at once (TestMatrixTaskResultStreamLost).
				return cellWant{kind: question.Disconnected, wire: "task lost", result: "error: " + client.ErrTaskLost.Error()}
			}
			return cellWant{kind: question.Disconnected, wire: "task lost", result: "error: " + question.ErrDisconnected.Error()}
		case "invalid content":
			return cellWant{kind: question.Invalid, wire: "error -32602 | task completed", sent: "error -32602", result: "error "}
		case "call cancelled":
			// The question is answered cancel, tasks/cancel replaces
			// notifications/cancelled, and the task is followed on until
			// the server says it is cancelled.
			return cellWant{kind: question.Abandoned, wire: coreAnswer(wireCancel) + " | tasks/cancel | task cancelled", sent: "cancel", result: "error: " + errPersonCancelled.Error()}
		case "prompt timeout":
			return cellWant{kind: question.Timeout, wire: coreAnswer(wireCancel) + " | task completed", sent: "cancel", result: "cancel <nil>"}
		}
		panic("unknown end " + end)
	},
}

var extTaskDelivery = matrixDelivery{
	name:       "extension task (2026-07-28)",
	mrtr:       true,
	transports: []matrixTransport{taskStdioPipe, taskStdioProcess, taskStreamableHTTP},
	wire:       taskWire(true),
	want: func(tr, end string) cellWant {
		switch end {
		case "accept":
			return cellWant{kind: question.Accept, wire: wireAccept + " | task completed", sent: "accept", result: "accept yes"}
		case "decline":
			return cellWant{kind: question.Decline, wire: wireDecline + " | task completed", sent: "decline", result: "decline <nil>"}
		case "cancel":
			return cellWant{kind: question.Cancel, wire: wireCancel + " | task completed", sent: "cancel", result: "cancel <nil>"}
		case "withdrawn":
			// The server stops listing q (the task goes back to working).
			return cellWant{kind: question.Withdrawn, wire: "task completed", result: "withdrawn"}
		case "transport closed":
			if tr == streamableHTTP.name {
				return cellWant{kind: question.Disconnected, wire: "task lost", result: "error: " + client.ErrTaskLost.Error()}
			}
			return cellWant{kind: question.Disconnected, wire: "task lost", result: "error: " + question.ErrDisconnected.Error()}
		case "invalid content":
			// No per-key error exists: the key is answered cancel.
			return cellWant{kind: question.Invalid, wire: wireCancel + " | task completed", sent: "cancel", result: "cancel <nil>"}
		case "call cancelled":
			// Nothing for the key; tasks/cancel instead, then followed on.
			return cellWant{kind: question.Abandoned, wire: "tasks/cancel | task cancelled", result: "error: " + errPersonCancelled.Error()}
		case "prompt timeout":
			return cellWant{kind: question.Timeout, wire: wireCancel + " | task completed", sent: "cancel", result: "cancel <nil>"}
		}
		panic("unknown end " + end)
	},
}

// TestMatrixTaskResultStreamLost: over Streamable HTTP the stream of a
// 2025-11-25 tasks/result breaks (the connections drop; the server lives
// on) while the person looks at the task's question. The question stays
// open: go-sdk keeps its elicitation/create pending, and the answer is
// POSTed on its own, not on the lost stream. tasks/result is called again
// at the next poll, and the call ends with the task's result. (Before the
// fix in tasks_core.go, serverAnswered, the transport's made-up error
// counted as tasks/result's answer: no second tasks/result, and the call
// failed with the lost stream's error though the task completed.)
func TestMatrixTaskResultStreamLost(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	release := make(chan struct{})
	pr := newTaskPrompter(func(ctx context.Context, p *question.Question) question.Outcome {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "yes"}}
	})
	life, stop := context.WithCancel(context.Background())
	srv := newMatrixTaskServer(life, false)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	t.Cleanup(func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	t.Cleanup(stop) // the tools end before Close waits for them
	s := connectFixture(t, &transport.HTTP{URL: ts.URL, Observer: rec}, &client.Options{Name: "matrix", Prompter: pr}, rec)
	done := make(chan callResult, 1)
	go func() {
		res, err := s.CallTool(context.Background(), "ask", nil, coreTaskDelivery.call)
		if err != nil {
			done <- callResult{err: err}
			return
		}
		done <- callResult{text: res.Text()}
	}()
	p := recvWithin(t, pr.opened, "the prompt")
	ts.CloseClientConnections() // the listener stays: the server lives on
	waitFor(t, "a second tasks/result", func() bool { return len(rec.sentTask("tasks/result", "mt-1")) == 2 })
	for _, ev := range rec.Events() {
		if r, ok := ev.(client.PromptResolved); ok {
			t.Fatalf("the prompt ended when the stream broke: %v (%s)", r.Entry.Kind, r.Entry.Reason)
		}
	}
	close(release)
	if r := recvWithin(t, done, "the call's end"); r.err != nil || r.text != "accept yes" {
		t.Errorf("call = %q, %v; want accept yes", r.text, r.err)
	}
	if n := len(pr.prompts()); n != 1 {
		t.Errorf("%d prompts, want 1", n)
	}
	if e := waitJournal(t, s, 1); len(e) != 1 || e[0].Kind != question.Accept || e[0].Key != p.Key {
		t.Errorf("journal %+v", e)
	}
	if got := rec.responsesTo(p.Key.RequestID.String()); len(got) != 1 || compactJSON(t, got[0].Result) != coreAnswer(wireAccept) {
		t.Errorf("answers on the wire %+v, want one accept", got)
	}
	waitFor(t, "Pending to empty", func() bool { o, i := s.Pending(); return o == 0 && i == 0 })
}
