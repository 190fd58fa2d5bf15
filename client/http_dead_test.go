package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// deadBound is how long a session may take to notice that its Streamable
// HTTP server died: the first reconnect of the standalone stream comes
// after the server's retry (1 s) and a second after the backoff (2 s); a
// refused connection at both is the end. The old rule, MaxRetries (5)
// reconnects in a row, took about a minute.
const deadBound = 10 * time.Second

// deadServer serves the server newSrv makes over Streamable HTTP (hopts
// may set an event store, or stateless) and returns the session to it and
// a kill that makes the server vanish as a killed process does: its
// connections close and its port refuses. life ends the server's tools.
func deadServer(t *testing.T, newSrv func(life context.Context) *mcp.Server, hopts *mcp.StreamableHTTPOptions, opts *client.Options, rec *recorder) (*client.Session, func()) {
	t.Helper()
	life, stop := context.WithCancel(context.Background())
	srv := newSrv(life)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, hopts)
	ts := httptest.NewServer(h)
	// Cleanups run last-first: the tools end, then the server's sessions
	// (our DELETE cannot arrive after the kill), then the listener.
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	t.Cleanup(stop)
	s := connectFixture(t, &transport.HTTP{URL: ts.URL, Observer: rec}, opts, rec)
	return s, func() { ts.CloseClientConnections(); ts.Listener.Close() }
}

// checkDead waits for the session to report Disconnected with the reason,
// and for every table to empty.
func checkDead(t *testing.T, s *client.Session, rec *recorder, killed time.Time) {
	t.Helper()
	ev := waitEventWithin(t, rec, deadBound, func(e client.ServerStateChanged) bool { return e.State == client.StateDisconnected })
	t.Logf("disconnected %v after the kill: %v", time.Since(killed).Round(time.Millisecond), ev.Err)
	if ev.Err == nil || !errors.Is(ev.Err, question.ErrDisconnected) || !strings.Contains(ev.Err.Error(), "cannot be reached") {
		t.Errorf("disconnected with %v, want ErrDisconnected saying the server cannot be reached", ev.Err)
	}
	select {
	case <-s.Done():
	case <-time.After(liveness):
		t.Fatal("the session outlived its server")
	}
	if o, i := s.Pending(); o != 0 || i != 0 {
		t.Errorf("Pending %d, %d after the end", o, i)
	}
}

// TestHTTPDeadServerDuringQuestion: a question is open (on the POST stream
// of the call that asked it) when the HTTP server dies. The question ends
// Disconnected, nothing is sent for it, the call fails, and the session
// reports Disconnected within seconds, not after a minute of reconnects.
func TestHTTPDeadServerDuringQuestion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		hopts *mcp.StreamableHTTPOptions
	}{
		// go-sdk without an event store gives no event ids: the call's
		// stream cannot be resumed and the call fails at once.
		{"not resumable", nil},
		// With one, the call's stream is resumed with GET, which the dead
		// server refuses.
		{"resumable", &mcp.StreamableHTTPOptions{EventStore: mcp.NewMemoryEventStore(nil)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			g := newGate(func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Decline} })
			s, kill := deadServer(t, func(life context.Context) *mcp.Server { return newMatrixServer(life, false) }, tc.hopts,
				&client.Options{Name: "dead", Prompter: g}, rec)
			called := make(chan error, 1)
			go func() {
				_, err := s.CallTool(context.Background(), "ask", nil, nil)
				called <- err
			}()
			g.waitOpen(t, matrixQuestion)
			kill()
			killed := time.Now()
			checkDead(t, s, rec, killed)
			if cause := g.cause(matrixQuestion); !errors.Is(cause, question.ErrDisconnected) {
				t.Errorf("the question ended with %v, want ErrDisconnected", cause)
			}
			entries := waitJournal(t, s, 1)
			if k := entries[0].Kind; k != question.Disconnected {
				t.Errorf("journal says %v, want disconnected", k)
			}
			select {
			case err := <-called:
				if err == nil {
					t.Error("the call succeeded against a dead server")
				}
			case <-time.After(liveness):
				t.Fatal("the call did not end with its session")
			}
		})
	}
}

// TestHTTPDeadServerDuringStandaloneQuestion: a question that came on the
// standalone GET stream (tied to no call of ours) is open when the server
// dies. No call fails to end it: the session's end does, within seconds.
func TestHTTPDeadServerDuringStandaloneQuestion(t *testing.T) {
	t.Parallel()
	later := func(life context.Context) *mcp.Server {
		srv := mcp.NewServer(&mcp.Implementation{Name: "asks-later", Version: "1"}, legacyOpts(nil))
		mcp.AddTool(srv, &mcp.Tool{Name: "later"}, func(_ context.Context, req *mcp.CallToolRequest, _ matrixArgs) (*mcp.CallToolResult, any, error) {
			// Asked outside the call (life carries no request): go-sdk
			// sends it on the standalone stream.
			go func() {
				_, _ = req.Session.Elicit(life, &mcp.ElicitParams{Message: "question later", RequestedSchema: askSchema})
			}()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "asked"}}}, nil, nil
		})
		return srv
	}
	rec := &recorder{}
	g := newGate(func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Decline} })
	s, kill := deadServer(t, later, nil, &client.Options{Name: "dead", Prompter: g}, rec)
	if _, err := s.CallTool(t.Context(), "later", nil, nil); err != nil {
		t.Fatalf("tools/call later: %v", err)
	}
	g.waitOpen(t, "question later")
	kill()
	killed := time.Now()
	checkDead(t, s, rec, killed)
	if cause := g.cause("question later"); !errors.Is(cause, question.ErrDisconnected) {
		t.Errorf("the question ended with %v, want ErrDisconnected", cause)
	}
	if k := waitJournal(t, s, 1)[0].Kind; k != question.Disconnected {
		t.Errorf("journal says %v, want disconnected", k)
	}
}

// TestHTTPDeadServerIdle: with nothing open, a dead server is noticed by
// the standalone stream alone, within seconds.
func TestHTTPDeadServerIdle(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, kill := deadServer(t, func(life context.Context) *mcp.Server { return newMatrixServer(life, false) }, nil, &client.Options{Name: "dead"}, rec)
	if _, err := s.ListTools(t.Context()); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	kill()
	checkDead(t, s, rec, time.Now())
}

// TestHTTPDeadServerFailedPOST: a stateless (2026-07-28) session has no
// standalone stream to notice a dead server; the first request that
// cannot connect is what tells, and the session ends at once.
func TestHTTPDeadServerFailedPOST(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, kill := deadServer(t, func(life context.Context) *mcp.Server { return newMatrixServer(life, true) },
		&mcp.StreamableHTTPOptions{Stateless: true}, &client.Options{Name: "dead"}, rec)
	if !strings.Contains(s.Era(), "stateless") {
		t.Fatalf("era %q, want the stateless one", s.Era())
	}
	kill()
	killed := time.Now()
	_, err := s.CallTool(t.Context(), "ask", nil, nil)
	if !errors.Is(err, question.ErrDisconnected) {
		t.Errorf("a call to the dead server: %v; want the session's end (ErrDisconnected)", err)
	}
	checkDead(t, s, rec, killed)
}
