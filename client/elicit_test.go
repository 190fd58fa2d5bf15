package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answerFromMessage accepts with answer "answer-<name>" for "question <name>".
func answerFromMessage(p *question.Question) question.Outcome {
	return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "answer-" + strings.TrimPrefix(p.Message, "question ")}}
}

// callAll calls ask(name) for each name concurrently.
func callAll(s *client.Session, names ...string) map[string]chan string {
	out := map[string]chan string{}
	for _, n := range names {
		ch := make(chan string, 1)
		out[n] = ch
		go func() {
			res, err := s.CallTool(context.Background(), "ask", askArgs{Name: n}, nil)
			if err != nil {
				ch <- "error " + err.Error()
				return
			}
			ch <- res.Text()
		}()
	}
	return out
}

func TestThreeElicitationsAnsweredInReverse(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerFromMessage)
	s := servePipe(t, newAskServer(nil), &client.Options{Prompter: g}, rec)
	results := callAll(s, "a", "b", "c")
	g.waitOpen(t, "question a", "question b", "question c")
	if out, in := s.Pending(); out != 3 || in != 3 {
		t.Errorf("Pending = %d, %d; want 3, 3", out, in)
	}
	for _, n := range []string{"c", "b", "a"} {
		g.release("question " + n)
		// Each answer reaches its own call before the next is released.
		if got, want := <-results[n], n+": accept answer-"+n; got != want {
			t.Errorf("call %s got %q, want %q", n, got, want)
		}
	}
	entries := waitJournal(t, s, 3)
	if len(entries) != 3 {
		t.Fatalf("journal %+v", entries)
	}
	keys := map[question.Key]bool{}
	for _, e := range entries {
		keys[e.Key] = true
		if e.Kind != question.Accept || e.Key.Delivery != question.ServerRequest || e.Key.Server != "test" {
			t.Errorf("entry %+v", e)
		}
	}
	if len(keys) != 3 {
		t.Errorf("keys not distinct: %v", keys)
	}
}

// newWithdrawServer has a tool "withdraw" that elicits, and cancels its own
// elicitation when the test closes pull.
func newWithdrawServer(pull <-chan struct{}, linger time.Duration) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "withdraw", Version: "1"}, legacyOpts(nil))
	mcp.AddTool(srv, &mcp.Tool{Name: "withdraw"}, func(ctx context.Context, req *mcp.CallToolRequest, _ formArgs) (*mcp.CallToolResult, any, error) {
		ectx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-pull:
				cancel()
			case <-ectx.Done():
			}
		}()
		_, err := req.Session.Elicit(ectx, &mcp.ElicitParams{Message: "question w", RequestedSchema: askSchema})
		text := "answered"
		if err != nil {
			text = "withdrawn: " + err.Error()
		}
		time.Sleep(linger) // a deliberately lingering tool
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	})
	return srv
}

func TestServerWithdrawsElicitation(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	pull := make(chan struct{})
	g := newGate(answerFromMessage)
	s := servePipe(t, newWithdrawServer(pull, 0), &client.Options{Prompter: g}, rec)
	done := make(chan string, 1)
	go func() {
		res, err := s.CallTool(context.Background(), "withdraw", nil, nil)
		if err != nil {
			done <- err.Error()
			return
		}
		done <- res.Text()
	}()
	g.waitOpen(t, "question w")
	opened := waitEvent(t, rec, func(e client.PromptOpened) bool { return e.Prompt.Message == "question w" })
	close(pull)
	resolved := waitEvent(t, rec, func(e client.PromptResolved) bool { return e.Key == opened.Prompt.Key })
	if got := <-done; !strings.HasPrefix(got, "withdrawn") {
		t.Errorf("tool result %q", got)
	}
	if !errors.Is(g.ended("question w"), question.ErrWithdrawn) {
		t.Errorf("prompter ctx cause %v, want ErrWithdrawn", g.cause("question w"))
	}
	if resolved.Entry.Kind != question.Withdrawn || resolved.Sent != "" {
		t.Errorf("resolved %+v", resolved)
	}
	// Nothing at all went out for the withdrawn request's id.
	if got := rec.responsesTo(opened.Prompt.Key.RequestID.String()); len(got) != 0 {
		t.Errorf("sent %d responses to withdrawn request %s: %+v", len(got), opened.Prompt.Key.RequestID, got)
	}
	if _, in := s.Pending(); in != 0 {
		t.Errorf("incoming table holds %d", in)
	}
	if c := s.Journal().Counts(); c[question.Withdrawn] != 1 || c.Total() != 1 {
		t.Errorf("journal %v", c)
	}
}

// newBadSchemaServer's tool "bad" elicits with a schema outside the subset
// (go-sdk sends it unchecked) and returns the error it got.
func newElicitServer(params *mcp.ElicitParams) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "one", Version: "1"}, legacyOpts(nil))
	mcp.AddTool(srv, &mcp.Tool{Name: "one"}, func(ctx context.Context, req *mcp.CallToolRequest, _ formArgs) (*mcp.CallToolResult, any, error) {
		p := *params
		res, err := req.Session.Elicit(ctx, &p)
		text := ""
		if err != nil {
			text = "error: " + err.Error()
		} else {
			b, _ := json.Marshal(res.Content)
			text = res.Action + " " + string(b)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	})
	return srv
}

func callOne(t *testing.T, s *client.Session) string {
	t.Helper()
	res, err := s.CallTool(t.Context(), "one", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Text()
}

func TestInvalidSchemaRefused(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerFromMessage)
	s := servePipe(t, newElicitServer(&mcp.ElicitParams{
		Message:         "nested",
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"address":{"type":"object","properties":{"street":{"type":"string"}}}}}`),
	}), &client.Options{Prompter: g}, rec)
	got := callOne(t, s)
	if !strings.Contains(got, `property \"address\"`) && !strings.Contains(got, `property "address"`) {
		t.Errorf("tool saw %q; want our -32602 naming the property", got)
	}
	if g.count() != 0 {
		t.Errorf("Prompter called %d times", g.count())
	}
	var errs []*jsonrpc.Error
	for _, m := range rec.out() {
		if m.Error != nil {
			errs = append(errs, m.Error)
		}
	}
	if len(errs) != 1 || errs[0].Code != jsonrpc.CodeInvalidParams || !strings.Contains(errs[0].Message, `property "address"`) {
		t.Fatalf("errors sent %+v", errs)
	}
	e := waitJournal(t, s, 1)
	if len(e) != 1 || e[0].Kind != question.Invalid || !strings.Contains(e[0].Reason, "address") {
		t.Errorf("journal %+v", e)
	}
}

func TestInvalidContentRefused(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := servePipe(t, newElicitServer(&mcp.ElicitParams{
		Message:         "how old",
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"age":{"type":"integer","minimum":0}},"required":["age"]}`),
	}), &client.Options{Prompter: question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"age": -1}}
	})}, rec)
	got := callOne(t, s)
	if !strings.HasPrefix(got, "error") {
		t.Errorf("tool saw %q", got)
	}
	for _, m := range rec.out() {
		if m.Result != nil && strings.Contains(string(m.Result), "action") {
			t.Errorf("sent a result: %s", m.Result)
		}
	}
	var errs []*jsonrpc.Error
	for _, m := range rec.out() {
		if m.Error != nil {
			errs = append(errs, m.Error)
		}
	}
	if len(errs) != 1 || errs[0].Code != jsonrpc.CodeInvalidParams || !strings.Contains(errs[0].Message, `"age"`) {
		t.Fatalf("errors sent %+v", errs)
	}
	e := waitJournal(t, s, 1)
	if len(e) != 1 || e[0].Kind != question.Invalid || !strings.Contains(e[0].Reason, "age") {
		t.Errorf("journal %+v", e)
	}
}

func TestDeclineAndCancelAreDistinct(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := servePipe(t, newAskServer(nil), &client.Options{Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome {
		if p.Message == "question d" {
			return question.Outcome{Kind: question.Decline}
		}
		return question.Outcome{Kind: question.Cancel}
	})}, rec)
	r := callAll(s, "d", "c")
	if got := <-r["d"]; got != "d: decline <nil>" {
		t.Errorf("d: %q", got)
	}
	if got := <-r["c"]; got != "c: cancel <nil>" {
		t.Errorf("c: %q", got)
	}
	var answers []string
	for _, m := range rec.out() {
		if m.Result != nil && strings.Contains(string(m.Result), "action") {
			answers = append(answers, string(m.Result))
		}
	}
	if len(answers) != 2 || !cmp.Equal(map[string]bool{answers[0]: true, answers[1]: true},
		map[string]bool{`{"action":"decline"}`: true, `{"action":"cancel"}`: true}) {
		t.Errorf("answers %q", answers)
	}
	waitJournal(t, s, 2)
	c := s.Journal().Counts()
	if c[question.Decline] != 1 || c[question.Cancel] != 1 || c.Total() != 2 {
		t.Errorf("journal %v", c)
	}
}

func TestPromptTimeout(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerFromMessage) // never released
	s := servePipe(t, newAskServer(nil), &client.Options{Prompter: g, PromptTimeout: 20 * 1e6}, rec)
	if got := <-callAll(s, "t")["t"]; got != "t: cancel <nil>" {
		t.Errorf("result %q", got)
	}
	// The engine answers as soon as the timeout fires; the Prompter sees
	// its ctx end independently, so wait for it.
	waitFor(t, "prompter ctx to end with ErrTimeout", func() bool {
		return errors.Is(g.ended("question t"), question.ErrTimeout)
	})
	waitJournal(t, s, 1)
	if c := s.Journal().Counts(); c[question.Timeout] != 1 || c.Total() != 1 {
		t.Errorf("journal %v", c)
	}
}

func TestCancelledCallAbandonsItsPrompt(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerFromMessage)
	s := servePipe(t, newAskServer(nil), &client.Options{Prompter: g}, rec)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { _, err := s.CallTool(ctx, "ask", askArgs{Name: "x"}, nil); done <- err }()
	g.waitOpen(t, "question x")
	opened := waitEvent(t, rec, func(e client.PromptOpened) bool { return true })
	if o := opened.Prompt.Origin; o.Kind != question.OriginToolCall || o.Name != "ask" || !o.Inferred || !o.CallID.IsValid() {
		t.Errorf("origin %+v", o)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool: %v", err)
	}
	res := waitEvent(t, rec, func(e client.PromptResolved) bool { return true })
	if res.Entry.Kind != question.Abandoned || res.Sent != "cancel" {
		t.Errorf("resolved %+v", res)
	}
	if !errors.Is(g.ended("question x"), question.ErrAbandoned) {
		t.Errorf("cause %v", g.cause("question x"))
	}
}

func TestCloseAbandonsOpenPrompts(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerFromMessage)
	s := servePipe(t, newAskServer(nil), &client.Options{Prompter: g}, rec)
	r := callAll(s, "q")
	g.waitOpen(t, "question q")
	_ = s.Close()
	// Close fails pending calls at once, before the prompts' cancel answers
	// could make the server reply.
	if got := <-r["q"]; !strings.Contains(got, "session closed") {
		t.Errorf("call: %q", got)
	}
	if !errors.Is(g.ended("question q"), question.ErrAbandoned) {
		t.Errorf("cause %v", g.cause("question q"))
	}
	e := s.Journal().Entries()
	if len(e) != 1 || e[0].Kind != question.Abandoned {
		t.Errorf("journal %+v", e)
	}
	if got := rec.responsesTo(e[0].Key.RequestID.String()); len(got) != 1 || string(got[0].Result) != `{"action":"cancel"}` {
		t.Errorf("sent %+v", got)
	}
}

func TestURLMode(t *testing.T) {
	t.Parallel()
	params := &mcp.ElicitParams{Mode: "url", Message: "log in", URL: "https://example.com/login?x=1", ElicitationID: "e-1"}
	t.Run("accept is consent, no content", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{}
		var got *question.Question
		s := servePipe(t, newElicitServer(params), &client.Options{Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome {
			got = p
			return question.Outcome{Kind: question.Accept, Content: map[string]any{"ignored": true}}
		})}, rec)
		if r := callOne(t, s); r != "accept null" {
			t.Errorf("result %q", r)
		}
		if got.Mode != question.ModeURL || got.URL != params.URL || got.ElicitationID != "e-1" || got.Schema != nil {
			t.Errorf("prompt %+v", got)
		}
		if r := rec.responsesTo(got.Key.RequestID.String()); len(r) != 1 || string(r[0].Result) != `{"action":"accept"}` {
			t.Errorf("sent %+v", r)
		}
	})
	t.Run("accept-defaults cancels", func(t *testing.T) {
		t.Parallel()
		s := servePipe(t, newElicitServer(params), &client.Options{Prompter: question.AcceptDefaults}, nil)
		if r := callOne(t, s); r != "cancel null" {
			t.Errorf("result %q", r)
		}
		if e := waitJournal(t, s, 1); len(e) != 1 || e[0].Kind != question.Cancel || e[0].Reason != "URL mode needs a person" {
			t.Errorf("journal %+v", e)
		}
	})
	t.Run("undeclared mode refused", func(t *testing.T) {
		t.Parallel()
		_, p, _ := pipePeer(t, "2025-11-25", &client.Options{Elicit: client.ElicitForm, Prompter: question.AcceptDefaults}, nil)
		p.sendRaw(jsonrpc.IntID(1), "elicitation/create", `{"mode":"url","message":"m","url":"https://x.example","elicitationId":"1"}`)
		m := p.read()
		if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(m.Error.Message, `"url"`) {
			t.Errorf("answer %+v", m)
		}
	})
}

func TestRelatedTaskEchoed(t *testing.T) {
	t.Parallel()
	var got *question.Question
	var mu sync.Mutex
	_, p, _ := pipePeer(t, "2025-11-25", &client.Options{Prompter: question.PrompterFunc(func(_ context.Context, pr *question.Question) question.Outcome {
		mu.Lock()
		got = pr
		mu.Unlock()
		return question.Outcome{Kind: question.Decline}
	})}, nil)
	p.sendRaw(jsonrpc.StringID("t-1"), "elicitation/create",
		`{"message":"m","requestedSchema":{"type":"object","properties":{}},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"7f3a"}}}`)
	m := p.read()
	if string(m.Result) != `{"action":"decline","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"7f3a"}}}` {
		t.Errorf("answer %s", m.Result)
	}
	mu.Lock()
	defer mu.Unlock()
	if got.Origin.Kind != question.OriginTask || got.Origin.TaskID != "7f3a" || got.Key.RequestID != jsonrpc.StringID("t-1") {
		t.Errorf("prompt %+v", got)
	}
}

func TestIDSpacesAndDuplicates(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(func(*question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Content: map[string]any{}}
	})
	s, p, _ := pipePeer(t, "2025-11-25", &client.Options{Prompter: g}, rec)
	// Our request 2 is pending while the server's request 2 arrives: they
	// are unrelated.
	done := make(chan error, 1)
	go func() { _, err := s.ListTools(context.Background()); done <- err }()
	req := p.expect("tools/list")
	p.sendRaw(req.ID, "elicitation/create", `{"message":"first","requestedSchema":{"type":"object","properties":{}}}`)
	g.waitOpen(t, "first")
	p.sendRaw(req.ID, "elicitation/create", `{"message":"second","requestedSchema":{"type":"object","properties":{}}}`)
	waitEvent(t, rec, func(n client.Notice) bool {
		return strings.Contains(n.Text, "second elicitation/create with id "+req.ID.String())
	})
	if out, in := s.Pending(); out != 1 || in != 1 {
		t.Errorf("Pending = %d, %d", out, in)
	}
	p.respond(req.ID, `{"tools":[]}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	g.release("first")
	m := p.read()
	if m.ID != req.ID || string(m.Result) != `{"action":"accept","content":{}}` {
		t.Errorf("answer %+v %s", m, m.Result)
	}
	if g.count() != 1 {
		t.Errorf("prompter saw %d prompts", g.count())
	}
}

func TestMalformedElicitations(t *testing.T) {
	t.Parallel()
	_, p, _ := pipePeer(t, "2025-11-25", &client.Options{Prompter: question.AcceptDefaults}, nil)
	for i, params := range []string{
		``,
		`[]`,
		`{"message":1}`,
		`{"mode":"sms","message":"m"}`,
		`{"message":"m"}`,
		`{"mode":"url","message":"m","url":"not a url"}`,
		`{"message":"m","requestedSchema":{"type":"array"}}`,
	} {
		p.sendRaw(jsonrpc.IntID(int64(i+1)), "elicitation/create", params)
		m := p.read()
		if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("params %s: answer %+v", params, m)
		}
	}
}
