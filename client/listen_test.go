package client_test

import (
	"context"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestListenWithGoSDK(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	srv := newBookServer(nil) // tools, no prompts: it cannot agree to prompts
	s := servePipe(t, srv, nil, rec)
	ctx, cancel := context.WithCancel(t.Context())
	l, err := s.Listen(ctx, client.ListenOptions{ToolsListChanged: true, PromptsListChanged: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(client.ListenOptions{ToolsListChanged: true}, l.Agreed()); diff != "" {
		t.Errorf("agreed (-want +got):\n%s", diff)
	}
	waitEvent(t, rec, func(n client.Notice) bool {
		return strings.Contains(n.Text, "asked for [toolsListChanged promptsListChanged], the server agreed to [toolsListChanged]")
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "late"}, func(context.Context, *mcp.CallToolRequest, formArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	waitEvent(t, rec, func(e client.ListChanged) bool { return e.What == "tools" })
	cancel()
	<-l.Done()
	if err := l.Err(); err != nil {
		t.Errorf("Err after ctx cancel: %v", err)
	}
	// stdio: the end of a listen is notifications/cancelled for its id.
	var listenID string
	for _, m := range rec.out() {
		if m.Method == "subscriptions/listen" {
			listenID = string(*m.ID)
		}
	}
	waitFor(t, "notifications/cancelled for the listen", func() bool {
		for _, m := range rec.out() {
			if m.Method == "notifications/cancelled" && strings.Contains(string(m.Params), `"requestId":`+listenID) {
				return true
			}
		}
		return false
	})
	// The session goes on.
	if _, err := s.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestListenNeeds2026(t *testing.T) {
	t.Parallel()
	s, _, _ := pipePeer(t, "2025-11-25", nil, nil)
	if _, err := s.Listen(t.Context(), client.ListenOptions{ToolsListChanged: true}); err == nil || !strings.Contains(err.Error(), "needs 2026-07-28") {
		t.Errorf("Listen error %v", err)
	}
}

func TestListenRefusesAnAckForMoreThanAsked(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := modernPeer(t, nil, rec)
	done := make(chan error, 1)
	go func() {
		_, err := s.Listen(context.Background(), client.ListenOptions{ToolsListChanged: true})
		done <- err
	}()
	req := p.expect("subscriptions/listen")
	if got := string(params(t, req)["notifications"]); got != `{"toolsListChanged":true}` {
		t.Errorf("asked %s", got)
	}
	p.sendRaw(jsonrpc.ID{}, "notifications/subscriptions/acknowledged",
		`{"_meta":{"io.modelcontextprotocol/subscriptionId":`+req.ID.String()+`},"notifications":{"toolsListChanged":true,"taskIds":["t1"]}}`)
	if err := <-done; err == nil || !strings.Contains(err.Error(), "did not ask for: taskIds") {
		t.Fatalf("Listen error %v", err)
	}
	n := p.expect("notifications/cancelled")
	if got := string(params(t, n)["requestId"]); got != req.ID.String() {
		t.Errorf("cancelled %s, want %s", got, req.ID)
	}
}

func TestListenRoutesBySubscriptionAndServerEnd(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := modernPeer(t, nil, rec)
	type ret struct {
		l   *client.Listener
		err error
	}
	got := make(chan ret, 1)
	go func() {
		l, err := s.Listen(context.Background(), client.ListenOptions{PromptsListChanged: true})
		got <- ret{l, err}
	}()
	req := p.expect("subscriptions/listen")
	sub := `{"_meta":{"io.modelcontextprotocol/subscriptionId":` + req.ID.String() + `}}`
	p.sendRaw(jsonrpc.ID{}, "notifications/subscriptions/acknowledged",
		`{"_meta":{"io.modelcontextprotocol/subscriptionId":`+req.ID.String()+`},"notifications":{"promptsListChanged":true}}`)
	r := <-got
	if r.err != nil {
		t.Fatal(r.err)
	}
	// Not agreed, unknown subscription, then the agreed kind.
	p.sendRaw(jsonrpc.ID{}, "notifications/tools/list_changed", sub)
	p.sendRaw(jsonrpc.ID{}, "notifications/prompts/list_changed", `{"_meta":{"io.modelcontextprotocol/subscriptionId":"nope"}}`)
	p.sendRaw(jsonrpc.ID{}, "notifications/prompts/list_changed", sub)
	waitEvent(t, rec, func(e client.ListChanged) bool { return e.What == "prompts" })
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "ignored tools list_changed") })
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, `subscription "nope"`) })
	for _, e := range rec.Events() {
		if lc, ok := e.(client.ListChanged); ok && lc.What != "prompts" {
			t.Errorf("routed %+v", lc)
		}
	}
	// The server ends the subscription (stdio): the Listener ends with why.
	p.sendRaw(jsonrpc.ID{}, "notifications/cancelled", `{"requestId":`+req.ID.String()+`,"reason":"shutting down"}`)
	<-r.l.Done()
	if err := r.l.Err(); err == nil || !strings.Contains(err.Error(), "shutting down") {
		t.Errorf("Err %v", err)
	}
}
