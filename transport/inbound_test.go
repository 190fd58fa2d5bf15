package transport_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// An undecodable frame meant as a response, with an id, makes Read end that
// request (see transport.Conn): Inbound{ID, Err} with Err the
// *jsonrpc.DecodeError, so that the call it answers ends at once instead of
// waiting for a response that has come and gone.

// wantUndecodable checks in ends request id with its DecodeError.
func wantUndecodable(t *testing.T, in transport.Inbound, id int64) {
	t.Helper()
	var de *jsonrpc.DecodeError
	if in.Msg != nil || in.ID != jsonrpc.IntID(id) || !errors.As(in.Err, &de) || de.ID != in.ID || in.Received.IsZero() {
		t.Fatalf("got %+v, want request %d ended with its DecodeError", in, id)
	}
}

func TestStreamUndecodableResponse(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)
	lines := []string{
		`{"jsonrpc":"2.0","id":3,"result":{"a":[[[`,                               // cut short
		`{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":{"a":[[[`, // a request: the server's id space
		`{"jsonrpc":"1.0","id":5,"result":{}}`,                                    // wrong version
		`{"jsonrpc":"2.0","result":{}`,                                            // no id to name
		`{"jsonrpc":"2.0","id":6,"result":` + deep + `}`,                          // valid JSON, too deep to decode
		`{"jsonrpc":"2.0","id":7,"error":"not an object"}`,
		`{"jsonrpc":"2.0","id":8,"method":"ping"}`,
	}
	rec := &recorder{}
	c := transport.NewStream(strings.NewReader(strings.Join(lines, "\n")+"\n"), io.Discard, nopCloser{}, rec)
	defer c.Close()
	for _, id := range []int64{3, 5, 6, 7} {
		in, err := c.Read(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		wantUndecodable(t, in, id)
	}
	if m, err := msgOf(c.Read(t.Context())); err != nil || m.Method != "ping" {
		t.Fatalf("Read = %+v, %v; want the ping", m, err)
	}
	if _, err := c.Read(t.Context()); !errors.Is(err, io.EOF) {
		t.Fatalf("Read after the last line: %v, want EOF", err)
	}
	// Every bad line is an error frame, and nothing else is: ending a
	// request puts nothing on the wire.
	frames := rec.Frames()
	if len(frames) != len(lines) {
		t.Fatalf("%d frames for %d lines", len(frames), len(lines))
	}
	for i, f := range frames[:len(lines)-1] {
		if f.Err == nil {
			t.Errorf("frame %d (%.40s) has no error", i, f.Raw)
		}
	}
}

func TestHTTPUndecodableResponse(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		if m.Kind() != jsonrpc.KindRequest {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		httpSSEStart(w)
		httpSSE(w, `data: {"jsonrpc":"2.0","id":99,"result":{"a":[[[`+"\n\n") // no such request: skipped
		httpSSE(w, "data: "+httpEncode(t, httpNote(t, "notifications/message", map[string]any{"level": "info"}))+"\n\n")
		httpSSE(w, `data: {"jsonrpc":"2.0","id":`+m.ID.String()+`,"result":{"a":[[[`+"\n\n")
		// Past its response the stream is no longer read.
		httpSSE(w, "data: "+httpEncode(t, httpResp(t, m.ID, map[string]any{}))+"\n\n")
	})
	conn, log, _ := httpStart(t, h, nil)
	httpWrite(t, conn, httpReq(t, 1, "tools/call", nil))
	if m := httpRead(t, conn); m.Method != "notifications/message" {
		t.Fatalf("first = %+v, want the notification", m)
	}
	wantUndecodable(t, httpReadInbound(t, conn, 10*time.Second), 1)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if m, err := msgOf(conn.Read(ctx)); err == nil {
		t.Errorf("Read after the end of request 1: %+v, want nothing more", m)
	}
	// Two error frames, the bad events; none saying the stream ended
	// before its response.
	if errs := httpErrFrames(log.Frames()); len(errs) != 2 {
		t.Errorf("error frames %+v, want the two bad events", errs)
	}
}

func TestSSEUndecodableResponse(t *testing.T) {
	t.Parallel()
	s := newLegacyServer("/messages")
	log := newHTTPLog()
	srv := httptest.NewServer(log.wrap(s))
	t.Cleanup(srv.Close)
	conn, err := (&transport.SSE{URL: srv.URL + "/sse", Observer: log}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	s.events <- "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"x\",\"params\":[[[\n\n" // a request: skipped
	s.events <- "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"a\":[[[\n\n"
	wantUndecodable(t, httpReadInbound(t, conn, 10*time.Second), 3)
	if errs := httpErrFrames(log.Frames()); len(errs) != 2 {
		t.Errorf("error frames %+v, want the two bad events", errs)
	}
}
