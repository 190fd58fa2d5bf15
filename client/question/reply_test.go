package question_test

import (
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestReplyTable: what each outcome sends for each delivery, the table of
// Decision.Reply's doc.
func TestReplyTable(t *testing.T) {
	t.Parallel()
	const (
		nothing = ""
		err602  = "error -32602"
	)
	deliveries := []question.Delivery{question.ServerRequest, question.InputRequest, question.TaskInput, question.ReceiverTask}
	for _, tc := range []struct {
		kind question.OutcomeKind
		want [4]string // Sent per delivery, in the order above
	}{
		{question.Accept, [4]string{"accept", "accept", "accept", "accept"}},
		{question.Decline, [4]string{"decline", "decline", "decline", "decline"}},
		{question.Cancel, [4]string{"cancel", "cancel", "cancel", "cancel"}},
		{question.Timeout, [4]string{"cancel", "cancel", "cancel", "cancel"}},
		{question.Invalid, [4]string{err602, "cancel", "cancel", err602}},
		{question.Abandoned, [4]string{"cancel", nothing, nothing, "cancel"}},
		{question.Withdrawn, [4]string{nothing, nothing, nothing, nothing}},
		{question.Disconnected, [4]string{nothing, nothing, nothing, nothing}},
	} {
		for i, del := range deliveries {
			q := &question.Question{Key: question.Key{Delivery: del}, Mode: question.ModeForm}
			d := question.Decision{Outcome: question.Outcome{Kind: tc.kind, Content: map[string]any{"a": 1}, Reason: "r"}}
			r, out := d.Reply(q)
			if r.Sent != tc.want[i] {
				t.Errorf("%s via %s: sent %q, want %q", tc.kind, del, r.Sent, tc.want[i])
			}
			if out.Kind != tc.kind {
				t.Errorf("%s via %s: journalled as %s", tc.kind, del, out.Kind)
			}
			switch {
			case tc.want[i] == nothing:
				if !r.None() {
					t.Errorf("%s via %s: sends %s / %v, want nothing", tc.kind, del, r.Result, r.Err)
				}
			case tc.want[i] == err602:
				if r.Err == nil || r.Err.Code != jsonrpc.CodeInvalidParams || r.Result != nil {
					t.Errorf("%s via %s: %+v, want a -32602 error only", tc.kind, del, r)
				}
			default:
				var res struct {
					Action  string         `json:"action"`
					Content map[string]any `json:"content"`
				}
				if err := json.Unmarshal(r.Result, &res); err != nil || res.Action != tc.want[i] {
					t.Errorf("%s via %s: result %s (%v), want action %q", tc.kind, del, r.Result, err, tc.want[i])
				}
				if (res.Content != nil) != (tc.kind == question.Accept) {
					t.Errorf("%s via %s: content %v", tc.kind, del, res.Content)
				}
			}
		}
	}
}

// TestReplyURLAcceptAndRelatedTask: a URL-mode accept carries no content,
// and a server request's answer echoes its related-task _meta exactly.
func TestReplyURLAcceptAndRelatedTask(t *testing.T) {
	t.Parallel()
	q := &question.Question{
		Key:  question.Key{Delivery: question.ServerRequest},
		Mode: question.ModeURL,
		Meta: json.RawMessage(`{"io.modelcontextprotocol/related-task":{"taskId":"t-1"},"other":1}`),
	}
	r, _ := question.Decision{Outcome: question.Outcome{Kind: question.Accept, Content: map[string]any{"x": 1}}}.Reply(q)
	const want = `{"action":"accept","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t-1"}}}`
	if string(r.Result) != want {
		t.Errorf("result %s, want %s", r.Result, want)
	}
	q.Key.Delivery = question.TaskInput
	r, _ = question.Decision{Outcome: question.Outcome{Kind: question.Decline}}.Reply(q)
	if string(r.Result) != `{"action":"decline"}` {
		t.Errorf("a task input's answer carries %s; the related-task echo is for server requests", r.Result)
	}
	// A receiver task's result names our task, not the server's: the
	// echo is left out here, and tasks/result stamps its own.
	q.Key.Delivery = question.ReceiverTask
	r, _ = question.Decision{Outcome: question.Outcome{Kind: question.Decline}}.Reply(q)
	if string(r.Result) != `{"action":"decline"}` {
		t.Errorf("a receiver task's result carries %s", r.Result)
	}
}

// TestReplyUnencodable: content our own Prompter made that cannot be
// encoded goes out as an error (requests) or cancel (inputs), journalled
// Invalid, never half-made.
func TestReplyUnencodable(t *testing.T) {
	t.Parallel()
	bad := map[string]any{"f": func() {}}
	for _, del := range []question.Delivery{question.ServerRequest, question.InputRequest} {
		q := &question.Question{Key: question.Key{Delivery: del}, Mode: question.ModeForm}
		r, out := question.Decision{Outcome: question.Outcome{Kind: question.Accept, Content: bad}}.Reply(q)
		if out.Kind != question.Invalid {
			t.Errorf("%s: journalled %s, want invalid", del, out.Kind)
		}
		switch del {
		case question.ServerRequest:
			if r.Err == nil || r.Err.Code != jsonrpc.CodeInternalError {
				t.Errorf("request: %+v, want -32603", r)
			}
		default:
			if string(r.Result) != `{"action":"cancel"}` {
				t.Errorf("input: %s, want cancel", r.Result)
			}
		}
	}
}
