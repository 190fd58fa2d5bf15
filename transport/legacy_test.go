package transport_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// legacyServer is a scripted HTTP+SSE server: GET /sse sends the endpoint
// event (endpoint), then whatever is pushed on events, until drop closes or
// the client goes; POST /messages is answered with postStatus and its
// message echoed (a request gets an empty result on the stream).
type legacyServer struct {
	endpoint   string
	postStatus int
	events     chan string
	drop       chan struct{}
	dropOnce   sync.Once
}

func newLegacyServer(endpoint string) *legacyServer {
	return &legacyServer{endpoint: endpoint, postStatus: http.StatusAccepted, events: make(chan string, 16), drop: make(chan struct{})}
}

func (s *legacyServer) Drop() { s.dropOnce.Do(func() { close(s.drop) }) }

func (s *legacyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/sse":
		httpSSEStart(w)
		httpSSE(w, ": hello\n\nevent: endpoint\ndata: "+s.endpoint+"\n\n")
		for {
			select {
			case ev := <-s.events:
				httpSSE(w, ev)
			case <-s.drop:
				return
			case <-r.Context().Done():
				return
			}
		}
	case r.Method == http.MethodPost && r.URL.Path == "/messages":
		m, err := jsonrpc.Decode(httpReqBody(r))
		if err != nil || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad message", http.StatusBadRequest)
			return
		}
		if s.postStatus != http.StatusAccepted {
			http.Error(w, "no such session", s.postStatus)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, "Accepted")
		if m.Kind() == jsonrpc.KindRequest {
			b, _ := jsonrpc.Encode(&jsonrpc.Message{ID: m.ID, Result: []byte(`{}`)})
			s.events <- "event: message\ndata: " + string(b) + "\n\n"
		}
	default:
		http.NotFound(w, r)
	}
}

// The endpoint is resolved against the SSE URL; messages go there; server
// requests and notifications on the stream reach Read, in order, whatever
// their event type ("message" or none); other event types and bad JSON are
// skipped (the latter as an error frame); custom headers go everywhere.
func TestSSERoundTrip(t *testing.T) {
	t.Parallel()
	s := newLegacyServer("/messages?sessionId=abc")
	log := newHTTPLog()
	srv := httptest.NewServer(log.wrap(s))
	t.Cleanup(srv.Close)
	conn, err := (&transport.SSE{URL: srv.URL + "/sse", Observer: log, Header: http.Header{"X-Tenant": {"blue"}}}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })

	s.events <- "event: message\nid: 1\ndata: " + httpEncode(t, httpReq(t, 7, "elicitation/create", map[string]any{"message": "hi"})) + "\n\n"
	s.events <- "event: ping\ndata: {}\n\n"
	s.events <- "data: {not json\n\n"
	s.events <- "data: " + httpEncode(t, httpNote(t, "notifications/message", map[string]any{"level": "info"})) + "\n\n"
	if m := httpRead(t, conn); m.Method != "elicitation/create" || m.ID != jsonrpc.IntID(7) {
		t.Fatalf("first = %+v, want the elicitation request", m)
	}
	if m := httpRead(t, conn); m.Method != "notifications/message" {
		t.Fatalf("second = %+v, want the log notification", m)
	}
	httpWrite(t, conn, httpResp(t, jsonrpc.IntID(7), map[string]any{"action": "decline"}))
	httpWrite(t, conn, httpReq(t, 1, "tools/list", nil))
	if m := httpRead(t, conn); m.ID != jsonrpc.IntID(1) || m.Kind() != jsonrpc.KindResponse {
		t.Fatalf("third = %+v, want the tools/list response", m)
	}

	posts := log.SeenMethod(http.MethodPost)
	if len(posts) != 2 || posts[0].Msg.ID != jsonrpc.IntID(7) || posts[0].Msg.Kind() != jsonrpc.KindResponse {
		t.Fatalf("POSTs = %+v, want the elicitation answer then tools/list", posts)
	}
	for _, s := range log.Seen() {
		if s.Header.Get("X-Tenant") != "blue" {
			t.Errorf("%s lacks the custom header", s.Method)
		}
	}
	var errs, elicitFrame int
	for _, f := range log.Frames() {
		if f.Err != nil {
			errs++
			if !strings.Contains(string(f.Raw), "not json") {
				t.Errorf("unexpected error frame: %v", f.Err)
			}
		}
		if f.Dir == transport.In && strings.Contains(string(f.Raw), "elicitation/create") {
			elicitFrame++
			if f.HTTP.EventID != "1" || f.HTTP.Method != http.MethodGet {
				t.Errorf("elicitation frame HTTP = %+v", f.HTTP)
			}
		}
		if f.Dir == transport.Out && f.HTTP.URL != srv.URL+"/messages?sessionId=abc" {
			t.Errorf("outgoing frame URL = %q", f.HTTP.URL)
		}
	}
	if errs != 1 || elicitFrame != 1 {
		t.Errorf("%d error frames, %d elicitation frames; want 1 and 1", errs, elicitFrame)
	}
}

// An endpoint event naming another origin is refused: our messages (and
// the custom headers, maybe credentials) must not go elsewhere.
func TestSSEEndpointOtherOrigin(t *testing.T) {
	t.Parallel()
	for _, ep := range []string{
		"http://evil.example/messages",
		"//evil.example/messages",
		"https://127.0.0.1/messages", // same host, other scheme and port
	} {
		log := newHTTPLog()
		srv := httptest.NewServer(log.wrap(newLegacyServer(ep)))
		conn, err := (&transport.SSE{URL: srv.URL + "/sse", Observer: log}).Dial(t.Context())
		if err == nil {
			_ = conn.Close()
			t.Errorf("endpoint %q: Dial succeeded", ep)
		} else if !strings.Contains(err.Error(), "another origin") {
			t.Errorf("endpoint %q: error %q does not say why", ep, err)
		}
		srv.Close()
		if n := len(log.SeenMethod(http.MethodPost)); n != 0 {
			t.Errorf("endpoint %q: %d POSTs", ep, n)
		}
	}
	// The same origin spelled out in full is fine.
	s := newLegacyServer("")
	srv := httptest.NewUnstartedServer(s)
	s.endpoint = "http://" + srv.Listener.Addr().String() + "/messages"
	srv.Start()
	t.Cleanup(srv.Close)
	conn, err := (&transport.SSE{URL: srv.URL + "/sse"}).Dial(t.Context())
	if err != nil {
		t.Fatalf("absolute same-origin endpoint: %v", err)
	}
	defer conn.Close()
	httpWrite(t, conn, httpNote(t, "notifications/initialized", nil))
}

// When the server ends the stream, the connection is lost: queued messages
// still come, then Read fails with an error wrapping io.EOF, and so does
// Write. There is no reconnect.
func TestSSEStreamDropped(t *testing.T) {
	t.Parallel()
	s := newLegacyServer("/messages")
	conn, log, _ := sseStart(t, s, "/sse")
	s.events <- "data: " + httpEncode(t, httpNote(t, "notifications/message", map[string]any{})) + "\n\n"
	if m := httpRead(t, conn); m.Method != "notifications/message" {
		t.Fatalf("first = %+v", m)
	}
	s.Drop()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err := conn.Read(ctx)
	if !errors.Is(err, io.EOF) || errors.Is(err, transport.ErrClosed) || !strings.Contains(err.Error(), "lost") {
		t.Fatalf("Read after the drop = %v, want connection lost (io.EOF)", err)
	}
	if err := conn.Write(t.Context(), httpNote(t, "x", nil), nil); !errors.Is(err, io.EOF) {
		t.Errorf("Write after the drop = %v", err)
	}
	if gets := log.SeenMethod(http.MethodGet); len(gets) != 1 {
		t.Errorf("%d GETs, want 1 (no resume in this protocol)", len(gets))
	}
}

// Failures: a GET refused with a status (the fallback gives up with a
// StatusError), a stream that ends before its endpoint, a reply that is not
// an event stream, a Dial whose ctx ends while waiting, a POST refused.
func TestSSEFailures(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "nope", http.StatusNotFound) })
	mux.HandleFunc("/short", func(w http.ResponseWriter, r *http.Request) {
		httpSSEStart(w)
		httpSSE(w, "data: "+httpEncode(t, httpNote(t, "x", nil))+"\n\n")
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) { httpJSON(w, "{}") })
	mux.HandleFunc("/silent", func(w http.ResponseWriter, r *http.Request) {
		httpSSEStart(w)
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	_, err := (&transport.SSE{URL: srv.URL + "/gone"}).Dial(t.Context())
	var se *transport.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusNotFound {
		t.Errorf("GET 404: Dial = %v, want a StatusError", err)
	}
	if _, err := (&transport.SSE{URL: srv.URL + "/short"}).Dial(t.Context()); !errors.Is(err, io.EOF) {
		t.Errorf("no endpoint: Dial = %v, want io.EOF", err)
	}
	if _, err := (&transport.SSE{URL: srv.URL + "/json"}).Dial(t.Context()); err == nil || !strings.Contains(err.Error(), "event stream") {
		t.Errorf("JSON reply: Dial = %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, err := (&transport.SSE{URL: srv.URL + "/silent"}).Dial(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("silent server: Dial = %v, want the ctx deadline", err)
	}
	for _, u := range []string{"", "ftp://x/", "http://", "::"} {
		if c, err := (&transport.SSE{URL: u}).Dial(t.Context()); err == nil {
			_ = c.Close()
			t.Errorf("Dial(%q) succeeded", u)
		}
	}

	s := newLegacyServer("/messages")
	s.postStatus = http.StatusNotFound
	conn, log, _ := sseStart(t, s, "/sse")
	err = conn.Write(t.Context(), httpReq(t, 1, "tools/list", nil), nil)
	if !errors.As(err, &se) || se.StatusCode != http.StatusNotFound || !strings.Contains(string(se.Body), "no such session") {
		t.Errorf("POST 404: Write = %v, want a StatusError with the body", err)
	}
	if n := len(httpErrFrames(log.Frames())); n != 1 {
		t.Errorf("%d error frames, want 1 for the refused POST", n)
	}
}

// Close unblocks Read with ErrClosed, makes Write fail with it, and is
// idempotent; goleak (TestMain) checks that nothing is left running.
func TestSSEClose(t *testing.T) {
	t.Parallel()
	conn, log, _ := sseStart(t, newLegacyServer("/messages"), "/sse")
	readErr := make(chan error, 1)
	go func() {
		_, err := conn.Read(context.Background())
		readErr <- err
	}()
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-readErr:
		if !httpIsClosed(err) {
			t.Errorf("pending Read = %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not unblock Read")
	}
	if err := conn.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := conn.Write(t.Context(), httpNote(t, "x", nil), nil); !httpIsClosed(err) {
		t.Errorf("Write after Close = %v", err)
	}
	if _, err := conn.Read(t.Context()); !httpIsClosed(err) {
		t.Errorf("Read after Close = %v", err)
	}
	if errs := httpErrFrames(log.Frames()); len(errs) != 0 {
		t.Errorf("Close produced error frames: %+v", errs)
	}
}

// A server that opens the stream and sends only keep-alives, never the
// endpoint event: Dial given a ctx without deadline still ends, after
// EndpointTimeout, with an error that says what was missing.
func TestSSEDialNoEndpoint(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpSSEStart(w)
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(10 * time.Millisecond):
				httpSSE(w, ": keep-alive\n\n")
			}
		}
	})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	// Run first: a Dial still waiting would keep Close waiting too.
	t.Cleanup(srv.CloseClientConnections)
	done := make(chan error, 1)
	go func() {
		c, err := (&transport.SSE{URL: srv.URL + "/sse", EndpointTimeout: 200 * time.Millisecond}).Dial(context.Background())
		if err == nil {
			_ = c.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no endpoint event within 200ms") {
			t.Fatalf("Dial = %v, want the endpoint wait to have run out", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Dial without a deadline waited for ever for the endpoint event")
	}
}
