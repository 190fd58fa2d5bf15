package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
)

var (
	keyF11   = tea.KeyPressMsg{Code: tea.KeyF11}
	keyAltT  = tea.KeyPressMsg{Code: 't', Mod: tea.ModAlt}
	keyCtrlR = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
)

// mkTask is a task of demo created 5 s before t0 (the test clock), with
// a one-minute TTL, polled twice at the server's 1 s interval.
func mkTask(id string, st client.TaskStatus, mods ...func(*client.Task)) client.Task {
	t := client.Task{Server: "demo", ID: id, Tool: "reflow_month", Design: client.TaskDesignCore, Status: st,
		CreatedAt: t0.Add(-5 * time.Second), LastUpdatedAt: t0, TTL: time.Minute, PollInterval: time.Second, Polls: 2}
	for _, f := range mods {
		f(&t)
	}
	return t
}

func taskDriver(t *testing.T, setup ...func(*fakeEngine)) *driver {
	t.Helper()
	return newDriver(t, Options{Now: func() time.Time { return t0 }}, setup...)
}

// emit delivers a TaskChanged through the Bridge, as the engine does.
func (d *driver) emit(tk client.Task) {
	d.t.Helper()
	d.m.bridge.Event(client.TaskChanged{Task: tk})
	d.waitInbox()
}

// taskRow returns the screen row that shows task id.
func taskRow(t *testing.T, d *driver, id string) string {
	t.Helper()
	for _, l := range strings.Split(d.screen(), "\n") {
		if strings.Contains(l, " demo "+id+"  ") {
			return l
		}
	}
	t.Fatalf("no row for task %s:\n%s", id, d.screen())
	return ""
}

func TestTasksAppearUpdateAndFinish(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t)
		d.keys(keyF11)
		mustShow(t, d, "Tasks: 0, 0 not over", "no tasks yet")

		d.emit(mkTask("t-1", client.TaskWorking, func(t *client.Task) { t.StatusMessage = "reflowing March" }))
		row := taskRow(t, d, "t-1")
		for _, want := range []string{"working", "reflow_month", "age 5s · ttl 55s · poll 1s ×2", "reflowing March"} {
			if !strings.Contains(row, want) {
				t.Errorf("working row %q lacks %q", row, want)
			}
		}
		mustShow(t, d, "F11 Tasks (1)", "Tasks: 1, 1 not over")

		// A second task goes on top; the selection stays on the first.
		d.emit(mkTask("t-2", client.TaskWorking, func(t *client.Task) { t.CreatedAt = t0 }))
		if s := d.screen(); strings.Index(s, "demo t-2") > strings.Index(s, "demo t-1") {
			t.Errorf("the newer task is not on top:\n%s", s)
		}
		if sel := d.tasks().selected(); sel == nil || sel.ID != "t-1" {
			t.Errorf("selection moved to %+v", sel)
		}

		d.emit(mkTask("t-1", client.TaskInputRequired, func(t *client.Task) { t.Polls = 3; t.StatusMessage = "need a month" }))
		if row := taskRow(t, d, "t-1"); !strings.Contains(row, "? input required") || !strings.Contains(row, "×3") ||
			!strings.Contains(row, "need a month") {
			t.Errorf("input_required row = %q", row)
		}

		d.emit(mkTask("t-1", client.TaskCompleted, func(t *client.Task) {
			t.Polls, t.Ended, t.StatusMessage = 4, true, "done"
			t.Result = &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: "March reflowed"}}}
		}))
		if row := taskRow(t, d, "t-1"); !strings.Contains(row, "✓ completed") || !strings.Contains(row, "×4") {
			t.Errorf("completed row = %q", row)
		}
		mustShow(t, d, "Tasks: 2, 1 not over", "F11 Tasks (1)")
		if got := len(d.tasks().list); got != 2 {
			t.Errorf("%d tasks listed, want 2 (updates replace)", got)
		}
	})
}

func TestTaskGlyphsAndColours(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t)
		d.keys(keyAltT) // the other key for the view
		if d.m.viewName() != "Tasks" {
			t.Fatal("alt+t did not open the task view")
		}
		lost := mkTask("g-lost", client.TaskWorking, func(t *client.Task) {
			t.Lost, t.Ended, t.Err = true, true, errors.New("the server does not know the task")
		})
		all := []client.Task{
			mkTask("g-work", client.TaskWorking), mkTask("g-input", client.TaskInputRequired),
			mkTask("g-done", client.TaskCompleted), mkTask("g-fail", client.TaskFailed),
			mkTask("g-cancel", client.TaskCancelled), lost,
		}
		for _, tk := range all {
			d.emit(tk)
		}
		d.keys(keyDown) // the selected row is drawn plain; the working one is the oldest, last
		if !d.m.spin.running {
			t.Fatal("no spinner with a working task on screen")
		}
		spin := strings.Join(spinner.MiniDot.Frames, "")
		work := taskRow(t, d, "g-work")
		if r := []rune(strings.TrimLeft(work, " ›")); !strings.ContainsRune(spin, r[0]) {
			t.Errorf("working row %q does not start with a spinner frame", work)
		}
		want := map[string]string{"g-input": "? input required", "g-done": "✓ completed", "g-fail": "✗ failed",
			"g-cancel": "⊘ cancelled", "g-lost": "⚠ lost"}
		for id, w := range want {
			if row := taskRow(t, d, id); !strings.Contains(row, w) {
				t.Errorf("row of %s = %q, want %q", id, row, w)
			}
		}
		st, raw := d.m.st, d.m.View().Content
		if st.Success.Render("x") == st.Error.Render("x") {
			t.Fatal("success and error styles are the same; the checks below would prove nothing")
		}
		for _, s := range []string{st.Success.Render("✓ completed     "), st.Error.Render("✗ failed        "),
			st.Warning.Render("? input required"), st.Error.Render("⚠ lost          ")} {
			if !strings.Contains(raw, s) {
				t.Errorf("view lacks %q in its colour", s)
			}
		}
	})
}

func TestTaskCancelKey(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t)
		d.keys(keyF11)
		d.emit(mkTask("c-1", client.TaskWorking))
		d.keys(key1('x'))
		d.eng.mu.Lock()
		got := slices.Clone(d.eng.cancels)
		d.eng.mu.Unlock()
		if !slices.Equal(got, []string{"demo c-1"}) {
			t.Fatalf("CancelTask calls = %v, want [demo c-1]", got)
		}
		if row := taskRow(t, d, "c-1"); !strings.Contains(row, "cancelling…") {
			t.Errorf("row after x = %q", row)
		}
		d.keys(key1('x')) // once is enough
		if len(d.eng.cancels) != 1 {
			t.Errorf("x twice sent %d cancels", len(d.eng.cancels))
		}
		d.emit(mkTask("c-1", client.TaskWorking, func(t *client.Task) { t.CancelRequested, t.Polls = true, 3 }))
		if row := taskRow(t, d, "c-1"); !strings.Contains(row, "⊘ cancel requested") {
			t.Errorf("row after the engine's snapshot = %q", row)
		}

		// A task that is over cannot be cancelled; the engine is not asked.
		d.emit(mkTask("c-2", client.TaskCompleted, func(t *client.Task) { t.CreatedAt = t0 }))
		d.keys(keyUp, key1('x'))
		if len(d.eng.cancels) != 1 || !strings.Contains(d.m.notice, "c-2 is over already") {
			t.Errorf("cancels %v, notice %q", d.eng.cancels, d.m.notice)
		}

		// A failed tasks/cancel says so and allows another try.
		d.eng.mu.Lock()
		d.eng.cancelErr = errors.New("boom")
		d.eng.mu.Unlock()
		d.emit(mkTask("c-3", client.TaskWorking, func(t *client.Task) { t.CreatedAt = t0.Add(time.Second) }))
		d.keys(keyUp, key1('x'))
		if !strings.Contains(d.m.notice, "tasks/cancel c-3 on demo: boom") || d.tasks().cancelling[taskKey{server: "demo", id: "c-3"}] {
			t.Errorf("notice %q, still cancelling %v", d.m.notice, d.tasks().cancelling)
		}
	})
}

func TestTaskEnterShowsResult(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t)
		d.keys(keyF11)
		d.emit(mkTask("r-1", client.TaskCompleted, func(t *client.Task) {
			t.Ended = true
			t.Result = &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: "all " + hostile + " done"}},
				StructuredContent: json.RawMessage(`{"months":3}`)}
		}))
		d.keys(keyEnter)
		mustShow(t, d, "Task r-1 of demo", "design 2025-11-25", "result", "all pay", `"months": 3`)
		assertNoHostile(t, d.m.View().Content)
		d.keys(keyEsc)
		mustShow(t, d, "Tasks: 1")

		d.emit(mkTask("r-2", client.TaskFailed, func(t *client.Task) {
			t.Ended, t.Err, t.CreatedAt = true, errors.New("tasks/result: -32603 reflow broke"), t0
		}))
		d.keys(keyUp, keyEnter)
		mustShow(t, d, "Task r-2 of demo", "reflow broke")
		d.keys(keyEsc)

		d.emit(mkTask("r-3", client.TaskWorking, func(t *client.Task) { t.CreatedAt = t0.Add(time.Second) }))
		d.keys(keyUp, keyEnter)
		mustShow(t, d, "no result yet: the task is working")
		// The result arrives while the detail is open.
		d.emit(mkTask("r-3", client.TaskCompleted, func(t *client.Task) {
			t.Polls, t.Ended = 3, true
			t.Result = &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: "late but here"}}}
		}))
		mustShow(t, d, "late but here")
	})
}

// taskPrompt is a prompt of task id: keyed by the task (extension) when
// taskKeyed, else a server request tied to it by _meta (2025-11-25).
func taskPrompt(t *testing.T, id string, n int64, taskKeyed bool) *question.Question {
	p := formPrompt(t, "demo", n, "which month?", nameSchema)
	p.Origin = question.Origin{Kind: question.OriginTask, TaskID: id}
	if taskKeyed {
		p.Key = question.Key{Server: "demo", Delivery: question.TaskInput, TaskID: id, Input: fmt.Sprint("in", n)}
	}
	return p
}

func TestTaskInputRequiredJumpsToItsPrompt(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t)
		d.open(formPrompt(t, "demo", 1, "unrelated", nameSchema))
		ext := taskPrompt(t, "j-ext", 2, true)
		d.open(ext)
		core := taskPrompt(t, "j-core", 3, false)
		d.open(core)
		d.keys(keyF11)
		d.emit(mkTask("j-ext", client.TaskInputRequired, func(t *client.Task) { t.OpenPrompts = []question.Key{ext.Key} }))
		d.emit(mkTask("j-core", client.TaskInputRequired, func(t *client.Task) { t.CreatedAt = t0 })) // no OpenPrompts: by origin
		d.emit(mkTask("j-none", client.TaskInputRequired, func(t *client.Task) { t.CreatedAt = t0.Add(time.Second) }))

		// The newest, j-none, has no open prompt: p says so, Enter shows details.
		d.keys(keyUp, keyUp, key1('p'))
		if d.m.viewName() != "Tasks" || !strings.Contains(d.m.notice, "j-none has no open prompt") {
			t.Fatalf("view %v, notice %q", d.m.viewName(), d.m.notice)
		}
		d.keys(keyEnter)
		mustShow(t, d, "Task j-none", "no result yet: the task is input required")
		d.keys(keyEsc)

		// j-core: Enter shows its details, which list its question (found by
		// origin); Esc goes back and answers nothing; p goes to it.
		d.keys(keyDown, keyEnter)
		mustShow(t, d, "Task j-core", "? open question: which month?", "p answers it in the questions view")
		d.keys(keyEsc)
		if d.m.viewName() != "Tasks" || !d.m.prompts.byKey[core.Key].open() {
			t.Fatalf("Enter, Esc on j-core: view %v, its question open %v", d.m.viewName(), d.m.prompts.byKey[core.Key].open())
		}
		d.keys(key1('p'))
		if d.m.viewName() != "Questions" || d.m.prompts.focused() != d.m.prompts.byKey[core.Key] {
			t.Fatalf("p on j-core: view %v, focus %v", d.m.viewName(), d.m.prompts.focused().p.Key)
		}
		d.keys(keyF11, keyDown, key1('p')) // j-ext: by the task's OpenPrompts
		if d.m.viewName() != "Questions" || d.m.prompts.focused() != d.m.prompts.byKey[ext.Key] {
			t.Fatalf("p on j-ext: view %v, focus %v", d.m.viewName(), d.m.prompts.focused().p.Key)
		}
		mustShow(t, d, "which month?")
	})
}

func TestTasksNoTickWhenIdle(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t)
		d.emit(mkTask("i-1", client.TaskWorking))
		if d.m.spin.running {
			t.Fatal("the spinner runs for a task that is not on screen")
		}
		d.keys(keyF11)
		if !d.m.spin.running {
			t.Fatal("the spinner does not run for a working task on screen")
		}
		frame := d.m.spin.frame
		if _, cmd := d.m.Update(spinTickMsg{gen: d.m.spin.gen}); cmd == nil || d.m.spin.frame != frame+1 {
			t.Fatal("the spinner does not advance while a task works")
		}
		// Leaving the view stops it at the next tick.
		d.keys(keyF6)
		if _, cmd := d.m.Update(spinTickMsg{gen: d.m.spin.gen}); cmd != nil || d.m.spin.running {
			t.Fatal("the spinner re-armed with no working task on screen")
		}
		d.keys(keyF11)
		d.emit(mkTask("i-1", client.TaskCompleted, func(t *client.Task) { t.Ended, t.Polls = true, 3 }))
		if _, cmd := d.m.Update(spinTickMsg{gen: d.m.spin.gen}); cmd != nil || d.m.spin.running {
			t.Fatal("the spinner re-armed after the task completed")
		}
		for _, msg := range []tea.Msg{keyDown, keyUp, streamsChangedMsg{}, eventMsg{client.TaskChanged{Task: mkTask("i-2", client.TaskFailed)}}} {
			if _, cmd := d.m.Update(msg); cmd != nil {
				t.Fatalf("%T returned a command while idle", msg)
			}
		}
		if row := taskRow(t, d, "i-2"); !strings.Contains(row, "✗ failed") {
			t.Errorf("row = %q", row)
		}
	})
}

func TestTasksBounded(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t)
		d.emit(mkTask("live", client.TaskWorking, func(t *client.Task) { t.CreatedAt = t0.Add(-time.Hour) }))
		for i := range maxTasks + 5 {
			d.tasks().put(mkTask(fmt.Sprint("done-", i), client.TaskCompleted, func(t *client.Task) { t.Ended = true }))
		}
		if n := len(d.tasks().list); n != maxTasks {
			t.Fatalf("%d tasks kept, want %d", n, maxTasks)
		}
		if d.tasks().find(taskKey{server: "demo", id: "live"}) < 0 || d.tasks().find(taskKey{server: "demo", id: "done-0"}) >= 0 {
			t.Error("trimmed a task that is not over, or kept the oldest ended one")
		}
	})
}

func TestTaskTextSanitized(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t)
		d.keys(keyF11)
		d.emit(mkTask("s-1"+hostile, client.TaskWorking, func(t *client.Task) {
			t.StatusMessage, t.Tool = "msg "+hostile, "tool"+hostile
			t.ImmediateResponse = "soon " + hostile
		}))
		mustShow(t, d, "demo s-1pay")
		assertNoHostile(t, d.m.View().Content)
		d.keys(keyEnter)
		mustShow(t, d, "status message: msg pay", "immediate response: soon pay")
		assertNoHostile(t, d.m.View().Content)
	})
}

// TestTasksLoadListAndStaleSnapshots: the view reads the engine's tasks
// when it opens, r asks every ready server for tasks/list, and a
// snapshot older than one already shown does not replace it.
func TestTasksLoadListAndStaleSnapshots(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t, twoServers, func(e *fakeEngine) {
			e.tasks = []client.Task{mkTask("l-1", client.TaskWorking)}
			e.listFn = func(server string) ([]client.Task, error) {
				if server == "two" {
					return nil, fmt.Errorf("tasks/list on two: %w: the tasks extension has no tasks/list", client.ErrNoTasks)
				}
				listed := mkTask("l-2", client.TaskWorking, func(t *client.Task) { t.Tool, t.CreatedAt = "", t0 })
				stale := mkTask("l-1", client.TaskWorking, func(t *client.Task) { t.Polls = 1 })
				return []client.Task{listed, stale}, nil
			}
		})
		d.keys(keyF11)
		if row := taskRow(t, d, "l-1"); !strings.Contains(row, "×2") {
			t.Fatalf("engine's task not loaded: %q", row)
		}
		d.emit(mkTask("l-1", client.TaskWorking, func(t *client.Task) { t.Polls = 5 }))
		d.keys(key1('r'))
		slices.Sort(d.eng.listed)
		if !slices.Equal(d.eng.listed, []string{"demo", "two"}) {
			t.Errorf("tasks/list asked of %v", d.eng.listed)
		}
		if row := taskRow(t, d, "l-1"); !strings.Contains(row, "×5") {
			t.Errorf("a stale snapshot replaced a newer one: %q", row)
		}
		if row := taskRow(t, d, "l-2"); !strings.Contains(row, "  ?  ") {
			t.Errorf("listed task without a tool: %q", row)
		}
		if !strings.Contains(d.m.notice, "not available") && !strings.Contains(d.m.notice, "demo lists 2 tasks") {
			t.Errorf("notice %q", d.m.notice)
		}
	})
}

func TestToolsRunAsTask(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t, withTools(
			wire.Tool{Name: "opt", Execution: wire.ToolExecution{TaskSupport: "optional"}},
			wire.Tool{Name: "req", Execution: wire.ToolExecution{TaskSupport: "required"}},
			wire.Tool{Name: "plain"},
			wire.Tool{Name: "optargs", InputSchema: json.RawMessage(echoSchema), Execution: wire.ToolExecution{TaskSupport: "optional"}},
		), func(e *fakeEngine) { e.servers[0].Caps = tasksCaps })
		d.keys(keyF5)
		mustShow(t, d, "opt [task optional: on]", "req [task required]", "optargs [task optional: on]")
		d.keys(keyEnter)                     // opt: a task, by default
		d.keys(key1('t'), keyEnter)          // opt again, the person said no
		d.keys(keyDown, key1('t'), keyEnter) // req: t cannot change it
		d.keys(keyDown, keyEnter)            // plain
		want := []string{"task demo/opt map[]", "demo/opt map[]", "task demo/req map[]", "demo/plain map[]"}
		if got := d.eng.called(); !slices.Equal(got, want) {
			t.Fatalf("calls = %q, want %q", got, want)
		}
		if !strings.Contains(d.m.notice, "only a tool whose taskSupport is optional") {
			t.Errorf("t on a required tool: notice %q", d.m.notice)
		}
		mustShow(t, d, "opt [task optional: off]")

		// The argument form says how it will run; ctrl+r flips it, t is text.
		d.keys(keyDown, keyEnter)
		mustShow(t, d, "runs as a task (ctrl+r: as a plain call)")
		d.keys(keyCtrlR)
		mustShow(t, d, "runs as a plain call (ctrl+r: as a task)")
		d.keys(keyCtrlR)
		d.typeText("t")
		d.keys(keyEnter, keyEnter) // msg, then n (optional, empty)
		if got := d.eng.called(); len(got) != 5 || got[4] != "task demo/optargs map[msg:t]" {
			t.Fatalf("calls = %q", got)
		}
		mustShow(t, d, "demo/optargs [task]")
	})
}

func TestToolsTaskDefaultsWithoutTasks(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// A server that declared no tasks: optional tools are plain calls and
		// cannot choose; a required one still asks for a task (the engine does
		// so anyway); tasks/list says it is not available.
		d := taskDriver(t, withTools(wire.Tool{Name: "opt", Execution: wire.ToolExecution{TaskSupport: "optional"}},
			wire.Tool{Name: "req", Execution: wire.ToolExecution{TaskSupport: "required"}}))
		d.keys(keyF5)
		mustShow(t, d, "opt [task optional: off]", "req [task required]")
		d.keys(key1('t'))
		if !strings.Contains(d.m.notice, "demo does not run tools as tasks") {
			t.Errorf("t on an optional tool of a server without tasks: notice %q", d.m.notice)
		}
		mustShow(t, d, "opt [task optional: off]")
		d.keys(keyEnter, keyDown, keyEnter)
		if got := d.eng.called(); !slices.Equal(got, []string{"demo/opt map[]", "task demo/req map[]"}) {
			t.Errorf("calls = %q", got)
		}
		d.keys(keyF11)
		mustShow(t, d, "no tasks yet")
		d.keys(key1('r'))
		if !strings.Contains(d.m.notice, "tasks/list on demo: not available") {
			t.Errorf("notice %q", d.m.notice)
		}
	})
}

// TestTaskCallCancelledFromTools: x on a running task call in the tools
// view ends its context, which the engine turns into tasks/cancel.
func TestTaskCallCancelledFromTools(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		bc := newBlockingCall()
		d := taskDriver(t, withTools(wire.Tool{Name: "slow", Execution: wire.ToolExecution{TaskSupport: "required"}}),
			func(e *fakeEngine) { e.callFn = bc.call })
		d.keys(keyF5, keyEnter)
		recv(t, bc.started, "task call")
		d.keys(key1('x'))
		recv(t, bc.cancelled, "the call's context ending")
		d.awaitLate(isCallDone)
		mustShow(t, d, "⊘ demo/slow [task]  cancelled")
	})
}
