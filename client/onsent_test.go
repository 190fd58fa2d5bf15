package client_test

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/client"
)

// onSentServer has a tool that answers only once released.
func onSentServer(running chan<- struct{}, release <-chan struct{}) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "onsent", Version: "1"}, legacyOpts(nil))
	mcp.AddTool(srv, &mcp.Tool{Name: "hold"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ matrixArgs) (*mcp.CallToolResult, any, error) {
		running <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "held"}}}, nil, nil
	})
	return srv
}

// TestCallOnSent: CallOptions.OnSent is called once, while the tool still
// runs (so a request started from it overlaps the call), over Streamable
// HTTP and over a stream, and has returned when CallTool does; the
// request started from it gets the next id after the call's.
func TestCallOnSent(t *testing.T) {
	t.Parallel()
	for _, over := range []string{"http", "stream"} {
		t.Run(over, func(t *testing.T) {
			t.Parallel()
			running, release := make(chan struct{}, 1), make(chan struct{})
			srv := onSentServer(running, release)
			rec := &recorder{}
			var sess *client.Session
			switch over {
			case "http":
				sess = connectHTTP(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil), &client.Options{}, rec)
			default:
				sess = servePipe(t, srv, &client.Options{Observer: rec}, rec)
			}
			var calls atomic.Int32
			listed := make(chan error, 1)
			opts := &client.CallOptions{OnSent: func() {
				if calls.Add(1) == 1 {
					go func() { _, err := sess.ListTools(t.Context()); listed <- err }()
				}
			}}
			done := make(chan error, 1)
			go func() { _, err := sess.CallTool(t.Context(), "hold", nil, opts); done <- err }()
			<-running
			// The tool holds its answer: the listing started from OnSent
			// must finish meanwhile.
			select {
			case err := <-listed:
				if err != nil {
					t.Fatalf("ListTools: %v", err)
				}
			case err := <-done:
				t.Fatalf("the call ended (%v) while its tool held it", err)
			case <-time.After(10 * time.Second):
				t.Fatal("OnSent's listing did not end while the call ran")
			}
			close(release)
			if err := <-done; err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("OnSent called %d times, want 1", n)
			}
			var callID, listID int
			for _, m := range rec.out() {
				if m.ID == nil {
					continue
				}
				switch m.Method {
				case "tools/call":
					callID, _ = strconv.Atoi(string(*m.ID))
				case "tools/list":
					listID, _ = strconv.Atoi(string(*m.ID))
				}
			}
			if callID == 0 || listID != callID+1 {
				t.Errorf("ids: tools/call %d, tools/list %d; want the list's the next after the call's", callID, listID)
			}
		})
	}
}
