package client_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLegacySSEServerGoneDuringPOST: on the legacy HTTP+SSE transport a
// call's POST can be in flight when the server goes away. The POST fails
// (its connection closed), the event stream ends, and the call reports the
// session's end, an error wrapping ErrDisconnected, rather than the
// failed write ("connection closed").
func TestLegacySSEServerGoneDuringPOST(t *testing.T) {
	t.Parallel()
	life, stop := context.WithCancel(context.Background())
	sdk := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return newMatrixServer(life, false) }, nil)
	posted := make(chan struct{}, 1)
	// go-sdk's own handler, except that the POST of tools/call is held
	// until its connection goes: the server dies while taking it.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if strings.Contains(string(body), `"tools/call"`) {
				posted <- struct{}{}
				<-r.Context().Done()
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		sdk.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	t.Cleanup(stop)
	rec := &recorder{}
	s := connectFixture(t, &transport.SSE{URL: ts.URL, Observer: rec}, &client.Options{Name: "gone"}, rec)

	done := make(chan error, 1)
	go func() { _, err := s.CallTool(context.Background(), "ask", nil, nil); done <- err }()
	select {
	case <-posted:
	case <-time.After(liveness):
		t.Fatal("the tools/call POST never arrived")
	}
	ts.CloseClientConnections()
	select {
	case err := <-done:
		if !errors.Is(err, question.ErrDisconnected) {
			t.Errorf("CallTool: %v; want an error wrapping ErrDisconnected", err)
		}
		if errors.Is(err, transport.ErrClosed) {
			t.Errorf("CallTool: %v; the session's end, not the closed connection, is the cause", err)
		}
	case <-time.After(matrixBound):
		t.Fatalf("the call did not end within %v of the server going", matrixBound)
	}
	select {
	case <-s.Done():
	case <-time.After(liveness):
		t.Fatal("the session outlived its event stream")
	}
	if out, in := s.Pending(); out != 0 || in != 0 {
		t.Errorf("Pending %d, %d", out, in)
	}
}
