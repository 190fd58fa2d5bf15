//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577) but still served in the deprecation window; go-sdk's sampling API is the real peer that tests it.

package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tinyPNG is a 1×1 PNG, base64 decoded by go-sdk into ImageContent.Data.
var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

// sampleParams is what the test server's tools ask: a conversation with a
// text and an image, a system prompt, model preferences, every knob, and
// (withTools) a weather tool.
func sampleParams(withTools bool) *mcp.CreateMessageWithToolsParams {
	p := &mcp.CreateMessageWithToolsParams{
		Messages: []*mcp.SamplingMessageV2{
			{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: "Summarise this picture."}, &mcp.ImageContent{Data: tinyPNG, MIMEType: "image/png"}}},
		},
		SystemPrompt:     "You are terse.",
		MaxTokens:        64,
		Temperature:      0.25,
		StopSequences:    []string{"\n\n"},
		ModelPreferences: &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: "claude"}}, SpeedPriority: 0.8},
	}
	if withTools {
		p.Tools = []*mcp.Tool{{Name: "get_weather", Description: "weather for a city",
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []any{"city"}}}}
		p.ToolChoice = &mcp.ToolChoice{Mode: "auto"}
	}
	return p
}

// describeSample renders a sampling answer for the tool's text result.
func describeSample(r *mcp.CreateMessageWithToolsResult) string {
	var parts []string
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, "text="+c.Text)
		case *mcp.ToolUseContent:
			in, _ := json.Marshal(c.Input)
			parts = append(parts, fmt.Sprintf("tool_use=%s%s id=%t", c.Name, in, c.ID != ""))
		default:
			parts = append(parts, fmt.Sprintf("%T", c))
		}
	}
	return fmt.Sprintf("model=%s role=%s stop=%s %s", r.Model, r.Role, r.StopReason, strings.Join(parts, " "))
}

// newSampleServer is a go-sdk server whose "sample" tool sends
// sampling/createMessage (2025 sessions) and reports the answer, and
// whose "summarize" tool asks the same through inputRequests, which
// go-sdk turns into a real sampling/createMessage for a 2025 session and
// sends as input_required to a 2026-07-28 one: one tool for both eras.
func newSampleServer(opts *mcp.ServerOptions) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "sample-server", Version: "1"}, opts)
	mcp.AddTool(srv, &mcp.Tool{Name: "sample"}, func(ctx context.Context, req *mcp.CallToolRequest, in struct {
		Tools bool `json:"tools"`
	}) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.CreateMessageWithTools(ctx, sampleParams(in.Tools))
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "sampling failed: " + err.Error()}}}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: describeSample(res)}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "summarize"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		r, ok := req.Params.InputResponses["summary"].(*mcp.CreateMessageWithToolsResult)
		if !ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"summary": sampleParams(false)}, RequestState: "summarize-1"}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "summary " + describeSample(r)}}}, nil, nil
	})
	return srv
}

// sampler answers every sampling question with reply (and records what
// it saw); elicitation questions are cancelled.
type sampler struct {
	mu    sync.Mutex
	seen  []*question.Question
	reply func(q *question.Question) question.Outcome
}

func (p *sampler) Prompt(_ context.Context, q *question.Question) question.Outcome {
	p.mu.Lock()
	p.seen = append(p.seen, q)
	p.mu.Unlock()
	if q.Kind != question.KindSampling {
		return question.Outcome{Kind: question.Cancel}
	}
	return p.reply(q)
}

func (p *sampler) questions() []*question.Question {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*question.Question(nil), p.seen...)
}

func replyText(text string) func(*question.Question) question.Outcome {
	return func(*question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Sample: &question.SampleReply{Text: text, Model: "person-1"}}
	}
}

func callText(t *testing.T, s *client.Session, tool string, args any) (string, error) {
	t.Helper()
	res, err := s.CallTool(t.Context(), tool, args, nil)
	if err != nil {
		return "", err
	}
	return res.Text(), nil
}

// TestSamplingRequestGoSDK: a go-sdk server's sampling/createMessage over
// stdio framing (2025-11-25) reaches the Prompter whole, and the person's
// reply, tool use or refusal reaches the server in the spec's shapes.
func TestSamplingRequestGoSDK(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		tools bool
		reply func(q *question.Question) question.Outcome
		want  string
		kind  question.OutcomeKind
		sent  string
	}{
		{"text", false, replyText("A tiny picture."), "model=person-1 role=assistant stop=endTurn text=A tiny picture.", question.Accept, "result"},
		{"tool use", true, func(q *question.Question) question.Outcome {
			return question.Outcome{Kind: question.Accept, Sample: &question.SampleReply{Model: "person-1",
				ToolUses: []question.ToolUse{{Name: "get_weather", Input: map[string]any{"city": "Paris"}}}}}
		}, `model=person-1 role=assistant stop=toolUse tool_use=get_weather{"city":"Paris"} id=true`, question.Accept, "result"},
		{"reject", false, func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Decline} },
			"User rejected sampling request", question.Decline, "error -1"},
		{"dismiss", false, func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Cancel} },
			"User rejected sampling request", question.Cancel, "error -1"},
		{"tool not offered", true, func(*question.Question) question.Outcome {
			return question.Outcome{Kind: question.Accept, Sample: &question.SampleReply{Model: "m", ToolUses: []question.ToolUse{{Name: "rm_rf"}}}}
		}, `invalid reply: tool "rm_rf" was not offered`, question.Invalid, "error -32602"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			p := &sampler{reply: tc.reply}
			s := servePipe(t, newSampleServer(legacyOpts(nil)), &client.Options{Sampling: client.SamplingOn, Prompter: p}, rec)
			got, err := callText(t, s, "sample", map[string]any{"tools": tc.tools})
			if err != nil || !strings.Contains(got, tc.want) {
				t.Fatalf("tool said %q (%v), want %q", got, err, tc.want)
			}
			qs := p.questions()
			if len(qs) != 1 {
				t.Fatalf("%d questions", len(qs))
			}
			q := qs[0]
			smp := q.Sampling
			if q.Kind != question.KindSampling || q.Key.Delivery != question.ServerRequest || q.Origin.Name != "sample" || smp == nil {
				t.Fatalf("question %+v", q)
			}
			m := smp.Params.Messages
			if len(m) != 1 || len(m[0].Content) != 2 || m[0].Content[0].Text != "Summarise this picture." ||
				m[0].Content[1].Type != "image" || m[0].Content[1].MimeType != "image/png" || m[0].Content[1].Size() != len(tinyPNG) {
				t.Errorf("messages %+v", m)
			}
			if b, err := m[0].Content[1].Bytes(); err != nil || string(b) != string(tinyPNG) {
				t.Errorf("image bytes %q, %v", b, err)
			}
			pr := smp.Params
			if pr.SystemPrompt != "You are terse." || *pr.MaxTokens != 64 || *pr.Temperature != 0.25 || len(pr.StopSequences) != 1 ||
				pr.ModelPreferences.Hints[0].Name != "claude" || *pr.ModelPreferences.SpeedPriority != 0.8 {
				t.Errorf("params %+v", pr)
			}
			if tc.tools && (len(smp.Tools) != 1 || smp.Tools[0].Input == nil || smp.ToolChoice() != "auto") {
				t.Errorf("tools %+v", smp.Tools)
			}
			entries := waitSampling(t, s, 1)
			e := entries[0]
			if e.Kind != tc.kind || e.Sent != tc.sent || e.Asked != question.KindSampling || e.Sampling == nil || string(e.Sampling.Request) != string(smp.Raw) {
				t.Errorf("journal %+v", e)
			}
			if tc.kind == question.Accept && !json.Valid(e.Sampling.Result) {
				t.Errorf("journalled result %s", e.Sampling.Result)
			}
			if n := s.Journal().Counts().Total(); n != 0 {
				t.Errorf("sampling counted among elicitation: %d", n)
			}
			// What went out answers the server's request in the spec's shape.
			var ans []wireMsg
			for _, m := range rec.out() {
				if m.Method == "" && (m.Error != nil || strings.Contains(string(m.Result), `"model"`)) {
					ans = append(ans, m)
				}
			}
			if len(ans) != 1 {
				t.Fatalf("answers %+v", ans)
			}
			switch tc.kind {
			case question.Decline, question.Cancel:
				if ans[0].Error == nil || ans[0].Error.Code != -1 || ans[0].Error.Message != "User rejected sampling request" {
					t.Errorf("refusal %+v", ans[0].Error)
				}
			case question.Accept:
				var r map[string]json.RawMessage
				_ = json.Unmarshal(ans[0].Result, &r)
				if string(r["role"]) != `"assistant"` || string(r["model"]) != `"person-1"` || r["content"][0] != '{' {
					t.Errorf("result %s", ans[0].Result)
				}
			}
		})
	}
}

// waitSampling waits for n sampling entries in s's journal.
func waitSampling(t *testing.T, s *client.Session, n int) []question.JournalEntry {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d sampling entries", n), func() bool { return s.Journal().SamplingCounts().Total() >= n })
	var out []question.JournalEntry
	for _, e := range s.Journal().Entries() {
		if e.Asked == question.KindSampling {
			out = append(out, e)
		}
	}
	return out
}

// TestSamplingHTTPGoSDK: the same over go-sdk's Streamable HTTP handler,
// where the request comes on the tools/call's stream.
func TestSamplingHTTPGoSDK(t *testing.T) {
	t.Parallel()
	srv := newSampleServer(legacyOpts(nil))
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	// Cleanups run last-first: the session closes, then the server.
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	rec := &recorder{}
	p := &sampler{reply: replyText("over http")}
	s := connectFixture(t, &transport.HTTP{URL: ts.URL, Observer: rec}, &client.Options{Sampling: client.SamplingOn, Prompter: p}, rec)
	got, err := callText(t, s, "sample", map[string]any{"tools": false})
	if err != nil || got != "model=person-1 role=assistant stop=endTurn text=over http" {
		t.Fatalf("tool said %q (%v)", got, err)
	}
	if q := p.questions()[0]; q.Origin.Kind != question.OriginToolCall || q.Origin.Inferred {
		t.Errorf("origin %+v: the HTTP stream names the call", q.Origin)
	}
	if e := waitSampling(t, s, 1)[0]; e.Kind != question.Accept || e.Sent != "result" {
		t.Errorf("journal %+v", e)
	}
}

// TestSamplingInputRequired: in 2026-07-28 the same question comes inside
// input_required, keyed by call and input key; the reply rides in the
// retry's inputResponses with requestState. A refusal cannot be said
// there, so the call is abandoned: no retry goes out.
func TestSamplingInputRequired(t *testing.T) {
	t.Parallel()
	t.Run("reply", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{}
		s := servePipe(t, newSampleServer(nil), &client.Options{Sampling: client.SamplingOn, Prompter: &sampler{reply: replyText("short")}}, rec)
		if s.Protocol() != wire.Protocol2026_07_28 {
			t.Fatalf("protocol %s", s.Protocol())
		}
		got, err := callText(t, s, "summarize", nil)
		if err != nil || got != "summary model=person-1 role=assistant stop=endTurn text=short" {
			t.Fatalf("tool said %q (%v)", got, err)
		}
		calls := rec.toolCalls()
		if len(calls) != 2 {
			t.Fatalf("%d tools/call", len(calls))
		}
		var p struct {
			InputResponses map[string]map[string]any `json:"inputResponses"`
			RequestState   string                    `json:"requestState"`
			Meta           map[string]json.RawMessage
		}
		_ = json.Unmarshal(calls[1].Params, &p)
		if p.RequestState != "summarize-1" || p.InputResponses["summary"]["model"] != "person-1" {
			t.Errorf("retry %s", calls[1].Params)
		}
		var first struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		_ = json.Unmarshal(calls[0].Params, &first)
		if caps := string(first.Meta["io.modelcontextprotocol/clientCapabilities"]); !strings.Contains(caps, `"sampling":{"tools":{}}`) {
			t.Errorf("capabilities %s", caps)
		}
		e := waitSampling(t, s, 1)[0]
		if e.Key.Delivery != question.InputRequest || e.Key.Input != "summary" || e.Kind != question.Accept || e.Sent != "result" {
			t.Errorf("journal %+v", e)
		}
	})
	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{}
		s := servePipe(t, newSampleServer(nil), &client.Options{Sampling: client.SamplingOn, Prompter: question.SampleDecline}, rec)
		_, err := callText(t, s, "summarize", nil)
		if !errors.Is(err, client.ErrAbandonedCall) || !strings.Contains(err.Error(), `input "summary" (sampling) ended decline`) {
			t.Fatalf("err %v", err)
		}
		if n := len(rec.toolCalls()); n != 1 {
			t.Errorf("%d tools/call: a refused sampling must send no retry", n)
		}
		if e := waitSampling(t, s, 1)[0]; e.Kind != question.Decline || e.Sent != "" {
			t.Errorf("journal %+v", e)
		}
	})
}

// TestSamplingOneToolBothEras: the demo-style tool asking through
// inputRequests works for a 2025-11-25 session too (go-sdk sends the real
// sampling/createMessage), answered by the echo policy.
func TestSamplingOneToolBothEras(t *testing.T) {
	t.Parallel()
	s := servePipe(t, newSampleServer(legacyOpts(nil)), &client.Options{Sampling: client.SamplingOn, Prompter: question.SampleEcho}, nil)
	got, err := callText(t, s, "summarize", nil)
	if err != nil || got != "summary model=elicit-echo role=assistant stop=endTurn text=Summarise this picture." {
		t.Fatalf("tool said %q (%v)", got, err)
	}
}

// TestServeOnlyDeclared: with sampling off a sampling/createMessage gets
// -32601 "Sampling not supported", roots/list always does ("Roots not
// supported": elicit declares no roots), and under 2025-03-26 an
// elicitation/create is refused -32602, since that version has no
// elicitation to declare; each names the capability and is marked for the
// traffic view.
func TestServeOnlyDeclared(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		version, method, params string
		opts                    client.Options
		code                    int64
		capability              string
	}{
		{"2025-11-25", "sampling/createMessage", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}`, client.Options{}, -32601, "sampling"},
		{"2025-11-25", "roots/list", `{}`, client.Options{Sampling: client.SamplingOn}, -32601, "roots"},
		{"2025-03-26", "elicitation/create", `{"message":"m","requestedSchema":{"type":"object","properties":{}}}`, client.Options{Protocol: "2025-03-26", Prompter: question.AcceptDefaults}, -32602, "elicitation.form"},
		{"2024-11-05", "elicitation/create", `{"message":"m","requestedSchema":{"type":"object","properties":{}}}`, client.Options{Protocol: "2024-11-05", Prompter: question.AcceptDefaults}, -32602, "elicitation.form"},
		{"2025-11-25", "sampling/createMessage", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5,"tools":[{"name":"x","inputSchema":{"type":"object"}}]}`,
			client.Options{Protocol: "2025-06-18", Sampling: client.SamplingOn, Prompter: question.SampleEcho}, -32602, "sampling.tools"},
	} {
		t.Run(tc.version+"/"+tc.capability, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			version := tc.version
			if tc.opts.Protocol != "" {
				version = tc.opts.Protocol
			}
			opts := tc.opts
			_, p, _ := pipePeer(t, version, &opts, rec)
			p.sendRaw(jsonrpc.IntID(7), tc.method, tc.params)
			m := p.read()
			if m.ID != jsonrpc.IntID(7) || m.Error == nil || m.Error.Code != tc.code {
				t.Fatalf("answer %+v (error %+v)", m, m.Error)
			}
			if !strings.Contains(string(m.Error.Data), `"notDeclared":"`+tc.capability+`"`) {
				t.Errorf("error data %s", m.Error.Data)
			}
			ev := waitEvent(t, rec, func(e client.RequestRefused) bool { return e.ID == jsonrpc.IntID(7) })
			if ev.Capability != tc.capability || ev.Method != tc.method || ev.Err.Code != tc.code {
				t.Errorf("event %+v", ev)
			}
		})
	}
}

// TestDeclaredSampling: sampling is declared per version, with tools only
// where that exists.
func TestDeclaredSampling(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ protocol, want string }{
		{"", `"sampling":{"tools":{}}`},
		{"2025-06-18", `"sampling":{}`},
		{"2024-11-05", `"sampling":{}`},
	} {
		cc, sc := transport.Pipe(nil)
		got := make(chan string, 1)
		go func() {
			m, err := readSkippingProbe(sc)
			if err != nil {
				got <- err.Error()
				return
			}
			got <- string(m.Params)
			v := tc.protocol
			if v == "" {
				v = "2025-11-25"
			}
			_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"` + v + `","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`)}, nil)
		}()
		s, err := client.Connect(t.Context(), connTransport{cc}, &client.Options{Protocol: tc.protocol, Sampling: client.SamplingOn})
		if err != nil {
			t.Fatal(err)
		}
		if g := <-got; !strings.Contains(g, tc.want) {
			t.Errorf("%s: initialize %s, want %s", tc.protocol, g, tc.want)
		}
		_ = s.Close()
		_ = sc.Close()
	}
}

// TestSamplingRequestConstraints: the spec's content rules are checked
// before anyone is asked.
func TestSamplingRequestConstraints(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	p := &sampler{reply: replyText("x")}
	s, peer, _ := pipePeer(t, "2025-11-25", &client.Options{Sampling: client.SamplingOn, Prompter: p}, rec)
	for i, tc := range []struct{ params, want string }{
		{`{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}`, "maxTokens is required"},
		{`{"messages":[],"maxTokens":5}`, "at least one message"},
		{`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"w","input":{}}]},{"role":"user","content":{"type":"text","text":"no"}}],"maxTokens":5}`, "Tool result missing in request"},
		{`{"messages":[{"role":"user","content":[{"type":"tool_result","toolUseId":"c1","content":[]},{"type":"text","text":"and"}]}],"maxTokens":5}`, "must contain only tool_result"},
		{`{"messages":[{"role":"system","content":{"type":"text","text":"hi"}}],"maxTokens":5}`, "neither user nor assistant"},
		{`{"messages":[{"role":"user","content":{"type":"video","data":""}}],"maxTokens":5}`, `unknown content type "video"`},
		{`{"Messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}`, "at least one message"},
	} {
		id := jsonrpc.IntID(int64(100 + i))
		peer.sendRaw(id, "sampling/createMessage", tc.params)
		m := peer.read()
		if m.ID != id || m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(m.Error.Message, tc.want) {
			t.Errorf("%s: answer %+v", tc.params, m.Error)
		}
	}
	if n := len(p.questions()); n != 0 {
		t.Errorf("%d malformed requests reached the Prompter", n)
	}
	// A good one after them, with a tool_use answered, is asked.
	peer.sendRaw(jsonrpc.IntID(200), "sampling/createMessage", `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"w","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","toolUseId":"c1","content":[{"type":"text","text":"sunny"}]}]}],"maxTokens":5,"tools":[{"name":"w","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"none"}}`)
	m := peer.read()
	var r wire.CreateMessageResult
	if m.Error != nil || json.Unmarshal(m.Result, &r) != nil || r.Model != "person-1" {
		t.Errorf("answer %+v %s", m.Error, m.Result)
	}
	qs := p.questions()
	if len(qs) != 1 || qs[0].Sampling.Params.Messages[1].Content[0].Content[0].Text != "sunny" {
		t.Errorf("questions %+v", qs)
	}
	waitSampling(t, s, 8)
	if c := s.Journal().SamplingCounts(); c[question.Invalid] != 7 || c[question.Accept] != 1 {
		t.Errorf("sampling counts %v", c)
	}
}
