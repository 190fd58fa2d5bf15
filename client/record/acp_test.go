package record_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestRecorderACP records an ACP turn as elicit acp does: the agent in
// the settings, the prompt as a call, a permission question answered
// through the Prompter and ended by Resolved (no client.Event), and
// reads it back with the question's shape.
func TestRecorderACP(t *testing.T) {
	var buf buffer
	r, err := record.New(&buf, "test", record.Settings{Command: "acp", Elicit: "both", Sampling: "off",
		Agents: []record.Agent{{Name: "agent", Kind: "stdio", Command: "my-agent", Args: []string{"--api-key", "…"}, Permission: "allow"}}})
	if err != nil {
		t.Fatal(err)
	}
	call := r.Begin("agent", "session/prompt", "", map[string]string{"prompt": "edit it"}, nil)
	q := &question.Question{Key: question.Key{Server: "agent", Delivery: question.PermissionRequest, RequestID: jsonrpc.IntID(1)},
		Server: "agent", Kind: question.KindPermission, Mode: question.ModeForm, Message: "Edit config.json",
		Permission: &question.Permission{ToolCall: json.RawMessage(`{"toolCallId":"call_1","title":"Edit config.json","kind":"edit"}`),
			Options: []question.PermissionOption{{ID: "allow", Name: "Allow once", Kind: "allow_once"}, {ID: "reject", Name: "Reject", Kind: "reject_once"}}}}
	p := r.Prompter(question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Option: "allow"}
	}))
	p.Prompt(t.Context(), q)
	r.Resolved(question.JournalEntry{Key: q.Key, Server: "agent", Kind: question.Accept, Sent: "selected allow", Asked: question.KindPermission})
	call.End(map[string]string{"stopReason": "end_turn"}, nil)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Read(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Settings.Agents) != 1 || rec.Settings.Agents[0].Permission != "allow" || len(rec.Settings.Servers) != 0 {
		t.Errorf("settings: %+v", rec.Settings)
	}
	if len(rec.Answers) != 1 {
		t.Fatalf("answers: %+v", rec.Answers)
	}
	a := rec.Answers[0]
	pm := a.Question.Permission
	if a.Call != 1 || a.Given == nil || a.Given.Option != "allow" || a.Sent != "selected allow" || a.Outcome != "accept" ||
		pm == nil || pm.ToolCallID != "call_1" || pm.Title != "Edit config.json" || pm.ToolKind != "edit" ||
		len(pm.Options) != 2 || pm.Options[1] != (record.PermissionOption{ID: "reject", Kind: "reject_once", Name: "Reject"}) {
		t.Errorf("the permission answer: %+v %+v", a, pm)
	}
	if len(rec.Calls) != 1 || rec.Calls[0].Result == nil || string(rec.Calls[0].Result.Result) != `{"stopReason":"end_turn"}` {
		t.Errorf("calls: %+v", rec.Calls)
	}
}

// TestReadMCPOnly: a recording written before agents existed (no
// "agents", no "permission") reads as before.
func TestReadMCPOnly(t *testing.T) {
	const old = `{"type":"header","format":"elicit-record","version":1,"elicit":"0.9","time":"2026-11-01T00:00:00Z"}
{"type":"settings","command":"call","elicit":"both","sampling":"decline","servers":[{"name":"demo","kind":"demo"}]}
{"type":"answer","seq":1,"time":"2026-11-01T00:00:00Z","server":"demo","key":"demo#1","question":{"kind":"elicitation","mode":"form","message":"Which branch?","delivery":"request"},"outcome":"accept","latencyMs":1}
`
	rec, err := record.Read(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Settings.Agents != nil || len(rec.Settings.Servers) != 1 || len(rec.Answers) != 1 || rec.Answers[0].Question.Permission != nil {
		t.Errorf("read: %+v %+v", rec.Settings, rec.Answers)
	}
}
