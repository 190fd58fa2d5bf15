package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// A frame meant as the response to one of our calls that cannot be
// decoded is still the server's answer: the call fails at once, saying its
// response could not be decoded, instead of waiting for its context.
func TestHostileUndecodableResponse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, frame string }{
		{"cut short", `{"jsonrpc":"2.0","id":ID,"result":{"content":[{"type":"text"`},
		{"wrong version", `{"jsonrpc":"1.0","id":ID,"result":{"content":[]}}`},
		{"no version", `{"id":ID,"result":{"content":[]}}`},
		{"malformed error object", `{"jsonrpc":"2.0","id":ID,"error":"it broke"}`},
		{"result and error", `{"jsonrpc":"2.0","id":ID,"result":{},"error":{"code":1,"message":"both"}}`},
		{"too deep", `{"jsonrpc":"2.0","id":ID,"result":` + strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000) + `}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			s, p := connectHostile(t, &client.Options{}, rec)
			done := make(chan error, 1)
			go func() { _, err := s.CallTool(t.Context(), "echo", nil, nil); done <- err }()
			req := p.next("tools/call")
			if err := p.writeRaw([]byte(strings.Replace(tc.frame, "ID", req.ID.String(), 1))); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(hostileBound):
				t.Fatal("the call still waits after its response came undecodable")
			}
			var de *jsonrpc.DecodeError
			if err == nil || !errors.As(err, &de) || !strings.Contains(err.Error(), "the server's response to tools/call could not be decoded") {
				t.Fatalf("CallTool: %v", err)
			}
			// The decode failure, not a JSON-RPC error the server never sent.
			if rpc := (*jsonrpc.Error)(nil); errors.As(err, &rpc) {
				t.Errorf("the error wraps a JSON-RPC error %v, as if the server had sent one", rpc)
			}
			waitEvent(t, rec, func(e client.CallFinished) bool { return e.CallID == req.ID && e.Err != nil })
			if out, in := s.Pending(); out != 0 || in != 0 {
				t.Errorf("Pending %d, %d", out, in)
			}
			alive(t, s, hostileBound)
		})
	}
}

// Our ids and the server's are separate spaces: a bad request from the
// server that happens to carry the id of our pending call leaves the call
// alone, and the real response still completes it.
func TestHostileUndecodableRequestSharesOurID(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := connectHostile(t, &client.Options{}, rec)
	done := make(chan error, 1)
	go func() { _, err := s.ListTools(t.Context()); done <- err }()
	req := p.next("tools/list")
	if err := p.writeRaw([]byte(`{"jsonrpc":"2.0","id":` + req.ID.String() + `,"method":"elicitation/create","params":{"a":[[[`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the bad request to be refused", func() bool { return len(rec.frameErrs()) == 1 })
	select {
	case err := <-done:
		t.Fatalf("the call ended on the server's bad request: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	p.respond(req.ID, `{"tools":[]}`)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ListTools: %v", err)
		}
	case <-time.After(hostileBound):
		t.Fatal("the call did not complete")
	}
}

// A bad response for an id we are not waiting on (never sent, or already
// answered) is only an error frame: no call ends, the session goes on.
func TestHostileUndecodableResponseUnknownID(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := connectHostile(t, &client.Options{}, rec)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := s.ListTools(ctx); done <- err }()
	req := p.next("tools/list")
	if err := p.writeRaw([]byte(`{"jsonrpc":"2.0","id":999999,"result":{"tools":[[[`)); err != nil {
		t.Fatal(err)
	}
	alive(t, s, hostileBound)
	if len(rec.frameErrs()) != 1 {
		t.Errorf("error frames %+v, want the bad response", rec.frameErrs())
	}
	select {
	case err := <-done:
		t.Fatalf("a bad response for another id ended the call: %v", err)
	default:
	}
	p.respond(req.ID, `{"tools":[]}`)
	if err := <-done; err != nil {
		t.Errorf("ListTools: %v", err)
	}
}
