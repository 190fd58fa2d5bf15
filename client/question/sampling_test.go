package question_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

const weatherRequest = `{"messages":[{"role":"user","content":{"type":"text","text":"Weather in Paris?"}}],"maxTokens":50,
	"tools":[{"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}`

func sampleQuestion(t *testing.T, del question.Delivery, params string) *question.Question {
	t.Helper()
	q := &question.Question{Key: question.Key{Delivery: del}}
	if perr := question.ParseSampling(q, json.RawMessage(params), question.SamplingModes{On: true, Tools: true}); perr != nil {
		t.Fatal(perr)
	}
	return q
}

// TestSampleReplyTable: what each outcome of a sampling question sends,
// per delivery (the table of sampleReply's doc).
func TestSampleReplyTable(t *testing.T) {
	t.Parallel()
	reply := &question.SampleReply{Text: "Sunny.", Model: "m"}
	for _, tc := range []struct {
		kind             question.OutcomeKind
		request, input   string // Sent per delivery
		requestCode      int64
		abandonsTheInput bool
	}{
		{question.Accept, "result", "result", 0, false},
		{question.Decline, "error -1", "", -1, true},
		{question.Cancel, "error -1", "", -1, true},
		{question.Timeout, "error -1", "", -1, true},
		{question.Invalid, "error -32602", "", jsonrpc.CodeInvalidParams, true},
		{question.Abandoned, "error -1", "", -1, false},
		{question.Withdrawn, "", "", 0, false},
		{question.Disconnected, "", "", 0, false},
	} {
		for _, del := range []question.Delivery{question.ServerRequest, question.InputRequest, question.TaskInput} {
			q := sampleQuestion(t, del, weatherRequest)
			d := question.Decision{Outcome: question.Outcome{Kind: tc.kind, Sample: reply, Reason: "r"}}
			r, out := d.Reply(q)
			want := tc.input
			if del == question.ServerRequest {
				want = tc.request
			}
			if r.Sent != want || out.Kind != tc.kind {
				t.Errorf("%s via %s: sent %q (journalled %s), want %q", tc.kind, del, r.Sent, out.Kind, want)
			}
			if del == question.ServerRequest && tc.requestCode != 0 && (r.Err == nil || r.Err.Code != tc.requestCode) {
				t.Errorf("%s via request: error %+v", tc.kind, r.Err)
			}
			if tc.kind == question.Decline && del == question.ServerRequest && r.Err.Message != question.MsgUserRejected {
				t.Errorf("decline message %q", r.Err.Message)
			}
			if del != question.ServerRequest && r.Abandon != tc.abandonsTheInput {
				t.Errorf("%s via %s: abandon %v", tc.kind, del, r.Abandon)
			}
			if r.Sampling == nil || string(r.Sampling.Request) != string(q.Sampling.Raw) {
				t.Errorf("%s via %s: record %+v", tc.kind, del, r.Sampling)
			}
		}
	}
}

// TestSampleResultShape: text, tool uses (ids made, stopReason toolUse),
// one block as an object and several as an array.
func TestSampleResultShape(t *testing.T) {
	t.Parallel()
	q := sampleQuestion(t, question.ServerRequest, weatherRequest)
	for _, tc := range []struct {
		reply question.SampleReply
		want  []string
	}{
		{question.SampleReply{Text: "Sunny.", Model: "m"}, []string{`"content":{"type":"text","text":"Sunny."}`, `"stopReason":"endTurn"`, `"role":"assistant"`}},
		{question.SampleReply{Text: "Let me look.", Model: "m", ToolUses: []question.ToolUse{{Name: "get_weather", Input: map[string]any{"city": "Paris"}}}},
			[]string{`"content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"toolu_`, `"name":"get_weather","input":{"city":"Paris"}}]`, `"stopReason":"toolUse"`}},
		{question.SampleReply{Text: "x", Model: "m", StopReason: "maxTokens"}, []string{`"stopReason":"maxTokens"`}},
	} {
		d := question.Judge(q, question.Outcome{Kind: question.Accept, Sample: &tc.reply})
		r, out := d.Reply(q)
		if out.Kind != question.Accept {
			t.Fatalf("%+v: %s %s", tc.reply, out.Kind, out.Reason)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(r.Result), w) {
				t.Errorf("result %s lacks %s", r.Result, w)
			}
		}
	}
}

// TestJudgeSample: a reply must name a model, say something, and use only
// offered tools with input that fits, as toolChoice allows.
func TestJudgeSample(t *testing.T) {
	t.Parallel()
	q := sampleQuestion(t, question.ServerRequest, weatherRequest)
	none := sampleQuestion(t, question.ServerRequest, strings.Replace(weatherRequest, `"maxTokens":50,`, `"maxTokens":50,"toolChoice":{"mode":"none"},`, 1))
	required := sampleQuestion(t, question.ServerRequest, strings.Replace(weatherRequest, `"maxTokens":50,`, `"maxTokens":50,"toolChoice":{"mode":"required"},`, 1))
	use := func(name string, in map[string]any) []question.ToolUse {
		return []question.ToolUse{{Name: name, Input: in}}
	}
	for _, tc := range []struct {
		q     *question.Question
		reply *question.SampleReply
		want  string // "" for accept
	}{
		{q, &question.SampleReply{Text: "x", Model: "m"}, ""},
		{q, nil, "without a message"},
		{q, &question.SampleReply{Text: "x"}, "no model"},
		{q, &question.SampleReply{Model: "m"}, "neither text nor a tool use"},
		{q, &question.SampleReply{Model: "m", ToolUses: use("rm", nil)}, `"rm" was not offered`},
		{q, &question.SampleReply{Model: "m", ToolUses: use("get_weather", map[string]any{})}, "city"},
		{q, &question.SampleReply{Model: "m", ToolUses: use("get_weather", map[string]any{"city": "Oslo"})}, ""},
		{none, &question.SampleReply{Model: "m", ToolUses: use("get_weather", map[string]any{"city": "Oslo"})}, `"none"`},
		{required, &question.SampleReply{Text: "no tool", Model: "m"}, `"required"`},
	} {
		d := question.Judge(tc.q, question.Outcome{Kind: question.Accept, Sample: tc.reply})
		switch {
		case tc.want == "" && d.Outcome.Kind != question.Accept:
			t.Errorf("%+v: %s %s", tc.reply, d.Outcome.Kind, d.Outcome.Reason)
		case tc.want != "" && (d.Outcome.Kind != question.Invalid || !strings.Contains(d.Outcome.Reason, tc.want)):
			t.Errorf("%+v: %s %q, want invalid %q", tc.reply, d.Outcome.Kind, d.Outcome.Reason, tc.want)
		}
	}
}

// TestSamplePolicies: echo, decline, the file's three shapes, and Route.
func TestSamplePolicies(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	q := sampleQuestion(t, question.ServerRequest, `{"messages":[{"role":"user","content":{"type":"text","text":"first"}},
		{"role":"assistant","content":{"type":"text","text":"ok"}},{"role":"user","content":[{"type":"text","text":"last"},{"type":"image","data":"AAAA","mimeType":"image/png"}]}],"maxTokens":5}`)
	q.Origin = question.Origin{Kind: question.OriginToolCall, Name: "summarize"}
	if got := question.SampleEcho.Prompt(ctx, q); got.Kind != question.Accept || got.Sample.Text != "last" || got.Sample.Model != question.EchoModel {
		t.Errorf("echo %+v", got)
	}
	if got := question.SampleDecline.Prompt(ctx, q); got.Kind != question.Decline {
		t.Errorf("decline %+v", got)
	}
	for _, tc := range []struct{ file, want, model string }{
		{`{"text":"all","stopReason":"maxTokens"}`, "all", "elicit-file"},
		{`{"tools":{"summarize":{"text":"per tool","model":"t"},"other":{"text":"no"}}}`, "per tool", "t"},
		{`{"replies":[{"text":"one"},{"text":"two"}]}`, "one", "elicit-file"},
	} {
		f, err := question.ParseSampleFile([]byte(tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Prompt(ctx, q); got.Kind != question.Accept || got.Sample.Text != tc.want || got.Sample.Model != tc.model {
			t.Errorf("%s: %+v", tc.file, got)
		}
	}
	f, _ := question.ParseSampleFile([]byte(`{"replies":[{"text":"one"}]}`))
	f.Prompt(ctx, q)
	if got := f.Prompt(ctx, q); got.Kind != question.Decline || !strings.Contains(got.Reason, "all 1 replies were used") {
		t.Errorf("used up: %+v", got)
	}
	other := *q
	other.Origin.Name = "elsewhere"
	f, _ = question.ParseSampleFile([]byte(`{"tools":{"summarize":{"text":"x"}}}`))
	if got := f.Prompt(ctx, &other); got.Kind != question.Decline || !strings.Contains(got.Reason, `"elsewhere"`) {
		t.Errorf("another tool: %+v", got)
	}
	for _, bad := range []string{`[]`, `{"modle":"x","text":"y"}`, `{"model":"x"}`, `{"replies":[]}`, `{"tools":{"a":{"toolUse":{}}}}`} {
		if _, err := question.ParseSampleFile([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	r := question.Route{question.KindElicitation: question.AcceptDefaults, question.KindSampling: question.SampleEcho}
	if got := r.Prompt(ctx, q); got.Kind != question.Accept || got.Sample == nil {
		t.Errorf("route to sampling %+v", got)
	}
	if got := question.AcceptDefaults.Prompt(ctx, q); got.Kind != question.Decline {
		t.Errorf("a form policy on sampling: %+v", got)
	}
	url := &question.Question{Mode: question.ModeURL, URL: "https://example.com"}
	if got := question.AcceptAll.Prompt(ctx, url); got.Kind != question.Accept {
		t.Errorf("accept on URL mode %+v", got)
	}
}

// TestBlockSize: an image's size is its decoded size.
func TestBlockSize(t *testing.T) {
	t.Parallel()
	q := sampleQuestion(t, question.ServerRequest, `{"messages":[{"role":"user","content":[{"type":"image","data":"AAECAw==","mimeType":"image/png"},{"type":"audio","data":"AAEC","mimeType":"audio/wav"},{"type":"image","data":"AAE=","mimeType":"image/png"}]}],"maxTokens":5}`)
	c := q.Sampling.Params.Messages[0].Content
	for i, want := range []int{4, 3, 2} {
		b, err := c[i].Bytes()
		if c[i].Size() != want || err != nil || len(b) != want {
			t.Errorf("block %d: size %d, bytes %d (%v), want %d", i, c[i].Size(), len(b), err, want)
		}
	}
}
