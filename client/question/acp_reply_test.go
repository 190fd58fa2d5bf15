package question

import (
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

func permissionQuestion(t *testing.T) *Question {
	t.Helper()
	q := &Question{Key: Key{Server: "agent", Delivery: PermissionRequest, RequestID: jsonrpc.IntID(5)}}
	params := `{"sessionId":"s1","toolCall":{"toolCallId":"call_2","title":"Edit config"},"options":[
	 {"optionId":"allow","name":"Allow once","kind":"allow_once"},
	 {"optionId":"always","name":"Always","kind":"allow_always"},
	 {"optionId":"reject","name":"Reject","kind":"reject_once"}]}`
	if perr := ParsePermission(q, json.RawMessage(params)); perr != nil {
		t.Fatalf("parse: %v", perr)
	}
	return q
}

func TestParsePermission(t *testing.T) {
	q := permissionQuestion(t)
	if q.Kind != KindPermission || q.Origin.SessionID != "s1" || q.Origin.ToolCallID != "call_2" || q.Message != "Edit config" || len(q.Permission.Options) != 3 {
		t.Fatalf("parsed %+v %+v", q, q.Permission)
	}
	for _, bad := range []string{`[]`, `{}`, `{"sessionId":"s"}`, `{"sessionId":"s","toolCall":{}}`,
		`{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[]}`,
		`{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[{"optionId":"a","name":"A"}]}`,
		`{"SessionId":"s","toolCall":{"toolCallId":"c"},"options":[{"optionId":"a","name":"A","kind":"allow_once"}]}`,
		`{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[{"optionId":"a","name":"A","kind":"allow_once"},{"optionId":"a","name":"B","kind":"reject_once"}]}`,
	} {
		if perr := ParsePermission(&Question{}, json.RawMessage(bad)); perr == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestAgentReplyTable(t *testing.T) {
	perm := permissionQuestion(t)
	elic := &Question{Key: Key{Server: "agent", Delivery: AgentRequest, RequestID: jsonrpc.IntID(6)}, Mode: ModeForm}
	cases := []struct {
		name   string
		q      *Question
		d      Decision
		result string
		code   int64
		bucket string
	}{
		{"allow", perm, Judge(perm, Outcome{Kind: Accept, Option: "allow"}), `{"outcome":{"optionId":"allow","outcome":"selected"}}`, 0, OptionAllowOnce},
		{"always", perm, Judge(perm, Outcome{Kind: Accept, Option: "always"}), `{"outcome":{"optionId":"always","outcome":"selected"}}`, 0, OptionAllowAlways},
		{"unknown option", perm, Judge(perm, Outcome{Kind: Accept, Option: "nope"}), `{"outcome":{"outcome":"cancelled"}}`, 0, BucketCancelled},
		{"decline picks reject_once", perm, Judge(perm, Outcome{Kind: Decline}), `{"outcome":{"optionId":"reject","outcome":"selected"}}`, 0, OptionRejectOnce},
		{"cancel", perm, Judge(perm, Outcome{Kind: Cancel}), `{"outcome":{"outcome":"cancelled"}}`, 0, BucketCancelled},
		{"turn cancelled", perm, CauseDecision(ErrAbandoned, ""), `{"outcome":{"outcome":"cancelled"}}`, 0, BucketCancelled},
		{"withdrawn", perm, CauseDecision(ErrWithdrawn, ""), "", CodeRequestCancelled, BucketWithdrawn},
		{"shutdown", perm, CauseDecision(ErrShutdown, ""), "", CodeRequestCancelled, BucketShutdown},
		{"disconnected", perm, CauseDecision(ErrDisconnected, ""), "", 0, BucketDisconnected},
		{"elicit accept", elic, Judge(elic, Outcome{Kind: Accept, Content: map[string]any{"a": "b"}}), `{"action":"accept","content":{"a":"b"}}`, 0, ""},
		{"elicit decline", elic, Judge(elic, Outcome{Kind: Decline}), `{"action":"decline"}`, 0, ""},
		{"elicit turn cancelled", elic, CauseDecision(ErrAbandoned, ""), `{"action":"cancel"}`, 0, ""},
		{"elicit withdrawn", elic, CauseDecision(ErrWithdrawn, ""), "", CodeRequestCancelled, ""},
		{"elicit shutdown", elic, CauseDecision(ErrShutdown, ""), "", CodeRequestCancelled, ""},
		{"elicit invalid", elic, Refused(&ParamsError{Msg: "bad"}), "", jsonrpc.CodeInvalidParams, ""},
		// Internal cancellation answers -32800, as a withdrawal does.
		{"timeout", perm, CauseDecision(ErrTimeout, ""), "", CodeRequestCancelled, BucketTimeout},
		{"elicit timeout", elic, CauseDecision(ErrTimeout, ""), "", CodeRequestCancelled, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkAgentReply(t, tc.q, tc.d, tc.result, tc.code, tc.bucket) })
	}
}

func checkAgentReply(t *testing.T, q *Question, d Decision, result string, code int64, bucket string) {
	t.Helper()
	tc := struct {
		name, result, bucket string
		q                    *Question
		d                    Decision
		code                 int64
	}{t.Name(), result, bucket, q, d, code}
	{
		r, out := tc.d.Reply(tc.q)
		if string(r.Result) != tc.result {
			t.Errorf("%s: result %s, want %s", tc.name, r.Result, tc.result)
		}
		if (r.Err == nil) != (tc.code == 0) || (r.Err != nil && r.Err.Code != tc.code) {
			t.Errorf("%s: error %v, want code %d", tc.name, r.Err, tc.code)
		}
		if tc.bucket != "" {
			if b := PermissionBucket(tc.q, out, r); b != tc.bucket {
				t.Errorf("%s: bucket %q, want %q", tc.name, b, tc.bucket)
			}
		}
	}
}

func TestJournalPermissionBuckets(t *testing.T) {
	j := NewJournal(0)
	j.Record(JournalEntry{Asked: KindPermission, Kind: Accept, Bucket: OptionAllowOnce})
	j.Record(JournalEntry{Asked: KindPermission, Kind: Withdrawn, Bucket: BucketWithdrawn})
	j.Record(JournalEntry{Kind: Accept})
	if c := j.PermissionCounts(); c[OptionAllowOnce] != 1 || c[BucketWithdrawn] != 1 || len(c) != 2 {
		t.Errorf("permission counts %v", c)
	}
	if c := j.Counts(); c[Accept] != 1 || c.Total() != 1 {
		t.Errorf("elicitation counts %v: a permission was counted as an elicitation", c)
	}
}

func writeQuestion(t *testing.T) *Question {
	t.Helper()
	q := &Question{Key: Key{Server: "agent", Delivery: FileWrite, RequestID: jsonrpc.IntID(9)}}
	params := `{"sessionId":"s1","toolCall":{"toolCallId":"fs_write_9","title":"Write a.txt"},"options":[
	 {"optionId":"write","name":"Write","kind":"allow_once"},
	 {"optionId":"skip","name":"Do not write","kind":"reject_once"}]}`
	if perr := ParsePermission(q, json.RawMessage(params)); perr != nil {
		t.Fatalf("parse: %v", perr)
	}
	return q
}

// TestFileWriteReplyTable: the FileWrite column, which answers a
// terminal/create (TerminalCreate) the same way but for its words.
func TestFileWriteReplyTable(t *testing.T) {
	for _, d := range []Delivery{FileWrite, TerminalCreate} {
		t.Run(d.String(), func(t *testing.T) { actionReplyTable(t, d) })
	}
}

func actionReplyTable(t *testing.T, delivery Delivery) {
	w := writeQuestion(t)
	w.Key.Delivery = delivery
	allowed, refused := "written", MsgWriteRefused
	if delivery == TerminalCreate {
		allowed, refused = "created", MsgTerminalRefused
	}
	for _, tc := range []struct {
		name   string
		d      Decision
		result string
		code   int64
		bucket string
		sent   string
	}{
		{"allowed", Judge(w, Outcome{Kind: Accept, Option: "write"}), "null", 0, OptionAllowOnce, allowed},
		{"reject option", Judge(w, Outcome{Kind: Accept, Option: "skip"}), "", jsonrpc.CodeInternalError, OptionRejectOnce, "error -32603"},
		{"decline", Judge(w, Outcome{Kind: Decline}), "", jsonrpc.CodeInternalError, OptionRejectOnce, "error -32603"},
		{"cancel", Judge(w, Outcome{Kind: Cancel}), "", jsonrpc.CodeInternalError, BucketCancelled, "error -32603"},
		{"turn cancelled", CauseDecision(ErrAbandoned, ""), "", CodeRequestCancelled, BucketCancelled, "error -32800"},
		{"shutdown", CauseDecision(ErrShutdown, ""), "", CodeRequestCancelled, BucketShutdown, "error -32800"},
		{"withdrawn", CauseDecision(ErrWithdrawn, ""), "", CodeRequestCancelled, BucketWithdrawn, "error -32800"},
		{"timeout", CauseDecision(ErrTimeout, ""), "", CodeRequestCancelled, BucketTimeout, "error -32800"},
		{"disconnected", CauseDecision(ErrDisconnected, ""), "", 0, BucketDisconnected, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkAgentReply(t, w, tc.d, tc.result, tc.code, "")
			r, out := tc.d.Reply(w)
			if b := PermissionBucket(w, out, r); b != tc.bucket {
				t.Errorf("bucket %q, want %q", b, tc.bucket)
			}
			if r.Sent != tc.sent {
				t.Errorf("sent %q, want %q", r.Sent, tc.sent)
			}
			if tc.code == jsonrpc.CodeInternalError && r.Err.Message != refused {
				t.Errorf("message %q, want %q", r.Err.Message, refused)
			}
		})
	}
}

func TestElicitationBuckets(t *testing.T) {
	elic := &Question{Key: Key{Server: "agent", Delivery: AgentRequest, RequestID: jsonrpc.IntID(6)}, Mode: ModeForm}
	j := NewJournal(0)
	for _, tc := range []struct {
		d      Decision
		bucket string
	}{
		{Judge(elic, Outcome{Kind: Accept, Content: map[string]any{}}), BucketAccept},
		{Judge(elic, Outcome{Kind: Decline}), BucketDecline},
		{Judge(elic, Outcome{Kind: Cancel}), BucketCancel},
		{CauseDecision(ErrAbandoned, ""), BucketCancelled},
		{CauseDecision(ErrShutdown, ""), BucketShutdown},
		{CauseDecision(ErrWithdrawn, ""), BucketWithdrawn},
		{CauseDecision(ErrTimeout, ""), BucketTimeout},
		{CauseDecision(ErrDisconnected, ""), BucketDisconnected},
		{Refused(&ParamsError{Msg: "bad"}), BucketInvalid},
	} {
		r, out := tc.d.Reply(elic)
		b := ElicitationBucket(out, r)
		if b != tc.bucket {
			t.Errorf("%v: bucket %q, want %q", out.Kind, b, tc.bucket)
		}
		j.Record(JournalEntry{Key: elic.Key, Kind: out.Kind, Bucket: b})
	}
	c := j.AgentElicitationCounts()
	if len(c) != 9 || c[BucketCancelled] != 1 || c[BucketCancel] != 1 {
		t.Errorf("agent elicitation counts %v: want nine buckets, a turn's cancellation apart from Esc", c)
	}
	if n := j.Counts()[Abandoned]; n != 2 {
		t.Errorf("elicitation counts by kind: %d abandoned, want 2", n)
	}
}

func TestAuthChoiceSendsNothing(t *testing.T) {
	q := &Question{Key: Key{Server: "agent", Delivery: AuthChoice}, Mode: ModeForm}
	for _, d := range []Decision{Judge(q, Outcome{Kind: Accept, Content: map[string]any{"method": "m"}}), Judge(q, Outcome{Kind: Decline}), CauseDecision(ErrShutdown, "")} {
		if r, _ := d.Reply(q); !r.None() {
			t.Errorf("%v: sent %+v; an AuthChoice is answered by authenticate, not on the wire", d.Outcome.Kind, r)
		}
	}
	if s := q.Key.String(); s != "agent (sign-in)" {
		t.Errorf("key %q", s)
	}
}
