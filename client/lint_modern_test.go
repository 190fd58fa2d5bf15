package client_test

import (
	"context"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestLintInputModeUndeclared: an MRTR input of a mode the client did not
// declare (URL, with form only declared).
func TestLintInputModeUndeclared(t *testing.T) {
	t.Parallel()
	rounds := 0
	s, rec := linted(t, &lintPeer{modern: true, caps: `{"tools":{}}`, serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "tools/call" {
			if rounds++; rounds == 1 {
				p.result(m.ID, `{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"url","message":"open","url":"https://example.com/x"}}}}`)
				return
			}
			p.result(m.ID, `{"resultType":"complete","content":[]}`)
		}
	}}, &client.Options{Elicit: client.ElicitForm})
	<-callTool(t, s, "x")
	expectFindings(t, s, rec, findings.CapabilityUndeclared)
}

// TestLintSubscriptionUnrequested: a list_changed on a subscription that
// asked for it but whose acknowledgement did not agree to it.
func TestLintSubscriptionUnrequested(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{modern: true, caps: `{"tools":{"listChanged":true},"prompts":{"listChanged":true}}`, serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "subscriptions/listen" {
			meta := `"_meta":{"io.modelcontextprotocol/subscriptionId":` + m.ID.String() + `}`
			p.line(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{` + meta + `,"notifications":{"toolsListChanged":true}}}`)
			p.line(`{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{` + meta + `}}`)
		}
	}}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	if _, err := s.Listen(ctx, client.ListenOptions{ToolsListChanged: true, PromptsListChanged: true}); err != nil {
		t.Logf("Listen: %v", err) // the acknowledgement agreed to less: said, not fatal
	}
	expectFindings(t, s, rec, findings.SubscriptionUnrequested)
}

// TestLintHeaderAnnotation: over 2026-07-28 HTTP, a tool whose
// x-mcp-header names no valid header; a hand-written handler answers
// each POST with JSON (lintedHTTP).
func TestLintHeaderAnnotation(t *testing.T) {
	t.Parallel()
	s, rec := lintedHTTP(t, `[{"name":"deploy","inputSchema":{"type":"object","properties":{"env":{"type":"string","x-mcp-header":"bad header!"}}}}]`, false, nil)
	if _, err := s.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := expectFindings(t, s, rec, findings.HeaderAnnotation)
	if got[0].Frame.ID == "" {
		t.Errorf("finding %+v names no frame", got[0])
	}
}
