package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// subServer is a go-sdk server with two resources that declares
// resources.subscribe and records what its subscribe handlers saw (go-sdk
// runs them for each URI of a subscriptions/listen, and the unsubscribe
// one when that stream ends).
type subServer struct {
	srv   *mcp.Server
	mu    sync.Mutex
	subs  []string
	unsub []string
}

func newSubServer() *subServer {
	ss := &subServer{}
	ss.srv = mcp.NewServer(&mcp.Implementation{Name: "sub-server", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler: func(_ context.Context, req *mcp.SubscribeRequest) error {
			ss.mu.Lock()
			defer ss.mu.Unlock()
			ss.subs = append(ss.subs, req.Params.URI)
			return nil
		},
		UnsubscribeHandler: func(_ context.Context, req *mcp.UnsubscribeRequest) error {
			ss.mu.Lock()
			defer ss.mu.Unlock()
			ss.unsub = append(ss.unsub, req.Params.URI)
			return nil
		},
	})
	for _, uri := range []string{"test://a", "test://b"} {
		ss.srv.AddResource(&mcp.Resource{URI: uri, Name: uri}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: "x"}}}, nil
		})
	}
	return ss
}

func (ss *subServer) unsubscribed(uri string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, u := range ss.unsub {
		if u == uri {
			return true
		}
	}
	return false
}

// updates counts the ResourceUpdated events of uri.
func updates(rec *recorder, uri string) int {
	n := 0
	for _, e := range rec.Events() {
		if u, ok := e.(client.ResourceUpdated); ok && u.URI == uri {
			n++
		}
	}
	return n
}

// TestSubscribeListenGoSDK: in 2026-07-28 Subscribe opens a
// subscriptions/listen per URI on a go-sdk server, over stdio and over
// stateless HTTP (our real HTTP transport). Updates of each become
// ResourceUpdated events; Unsubscribe closes that URI's stream only (the
// server runs its unsubscribe for it) and the other URI's updates go on.
func TestSubscribeListenGoSDK(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"stdio", "http"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			ss := newSubServer()
			var s *client.Session
			if kind == "stdio" {
				s = servePipe(t, ss.srv, nil, rec)
			} else {
				h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ss.srv },
					&mcp.StreamableHTTPOptions{Stateless: true})
				s = connectHTTP(t, h, &client.Options{Name: "test"}, rec)
			}
			if s.Era() != "2026-07-28 stateless" || !s.ServerCapabilities().ResourcesSubscribe {
				t.Fatalf("era %q, caps %+v", s.Era(), s.ServerCapabilities())
			}
			ctx := t.Context()
			for _, uri := range []string{"test://a", "test://b", "test://a"} {
				if err := s.Subscribe(ctx, uri); err != nil {
					t.Fatalf("Subscribe %s: %v", uri, err)
				}
			}
			if diff := cmp.Diff([]string{"test://a", "test://b"}, s.ResourceSubscriptions()); diff != "" {
				t.Errorf("subscriptions (-want +got):\n%s", diff)
			}
			// One stream per URI: subscribing to a again opened none.
			var listens []string
			for _, m := range rec.out() {
				if m.Method == "subscriptions/listen" {
					listens = append(listens, string(params(t, &jsonrpc.Message{Params: m.Params})["notifications"]))
				}
			}
			if diff := cmp.Diff([]string{`{"resourceSubscriptions":["test://a"]}`, `{"resourceSubscriptions":["test://b"]}`}, listens); diff != "" {
				t.Errorf("listens (-want +got):\n%s", diff)
			}
			if err := ss.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "test://a"}); err != nil {
				t.Fatal(err)
			}
			waitEvent(t, rec, func(e client.ResourceUpdated) bool { return e.URI == "test://a" && e.Server == "test" })

			if err := s.Unsubscribe(ctx, "test://a"); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the server to end the subscription to test://a", func() bool { return ss.unsubscribed("test://a") })
			if diff := cmp.Diff([]string{"test://b"}, s.ResourceSubscriptions()); diff != "" {
				t.Errorf("subscriptions after Unsubscribe (-want +got):\n%s", diff)
			}
			before := updates(rec, "test://a")
			for _, uri := range []string{"test://a", "test://b"} {
				if err := ss.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
					t.Fatal(err)
				}
			}
			waitEvent(t, rec, func(e client.ResourceUpdated) bool { return e.URI == "test://b" })
			if ss.unsubscribed("test://b") {
				t.Error("unsubscribing a ended b's subscription on the server")
			}
			if got := updates(rec, "test://a"); got != before {
				t.Errorf("%d updates of test://a after Unsubscribe", got-before)
			}
			// Unsubscribing what is not subscribed is no error.
			if err := s.Unsubscribe(ctx, "test://a"); err != nil {
				t.Errorf("second Unsubscribe: %v", err)
			}
			for _, e := range rec.Events() {
				if e, ok := e.(client.ResourceSubscriptionEnded); ok {
					t.Errorf("reported %+v, though we ended it", e)
				}
			}
		})
	}
}

// subDiscover is a 2026-07-28 server that declares resources.subscribe.
const subDiscover = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"resources":{"subscribe":true}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"sub-peer","version":"1"}}}`

// subPeer connects a session to a hand-driven 2026-07-28 peer (stdio
// framing) that declares resources.subscribe.
func subPeer(t *testing.T, opts *client.Options, rec *recorder) (*client.Session, *peer) {
	t.Helper()
	s, p, _ := connectPeer(t, "sub", opts, rec, func(sc transport.Conn) {
		m, err := msgOf(sc.Read(context.Background()))
		if err != nil || m.Method != "server/discover" {
			return
		}
		_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(subDiscover)}, nil)
	})
	return s, p
}

// subscribeAsync runs Subscribe and reports its error.
func subscribeAsync(ctx context.Context, s *client.Session, uri string) chan error {
	done := make(chan error, 1)
	go func() { done <- s.Subscribe(ctx, uri) }()
	return done
}

// ackSub acknowledges listen req with the notifications filter notes.
func ackSub(p *peer, req *jsonrpc.Message, notes string) {
	p.sendRaw(jsonrpc.ID{}, "notifications/subscriptions/acknowledged",
		`{"_meta":{"io.modelcontextprotocol/subscriptionId":`+req.ID.String()+`},"notifications":`+notes+`}`)
}

// TestSubscribeListenRouting: an update counts only on the stream that
// agreed to its URI (or to one it lies under); one naming another URI, or
// an unknown stream, is ignored with a Notice.
func TestSubscribeListenRouting(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := subPeer(t, nil, rec)
	done := subscribeAsync(t.Context(), s, "file:///dir")
	req := p.expect("subscriptions/listen")
	if got := string(params(t, req)["notifications"]); got != `{"resourceSubscriptions":["file:///dir"]}` {
		t.Fatalf("asked %s", got)
	}
	ackSub(p, req, `{"resourceSubscriptions":["file:///dir"]}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	sub := `"_meta":{"io.modelcontextprotocol/subscriptionId":` + req.ID.String() + `}`
	p.sendRaw(jsonrpc.ID{}, "notifications/resources/updated", `{`+sub+`,"uri":"file:///other"}`)
	p.sendRaw(jsonrpc.ID{}, "notifications/resources/updated", `{`+sub+`,"uri":"file:///dirt"}`)
	p.sendRaw(jsonrpc.ID{}, "notifications/resources/updated", `{"_meta":{"io.modelcontextprotocol/subscriptionId":"nope"},"uri":"file:///dir"}`)
	p.sendRaw(jsonrpc.ID{}, "notifications/resources/updated", `{`+sub+`,"uri":"file:///dir/a.txt"}`)
	p.sendRaw(jsonrpc.ID{}, "notifications/resources/updated", `{`+sub+`,"uri":"file:///dir"}`)
	waitEvent(t, rec, func(e client.ResourceUpdated) bool { return e.URI == "file:///dir" })
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, `subscription "nope"`) })
	var got []string
	for _, e := range rec.Events() {
		if u, ok := e.(client.ResourceUpdated); ok {
			got = append(got, u.URI)
		}
	}
	if diff := cmp.Diff([]string{"file:///dir/a.txt", "file:///dir"}, got); diff != "" {
		t.Errorf("updates (-want +got):\n%s", diff)
	}
	// stdio: Unsubscribe is notifications/cancelled for the listen's id.
	if err := s.Unsubscribe(t.Context(), "file:///dir"); err != nil {
		t.Fatal(err)
	}
	n := p.expect("notifications/cancelled")
	if got := string(params(t, n)["requestId"]); got != req.ID.String() {
		t.Errorf("cancelled %s, want %s", got, req.ID)
	}
	p.sendRaw(jsonrpc.ID{}, "notifications/resources/updated", `{`+sub+`,"uri":"file:///dir"}`)
	waitEvent(t, rec, func(n client.Notice) bool {
		return strings.Contains(n.Text, "ignored notifications/resources/updated of file:///dir on subscription "+req.ID.String())
	})
}

// TestSubscribeListenRefusals: an acknowledgement that leaves the URI out
// fails Subscribe with ErrNoSubscribe, one naming another URI is refused,
// and a server that never acknowledges is given up on when ctx ends; each
// stream is cancelled and nothing stays subscribed.
func TestSubscribeListenRefusals(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := subPeer(t, nil, rec)
	cancelledFor := func(req *jsonrpc.Message) {
		t.Helper()
		n := p.expect("notifications/cancelled")
		if got := string(params(t, n)["requestId"]); got != req.ID.String() {
			t.Errorf("cancelled %s, want %s", got, req.ID)
		}
	}

	done := subscribeAsync(t.Context(), s, "test://a")
	req := p.expect("subscriptions/listen")
	ackSub(p, req, `{}`)
	if err := <-done; !errors.Is(err, client.ErrNoSubscribe) || !strings.Contains(err.Error(), "left the URI out") {
		t.Errorf("Subscribe after an empty ack = %v", err)
	}
	cancelledFor(req)

	done = subscribeAsync(t.Context(), s, "test://a")
	req = p.expect("subscriptions/listen")
	ackSub(p, req, `{"resourceSubscriptions":["test://a","test://other"]}`)
	if err := <-done; err == nil || !strings.Contains(err.Error(), `did not ask for: resourceSubscriptions "test://other"`) {
		t.Errorf("Subscribe after an ack for more = %v", err)
	}
	cancelledFor(req)

	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	done = subscribeAsync(ctx, s, "test://a")
	req = p.expect("subscriptions/listen")
	if err := <-done; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Subscribe never acknowledged = %v", err)
	}
	cancelledFor(req)
	if got := s.ResourceSubscriptions(); len(got) != 0 {
		t.Errorf("subscribed %v", got)
	}
	// The session goes on: a new Subscribe opens a new stream.
	done = subscribeAsync(t.Context(), s, "test://a")
	req = p.expect("subscriptions/listen")
	ackSub(p, req, `{"resourceSubscriptions":["test://a"]}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestSubscribeListenServerEnds: a server that ends a resource stream
// (notifications/cancelled on stdio, or its graceful response) ends that
// subscription: a ResourceSubscriptionEnded event says which and why, and
// a later Subscribe opens it again.
func TestSubscribeListenServerEnds(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := subPeer(t, nil, rec)
	open := func(uri string) *jsonrpc.Message {
		t.Helper()
		done := subscribeAsync(t.Context(), s, uri)
		req := p.expect("subscriptions/listen")
		ackSub(p, req, `{"resourceSubscriptions":["`+uri+`"]}`)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		return req
	}
	a, b := open("test://a"), open("test://b")
	p.sendRaw(jsonrpc.ID{}, "notifications/cancelled", `{"requestId":`+a.ID.String()+`,"reason":"going away"}`)
	ended := waitEvent(t, rec, func(e client.ResourceSubscriptionEnded) bool { return e.URI == "test://a" })
	if ended.Err == nil || !strings.Contains(ended.Err.Error(), "going away") || ended.Server != "sub" {
		t.Errorf("ended %+v", ended)
	}
	p.respond(b.ID, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":`+b.ID.String()+`}}`)
	ended = waitEvent(t, rec, func(e client.ResourceSubscriptionEnded) bool { return e.URI == "test://b" })
	if ended.Err == nil || !strings.Contains(ended.Err.Error(), "server ended") {
		t.Errorf("ended %+v", ended)
	}
	waitFor(t, "both subscriptions forgotten", func() bool { return len(s.ResourceSubscriptions()) == 0 })
	open("test://a")
	if diff := cmp.Diff([]string{"test://a"}, s.ResourceSubscriptions()); diff != "" {
		t.Errorf("subscriptions (-want +got):\n%s", diff)
	}
}

// TestSubscribeListenEndsWithTheSession: closing the session ends its
// resource streams (goleak, in TestMain, sees their goroutines gone) and
// forgets them, without a ResourceSubscriptionEnded: ServerStateChanged
// says it already. Subscribe after Close fails.
func TestSubscribeListenEndsWithTheSession(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := subPeer(t, nil, rec)
	done := subscribeAsync(t.Context(), s, "test://a")
	ackSub(p, p.expect("subscriptions/listen"), `{"resourceSubscriptions":["test://a"]}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := s.ResourceSubscriptions(); len(got) != 0 {
		t.Errorf("subscribed after Close: %v", got)
	}
	for _, e := range rec.Events() {
		if e, ok := e.(client.ResourceSubscriptionEnded); ok {
			t.Errorf("reported %+v on Close", e)
		}
	}
	if err := s.Subscribe(t.Context(), "test://b"); err == nil {
		t.Error("Subscribe after Close succeeded")
	}
}
