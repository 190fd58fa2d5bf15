package client_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestTaskResumeExtension: an extension task outlives the session that
// created it. Closing that session loses the task there (nothing is
// cancelled); a new session resumes it by id, answers its question and
// gets the result. An id the server does not know ends Lost with its
// error.
func TestTaskResumeExtension(t *testing.T) {
	t.Parallel()
	url := demoURL(t, demo.HTTPHandlerStateless(fastTasks()))

	recA := &recorder{}
	prA := newTaskPrompter(holdPrompt)
	a := dialTasks(t, url, wire.Protocol2026_07_28, &client.Options{Prompter: prA}, recA)
	done := make(chan error, 1)
	go func() {
		_, err := a.CallTool(t.Context(), "reflow_month", nil, nil)
		done <- err
	}()
	pa := recvWithin(t, prA.opened, "the question in the first run")
	id := pa.Key.TaskID
	_ = a.Close() // the "restart"
	if err := recvWithin(t, done, "the first run's CallTool"); !errors.Is(err, client.ErrTaskLost) || !errors.Is(err, client.ErrClosed) {
		t.Errorf("first run: %v, want ErrTaskLost (closed)", err)
	}
	if n := len(recA.sentTask("tasks/cancel", id)) + len(recA.sentTask("tasks/update", id)); n != 0 {
		t.Errorf("closing sent %d tasks/cancel or tasks/update; the task must live on", n)
	}
	if e := a.Journal().Entries(); len(e) != 1 || e[0].Kind != question.Abandoned {
		t.Errorf("first run's journal %+v, want the question Abandoned", e)
	}

	recB := &recorder{}
	prB := newTaskPrompter(chooseReflow("move_atrium"))
	b := dialTasks(t, url, wire.Protocol2026_07_28, &client.Options{Prompter: prB}, recB)
	res, err := b.ResumeTask(t.Context(), id, "reflow_month")
	if err != nil || !strings.Contains(res.Text(), "Move to the atrium") {
		t.Fatalf("ResumeTask: %v, %v", res, err)
	}
	tk, ok := b.Task(id)
	if !ok || tk.Status != client.TaskCompleted || tk.Tool != "reflow_month" || tk.CallID.IsValid() || !tk.Ended {
		t.Errorf("resumed task %+v", tk)
	}
	if p := prB.prompts(); len(p) != 1 || p[0].Key != pa.Key || p[0].Origin.TaskID != id || p[0].Origin.Name != "reflow_month" {
		t.Errorf("second run's prompts %+v, want the same key %v", p, pa.Key)
	}
	checkPolls(t, recB.sentTask("tasks/get", id), taskPoll, 1000)

	_, err = b.ResumeTask(t.Context(), "no-such-task", "reflow_month")
	lost, _ := b.Task("no-such-task")
	var rpcErr *jsonrpc.Error
	if !errors.Is(err, client.ErrTaskLost) || !lost.Lost || !lost.Ended || !errors.As(lost.Err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown id: %v, task %+v; want Lost with the server's -32602", err, lost)
	}
}

// TestTaskResumeCore: 2025-11-25 tasks belong to the session that created
// them: resumed on a new session, the id is unknown and the task Lost.
func TestTaskResumeCore(t *testing.T) {
	t.Parallel()
	url := demoURL(t, demo.HTTPHandler(fastTasks()))
	recA := &recorder{}
	prA := newTaskPrompter(holdPrompt)
	a := dialTasks(t, url, wire.Protocol2025_11_25, &client.Options{Prompter: prA}, recA)
	done := make(chan error, 1)
	go func() {
		_, err := a.CallTool(t.Context(), "reflow_month", nil, nil)
		done <- err
	}()
	// Close once the question is open, so that it is answered (cancel):
	// a go-sdk server's DELETE waits for its open requests.
	recvWithin(t, prA.opened, "the question")
	first := a.Tasks()
	if len(first) != 1 {
		t.Fatalf("tasks %+v", first)
	}
	_ = a.Close()
	<-done

	b := dialTasks(t, url, wire.Protocol2025_11_25, &client.Options{}, &recorder{})
	_, err := b.ResumeTask(t.Context(), first[0].ID, "reflow_month")
	tk, _ := b.Task(first[0].ID)
	var rpcErr *jsonrpc.Error
	if !errors.Is(err, client.ErrTaskLost) || !tk.Lost || !errors.As(tk.Err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("resume on another session: %v, task %+v; want Lost with -32602", err, tk)
	}
	if _, err := b.ListTasks(t.Context()); err != nil {
		t.Errorf("ListTasks: %v", err)
	}
}

// TestTaskListCore: tasks/list shows the session's tasks with what the
// server said; the extension has none.
func TestTaskListCore(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := connectTasks(t, taskPeers[0], fastTasks(), &client.Options{}, rec)
	if _, err := s.CallTool(t.Context(), "reflow_stubborn", nil, nil); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListTasks(t.Context())
	if err != nil || len(list) != 1 {
		t.Fatalf("ListTasks: %+v, %v", list, err)
	}
	if l := list[0]; l.Status != client.TaskCompleted || l.Tool != "reflow_stubborn" || l.Design != client.TaskDesignCore || l.CreatedAt.IsZero() {
		t.Errorf("listed %+v", l)
	}

	ext := connectTasks(t, taskPeers[1], fastTasks(), &client.Options{}, &recorder{})
	if _, err := ext.ListTasks(t.Context()); !errors.Is(err, client.ErrNoTasks) {
		t.Errorf("extension ListTasks: %v, want ErrNoTasks", err)
	}
}
