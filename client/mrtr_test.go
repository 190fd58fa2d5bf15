package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The booking tool's requestStates. They hold characters an encoder likes
// to rewrite, so that any re-encoding on our side shows in the bytes.
const (
	bookState1 = `round-1 <&> "quoted" é ☃`
	bookState2 = `round-2 \ / ` + "\u2028"
)

func textSchema(field string) map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{field: map[string]any{"type": "string"}}, "required": []string{field}}
}

// newBookServer is a go-sdk server of the 2026-07-28 era (it also serves
// older sessions, by turning inputRequests into elicitation/create). Its
// "book" tool asks two questions at once (dates, room), then a third
// (confirm), and reports every answer it got; requestState carries the
// round, so the tool keeps nothing between rounds.
func newBookServer(opts *mcp.ServerOptions) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "book-server", Version: "2"}, opts)
	mcp.AddTool(srv, &mcp.Tool{Name: "book"}, func(ctx context.Context, req *mcp.CallToolRequest, _ formArgs) (*mcp.CallToolResult, any, error) {
		p := req.Params
		answer := func(key string) string {
			r, ok := p.InputResponses[key].(*mcp.ElicitResult)
			if !ok {
				return key + "=missing"
			}
			if r.Action != "accept" {
				return key + "=" + r.Action
			}
			return fmt.Sprintf("%s=%v", key, r.Content[key])
		}
		switch p.RequestState {
		case "":
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"dates": &mcp.ElicitParams{Message: "question dates", RequestedSchema: textSchema("dates")},
				"room":  &mcp.ElicitParams{Message: "question room", RequestedSchema: textSchema("room")},
			}, RequestState: bookState1}, nil, nil
		case bookState1:
			if len(p.InputResponses) != 2 {
				return nil, nil, fmt.Errorf("round 2 got %d answers", len(p.InputResponses))
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"confirm": &mcp.ElicitParams{Message: "question confirm " + answer("dates") + " " + answer("room"), RequestedSchema: textSchema("confirm")},
			}, RequestState: bookState2}, nil, nil
		case bookState2:
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "booked " + answer("confirm")}}}, nil, nil
		default:
			return nil, nil, fmt.Errorf("requestState came back changed: %q", p.RequestState)
		}
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "pair"}, func(ctx context.Context, req *mcp.CallToolRequest, _ formArgs) (*mcp.CallToolResult, any, error) {
		if req.Params.InputResponses == nil {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"a": &mcp.ElicitParams{Message: "question a", RequestedSchema: textSchema("a")},
				"b": &mcp.ElicitParams{Message: "question b", RequestedSchema: textSchema("b")},
			}}, nil, nil
		}
		var parts []string
		for k, r := range req.Params.InputResponses {
			er, _ := r.(*mcp.ElicitResult)
			if er == nil {
				parts = append(parts, k+"=?")
				continue
			}
			parts = append(parts, fmt.Sprintf("%s=%s:%v", k, er.Action, er.Content[k]))
		}
		sort.Strings(parts)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(parts, " ")}}}, nil, nil
	})
	return srv
}

// answerField accepts "question <x> ..." with {<x>: "answer-<x>"}.
func answerField(p *question.Question) question.Outcome {
	f := strings.Fields(p.Message)[1]
	return question.Outcome{Kind: question.Accept, Content: map[string]any{f: "answer-" + f}}
}

// toolCalls returns our tools/call frames, in order.
func (r *recorder) toolCalls() []wireMsg {
	var out []wireMsg
	for _, m := range r.out() {
		if m.Method == "tools/call" {
			out = append(out, m)
		}
	}
	return out
}

// inFrames returns the server's frames, decoded.
func (r *recorder) in() []wireMsg {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ms []wireMsg
	for _, f := range r.frames {
		if f.Dir != client.In || f.Err != nil {
			continue
		}
		var m wireMsg
		if json.Unmarshal(f.Raw, &m) == nil {
			ms = append(ms, m)
		}
	}
	return ms
}

// member returns one member of a JSON object exactly as it is in the bytes.
func member(t *testing.T, obj json.RawMessage, key string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		t.Fatalf("not an object: %s", obj)
	}
	return m[key]
}

func TestMRTRTwoKeysThenASecondRound(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerField)
	s := servePipe(t, newBookServer(nil), &client.Options{Prompter: g}, rec)
	if s.Era() != "2026-07-28 stateless" {
		t.Fatalf("Era %q", s.Era())
	}
	done := make(chan string, 1)
	go func() {
		res, err := s.CallTool(context.Background(), "book", nil, nil)
		if err != nil {
			done <- "error " + err.Error()
			return
		}
		done <- res.Text()
	}()
	// Both questions of round 1 are open at once; answer them in reverse.
	g.waitOpen(t, "question dates", "question room")
	g.release("question room")
	g.release("question dates")
	g.waitOpen(t, "question confirm dates=answer-dates room=answer-room")
	g.release("question confirm dates=answer-dates room=answer-room")
	if got := <-done; got != "booked confirm=answer-confirm" {
		t.Fatalf("result %q", got)
	}

	calls := rec.toolCalls()
	if len(calls) != 3 {
		t.Fatalf("%d tools/call frames, want 3", len(calls))
	}
	ids := map[string]bool{}
	for _, c := range calls {
		ids[string(*c.ID)] = true
		if got := member(t, c.Params, "name"); string(got) != `"book"` {
			t.Errorf("retry lost the original params: %s", c.Params)
		}
		meta := member(t, c.Params, "_meta")
		if v := member(t, meta, "io.modelcontextprotocol/protocolVersion"); string(v) != `"2026-07-28"` {
			t.Errorf("_meta %s", meta)
		}
		if len(member(t, meta, "progressToken")) == 0 {
			t.Errorf("caller's progressToken lost from _meta %s", meta)
		}
	}
	if len(ids) != 3 {
		t.Errorf("retries reused ids: %v", ids)
	}
	if member(t, calls[0].Params, "inputResponses") != nil || member(t, calls[0].Params, "requestState") != nil {
		t.Errorf("round 1 carried answers: %s", calls[0].Params)
	}
	if got := string(member(t, calls[1].Params, "inputResponses")); got != `{"dates":{"action":"accept","content":{"dates":"answer-dates"}},"room":{"action":"accept","content":{"room":"answer-room"}}}` {
		t.Errorf("round 2 inputResponses %s", got)
	}
	// requestState went back byte for byte as it came.
	var results []json.RawMessage
	for _, m := range rec.in() {
		if m.Result != nil && strings.Contains(string(m.Result), "input_required") {
			results = append(results, m.Result)
		}
	}
	if len(results) != 2 {
		t.Fatalf("%d input_required results", len(results))
	}
	for i := range 2 {
		sent, back := member(t, results[i], "requestState"), member(t, calls[i+1].Params, "requestState")
		if len(sent) == 0 || !bytes.Equal(sent, back) {
			t.Errorf("round %d: requestState sent %s, echoed %s", i+1, sent, back)
		}
	}

	// Three prompts, keyed by the original call's id and the input key.
	entries := waitJournal(t, s, 3)
	first := jsonrpc.IntID(0)
	if err := first.UnmarshalJSON(*calls[0].ID); err != nil {
		t.Fatal(err)
	}
	var inputs []string
	for _, e := range entries {
		if e.Kind != question.Accept || e.Key.Delivery != question.InputRequest || e.Key.CallID != first ||
			e.Origin.Kind != question.OriginToolCall || e.Origin.Name != "book" || e.Origin.CallID != first {
			t.Errorf("entry %+v", e)
		}
		inputs = append(inputs, e.Key.Input)
	}
	sort.Strings(inputs)
	if strings.Join(inputs, ",") != "confirm,dates,room" {
		t.Errorf("inputs %v", inputs)
	}
	waitEvent(t, rec, func(e client.PromptResolved) bool { return e.Key.Input == "confirm" && e.Sent == "accept" })
	waitEvent(t, rec, func(e client.CallFinished) bool { return e.Method == "tools/call" && e.CallID == first && e.Err == nil })
}

func TestMRTRDeclineAndCancelPerKey(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := servePipe(t, newBookServer(nil), &client.Options{Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome {
		if p.Key.Input == "a" {
			return question.Outcome{Kind: question.Decline}
		}
		return question.Outcome{Kind: question.Cancel}
	})}, rec)
	res, err := s.CallTool(t.Context(), "pair", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); got != "a=decline:<nil> b=cancel:<nil>" {
		t.Errorf("result %q", got)
	}
	if got := string(member(t, rec.toolCalls()[1].Params, "inputResponses")); got != `{"a":{"action":"decline"},"b":{"action":"cancel"}}` {
		t.Errorf("inputResponses %s", got)
	}
	waitJournal(t, s, 2)
	if c := s.Journal().Counts(); c[question.Decline] != 1 || c[question.Cancel] != 1 {
		t.Errorf("journal %v", c)
	}
}

func TestMRTRInvalidContentAnswersCancel(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := servePipe(t, newBookServer(nil), &client.Options{Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome {
		if p.Key.Input == "a" {
			return question.Outcome{Kind: question.Accept, Content: map[string]any{"a": 42}} // not a string
		}
		return answerField(p)
	})}, rec)
	res, err := s.CallTool(t.Context(), "pair", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); got != "a=cancel:<nil> b=accept:answer-b" {
		t.Errorf("result %q", got)
	}
	waitJournal(t, s, 2)
	for _, e := range s.Journal().Entries() {
		if e.Key.Input == "a" && (e.Kind != question.Invalid || !strings.Contains(e.Reason, `"a"`)) {
			t.Errorf("entry a %+v", e)
		}
	}
	waitEvent(t, rec, func(e client.PromptResolved) bool { return e.Key.Input == "a" && e.Sent == "cancel" })
}

func TestMRTRPersonCancelsMidRound(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerField)
	s := servePipe(t, newBookServer(nil), &client.Options{Prompter: g}, rec)
	ctx, cancel := context.WithCancelCause(t.Context())
	done := make(chan error, 1)
	go func() { _, err := s.CallTool(ctx, "pair", nil, nil); done <- err }()
	g.waitOpen(t, "question a", "question b")
	g.release("question a") // answered, but its round never completes
	waitEvent(t, rec, func(e client.PromptOpened) bool { return e.Prompt.Key.Input == "b" })
	why := errors.New("person pressed ctrl-c")
	cancel(why)
	if err := <-done; !errors.Is(err, why) {
		t.Fatalf("CallTool error %v", err)
	}
	waitFor(t, "prompt b to end", func() bool { return g.cause("question b") != nil })
	if !errors.Is(g.ended("question b"), question.ErrAbandoned) {
		t.Errorf("prompt b cause %v", g.cause("question b"))
	}
	entries := waitJournal(t, s, 2)
	for _, e := range entries {
		if e.Kind != question.Abandoned {
			t.Errorf("entry %+v", e)
		}
	}
	waitEvent(t, rec, func(e client.PromptResolved) bool { return e.Key.Input == "a" && e.Sent == "" })
	if n := len(rec.toolCalls()); n != 1 {
		t.Errorf("%d tools/call frames: a retry went out after the cancel", n)
	}
	if out, in := s.Pending(); out != 0 || in != 0 {
		t.Errorf("Pending %d, %d", out, in)
	}
}

func TestMRTRWithGoSDKPromptGetAndResourceRead(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "pr", Version: "1"}, nil)
	ask := mcp.InputRequestMap{"x": &mcp.ElicitParams{Message: "question x", RequestedSchema: textSchema("x")}}
	got := func(m mcp.InputResponseMap) string {
		r, _ := m["x"].(*mcp.ElicitResult)
		if r == nil {
			return "none"
		}
		return fmt.Sprint(r.Content["x"])
	}
	srv.AddPrompt(&mcp.Prompt{Name: "p"}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.GetPromptResult{InputRequests: ask}, nil
		}
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: got(req.Params.InputResponses)}}}}, nil
	})
	srv.AddResource(&mcp.Resource{URI: "test://r", Name: "r"}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.ReadResourceResult{InputRequests: ask}, nil
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://r", Text: got(req.Params.InputResponses)}}}, nil
	})
	s := servePipe(t, srv, &client.Options{Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome { return answerField(p) })}, nil)
	pr, err := s.GetPrompt(t.Context(), "p", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Messages) != 1 || pr.Messages[0].Content.Text != "answer-x" {
		t.Errorf("prompt %+v", pr)
	}
	rc, err := s.ReadResource(t.Context(), "test://r")
	if err != nil {
		t.Fatal(err)
	}
	if len(rc) != 1 || rc[0].Text != "answer-x" {
		t.Errorf("resource %+v", rc)
	}
	entries := waitJournal(t, s, 2)
	kinds := map[question.OriginKind]string{}
	for _, e := range entries {
		kinds[e.Origin.Kind] = e.Origin.Name
	}
	if kinds[question.OriginPrompt] != "p" || kinds[question.OriginResource] != "test://r" {
		t.Errorf("origins %v", kinds)
	}
}

func TestMRTRCloseAbandonsTheRound(t *testing.T) {
	t.Parallel()
	g := newGate(answerField)
	s := servePipe(t, newBookServer(nil), &client.Options{Prompter: g}, nil)
	done := make(chan error, 1)
	go func() { _, err := s.CallTool(context.Background(), "pair", nil, nil); done <- err }()
	g.waitOpen(t, "question a", "question b")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, client.ErrClosed) {
		t.Errorf("CallTool error %v, want ErrClosed", err)
	}
	for _, e := range waitJournal(t, s, 2) {
		if e.Kind != question.Abandoned {
			t.Errorf("entry %+v", e)
		}
	}
}
