package transport_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// keepAliveServer answers tools/call with an SSE stream that sends only
// keep-alive comments, for ever; closed gets a token when such a stream's
// request context ends (the client closed it). Anything else is accepted.
func keepAliveServer(t *testing.T, closed chan<- struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		switch {
		case r.Method != http.MethodPost:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case m != nil && m.Method == "tools/call":
			httpSSEStart(w)
			tick := time.NewTicker(5 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-r.Context().Done():
					closed <- struct{}{}
					return
				case <-tick.C:
					httpSSE(w, ": keep-alive\n\n")
				}
			}
		case m != nil && m.Kind() == jsonrpc.KindRequest:
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{})))
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	})
}

// waitClosed fails the test unless the server saw a stream closed.
func waitClosed(t *testing.T, closed <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the keep-alive stream is still open", what)
	}
}

// A stateful request whose stream sends only keep-alives, cancelled by the
// session (notifications/cancelled, the stateful era's cancel): its stream
// is closed with it, not held until Close, and nothing more comes for it.
// Not parallel, so that goleak sees only this test's goroutines.
func TestHTTPCancelledRequestClosesKeepAliveStream(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	closed := make(chan struct{}, 4)
	srv := httptest.NewServer(keepAliveServer(t, closed))
	defer srv.Close()
	conn, err := (&transport.HTTP{URL: srv.URL}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	httpWrite(t, conn, httpReq(t, 1, "tools/call", map[string]any{"name": "forever"}))
	httpWrite(t, conn, httpNote(t, "notifications/cancelled", map[string]any{"requestId": 1, "reason": "timed out"}))
	waitClosed(t, closed, "stateful cancel")
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if in, err := conn.Read(ctx); err == nil {
		t.Errorf("Read after the cancel = %+v, want nothing for the cancelled request", in)
	}

	// The 2026-07-28 cancel closes it the same way.
	m := httpReq(t, 2, "tools/call", modernParams(map[string]any{"name": "forever"}))
	httpWrite(t, conn, m)
	if !conn.(transport.RequestCanceler).CancelRequest(m.ID) {
		t.Fatal("CancelRequest of a modern request = false")
	}
	waitClosed(t, closed, "modern cancel")

	// The Conn is still usable.
	httpWrite(t, conn, httpReq(t, 3, "tools/list", nil))
	if m := httpRead(t, conn); m.ID != jsonrpc.IntID(3) {
		t.Fatalf("got %+v, want the answer to 3", m)
	}
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	srv.CloseClientConnections()
}

// A Write whose ctx ends while the server withholds even the reply's
// headers returns at once with ctx's error; the cancel that follows closes
// the POST.
func TestHTTPWriteObeysCtx(t *testing.T) {
	t.Parallel()
	gone := make(chan struct{}, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		if m != nil && m.Method == "tools/call" {
			<-r.Context().Done()
			gone <- struct{}{}
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	conn, _, _ := httpStart(t, h, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- conn.Write(ctx, httpReq(t, 1, "tools/call", nil), nil) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Write = %v, want the ctx deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Write did not return when its ctx ended")
	}
	httpWrite(t, conn, httpNote(t, "notifications/cancelled", map[string]any{"requestId": 1}))
	waitClosed(t, gone, "cancel before the headers")
}
