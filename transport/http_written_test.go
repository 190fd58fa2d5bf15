package transport_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
)

// TestHTTPWrittenBeforeAnswer: WriteOptions.Written is called once the
// POST is on the wire, while the server has not answered it yet (Write is
// still waiting), and not at all for a POST that never reached a server.
func TestHTTPWrittenBeforeAnswer(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	got := make(chan struct{}, 1)
	conn, _, _ := httpStart(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case got <- struct{}{}:
		default:
		}
		<-release
		httpJSON(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}), nil)
	var calls atomic.Int32
	written := make(chan struct{})
	opts := &transport.WriteOptions{Written: func() {
		if calls.Add(1) == 1 {
			close(written)
		}
	}}
	done := make(chan error, 1)
	go func() { done <- conn.Write(t.Context(), httpReq(t, 1, "tools/list", nil), opts) }()
	select {
	case <-written:
	case err := <-done:
		t.Fatalf("Write returned (%v) before Written was called", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Written was not called while the server held its answer")
	}
	<-got
	select {
	case err := <-done:
		t.Fatalf("Write returned (%v) while the server still held its answer", err)
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("Write: %v", err)
	}
	if m := httpRead(t, conn); m.Error != nil {
		t.Fatalf("response: %v", m.Error)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("Written called %d times, want 1", n)
	}

	// Nobody listening: the request is never written.
	dead, err := (&transport.HTTP{URL: "http://127.0.0.1:1/mcp", MaxRetries: -1}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dead.Close() })
	var deadCalls atomic.Int32
	if err := dead.Write(t.Context(), httpReq(t, 1, "tools/list", nil), &transport.WriteOptions{Written: func() { deadCalls.Add(1) }}); err == nil {
		t.Fatal("Write to a closed port succeeded")
	}
	if n := deadCalls.Load(); n != 0 {
		t.Errorf("Written called %d times for a request that never went out", n)
	}
}
