package client_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectHTTP connects to h on a test server with transport.HTTP.
func connectHTTP(t *testing.T, h http.Handler, opts *client.Options, rec *recorder) *client.Session {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	tr := &transport.HTTP{URL: ts.URL, Observer: rec}
	opts.Observer = rec
	s, err := client.Connect(t.Context(), tr, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// httpFrames returns our frames with their HTTP exchange.
func (r *recorder) httpOut() []transport.Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []transport.Frame
	for _, f := range r.frames {
		if f.Dir == transport.Out && f.HTTP != nil && len(f.Raw) > 0 {
			out = append(out, f)
		}
	}
	return out
}

func TestHTTPStatelessMRTRAndCancel(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	srv := newBookServer(nil)
	started, cancelled := make(chan struct{}), make(chan struct{})
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ formArgs) (*mcp.CallToolResult, any, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, nil, ctx.Err()
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true})
	g := newGate(answerField)
	s := connectHTTP(t, h, &client.Options{Prompter: g}, rec)
	if s.Era() != "2026-07-28 stateless" || s.ServerInfo().Name != "book-server" {
		t.Fatalf("Era %q, server %+v", s.Era(), s.ServerInfo())
	}

	done := callAsync(context.Background(), s, "book")
	g.waitOpen(t, "question dates", "question room")
	g.release("question dates")
	g.release("question room")
	g.waitOpen(t, "question confirm dates=answer-dates room=answer-room")
	g.release("question confirm dates=answer-dates room=answer-room")
	if got := <-done; got != "booked confirm=answer-confirm" {
		t.Fatalf("result %q", got)
	}
	// requestState went back byte for byte, over HTTP too.
	var states [][]byte
	for _, m := range rec.in() {
		if m.Result != nil && strings.Contains(string(m.Result), "input_required") {
			states = append(states, member(t, m.Result, "requestState"))
		}
	}
	calls := rec.toolCalls()
	if len(states) != 2 || len(calls) != 3 {
		t.Fatalf("%d input_required results, %d calls", len(states), len(calls))
	}
	for i, st := range states {
		if !bytes.Equal(st, member(t, calls[i+1].Params, "requestState")) {
			t.Errorf("round %d: requestState %s echoed as %s", i+1, st, member(t, calls[i+1].Params, "requestState"))
		}
	}

	// Cancelling a call closes its stream; no notification is sent.
	ctx, cancel := context.WithCancel(t.Context())
	waitDone := callAsync(ctx, s, "wait")
	<-started
	cancel()
	if got := <-waitDone; !strings.Contains(got, "context canceled") {
		t.Errorf("wait: %q", got)
	}
	<-cancelled // the server saw its request end

	for _, f := range rec.httpOut() {
		h := f.HTTP
		if h.Method != http.MethodPost || h.Header.Get("Mcp-Session-Id") != "" {
			t.Errorf("stateful traffic: %s %v", h.Method, h.Header)
		}
		if v := h.Header.Get("Mcp-Protocol-Version"); v != "2026-07-28" {
			t.Errorf("frame %s sent version %q", f.Raw, v)
		}
		if strings.Contains(string(f.Raw), "notifications/") {
			t.Errorf("sent a notification in 2026-07-28 HTTP: %s", f.Raw)
		}
	}
}

func TestHTTPStatefulServerFallsBack(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	// A go-sdk server of both eras behind the stateful handler, which
	// serves only the stateful one: it answers server/discover with the
	// older versions only.
	srv := newBookServer(nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	s := connectHTTP(t, h, &client.Options{Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome { return answerField(p) })}, rec)
	if s.Era() != "2025-11-25 stateful" {
		t.Fatalf("Era %q", s.Era())
	}
	if got := <-callAsync(context.Background(), s, "pair"); got != "a=accept:answer-a b=accept:answer-b" {
		t.Errorf("result %q", got)
	}
	if m := rec.methods(); len(m) < 2 || m[0] != "server/discover" || m[1] != "initialize" {
		t.Errorf("methods %v", m)
	}
	for _, e := range waitJournal(t, s, 2) {
		if e.Key.Delivery != question.ServerRequest {
			t.Errorf("entry %+v", e)
		}
	}
}

func TestHTTPFallsBackToLegacySSE(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	srv := newAskServer(nil)
	h := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	s := connectHTTP(t, h, &client.Options{Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome { return answerFromMessage(p) })}, rec)
	if !strings.HasSuffix(s.Era(), " legacy SSE") {
		t.Fatalf("Era %q", s.Era())
	}
	if got := <-callAll(s, "x")["x"]; got != "x: accept answer-x" {
		t.Errorf("result %q", got)
	}
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "legacy HTTP+SSE") })
	waitEvent(t, rec, func(e client.ServerStateChanged) bool {
		return e.State == client.StateReady && strings.HasSuffix(e.Era, "legacy SSE")
	})
	if err := s.Close(); err != nil || !errors.Is(s.Err(), client.ErrClosed) {
		t.Errorf("Close %v, Err %v", err, s.Err())
	}
}
