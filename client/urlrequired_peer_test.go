package client_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// gatedServer is a go-sdk server (2025-11-25) whose "gated" tool answers
// -32042 with two URL elicitations until the call has been retried
// refusals times, then "through". When notify is set it sends
// notifications/elicitation/complete for each elicitation once told to
// (complete).
type gatedServer struct {
	srv      *mcp.Server
	refusals int

	mu       sync.Mutex
	calls    int
	complete chan string   // elicitation ids to announce as complete
	stop     chan struct{} // closed at the test's end
	started  bool
}

func newGatedServer(t *testing.T, refusals int) *gatedServer {
	g := &gatedServer{refusals: refusals, complete: make(chan string, 8), stop: make(chan struct{})}
	t.Cleanup(func() { close(g.stop) })
	g.srv = mcp.NewServer(&mcp.Implementation{Name: "gated", Version: "1"}, legacyOpts(nil))
	mcp.AddTool(g.srv, &mcp.Tool{Name: "gated"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		g.mu.Lock()
		g.calls++
		n, started := g.calls, g.started
		g.started = true
		g.mu.Unlock()
		if n > g.refusals {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "through"}}}, nil, nil
		}
		if !started {
			// The completions come from the server's session, on their
			// own, as a browser flow finishing would make them.
			ss := req.Session
			go func() {
				for {
					select {
					case id := <-g.complete:
						_ = ss.NotifyElicitationComplete(context.Background(), &mcp.ElicitationCompleteParams{ElicitationID: id})
					case <-g.stop:
						return
					}
				}
			}()
		}
		return nil, nil, mcp.URLElicitationRequiredError([]*mcp.ElicitParams{
			{Mode: "url", URL: "https://auth.example.com/a", Message: "sign in to A", ElicitationID: "el-a"},
			{Mode: "url", URL: "https://auth.example.com/b", Message: "sign in to B", ElicitationID: "el-b"},
		})
	})
	return g
}

func (g *gatedServer) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls
}

// urlPerson answers each URL question with kind and, on accept, runs
// then with its key.
type urlPerson struct {
	kind question.OutcomeKind
	then func(k question.Key)

	mu   sync.Mutex
	keys []question.Key
}

func (p *urlPerson) Prompt(_ context.Context, q *question.Question) question.Outcome {
	p.mu.Lock()
	p.keys = append(p.keys, q.Key)
	p.mu.Unlock()
	if q.Mode != question.ModeURL || q.Key.Delivery != question.URLRequired {
		return question.Outcome{Kind: question.Cancel, Reason: "not a -32042 URL question"}
	}
	if p.kind == question.Accept && p.then != nil {
		go p.then(q.Key) // the person finishes in the browser, later
	}
	return question.Outcome{Kind: p.kind}
}

// TestURLElicitationRequired: every URL elicitation of a -32042 becomes a
// question; when all are accepted and complete (the server's notice, or
// the person's word) the request is sent again, once.
func TestURLElicitationRequired(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		refusals int
		wait     time.Duration
		kind     question.OutcomeKind
		then     func(t *testing.T, g *gatedServer, s func() *client.Session) func(question.Key)
		calls    int
		result   string // the tool's text, or the error's text
		retried  bool
		complete int    // completions seen
		reason   string // in each journal entry
	}{
		{name: "notification", refusals: 1, wait: liveness, kind: question.Accept,
			then: func(_ *testing.T, g *gatedServer, _ func() *client.Session) func(question.Key) {
				return func(k question.Key) { g.complete <- k.Input }
			},
			calls: 2, result: "through", retried: true, complete: 2, reason: "completed: notifications/elicitation/complete"},
		{name: "person says done", refusals: 1, kind: question.Accept,
			then: func(t *testing.T, _ *gatedServer, s func() *client.Session) func(question.Key) {
				return func(k question.Key) {
					// Accepted, then done in the browser: the "done, retry"
					// key. The wait for it was set up before the question
					// was asked.
					if err := s().CompleteElicitation(k); err != nil {
						t.Errorf("CompleteElicitation(%v): %v", k, err)
					}
				}
			},
			calls: 2, result: "through", retried: true, complete: 2, reason: "completed: the person said done"},
		{name: "no completion within the wait", refusals: 1, wait: 50 * time.Millisecond, kind: question.Accept,
			calls: 2, result: "through", retried: true, complete: 0, reason: "no completion came; retried anyway"},
		{name: "declined", refusals: 1, wait: liveness, kind: question.Decline,
			calls: 1, result: "URL elicitation required", retried: false},
		{name: "refused again", refusals: 2, wait: 50 * time.Millisecond, kind: question.Accept,
			calls: 2, result: "URL elicitation required", retried: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGatedServer(t, tc.refusals)
			var sess *client.Session
			var smu sync.Mutex
			get := func() *client.Session { smu.Lock(); defer smu.Unlock(); return sess }
			p := &urlPerson{kind: tc.kind}
			if tc.then != nil {
				p.then = tc.then(t, g, get)
			}
			rec := &recorder{}
			s := servePipe(t, g.srv, &client.Options{Prompter: p, URLWait: tc.wait}, rec)
			smu.Lock()
			sess = s
			smu.Unlock()
			res, err := s.CallTool(t.Context(), "gated", nil, nil)
			got := ""
			if err != nil {
				got = err.Error()
				var rpcErr *jsonrpc.Error
				if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeURLElicitationRequired {
					t.Errorf("error %v is not the server's -32042", err)
				}
			} else {
				got = res.Text()
			}
			if !strings.Contains(got, tc.result) || g.count() != tc.calls {
				t.Fatalf("got %q after %d calls; want %q after %d", got, g.count(), tc.result, tc.calls)
			}
			ev := waitEvent(t, rec, func(client.URLRetry) bool { return true })
			if len(ev.Keys) != 2 || ev.Keys[0].Input != "el-a" || ev.Keys[1].Input != "el-b" || ev.Retried != tc.retried || len(ev.Completed) != tc.complete {
				t.Errorf("event %+v", ev)
			}
			entries := waitJournal(t, s, 2)
			for _, e := range entries {
				wantSent := ""
				if tc.retried {
					wantSent = "retry"
				}
				if e.Key.Delivery != question.URLRequired || e.Kind != tc.kind || e.Sent != wantSent || !strings.Contains(e.Reason, tc.reason) {
					t.Errorf("journal %+v", e)
				}
			}
			// Both calls share one call id: the retry belongs to the call.
			if ev.CallID != entries[0].Key.CallID {
				t.Errorf("call %s, keys %v", ev.CallID, entries[0].Key)
			}
			if out, in := s.Pending(); out != 0 || in != 0 {
				t.Errorf("pending %d/%d", out, in)
			}
		})
	}
}

// TestURLElicitationRequiredAbandoned: cancelling the call while its URL
// questions are open abandons them and sends no retry.
func TestURLElicitationRequiredAbandoned(t *testing.T) {
	t.Parallel()
	g := newGatedServer(t, 1)
	gt := newGate(func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Accept} })
	s := servePipe(t, g.srv, &client.Options{Prompter: gt}, nil)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { _, err := s.CallTool(ctx, "gated", nil, nil); done <- err }()
	gt.waitOpen(t, "sign in to A", "sign in to B")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	for _, e := range waitJournal(t, s, 2) {
		if e.Kind != question.Abandoned || e.Sent != "" {
			t.Errorf("journal %+v", e)
		}
	}
	if g.count() != 1 {
		t.Errorf("%d calls", g.count())
	}
	if err := s.CompleteElicitation(question.Key{Server: "test", Delivery: question.URLRequired, Input: "el-a"}); !errors.Is(err, client.ErrNoSuchElicitation) {
		t.Errorf("CompleteElicitation after the end: %v", err)
	}
}
