package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPServerGoneEndsSession: over stateful Streamable HTTP no
// connection outlives a request, so a server that has gone used to leave
// the session "ready" for ever. The standalone GET stream notices: once
// it cannot reconnect at all (MaxRetries in a row), the session ends
// Disconnected, as a stdio session does when its process dies, and says
// why.
func TestHTTPServerGoneEndsSession(t *testing.T) {
	t.Parallel()
	life, stop := context.WithCancel(context.Background())
	defer stop()
	srv := newMatrixServer(life, false)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(h)
	defer ts.Close()
	t.Cleanup(func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	rec := &recorder{}
	s, err := client.Connect(t.Context(), &transport.HTTP{URL: ts.URL, Observer: rec, MaxRetries: 1}, &client.Options{Name: "gone", Observer: rec})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer s.Close()
	if _, err := s.ListTools(t.Context()); err != nil {
		t.Fatalf("tools/list before the server goes: %v", err)
	}

	ts.CloseClientConnections()
	ts.Listener.Close()
	gone := time.Now()
	// With MaxRetries 1: the drop, a resume after the server's retry (1 s),
	// one more after the backoff (1 s), then the end.
	ev := waitEventWithin(t, rec, 15*time.Second, func(e client.ServerStateChanged) bool { return e.State == client.StateDisconnected })
	t.Logf("disconnected %v after the server went: %v", time.Since(gone).Round(time.Millisecond), ev.Err)
	if ev.Err == nil || !strings.Contains(ev.Err.Error(), "cannot be reached") {
		t.Errorf("disconnected with %v, want the reason", ev.Err)
	}
	if o, i := s.Pending(); o != 0 || i != 0 {
		t.Errorf("Pending %d, %d", o, i)
	}
}
