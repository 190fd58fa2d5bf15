package demo_test

import (
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/google/go-cmp/cmp"
)

// taskOpts makes the reflow tools quick: 20 ms polls, 15 ms per booking.
func taskOpts() *demo.Options {
	return &demo.Options{TaskPollInterval: 20 * time.Millisecond, TaskStep: 15 * time.Millisecond}
}

// legacyPeers are the 2025-11-25 carriers of tasks: ServeIO's pipes, the
// in-memory transport through WrapTransport, and stateful HTTP.
var legacyPeers = map[string]func(*testing.T, bool, *demo.Options) *peer{
	"pipes": pipePeer, "memory": memPeer, "http": httpPeer,
}

const workshopQuestion = "The Thursday 14:00 workshop (18 people) fits nowhere in the fortnight. What should happen?"

// movedRe reads the booking number out of a statusMessage.
var movedRe = regexp.MustCompile(`^Moved booking (\d+) of 12 \(.+ → .+\)$`)

// progress collects the statusMessages a poll loop saw and checks that
// they only move forward.
type progress struct {
	t    *testing.T
	last int
	seen map[int]bool
}

func (pr *progress) note(message string) {
	m := movedRe.FindStringSubmatch(message)
	if m == nil {
		return
	}
	n, _ := strconv.Atoi(m[1])
	if n < pr.last {
		pr.t.Errorf("statusMessage went back from booking %d to %q", pr.last, message)
	}
	pr.last = n
	if pr.seen == nil {
		pr.seen = map[int]bool{}
	}
	pr.seen[n] = true
}

// legacyCreate calls tool as a 2025-11-25 task and returns the Task.
func legacyCreate(t *testing.T, p *peer, tool string) map[string]any {
	t.Helper()
	res := p.ok("tools/call", map[string]any{"name": tool, "arguments": map[string]any{}, "task": map[string]any{"ttl": 60000}})
	task, ok := res["task"].(map[string]any)
	if !ok {
		t.Fatalf("tools/call %s with params.task = %s, want a CreateTaskResult", tool, asJSON(res))
	}
	if task["status"] != "working" || task["ttl"] != 60000.0 || task["pollInterval"] != 20.0 {
		t.Errorf("created task = %s", asJSON(task))
	}
	if id, _ := task["taskId"].(string); len(id) < 20 {
		t.Errorf("taskId %q: want a high-entropy id", id)
	}
	for _, k := range []string{"createdAt", "lastUpdatedAt"} {
		if _, err := time.Parse(time.RFC3339, task[k].(string)); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	return task
}

// legacyPoll polls tasks/get at the task's pollInterval until its status is
// one of want, and returns that Task.
func legacyPoll(t *testing.T, p *peer, id string, pr *progress, want ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		task := p.ok("tasks/get", map[string]any{"taskId": id})
		if task["taskId"] != id {
			t.Fatalf("tasks/get = %s", asJSON(task))
		}
		msg, _ := task["statusMessage"].(string)
		if pr != nil {
			pr.note(msg)
		}
		for _, w := range want {
			if task["status"] == w {
				return task
			}
		}
		poll, _ := task["pollInterval"].(float64)
		time.Sleep(time.Duration(poll) * time.Millisecond) // the poll interval the server asked for: tasks/get is polled by protocol
	}
	t.Fatalf("task %s never reached %v", id, want)
	return nil
}

// TestLegacyTaskDeclarations: 2025-11-25 declares core tasks in initialize
// and execution.taskSupport in tools/list.
func TestLegacyTaskDeclarations(t *testing.T) {
	t.Parallel()
	p := pipePeer(t, false, taskOpts())
	init := p.initialize()
	want := map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
		"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
	if diff := cmp.Diff(want, init["capabilities"].(map[string]any)["tasks"]); diff != "" {
		t.Errorf("capabilities.tasks (-want +got):\n%s", diff)
	}
	// The skills extension is declared in every era; the tasks one only
	// in 2026-07-28.
	if diff := cmp.Diff(map[string]any{"io.modelcontextprotocol/skills": map[string]any{}}, init["capabilities"].(map[string]any)["extensions"]); diff != "" {
		t.Errorf("2025-11-25 capabilities.extensions (-want +got):\n%s", diff)
	}
	checkTaskSupport(t, p.ok("tools/list", nil))
}

func checkTaskSupport(t *testing.T, list map[string]any) {
	t.Helper()
	want := map[string]string{"reflow_month": "required", "reflow_fail": "optional", "reflow_iserror": "optional", "reflow_stubborn": "optional", "deploy": ""}
	for _, tl := range list["tools"].([]any) {
		tool := tl.(map[string]any)
		w, ok := want[tool["name"].(string)]
		if !ok {
			continue
		}
		delete(want, tool["name"].(string))
		ex, _ := tool["execution"].(map[string]any)
		if got, _ := ex["taskSupport"].(string); got != w {
			t.Errorf("%s execution = %v, want taskSupport %q", tool["name"], tool["execution"], w)
		}
	}
	if len(want) > 0 {
		t.Errorf("tools/list lacks %v", want)
	}
}

// TestLegacyReflowMonth: the whole 2025-11-25 flow on every carrier: task
// created, statusMessage advancing, input_required, the question asked as
// elicitation/create with related-task _meta on the tasks/result stream,
// and the result naming the answer.
func TestLegacyReflowMonth(t *testing.T) {
	t.Parallel()
	for kind, newPeer := range legacyPeers {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			p := newPeer(t, false, taskOpts())
			p.initialize()
			id := legacyCreate(t, p, "reflow_month")["taskId"].(string)
			pr := &progress{t: t}
			task := legacyPoll(t, p, id, pr, "input_required")
			// The sixth move is the last before the question (its message may
			// be overwritten before a poll sees it).
			if len(pr.seen) < 2 || pr.last > 6 {
				t.Errorf("statusMessages seen: bookings %v, last %d; want at least two, up to 6", pr.seen, pr.last)
			}
			if task["statusMessage"] != "Waiting for an answer: "+workshopQuestion {
				t.Errorf("input_required statusMessage = %q", task["statusMessage"])
			}

			result := p.start("tasks/result", map[string]any{"taskId": id})
			q := p.next("elicitation/create")
			related := map[string]any{"io.modelcontextprotocol/related-task": map[string]any{"taskId": id}}
			if diff := cmp.Diff(related, q.Params["_meta"]); diff != "" {
				t.Errorf("elicitation/create _meta (-want +got):\n%s", diff)
			}
			if q.Params["message"] != workshopQuestion || q.Params["mode"] != "form" {
				t.Errorf("question = %s", asJSON(q.Params))
			}
			choice := q.Params["requestedSchema"].(map[string]any)["properties"].(map[string]any)["choice"].(map[string]any)
			wantOptions := []any{
				map[string]any{"const": "move_atrium", "title": "Move to the atrium"},
				map[string]any{"const": "split_rooms", "title": "Split across two rooms"},
				map[string]any{"const": "cancel_notify", "title": "Cancel and notify"},
			}
			if diff := cmp.Diff(wantOptions, choice["oneOf"]); diff != "" {
				t.Errorf("choice oneOf (-want +got):\n%s", diff)
			}
			p.reply(q.ID, map[string]any{"action": "accept", "content": map[string]any{"choice": "split_rooms"}, "_meta": related})

			m := within(t, waitFor, result, "tasks/result")
			if m.Error != nil {
				t.Fatalf("tasks/result error: %+v", m.Error)
			}
			text := m.Result["content"].([]any)[0].(map[string]any)["text"].(string)
			if !strings.Contains(text, "Split across two rooms (split_rooms)") || m.Result["isError"] == true {
				t.Errorf("tasks/result = %s", asJSON(m.Result))
			}
			if diff := cmp.Diff(related, m.Result["_meta"]); diff != "" {
				t.Errorf("tasks/result _meta (-want +got):\n%s", diff)
			}
			done := legacyPoll(t, p, id, nil, "completed", "failed", "cancelled")
			if done["status"] != "completed" {
				t.Errorf("final task = %s", asJSON(done))
			}
			list := p.ok("tasks/list", nil)["tasks"].([]any)
			if len(list) != 1 || list[0].(map[string]any)["taskId"] != id || list[0].(map[string]any)["status"] != "completed" {
				t.Errorf("tasks/list = %s", asJSON(list))
			}
			if kind != "http" { // status notifications need the demo's own stream filter or wrapper
				// The last one may trail tasks/result: wait for each in turn.
				var statuses []string
				for range 3 {
					n := p.next("notifications/tasks/status")
					if n.Params["taskId"] != id {
						t.Errorf("status notification for another task: %s", asJSON(n.Params))
					}
					statuses = append(statuses, n.Params["status"].(string))
				}
				if diff := cmp.Diff([]string{"input_required", "working", "completed"}, statuses); diff != "" {
					t.Errorf("notifications/tasks/status statuses (-want +got):\n%s", diff)
				}
				if extra := p.seen("notifications/tasks/status"); len(extra) > 0 {
					t.Errorf("more status notifications than status changes: %s", asJSON(extra))
				}
			}
		})
	}
}

// TestLegacyDecline: declining or dismissing the question still completes
// the reflow, with the workshop left unplaced.
func TestLegacyDecline(t *testing.T) {
	t.Parallel()
	for _, action := range []string{"decline", "cancel"} {
		t.Run(action, func(t *testing.T) {
			t.Parallel()
			p := pipePeer(t, false, taskOpts())
			p.initialize()
			id := legacyCreate(t, p, "reflow_month")["taskId"].(string)
			result := p.start("tasks/result", map[string]any{"taskId": id}) // at once: it waits for the question
			q := p.next("elicitation/create")
			p.reply(q.ID, map[string]any{"action": action})
			m := within(t, waitFor, result, "tasks/result")
			if m.Error != nil {
				t.Fatalf("tasks/result error: %+v", m.Error)
			}
			text := m.Result["content"].([]any)[0].(map[string]any)["text"].(string)
			if !strings.Contains(text, "was left unplaced") {
				t.Errorf("summary = %q", text)
			}
		})
	}
}

// TestLegacyCancel: tasks/cancel moves a running task to cancelled before
// it answers; the task stays cancelled, a second cancel is refused, and
// tasks/result reports the cancellation as an error.
func TestLegacyCancel(t *testing.T) {
	t.Parallel()
	rec := &recorder{msgs: make(chan string, 100)}
	opts := taskOpts()
	opts.Logger = slog.New(rec)
	p := pipePeer(t, false, opts)
	p.initialize()
	id := legacyCreate(t, p, "reflow_month")["taskId"].(string)
	pr := &progress{t: t}
	for pr.last < 2 {
		legacyPoll(t, p, id, pr, "working")
	}
	cancelled := p.ok("tasks/cancel", map[string]any{"taskId": id})
	if cancelled["status"] != "cancelled" || cancelled["taskId"] != id {
		t.Errorf("tasks/cancel = %s", asJSON(cancelled))
	}
	waitLog(t, rec, "demo: task job stopped on cancel")
	if got := p.ok("tasks/get", map[string]any{"taskId": id}); got["status"] != "cancelled" {
		t.Errorf("after cancel, tasks/get = %s", asJSON(got))
	}
	p.fails("tasks/cancel", map[string]any{"taskId": id}, -32602)
	if e := p.fails("tasks/result", map[string]any{"taskId": id}, -32000); !strings.Contains(e.Message, "cancelled") {
		t.Errorf("tasks/result error = %+v", e)
	}
}

// waitLog waits for a log message from the server.
func waitLog(t *testing.T, rec *recorder, want string) {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case m := <-rec.msgs:
			if m == want {
				return
			}
		case <-deadline:
			t.Fatalf("the server never logged %q", want)
		}
	}
}

// TestLegacyFailAndIsError: a job's JSON-RPC error fails the task and is
// what tasks/result answers; an isError result also fails it (2025-11-25),
// and tasks/result answers that result.
func TestLegacyFailAndIsError(t *testing.T) {
	t.Parallel()
	p := pipePeer(t, false, taskOpts())
	p.initialize()

	failID := legacyCreate(t, p, "reflow_fail")["taskId"].(string)
	e := p.fails("tasks/result", map[string]any{"taskId": failID}, -32603)
	if !strings.Contains(e.Message, "refused to move booking 4 of 12") {
		t.Errorf("tasks/result error = %+v", e)
	}
	if task := legacyPoll(t, p, failID, nil, "failed", "completed"); task["status"] != "failed" || task["statusMessage"] != e.Message {
		t.Errorf("failed task = %s", asJSON(task))
	}

	errID := legacyCreate(t, p, "reflow_iserror")["taskId"].(string)
	if task := legacyPoll(t, p, errID, nil, "failed", "completed"); task["status"] != "failed" {
		t.Errorf("isError task = %s, want failed", asJSON(task))
	}
	res := p.ok("tasks/result", map[string]any{"taskId": errID})
	if res["isError"] != true || !strings.Contains(asJSON(res["content"]), "fire drill") {
		t.Errorf("tasks/result = %s, want the isError result", asJSON(res))
	}
}

// TestLegacyStubborn: cancelling reflow_stubborn reads cancelled at once
// and stays so, while the server logs that the job worked on to the end.
func TestLegacyStubborn(t *testing.T) {
	t.Parallel()
	rec := &recorder{msgs: make(chan string, 100)}
	opts := taskOpts()
	opts.Logger = slog.New(rec)
	p := memPeer(t, false, opts)
	p.initialize()
	id := legacyCreate(t, p, "reflow_stubborn")["taskId"].(string)
	legacyPoll(t, p, id, &progress{t: t}, "working")
	if got := p.ok("tasks/cancel", map[string]any{"taskId": id}); got["status"] != "cancelled" {
		t.Fatalf("tasks/cancel = %s", asJSON(got))
	}
	waitLog(t, rec, "demo: task job kept working after cancel; its outcome is dropped")
	if got := p.ok("tasks/get", map[string]any{"taskId": id}); got["status"] != "cancelled" {
		t.Errorf("after the job ended, tasks/get = %s", asJSON(got))
	}
}

// TestLegacyRefusals: a required task tool without params.task is -32600
// "Task augmentation required", a plain tool with it is -32601; optional task tools run inline without it;
// unknown ids are -32602; tasks/update is not a 2025-11-25 method.
func TestLegacyRefusals(t *testing.T) {
	t.Parallel()
	p := httpPeer(t, false, taskOpts())
	p.initialize()
	if e := p.fails("tools/call", map[string]any{"name": "reflow_month"}, -32600); !strings.Contains(e.Message, "Task augmentation required") {
		t.Errorf("error = %+v", e)
	}
	p.fails("tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}, "task": map[string]any{}}, -32601)
	if res := p.ok("tools/call", map[string]any{"name": "reflow_iserror"}); res["isError"] != true {
		t.Errorf("reflow_iserror inline = %s", asJSON(res))
	}
	p.fails("tools/call", map[string]any{"name": "reflow_fail"}, -32603)
	p.fails("tasks/get", map[string]any{"taskId": "nope"}, -32602)
	p.fails("tasks/result", map[string]any{"taskId": "nope"}, -32602)
	p.fails("tasks/list", map[string]any{"cursor": "x"}, -32602)
	p.fails("tasks/update", map[string]any{"taskId": "nope"}, -32601)
}

// TestLegacyCancelWithdrawsQuestion: cancelling a task whose question is
// open on the tasks/result stream withdraws the question
// (notifications/cancelled for that elicitation/create), and tasks/result
// answers that the task was cancelled.
func TestLegacyCancelWithdrawsQuestion(t *testing.T) {
	t.Parallel()
	p := pipePeer(t, false, taskOpts())
	p.initialize()
	id := legacyCreate(t, p, "reflow_month")["taskId"].(string)
	result := p.start("tasks/result", map[string]any{"taskId": id})
	q := p.next("elicitation/create")
	if got := p.ok("tasks/cancel", map[string]any{"taskId": id}); got["status"] != "cancelled" {
		t.Fatalf("tasks/cancel = %s", asJSON(got))
	}
	withdrawn := p.next("notifications/cancelled")
	if asJSON(withdrawn.Params["requestId"]) != string(q.ID) {
		t.Errorf("notifications/cancelled = %s, want requestId %s", asJSON(withdrawn.Params), q.ID)
	}
	if m := within(t, waitFor, result, "tasks/result"); m.Error == nil || m.Error.Code != -32000 {
		t.Errorf("tasks/result = %s, want error -32000", asJSON(m))
	}
}

// TestLegacyTasksAreSessionBound: a 2025-11-25 task is visible only to the
// session that created it, and ends with it; a 2026-07-28 task id is a
// bearer handle that works from any session of the server.
func TestLegacyTasksAreSessionBound(t *testing.T) {
	t.Parallel()
	srv := demo.New(taskOpts())
	owner, other := memPeerOn(t, false, srv), memPeerOn(t, false, srv)
	owner.initialize()
	other.initialize()
	id := legacyCreate(t, owner, "reflow_month")["taskId"].(string)
	other.fails("tasks/get", map[string]any{"taskId": id}, -32602)
	other.fails("tasks/cancel", map[string]any{"taskId": id}, -32602)
	if list := other.ok("tasks/list", nil)["tasks"].([]any); len(list) != 0 {
		t.Errorf("another session lists %s", asJSON(list))
	}
	// The owner's cleanup ends its session, which cancels the task; the
	// leak check of TestMain sees that its job is gone.

	a, b := memPeerOn(t, true, srv), memPeerOn(t, true, srv)
	ext := extCreate(t, a, "reflow_iserror")
	if done := extPoll(t, b, ext, nil, "completed", "failed", "cancelled"); done["status"] != "completed" {
		t.Errorf("polled from another session: %s", asJSON(done))
	}
	b.fails("tasks/get", map[string]any{"taskId": id}, -32602) // and the eras do not mix
}

// TestLegacyHangUpWhileAsking: the client goes away while a tasks/result
// is asking the task's question. The handler stops asking (its question
// goes back to the task) and serving returns: it used to ask again at
// once, for ever, each elicitation/create failing on the closed
// connection, and go-sdk's session close waited on that handler.
func TestLegacyHangUpWhileAsking(t *testing.T) {
	t.Parallel()
	p := pipePeer(t, false, taskOpts())
	p.initialize()
	id := legacyCreate(t, p, "reflow_month")["taskId"].(string)
	p.start("tasks/result", map[string]any{"taskId": id})
	p.next("elicitation/create")
	p.hangUp()
	within(t, waitFor, p.served, "ServeIO to return after the client hung up")
}
