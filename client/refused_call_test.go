package client_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestCallFailedAfterRefusal: with sampling not declared, go-sdk's bridge
// sends the summarize tool's sampling/createMessage anyway; the client
// refuses it and the server fails the call with -32601 "method not found:
// tools/call", which on its own misleads (tools/call exists). The call's
// error says what happened: the client refused the server's request of
// that call, then the server failed the call; the server's error is still
// there to unwrap.
func TestCallFailedAfterRefusal(t *testing.T) {
	t.Parallel()
	s := servePipe(t, newSampleServer(legacyOpts(nil)), &client.Options{}, nil)
	_, err := callText(t, s, "summarize", nil)
	if err == nil {
		t.Fatal("the call succeeded without sampling")
	}
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("error %v: want the server's -32601 to unwrap", err)
	}
	for _, want := range []string{"refused the server's sampling/createMessage #", "did not declare sampling", "then failed the call", `method not found: "tools/call"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// TestCallAskedOnlyUndeclared: in 2026-07-28 the same tool returns an
// input_required whose only input is sampling, which the client did not
// declare: the error names what was asked.
func TestCallAskedOnlyUndeclared(t *testing.T) {
	t.Parallel()
	s := servePipe(t, newSampleServer(nil), &client.Options{}, nil)
	_, err := callText(t, s, "summarize", nil)
	if err == nil || !strings.Contains(err.Error(), "sampling/createMessage") || !strings.Contains(err.Error(), "did not declare") {
		t.Errorf("error %v: want it to name the undeclared sampling input", err)
	}
}

// TestLintInputSamplingUndeclared: a 2026-07-28 input_required asking for
// sampling, which the request's clientCapabilities did not declare (the
// server must answer -32021 instead), is a capability-undeclared finding.
func TestLintInputSamplingUndeclared(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{modern: true, caps: `{"tools":{}}`, serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "tools/call" {
			p.result(m.ID, `{"resultType":"input_required","inputRequests":{"k":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}}}}`)
		}
	}}, nil)
	if err := <-callTool(t, s, "x"); err == nil {
		t.Fatal("the call succeeded")
	}
	got := expectFindings(t, s, rec, findings.CapabilityUndeclared)
	if !strings.Contains(got[0].Detail, "sampling/createMessage needs sampling") {
		t.Errorf("detail %q", got[0].Detail)
	}
}
