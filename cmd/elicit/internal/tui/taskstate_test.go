package tui

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/ui"
)

// newTestEngine builds the TUI's engine (without the TUI) for one server,
// with the task state file in play, the way Env.Run does. changed is
// signalled after each event the sessions emit (the state file has seen
// it; a session sets what its Tasks report before it emits the change).
func newTestEngine(t *testing.T, ctx context.Context, spec serverspec.Server, state *taskState, p question.Prompter) (e *engine, changed <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{}, 1)
	obs := client.ObserverFunc(func(e client.Event) {
		if err := state.observe(e); err != nil {
			t.Errorf("task state: %v", err)
		}
		select {
		case ch <- struct{}{}:
		default:
		}
	})
	mgr := client.NewManager(&client.ManagerOptions{Observer: obs})
	e = &engine{ctx: ctx, m: mgr, state: state, specs: map[string]serverspec.Server{spec.Name: spec}, pending: map[string]error{},
		sessionOpts: func(string) *client.Options { return &client.Options{Prompter: p} },
		transports:  func(s serverspec.Server) (transport.Transport, error) { return s.Transport(nil, nil) },
	}
	e.connectAll(ctx, []string{spec.Name})
	return e, ch
}

// waitUntil waits up to 20 s for cond, looking again on each signal of
// changed.
func waitUntil(t *testing.T, changed <-chan struct{}, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for !cond() {
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestTaskResumeAfterRestart: elicit quits while reflow_month waits for
// its question; the task id stays in the state file (the task still runs
// on the server); the next start resumes it, answers, and sees it complete,
// after which the file forgets it.
func TestTaskResumeAfterRestart(t *testing.T) {
	srv := httptest.NewServer(demo.HTTPHandlerStateless(&demo.Options{TaskPollInterval: 20 * time.Millisecond, TaskStep: 5 * time.Millisecond}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "elicit", "tasks.json")
	spec := serverspec.Server{Name: "demo-http", URL: srv.URL + "/mcp"}

	// First run: the person never answers, then quits.
	state1, err := loadTaskState(path)
	if err != nil {
		t.Fatal(err)
	}
	asked := make(chan struct{}, 1)
	never := question.PrompterFunc(func(ctx context.Context, p *question.Question) question.Outcome {
		asked <- struct{}{}
		<-ctx.Done()
		return question.Outcome{Kind: question.Cancel}
	})
	ctx1, cancel1 := context.WithCancel(t.Context())
	e1, _ := newTestEngine(t, ctx1, spec, state1, never)
	callDone := make(chan error, 1)
	go func() {
		asTask := true
		_, err := e1.Call(ctx1, spec.Name, "reflow_month", nil, ui.CallOptions{AsTask: &asTask})
		callDone <- err
	}()
	<-asked
	if got := state1.forServer(spec.Name); len(got) != 1 || got[0].Tool != "reflow_month" {
		t.Fatalf("state while running = %+v, want the reflow_month task", got)
	}
	e1.m.Close() // quit: sessions close first, tasks are not cancelled
	cancel1()
	<-callDone
	e1.bg.Wait()
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), `"reflow_month"`) {
		t.Fatalf("state file after quit: %s, %v", b, err)
	}

	// Second run: the task is resumed from the file and answered.
	state2, err := loadTaskState(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(t.Context())
	defer cancel2()
	e2, changed := newTestEngine(t, ctx2, spec, state2, question.AcceptDefaults)
	waitUntil(t, changed, "the resumed task to complete", func() bool {
		for _, tk := range e2.Tasks() {
			if tk.Tool == "reflow_month" && tk.Status == client.TaskCompleted {
				return true
			}
		}
		return false
	})
	waitUntil(t, changed, "the state file to forget the task", func() bool { return len(state2.forServer(spec.Name)) == 0 })
	e2.m.Close()
	cancel2()
	e2.bg.Wait()
	reloaded, err := loadTaskState(path)
	if err != nil || len(reloaded.forServer(spec.Name)) != 0 {
		t.Errorf("state file still lists tasks: %+v, %v", reloaded.forServer(spec.Name), err)
	}
}

func TestTaskStateBadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tasks.json")
	if err := os.WriteFile(path, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := loadTaskState(path)
	if err == nil || !strings.Contains(err.Error(), path) || st == nil {
		t.Fatalf("a bad state file: %v (state %v); want a message naming it and an empty state", err, st)
	}
	if p := taskStatePath(func(k string) string { return map[string]string{"HOME": "/h"}[k] }); p != "/h/.local/state/elicit/tasks.json" {
		t.Errorf("default path %s", p)
	}
}

// TestTaskStateConcurrentObserve: sessions' dispatchers call observe at the
// same time. A write must never land a snapshot older than another's, or
// the file loses a running task. Each round starts one task per session at
// once (and ends the one before, so that removals race too), then checks the
// file: only the last rename of a round decides what it holds.
func TestTaskStateConcurrentObserve(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tasks.json")
	st, err := loadTaskState(path)
	if err != nil {
		t.Fatal(err)
	}
	const sessions, rounds = 8, 40
	task := func(s, round int, status client.TaskStatus) client.TaskChanged {
		return client.TaskChanged{Task: client.Task{Server: fmt.Sprintf("server-%d", s), ID: fmt.Sprintf("t%02d", round), Tool: "slow", Status: status}}
	}
	for round := range rounds {
		start := make(chan struct{})
		var wg sync.WaitGroup
		for s := range sessions {
			wg.Go(func() {
				<-start
				if err := st.observe(task(s, round, client.TaskWorking)); err != nil {
					t.Error(err)
				}
				if round%2 == 1 {
					if err := st.observe(task(s, round-1, client.TaskCompleted)); err != nil {
						t.Error(err)
					}
				}
			})
		}
		close(start)
		wg.Wait()
		reloaded, err := loadTaskState(path)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for r := 0; r <= round; r++ {
			if r%2 == 1 || r == round {
				want = append(want, fmt.Sprintf("t%02d", r))
			}
		}
		for s := range sessions {
			server := fmt.Sprintf("server-%d", s)
			var got []string
			for _, e := range reloaded.forServer(server) {
				got = append(got, e.ID)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, %s: the file lists %v, want the running tasks %v", round, server, got, want)
			}
		}
	}
}

// The task state, which holds what servers said of their tasks, is
// written 0600 into a folder that is, or is closed to, 0700.
func TestTaskStatePrivate(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(filepath.Join(state, "elicit"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(state, "elicit"), 0o777); err != nil {
		t.Fatal(err)
	}
	st, err := loadTaskState(taskStatePath(func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.write([]taskEntry{{Server: "s", ID: "task-1"}}); err != nil {
		t.Fatal(err)
	}
	if m, d := permOf(t, st.path), permOf(t, filepath.Dir(st.path)); m != 0o600 || d != 0o700 {
		t.Errorf("the task state is %04o in a folder %04o, want 0600 in 0700", m, d)
	}
}

func permOf(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}
