package acp_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
)

// start runs the demo agent as a real subprocess (this test binary).
func start(t *testing.T, kind string, p question.Prompter, mod func(*acp.Options)) *acp.Client {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts := acp.Options{Name: "demo-agent", Command: exe, Env: []string{agentEnv + "=" + kind}, Prompter: p,
		CancelWait: 3 * time.Second}
	if mod != nil {
		mod(&opts)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := acp.Start(ctx, opts)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// turn opens a session and runs one prompt.
func turn(t *testing.T, c *acp.Client, prompt string) (acp.TurnResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, ".")
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	return c.Prompt(ctx, sid, prompt)
}

func onlyEntry(t *testing.T, c *acp.Client) question.JournalEntry {
	t.Helper()
	es := c.Journal().Entries()
	if len(es) != 1 {
		t.Fatalf("journal has %d entries, want 1: %+v", len(es), es)
	}
	return es[0]
}

func answer(out question.Outcome) question.Prompter {
	return question.PrompterFunc(func(context.Context, *question.Question) question.Outcome { return out })
}

// hold never answers: the question stays open until its context ends.
var hold = question.PrompterFunc(func(ctx context.Context, _ *question.Question) question.Outcome {
	<-ctx.Done()
	return question.Outcome{Kind: question.Cancel}
})

func TestInitializeInfo(t *testing.T) {
	c := start(t, "plain", nil, nil)
	info := c.Info()
	if info.ProtocolVersion != 1 || info.AgentInfo == nil || info.AgentInfo.Name != "elicit-demo-agent" {
		t.Errorf("initialize result %+v", info)
	}
	res, err := turn(t, c, "hello there")
	if err != nil || res.StopReason != acp.StopEndTurn || res.Message != "You said: hello there" {
		t.Errorf("echo turn: %+v, %v", res, err)
	}
}

func TestPermissionOptions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		out     question.Outcome
		bucket  string
		sent    string
		message string
	}{
		{"allow once", question.Outcome{Kind: question.Accept, Option: "allow"}, question.OptionAllowOnce, "selected allow", "Edited config.json (allow)."},
		{"allow always", question.Outcome{Kind: question.Accept, Option: "always"}, question.OptionAllowAlways, "selected always", "Edited config.json (always)."},
		{"reject always", question.Outcome{Kind: question.Accept, Option: "never"}, question.OptionRejectAlways, "selected never", "Left config.json alone (never)."},
		{"decline picks reject_once", question.Outcome{Kind: question.Decline}, question.OptionRejectOnce, "selected reject", "Left config.json alone (reject)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, "plain", answer(tc.out), nil)
			res, err := turn(t, c, "permission")
			if err != nil || res.StopReason != acp.StopEndTurn || res.Message != tc.message {
				t.Fatalf("turn: %+v, %v", res, err)
			}
			e := onlyEntry(t, c)
			if e.Bucket != tc.bucket || e.Sent != tc.sent || e.Origin.SessionID == "" || e.Origin.ToolCallID != "call_1" {
				t.Errorf("entry %+v", e)
			}
			if len(res.ToolCalls) != 1 || res.ToolCalls[0].Title != "Edit config.json" {
				t.Errorf("tool calls %+v", res.ToolCalls)
			}
			if got := c.Journal().PermissionCounts(); got[tc.bucket] != 1 {
				t.Errorf("counts %v", got)
			}
		})
	}
}

func TestPermissionEscStopsTurn(t *testing.T) {
	c := start(t, "plain", answer(question.Outcome{Kind: question.Cancel}), nil)
	res, err := turn(t, c, "permission")
	if err != nil || res.StopReason != acp.StopCancelled || !res.Stopped {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	if e := onlyEntry(t, c); e.Sent != "cancelled" || e.Bucket != question.BucketCancelled || e.Kind != question.Cancel {
		t.Errorf("entry %+v", e)
	}
}

func TestStopAnswersOpenPermissionCancelled(t *testing.T) {
	opened := make(chan *question.Question, 1)
	p := question.PrompterFunc(func(ctx context.Context, q *question.Question) question.Outcome {
		opened <- q
		<-ctx.Done()
		return question.Outcome{Kind: question.Accept, Option: "allow"} // too late: discarded
	})
	c := start(t, "plain", p, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		select {
		case <-opened:
			c.Stop(sid)
		case <-ctx.Done():
		}
	}()
	res, err := c.Prompt(ctx, sid, "permission")
	if err != nil || res.StopReason != acp.StopCancelled || !res.Stopped {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	if e := onlyEntry(t, c); e.Sent != "cancelled" || e.Kind != question.Abandoned || e.Bucket != question.BucketCancelled {
		t.Errorf("entry %+v", e)
	}
}

func TestPromptCtxStopsLongTurn(t *testing.T) {
	c := start(t, "plain", nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	pctx, pcancel := context.WithTimeout(ctx, 400*time.Millisecond)
	defer pcancel()
	res, err := c.Prompt(pctx, sid, "long")
	if err != nil || res.StopReason != acp.StopCancelled || !res.Stopped {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	// The update sent after session/cancel is still taken.
	if !strings.HasPrefix(res.Message, "step 1. ") || !strings.HasSuffix(res.Message, "…stopped.") {
		t.Errorf("message %q", res.Message)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Status != "failed" {
		t.Errorf("tool calls %+v", res.ToolCalls)
	}
}

func TestElicitationOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		out     question.Outcome
		sent    string
		message string
	}{
		{"accept", question.Outcome{Kind: question.Accept, Content: map[string]any{"strategy": "bold", "files": 3, "tests": false}}, "accept", `Answer: {"files":3,"strategy":"bold","tests":false}`},
		{"decline", question.Outcome{Kind: question.Decline}, "decline", "No answer (decline)."},
		{"cancel", question.Outcome{Kind: question.Cancel}, "cancel", "No answer (cancel)."},
		{"invalid content", question.Outcome{Kind: question.Accept, Content: map[string]any{"strategy": "nope"}}, "error -32602", "The question was refused: error -32602."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, "plain", answer(tc.out), nil)
			res, err := turn(t, c, "question")
			if err != nil || res.StopReason != acp.StopEndTurn || res.Message != tc.message {
				t.Fatalf("turn: %+v, %v", res, err)
			}
			if e := onlyEntry(t, c); e.Sent != tc.sent || e.Key.Delivery != question.AgentRequest || e.Origin.SessionID == "" {
				t.Errorf("entry %+v", e)
			}
		})
	}
}

func TestElicitationDuringToolCall(t *testing.T) {
	var got *question.Question
	p := question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		got = q
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"strategy": "safe"}}
	})
	c := start(t, "plain", p, nil)
	res, err := turn(t, c, "toolq")
	if err != nil || res.StopReason != acp.StopEndTurn {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	if got == nil || got.Origin.ToolCallID != "call_q" || got.Origin.Name != "Plan the refactoring" || got.Schema == nil {
		t.Fatalf("question %+v", got)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Status != "completed" {
		t.Errorf("tool calls %+v", res.ToolCalls)
	}
}

func TestWithdrawnAnswered32800(t *testing.T) {
	for _, prompt := range []string{"withdraw", "withdrawperm"} {
		t.Run(prompt, func(t *testing.T) {
			c := start(t, "plain", hold, nil)
			res, err := turn(t, c, prompt)
			if err != nil || res.StopReason != acp.StopEndTurn || res.Message != "Withdrawn; the client answered error -32800." {
				t.Fatalf("turn: %+v, %v", res, err)
			}
			e := onlyEntry(t, c)
			if e.Kind != question.Withdrawn || e.Sent != "error -32800" {
				t.Errorf("entry %+v", e)
			}
			if prompt == "withdrawperm" && e.Bucket != question.BucketWithdrawn {
				t.Errorf("bucket %q", e.Bucket)
			}
		})
	}
}

func TestURLModeNotDeclared(t *testing.T) {
	c := start(t, "plain", answer(question.Outcome{Kind: question.Accept}), func(o *acp.Options) {
		o.Modes = &question.Modes{Form: true}
	})
	res, err := turn(t, c, "url")
	if err != nil || res.Message != "The question was refused: error -32602." {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	if e := onlyEntry(t, c); e.Kind != question.Invalid {
		t.Errorf("entry %+v", e)
	}
}

func TestURLModeAccepted(t *testing.T) {
	var got *question.Question
	completed := make(chan string, 1)
	c := start(t, "plain", question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		got = q
		return question.Outcome{Kind: question.Accept}
	}), func(o *acp.Options) { o.OnElicitationComplete = func(id string) { completed <- id } })
	res, err := turn(t, c, "url")
	if err != nil || res.Message != "Answer: null" || got == nil || got.URL != "https://example.com/login" || got.ElicitationID != "login-1" {
		t.Fatalf("turn: %+v, %v, %+v", res, err, got)
	}
	select {
	case id := <-completed:
		if id != "login-1" {
			t.Errorf("elicitation/complete for %q", id)
		}
	case <-time.After(5 * time.Second):
		t.Error("elicitation/complete was not heard")
	}
}

func TestFSAnsweredMethodNotFound(t *testing.T) {
	c := start(t, "plain", nil, nil)
	res, err := turn(t, c, "fs")
	if err != nil || res.Message != "fs/read_text_file: error -32601" {
		t.Fatalf("turn: %+v, %v", res, err)
	}
}

func TestRefusal(t *testing.T) {
	c := start(t, "plain", nil, nil)
	res, err := turn(t, c, "refuse")
	if err != nil || res.StopReason != acp.StopRefusal {
		t.Fatalf("turn: %+v, %v", res, err)
	}
}

func TestAuthRequired(t *testing.T) {
	c := start(t, "auth", nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.NewSession(ctx, ".")
	var ae *acp.AuthRequiredError
	if !errors.As(err, &ae) || len(ae.Methods) != 1 || !strings.Contains(err.Error(), "demo-login (Demo login)") {
		t.Fatalf("session/new: %v", err)
	}
	if err := c.Authenticate(ctx, "demo-login"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewSession(ctx, "."); err != nil {
		t.Fatalf("after authenticate: %v", err)
	}
}

func TestAbandonSlowSessionNew(t *testing.T) {
	c := start(t, "slow", nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := c.NewSession(ctx, ".")
	if !errors.Is(err, acp.ErrCancelled) {
		t.Fatalf("abandoned session/new: %v, want ErrCancelled", err)
	}
}

func TestTypedUpdatesAndUnknownKind(t *testing.T) {
	var mu sync.Mutex
	var seen []acp.Update
	c := start(t, "plain", nil, func(o *acp.Options) {
		o.OnUpdate = func(u acp.Update) { mu.Lock(); seen = append(seen, u); mu.Unlock() }
	})
	res, err := turn(t, c, "updates")
	if err != nil || res.Thought != "thinking" || res.Message != "done" {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	kinds := map[string]acp.Update{}
	for _, u := range res.Other {
		kinds[u.Kind] = u
	}
	if u := kinds[acp.UpdateCommands]; len(u.Commands) != 1 || u.Commands[0].Name != "web" {
		t.Errorf("commands %+v", u)
	}
	if u := kinds[acp.UpdateMode]; u.ModeID != "code" {
		t.Errorf("mode %+v", u)
	}
	if u := kinds[acp.UpdateUsage]; u.Usage == nil || u.Usage.Used != 120 || u.Usage.Size != 1000 {
		t.Errorf("usage %+v", u)
	}
	if u, ok := kinds["notice"]; !ok || u.Known || !strings.Contains(string(u.Raw), "does not know") {
		t.Errorf("unknown kind %+v: want it kept raw", u)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 6 {
		t.Errorf("OnUpdate heard %d updates, want 6", len(seen))
	}
}

func TestStopBoundedWhenAgentIgnoresCancel(t *testing.T) {
	c := start(t, "plain", nil, func(o *acp.Options) { o.CancelWait = 300 * time.Millisecond })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	pctx, pcancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer pcancel()
	res, err := c.Prompt(pctx, sid, "deafer")
	if !errors.Is(err, acp.ErrNoAnswer) || !res.Stopped || res.StopReason != "" {
		t.Fatalf("turn: %+v, %v; want ErrNoAnswer", res, err)
	}
}

func TestAgentDiesWithQuestionOpen(t *testing.T) {
	c := start(t, "plain", hold, nil)
	res, err := turn(t, c, "crash")
	if err == nil || res.StopReason != "" {
		t.Fatalf("turn: %+v, %v; want the connection's end", res, err)
	}
	e := onlyEntry(t, c)
	if e.Kind != question.Disconnected || e.Sent != "" || e.Bucket != question.BucketDisconnected {
		t.Errorf("entry %+v", e)
	}
}

func TestCloseBoundedWithDeafPrompter(t *testing.T) {
	release := make(chan struct{})
	opened := make(chan struct{}, 1)
	deaf := question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
		opened <- struct{}{}
		<-release // ignores its ctx
		return question.Outcome{Kind: question.Cancel}
	})
	defer close(release) // so that goleak sees it end
	c := start(t, "plain", deaf, func(o *acp.Options) { o.CloseWait = 200 * time.Millisecond })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	go c.Prompt(ctx, sid, "permission")
	<-opened
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	select {
	case <-closed:
	case <-ctx.Done():
		t.Fatal("Close hung on a Prompter that ignores its ctx")
	}
	if e := onlyEntry(t, c); e.Sent != "error -32800" {
		t.Errorf("entry %+v", e)
	}
}

func TestRequestScopedElicitation(t *testing.T) {
	var mu sync.Mutex
	var asked []*question.Question
	p := question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		mu.Lock()
		asked = append(asked, q)
		mu.Unlock()
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"workspace": "main"}}
	})
	c := start(t, "asknew", p, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.NewSession(ctx, "."); err != nil {
		t.Fatal(err)
	}
	es := c.Journal().Entries()
	if len(es) != 2 {
		t.Fatalf("journal %+v, want 2 entries", es)
	}
	if es[0].Kind != question.Invalid || es[0].Sent != "error -32602" {
		t.Errorf("a requestId of no request of ours: %+v, want -32602", es[0])
	}
	if es[1].Kind != question.Accept || es[1].Sent != "accept" || !es[1].Origin.CallID.IsValid() || es[1].Origin.SessionID != "" {
		t.Errorf("scoped to our session/new: %+v", es[1])
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 {
		t.Errorf("the Prompter was asked %d questions, want only the valid one", len(asked))
	}
}

func TestPromptAnswered32800IsCancelled(t *testing.T) {
	c := start(t, "plain", nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	pctx, pcancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer pcancel()
	res, err := c.Prompt(pctx, sid, "err32800")
	if err != nil || !res.RequestCancelled || !res.Stopped || res.StopReason != "" {
		t.Fatalf("turn: %+v, %v; want cancelled, no failure", res, err)
	}
}

// A question scoped to our session/new still open when session/new is
// answered belongs to nothing any more: it ends with its request, and is
// still answered.
func TestRequestScopedEndsWithItsRequest(t *testing.T) {
	c := start(t, "asknewfast", hold, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.NewSession(ctx, "."); err != nil {
		t.Fatal(err)
	}
	e := onlyEntry(t, c)
	if e.Kind != question.Abandoned || e.Sent != "cancel" || !e.Origin.CallID.IsValid() || e.Bucket != question.BucketCancelled {
		t.Errorf("entry %+v", e)
	}
}
