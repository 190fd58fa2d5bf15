package client_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
)

// What the fuzz targets (fuzz_internal_test.go, fuzz_peer_test.go) found,
// end to end: the defects fixed, and those reported but not yet fixed
// (knownBug: they skip unless ELICIT_KNOWN_BUGS is set).

// callScript calls tool "fuzz" on a scripted server and returns its text
// or error.
func callScript(t *testing.T, modern bool, script ...string) (string, error, *scriptPeer) {
	t.Helper()
	s, p := connectScript(t, lines(script...), modern, question.AcceptDefaults)
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	res, err := s.CallTool(ctx, "fuzz", nil, &client.CallOptions{TaskSupport: client.TaskSupportRequired})
	if err != nil {
		return "", err, p
	}
	return res.Text(), nil, p
}

// TestFuzzFoundTaskOddMembers: a 2025-11-25 CreateTaskResult whose ttl is
// a string, or whose model-immediate-response is a number, was read as a
// plain, empty tool result (the task ran on, unfollowed); now the task is
// followed to its result.
func TestFuzzFoundTaskOddMembers(t *testing.T) {
	t.Parallel()
	for _, created := range []string{
		`{"task":{"taskId":"c","status":"working","ttl":"60000","pollInterval":10}}`,
		`{"task":{"taskId":"c","status":"working","ttl":1e400,"pollInterval":10}}`,
		`{"task":{"taskId":"c","status":"working","pollInterval":10},"_meta":{"io.modelcontextprotocol/model-immediate-response":5}}`,
	} {
		text, err, _ := callScript(t, false, created,
			`{"taskId":"c","status":"completed","statusMessage":5,"pollInterval":10}`,
			`{"content":[{"type":"text","text":"core done"}]}`)
		if err != nil || text != "core done" {
			t.Errorf("%s: CallTool %q, %v; want the task's result", created, text, err)
		}
	}
}

// TestFuzzFoundRequestStateCase: a "requestStAte" member was taken for
// requestState (and, after the real one, overrode it); the retry must echo
// the member named requestState, exactly.
func TestFuzzFoundRequestStateCase(t *testing.T) {
	t.Parallel()
	text, err, p := callScript(t, true,
		`{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"message":"q","requestedSchema":{"type":"object","properties":{}}}}},"requestState":"right","requestStAte":"wrong"}`,
		`{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`)
	if err != nil || text != "ok" {
		t.Fatalf("CallTool %q, %v", text, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.calls) != 2 {
		t.Fatalf("%d tools/call, want 2", len(p.calls))
	}
	var retry map[string]json.RawMessage
	if err := json.Unmarshal(p.calls[1], &retry); err != nil {
		t.Fatal(err)
	}
	if got := string(retry["requestState"]); got != `"right"` {
		t.Errorf("retry echoed requestState %s, want \"right\"", got)
	}
}

// TestFuzzFoundStaleTerminalIgnored: observeTask (tasks_follow.go) dropped
// a snapshot whose lastUpdatedAt is older than one already seen, terminal
// ones included. A server whose clock stepped back (or that stamped one
// snapshot in the future) thus had its completed status ignored on every
// poll: the call never got its result. A terminal status can never be
// stale (it is final), so it is taken whatever its stamp.
func TestFuzzFoundStaleTerminalIgnored(t *testing.T) {
	t.Parallel()
	text, err, _ := callScript(t, true,
		`{"resultType":"task","taskId":"t","status":"working","lastUpdatedAt":"2099-01-01T00:00:00Z","pollIntervalMs":10}`,
		`{"resultType":"complete","taskId":"t","status":"completed","lastUpdatedAt":"2026-07-28T10:00:00Z","result":{"content":[{"type":"text","text":"done"}]}}`)
	if err != nil || text != "done" {
		t.Errorf("CallTool %q, %v; want the completed task's result", text, err)
	}
}

// TestFuzzFoundResultTypeMemberCase: resultType (meta.go) read the member
// case-insensitively, as encoding/json matches struct fields: a
// "ResultType" member decided how a result was handled, and an unknown one
// failed the call, though the result has no resultType member and so is
// complete.
func TestFuzzFoundResultTypeMemberCase(t *testing.T) {
	t.Parallel()
	text, err, _ := callScript(t, true, `{"ResultType":"mystery","content":[{"type":"text","text":"plain"}]}`)
	if err != nil || text != "plain" {
		t.Errorf("CallTool %q, %v; want the plain result", text, err)
	}
}

// TestFuzzFoundElicitParamsMemberCase: parseElicit (elicit.go) decoded
// elicitParams case-insensitively, so "RequestedSchema", "URL", "Mode"
// were taken for requestedSchema, url, mode, and a form without a
// requestedSchema member was accepted with the content of the misnamed
// one. It is refused (-32602) as a form without a schema is.
func TestFuzzFoundElicitParamsMemberCase(t *testing.T) {
	t.Parallel()
	_, p := connectHostile(t, &client.Options{Prompter: question.AcceptDefaults}, nil)
	want := elicitAnswer(t, p, 1, `{"message":"m"}`)
	got := elicitAnswer(t, p, 2, `{"message":"m","RequestedSchema":{"type":"object","properties":{"x":{"type":"string","default":"d"}}}}`)
	if (got.Error == nil) != (want.Error == nil) || strings.Contains(string(got.Result), `"x"`) {
		t.Errorf("misnamed schema answered %s %v; without one %s %v", got.Result, got.Error, want.Result, want.Error)
	}
}
