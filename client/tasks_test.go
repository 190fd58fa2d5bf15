package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The task engine against the demo server, its real peer, in both designs
// (2025-11-25 core tasks, the 2026-07-28 extension) over in-memory stdio
// framing and HTTP.

// TestTaskReflowMonth: a required-task tool called headless blocks until
// the task is terminal and returns its result; its one question is shown
// once, as the task's, and answered once; polls keep to the interval.
func TestTaskReflowMonth(t *testing.T) {
	t.Parallel()
	for _, tp := range taskPeers {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			pr := newTaskPrompter(chooseReflow("split_rooms"))
			s := connectTasks(t, tp, fastTasks(), &client.Options{Prompter: pr}, rec)
			if c := s.ServerCapabilities(); tp.design == client.TaskDesignCore && !(c.TasksToolsCall && c.TasksList && c.TasksCancel) ||
				tp.design == client.TaskDesignExtension && !c.TasksExtension {
				t.Errorf("task capabilities %+v", c)
			}
			start := time.Now()
			res, err := s.CallTool(t.Context(), "reflow_month", nil, nil)
			elapsed := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Text(), "Split across two rooms") || res.IsError {
				t.Errorf("result %q (isError %v)", res.Text(), res.IsError)
			}

			tasks := s.Tasks()
			if len(tasks) != 1 {
				t.Fatalf("Tasks() = %+v", tasks)
			}
			tk := tasks[0]
			if tk.Status != client.TaskCompleted || !tk.Ended || tk.Lost || tk.Err != nil || tk.Design != tp.design ||
				tk.Tool != "reflow_month" || tk.Server != s.Name() || !tk.CallID.IsValid() || tk.Result == nil ||
				tk.PollInterval != taskPoll || tk.TTL <= 0 || tk.CreatedAt.IsZero() || len(tk.OpenPrompts) != 0 {
				t.Errorf("task %+v", tk)
			}
			if left, ok := tk.TTLLeft(tk.CreatedAt); !ok || left != tk.TTL {
				t.Errorf("TTLLeft at creation = %v, %v; want %v", left, ok, tk.TTL)
			}

			// Polls: counted, never closer than pollInterval, bounded.
			polls := rec.sentTask("tasks/get", tk.ID)
			if len(polls) == 0 || len(polls) != tk.Polls {
				t.Errorf("%d tasks/get on the wire, Task.Polls %d", len(polls), tk.Polls)
			}
			checkPolls(t, polls, taskPoll, int(elapsed/taskPoll)+1)

			// The question: once, owned by the task.
			prompts := pr.prompts()
			if len(prompts) != 1 {
				t.Fatalf("%d prompts, want 1", len(prompts))
			}
			p := prompts[0]
			want := question.Origin{Kind: question.OriginTask, Name: "reflow_month", CallID: tk.CallID, TaskID: tk.ID}
			if !reflect.DeepEqual(p.Origin, want) {
				t.Errorf("origin %+v, want %+v", p.Origin, want)
			}
			entries := waitJournal(t, s, 1)
			if len(entries) != 1 || entries[0].Kind != question.Accept || !reflect.DeepEqual(entries[0].Origin, want) || entries[0].Key != p.Key {
				t.Errorf("journal %+v", entries)
			}

			// While the question was open, the task said so.
			sawOpen := false
			for _, c := range taskChanges(rec, tk.ID) {
				if c.Status == client.TaskInputRequired && len(c.OpenPrompts) == 1 && c.OpenPrompts[0] == p.Key {
					sawOpen = true
				}
			}
			if !sawOpen {
				t.Errorf("no TaskChanged showed the open prompt %v", p.Key)
			}
			if last := lastTask(t, rec, "reflow_month"); last.Status != client.TaskCompleted || last.Polls != tk.Polls {
				t.Errorf("last TaskChanged %+v", last)
			}

			calls := rec.sentTask("tools/call", "")
			if len(calls) != 1 {
				t.Fatalf("%d tools/call", len(calls))
			}
			var call struct {
				Task *struct {
					TTL int64 `json:"ttl"`
				} `json:"task"`
				Meta map[string]json.RawMessage `json:"_meta"`
			}
			_ = json.Unmarshal(calls[0].msg.Params, &call)

			if tp.design == client.TaskDesignCore {
				if call.Task == nil || call.Task.TTL != client.DefaultTaskTTL.Milliseconds() {
					t.Errorf("tools/call params.task = %+v, want ttl %d", call.Task, client.DefaultTaskTTL.Milliseconds())
				}
				if p.Key.Delivery != question.ServerRequest {
					t.Errorf("key %v: want the server's request id", p.Key)
				}
				if n := len(rec.sentTask("tasks/result", tk.ID)); n != 1 {
					t.Errorf("%d tasks/result, want exactly 1 (one input_required transition)", n)
				}
				// Our answer carries the related-task _meta.
				answers := rec.responsesTo(p.Key.RequestID.String())
				if len(answers) != 1 {
					t.Fatalf("%d answers to the elicitation", len(answers))
				}
				var r struct {
					Action string `json:"action"`
					Meta   map[string]struct {
						TaskID string `json:"taskId"`
					} `json:"_meta"`
				}
				_ = json.Unmarshal(answers[0].Result, &r)
				if r.Action != "accept" || r.Meta["io.modelcontextprotocol/related-task"].TaskID != tk.ID {
					t.Errorf("answer %s: want accept with related-task %s", answers[0].Result, tk.ID)
				}
				return
			}
			if call.Task != nil {
				t.Errorf("2026-07-28 tools/call carries params.task")
			}
			wantKey := question.Key{Server: s.Name(), Delivery: question.TaskInput, TaskID: tk.ID, Input: "placement"}
			if p.Key != wantKey {
				t.Errorf("key %+v, want %+v", p.Key, wantKey)
			}
			updates := rec.sentTask("tasks/update", tk.ID)
			if len(updates) != 1 {
				t.Fatalf("%d tasks/update, want exactly 1 (one key)", len(updates))
			}
			var u struct {
				Responses map[string]struct {
					Action  string         `json:"action"`
					Content map[string]any `json:"content"`
				} `json:"inputResponses"`
			}
			_ = json.Unmarshal(updates[0].msg.Params, &u)
			if len(u.Responses) != 1 || u.Responses["placement"].Action != "accept" || u.Responses["placement"].Content["choice"] != "split_rooms" {
				t.Errorf("tasks/update %s", updates[0].msg.Params)
			}
			// The extension is declared on every request, tasks/* included.
			for _, m := range rec.out() {
				if m.Method == "" || strings.HasPrefix(m.Method, "notifications/") {
					continue
				}
				var pm struct {
					Meta struct {
						Caps struct {
							Extensions map[string]json.RawMessage `json:"extensions"`
						} `json:"io.modelcontextprotocol/clientCapabilities"`
					} `json:"_meta"`
				}
				_ = json.Unmarshal(m.Params, &pm)
				if _, ok := pm.Meta.Caps.Extensions["io.modelcontextprotocol/tasks"]; !ok {
					t.Errorf("%s does not declare the tasks extension: %s", m.Method, m.Params)
				}
			}
		})
	}
}

// TestTaskCallCancelled: a person cancelling a task call's context sends
// tasks/cancel (never notifications/cancelled for the call), the call
// returns at once, the task's prompt ends Abandoned, and polling goes on
// in the background until the task really ended (cancelled).
func TestTaskCallCancelled(t *testing.T) {
	t.Parallel()
	for _, tp := range taskPeers {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			pr := newTaskPrompter(holdPrompt)
			// Slower moves, so that the cancel lands long before the job
			// could finish on its own.
			dopts := &demo.Options{TaskPollInterval: taskPoll, TaskStep: 50 * time.Millisecond}
			s := connectTasks(t, tp, dopts, &client.Options{Prompter: pr}, rec)
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() {
				_, err := s.CallTool(ctx, "reflow_month", nil, nil)
				done <- err
			}()
			p := recvWithin(t, pr.opened, "the task's question")
			cancel()
			if err := recvWithin(t, done, "CallTool's return"); !errors.Is(err, context.Canceled) {
				t.Fatalf("CallTool: %v, want context.Canceled", err)
			}
			final := lastTask(t, rec, "reflow_month")
			if final.Status != client.TaskCancelled || !final.CancelRequested || final.Lost || final.Err != nil {
				t.Errorf("final %+v", final)
			}
			waitJournal(t, s, 1)
			if e := s.Journal().Entries()[0]; e.Kind != question.Abandoned || e.Key != p.Key {
				t.Errorf("journal %+v, want the prompt Abandoned", e)
			}
			if c := pr.cause(p.Key); !errors.Is(c, question.ErrAbandoned) {
				t.Errorf("prompt ended with %v, want ErrAbandoned", c)
			}
			if n := len(rec.sentTask("tasks/cancel", final.ID)); n != 1 {
				t.Errorf("%d tasks/cancel, want 1", n)
			}
			for _, m := range rec.sentTask("notifications/cancelled", "") {
				var c struct {
					RequestID json.RawMessage `json:"requestId"`
				}
				_ = json.Unmarshal(m.msg.Params, &c)
				if string(c.RequestID) == final.CallID.String() {
					t.Errorf("notifications/cancelled for the task's tools/call: %s", m.msg.Params)
				}
			}
			if tp.design == client.TaskDesignExtension {
				// Abandoned: tasks/cancel went out instead of an answer.
				if n := len(rec.sentTask("tasks/update", final.ID)); n != 0 {
					t.Errorf("%d tasks/update after the person cancelled", n)
				}
			}
		})
	}
}

// TestTaskCancelTask: CancelTask while CallTool waits. 2025-11-25 moves the
// task to cancelled at once; in the extension cancel is only a request,
// and reflow_stubborn ignores it: the call ends completed, and says so.
func TestTaskCancelTask(t *testing.T) {
	t.Parallel()
	for _, tp := range taskPeers {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			dopts := &demo.Options{TaskPollInterval: taskPoll, TaskStep: 20 * time.Millisecond}
			s := connectTasks(t, tp, dopts, &client.Options{}, rec)
			type outcome struct {
				res *wire.CallToolResult
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				res, err := s.CallTool(t.Context(), "reflow_stubborn", nil, nil)
				done <- outcome{res, err}
			}()
			first := waitEvent(t, rec, func(e client.TaskChanged) bool { return e.Task.Tool == "reflow_stubborn" }).Task
			if err := s.CancelTask(t.Context(), first.ID); err != nil {
				t.Fatal(err)
			}
			got := recvWithin(t, done, "CallTool's return")
			final, _ := s.Task(first.ID)
			if !final.Ended || !final.CancelRequested || final.Lost {
				t.Errorf("final %+v", final)
			}
			if n := len(rec.sentTask("tasks/cancel", first.ID)); n != 1 {
				t.Errorf("%d tasks/cancel", n)
			}
			if tp.design == client.TaskDesignCore {
				if !errors.Is(got.err, client.ErrTaskCancelled) || final.Status != client.TaskCancelled {
					t.Errorf("CallTool %v, status %s: want cancelled", got.err, final.Status)
				}
				return
			}
			if got.err != nil || !strings.Contains(got.res.Text(), "cancel request was ignored") || final.Status != client.TaskCompleted {
				t.Errorf("CallTool %v %v, status %s: want completed, cancel ignored", got.res, got.err, final.Status)
			}
		})
	}
}

// TestTaskFailures: a job's JSON-RPC error fails the task (in both
// designs), and an isError result fails it in 2025-11-25 but completes it
// in the extension; either way CallTool returns the isError result.
func TestTaskFailures(t *testing.T) {
	t.Parallel()
	for _, tp := range taskPeers {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			s := connectTasks(t, tp, fastTasks(), &client.Options{}, rec)

			_, err := s.CallTool(t.Context(), "reflow_fail", nil, nil)
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInternalError || !strings.Contains(rpcErr.Message, "locked for maintenance") {
				t.Errorf("reflow_fail: %v, want the job's -32603", err)
			}
			failed := lastTask(t, rec, "reflow_fail")
			if failed.Status != client.TaskFailed || !errors.As(failed.Err, &rpcErr) || failed.Result != nil {
				t.Errorf("reflow_fail task %+v", failed)
			}

			res, err := s.CallTool(t.Context(), "reflow_iserror", nil, nil)
			if err != nil || !res.IsError || !strings.Contains(res.Text(), "fire drill") {
				t.Fatalf("reflow_iserror: %v, %v", res, err)
			}
			want := client.TaskCompleted
			if tp.design == client.TaskDesignCore {
				want = client.TaskFailed
			}
			if tk := lastTask(t, rec, "reflow_iserror"); tk.Status != want || tk.Err != nil || tk.Result == nil || !tk.Result.IsError {
				t.Errorf("reflow_iserror task %+v, want %s with the isError result", tk, want)
			}
		})
	}
}

// TestTaskOptionalInline: AsTask false runs an optional-task tool as a
// plain call; forbidden tools never run as tasks.
func TestTaskOptionalInline(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := connectTasks(t, taskPeers[0], fastTasks(), &client.Options{}, rec)
	no := false
	res, err := s.CallTool(t.Context(), "reflow_iserror", nil, &client.CallOptions{AsTask: &no})
	if err != nil || !res.IsError {
		t.Fatalf("inline reflow_iserror: %v, %v", res, err)
	}
	yes := true
	if _, err := s.CallTool(t.Context(), "echo", map[string]any{"text": "x"}, &client.CallOptions{AsTask: &yes}); err != nil {
		t.Fatal(err)
	}
	if tasks := s.Tasks(); len(tasks) != 0 {
		t.Errorf("tasks %+v, want none", tasks)
	}
	for _, m := range rec.sentTask("tools/call", "") {
		if strings.Contains(string(m.msg.Params), `"task"`) {
			t.Errorf("a task was asked for: %s", m.msg.Params)
		}
	}
}

// TestTaskDetached: a task call whose context ends with ErrTaskDetached
// returns at once without cancelling the task, which is followed on: its
// question stays open, and once answered the task completes.
func TestTaskDetached(t *testing.T) {
	t.Parallel()
	for _, tp := range []taskPeer{taskPeers[0], taskPeers[1]} {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			release := make(chan struct{})
			pr := newTaskPrompter(func(ctx context.Context, p *question.Question) question.Outcome {
				select {
				case <-release:
					return chooseReflow("cancel_notify")(ctx, p)
				case <-ctx.Done():
					return question.Outcome{Kind: question.Cancel}
				}
			})
			s := connectTasks(t, tp, fastTasks(), &client.Options{Prompter: pr}, rec)
			ctx, cancel := context.WithCancelCause(t.Context())
			done := make(chan error, 1)
			go func() {
				_, err := s.CallTool(ctx, "reflow_month", nil, nil)
				done <- err
			}()
			recvWithin(t, pr.opened, "the task's question")
			cancel(client.ErrTaskDetached)
			if err := recvWithin(t, done, "CallTool's return"); !errors.Is(err, client.ErrTaskDetached) {
				t.Fatalf("CallTool: %v, want ErrTaskDetached", err)
			}
			close(release)
			final := lastTask(t, rec, "reflow_month")
			if final.Status != client.TaskCompleted || final.CancelRequested || !strings.Contains(final.Result.Text(), "Cancel and notify") {
				t.Errorf("final %+v", final)
			}
			if n := len(rec.sentTask("tasks/cancel", final.ID)); n != 0 {
				t.Errorf("%d tasks/cancel for a detached task", n)
			}
		})
	}
}
