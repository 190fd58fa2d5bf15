package rpcpeer_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// call is what an owner records of a request (MCP's *call).
type call struct {
	name string
	id   jsonrpc.ID
}

// tagged is a Peer whose requests carry a *call, on a pipe whose other
// end the test reads; its loop delivers responses as MCP's does.
func tagged(t *testing.T, opts rpcpeer.Options) (*rpcpeer.Peer[*call, *call], transport.Conn, func(jsonrpc.ID, rpcpeer.Answer) (rpcpeer.Fate, string)) {
	t.Helper()
	ours, other := transport.Pipe(nil)
	p := rpcpeer.New[*call, *call](nil, opts)
	if old := p.Swap(ours); old != nil {
		t.Fatalf("a new Peer had connection %v", old)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			if _, err := ours.Read(context.Background()); err != nil {
				p.Fail(err)
				return
			}
		}
	}()
	t.Cleanup(func() {
		ours.Close()
		other.Close()
		wg.Wait()
	})
	return p, other, p.Deliver
}

func readOther(t *testing.T, other transport.Conn) *jsonrpc.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	in, err := other.Read(ctx)
	if err != nil || in.Msg == nil {
		t.Fatalf("the other side read %+v, %v", in, err)
	}
	return in.Msg
}

// Send registers the request, tells its owner the id before it is
// written, writes the params as given, and names it by its token until
// its answer; Find and Calls see the owner's record meanwhile.
func TestSendTagsAndTokens(t *testing.T) {
	p, other, deliver := tagged(t, rpcpeer.Options{FirstID: 1})
	tok := p.NewToken()
	if tok != jsonrpc.IntID(1) || !p.Issued(tok) || p.Issued(jsonrpc.IntID(2)) {
		t.Fatalf("NewToken gave %v; Issued(1)=%v Issued(2)=%v", tok, p.Issued(tok), p.Issued(jsonrpc.IntID(2)))
	}
	c := &call{name: "tools/call"}
	id, ch, err := p.Send(context.Background(), rpcpeer.Request[*call]{
		Method: "tools/call", Params: json.RawMessage(`{"name":"x"}`), Tag: c, Token: tok,
		Registered: func(id jsonrpc.ID) { c.id = id },
	})
	if err != nil || id != jsonrpc.IntID(1) || c.id != id {
		t.Fatalf("Send: %v %v, owner saw %v", id, err, c.id)
	}
	m := readOther(t, other)
	if m.Method != "tools/call" || string(m.Params) != `{"name":"x"}` || m.ID != id {
		t.Fatalf("on the wire: %+v, want the params byte for byte", m)
	}
	if got, ok := p.Find(id); !ok || got != c {
		t.Fatal("Find does not see the request")
	}
	if got, ok := p.ByToken(tok); !ok || got != c {
		t.Fatal("ByToken does not see the request")
	}
	if cs := p.Calls(); len(cs) != 1 || cs[0] != c || p.Len() != 1 {
		t.Fatalf("Calls %v, Len %d", cs, p.Len())
	}
	now := time.Now()
	fate, method := deliver(id, rpcpeer.Answer{Msg: &jsonrpc.Message{ID: id, Result: json.RawMessage(`{}`)}, Received: now})
	if fate != rpcpeer.Waiting || method != "tools/call" {
		t.Fatalf("Deliver: %v %q", fate, method)
	}
	if a := <-ch; a.Msg == nil || !a.Received.Equal(now) {
		t.Fatalf("answer %+v lost the message or its time", a)
	}
	if _, ok := p.ByToken(tok); ok {
		t.Fatal("the token still names a request that was answered")
	}
	// A token bound beyond its request (a task's) stays until unbound.
	p.Bind(tok, c)
	p.Unbind(tok, &call{})
	if _, ok := p.ByToken(tok); !ok {
		t.Fatal("Unbind of another record dropped the token")
	}
	p.Unbind(tok, c)
	if _, ok := p.ByToken(tok); ok {
		t.Fatal("Unbind left the token")
	}
}

// GiveUp then Cancel: the notification goes out with the reason, the
// token is dropped, and the answer after it is Late.
func TestGiveUpCancelLate(t *testing.T) {
	p, other, deliver := tagged(t, rpcpeer.Options{Cancel: rpcpeer.Cancel{Method: "notifications/cancelled"}})
	c := &call{}
	id, _, err := p.Send(context.Background(), rpcpeer.Request[*call]{Method: "ping", Tag: c, Token: jsonrpc.StringID("t")})
	if err != nil {
		t.Fatal(err)
	}
	readOther(t, other)
	if !p.GiveUp(id) || p.GiveUp(id) {
		t.Fatal("GiveUp: want true once, then false")
	}
	if _, ok := p.ByToken(jsonrpc.StringID("t")); ok {
		t.Fatal("the token outlived GiveUp")
	}
	if err := p.Cancel(context.Background(), id, "timed out"); err != nil {
		t.Fatal(err)
	}
	if n := readOther(t, other); n.Method != "notifications/cancelled" || string(n.Params) != `{"requestId":0,"reason":"timed out"}` {
		t.Fatalf("cancel on the wire: %s %s", n.Method, n.Params)
	}
	if fate, method := deliver(id, rpcpeer.Answer{}); fate != rpcpeer.Late || method != "ping" {
		t.Fatalf("answer after the cancel: %v %q, want late ping", fate, method)
	}
}

// canceler is a connection that cancels a request by closing its own
// stream (2026-07-28 HTTP).
type canceler struct {
	transport.Conn
	cancelled []jsonrpc.ID
}

func (c *canceler) CancelRequest(id jsonrpc.ID) bool {
	c.cancelled = append(c.cancelled, id)
	return true
}

func TestCancelClosesTheRequestsStream(t *testing.T) {
	ours, other := transport.Pipe(nil)
	defer other.Close()
	defer ours.Close()
	cc := &canceler{Conn: ours}
	p := rpcpeer.New[*call, *call](cc, rpcpeer.Options{Cancel: rpcpeer.Cancel{Method: "notifications/cancelled"}})
	if err := p.Cancel(context.Background(), jsonrpc.IntID(4), "x"); err != nil {
		t.Fatal(err)
	}
	if len(cc.cancelled) != 1 || cc.cancelled[0] != jsonrpc.IntID(4) {
		t.Fatalf("the stream was not closed: %v", cc.cancelled)
	}
}

// A write ended by its bound says why, though the transport says only
// that its context ended.
func TestWriteBoundSaysWhy(t *testing.T) {
	why := errors.New("the other side did not take a message within 50ms")
	p, _, _ := tagged(t, rpcpeer.Options{Bound: func(ctx context.Context) (context.Context, context.CancelFunc) {
		return context.WithTimeoutCause(ctx, 50*time.Millisecond, why)
	}})
	// Nobody reads the other side: it takes in one message, and the next
	// sticks in the pipe.
	if err := p.WriteContext(context.Background(), &jsonrpc.Message{Method: "first"}); err != nil {
		t.Fatal(err)
	}
	err := p.WriteContext(context.Background(), &jsonrpc.Message{Method: "second", Params: json.RawMessage(`"` + strings.Repeat("x", 1<<10) + `"`)})
	if !errors.Is(err, why) {
		t.Fatalf("WriteContext = %v, want it to wrap the bound's cause", err)
	}
}

// After Fail, Send fails at once with the end, and Bind binds nothing.
func TestSendAfterFail(t *testing.T) {
	p, _, _ := tagged(t, rpcpeer.Options{})
	end := errors.New("gone")
	p.Fail(end)
	if id, _, err := p.Send(context.Background(), rpcpeer.Request[*call]{Method: "ping"}); !errors.Is(err, end) || id.IsValid() {
		t.Fatalf("Send after Fail: %v %v", id, err)
	}
	p.Bind(jsonrpc.IntID(1), &call{})
	if _, ok := p.ByToken(jsonrpc.IntID(1)); ok {
		t.Fatal("Bind after Fail bound a token")
	}
}

// The other side's requests being served: a second one under an id still
// served is refused, Served drops only what it names, and the id space is
// not ours (a request of ours under the same id is another thing).
func TestServing(t *testing.T) {
	p := rpcpeer.New[*call, *call](nil, rpcpeer.Options{FirstID: 1})
	a, b := &call{name: "a"}, &call{name: "b"}
	id := jsonrpc.IntID(1)
	if !p.Serve(id, a) || p.Serve(id, b) {
		t.Fatal("Serve: want the first taken and the duplicate refused")
	}
	if v, ok := p.Serving(id); !ok || v != a {
		t.Fatalf("Serving(1) = %v, %v", v, ok)
	}
	if _, ok := p.Find(id); ok {
		t.Fatal("a request of theirs was found among ours")
	}
	p.Served(id, b)
	if p.ServingLen() != 1 || len(p.AllServing()) != 1 {
		t.Fatal("Served of another record dropped the request")
	}
	p.Served(id, a)
	if _, ok := p.Serving(id); ok || p.ServingLen() != 0 {
		t.Fatal("Served left the request")
	}
}
