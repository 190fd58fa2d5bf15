package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// httpSeen is one request as the test server saw it.
type httpSeen struct {
	Method string
	Header http.Header
	Body   []byte
	Msg    *jsonrpc.Message // the decoded POST body, if any
	At     time.Time
}

// httpLog records what reached the server and what the observer saw.
type httpLog struct {
	mu     sync.Mutex
	seen   []httpSeen
	frames []transport.Frame
	notify chan struct{} // poked on every request
}

func newHTTPLog() *httpLog { return &httpLog{notify: make(chan struct{}, 1)} }

// Frame implements transport.Observer.
func (l *httpLog) Frame(f transport.Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.frames = append(l.frames, f)
}

// Stderr implements transport.Observer.
func (l *httpLog) Stderr(string) {}

func (l *httpLog) Frames() []transport.Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.frames)
}

func (l *httpLog) Seen() []httpSeen {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seen)
}

// SeenMethod returns the recorded requests with the given HTTP method.
func (l *httpLog) SeenMethod(method string) []httpSeen {
	var out []httpSeen
	for _, s := range l.Seen() {
		if s.Method == method {
			out = append(out, s)
		}
	}
	return out
}

// WaitFor waits until pred holds for the recorded requests.
func (l *httpLog) WaitFor(t *testing.T, what string, pred func([]httpSeen) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !pred(l.Seen()) {
		select {
		case <-l.notify:
		case <-deadline:
			t.Fatalf("timed out waiting for %s; saw %d requests", what, len(l.Seen()))
		}
	}
}

// wrap records each request (and its body, which it puts back) before h.
func (l *httpLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := httpSeen{Method: r.Method, Header: r.Header.Clone(), At: time.Now()}
		if r.Body != nil {
			s.Body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(strings.NewReader(string(s.Body)))
			if m, err := jsonrpc.Decode(s.Body); err == nil {
				s.Msg = m
			}
		}
		l.mu.Lock()
		l.seen = append(l.seen, s)
		l.mu.Unlock()
		select {
		case l.notify <- struct{}{}:
		default:
		}
		h.ServeHTTP(w, r)
	})
}

// httpStart serves h (recorded) and returns a Conn dialled to it, with the
// log as observer. Both are closed by t.Cleanup, Conn first.
func httpStart(t *testing.T, h http.Handler, opts *transport.HTTP) (transport.Conn, *httpLog, *httptest.Server) {
	t.Helper()
	log := newHTTPLog()
	srv := httptest.NewServer(log.wrap(h))
	t.Cleanup(srv.Close)
	tr := transport.HTTP{}
	if opts != nil {
		tr = *opts
	}
	tr.URL = srv.URL
	tr.Observer = log
	conn, err := tr.Dial(t.Context())
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn, log, srv
}

func httpReq(t testing.TB, id int64, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(id), method, params)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func httpNote(t testing.TB, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func httpResp(t testing.TB, id jsonrpc.ID, result any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewResponse(id, result)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// httpEncode renders a message for a scripted server.
func httpEncode(t testing.TB, m *jsonrpc.Message) string {
	t.Helper()
	b, err := jsonrpc.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// httpRead reads one message, failing the test after 10 s.
func httpRead(t *testing.T, c transport.Conn) *jsonrpc.Message {
	t.Helper()
	return httpReadWithin(t, c, 10*time.Second)
}

// httpReadWithin reads one message, failing the test after d.
func httpReadWithin(t *testing.T, c transport.Conn, d time.Duration) *jsonrpc.Message {
	t.Helper()
	in := httpReadInbound(t, c, d)
	if in.Msg == nil {
		t.Fatalf("Read: request %s ended without a message: %v", in.ID, in.Err)
	}
	return in.Msg
}

// httpReadInbound reads whatever Read delivers next, failing the test on
// an error or after d.
func httpReadInbound(t *testing.T, c transport.Conn, d time.Duration) transport.Inbound {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	in, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return in
}

// httpWrite writes m, failing the test on error.
func httpWrite(t *testing.T, c transport.Conn, m *jsonrpc.Message) {
	t.Helper()
	httpWriteWith(t, c, m, nil)
}

// httpWriteWith is httpWrite with write options.
func httpWriteWith(t *testing.T, c transport.Conn, m *jsonrpc.Message, opts *transport.WriteOptions) {
	t.Helper()
	if err := c.Write(t.Context(), m, opts); err != nil {
		t.Fatalf("Write %s: %v", m.Method, err)
	}
}

// httpSSE writes raw event-stream text and flushes it.
func httpSSE(w http.ResponseWriter, s string) {
	_, _ = io.WriteString(w, s)
	w.(http.Flusher).Flush()
}

// httpSSEStart sends the headers of an event-stream reply.
func httpSSEStart(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
}

// httpJSON answers with one JSON message.
func httpJSON(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, body)
}

// httpErrFrames returns the frames that carry an error.
func httpErrFrames(fs []transport.Frame) []transport.Frame {
	var out []transport.Frame
	for _, f := range fs {
		if f.Err != nil {
			out = append(out, f)
		}
	}
	return out
}

// httpResult unmarshals a response's result, failing on an error response.
func httpResult(t *testing.T, m *jsonrpc.Message, v any) {
	t.Helper()
	if m.Kind() != jsonrpc.KindResponse {
		t.Fatalf("got a %s (%s), want a response", m.Kind(), m.Method)
	}
	if m.Error != nil {
		t.Fatalf("error response: %v", m.Error)
	}
	if err := json.Unmarshal(m.Result, v); err != nil {
		t.Fatalf("result: %v", err)
	}
}

// httpIsClosed reports whether err is the ErrClosed of a closed Conn.
func httpIsClosed(err error) bool { return errors.Is(err, transport.ErrClosed) }

// httpReqBody reads a request body (the recorder already buffered it).
func httpReqBody(r *http.Request) []byte {
	b, _ := io.ReadAll(r.Body)
	return b
}
