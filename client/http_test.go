package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP runs srv behind go-sdk's Streamable HTTP handler on a test
// server and connects a session with transport.HTTP.
func serveHTTP(t *testing.T, srv *mcp.Server, hopts *mcp.StreamableHTTPOptions, opts *client.Options, rec *recorder) *client.Session {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, hopts)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	if opts.Name == "" {
		opts.Name = "http"
	}
	tr := &transport.HTTP{URL: ts.URL}
	if rec != nil {
		opts.Observer = rec
		tr.Observer = rec
	}
	s, err := client.Connect(t.Context(), tr, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestHTTPThreeElicitationsInReverse(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerFromMessage)
	s := serveHTTP(t, newAskServer(nil), nil, &client.Options{Prompter: g}, rec)
	if s.Protocol() != wire.Protocol2025_11_25 {
		t.Errorf("protocol %q", s.Protocol())
	}
	r := callAll(s, "a", "b", "c")
	g.waitOpen(t, "question a", "question b", "question c")
	for _, n := range []string{"c", "b", "a"} {
		g.release("question " + n)
		if got, want := <-r[n], n+": accept answer-"+n; got != want {
			t.Errorf("call %s got %q, want %q", n, got, want)
		}
	}
	// Over HTTP each elicitation came on its call's POST stream, so its
	// origin is known, not inferred, once the transport says which stream
	// carried it (jsonrpc.Message.RelatedID).
	entries := waitJournal(t, s, 3)
	calls := map[string]bool{}
	for _, e := range entries {
		if e.Origin.Kind != question.OriginToolCall || e.Origin.Name != "ask" || e.Origin.Inferred || !e.Origin.CallID.IsValid() {
			t.Errorf("origin %+v", e.Origin)
		}
		calls[e.Origin.CallID.String()] = true
	}
	if len(calls) != 3 {
		t.Errorf("three prompts should belong to three calls, got %v", calls)
	}
	// Every request after initialize carried the version header (the era
	// probe before it carried the version it probed for).
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, f := range rec.frames {
		if f.Dir == transport.Out && f.HTTP != nil && f.HTTP.Method == http.MethodPost && !strings.Contains(string(f.Raw), `"server/discover"`) {
			v := f.HTTP.Header.Get("Mcp-Protocol-Version")
			if v != "" && v != "2025-11-25" {
				t.Errorf("frame %s sent version %q", f.Raw, v)
			}
		}
	}
}

func TestHTTPSessionExpiredReinitializes(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	srv := newAskServer(nil)
	s := serveHTTP(t, srv, nil, &client.Options{Prompter: question.DeclineAll}, rec)
	if _, err := s.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	// The server forgets the session: what its idle timeout
	// (StreamableHTTPOptions.SessionTimeout) does, done here at once;
	// Close returns once the handler has dropped it, so the next request
	// gets 404.
	for ss := range srv.Sessions() {
		_ = ss.Close()
	}
	// A call, not a list: the tools/list answer is given again while the
	// server, which declared tools.listChanged, said no change (lists.go).
	res, err := s.CallTool(t.Context(), "echo", askArgs{Name: "x"}, nil)
	if err != nil || res.Text() != "echo x" {
		t.Fatalf("call after expiry: %v %v", res, err)
	}
	// The new session's list is asked for again.
	tools, err := s.ListTools(t.Context())
	if err != nil {
		t.Fatalf("ListTools after re-initialize: %v", err)
	}
	if len(tools) != 2 {
		t.Errorf("tools %+v", tools)
	}
	inits := 0
	for _, m := range rec.out() {
		if m.Method == "initialize" {
			inits++
		}
	}
	if inits != 2 {
		t.Errorf("initialize sent %d times, want 2", inits)
	}
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "initializing again") })
	// The new session works for elicitation too.
	if got := <-callAll(s, "z")["z"]; got != "z: decline <nil>" {
		t.Errorf("call after re-initialize: %q", got)
	}
}

func TestHTTPWithdrawn(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	pull := make(chan struct{})
	g := newGate(answerFromMessage)
	// go-sdk drops the cancel if the tool returns at once (its POST stream
	// is gone), so the tool lingers.
	srv := newWithdrawServer(pull, 300*time.Millisecond)
	s := serveHTTP(t, srv, nil, &client.Options{Prompter: g}, rec)
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
	close(pull)
	waitFor(t, "withdrawal", func() bool { return g.cause("question w") != nil })
	<-done
	e := waitJournal(t, s, 1)
	if e[0].Kind != question.Withdrawn {
		t.Errorf("journal %+v", e)
	}
	if got := rec.responsesTo(e[0].Key.RequestID.String()); len(got) != 0 {
		t.Errorf("answered a withdrawn request: %+v", got)
	}
}
