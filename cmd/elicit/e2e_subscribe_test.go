package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// subsServer is a go-sdk 2026-07-28 server (stateless HTTP) with one
// resource, declaring resources.subscribe; it records the subscribe and
// unsubscribe go-sdk runs as each subscriptions/listen opens and ends,
// and the resource's text counts its reads.
type subsServer struct {
	srv   *mcp.Server
	reads atomic.Int32
	mu    sync.Mutex
	log   []string
}

func newSubsServer(t *testing.T) (*subsServer, *httptest.Server) {
	ss := &subsServer{}
	record := func(what string) {
		ss.mu.Lock()
		defer ss.mu.Unlock()
		ss.log = append(ss.log, what)
	}
	ss.srv = mcp.NewServer(&mcp.Implementation{Name: "subs", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler: func(_ context.Context, r *mcp.SubscribeRequest) error {
			record("subscribe " + r.Params.URI)
			return nil
		},
		UnsubscribeHandler: func(_ context.Context, r *mcp.UnsubscribeRequest) error {
			record("unsubscribe " + r.Params.URI)
			return nil
		},
	})
	ss.srv.AddResource(&mcp.Resource{URI: "test://notes", Name: "notes", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			n := ss.reads.Add(1)
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://notes", MIMEType: "text/plain", Text: fmt.Sprintf("notes version %d", n)}}}, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ss.srv },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(ts.Close)
	return ss, ts
}

func (ss *subsServer) saw(what string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return slices.Contains(ss.log, what)
}

func (ss *subsServer) update(t *testing.T) {
	t.Helper()
	if err := ss.srv.ResourceUpdated(t.Context(), &mcp.ResourceUpdatedNotificationParams{URI: "test://notes"}); err != nil {
		t.Fatal(err)
	}
}

// TestTUIResourceSubscriptionListen drives the binary against a 2026-07-28
// server over HTTP: u in the resources view opens a subscriptions/listen
// for the resource, an update marks its row, the resource on show is read
// again at once, u again closes the stream (the server ends its
// subscription), and a stream that breaks takes the mark away, saying so.
func TestTUIResourceSubscriptionListen(t *testing.T) {
	ss, ts := newSubsServer(t)
	tm := newTmux(t, t.TempDir(), "--name", "subs", "--url", ts.URL)
	tm.waitText("subs ready 2026-07-28")
	tm.press("F9")
	tm.waitText("test://notes")
	tm.press("u")
	tm.waitText("subscribed to test://notes")
	tm.waitText("text/plain  subscribed")
	if !ss.saw("subscribe test://notes") {
		t.Fatal("the server saw no subscription")
	}
	ss.update(t)
	tm.waitText("subscribed  ● updated")

	tm.press("Enter")
	tm.waitText("notes version 1")
	ss.update(t)
	tm.waitText("notes version 2") // read again at once
	tm.press("Escape")
	tm.waitFor("the list, its mark cleared by the read", func(s string) bool {
		return strings.Contains(s, "Resources of subs") && strings.Contains(s, "text/plain  subscribed") && !strings.Contains(s, "● updated")
	})

	tm.press("u")
	tm.waitText("unsubscribed from test://notes")
	tm.waitFor("the server to end the subscription", func(string) bool { return ss.saw("unsubscribe test://notes") })

	// Subscribed again, then the connection breaks: the stream is gone.
	tm.press("u")
	tm.waitText("text/plain  subscribed")
	tm.waitFor("the second subscription", func(string) bool {
		ss.mu.Lock()
		defer ss.mu.Unlock()
		n := 0
		for _, l := range ss.log {
			if l == "subscribe test://notes" {
				n++
			}
		}
		return n == 2
	})
	ts.CloseClientConnections()
	tm.waitText("the subscription to test://notes on subs ended")
	tm.waitFor("the mark to go", func(s string) bool { return !strings.Contains(s, "text/plain  subscribed") })
	tm.press("C-c")
}
