package transport_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestHTTPAbandonedAnswerPOSTEnds: the server takes the POST of our
// response (or of a notification) and never answers it. Nothing can come
// back on such a POST, so when the Write's ctx ends the POST ends with it
// instead of staying open, a connection and a goroutine, until Close.
func TestHTTPAbandonedAnswerPOSTEnds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		msg  func(t *testing.T) *jsonrpc.Message
	}{
		{"response", func(t *testing.T) *jsonrpc.Message { return httpResp(t, jsonrpc.StringID("q1"), map[string]any{}) }},
		{"notification", func(t *testing.T) *jsonrpc.Message {
			return httpNote(t, "notifications/roots/list_changed", nil)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gone := make(chan struct{}, 1)
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					<-r.Context().Done() // taken, never answered
					gone <- struct{}{}
					return
				}
				w.WriteHeader(http.StatusMethodNotAllowed)
			})
			conn, _, _ := httpStart(t, h, nil)
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			if err := conn.Write(ctx, tc.msg(t), nil); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Write = %v, want the ctx deadline", err)
			}
			select {
			case <-gone:
			case <-time.After(10 * time.Second):
				t.Fatal("the POST is still open after its Write gave up")
			}
		})
	}
}
