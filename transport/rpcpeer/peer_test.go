package rpcpeer_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// stray is one response OnStray was told of.
type stray struct {
	id     jsonrpc.ID
	fate   rpcpeer.Fate
	method string
}

// rig is a Peer on one end of a transport.Pipe, its read loop delivering,
// and the other end for the test to play the other side on.
type rig struct {
	peer   *rpcpeer.Plain
	other  transport.Conn
	strays chan stray
	loop   sync.WaitGroup
}

func newRig(t *testing.T, opts rpcpeer.Options) *rig {
	t.Helper()
	ours, other := transport.Pipe(nil)
	r := &rig{other: other, strays: make(chan stray, 16)}
	opts.OnStray = func(id jsonrpc.ID, fate rpcpeer.Fate, method string) {
		r.strays <- stray{id, fate, method}
	}
	r.peer = rpcpeer.New[struct{}, struct{}](ours, opts)
	r.loop.Add(1)
	go func() {
		defer r.loop.Done()
		for {
			in, err := ours.Read(context.Background())
			if err != nil {
				r.peer.Fail(err)
				return
			}
			if in.Msg != nil && in.Msg.Kind() == jsonrpc.KindResponse {
				a := rpcpeer.Answer{Result: in.Msg.Result}
				if in.Msg.Error != nil {
					a.Err = in.Msg.Error
				}
				r.peer.Deliver(in.Msg.ID, a)
			}
		}
	}()
	t.Cleanup(func() {
		ours.Close()
		other.Close()
		r.loop.Wait()
	})
	return r
}

// read is the next message the other side reads, bounded.
func (r *rig) read(t *testing.T) *jsonrpc.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	in, err := r.other.Read(ctx)
	if err != nil || in.Msg == nil {
		t.Fatalf("the other side read %+v, %v", in, err)
	}
	return in.Msg
}

func (r *rig) send(t *testing.T, m *jsonrpc.Message) {
	t.Helper()
	if err := r.other.Write(context.Background(), m, nil); err != nil {
		t.Fatalf("the other side could not write: %v", err)
	}
}

func (r *rig) stray(t *testing.T) stray {
	t.Helper()
	select {
	case s := <-r.strays:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("OnStray was not called")
		return stray{}
	}
}

func TestCallAnsweredThenDuplicateAndUnknown(t *testing.T) {
	r := newRig(t, rpcpeer.Options{FirstID: 7, Cancel: rpcpeer.Cancel{Method: "$/cancel_request"}})
	type res struct {
		a   rpcpeer.Answer
		id  jsonrpc.ID
		err error
	}
	done := make(chan res, 1)
	var seen json.RawMessage
	go func() {
		a, id, err := r.peer.Call(context.Background(), "ping", map[string]int{"n": 1}, time.Second,
			func(raw json.RawMessage) { seen = raw })
		done <- res{a, id, err}
	}()
	req := r.read(t)
	if req.Method != "ping" || req.ID != jsonrpc.IntID(7) || string(req.Params) != `{"n":1}` {
		t.Fatalf("request on the wire: %+v, want ping #7 {\"n\":1}", req)
	}
	if !r.peer.InFlight(req.ID) {
		t.Fatal("the request is not in flight before its answer")
	}
	r.send(t, &jsonrpc.Message{ID: req.ID, Result: json.RawMessage(`{"ok":true}`)})
	got := <-done
	if got.err != nil || got.a.Err != nil || string(got.a.Result) != `{"ok":true}` || got.id != req.ID {
		t.Fatalf("Call gave %+v", got)
	}
	if string(seen) != `{"ok":true}` {
		t.Fatalf("onResult saw %s", seen)
	}
	r.send(t, &jsonrpc.Message{ID: req.ID, Result: json.RawMessage(`{}`)})
	if s := r.stray(t); s.id != req.ID || s.fate != rpcpeer.Stray {
		t.Fatalf("duplicate response: %+v, want stray #7", s)
	}
	r.send(t, &jsonrpc.Message{ID: jsonrpc.IntID(99), Result: json.RawMessage(`{}`)})
	if s := r.stray(t); s.id != jsonrpc.IntID(99) || s.fate != rpcpeer.Stray {
		t.Fatalf("unknown response: %+v, want stray #99", s)
	}
}

// A caller giving up sends the cancel notification, exactly as each
// protocol spells it, and still takes the answer owed (ACP's -32800).
func TestCancelThenCancelledAnswer(t *testing.T) {
	for _, tc := range []struct{ method, want string }{
		{"$/cancel_request", `{"requestId":0}`},
		{"notifications/cancelled", `{"requestId":0}`},
	} {
		t.Run(tc.method, func(t *testing.T) {
			r := newRig(t, rpcpeer.Options{Cancel: rpcpeer.Cancel{Method: tc.method}})
			ctx, cancel := context.WithCancel(context.Background())
			type res struct {
				a   rpcpeer.Answer
				err error
			}
			done := make(chan res, 1)
			go func() {
				a, _, err := r.peer.Call(ctx, "session/prompt", nil, 5*time.Second, nil)
				done <- res{a, err}
			}()
			req := r.read(t)
			cancel()
			n := r.read(t)
			if n.Method != tc.method || string(n.Params) != tc.want {
				t.Fatalf("cancel on the wire: %s %s, want %s %s", n.Method, n.Params, tc.method, tc.want)
			}
			r.send(t, jsonrpc.NewErrorResponse(req.ID, jsonrpc.NewError(rpcpeer.CodeRequestCancelled, "cancelled", nil)))
			got := <-done
			var je *jsonrpc.Error
			if got.err != nil || !errors.As(got.a.Err, &je) || je.Code != rpcpeer.CodeRequestCancelled {
				t.Fatalf("Call gave %+v, want the -32800 answer", got)
			}
		})
	}
}

func TestCancelMessageReason(t *testing.T) {
	m, err := rpcpeer.Cancel{Method: "notifications/cancelled"}.Message(jsonrpc.IntID(3), "timed out")
	if err != nil || m.Method != "notifications/cancelled" || string(m.Params) != `{"requestId":3,"reason":"timed out"}` {
		t.Fatalf("Message: %+v %v", m, err)
	}
}

// No answer within the grace: ErrNoAnswer, and the answer that comes
// after is late (with its method), then a second one a stray.
func TestCancelNoAnswerThenLate(t *testing.T) {
	r := newRig(t, rpcpeer.Options{Cancel: rpcpeer.Cancel{Method: "$/cancel_request"}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := r.peer.Call(ctx, "authenticate", nil, 10*time.Millisecond, nil)
		done <- err
	}()
	req := r.read(t)
	cancel()
	r.read(t) // the cancel
	if err := <-done; !errors.Is(err, rpcpeer.ErrNoAnswer) {
		t.Fatalf("Call gave %v, want ErrNoAnswer", err)
	}
	r.send(t, &jsonrpc.Message{ID: req.ID, Result: json.RawMessage(`{}`)})
	if s := r.stray(t); s.fate != rpcpeer.Late || s.method != "authenticate" || s.id != req.ID {
		t.Fatalf("late answer: %+v, want late authenticate", s)
	}
	r.send(t, &jsonrpc.Message{ID: req.ID, Result: json.RawMessage(`{}`)})
	if s := r.stray(t); s.fate != rpcpeer.Stray {
		t.Fatalf("second late answer: %+v, want stray", s)
	}
}

// The connection's end ends every waiting call with its cause, and a call
// after it fails at once with the same.
func TestFailEndsWaitingAndLaterCalls(t *testing.T) {
	r := newRig(t, rpcpeer.Options{})
	done := make(chan rpcpeer.Answer, 1)
	go func() {
		a, _, _ := r.peer.Call(context.Background(), "ping", nil, time.Second, nil)
		done <- a
	}()
	r.read(t)
	r.other.Close()
	if a := <-done; a.Err == nil {
		t.Fatal("a waiting call was not ended by the connection's end")
	}
	r.loop.Wait()
	if _, _, err := r.peer.Start("ping", nil, nil); err == nil {
		t.Fatal("Start after the end succeeded")
	} else if _, isWrite := errors.AsType[*rpcpeer.WriteError](err); isWrite {
		t.Fatalf("Start after the end gave a write error %v, want the end's cause", err)
	}
}

func TestRespond(t *testing.T) {
	r := newRig(t, rpcpeer.Options{})
	if err := r.peer.Respond(jsonrpc.StringID("a"), nil, nil); err != nil {
		t.Fatal(err)
	}
	if m := r.read(t); string(m.Result) != "null" || m.Error != nil {
		t.Fatalf("empty result went out as %+v, want null", m)
	}
	e := jsonrpc.NewError(rpcpeer.CodeRequestCancelled, "cancelled", nil)
	if err := r.peer.Respond(jsonrpc.StringID("b"), json.RawMessage(`{}`), e); err != nil {
		t.Fatal(err)
	}
	if m := r.read(t); m.Result != nil || m.Error == nil || m.Error.Code != rpcpeer.CodeRequestCancelled {
		t.Fatalf("error answer went out as %+v", m)
	}
}
