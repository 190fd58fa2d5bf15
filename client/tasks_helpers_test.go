package client_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/transport"
)

// Helpers of the task tests: the demo server as the real peer, in both
// designs, over in-memory stdio framing and over HTTP.

// taskPoll is the demo's pollInterval in the task tests.
const taskPoll = 20 * time.Millisecond

// fastTasks paces the demo's task tools for tests: polls every 20 ms,
// one booking moved every 5 ms.
func fastTasks() *demo.Options {
	return &demo.Options{TaskPollInterval: taskPoll, TaskStep: 5 * time.Millisecond}
}

// taskPeer is one way to reach the demo's tasks.
type taskPeer struct {
	name     string
	kind     string // "stdio" (demo.ServeIO), "http" (stateful), "http-stateless"
	protocol string // client.Options.Protocol
	design   client.TaskDesign
}

var taskPeers = []taskPeer{
	{"stdio/2025-11-25", "stdio", wire.Protocol2025_11_25, client.TaskDesignCore},
	{"stdio/2026-07-28", "stdio", wire.Protocol2026_07_28, client.TaskDesignExtension},
	{"http/2025-11-25", "http", wire.Protocol2025_11_25, client.TaskDesignCore},
	{"http/2026-07-28", "http-stateless", wire.Protocol2026_07_28, client.TaskDesignExtension},
}

// connectTasks connects a session to a fresh demo server reached as tp
// says. opts.Protocol and the Observer are set here.
func connectTasks(t *testing.T, tp taskPeer, dopts *demo.Options, opts *client.Options, rec *recorder) *client.Session {
	t.Helper()
	switch tp.kind {
	case "http":
		return dialTasks(t, demoURL(t, demo.HTTPHandler(dopts)), tp.protocol, opts, rec)
	case "http-stateless":
		return dialTasks(t, demoURL(t, demo.HTTPHandlerStateless(dopts)), tp.protocol, opts, rec)
	}
	opts.Protocol, opts.Observer = tp.protocol, rec
	return demoOverPipe(t, dopts, opts, rec)
}

// demoURL serves h on a test server for the test's life.
func demoURL(t *testing.T, h http.Handler) string {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

// dialTasks connects a session to the demo at url over HTTP.
func dialTasks(t *testing.T, url, protocol string, opts *client.Options, rec *recorder) *client.Session {
	t.Helper()
	opts.Protocol, opts.Observer = protocol, rec
	s, err := client.Connect(t.Context(), &transport.HTTP{URL: url, Observer: rec}, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// timedMsg is one of our frames, decoded, with the time it went out.
type timedMsg struct {
	at  time.Time
	msg wireMsg
}

// sentTask returns our requests of method, in order; with taskID set, only
// those whose params name that task.
func (r *recorder) sentTask(method, taskID string) []timedMsg {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []timedMsg
	for _, f := range r.frames {
		if f.Dir != transport.Out || f.Err != nil || len(f.Raw) == 0 {
			continue
		}
		var m wireMsg
		if json.Unmarshal(f.Raw, &m) != nil || m.Method != method {
			continue
		}
		if taskID != "" {
			var p struct {
				TaskID string `json:"taskId"`
			}
			if json.Unmarshal(m.Params, &p) != nil || p.TaskID != taskID {
				continue
			}
		}
		out = append(out, timedMsg{f.Time, m})
	}
	return out
}

// checkPolls asserts that no two tasks/get of a task went out closer than
// interval, and that there were at most bound of them.
func checkPolls(t *testing.T, polls []timedMsg, interval time.Duration, bound int) {
	t.Helper()
	const tolerance = time.Millisecond // clock granularity only
	for i := 1; i < len(polls); i++ {
		if gap := polls[i].at.Sub(polls[i-1].at); gap < interval-tolerance {
			t.Errorf("tasks/get %d went out %v after the one before, under the poll interval %v", i+1, gap, interval)
		}
	}
	if len(polls) > bound {
		t.Errorf("%d tasks/get, want at most %d", len(polls), bound)
	}
}

// taskPrompter answers every prompt with answer and records the prompts
// and, for those whose context ended first, the cause.
type taskPrompter struct {
	answer func(ctx context.Context, p *question.Question) question.Outcome

	mu     sync.Mutex
	asked  []*question.Question
	causes map[question.Key]error
	opened chan *question.Question // each prompt, as it opens (buffered)
}

func newTaskPrompter(answer func(ctx context.Context, p *question.Question) question.Outcome) *taskPrompter {
	return &taskPrompter{answer: answer, causes: map[question.Key]error{}, opened: make(chan *question.Question, 64)}
}

func (tp *taskPrompter) Prompt(ctx context.Context, p *question.Question) question.Outcome {
	tp.mu.Lock()
	tp.asked = append(tp.asked, p)
	tp.mu.Unlock()
	tp.opened <- p
	out := tp.answer(ctx, p)
	if ctx.Err() != nil {
		tp.mu.Lock()
		tp.causes[p.Key] = context.Cause(ctx)
		tp.mu.Unlock()
	}
	return out
}

func (tp *taskPrompter) prompts() []*question.Question {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([]*question.Question(nil), tp.asked...)
}

func (tp *taskPrompter) cause(k question.Key) error {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.causes[k]
}

// chooseReflow accepts reflow_month's question with choice.
func chooseReflow(choice string) func(context.Context, *question.Question) question.Outcome {
	return func(context.Context, *question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"choice": choice}}
	}
}

// holdPrompt keeps every prompt open until its context ends.
func holdPrompt(ctx context.Context, _ *question.Question) question.Outcome {
	<-ctx.Done()
	return question.Outcome{Kind: question.Cancel}
}

// recvWithin waits for a value from ch, failing the test after liveness.
func recvWithin[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(liveness):
		t.Fatalf("no %s within %v", what, liveness)
		var zero T
		return zero
	}
}

// lastTask is the final TaskChanged of the task whose tool is tool.
func lastTask(t *testing.T, rec *recorder, tool string) client.Task {
	t.Helper()
	return waitEvent(t, rec, func(e client.TaskChanged) bool { return e.Task.Tool == tool && e.Task.Ended }).Task
}

// taskChanges lists the TaskChanged snapshots of task id, in order.
func taskChanges(rec *recorder, id string) []client.Task {
	var out []client.Task
	for _, e := range rec.Events() {
		if tc, ok := e.(client.TaskChanged); ok && tc.Task.ID == id {
			out = append(out, tc.Task)
		}
	}
	return out
}
