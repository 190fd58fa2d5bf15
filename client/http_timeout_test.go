package client_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
)

// keepAliveServer is a raw JSON-RPC Streamable HTTP server that answers
// the handshake and answers tools/list with an SSE stream that carries
// keep-alive comments only, for ever: until we close it.
type keepAliveServer struct {
	mu        sync.Mutex
	cancelled []string       // requestIds of notifications/cancelled POSTs
	closed    chan string    // ids of tools/list streams we closed
	listed    chan string    // ids of tools/list requests
	done      chan struct{}  // ends the streams (cleanup)
	streams   sync.WaitGroup // the open streams
}

func (k *keepAliveServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		return
	}
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	_ = json.Unmarshal(body, &m)
	respond := func(result string) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Mcp-Session-Id", "s1")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+result+`}`)
	}
	switch m.Method {
	case "initialize":
		respond(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"keepalive","version":"1"}}`)
	case "server/discover":
		respond(discoverResult)
	case "notifications/cancelled":
		k.mu.Lock()
		k.cancelled = append(k.cancelled, string(m.Params.RequestID))
		k.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	case "tools/list":
		k.streams.Add(1)
		defer k.streams.Done()
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		k.listed <- string(m.ID)
		for {
			select {
			case <-r.Context().Done():
				k.closed <- string(m.ID)
				return
			case <-k.done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				k.closed <- string(m.ID)
				return
			}
			w.(http.Flusher).Flush()
		}
	default: // notifications/initialized
		w.WriteHeader(http.StatusAccepted)
	}
}

// TestRequestTimeoutSSEKeepAlives: an answer that is an SSE stream of
// keep-alives only is no answer: tools/list times out, and is cancelled
// the era's way: notifications/cancelled in 2025-11-25, closing the
// stream in 2026-07-28.
func TestRequestTimeoutSSEKeepAlives(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			k := &keepAliveServer{closed: make(chan string, 4), listed: make(chan string, 4), done: make(chan struct{})}
			srv := httptest.NewServer(k)
			t.Cleanup(srv.Close)
			t.Cleanup(k.streams.Wait)
			t.Cleanup(func() { close(k.done) })
			ctx, cancel := context.WithTimeout(t.Context(), liveness)
			defer cancel()
			s, err := client.Connect(ctx, &transport.HTTP{URL: srv.URL}, &client.Options{Name: "ka", Protocol: version, RequestTimeout: timeout})
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			t.Cleanup(func() { _ = s.Close() })
			done := errAsync(func() error { _, err := s.ListTools(ctx); return err })
			id := recvWithin(t, k.listed, "tools/list")
			var lerr error
			select {
			case lerr = <-done:
			case <-time.After(liveness):
				t.Fatal("tools/list did not time out")
			}
			checkTimedOut(t, lerr, "tools/list on ka", "300ms")
			if version == "2026-07-28" {
				if got := recvWithin(t, k.closed, "the stream closed"); got != id {
					t.Errorf("closed the stream of %s, want %s", got, id)
				}
				k.mu.Lock()
				defer k.mu.Unlock()
				if len(k.cancelled) != 0 {
					t.Errorf("notifications/cancelled in 2026-07-28 HTTP: %q", k.cancelled)
				}
				return
			}
			waitFor(t, "notifications/cancelled", func() bool {
				k.mu.Lock()
				defer k.mu.Unlock()
				return len(k.cancelled) == 1 && k.cancelled[0] == id
			})
		})
	}
}
