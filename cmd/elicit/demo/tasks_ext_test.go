package demo_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/google/go-cmp/cmp"
)

// extPeers are the 2026-07-28 carriers: ServeIO's pipes (stdio), the
// in-memory transport, and the stateless HTTP handler.
var extPeers = map[string]func(*testing.T, bool, *demo.Options) *peer{
	"pipes": pipePeer, "memory": memPeer, "stateless": httpPeer,
}

// extCreate calls tool and checks that the answer is a flat
// CreateTaskResult (resultType "task").
func extCreate(t *testing.T, p *peer, tool string) string {
	t.Helper()
	res := p.ok("tools/call", map[string]any{"name": tool, "arguments": map[string]any{}})
	if res["resultType"] != "task" || res["status"] != "working" || res["pollIntervalMs"] != 20.0 || res["ttlMs"] == nil {
		t.Fatalf("tools/call %s = %s, want a working task", tool, asJSON(res))
	}
	if _, nested := res["task"]; nested {
		t.Errorf("2026-07-28 CreateTaskResult nests the task: %s", asJSON(res))
	}
	id, _ := res["taskId"].(string)
	if len(id) < 20 {
		t.Errorf("taskId %q: want a high-entropy id", id)
	}
	return id
}

// extPoll polls tasks/get at pollIntervalMs until the status is one of
// want, checking each result's resultType, and returns the last result.
func extPoll(t *testing.T, p *peer, id string, pr *progress, want ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		task := p.ok("tasks/get", map[string]any{"taskId": id})
		if task["resultType"] != "complete" || task["taskId"] != id {
			t.Fatalf("tasks/get = %s", asJSON(task))
		}
		if pr != nil {
			msg, _ := task["statusMessage"].(string)
			pr.note(msg)
		}
		for _, w := range want {
			if task["status"] == w {
				return task
			}
		}
		poll, _ := task["pollIntervalMs"].(float64)
		time.Sleep(time.Duration(poll) * time.Millisecond) // the poll interval the server asked for: tasks/get is polled by protocol
	}
	t.Fatalf("task %s never reached %v", id, want)
	return nil
}

// resultText is the first text block of a completed task's result.
func resultText(t *testing.T, task map[string]any) string {
	t.Helper()
	res, _ := task["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("task has no result content: %s", asJSON(task))
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

// TestExtDeclarations: 2026-07-28 declares the extension in server/discover
// and execution.taskSupport in tools/list.
func TestExtDeclarations(t *testing.T) {
	t.Parallel()
	for kind, newPeer := range extPeers {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			p := newPeer(t, true, taskOpts())
			d := p.ok("server/discover", nil)
			ext, _ := d["capabilities"].(map[string]any)["extensions"].(map[string]any)
			if diff := cmp.Diff(map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}, "io.modelcontextprotocol/skills": map[string]any{}}, ext); diff != "" {
				t.Errorf("discover extensions (-want +got):\n%s", diff)
			}
			if _, has := d["capabilities"].(map[string]any)["tasks"]; has {
				t.Error("2026-07-28 capabilities declare the 2025-11-25 tasks")
			}
			list := p.ok("tools/list", nil)
			if list["resultType"] != "complete" {
				t.Errorf("tools/list resultType = %v", list["resultType"])
			}
			checkTaskSupport(t, list)
		})
	}
}

// TestExtReflowMonth: the whole extension flow on every carrier: a flat
// task, statusMessage advancing, inputRequests inline under a key that is
// stable across polls, a bad answer refused, tasks/update acknowledged, and
// the result inline, naming the answer.
func TestExtReflowMonth(t *testing.T) {
	t.Parallel()
	for kind, newPeer := range extPeers {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			p := newPeer(t, true, taskOpts())
			id := extCreate(t, p, "reflow_month")
			pr := &progress{t: t}
			first := extPoll(t, p, id, pr, "input_required")
			// How many of the advancing messages a poll catches depends on
			// the machine's load (the work and the polls race); at least
			// one must be seen, and none past the sixth booking.
			if len(pr.seen) < 1 || pr.last > 6 {
				t.Errorf("statusMessages seen: bookings %v, last %d; want at least one, up to 6", pr.seen, pr.last)
			}
			again := extPoll(t, p, id, nil, "input_required")
			if diff := cmp.Diff(first["inputRequests"], again["inputRequests"]); diff != "" {
				t.Errorf("inputRequests changed between polls (-first +again):\n%s", diff)
			}
			reqs, _ := first["inputRequests"].(map[string]any)
			q, _ := reqs["placement"].(map[string]any)
			params, _ := q["params"].(map[string]any)
			if len(reqs) != 1 || q["method"] != "elicitation/create" || params["message"] != workshopQuestion {
				t.Fatalf("inputRequests = %s", asJSON(reqs))
			}

			bad := p.fails("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
				"placement": map[string]any{"action": "accept", "content": map[string]any{"choice": "roof"}}}}, -32602)
			if !strings.Contains(bad.Message, "placement") {
				t.Errorf("bad answer error = %+v", bad)
			}
			ack := p.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
				"placement": map[string]any{"action": "accept", "content": map[string]any{"choice": "move_atrium"}},
				"unknown":   map[string]any{"action": "accept"}}})
			if diff := cmp.Diff(map[string]any{"resultType": "complete"}, withoutMeta(ack)); diff != "" {
				t.Errorf("tasks/update ack (-want +got):\n%s", diff)
			}

			done := extPoll(t, p, id, nil, "completed", "failed", "cancelled")
			if done["status"] != "completed" {
				t.Fatalf("final task = %s", asJSON(done))
			}
			if text := resultText(t, done); !strings.Contains(text, "Move to the atrium (move_atrium)") {
				t.Errorf("summary = %q", text)
			}
			if r := done["result"].(map[string]any); r["resultType"] != "complete" || r["isError"] == true {
				t.Errorf("result = %s", asJSON(r))
			}
			if _, has := done["inputRequests"]; has {
				t.Errorf("completed task still has inputRequests: %s", asJSON(done))
			}
			// A late answer to a key already answered is ignored.
			p.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
				"placement": map[string]any{"action": "decline"}}})
		})
	}
}

// withoutMeta drops _meta (the serverInfo go-sdk adds to every result).
func withoutMeta(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != "_meta" {
			out[k] = v
		}
	}
	return out
}

// TestExtDecline: a declined question completes with the workshop left
// unplaced.
func TestExtDecline(t *testing.T) {
	t.Parallel()
	p := httpPeer(t, true, taskOpts())
	id := extCreate(t, p, "reflow_month")
	extPoll(t, p, id, nil, "input_required")
	p.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"placement": map[string]any{"action": "decline"}}})
	done := extPoll(t, p, id, nil, "completed", "failed", "cancelled")
	if text := resultText(t, done); !strings.Contains(text, "was left unplaced") {
		t.Errorf("summary = %q", text)
	}
}

// TestExtCancel: tasks/cancel is only acknowledged; the task becomes
// cancelled when the job next looks, both while working and while waiting
// for an answer.
func TestExtCancel(t *testing.T) {
	t.Parallel()
	for _, at := range []string{"working", "input_required"} {
		t.Run(at, func(t *testing.T) {
			t.Parallel()
			p := pipePeer(t, true, taskOpts())
			id := extCreate(t, p, "reflow_month")
			extPoll(t, p, id, &progress{t: t}, at)
			ack := p.ok("tasks/cancel", map[string]any{"taskId": id})
			if diff := cmp.Diff(map[string]any{"resultType": "complete"}, withoutMeta(ack)); diff != "" {
				t.Errorf("tasks/cancel ack (-want +got):\n%s", diff)
			}
			done := extPoll(t, p, id, nil, "completed", "failed", "cancelled")
			if done["status"] != "cancelled" {
				t.Errorf("after cancel, task = %s", asJSON(done))
			}
			for _, k := range []string{"result", "error", "inputRequests"} {
				if _, has := done[k]; has {
					t.Errorf("cancelled task has %s: %s", k, asJSON(done))
				}
			}
		})
	}
}

// TestExtFailIsErrorStubborn: a JSON-RPC error fails the task with error
// inline; an isError result completes it (the extension's rule); a job that
// ignores the cancel ends completed.
func TestExtFailIsErrorStubborn(t *testing.T) {
	t.Parallel()
	p := httpPeer(t, true, taskOpts())

	failed := extPoll(t, p, extCreate(t, p, "reflow_fail"), nil, "completed", "failed", "cancelled")
	var e wireErr
	if err := json.Unmarshal(mustJSON(t, failed["error"]), &e); err != nil || failed["status"] != "failed" ||
		e.Code != -32603 || !strings.Contains(e.Message, "refused to move booking 4 of 12") {
		t.Errorf("failed task = %s", asJSON(failed))
	}
	if _, has := failed["result"]; has {
		t.Errorf("failed task has a result: %s", asJSON(failed))
	}

	isErr := extPoll(t, p, extCreate(t, p, "reflow_iserror"), nil, "completed", "failed", "cancelled")
	if isErr["status"] != "completed" || isErr["result"].(map[string]any)["isError"] != true {
		t.Errorf("isError task = %s, want completed with the isError result", asJSON(isErr))
	}

	id := extCreate(t, p, "reflow_stubborn")
	extPoll(t, p, id, &progress{t: t}, "working")
	p.ok("tasks/cancel", map[string]any{"taskId": id})
	stubborn := extPoll(t, p, id, nil, "completed", "failed", "cancelled")
	if stubborn["status"] != "completed" || !strings.Contains(resultText(t, stubborn), "the cancel request was ignored") {
		t.Errorf("stubborn task = %s", asJSON(stubborn))
	}
}

// TestExtRefusals: without the extension capability a required task tool
// and the tasks/* methods are -32021; optional ones run inline; the
// 2025-11-25 methods do not exist; unknown ids are -32602.
func TestExtRefusals(t *testing.T) {
	t.Parallel()
	p := httpPeer(t, true, taskOpts())
	p.caps = formCaps
	e := p.fails("tools/call", map[string]any{"name": "reflow_month"}, -32021)
	var data map[string]any
	if err := json.Unmarshal(e.Data, &data); err != nil {
		t.Fatalf("error data %q: %v", e.Data, err)
	}
	want := map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}}
	if diff := cmp.Diff(want, data); diff != "" {
		t.Errorf("error data (-want +got):\n%s", diff)
	}
	res := p.ok("tools/call", map[string]any{"name": "reflow_iserror"})
	if res["resultType"] != "complete" || res["isError"] != true {
		t.Errorf("reflow_iserror inline = %s", asJSON(res))
	}
	p.fails("tasks/get", map[string]any{"taskId": "nope"}, -32021)

	p.caps = extCaps
	p.fails("tasks/get", map[string]any{"taskId": "nope"}, -32602)
	p.fails("tasks/update", map[string]any{"taskId": "nope"}, -32602)
	p.fails("tasks/cancel", map[string]any{"taskId": "nope"}, -32602)
	p.fails("tasks/result", map[string]any{"taskId": "nope"}, -32601)
	p.fails("tasks/list", nil, -32601)
}
